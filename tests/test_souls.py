"""Souls, clues, guesses, Charges and powers through the core (R16, R19-R26).

Every request goes through ``referee.evening.souls`` (or ``commands`` for the table) and its
events are folded into the evening, as the store would. A refused request must raise a
RefereeError and leave the state exactly as it was.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from referee.content.scenario import load_scenario
from referee.errors import IllegalAction, LawViolation, RefereeError
from referee.evening import commands, play, power_moves, souls
from referee.evening import showdown as showdowns
from referee.evening.folds import apply
from referee.evening.powers import use as powers
from referee.evening.state import State, dump
from referee.evening.state import copy as copy_state
from referee.streams import Event

FOOL = "Fiona"
# Seats from the Fool's left in Arcanum order (R9): Cara (III) 1, Eve (VII) 2, Ada (XVI) 3.
# The default scenario's bottles go out in that order (R19): the cobalt phial (Houdini, I) to
# Dan, the amber bottle (Catherine the Great, III) to Finn, the cracked green bottle
# (Thoreau, IX) to Ben.
SEATS = ["Ada:XVI:red:Ben:IX", "Cara:III:blue:Dan:V", "Eve:VII:green:Finn:XI"]
COBALT, AMBER, GREEN = "the cobalt phial", "the amber bottle", "the cracked green bottle"


# -- helpers, shared with test_points and test_souls_stateful -----------------------------------


def fold(state: State, events: list[Event]) -> State:
    """Fold events into a copy of ``state`` (the console's own, ``state.copy``), as a command
    does."""
    state = copy_state(state)
    for event in events:
        state = apply(state, copy.deepcopy(event))
    return state


def evening(seats: list[str] | None = None, scenario: str | None = None) -> State:
    specs = [commands.parse_seat(s) for s in (seats or SEATS)]
    setup = souls.setup_from_scenario(load_scenario(scenario), specs)
    return fold(State(), commands.new_evening(State(), FOOL, specs, now=0.0, force=False,
                                              **setup))


def do(state: State, fn: Callable[..., list[Event]], *args: Any, **kw: Any) -> State:
    """Apply one accepted request; the request itself never touches the state it is given."""
    before = dump(state)
    events = fn(state, *args, **kw)
    assert dump(state) == before, f"{fn.__name__} modified the state it was given"
    return fold(state, events)


def refused(state: State, fn: Callable[..., list[Event]], *args: Any,
            exc: type[Exception] = RefereeError, match: str | None = None, **kw: Any) -> str:
    """A refused request raises and changes nothing; returns the message."""
    before = dump(state)
    with pytest.raises(exc, match=match) as info:
        fn(state, *args, **kw)
    assert dump(state) == before
    return str(info.value)


def away(state: State, *names: str) -> State:
    """The stakeholders rise from the table (R17), so the Law lets them deal (R16)."""
    for name in names:
        state = do(state, commands.rise, name)
    return state


def give(state: State, source: str, target: str, chips: str) -> State:
    return do(state, commands.give_chips, source, target, chips)


def holder(state: State, soul: str) -> str | None:
    return state.soul(soul).holder


def start_hand(state: State) -> State:
    return do(state, play.start_hand, now=0.0)


def deal_up(state: State, planned: dict[str, str]) -> State:
    """Show the up cards each round has dealt (R9), from the planned seven-card hands: a
    stakeholder's cards 3-6 are up (two down, two up, two up, one down), the Fool's all."""
    from referee.evening import betting

    hand = state.hand
    assert hand is not None
    for name in betting.missing_up_cards(state, hand):
        cards = planned[name].split()
        up = cards if name == state.fool else cards[2:6]
        shown = hand.showing.get(name, [])
        need = betting.up_cards_dealt(state, hand, name) - len(shown)
        new = [c for c in up if c not in shown][:need]
        state = do(state, play.show_cards, name, "+" + " ".join(new))
    return state


def check_around(state: State, folds: tuple[str, ...] = (),
                 planned: dict[str, str] | None = None) -> State:
    """Everyone whose turn it is checks (or folds, if named) until the betting is over; each
    round's up cards are shown first (R9)."""
    from referee.evening import betting

    while state.hand is not None and not state.hand.betting_over:
        name = betting.to_act(state, state.hand)
        if name is None:
            state = deal_up(state, planned or PLAIN)
            continue
        action = "fold" if name in folds else "check"
        state = do(state, play.act_said, name, action)
    return state


def showdown(state: State, hands: dict[str, str]) -> State:
    return do(state, showdowns.showdown, list(hands.items()), magic=False, now=0.0)


# Distinct minor hands with nothing in them: seven cards each, no pair, no Duet.
PLAIN = {
    "Fiona": "AC 3S 6W 8P 10C PS QW",
    "Cara": "2C 4S 7W 9P KnC KS 5P",
    "Eve": "2S 4W 7P 9C KnS KW 5C",
    "Ada": "2W 4P 7C 9S KnW KP 5S",
}


@pytest.fixture
def state() -> State:
    return evening()


@pytest.fixture(scope="module")
def scenario() -> Any:
    return load_scenario()


def sheet(scenario: Any, label: str, seat: int) -> list[str]:
    return list(scenario.find_soul(label).clues[seat])


# -- R16 the Law --------------------------------------------------------------------------------


def test_r16_soul_changes_hands_between_assistants_away_from_the_table(state: State) -> None:
    state = do(state, souls.give_soul, "Dan", "Finn", COBALT)
    assert holder(state, COBALT) == "Finn"


@pytest.mark.parametrize(("source", "target", "soul"), [
    ("Ada", "Ben", "Ada"),        # the giver is seated
    ("Dan", "Cara", COBALT),      # the receiver is seated
    ("Dan", FOOL, COBALT),        # the Fool hosts the table
])
def test_r16_soul_give_involving_the_table_is_refused(state: State, source: str, target: str,
                                                       soul: str) -> None:
    message = refused(state, souls.give_soul, source, target, soul, exc=LawViolation)
    assert "R16" in message


def test_r16_risen_stakeholder_may_give_their_soul(state: State) -> None:
    state = away(state, "Ada", "Cara")
    state = do(state, souls.give_soul, "Ada", "Cara", "Ada")
    assert holder(state, "Ada's soul") == "Cara"


def test_r16_charges_need_both_parties_away_from_the_table(state: State) -> None:
    state = do(state, souls.guess, "Dan", COBALT, "Houdini", None)  # Cara's side: 2
    refused(state, souls.give_charges, "Cara", "Finn", 1, exc=LawViolation, match="R16")
    refused(state, souls.give_charges, "Dan", "Eve", 1, exc=LawViolation, match="R16")
    state = do(state, souls.give_charges, "Dan", "Finn", 1)  # their assistants may
    assert state.charges == {"Cara": 1, "Eve": 1, "Ada": 0}


def test_r16_powers_never_change_hands(state: State) -> None:
    state = start_hand(state)
    state = do(state, powers.access, "Ada", "XIX", "reversed")
    refused(state, power_moves.use_power, "Cara", "XIX-reversed", exc=IllegalAction,
            match="cannot be given")
    assert state.powers["XIX-reversed"]["holder"] == "Ada"


# -- R19 souls --------------------------------------------------------------------------------


def test_r19_one_bottled_soul_per_side_held_by_the_assistant(state: State,
                                                              scenario: Any) -> None:
    bottled = {s.key: s for s in state.souls if s.kind == "bottled"}
    assert {k: s.holder for k, s in bottled.items()} == {COBALT: "Dan", AMBER: "Finn",
                                                          GREEN: "Ben"}
    for key, soul in bottled.items():
        spec = scenario.find_soul(key)
        assert (soul.identity, soul.arcanum) == (spec.name, spec.arcanum)
    own = {s.key: (s.holder, s.arcanum) for s in state.souls if s.kind == "own"}
    assert own == {"Cara's soul": ("Cara", 3), "Eve's soul": ("Eve", 7),
                   "Ada's soul": ("Ada", 16)}


def test_r19_a_side_without_an_assistant_holds_its_bottle_itself() -> None:
    state = evening(["Ada:XVI:red:Ben:IX", "Gus:XIX:yellow"])
    assert holder(state, COBALT) == "Ben"
    assert holder(state, AMBER) == "Gus"
    assert len(state.souls) == 4  # two bottles, two own souls


def test_r19_every_soul_has_one_holder_or_is_destroyed(state: State) -> None:
    state = do(state, souls.consume, "Dan", COBALT, "V")
    soul = state.soul(COBALT)
    assert (soul.holder, soul.destroyed) == (None, "consumed")
    for s in state.souls:
        assert (s.holder is None) != (s.destroyed is None)
    message = refused(state, souls.give_soul, "Dan", "Finn", COBALT, exc=IllegalAction)
    assert "gone" in message and "R19" in message


def test_r19_souls_are_named_by_label_prefix_or_owner(state: State) -> None:
    assert souls.soul_key(state, "cobalt") == COBALT
    assert souls.soul_key(state, "The Amber") == AMBER
    assert souls.soul_key(state, "eve") == "Eve's soul"
    refused(state, souls.study, "Dan", "the glass slipper")


# -- R20 auction --------------------------------------------------------------------------------


def test_r20_sale_moves_chips_and_soul_together(state: State) -> None:
    state = do(state, souls.sell, "Ben", GREEN, "Cara", "blue:2", "a favour at the next hand")
    assert holder(state, GREEN) == "Cara"
    assert state.chips["Cara"] == {"blue": 8}
    assert state.chips["Ben"] == {"blue": 2}


def test_r20_sale_for_a_promise_alone(state: State) -> None:
    events = souls.sell(state, "Ben", GREEN, "Eve", None, "my silence")
    assert events[0]["promise"] == "my silence" and events[0]["chips"] == {}
    state = fold(state, events)
    assert holder(state, GREEN) == "Eve" and state.chips["Eve"] == {"green": 10}


@pytest.mark.parametrize(("seller", "soul", "buyer", "chips", "promise", "match"), [
    ("Dan", GREEN, "Cara", "blue:1", None, "does not hold"),
    ("Ben", GREEN, "Cara", "blue:11", None, "not 11"),
    ("Ben", GREEN, "Cara", "red:1", None, "red"),
    ("Ben", GREEN, "Cara", None, None, "winning bid"),
    ("Ben", GREEN, "Ben", None, "x", "themselves"),
])
def test_r20_bad_sale_moves_nothing(state: State, seller: str, soul: str, buyer: str,
                                    chips: str | None, promise: str | None, match: str) -> None:
    refused(state, souls.sell, seller, soul, buyer, chips, promise, match=match)


# -- R21 own soul: forced trade, buyout --------------------------------------------------------


def test_r21_force_trade_goes_to_the_largest_holder_counting_the_assistant(
        state: State) -> None:
    state = away(state, "Eve", "Cara")
    state = give(state, "Eve", "Dan", "green:2")
    state = give(state, "Eve", "Cara", "green:1")   # Cara's side: 3
    state = give(state, "Eve", "Ben", "green:2")    # Ada's side: 2
    state = do(state, souls.auction, "Eve", "Eve")  # R21: the bids were not to her liking
    state = do(state, souls.force_trade, "Eve", None)
    assert holder(state, "Eve's soul") == "Cara"
    # The seller receives exactly those chips: Dan's 2 and Cara's 1.
    assert state.chips["Eve"] == {"green": 8}
    assert state.chips["Dan"] == {} and state.chips["Cara"] == {"blue": 10}
    assert state.chips["Ben"] == {"green": 2}


def test_r21_force_trade_tie_the_seller_picks(state: State) -> None:
    state = away(state, "Eve")
    state = give(state, "Eve", "Dan", "green:2")
    state = give(state, "Eve", "Ben", "green:2")
    state = do(state, souls.auction, "Eve", "Eve")
    refused(state, souls.force_trade, "Eve", None, match="tie")
    refused(state, souls.force_trade, "Eve", "Fiona", match="holder of green")
    state = do(state, souls.force_trade, "Eve", "Ada")
    assert holder(state, "Eve's soul") == "Ada"
    assert state.chips["Eve"] == {"green": 8} and state.chips["Ben"] == {}


def test_r21_force_trade_refused_without_another_holder_or_soul(state: State) -> None:
    refused(state, souls.force_trade, "Eve", None, match="announce it first")
    state = do(state, souls.auction, "Eve", "Eve")
    refused(state, souls.force_trade, "Eve", None, match="nobody else holds")
    state = do(state, souls.auction, "Eve", None, withdraw=True)
    state = away(state, "Eve", "Ada")
    state = do(state, souls.give_soul, "Eve", "Ada", "Eve")
    state = give(state, "Eve", "Ben", "green:1")
    refused(state, souls.force_trade, "Eve", None, match="no longer holds")


def test_r21_buyout_with_all_ten_chips(state: State) -> None:
    state = away(state, "Ada")
    state = give(state, "Ada", "Finn", "red:6")
    state = give(state, "Ada", "Dan", "red:4")
    refused(state, souls.buyout, "Finn", "Ada", match="6 of Ada's ten")
    state = give(state, "Dan", "Finn", "red:4")
    state = do(state, souls.buyout, "Finn", "Ada")
    # The soul goes to the person named; the ten chips go back to Ada.
    assert holder(state, "Ada's soul") == "Finn"
    assert state.chips["Ada"] == {"red": 10} and state.chips["Finn"] == {}


def test_r21_buyout_counts_the_whole_side(state: State) -> None:
    state = away(state, "Ada", "Eve")
    state = give(state, "Ada", "Finn", "red:6")
    state = give(state, "Ada", "Eve", "red:4")
    state = do(state, souls.buyout, "Eve", "Ada")
    assert holder(state, "Ada's soul") == "Eve"
    assert state.chips["Ada"] == {"red": 10}
    assert state.chips["Eve"] == {"green": 10} and state.chips["Finn"] == {}


def test_r21_buyout_by_the_owners_own_side_is_refused(state: State) -> None:
    state = away(state, "Ada")
    state = give(state, "Ada", "Ben", "red:10")
    message = refused(state, souls.buyout, "Ben", "Ada", exc=IllegalAction)
    assert "own side" in message


def test_r17_r21_holder_of_all_ten_declines_then_owner_resigns(state: State) -> None:
    state = away(state, "Ada")
    state = give(state, "Ada", "Finn", "red:10")
    refused(state, commands.resign, "Ada", match="offered")
    refused(state, souls.decline, "Dan", "Ada", match="no buyout")
    state = do(state, souls.decline, "Finn", "Ada")
    state = do(state, commands.resign, "Ada")
    assert state.seat("Ada").resigned and holder(state, "Ada's soul") == "Ada"
    refused(state, souls.buyout, "Finn", "Ada", match="no longer a stakeholder")


# -- R22 smashing -------------------------------------------------------------------------------


def test_r22_holder_smashes_the_attackers_soul(state: State) -> None:
    state = away(state, "Ada")
    state = do(state, souls.give_soul, "Ada", "Finn", "Ada")
    state = do(state, souls.smash, "Finn", "Ada")
    soul = state.soul("Ada's soul")
    assert (soul.holder, soul.destroyed) == (None, "smashed")
    seat = state.seat("Ada")
    assert seat.dead and not seat.seated
    assert state.chips["Ada"] == {"red": 10}  # the chips stay for the referee to settle
    state = start_hand(state)
    assert state.hand is not None and "Ada" not in state.hand.order


def test_r22_e19_the_dead_never_sit_again(state: State) -> None:
    state = away(state, "Ada")
    state = do(state, souls.give_soul, "Ada", "Finn", "Ada")
    state = do(state, souls.smash, "Finn", "Ada")
    message = refused(state, commands.sit, "Ada")
    assert "Ada is dead (their soul was smashed)" in message and "(R22, E19)" in message
    assert "resigned" not in message  # she did not resign (R17)


def test_r22_no_smashing_at_the_table(state: State) -> None:
    state = away(state, "Ada")
    state = do(state, souls.give_soul, "Ada", "Finn", "Ada")
    state = do(state, commands.sit, "Ada")
    message = refused(state, souls.smash, "Finn", "Ada", exc=LawViolation)
    assert "R22" in message


@pytest.mark.parametrize(("who", "soul", "match"), [
    ("Dan", COBALT, "living attacker"),   # a bottled soul has no one to die
    ("Ada", "Ada", "living attacker"),    # one's own soul
    ("Finn", "Ada", "does not hold"),
])
def test_r22_only_the_holder_of_bs_soul_smashes_it(state: State, who: str, soul: str,
                                                   match: str) -> None:
    refused(state, souls.smash, who, soul, exc=IllegalAction, match=match)


# -- R23 studying -------------------------------------------------------------------------------


def test_r23_study_reveals_the_seats_clues_in_order(state: State, scenario: Any) -> None:
    clues = []
    for n in range(3):
        events = souls.study(state, "Ben", GREEN)
        assert (events[0]["n"], events[0]["of"]) == (n + 1, 3)
        clues.append(events[0]["clue"])
        state = fold(state, events)
    assert clues == sheet(scenario, GREEN, 3)  # Ada sits third from the Fool's left
    message = refused(state, souls.study, "Ben", GREEN, exc=IllegalAction)
    assert "exhausted" in message and "R23" in message


def test_r23_assistants_learn_different_things_about_one_soul(state: State,
                                                              scenario: Any) -> None:
    first = souls.study(state, "Finn", AMBER)[0]["clue"]
    state = do(state, souls.give_soul, "Finn", "Dan", AMBER)
    second = souls.study(state, "Dan", AMBER)[0]["clue"]
    assert first == sheet(scenario, AMBER, 2)[0]
    assert second == sheet(scenario, AMBER, 1)[0]
    assert first != second


def test_r23_a_side_studies_a_soul_held_by_its_stakeholder(state: State) -> None:
    state = away(state, "Ada")
    state = do(state, souls.give_soul, "Ben", "Ada", GREEN)
    assert souls.study(state, "Ben", GREEN)[0]["n"] == 1


@pytest.mark.parametrize(("who", "soul", "match"), [
    ("Ben", COBALT, "only a soul their side holds"),
    ("Ben", "Ada", "own soul"),
    ("Ada", GREEN, "unknown assistant"),
])
def test_r23_study_refused(state: State, who: str, soul: str, match: str) -> None:
    refused(state, souls.study, who, soul, match=match)


# -- R24 guesses --------------------------------------------------------------------------------


def guess(state: State, who: str, soul: str, name: str | None = None,
          arcanum: str | None = None) -> tuple[State, Event]:
    events = souls.guess(state, who, soul, name, arcanum)
    return fold(state, events), events[0]


def test_r24_first_correct_name_earns_two_charges(state: State) -> None:
    state, e = guess(state, "Dan", COBALT, name="Harry Houdini")
    assert (e["result"], e["charges"], e["left"]) == ({"name": "correct", "arcanum": None}, 2, 2)
    assert state.charges["Cara"] == 2


def test_r24_first_correct_arcanum_earns_one_charge(state: State) -> None:
    state, e = guess(state, "Finn", AMBER, arcanum="III")
    assert (e["result"]["arcanum"], e["charges"], e["arcanum"]) == ("correct", 1, "III")
    assert state.charges["Eve"] == 1


def test_r24_both_at_once_earn_three(state: State) -> None:
    state, e = guess(state, "Ben", GREEN, name="Thoreau", arcanum="the hermit")
    assert e["charges"] == 3 and state.charges["Ada"] == 3


def test_r24_later_correct_guesses_are_confirmed_but_earn_nothing(state: State) -> None:
    state, _ = guess(state, "Dan", COBALT, name="Houdini", arcanum="I")
    state, e = guess(state, "Finn", COBALT, name="Erik Weisz", arcanum="M1")
    assert e["result"] == {"name": "correct", "arcanum": "correct"} and e["charges"] == 0
    assert state.charges == {"Cara": 3, "Eve": 0, "Ada": 0}


def test_r24_name_and_arcanum_are_first_separately(state: State) -> None:
    state, _ = guess(state, "Finn", COBALT, arcanum="I")        # Eve's side: the Arcanum
    state, e = guess(state, "Dan", COBALT, name="houdini", arcanum="I")
    assert e["charges"] == 2                                  # Cara's side: the name only
    assert state.charges == {"Cara": 2, "Eve": 1, "Ada": 0}


def test_r24_guess_any_soul_held_or_not(state: State) -> None:
    state, e = guess(state, "Ben", AMBER, name="Catherine the Great")
    assert e["charges"] == 2 and state.charges["Ada"] == 2


@pytest.mark.parametrize("name", [
    "HARRY HOUDINI", "harry houdini!", "  Harry   Houdini ", "Houdini", "Ehrich Weiss",
    "Erik-Weisz",
])
def test_r24_names_match_case_and_punctuation_insensitively(state: State, name: str) -> None:
    _, e = guess(state, "Dan", COBALT, name=name)
    assert e["result"]["name"] == "correct"


@pytest.mark.parametrize(("soul", "name"), [
    (GREEN, "HD Thoreau"), (GREEN, "h.d. thoreau"), ("the gilded", "Louis Dieudonné"),
    ("the gilded", "louis-xiv"),
])
def test_r24_spacing_and_accents_do_not_matter(soul: str, name: str) -> None:
    state = evening(SEATS + ["Gus:XIX:yellow:Hal:II", "Ida:XX:white:Jo:IV",
                             "Kit:XXI:black:Lu:VI"])
    _, e = guess(state, "Ben", soul, name=name)
    assert e["result"]["name"] == "correct", name


@pytest.mark.parametrize("name", ["Houdni", "Harry Houdin", "Hary Houdini"])
def test_r24_near_miss_is_reported_never_accepted(state: State, name: str) -> None:
    state, e = guess(state, "Dan", COBALT, name=name)
    assert (e["result"]["name"], e["charges"]) == ("near", 0)
    assert state.charges["Cara"] == 0


def test_r24_wrong_guesses(state: State) -> None:
    state, e = guess(state, "Dan", COBALT, name="Napoleon Bonaparte", arcanum="XXI")
    assert e["result"] == {"name": "wrong", "arcanum": "wrong"} and e["charges"] == 0


def test_r24_three_guesses_per_assistant_per_soul(state: State) -> None:
    for _ in range(3):
        state, _e = guess(state, "Dan", COBALT, arcanum="XX")
    message = refused(state, souls.guess, "Dan", COBALT, "Houdini", "I", exc=IllegalAction)
    assert "R24" in message and "three" in message
    state, e = guess(state, "Finn", COBALT, arcanum="I")   # others still may
    state, e = guess(state, "Dan", AMBER, arcanum="III")   # and Dan on another soul
    assert e["charges"] == 1


@pytest.mark.parametrize(("who", "soul", "name", "arcanum", "match"), [
    ("Dan", COBALT, None, None, "--name"),
    ("Dan", "Ada", "Ada", None, "own soul"),
    ("Ada", COBALT, "Houdini", None, "unknown assistant"),
    (FOOL, COBALT, "Houdini", None, "unknown assistant"),
    ("Dan", COBALT, None, "XXV", "unknown Arcanum"),
])
def test_r24_bad_guesses(state: State, who: str, soul: str, name: str | None,
                         arcanum: str | None, match: str) -> None:
    refused(state, souls.guess, who, soul, name, arcanum, match=match)


# -- R25 Charges --------------------------------------------------------------------------------


def test_r25_charges_belong_to_the_side_and_can_be_given(state: State) -> None:
    state = away(state, "Cara")
    state, _ = guess(state, "Dan", COBALT, name="Houdini", arcanum="I")
    state = do(state, souls.give_charges, "Cara", "Ben", 2)   # a stakeholder gives for the side
    assert state.charges == {"Cara": 1, "Eve": 0, "Ada": 2}


@pytest.mark.parametrize(("source", "target", "n", "match"), [
    ("Dan", "Finn", 1, "has 0 Charge"),
    ("Dan", "Cara", 1, "same side"),
    ("Dan", "Finn", 0, "at least one"),
    ("Dan", FOOL, 1, "no stakeholder's side"),
    (FOOL, "Dan", 1, "no stakeholder's side"),
])
def test_r25_charges_never_taken_nor_made_up(state: State, source: str, target: str, n: int,
                                             match: str) -> None:
    refused(state, souls.give_charges, source, target, n, match=match)


def test_r25_cannot_give_more_charges_than_the_side_has(state: State) -> None:
    state, _ = guess(state, "Finn", AMBER, arcanum="III")
    refused(state, souls.give_charges, "Finn", "Dan", 2, match="has 1 Charge")
    state = do(state, souls.give_charges, "Finn", "Dan", 1)
    assert state.charges == {"Cara": 1, "Eve": 0, "Ada": 0}


# -- R26 powers ---------------------------------------------------------------------------------


def test_r26_access_grants_the_power_once_and_the_card_is_out(state: State) -> None:
    state = start_hand(state)
    events = powers.access(state, "Ada", "XIX", "upright")
    assert events[0]["granted"] and not events[0]["depleted"]
    state = fold(state, events)
    assert state.powers["XIX-upright"] == {"holder": "Ada", "used": False, "hand": 1}
    assert state.hand is not None and state.hand.forfeited == {"Ada": ["XIX"]}
    # The same card cannot be given up twice in a hand (a deck holds it once).
    refused(state, powers.access, "Cara", "XIX", "upright", match="already given up")
    state = showdown(check_around(state), {**PLAIN, "Ada": "2W 4P 7C 9S KnW KP"})
    # Next hand: the power is out, so nothing is granted, but the card is out all the same.
    state = start_hand(state)
    events = powers.access(state, "Cara", "XIX", "upright")
    assert not events[0]["granted"] and not events[0]["depleted"]
    state = fold(state, events)
    assert state.powers["XIX-upright"]["holder"] == "Ada"
    assert state.hand is not None and state.hand.forfeited == {"Cara": ["XIX"]}
    # ... and Cara shows six cards at the showdown, never the one she gave up.
    state = check_around(state)
    refused(state, showdowns.showdown, list(PLAIN.items()), magic=False, now=0.0,
            match="one went for a power")
    state = showdown(state, {**PLAIN, "Cara": "2C 4S 7W 9P KnC KS"})
    assert state.hands_played == 2


def test_r26_both_powers_out_card_is_depleted(state: State) -> None:
    state = start_hand(state)
    state = do(state, powers.access, "Eve", "XIX", "upright")
    state = do(state, powers.access, "Cara", "XVIII", "upright")
    state = showdown(check_around(state), {**PLAIN, "Eve": "2S 4W 7P 9C KnS KW",
                                           "Cara": "2C 4S 7W 9P KnC KS"})
    state = start_hand(state)
    events = powers.access(state, "Ada", "XIX", "reversed")
    assert events[0]["granted"] and events[0]["depleted"]
    state = fold(state, events)
    assert powers.depleted(state, 19) and not powers.depleted(state, 18)


@pytest.mark.parametrize(("who", "card", "way", "match"), [
    ("Ada", "5C", "upright", "minor card"),
    (FOOL, "XIX", "upright", "the Fool"),
    ("Ada", "XIX", "sideways", "orientation"),
    ("Ada", "XXII", "upright", "unknown card"),
])
def test_r26_access_refused(state: State, who: str, card: str, way: str, match: str) -> None:
    state = start_hand(state)
    refused(state, powers.access, who, card, way, match=match)


def test_r26_access_only_during_a_hand_by_a_stakeholder_in_it(state: State) -> None:
    refused(state, powers.access, "Ada", "XIX", "upright", match="during a hand")
    state = away(state, "Eve")
    state = start_hand(state)
    refused(state, powers.access, "Eve", "XIX", "upright", match="not in hand")
    state = do(state, play.show_cards, "Ada", "XIX 2C")
    refused(state, powers.access, "Ada", "XIX", "upright", match="up cards")
    refused(state, powers.access, "Cara", "XIX", "upright", match="showing for Ada")
    state = check_around(state, folds=("Cara",))
    assert state.hand is not None and "Cara" in state.hand.folded
    refused(state, powers.access, "Cara", "XVIII", "upright", match="not in hand")


def test_r26_access_only_with_face_down_cards(state: State) -> None:
    state = start_hand(state)
    state = do(state, powers.access, "Ada", "XIX", "upright")
    state = do(state, powers.access, "Ada", "XVIII", "upright")
    # Two down cards before the last round: a third is refused until the seventh card.
    refused(state, powers.access, "Ada", "XVII", "upright", match="face-down")


def test_r26_use_pays_the_charges_once(state: State) -> None:
    state, _ = guess(state, "Ben", GREEN, name="Thoreau", arcanum="IX")   # Ada's side: 3
    state = start_hand(state)
    state = do(state, powers.access, "Ada", "XII", "upright")              # needs 1 Charge
    state = do(state, power_moves.use_power, "Ada", "Upside Down", cards=["5C"])
    assert state.charges["Ada"] == 2
    assert state.powers["XII-upright"]["used"] is True
    message = refused(state, power_moves.use_power, "Ada", "XII-upright", exc=IllegalAction)
    assert "already used" in message and "R26" in message


def test_r26_use_without_the_charges_is_refused(state: State) -> None:
    state = start_hand(state)
    state = do(state, powers.access, "Ada", "0", "upright")   # The Leap needs 2
    refused(state, power_moves.use_power, "Ada", "The Leap", cards=["5C"], as_card="KC",
            match="needs 2 Charge")
    state = fold(state, souls.guess(state, "Ben", GREEN, None, "IX"))   # 1 Charge
    refused(state, power_moves.use_power, "Ada", "0-upright", cards=["5C"], as_card="KC",
            match="side has 1")
    state = fold(state, souls.guess(state, "Dan", GREEN, "Thoreau", None))   # Cara: 2
    state = do(state, souls.give_charges, "Dan", "Ben", 1)
    state = do(state, power_moves.use_power, "Ada", "0-upright", cards=["5C"], as_card="KC")
    assert state.charges == {"Cara": 1, "Eve": 0, "Ada": 0}


def test_r26_power_without_charges_is_used_for_free(state: State) -> None:
    free = powers.find_power(state, "Ill Star")  # no Charges, at any time (S11)
    assert free["charges"] == 0
    state = start_hand(state)
    state = do(state, powers.access, "Cara", free["key"].split("-")[0], free["orientation"])
    state = do(state, power_moves.use_power, "Cara", free["key"], target="Eve")
    assert state.powers[free["key"]]["used"] and state.charges["Cara"] == 0


def test_r26_default_power_set_has_one_power_per_card_and_way(state: State) -> None:
    keys = {(p["card"], p["orientation"]) for p in powers.powers(state)}
    assert keys == {(n, o) for n in range(22) for o in ("upright", "reversed")}
    assert all(0 <= p["charges"] <= 2 for p in powers.powers(state))


def test_r26_depleted_card_is_reported_again_when_asked(state: State) -> None:
    state = start_hand(state)
    state = do(state, powers.access, "Eve", "XIX", "upright")
    state = do(state, powers.access, "Ada", "XVIII", "upright")
    state = showdown(check_around(state), {**PLAIN, "Eve": "2S 4W 7P 9C KnS KW",
                                           "Ada": "2W 4P 7C 9S KnW KP"})
    state = start_hand(state)
    state = do(state, powers.access, "Cara", "XIX", "reversed")
    state = showdown(check_around(state), {**PLAIN, "Cara": "2C 4S 7W 9P KnC KS"})
    state = start_hand(state)
    events = powers.access(state, "Ada", "XIX", "upright")
    assert (events[0]["granted"], events[0]["depleted"]) == (False, True)


def test_r26_card_given_up_for_a_power_cannot_be_shown_as_an_up_card(state: State) -> None:
    state = start_hand(state)
    state = do(state, powers.access, "Ada", "XII", "upright")
    refused(state, play.show_cards, "Cara", "XII 2C", match="XII")


def test_r26_card_given_up_for_a_power_is_in_no_showdown_hand(state: State) -> None:
    state = start_hand(state)
    state = do(state, powers.access, "Ada", "XII", "upright")
    state = check_around(state)
    hands = {**PLAIN, "Ada": "2W 4P 7C 9S KnW KP", "Cara": "2C 4S 7W 9P KnC KS XII"}
    refused(state, showdowns.showdown, list(hands.items()), magic=False, now=0.0, match="XII")


def test_r26_the_dead_use_no_powers(state: State) -> None:
    free = next(p for p in powers.powers(state) if p["charges"] == 0)
    state = start_hand(state)
    state = do(state, powers.access, "Ada", free["key"].split("-")[0], free["orientation"])
    state = showdown(check_around(state), {**PLAIN, "Ada": "2W 4P 7C 9S KnW KP"})
    state = away(state, "Ada")
    state = do(state, souls.give_soul, "Ada", "Finn", "Ada")
    state = do(state, souls.smash, "Finn", "Ada")
    refused(state, power_moves.use_power, "Ada", free["key"], exc=IllegalAction,
            match="out of the game")
