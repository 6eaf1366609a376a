"""The hand at the table through the core (``referee.evening.play``): up cards, betting, the
Fool's forced moves, corrections, the showdown (R9, R13-R15, E4, E25-E27). A refused request
raises and leaves the state as it was."""

from __future__ import annotations

import copy
import pickle
from typing import Any

import pytest

from referee.content.scenario import load_scenario
from referee.errors import BadInput, IllegalAction, RefereeError
from referee.evening import betting, commands, play, souls
from referee.evening import showdown as showdowns
from referee.evening.folds import apply
from referee.evening.state import State
from referee.streams import Event


def _do(state: State, events: list[Event]) -> State:
    for event in events:
        state = apply(state, copy.deepcopy(event))
    return state


def do(state: State, fn: Any, *args: Any, **kw: Any) -> State:
    return _do(state, fn(state, *args, **kw))


def refused(state: State, fn: Any, *args: Any, match: str, **kw: Any) -> str:
    before = pickle.dumps(state)
    with pytest.raises(RefereeError, match=match) as info:
        fn(state, *args, **kw)
    assert pickle.dumps(state) == before
    return str(info.value)


@pytest.fixture
def state() -> State:
    seats = [commands.parse_seat(s) for s in ("Ada:I:red:Ben:II", "Cy:III:blue")]
    setup = souls.setup_from_scenario(load_scenario(None), seats)
    return _do(State(), commands.new_evening(State(), "Max", seats, now=0.0, force=False,
                                             **setup))


def _fool_wins_two(state: State) -> State:
    """Cy bets, Ada calls, the Fool's four Kings win both chips (hand 1 of the report)."""
    state = do(state, play.start_hand, now=0.0)
    state = do(state, play.show, [("Ada", "2C 3W"), ("Cy", "4C 5W"), ("Max", "KC KW KS KP")])
    state = do(state, play.act_said, "Cy", "bet")
    state = do(state, play.act_said, "Ada", "call")
    state = do(state, play.show, [("Ada", "+6C 7W"), ("Cy", "+8C 9W"), ("Max", "+2S 3S")])
    state = do(state, play.act_said, None, "check")
    state = do(state, play.act_said, None, "check")
    state = do(state, play.show, [("Max", "+4S")])
    state = do(state, play.act_said, None, "check")
    state = do(state, play.act_said, None, "check")
    return do(state, showdowns.showdown, [("Ada", "10C PC XX"), ("Cy", "10W PW XXI")], magic=False,
              now=0.0)


def test_r15_antes_are_dead_money_in_a_whole_hand(state: State) -> None:
    state = _fool_wins_two(state)
    state = do(state, play.start_hand, now=0.0, open_phase=True)
    state = do(state, play.show, [("Ada", "2C 3W"), ("Cy", "KC KW"), ("Max", "6C 7W 8S 9P")])
    state = do(state, play.act_said, "Cy", "bet", 1)
    state = do(state, play.act_said, "Ada", "fold")
    state = do(state, play.show, [("Cy", "+2S 3S"), ("Max", "+2P 4W")])
    state = do(state, play.act_said, "Cy", "check")
    state = do(state, play.show_cards, "Max", "+10C")
    state = do(state, play.act_said, "Cy", "call")
    event = showdowns.showdown(state, [("Cy", "10S PS XX")], magic=False, now=0.0)[0]
    assert event["returned"] == {}
    assert [sum(p["chips"].values()) for p in event["pots"]] == [6]
    state = _do(state, [event])
    assert state.stack("Max") == 6 and state.holding("Cy") == {"blue": 6}


def test_r9_up_cards_by_the_round_and_none_changed_silently(state: State) -> None:
    state = do(state, play.start_hand, now=0.0)
    refused(state, play.show_cards, "Cy", "4C 5W 9S", match="3 up cards for Cy, but 2")
    refused(state, play.act_said, "Ada", "bet", match="up cards are not all given")
    state = do(state, play.show_cards, "Ada", "2C 3W")
    refused(state, play.show_cards, "Ada", "2C 9W", match="would drop 3W")
    refused(state, play.show_cards, "Ada", "9C 9W", match="Ada already shows 2C 3W")
    assert betting.to_act(state, state.hand) is None  # type: ignore[arg-type]
    state = do(state, play.show, [("Cy", "4C 5W"), ("Max", "KC KW KS KP")])
    assert betting.to_act(state, state.hand) == "Cy"  # type: ignore[arg-type]


def test_e25_fix_records_the_opener_it_would_have_changed(state: State) -> None:
    state = do(state, play.start_hand, now=0.0)
    state = do(state, play.show, [("Ada", "KC 2W"), ("Cy", "QC 3W"), ("Max", "4C 6W 8S 9P")])
    state = do(state, play.act_said, None, "check")  # Ada, King high, opened
    events = play.fix(state, "Ada", "KC", "4S")
    assert events[0]["openers"] == [{"street": 1, "opened": "Ada", "would": "Cy"}]
    state = _do(state, events)
    assert state.hand is not None and state.hand.showing["Ada"] == ["4S", "2W"]
    assert state.hand.round.opener == "Ada"  # the betting stands
    refused(state, play.fix, "Ada", "KC", "5S", match="not among Ada's up cards")


def test_a_bet_reads_the_powers_in_force_once_a_step(
        state: State, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each step of the betting machine reads the powers in force once (``betting.Table``);
    the fold of the move asks only who can still bet, and reads no constraints: a bet and the
    step that finds nothing follows it build two (R15, S17)."""
    from referee.evening.powers import constraints

    state = do(state, play.start_hand, now=0.0)
    state = do(state, play.show, [("Ada", "2C 3W"), ("Cy", "4C 4W"), ("Max", "KC KW QS QP")])
    built: list[object] = []
    real = constraints.constraints

    def counted(*args: Any) -> constraints.Constraints:
        built.append(args)
        return real(*args)

    monkeypatch.setattr(constraints, "constraints", counted)
    events = play.act_said(state, None, "bet")
    assert [(e["name"], e["action"]) for e in events] == [("Cy", "bet")]
    assert len(built) == 2


def test_e27_bets_are_what_was_said(state: State) -> None:
    state = do(state, play.start_hand, now=0.0, open_phase=True)
    state = do(state, play.show, [("Ada", "KC KW"), ("Cy", "2C 3W"), ("Max", "4C 6W 8S 9P")])
    refused(state, play.act_said, "Ada", "bet", 10, match="holds 9 chip")
    events = play.act_said(state, "Ada", "bet", betting.ALL)
    assert events[0]["chips"] == {"red": 9} and events[0]["all_in"]


def test_e4_the_fools_forced_moves_are_named_in_betting(state: State) -> None:
    state = _fool_wins_two(state)
    state = do(state, play.start_hand, now=0.0)
    state = do(state, play.show, [("Ada", "2C 3W"), ("Cy", "4C 4W")])
    assert betting.forced_move(state, state.hand) is None  # type: ignore[arg-type]
    events = play.show_cards(state, "Max", "KC KW QS QP")
    assert events[-1]["auto"] and events[-1]["action"] == "bet"
    state = _do(state, events)
    refused(state, play.act_said, "Max", "check", match="not the Fool's turn")


def test_r21_auction_and_sale_through_the_assistant(state: State) -> None:
    refused(state, souls.force_trade, "Ada", None, match="announce it first")
    holder = next(s for s in state.souls if s.holder == "Ben")
    state = do(state, souls.auction, "Ada", holder.key)
    assert state.auction is not None and state.auction["holder"] == "Ben"
    state = do(state, souls.bid, "Cy", "blue:2", None)
    refused(state, souls.bid, "Ben", "red:1", None, match="seller's side")
    state = do(state, souls.sell, "Ada", holder.key, "Cy", None, None)
    assert state.soul(holder.key).holder == "Cy" and state.auction is None
    assert state.holding("Ada") == {"blue": 2, "red": 10}


def test_r24_a_blank_name_is_no_guess(state: State) -> None:
    soul = next(s for s in state.souls if s.kind == "bottled")
    with pytest.raises(BadInput, match="a guess names the soul"):
        souls.guess(state, "Ben", soul.key, "   ", None)


def test_the_fool_never_rises(state: State) -> None:
    with pytest.raises(IllegalAction, match="Max is the Fool"):
        commands.rise(state, "Max")


def test_e4_a_bet_and_the_forced_call_after_it_fold_on_one_copy(
        state: State, monkeypatch: pytest.MonkeyPatch) -> None:
    """The betting machine (``betting.step``) computes each event from the state the one before
    left, folded into one copy of it: a move with the Fool's forced call after it copies the
    state once and replays nothing (R15, E4), and the state passed in is left as it was."""
    state = _fool_wins_two(state)
    state = do(state, play.start_hand, now=0.0)
    state = do(state, play.show, [("Ada", "2C 3W"), ("Cy", "4C 4W"), ("Max", "KC KW QS QP")])
    state = do(state, play.act_said, "Ada", "raise")
    copies: list[State] = []
    real_copy, real_replay = play.copy, play.replay

    def counted_copy(s: State) -> State:
        copies.append(s)
        return real_copy(s)

    def counted_replay(s: State, made: Any) -> State:
        copies.append(s)
        return real_replay(s, made)

    monkeypatch.setattr(play, "copy", counted_copy)
    monkeypatch.setattr(play, "replay", counted_replay)
    before = pickle.dumps(state)
    events = play.act_said(state, None, "call")
    assert [(e["name"], e["action"], e["auto"]) for e in events] == [
        ("Cy", "call", False), ("Max", "call", True)]
    assert copies == [state] and pickle.dumps(state) == before
    monkeypatch.undo()
    after = _do(state, events)
    assert after.hand is not None and after.hand.round.street == 2
