"""What the views say of a hand (referee.evening.views): why another opens (E88), the down
cards still to give (E78), the marked up cards (E76, E77). On states built directly."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.evening import views
from referee.evening.state import HandState, Round, Seat, State
from referee.rules.cards import parse_cards
from referee.rules.hands import best_hand

ORDER = ["Ada", "Cy", "Ed", "Max"]


def _state(stacks: dict[str, int], showing: dict[str, str], *, street: int = 1,
           effects: list[dict[str, object]] | None = None, **hand: object) -> State:
    """Three stakeholders (seats Ada, Cy, Ed from the Fool's left) and the Fool Max."""
    seats = [Seat(name, arcanum, colour) for name, arcanum, colour in
             (("Ada", 1, "red"), ("Cy", 3, "blue"), ("Ed", 5, "green"))]
    state = State(started=True, fool="Max", seats=seats)
    for seat in seats:
        state.chips[seat.name] = {seat.colour: stacks.get(seat.name, 0)}
    state.chips["Max"] = {"red": stacks["Max"]} if stacks.get("Max") else {}
    state.hand = HandState(no=1, phase="limit", order=list(ORDER),
                           showing={n: c.split() for n, c in showing.items()},
                           round=Round(street=street), effects=list(effects or []),
                           **hand)  # type: ignore[arg-type]
    return state


LOW = {"Ada": "2C 3W", "Cy": "KC KW", "Ed": "9S 4P"}


def _note(state: State) -> str | None:
    assert state.hand is not None
    return views.opener_note(state, state.hand)


def test_e88_the_fool_shows_the_high_hand_without_chips() -> None:
    state = _state({"Ada": 5, "Cy": 5, "Ed": 5}, {**LOW, "Max": "AC AW AS 6P"})
    assert _note(state) == "Max shows the high hand but has no chips: Cy opens (R15)"
    # With chips he bets it himself (R15): nothing to explain.
    assert _note(_state({"Ada": 5, "Cy": 5, "Ed": 5, "Max": 3},
                        {**LOW, "Max": "AC AW AS 6P"})) is None


def test_e88_an_all_in_or_suspended_high_hand_lets_the_next_best_open() -> None:
    showing = {**LOW, "Max": "2S 3S 5P 6W"}
    assert _note(_state({"Ada": 5, "Cy": 0, "Ed": 5}, showing)) == \
        "Cy shows the high hand but is all-in: Ed opens (R14)"
    suspended = [{"kind": "all_in", "scope": "hand", "target": "Cy", "power": "Suspended",
                  "by": "Ed"}]
    assert _note(_state({"Ada": 5, "Cy": 5, "Ed": 5}, showing, effects=suspended)) == \
        "Cy shows the high hand but is Suspended: Ed opens (S19)"


def test_e88_an_opener_named_by_a_power_says_which() -> None:
    reins = [{"kind": "opener", "scope": "round", "target": None, "power": "Take the Reins",
              "by": "Ada", "street": 1, "who": "Ada"}]
    state = _state({"Ada": 5, "Cy": 5, "Ed": 5}, {**LOW, "Max": "2S 3S 5P 6W"}, effects=reins)
    assert _note(state) == "Ada opens this round by Take the Reins, not Cy (S20)"


def test_e88_nothing_to_say_when_the_high_hand_opens_or_the_round_is_under_way() -> None:
    assert _note(_state({"Ada": 5, "Cy": 5, "Ed": 5}, {**LOW, "Max": "2S 3S 5P 6W"})) is None
    state = _state({"Ada": 5, "Cy": 5, "Ed": 5}, {**LOW, "Max": "AC AW AS 6P"})
    assert state.hand is not None
    state.hand.round.actions = 1  # Cy has bet: the opening is history
    assert _note(state) is None
    waiting = _state({"Ada": 5, "Cy": 5, "Ed": 5}, {"Cy": "KC KW", "Max": "AC AW AS 6P"})
    assert _note(waiting) is None  # up cards still to come (R9): no opener yet


CARDS = [f"{r}{s}" for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "P", "Kn",
                             "Q", "K") for s in "CWSP"] + ["0", "I", "II", "XIII", "XXI"]


@given(st.permutations(CARDS), st.lists(st.integers(0, 2), min_size=4, max_size=4))
def test_e88_the_note_names_the_high_hand_and_the_opener_exactly_when_they_differ(
        deck: list[str], chips: list[int]) -> None:
    showing = {"Ada": deck[0:2], "Cy": deck[2:4], "Ed": deck[4:6], "Max": deck[6:10]}
    stacks = dict(zip(ORDER, chips, strict=True))
    if sum(1 for n in ORDER if stacks[n]) < 1:
        stacks["Ada"] = 1
    state = _state(stacks, {n: " ".join(c) for n, c in showing.items()})

    def best(names: list[str]) -> str:  # R9: the best showing, ties to the seat order (H5)
        ranked = [(best_hand(parse_cards(" ".join(showing[n])), magic=True), -i, n)
                  for i, n in enumerate(ORDER) if n in names]
        return max(ranked)[2]

    high = best(ORDER)
    opens = best([n for n in ORDER if stacks[n]])
    note = _note(state)
    if high == opens:
        assert note is None
    else:
        assert note is not None and note.startswith(f"{high} shows the high hand but ")
        assert note.endswith(f": {opens} opens ({'R15' if high == 'Max' else 'R14'})")


# -- down cards still to give (E78) -------------------------------------------------------------


@pytest.mark.parametrize(("street", "over", "forfeits", "shift", "down"), [
    (1, False, 0, 0, 2), (2, False, 0, 0, 2), (3, False, 0, 0, 3), (1, True, 0, 0, 3),
    (1, False, 1, 0, 1),  # a down major handed to the Fool for a power (R26)
    (2, False, 0, 1, 3),  # an up card hooded (Hood the Lantern) is a down card now
    (3, False, 0, -1, 2),  # a down card turned up (Daylight) is an up card now
    (3, True, 2, 1, 2),
])
def test_e78_down_cards_still_to_give(street: int, over: bool, forfeits: int, shift: int,
                                      down: int) -> None:
    state = _state({"Ada": 5, "Cy": 5, "Ed": 5}, LOW, street=street, betting_over=over,
                   forfeited={"Ada": ["XIII", "IX"][:forfeits]}, shift={"Ada": shift})
    assert state.hand is not None
    assert views.down_cards(state, state.hand, "Ada") == down
    assert views.down_cards(state, state.hand, "Max") == 0  # the Fool's cards are all up


@given(st.integers(1, 3), st.booleans(), st.integers(0, 3), st.integers(-2, 2))
def test_e78_every_card_dealt_is_up_down_or_given_away(street: int, over: bool,
                                                       forfeits: int, shift: int) -> None:
    from referee.evening import betting

    state = _state({"Ada": 5, "Cy": 5, "Ed": 5}, LOW, street=street, betting_over=over,
                   forfeited={"Cy": ["I"] * forfeits}, shift={"Cy": shift})
    hand = state.hand
    assert hand is not None
    dealt = 7 if over else {1: 4, 2: 6, 3: 7}[street]
    up = betting.up_cards_dealt(state, hand, "Cy")
    down = views.down_cards(state, hand, "Cy")
    assert down >= 0
    if dealt - forfeits - up >= 0:
        assert up + down + forfeits == dealt


# -- marked cards (E76, E77) --------------------------------------------------------------------


def test_e76_up_cards_carry_what_the_powers_did_to_them() -> None:
    effects = [
        {"kind": "dead", "scope": "hand", "target": "Cy", "card": "KC", "power": "Cut Down",
         "by": "Ed"},
        {"kind": "counts_as", "scope": "hand", "target": "Cy", "card": "KW", "counts": "KS",
         "power": "Royal Decree", "by": "Cy"},
        {"kind": "protect", "scope": "hand", "target": "Cy", "card": "KW", "power": "Hold Fast",
         "by": "Cy"},
        {"kind": "dead", "scope": "hand", "target": "Ed", "card": "9S", "power": "Cut Down",
         "by": "Ada"},
    ]
    state = _state({"Ada": 5, "Cy": 5, "Ed": 5}, LOW, effects=effects,
                   hooded={"Ada": ["QC"]})
    view = views.hand_view(state)
    assert view is not None
    cy = next(p for p in view["players"] if p["name"] == "Cy")
    assert cy["cards"] == [{"card": "KC", "dead": True, "counts_as": None, "held": False},
                           {"card": "KW", "dead": False, "counts_as": "KS", "held": True}]
    ada = next(p for p in view["players"] if p["name"] == "Ada")
    assert ada["hooded"] == 1 and "QC" not in str(view)  # E77: how many, never which
