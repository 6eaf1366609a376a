"""The table view for players, as plain data, and the poll that notices a changed evening.

``frame(state)`` is everything ``referee watch`` shows on the players' screen, and nothing
it must not: no soul identities, aliases or Arcana, no clue text, no powers held, no down
cards (the state never holds down cards; up cards are public at the table). The CLI renders
it; tests read it.

``follow(path)`` polls the evening file's stat (every write is an atomic ``os.replace``, so
a new inode, mtime or size means a new evening) and says when to re-read and when to redraw
the clock, so the screen follows another terminal within a poll interval.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from referee.evening.state import State

STREAM = "evening"

Signature = tuple[int, int, int, int]


def frame(state: State, now: float | None = None) -> dict[str, Any]:
    """The players' view of the evening at ``now``: seats, stacks, pots, turn, clock.

    Every key is safe to show the whole table.
    """
    from referee.evening import powers, views
    from referee.evening.state import POT
    from referee.rules.cards import arcanum_label, to_roman

    data = views.status(state, now)
    hand = data["hand"]
    colours = state.colours()

    def chips(name: str) -> dict[str, int]:
        held = state.holding(name)
        return {c: held[c] for c in colours if held.get(c)}

    def seat_state(name: str) -> str:
        if hand is None or name not in hand["in"] + hand["folded"]:
            return ""
        if name in hand["folded"]:
            return "folded"
        if name in hand["all_in"]:
            return "all-in"
        return "in"

    seats = []
    for i, seat in enumerate(state.seats, 1):
        away = ("resigned" if seat.resigned else "dead" if seat.dead
                else "risen" if not seat.seated else "")
        seats.append({
            "seat": i,
            "name": seat.name,
            "arcanum": to_roman(seat.arcanum),
            "arcanum_label": arcanum_label(seat.arcanum),
            "colour": seat.colour,
            "chips": chips(seat.name),
            "stack": state.stack(seat.name),
            "side_chips": state.side_chips(seat.name),
            "charges": state.charges.get(seat.name, 0),
            "away": away,
            "in_hand": seat_state(seat.name),
            "showing": list(hand["showing"].get(seat.name, [])) if hand else [],
            "assistant": None if not seat.assistant else {
                "name": seat.assistant,
                "chips": chips(seat.assistant),
                "stack": state.stack(seat.assistant),
            },
        })
    fool = {
        "name": state.fool,
        "chips": chips(state.fool),
        "stack": state.stack(state.fool),
        "in_hand": seat_state(state.fool),
        "showing": list(hand["showing"].get(state.fool, [])) if hand else [],
    }
    table_hand = None
    if hand is not None:
        pots = [{"name": "main pot" if i == 0 else f"side pot {i}", "size": p["size"],
                 "eligible": p["eligible"]} for i, p in enumerate(hand["pots"])]
        table_hand = {
            "no": hand["no"],
            "phase": hand["phase"],
            "street": hand["street"],
            "bet": hand["bet"],
            "raises": hand["raises"],
            "pot": hand["pot"],
            "pot_chips": chips(POT),
            "pots": pots,
            "to_act": hand["to_act"],
            "owes": hand["owes"],
            "moves": hand["moves"],
            "betting_over": hand["betting_over"],
            "in": hand["in"],
            "all_in": hand["all_in"],
            "missing_up": hand["missing_up"],
        }
    return {
        "phase": data["phase"],
        "open_pending": data["open_pending"],
        "open_phase_due": data["open_phase_due"],
        "clock": data["clock"],
        "hands_played": data["hands_played"],
        "colours": colours,
        "seats": seats,
        "fool": fool,
        "hand": table_hand,
        "charges": {s.name: state.charges.get(s.name, 0) for s in state.seats},
        "depleted": [arcanum_label(n) for n in range(22) if powers.depleted(state, n)],
        "in_force": [f["text"] for f in data["in_force"]],  # S17: powers binding the table
        "over": data["over"],
        "winner": data["winner"],
    }


def load_state(path: Path) -> State:
    """The evening at ``path``, read without the lock (writes are atomic renames).

    Raises:
        StoreError: there is no evening file at ``path``, or it is corrupt.
        IllegalAction: the file holds no evening yet.
    """
    from referee.errors import StoreError
    from referee.evening.state import require_evening
    from referee.store import open_evening

    if not path.exists():
        raise StoreError(f"no evening file at {path}; open one with `referee new` or name "
                         "the file with --db PATH")
    with open_evening(path, write=False) as ev:
        state: State = ev.state(STREAM)
    require_evening(state)
    return state


def signature(path: Path) -> Signature | None:
    """What changes whenever the evening file is rewritten; None while it is missing."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    return (st.st_ino, st.st_mtime_ns, st.st_ctime_ns, st.st_size)


def follow(
    path: Path,
    *,
    interval: float = 0.25,
    tick: float = 1.0,
    sleep: Callable[[float], None] = time.sleep,
    clock: Callable[[], float] = time.monotonic,
) -> Iterator[bool]:
    """Poll ``path`` forever: yield True first and after every change, False every ``tick``.

    True means "re-read the evening", False "only redraw" (the clock moves on). The
    caller stops by leaving the loop.
    """
    last: Signature | None | bool = False  # never equal to a signature: the first poll yields
    drawn = clock()
    while True:
        current = signature(path)
        if current != last:
            last = current
            drawn = clock()
            yield True
        elif clock() - drawn >= tick:
            drawn = clock()
            yield False
        sleep(interval)


def frames(
    path: Path,
    *,
    interval: float = 0.25,
    tick: float = 1.0,
    now: Callable[[], float] = time.time,
) -> Iterator[dict[str, Any]]:
    """The players' view of the evening at ``path``, anew on each change and each ``tick``.

    A read that fails (the file gone, replaced by something else) keeps the last good
    frame and adds its one-line ``problem``.
    """
    from referee.errors import RefereeError

    state: State | None = None
    problem: str | None = None
    for changed in follow(path, interval=interval, tick=tick):
        if changed:
            try:
                state = load_state(path)
                problem = None
            except RefereeError as exc:
                problem = exc.line
        view: dict[str, Any] = frame(state, now()) if state is not None else {}
        view["problem"] = problem
        yield view
