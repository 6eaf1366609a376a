"""`referee room ...`: the GM's hand on the room's wall (the table page on the projector) and
on the room's clock.

The wall lives in ``PATH.room`` beside the evening (E82), read by `referee serve` with every
frame, so a command typed here, in `referee shell` or through a second station shows on the
wall within a poll; `blank`, `show`, `announce`, `replay` and `odds` change only that file.
The clock is the evening's (R47): `pause`, `resume` and `break` are moves kept in its log
(``referee.evening.clock``), so `undo` takes them back, and the wall counts a break down.
"""

from __future__ import annotations

import dataclasses
import time
from typing import TYPE_CHECKING, Annotated

import typer

from referee.cli.context import current, db_path
from referee.cli.printing import clock as shown
from referee.cli.printing import emit_json, lit, say
from referee.cli.table.history import read_history
from referee.cli.typed_most import perform, read_state
from referee.errors import BadInput, RefereeError, StoreError
from referee.evening import clock
from referee.names import check_text, plural
from referee.serve.room import MAX_ANNOUNCEMENT, Room, change_room, load_room, with_clock
from referee.storage.files import check_path

if TYPE_CHECKING:
    from collections.abc import Callable

    from referee.cli.transaction import Done
    from referee.evening.state import State

app = typer.Typer(help="The room's wall (the projector's page) and clock: blank it, show the "
                       "table, announce, a break, pause and resume the clock, sound (E82, "
                       "R47).",
                  no_args_is_help=True)


def _change(change: Callable[[Room], Room]) -> Room:
    return change_room(db_path(), change, dry=current().dry_run)


@app.command("blank")
def blank() -> None:
    """Darken the wall: the room sees nothing until `room show` (E82)."""
    _change(lambda room: dataclasses.replace(room, blank=True))
    say("The wall is blank: the room sees nothing until `referee room show` (E82).")


@app.command("show")
def show() -> None:
    """The table on the wall again: ends a blank, an announcement, a break (E82, R47) and a
    replay (E136)."""
    now = time.time()
    state = _evening()
    if state is not None and _on_break(state, now):
        # R47: the break is the evening's; it ends here as `room resume` would end it
        was = with_clock(Room(), clock.paused(state, now)).says(now)

        def answer(outcome: Done) -> None:
            after = outcome.after
            _show_table(now, [was], (f"; the clock runs again {_played(after, now)} (R47)"
                                     if clock.clock_end(after, now) is None else ""))

        perform("room show", {"now": now}, then=answer)
        return
    _show_table(now, [], "")


def _show_table(now: float, before: list[str], ran: str) -> None:
    """The wall shows the table again (`room show`): what it showed before is said."""

    def clear(room: Room) -> Room:
        replay = room.more.get("replay")
        said = room.says(now)
        if isinstance(replay, dict):
            said = (f"the replay of hand {replay.get('hand')}" if said == "the table"
                    else f"{said}; the replay of hand {replay.get('hand')}")
        before.append(said)
        more = {k: v for k, v in room.more.items() if k != "replay"}  # E136: a replay ends
        return dataclasses.replace(room, blank=False, announce=None, pause=None, more=more)

    _change(clear)
    said = "; ".join(b for b in before if b != "the table")
    ended = f" (it showed {lit(said)})" if said else ""
    say(f"The wall shows the table{ended}{ran}.")


def _evening() -> State | None:
    """The evening beside the wall, or None when there is no file or no evening in it yet
    (the wall's own commands say so)."""
    path = db_path()
    check_path(path)  # E94
    if not path.exists():
        return None
    try:
        return read_state()
    except RefereeError:
        return None


def _on_break(state: State, now: float) -> bool:
    """Whether the evening is on a break at ``now`` (R47)."""
    stop = clock.stopped(state, now)
    return stop is not None and stop["why"] == "break"


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
def take_break(
    minutes: Annotated[int, typer.Argument(
        min=1, max=180, help="Minutes until play resumes (1-180).")],
) -> None:
    """A break: the clock stands still and the wall counts MINUTES down over the table, then
    both run on by themselves; `room resume` ends it sooner (R47, E82)."""
    now = time.time()

    def answer(outcome: Done) -> None:
        _, after, _ = outcome
        back = time.strftime("%H:%M", time.localtime(now + minutes * 60))
        if clock.clock_end(after, now) is not None:  # E80: the clock stopped at the end
            say(f"A break of {plural(minutes, 'minute')}, back at {back}, counted down on the "
                "wall; the evening's clock stopped for good at its end (E80).")
            return
        say(f"A break of {plural(minutes, 'minute')}, back at {back}: the clock stands still "
            f"{_played(after, now)} and runs again by itself then; the wall counts it down "
            "(`referee room resume` ends it sooner; R47).")

    perform("room break", {"minutes": minutes, "now": now}, then=answer)


@app.command("pause")
def pause() -> None:
    """Stop the evening's clock until `room resume`: the hour of R13 counts play only (R47)."""
    now = time.time()

    def answer(outcome: Done) -> None:
        _, after, _ = outcome
        say(f"The clock is paused {_played(after, now)}: `referee room resume` starts it again "
            "(R47).")

    perform("room pause", {"now": now}, then=answer)


@app.command("resume")
def resume() -> None:
    """Start the evening's clock again after `room pause`, or end a break now (R47)."""
    now = time.time()

    def answer(outcome: Done) -> None:
        before, after, _ = outcome
        stop = before.stop
        what = "break" if stop is not None and stop["why"] == "break" else "pause"
        took = int(now - stop["at"]) if stop is not None else 0
        if clock.clock_end(after, now) is not None:  # E80
            say(f"The {what} is over after {shown(took, exact=True)}; the evening's clock "
                f"stopped for good at its end, {_played(after, now)} (E80).")
            return
        say(f"The clock runs again {_played(after, now)}, after a {what} of "
            f"{shown(took, exact=True)} (R47).")

    perform("room resume", {"now": now}, then=answer)


def _played(state: State, now: float) -> str:
    """Where the clock stands at ``now``, in words (R47)."""
    seconds = clock.play_time(state, now)
    if seconds is None:
        return "before the first hand (the clock starts with it, R13)"
    return f"at {shown(int(seconds), exact=True)} of play"


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
    on = _switch("odds", switch, "H31")
    say("The wall shows each live player's chance on what is showing, during a hand (H31)."
        if on else "The wall shows no chances (H31).")


@app.command("sound")
def sound(
    switch: Annotated[str, typer.Argument(metavar="on|off",
                                          help="on: the wall chimes; off: it is silent.")],
) -> None:
    """A chime on the wall when the hour of R13 comes, a short one when a hand ends; made by
    the browser itself, nothing loaded (E201)."""
    on = _switch("sound", switch, "E201")
    say("The wall chimes when the hour of play is up (R13) and briefly when a hand ends; a "
        "browser plays nothing until the page is clicked once (E201)." if on
        else "The wall is silent (E201).")


@app.command("voice")
def voice(
    switch: Annotated[str, typer.Argument(metavar="on|off",
                                          help="on: the wall says each turn; off: it does not.")],
) -> None:
    """The wall says each turn aloud in the browser's own voice: "Ada to act, owes two"
    (E201)."""
    on = _switch("voice", switch, "E201")
    say("The wall says each turn aloud (\"Ada to act, owes two\"); a browser speaks only "
        "once the page is clicked (E201)." if on else "The wall says no turn aloud (E201).")


def _switch(key: str, switch: str, ruling: str) -> bool:
    """Turn the wall's ``key`` on or off (kept in the wall's file only, E82)."""
    word = switch.strip().lower()
    if word not in ("on", "off"):
        raise BadInput(f"room {key} {switch!r}: give on or off ({ruling})", ruling=ruling)
    on = word == "on"
    _change(lambda room: dataclasses.replace(
        room, more={**{k: v for k, v in room.more.items() if k != key},
                    **({key: True} if on else {})}))
    return on


@app.command("status")
def status(
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")] = False,
) -> None:
    """What the wall shows now, and the evening's clock (E82, R47)."""
    path = db_path()
    check_path(path)  # E94
    if not path.exists():
        raise StoreError(f"no evening file at {path}; the wall belongs to an evening: name "
                         "it with --db PATH")
    now = time.time()
    state = _evening()
    paused = None
    if state is not None:
        paused = clock.paused(state, now)
    room = with_clock(load_room(path), paused)  # R47: the evening's break is on the wall
    replay = room.more.get("replay")
    hand = replay.get("hand") if isinstance(replay, dict) else None
    on = room.more.get("odds") is True
    sound, voice = room.more.get("sound") is True, room.more.get("voice") is True
    if as_json:
        emit_json({**room.wall(now), "replay": hand, "odds": on, "sound": sound,
                   "voice": voice, "clock_paused": paused})
        return
    extra = (f"; hand {hand} replayed (E136)" if hand else "") + \
        ("; the chances during a hand (H31)" if on else "") + \
        ("; chimes (E201)" if sound else "") + ("; turns said aloud (E201)" if voice else "")
    said_clock = "" if state is None else " " + _clock_says(state, now)
    say(f"The wall shows {lit(room.says(now))}{extra}.{said_clock}")


def _clock_says(state: State, now: float) -> str:
    """The evening's clock in one sentence (R47)."""
    stop = clock.stopped(state, now)
    if clock.clock_end(state, now) is not None:
        return f"The clock stopped for good at the evening's end, {_played(state, now)} (E80)."
    if stop is None:
        return f"The clock runs, {_played(state, now)}."
    if stop["until"] is None:
        return f"The clock is paused {_played(state, now)} (R47)."
    return f"The clock stands still {_played(state, now)} for the break (R47)."


def register(root: typer.Typer) -> None:
    """Add the `room` group (Status) to the root app."""
    root.add_typer(app, name="room", rich_help_panel="Status")
