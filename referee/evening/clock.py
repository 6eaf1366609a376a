"""The evening's clock (R13, R47): play time since the first hand, standing still while the
room is on a break or the GM has paused the evening, and stopped for good at the end (E80).

GM requests -> events, like ``commands``: `room pause`, `room break N` and `room resume` are
moves of the evening, kept in its log, so `undo`, `amend` and `status --at` see them. The
times are the commands' own (``now``), so the clock of any moment is a function of the log.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, TypedDict

from referee.errors import IllegalAction
from referee.evening.state import ClockStop, State, require_evening
from referee.said import Suggest, said

PAUSE = Suggest(("room", "pause"))  #: the move that stops the clock (R47)
BREAK = Suggest(("room", "break"), ("MINUTES",))  #: a break of MINUTES (R47)

if TYPE_CHECKING:
    from referee.evening.events import ClockResumed, ClockStopped, EveningEvent

#: One hour of play (R13).
HOUR = 3600.0
#: The longest break, in minutes (E82).
MAX_BREAK = 180


class Paused(TypedDict):
    """The clock standing still at a moment, as `status`, `watch` and the wall say it."""

    why: str                         # pause or break
    since: float                     # when it stopped (epoch seconds)
    until: float | None              # a break's end; None: until `room resume`
    minutes: int | None


def clock_end(state: State, now: float | None = None) -> float | None:
    """When the evening's clock stopped for good (E80, for `status`, `watch` and the page):
    once the game is over (R18), at the end of the last hand (at ``now`` when that hand kept
    no time); when the Fool declared the end (R40), then; None while it runs."""
    if not state.over and state.ceremony is not None and state.ceremony["ended_at"]:
        return float(state.ceremony["ended_at"])
    if not state.over:
        return None
    ended = max((float(r.get("time") or 0.0) for r in state.history), default=0.0)
    return ended or (time.time() if now is None else now)


def stopped(state: State, now: float) -> ClockStop | None:
    """The stop in force at ``now`` (R47): a pause, or a break not yet over; None while the
    clock runs."""
    stop = state.stop
    if stop is None or (stop["until"] is not None and stop["until"] <= now):
        return None
    return stop


def _stood(stop: ClockStop, first: float, upto: float) -> float:
    """The play time ``stop`` took from the clock up to ``upto``: none before the first hand,
    none after a break's end."""
    end = upto if stop["until"] is None else min(upto, stop["until"])
    return max(0.0, end - max(stop["at"], first))


def stood_still(state: State, upto: float) -> float:
    """Seconds the clock has stood still between the first hand and ``upto`` (R47)."""
    first = state.first_hand_at
    if first is None:
        return 0.0
    stop = state.stop
    return state.stood + (0.0 if stop is None else _stood(stop, first, upto))


def play_time(state: State, now: float) -> float | None:
    """Seconds of play at ``now`` (R13, R47): from the first hand's deal, less every break
    and pause, and no further than the end (E80); None before the first hand."""
    first = state.first_hand_at
    if first is None:
        return None
    end = clock_end(state, now)
    upto = now if end is None else min(now, end)
    return max(0.0, upto - first - stood_still(state, upto))


def hour_passed(state: State, now: float) -> bool:
    """R13, R47: an hour of play since the first hand."""
    played = play_time(state, now)
    return played is not None and played >= HOUR


def paused(state: State, now: float) -> Paused | None:
    """The clock's stop in force at ``now``, as it is shown (R47); None while it runs."""
    stop = stopped(state, now)
    if stop is None:
        return None
    return {"why": stop["why"], "since": stop["at"], "until": stop["until"],
            "minutes": stop["minutes"]}


def origin(state: State) -> float | None:
    """Where the page's running clock starts from (R47): the first hand's deal, moved on by
    every stop already over (the last one the page counts itself, ``stand``); None before
    the first hand."""
    first = state.first_hand_at
    return None if first is None else first + state.stood


def stand(state: State) -> Paused | None:
    """The stop the page counts for itself (R47): the last one, from the first hand on, so
    that the page stops its clock at ``since`` and, for a break, runs it again at ``until``
    by itself; None when there is none to count."""
    first, stop = state.first_hand_at, state.stop
    if stop is None:
        return None
    since = stop["at"] if first is None else max(stop["at"], first)
    if stop["until"] is not None and stop["until"] <= since:
        return None
    return {"why": stop["why"], "since": since, "until": stop["until"],
            "minutes": stop["minutes"]}


def close(state: State, at: float) -> None:
    """Fold: the stop ends at ``at`` (or at its own end, a break that ran out), its play time
    counted into ``state.stood``."""
    stop = state.stop
    if stop is None:
        return
    if state.first_hand_at is not None:
        end = clock_end(state, at)  # E80: past the end there is no play time to stand
        state.stood += _stood(stop, state.first_hand_at, at if end is None else min(at, end))
    state.stop = None


# -- the GM's requests --------------------------------------------------------------------------


def _hhmm(moment: float) -> str:
    return time.strftime("%H:%M", time.localtime(moment))


def pause(state: State, *, now: float) -> list[EveningEvent]:
    """`room pause`: the clock stands still until `room resume` (R47)."""
    require_evening(state)
    if clock_end(state, now) is not None:
        raise IllegalAction(said("the clock stopped for good at the evening's end (E80); a "
                                 "break still counts down on the wall: ", BREAK, " (R47)"),
                            ruling="R47")
    stop = stopped(state, now)
    if stop is not None and stop["why"] == "pause":
        raise IllegalAction(said(f"the clock is already paused, since {_hhmm(stop['at'])}; ",
                                 Suggest(("room", "resume")), " starts it again (R47)"),
                            ruling="R47")
    event: ClockStopped = {"kind": "clock_stopped", "time": now, "why": "pause", "until": None}
    return [event]


def take_break(state: State, minutes: int, *, now: float) -> list[EveningEvent]:
    """`room break MINUTES`: the clock stands still for MINUTES, then runs again by itself
    (R47); a new break replaces the one running."""
    require_evening(state)
    if not 1 <= minutes <= MAX_BREAK:
        raise IllegalAction(f"a break of {minutes} minutes: give 1 to {MAX_BREAK} (E82)",
                            ruling="E82")
    event: ClockStopped = {"kind": "clock_stopped", "time": now, "why": "break",
                           "until": now + minutes * 60, "minutes": minutes}
    return [event]


def resume(state: State, *, now: float) -> list[EveningEvent]:
    """`room resume`: the clock runs again, ending a pause or a break early (R47)."""
    require_evening(state)
    if stopped(state, now) is None:
        stop = state.stop
        if stop is not None and stop["until"] is not None:
            raise IllegalAction(said("the clock is running: the break ended by itself at "
                                     f"{_hhmm(stop['until'])}; ", PAUSE, " stops it (R47)"),
                                ruling="R47")
        raise IllegalAction(said("the clock is running, not paused: ", PAUSE, " stops it, ",
                                 BREAK, " for a break (R47)"), ruling="R47")
    event: ClockResumed = {"kind": "clock_resumed", "time": now}
    return [event]


def resumed_by_deal(state: State, now: float) -> list[EveningEvent]:
    """A hand dealt while the clock stands still ends the pause or the break (E200): play has
    begun again. The event that says so, or none while the clock runs."""
    if stopped(state, now) is None:
        return []
    event: ClockResumed = {"kind": "clock_resumed", "time": now}
    return [event]
