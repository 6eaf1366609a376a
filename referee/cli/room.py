"""`referee room ...`: the GM's hand on the room's wall (the table page on the projector).

None of these touch the evening: the wall lives in ``PATH.room`` beside it (E82), read by
`referee serve` with every frame, so a command typed here, in `referee shell` or through a
second station shows on the wall within a poll. Each subcommand is one change of
``referee.serve.room.Room``; later ones (a replay of a hand, the odds on the wall) join the same
record and the same group.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Annotated

import typer

from referee.cli.context import db_path
from referee.cli.output import emit_json, lit, say

if TYPE_CHECKING:
    from collections.abc import Callable

    from referee.serve.room import Room

app = typer.Typer(help="The room's wall (the projector's page): blank it, show the table, "
                       "announce, a break (E82). The evening itself is never touched.",
                  no_args_is_help=True)


def _change(change: Callable[[Room], Room]) -> Room:
    from referee.serve.room import change_room

    return change_room(db_path(), change)


@app.command("blank")
def blank() -> None:
    """Darken the wall: the room sees nothing until `room show` (E82)."""
    import dataclasses

    _change(lambda room: dataclasses.replace(room, blank=True))
    say("The wall is blank: the room sees nothing until `referee room show` (E82).")


@app.command("show")
def show() -> None:
    """The table on the wall again: ends a blank, an announcement and a break (E82)."""
    import dataclasses

    before: list[str] = []

    def clear(room: Room) -> Room:
        before.append(room.says(time.time()))
        return dataclasses.replace(room, blank=False, announce=None, pause=None)

    _change(clear)
    ended = f" (it showed {lit(before[0])})" if before and before[0] != "the table" else ""
    say(f"The wall shows the table{ended}.")


@app.command("announce")
def announce(
    text: Annotated[str, typer.Argument(help="The words for the room, at most 200 characters.")],
    seconds: Annotated[int, typer.Option(
        "--for", min=0, max=12 * 3600,
        help="Seconds on the wall; 0 keeps it up until `room show`.")] = 60,
) -> None:
    """Put TEXT on the wall over the table, for 60 seconds unless --for says (E82)."""
    import dataclasses

    from referee.names import check_text
    from referee.serve.room import MAX_ANNOUNCEMENT

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
    import dataclasses

    now = time.time()
    until = now + minutes * 60
    _change(lambda room: dataclasses.replace(
        room, blank=False, pause={"minutes": minutes, "at": now, "until": until}))
    back = time.strftime("%H:%M", time.localtime(until))
    say(f"On the wall: a break of {minutes} minute{'s' if minutes != 1 else ''}, back at "
        f"{back} (`referee room show` ends it sooner).")


@app.command("status")
def status(
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")] = False,
) -> None:
    """What the wall shows now (E82)."""
    from referee.errors import StoreError
    from referee.serve.room import load_room
    from referee.storage.files import check_path

    path = db_path()
    check_path(path)  # E94
    if not path.exists():
        raise StoreError(f"no evening file at {path}; the wall belongs to an evening: name "
                         "it with --db PATH")
    room = load_room(path)
    now = time.time()
    if as_json:
        emit_json(room.wall(now))
        return
    say(f"The wall shows {lit(room.says(now))}.")


def register(root: typer.Typer) -> None:
    """Add the `room` group (Status) to the root app."""
    root.add_typer(app, name="room", rich_help_panel="Status")
