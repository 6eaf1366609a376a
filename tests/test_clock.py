"""The evening's clock (referee.evening.clock): play time stands still on a break or a pause
(R47), so the hour of R13 waits with it; a break ends by itself; a hand dealt ends a pause
(E200). Every time is given (``now``): nothing here sleeps or reads the machine's clock."""

from __future__ import annotations

import copy as deep

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.errors import IllegalAction
from referee.evening import clock, commands, play
from referee.evening.folds import apply
from referee.evening.state import State, copy, dump, load
from referee.evening.views import status

T0 = 1_800_000_000.0  # the first hand's deal


def _do(state: State, events: list[object]) -> State:
    for event in events:
        state = apply(state, deep.deepcopy(event))  # type: ignore[arg-type]
    return state


@pytest.fixture
def evening() -> State:
    seats = [commands.parse_seat("Ada:XVI:red"), commands.parse_seat("Cy:III:blue")]
    return _do(State(), commands.new_evening(State(), "Max", seats, now=T0 - 600, force=False))


@pytest.fixture
def dealt(evening: State) -> State:
    return _do(evening, play.start_hand(evening, now=T0))


def test_r47_the_clock_stands_still_during_a_pause(dealt: State) -> None:
    state = _do(dealt, clock.pause(dealt, now=T0 + 100))
    assert clock.play_time(state, T0 + 100) == 100
    assert clock.play_time(state, T0 + 5000) == 100  # paused: the clock stands
    assert status(state, now=T0 + 5000)["clock"] == 100
    assert status(state, now=T0 + 5000)["clock_paused"] == {
        "why": "pause", "since": T0 + 100, "until": None, "minutes": None}
    state = _do(state, clock.resume(state, now=T0 + 700))
    assert clock.play_time(state, T0 + 760) == 160  # runs again from where it stood
    assert status(state, now=T0 + 760)["clock_paused"] is None


def test_r47_the_ante_hour_moves_by_the_pause(dealt: State) -> None:
    state = _do(dealt, clock.pause(dealt, now=T0 + 1000))
    state = _do(state, clock.resume(state, now=T0 + 1600))  # ten minutes paused
    assert not clock.hour_passed(state, T0 + 3600)
    assert not status(state, now=T0 + 3600)["open_phase_due"]
    assert not clock.hour_passed(state, T0 + 4199)
    assert clock.hour_passed(state, T0 + 4200)
    assert status(state, now=T0 + 4200)["open_phase_due"]  # R13, an hour of play


def test_r47_a_break_stands_the_clock_still_and_ends_by_itself(dealt: State) -> None:
    state = _do(dealt, clock.take_break(dealt, 15, now=T0 + 60))
    assert clock.play_time(state, T0 + 60 + 15 * 60 - 1) == 60
    assert status(state, now=T0 + 120)["clock_paused"] == {
        "why": "break", "since": T0 + 60, "until": T0 + 60 + 900, "minutes": 15}
    later = T0 + 60 + 900 + 30  # half a minute after the break's end, with nothing typed
    assert clock.play_time(state, later) == 90
    assert clock.stopped(state, later) is None
    assert status(state, now=later)["clock_paused"] is None
    with pytest.raises(IllegalAction, match="the break ended by itself"):
        clock.resume(state, now=later)


def test_r47_a_break_ended_early_by_resume(dealt: State) -> None:
    state = _do(dealt, clock.take_break(dealt, 15, now=T0 + 60))
    state = _do(state, clock.resume(state, now=T0 + 360))
    assert clock.play_time(state, T0 + 400) == 100  # five minutes stood still, not fifteen


def test_r47_resume_when_the_clock_runs_is_refused(dealt: State) -> None:
    with pytest.raises(IllegalAction, match="the clock is running, not paused") as caught:
        clock.resume(dealt, now=T0 + 10)
    assert caught.value.ruling == "R47"
    state = _do(dealt, clock.pause(dealt, now=T0 + 10))
    with pytest.raises(IllegalAction, match="already paused"):
        clock.pause(state, now=T0 + 20)


def test_r47_the_open_phase_may_be_declared_while_paused(dealt: State) -> None:
    state = _do(dealt, clock.pause(dealt, now=T0 + 10))
    state = _do(state, commands.open_phase(state, now=T0 + 20))
    assert state.open_pending and clock.stopped(state, T0 + 30) is not None


def test_e200_a_hand_dealt_ends_the_pause(evening: State) -> None:
    first = play.start_hand(evening, now=T0)
    assert [e["kind"] for e in first] == ["hand_started"]  # the clock ran: nothing to end
    state = _do(evening, first)
    from tests.test_commands import _play_out

    state = _play_out(state)
    state = _do(state, clock.take_break(state, 30, now=T0 + 200))
    made = play.start_hand(state, now=T0 + 500)
    assert [e["kind"] for e in made] == ["clock_resumed", "hand_started"]
    state = _do(state, made)
    assert clock.stopped(state, T0 + 600) is None
    assert clock.play_time(state, T0 + 600) == 300  # 200 before the break, 100 after


def test_r47_stops_before_the_first_hand_take_no_play_time(evening: State) -> None:
    state = _do(evening, clock.pause(evening, now=T0 - 300))
    assert clock.play_time(state, T0 - 100) is None  # the clock starts with the first hand
    state = _do(state, play.start_hand(state, now=T0))  # and dealing ends the pause
    assert clock.play_time(state, T0 + 50) == 50


def test_r47_the_clock_survives_the_snapshot_and_the_copy(dealt: State) -> None:
    state = _do(dealt, clock.pause(dealt, now=T0 + 10))
    state = _do(state, clock.resume(state, now=T0 + 70))
    state = _do(state, clock.take_break(state, 5, now=T0 + 100))
    again = load(deep.deepcopy(dump(state)))
    for other in (again, copy(state)):
        assert dump(other) == dump(state)
        assert clock.play_time(other, T0 + 200) == clock.play_time(state, T0 + 200) == 40


# -- play time = wall time minus the pauses, over any sequence of the GM's moves ---------------

MOVES = st.lists(st.tuples(st.sampled_from(["pause", "resume", "break"]),
                           st.integers(min_value=0, max_value=4000),
                           st.integers(min_value=1, max_value=180)), max_size=25)


@settings(max_examples=200, deadline=None)
@given(moves=MOVES, probe=st.integers(min_value=0, max_value=5000))
def test_r47_play_time_is_wall_time_minus_the_pauses(moves: list[tuple[str, int, int]],
                                                     probe: int) -> None:
    seats = [commands.parse_seat("Ada:XVI:red"), commands.parse_seat("Cy:III:blue")]
    state = _do(State(), commands.new_evening(State(), "Max", seats, now=0.0, force=False))
    state = _do(state, play.start_hand(state, now=T0))
    now = T0
    stood: list[tuple[float, float]] = []  # the model: each stop as (from, to)
    open_at: float | None = None
    open_until: float | None = None

    def close(at: float) -> None:
        nonlocal open_at, open_until
        if open_at is not None:
            stood.append((open_at, at if open_until is None else min(at, open_until)))
        open_at = open_until = None

    for move, gap, minutes in moves:
        now += gap
        if open_until is not None and open_until <= now:
            close(open_until)  # a break ends by itself
        try:
            if move == "pause":
                made = clock.pause(state, now=now)
            elif move == "break":
                made = clock.take_break(state, minutes, now=now)
            else:
                made = clock.resume(state, now=now)
        except IllegalAction:
            assert (move == "pause" and open_at is not None and open_until is None) or \
                (move == "resume" and open_at is None)
            continue
        state = _do(state, made)
        close(now)
        if move != "resume":
            open_at, open_until = now, (None if move == "pause" else now + minutes * 60)
    at = now + probe
    paused = sum(end - start for start, end in stood)
    if open_at is not None:
        paused += (at if open_until is None else min(at, open_until)) - open_at
    assert clock.play_time(state, at) == pytest.approx((at - T0) - paused, abs=1e-6)
    assert (clock.stopped(state, at) is not None) == (
        open_at is not None and (open_until is None or at < open_until))


def test_r47_after_the_end_a_break_takes_no_play_time(dealt: State) -> None:
    from referee.evening import ceremony
    from tests.test_commands import _play_out

    state = _do(dealt, clock.pause(dealt, now=T0 + 100))  # paused across the end
    state = _play_out(state)
    state = _do(state, ceremony.end(state, now=T0 + 400))  # E80: the clock stops for good
    assert clock.play_time(state, T0 + 9000) == 100
    state = _do(state, clock.take_break(state, 10, now=T0 + 500))  # E200: in the ceremony
    state = _do(state, clock.resume(state, now=T0 + 600))
    assert clock.play_time(state, T0 + 9000) == 100  # nothing past the end stood still
    with pytest.raises(IllegalAction, match="stopped for good"):
        clock.pause(state, now=T0 + 700)
