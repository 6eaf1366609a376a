"""The evening's commands through the core: the clock of R13 and the open phase."""

from __future__ import annotations

import copy

import pytest

from referee.errors import IllegalAction
from referee.evening import commands, play
from referee.evening import showdown as showdowns
from referee.evening.folds import apply
from referee.evening.state import State
from referee.evening.views import status
from referee.streams import Event


def _do(state: State, events: list[Event]) -> State:
    for event in events:
        state = apply(state, copy.deepcopy(event))
    return state


@pytest.fixture
def evening() -> State:
    seats = [commands.parse_seat("Ada:XVI:red"), commands.parse_seat("Cy:III:blue")]
    return _do(State(), commands.new_evening(State(), "Max", seats, now=0.0, force=False))


UP = {1: [("Cy", "6S 8P"), ("Ada", "7S 9P"), ("Max", "2W 4S 6P 8C")],
      2: [("Cy", "+10C QW"), ("Ada", "+PC KnW"), ("Max", "+10W QS")], 3: [("Max", "+KP")]}


def _play_out(state: State) -> State:
    """Three rounds checked around, each round's up cards shown first (R9)."""
    from referee.evening import betting

    while state.hand is not None and not state.hand.betting_over:
        who = betting.to_act(state, state.hand)
        if who is None:
            state = _do(state, play.show(state, UP[state.hand.round.street]))
        else:
            state = _do(state, play.act_said(state, who, "check"))
    return _do(state, showdowns.showdown(state, [("Cy", "2C 4W KS"), ("Ada", "3C 5W AS")],
                                    magic=False, now=0.0))


def test_r13_the_clock_starts_with_the_first_hand_and_the_switch_is_offered_after_an_hour(
        evening: State) -> None:
    state = _do(evening, play.start_hand(evening, now=1000.0))
    assert not play.hour_passed(state, 1000.0 + 3599)
    assert play.hour_passed(state, 1000.0 + 3600)
    assert status(state, now=1000.0 + 3600)["open_phase_due"]
    state = _play_out(state)
    state = _do(state, play.start_hand(state, now=5000.0, open_phase=True))
    assert state.phase == "open" and state.hand is not None and state.hand.phase == "open"
    assert not status(state, now=9000.0)["open_phase_due"]


def test_r13_declared_mid_hand_the_open_phase_waits_for_the_next_hand(evening: State) -> None:
    state = _do(evening, play.start_hand(evening, now=0.0))
    state = _do(state, commands.open_phase(state, now=10.0))
    assert state.hand is not None and state.hand.phase == "limit"  # never mid-hand
    state = _do(state, play.show(state, UP[1]))
    with pytest.raises(IllegalAction, match="exactly 1 chip"):
        play.act_said(state, None, "bet", 3)  # the player to act
    with pytest.raises(IllegalAction, match="already declared"):
        commands.open_phase(state, now=11.0)
    state = _play_out(state)
    state = _do(state, play.start_hand(state, now=20.0))
    assert state.hand is not None and state.hand.phase == "open"
    assert state.stack("pot") == 2  # antes from both stakeholders, none from the Fool
