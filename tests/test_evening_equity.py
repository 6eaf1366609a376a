"""What is showing, read from the evening (``referee.evening.equity``, H26-H28, H30): which
cards are seen, which unseen, how many each player will hold, and the figures as data."""

from __future__ import annotations

import copy
from fractions import Fraction
from itertools import combinations
from typing import Any

import pytest

from referee.content.scenario import load_scenario
from referee.errors import IllegalAction
from referee.evening import commands, play, souls
from referee.evening.equity import equity_view, public_showing, summary
from referee.evening.folds import apply
from referee.evening.state import State
from referee.rules.cards import DECK, parse_cards
from referee.rules.hand_keys import evaluate


def _do(state: State, events: list[Any]) -> State:
    for event in events:
        state = apply(state, copy.deepcopy(event))
    return state


def do(state: State, fn: Any, *args: Any, **kw: Any) -> State:
    return _do(state, fn(state, *args, **kw))


@pytest.fixture
def state() -> State:
    """Ada and Cy and the Fool, Max, in the first round: Ada 2C 3W, Cy 4C 5W, Max KC KW KS KP."""
    seats = [commands.parse_seat(s) for s in ("Ada:I:red:Ben:II", "Cy:III:blue")]
    setup = souls.setup_from_scenario(load_scenario(None), seats)
    state = _do(State(), commands.new_evening(State(), "Max", seats, now=0.0, force=False,
                                              **setup))
    state = do(state, play.start_hand, now=0.0)
    return do(state, play.show, [("Ada", "2C 3W"), ("Cy", "4C 5W"), ("Max", "KC KW KS KP")])


def _unseen(showing: Any) -> set[str]:
    return {card.short for card in showing.unseen}


def test_h26_h27_the_first_round_two_up_five_to_come_the_fool_four_up(state: State) -> None:
    showing, notes = public_showing(state)
    assert [(c.name, [k.short for k in c.known], c.hidden) for c in showing.contenders] == [
        ("Ada", ["2C", "3W"], 5), ("Cy", ["4C", "5W"], 5), ("Max", ["KC", "KW", "KS", "KP"], 3)]
    assert len(showing.unseen) == 78 - 8 and not notes and showing.majors_out == 0


def test_h26_a_folded_players_up_cards_stay_seen(state: State) -> None:
    state = do(state, play.act_said, "Cy", "fold")
    showing, _ = public_showing(state)
    assert [c.name for c in showing.contenders] == ["Ada", "Max"]
    assert not {"4C", "5W"} & _unseen(showing) and len(showing.unseen) == 70


def test_h26_a_dead_card_is_seen_and_counts_for_nothing(state: State) -> None:
    assert state.hand is not None
    state.hand.effects.append({"kind": "dead", "scope": "hand", "target": "Cy", "card": "4C",
                               "power": "Cut Down", "by": "Ada"})
    showing, _ = public_showing(state)
    cy = showing.contenders[1]
    assert [k.short for k in cy.known] == ["5W"] and cy.hidden == 5
    assert "4C" not in _unseen(showing)


def test_h26_a_card_turned_face_down_is_unseen_again(state: State) -> None:
    assert state.hand is not None
    state.hand.showing["Ada"].remove("3W")  # Hood the Lantern, as its fold leaves it
    state.hand.shift["Ada"] = 1
    showing, notes = public_showing(state)
    assert showing.contenders[0].hidden == 6 and "3W" in _unseen(showing) and not notes


def test_h26_h27_a_card_slid_to_the_fool_is_an_unseen_major_and_one_card_fewer(
        state: State) -> None:
    assert state.hand is not None
    state.hand.forfeited["Ada"] = ["XX"]
    showing, _ = public_showing(state)
    assert showing.majors_out == 1 and showing.contenders[0].hidden == 4
    assert "XX" in _unseen(showing)  # the room never saw which major it was


def test_h26_a_card_a_power_discarded_is_seen(state: State) -> None:
    assert state.hand is not None
    state.hand.out["Cy"] = ["9P"]
    assert "9P" not in _unseen(public_showing(state)[0])


def test_h28_an_up_card_changed_by_magic_counts_as_ruled(state: State) -> None:
    assert state.hand is not None
    state.hand.effects.append({"kind": "counts_as", "scope": "hand", "target": "Ada",
                               "card": "3W", "counts": "2C", "power": "Twin Stars",
                               "by": "Ada"})
    showing, notes = public_showing(state)
    ada = showing.contenders[0]
    assert [k.short for k in ada.known] == ["2C", "2C"] and ada.magic and not notes
    assert "3W" not in _unseen(showing)


def test_h28_magic_on_a_down_card_is_not_showing(state: State) -> None:
    assert state.hand is not None
    state.hand.effects.append({"kind": "counts_as", "scope": "hand", "target": "Ada",
                               "card": "9S", "counts": "KC", "power": "Twin Stars",
                               "by": "Ada"})
    showing, notes = public_showing(state)
    assert not showing.contenders[0].magic and "9S" in _unseen(showing)
    assert len(notes) == 1 and "H28" in notes[0] and "Twin Stars" in notes[0]


def test_h27_up_cards_not_given_yet_count_as_unseen_and_are_named(state: State) -> None:
    state = do(state, play.act_said, "Cy", "check")
    state = do(state, play.act_said, "Ada", "check")
    state = do(state, play.show, [("Ada", "+6C 7W")])  # round 2: Cy's and Max's still due
    showing, notes = public_showing(state)
    assert [c.hidden for c in showing.contenders] == [3, 5, 3]
    assert notes == ["up cards dealt but not given yet count as unseen until `hand show` "
                     "gives them (H27): Cy 2 of 4, the Fool 4 of 6"]


def test_h26_no_hand_no_figures(state: State) -> None:
    state.hand = None
    with pytest.raises(IllegalAction, match="H26"):
        equity_view(state)


def test_h30_the_view_gives_each_pot_and_the_hand(state: State) -> None:
    state = do(state, play.act_said, "Cy", "bet")
    assert equity_view(state)["pots"] == []  # Cy's chip is uncalled so far: no pot (H30)
    state = do(state, play.act_said, "Ada", "call")
    view = equity_view(state)
    assert view["method"] == "sampled" and view["hand"] == 1 and view["street"] == 2
    assert [p["name"] for p in view["players"]] == ["Ada", "Cy", "Max"]
    assert sum(p["hand"] for p in view["players"]) == pytest.approx(1)
    (pot,) = view["pots"]
    assert pot["eligible"] == ["Ada", "Cy", "Max"] and pot["size"] == 2
    assert sum(pot["chances"].values()) == pytest.approx(1)
    assert 0 < view["error"] <= view["target"] == 0.005
    assert "Sampled:" in summary(view) and "95 times in 100" in summary(view)


def test_h29_heads_up_after_the_deal_is_exact_and_equals_an_independent_count(
        state: State) -> None:
    state = do(state, play.act_said, "Cy", "fold")
    state = do(state, play.act_said, "Ada", "check")  # nobody left to bet against
    state = do(state, play.show, [("Ada", "+6C 7W"), ("Max", "+2S 3S 4S")])
    view = equity_view(state)
    assert view["betting_over"]
    assert view["method"] == "exact" and view["error"] == 0
    # Ada shows 2C 3W 6C 7W and gets three more from the 65 cards nobody has seen.
    ada = parse_cards("2C 3W 6C 7W")
    fool = evaluate(parse_cards("KC KW KS KP 2S 3S 4S"))[0]
    seen = {c.short for c in ada} | {"KC", "KW", "KS", "KP", "2S", "3S", "4S", "4C", "5W"}
    pool = [card for card in DECK if card.short not in seen]
    share = Fraction(0)
    total = 0
    for combo in combinations(pool, 3):
        key = evaluate([*ada, *combo])[0]
        share += 1 if key > fool else Fraction(1, 2) if key == fool else 0
        total += 1
    assert view["deals"] == total == 43_680  # C(65, 3)
    assert view["players"][0]["exact"] == str(share / total)
    assert view["players"][0]["hand"] == pytest.approx(float(share / total))
