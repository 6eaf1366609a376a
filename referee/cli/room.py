"""`referee room ...`: the GM's hand on the room's wall (the table page on the projector).

None of these touch the evening: the wall lives in ``PATH.room`` beside it (E82), read by
`referee serve` with every frame, so a command typed here, in `referee shell` or through a
second station shows on the wall within a poll. Each subcommand is one change of
``referee.serve.room.Room``; later ones (a replay of a hand, the odds on the wall) join the same
record and the same group.
"""

from __future__ import annotations

import dataclasses
import time
from typing import TYPE_CHECKING, Annotated

import typer

from referee.cli.context import db_path
from referee.cli.history import read_history
from referee.cli.output import emit_json, lit, say
from referee.errors import BadInput, StoreError
from referee.names import check_text, plural
from referee.serve.room import MAX_ANNOUNCEMENT, change_room, load_room
from referee.storage.files import check_path

if TYPE_CHECKING:
    from collections.abc import Callable

    from referee.serve.room import Room

app = typer.Typer(help="The room's wall (the projector's page): blank it, show the table, "
                       "announce, a break (E82). The evening itself is never touched.",
                  no_args_is_help=True)


def _change(change: Callable[[Room], Room]) -> Room:
    return change_room(db_path(), change)


@app.command("blank")
def blank() -> None:
    """Darken the wall: the room sees nothing until `room show` (E82)."""
    _change(lambda room: dataclasses.replace(room, blank=True))
    say("The wall is blank: the room sees nothing until `referee room show` (E82).")


@app.command("show")
def show() -> None:
    """The table on the wall again: ends a blank, an announcement, a break (E82) and a
    replay (E136)."""
    before: list[str] = []

    def clear(room: Room) -> Room:
        replay = room.more.get("replay")
        said = room.says(time.time())
        if isinstance(replay, dict):
            said = (f"the replay of hand {replay.get('hand')}" if said == "the table"
                    else f"{said}; the replay of hand {replay.get('hand')}")
        before.append(said)
        more = {k: v for k, v in room.more.items() if k != "replay"}  # E136: a replay ends
        return dataclasses.replace(room, blank=False, announce=None, pause=None, more=more)

    _change(clear)
    ended = f" (it showed {lit(before[0])})" if before and before[0] != "the table" else ""
    say(f"The wall shows the table{ended}.")


@app.command("announce")
def announce(
    text: Annotated[str, typer.Argument(help="The words for the room, at most 200 characters.")],
    seconds: Annotated[int, typer.Option(
        "--for", metavar="SECONDS", min=0, max=12 * 3600,
        help="Seconds on the wall; 0 keeps it up until `room show`.")] = 60,
) -> None:
    """Put TEXT on the wall over the table, for 60 seconds unless --for says (E82)."""
    line = check_text(text, "announcement", MAX_ANNOUNCEMENT)  # E42, E75
    now = time.time()
    until = None if seconds == 0 else now + seconds
    _change(lambda room: dataclasses.replace(
        room, blank=False, announce={"text": line, "at": now, "until": until}))
    how = "until `referee room show`" if until is None else f"for {seconds} s"
    say(f"On the wall {how}: {lit(line)}")


@app.command("break")
def pause(
    minutes: Annotated[int, typer.Argument(
        min=1, max=180, help="Minutes until play resumes (1-180).")],
) -> None:
    """A break: the wall counts MINUTES down over the table, then shows it again (E82)."""
    now = time.time()
    until = now + minutes * 60
    _change(lambda room: dataclasses.replace(
        room, blank=False, pause={"minutes": minutes, "at": now, "until": until}))
    back = time.strftime("%H:%M", time.localtime(until))
    say(f"On the wall: a break of {minutes} minute{'s' if minutes != 1 else ''}, back at "
        f"{back} (`referee room show` ends it sooner).")


@app.command("replay")
def replay(
    no: Annotated[int, typer.Argument(metavar="N", min=1, help="The finished hand's number.")],
) -> None:
    """Replay finished hand N on the wall, move by move, until `room show` (E136)."""
    told = read_history(no)  # E135: a hand played to its end, or one line why not
    now = time.time()
    _change(lambda room: dataclasses.replace(
        room, blank=False, announce=None, pause=None,
        more={**room.more, "replay": {"hand": no, "at": now}}))
    say(f"On the wall: hand {no} replayed move by move ({plural(len(told['rounds']), 'round')}); "
        "`referee room show` ends it (E136).")


@app.command("odds")
def odds(
    switch: Annotated[str, typer.Argument(metavar="on|off",
                                          help="on: the chances on the wall; off: none.")],
) -> None:
    """Each live player's chance on what is showing, on the wall during a hand: only when
    asked, never by default (H31)."""

    word = switch.strip().lower()
    if word not in ("on", "off"):
        raise BadInput(f"room odds {switch!r}: give on or off (H31)", ruling="H31")
    on = word == "on"
    _change(lambda room: dataclasses.replace(
        room, more={**{k: v for k, v in room.more.items() if k != "odds"},
                    **({"odds": True} if on else {})}))
    say("The wall shows each live player's chance on what is showing, during a hand (H31)."
        if on else "The wall shows no chances (H31).")


@app.command("status")
def status(
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")] = False,
) -> None:
    """What the wall shows now (E82)."""
    path = db_path()
    check_path(path)  # E94
    if not path.exists():
        raise StoreError(f"no evening file at {path}; the wall belongs to an evening: name "
                         "it with --db PATH")
    room = load_room(path)
    now = time.time()
    replay = room.more.get("replay")
    hand = replay.get("hand") if isinstance(replay, dict) else None
    on = room.more.get("odds") is True
    if as_json:
        emit_json({**room.wall(now), "replay": hand, "odds": on})
        return
    extra = (f"; hand {hand} replayed (E136)" if hand else "") + \
        ("; the chances during a hand (H31)" if on else "")
    say(f"The wall shows {lit(room.says(now))}{extra}.")


def register(root: typer.Typer) -> None:
    """Add the `room` group (Status) to the root app."""
    root.add_typer(app, name="room", rich_help_panel="Status")
