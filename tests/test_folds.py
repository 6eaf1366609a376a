"""The evening as the fold of its events (referee.evening.folds and state): each event kind's
effect, the invariants checked after every event (R10, R19, R25, R26), replay on a copy, and
the snapshot round trip."""

from __future__ import annotations

import copy

import pytest

from referee.errors import InvariantViolation
from referee.evening import commands, play, views
from referee.evening import showdown as showdowns
from referee.evening.folds import STREAM, apply, replay
from referee.evening.state import POT, State, dump, load
from referee.streams import Event


def _new() -> tuple[State, list[Event]]:
    seats = [commands.parse_seat(s) for s in ("Ada:I:red", "Cy:III:blue")]
    events = commands.new_evening(State(), "Max", seats, now=0.0, force=False)
    state = State()
    for e in events:
        state = apply(state, copy.deepcopy(e))
    return state, events


def test_r10_the_opening_ceremony_gives_ten_chips_of_each_colour() -> None:
    state, _ = _new()
    assert state.chips == {"Max": {}, "Ada": {"red": 10}, "Cy": {"blue": 10}, POT: {}}
    assert [s.name for s in state.seats] == ["Ada", "Cy"]


def test_unknown_event_kinds_and_broken_invariants_are_bugs() -> None:
    state, _ = _new()
    with pytest.raises(InvariantViolation, match="unknown event kind"):
        apply(state, {"kind": "dance"})
    with pytest.raises(InvariantViolation, match="cannot give"):
        apply(copy.deepcopy(state), {"kind": "chips_given", "from": "Ada", "to": "Cy",
                                     "chips": {"red": 11}})
    broken = copy.deepcopy(state)
    broken.chips["Ada"]["red"] = 11
    with pytest.raises(InvariantViolation, match="R10"):
        apply(broken, {"kind": "settings_changed", "settings": {}})


def _break_negative(s: State) -> None:
    s.chips["Ada"]["red"] = -1
    s.chips["Cy"]["red"] = 11


def _break_total(s: State) -> None:
    s.chips["Cy"]["blue"] = 9


def _break_colour(s: State) -> None:
    s.chips["Max"]["green"] = 3


def _break_pot(s: State) -> None:
    s.chips["Ada"]["red"] = 9
    s.chips[POT]["red"] = 1


def _break_pot_in_hand(s: State) -> None:
    s.hand = replay(s, play.start_hand(s, now=0.0)).hand
    s.chips["Ada"]["red"] = 9
    s.chips[POT]["red"] = 1  # a chip in the pot that no ante or bet put there


def _break_charges(s: State) -> None:
    s.charges["Ada"] = -1


#: Each invariant broken by hand in a sound state, and what the check after the next event says.
BROKEN = [(_break_negative, "R10: Ada holds -1 red chips"),
          (_break_total, "R10: 9 blue chips, not 10"),
          (_break_colour, "R10: unknown chip colours {'green'}"),
          (_break_pot, "R10: chips left in the pot between hands"),
          (_break_pot_in_hand, "R10: pot holds 1, contributions 0"),
          (_break_charges, "R25: Ada has -1 Charges")]


@pytest.mark.parametrize(("breaking", "said"), BROKEN, ids=[s for _, s in BROKEN])
def test_each_invariant_broken_is_named_after_the_next_event(breaking: object,
                                                              said: str) -> None:
    """R10, R25: every way the books can go wrong is caught by the check after an event, with
    what is wrong; the same sound state passes."""
    state, _ = _new()
    apply(copy.deepcopy(state), {"kind": "settings_changed", "settings": {}})  # sound
    assert callable(breaking)
    breaking(state)
    with pytest.raises(InvariantViolation) as caught:
        apply(state, {"kind": "settings_changed", "settings": {}})
    assert said in str(caught.value)


def test_replay_folds_on_a_copy() -> None:
    state, _ = _new()
    before = dump(state)
    after = replay(state, play.start_hand(state, now=5.0))
    assert dump(state) == before and after.hand is not None and after.hand.no == 1


def test_a_hand_folds_antes_actions_and_the_showdown() -> None:
    state, _ = _new()
    state = replay(state, play.start_hand(state, now=0.0, open_phase=True))
    assert state.hand is not None and state.hand.antes == {"Ada": 1, "Cy": 1}
    assert state.stack(POT) == 2
    state = replay(state, play.show(state, [("Ada", "KC KW"), ("Cy", "2C 3W"),
                                            ("Max", "4C 5W 6S 8P")]))
    state = replay(state, play.act_said(state, None, "bet", 2))
    assert state.hand is not None and state.hand.openings[0]["opener"] == "Ada"
    state = replay(state, play.act_said(state, None, "fold"))
    assert state.hand is not None and state.hand.folded == ["Cy"]
    # Only the Fool is left against Ada: no more betting; the showdown gives back her bet.
    assert state.hand.betting_over
    events = showdowns.showdown(state, [("Ada", "2S 3S 9P 4P 5P"), ("Max", "2P 9C 10C")],
                                magic=False, now=1.0)
    assert events[0]["returned"] == {"Ada": {"red": 2}}
    state = replay(state, events)
    assert state.hand is None and state.hands_played == 1 and state.stack("Ada") == 11


def test_the_snapshot_round_trip_is_exact() -> None:
    state, _ = _new()
    state = replay(state, play.start_hand(state, now=0.0))
    assert dump(load(copy.deepcopy(dump(state)))) == dump(state)
    assert STREAM.dump(STREAM.load(STREAM.dump(state))) == STREAM.dump(state)


def test_views_show_no_down_card() -> None:
    state, _ = _new()
    state = replay(state, play.start_hand(state, now=0.0))
    state = replay(state, play.show(state, [("Ada", "KC KW"), ("Cy", "2C 3W"),
                                            ("Max", "4C 5W 6S 8P")]))
    for _ in range(2):
        state = replay(state, play.act_said(state, None, "check"))
    state = replay(state, play.show(state, [("Ada", "+7S 8S"), ("Cy", "+7P 9P"),
                                            ("Max", "+9S 10S")]))
    for _ in range(2):
        state = replay(state, play.act_said(state, None, "check"))
    state = replay(state, play.show_cards(state, "Max", "+AP"))
    for _ in range(2):
        state = replay(state, play.act_said(state, None, "check"))
    hand = views.hand_view(state)
    assert hand is not None and hand["betting_over"]
    text = str(views.status(state, now=0.0))
    for down in ("QC", "QW", "2S"):
        assert down not in text
    events = showdowns.showdown(state, [("Ada", "QC QW 2S"), ("Cy", "3S 4S 5S")], magic=False,
                           now=1.0)
    state = replay(state, events)
    assert "QC" not in str(views.status(state, now=0.0))
