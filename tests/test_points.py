"""Arcana status points and promotion claims through the core (R27, R28)."""

from __future__ import annotations

import pytest

from referee.errors import IllegalAction
from referee.evening import play, points, souls
from referee.evening.state import State
from tests.test_souls import (
    AMBER,
    COBALT,
    FOOL,
    GREEN,
    away,
    check_around,
    do,
    evening,
    give,
    showdown,
    start_hand,
)

# Seven cards each, all distinct, nothing better than high card: ranks A 2 3 5 6 7 8 P Kn Q
# only (so no straight), at most two of a suit. The hands below use K 10 9 4 and majors.
NOTHING = {
    FOOL: "AC 2S 3W 5P 6C 7S 8W",
    "Cara": "2C 3S 5W 6P 7C 8S PW",
    "Eve": "3C 5S 6W 7P 8C PS KnW",
    "Ada": "5C 6S 7W 8P PC KnS QW",
}
TWO_PAIR_DUET = "KS KC IV XIV 4W 9S 10P"    # a pair of Kings and the Duet IV + XIV
THREE_PAIR = "10S 10C 4P 4W II IX 9C"       # two pair and the Duet II + IX


def hand(state: State, cards: dict[str, str], folds: tuple[str, ...] = ()) -> State:
    """One hand checked around to the end and shown down with these cards."""
    state = start_hand(state)
    state = check_around(state, folds, planned={**NOTHING, **cards})
    shown = {p: c for p, c in ({**NOTHING, **cards}).items() if p not in folds}
    return showdown(state, shown)


def pts(state: State) -> dict[str, dict[str, int]]:
    return points.points_json(state)


def claims(state: State) -> list[tuple[str, str, int, str | None, int | None]]:
    return [(c["person"], c["arcanum"], c["points"], c["occupant"], c["occupant_points"])
            for c in points.promotions(state)]


START = {FOOL: {"0": 5}, "Cara": {"III": 5}, "Dan": {"V": 1}, "Eve": {"VII": 5},
         "Finn": {"XI": 1}, "Ada": {"XVI": 5}, "Ben": {"IX": 1}}


@pytest.fixture
def state() -> State:
    return evening()


# -- R27 ----------------------------------------------------------------------------------------


def test_r27_members_start_with_five_assistants_with_one(state: State) -> None:
    # Bottled souls held by assistants add 2 each in the soul's Arcanum (R27, below).
    assert pts(state) == {**START, "Dan": {"I": 2, "V": 1}, "Finn": {"III": 2, "XI": 1},
                          "Ben": {"IX": 1 + 2}}


def without_bottles(state: State) -> State:
    """The three bottles consumed by their holders into their own Arcanum (+1 each)."""
    for who, soul, arcanum in (("Dan", COBALT, "V"), ("Finn", AMBER, "XI"),
                               ("Ben", GREEN, "IX")):
        state = do(state, souls.consume, who, soul, arcanum)
    return state


def test_r27_two_pair_with_a_duet_earns_one_point_in_each_duet_arcanum(state: State) -> None:
    state = without_bottles(state)
    state = hand(state, {"Eve": TWO_PAIR_DUET})
    assert state.history[-1]["best"]["Eve"]["category"] == "two_pair_duet"
    # Eve keeps the lower-numbered IV, her assistant Finn gets XIV.
    assert pts(state)["Eve"] == {"IV": 1, "VII": 5}
    assert pts(state)["Finn"] == {"XI": 1 + 1, "XIV": 1}


def test_r27_three_pair_earns_three_points_in_each(state: State) -> None:
    state = without_bottles(state)
    state = hand(state, {"Ada": THREE_PAIR})
    assert state.history[-1]["best"]["Ada"]["category"] == "three_pair"
    assert pts(state)["Ada"] == {"II": 3, "XVI": 5}
    assert pts(state)["Ben"] == {"IX": 1 + 1 + 3}


def test_r27_points_add_up_over_hands(state: State) -> None:
    state = without_bottles(state)
    state = hand(state, {"Ada": THREE_PAIR})
    state = hand(state, {"Ada": THREE_PAIR.replace("II", "0")})   # Duet 0 + IX
    assert pts(state)["Ada"] == {"0": 3, "II": 3, "XVI": 5}
    assert pts(state)["Ben"]["IX"] == 1 + 1 + 3 + 3


def test_r27_the_fool_keeps_both_duet_arcana(state: State) -> None:
    state = hand(state, {FOOL: "KP KW XX XXI 4C 9W 10W"})
    assert state.history[-1]["best"][FOOL]["category"] == "two_pair_duet"
    assert pts(state)[FOOL] == {"0": 5, "XX": 1, "XXI": 1}


def test_r27_a_player_without_an_assistant_keeps_both() -> None:
    state = evening(["Ada:XVI:red:Ben:IX", "Gus:XIX:yellow"])
    state = start_hand(state)
    state = check_around(state, planned={**NOTHING, "Gus": THREE_PAIR})
    state = showdown(state, {FOOL: NOTHING[FOOL], "Ada": NOTHING["Ada"], "Gus": THREE_PAIR})
    assert pts(state)["Gus"] == {"II": 3, "III": 2, "IX": 3, "XIX": 5}   # III: the amber bottle


def test_r27_a_folded_hand_earns_nothing(state: State) -> None:
    state = start_hand(state)
    state = do(state, play.show_cards, "Eve", "KS IV")
    state = check_around(state, folds=("Eve",), planned=NOTHING)
    state = showdown(state, {p: c for p, c in NOTHING.items() if p != "Eve"})
    assert pts(state)["Eve"] == {"VII": 5}
    assert pts(state)["Finn"] == START["Finn"] | {"III": 2}


@pytest.mark.parametrize(("cards", "category"), [
    ("4W 9W 10W KW KnW IV XIV", "flush"),       # the Duet is not what is played
    ("4W 9S 10P KC KnW IV XIV", "duet"),        # a Duet with no pair
    ("KS KC 9S 9C 4W 10P IV", "two_pair"),     # two regular pairs, no Duet
    ("KS KC KP 9S 4W IV XIV", "full_house_duet"),
])
def test_r27_only_pair_plus_duet_and_three_pair_earn(state: State, cards: str,
                                                      category: str) -> None:
    state = hand(state, {"Eve": cards})
    assert state.history[-1]["best"]["Eve"]["category"] == category
    assert pts(state)["Eve"] == {"VII": 5}
    assert pts(state)["Finn"] == {"III": 2, "XI": 1}


def test_r27_holding_a_soul_gives_two_in_its_arcanum_while_held(state: State) -> None:
    assert pts(state)["Dan"] == {"I": 2, "V": 1}
    state = do(state, souls.give_soul, "Dan", "Finn", COBALT)
    assert pts(state)["Dan"] == {"V": 1}
    assert pts(state)["Finn"] == {"I": 2, "III": 2, "XI": 1}


def test_r27_holding_ones_own_soul_gives_nothing_and_losing_it_costs_three(
        state: State) -> None:
    assert pts(state)["Ada"] == {"XVI": 5}
    state = away(state, "Ada")
    state = do(state, souls.give_soul, "Ada", "Finn", "Ada")
    assert pts(state)["Ada"] == {"XVI": 5 - 3}
    assert pts(state)["Finn"]["XVI"] == 2
    state = do(state, souls.smash, "Finn", "Ada")     # destroyed: still lost
    assert pts(state)["Ada"] == {"XVI": 5 - 3}
    assert "XVI" not in pts(state)["Finn"]


def test_r27_consuming_gives_one_point_of_choice_and_ends_the_holding(state: State) -> None:
    state = do(state, souls.consume, "Dan", COBALT, "the world")
    assert pts(state)["Dan"] == {"V": 1, "XXI": 1}
    assert state.soul(COBALT).destroyed == "consumed"


def test_r27_consuming_anothers_soul_costs_its_owner_three(state: State) -> None:
    state = away(state, "Ada", "Cara")
    state = do(state, souls.give_soul, "Ada", "Cara", "Ada")
    state = do(state, souls.consume, "Cara", "Ada", "XVI")
    assert pts(state)["Cara"] == {"III": 5, "XVI": 1}
    assert pts(state)["Ada"] == {"XVI": 2}
    with pytest.raises(IllegalAction, match="own soul"):
        souls.consume(state, "Cara", "Cara", "I")


def test_r27_points_detail_names_every_source(state: State) -> None:
    state = away(state, "Ada")
    state = do(state, souls.give_soul, "Ada", "Finn", "Ada")
    detail = points.points_detail(state)
    assert {"person": "Ada", "arcanum": "XVI", "points": -3,
            "source": "own soul held by Finn"} in detail
    assert {"person": "Finn", "arcanum": "XVI", "points": 2,
            "source": "holds Ada's soul"} in detail
    assert {"person": "Dan", "arcanum": "V", "points": 1,
            "source": "start: assistant's attuned Arcanum"} in detail
    # The detail adds up to the totals.
    total: dict[str, dict[str, int]] = {}
    for row in detail:
        bucket = total.setdefault(row["person"], {})
        bucket[row["arcanum"]] = bucket.get(row["arcanum"], 0) + row["points"]
    assert {p: a for p, a in pts(state).items() if a} == total


# -- R28 ----------------------------------------------------------------------------------------


def test_r28_nobody_can_claim_at_the_start(state: State) -> None:
    assert points.promotions(state) == []


def test_r28_vacant_arcanum_needs_seven(state: State) -> None:
    # Ben in IX (vacant): 1 start + 2 holding the cracked green bottle (IX) = 3.
    state = hand(state, {"Ada": THREE_PAIR})          # + 3 from Ada's Duet II + IX = 6
    assert pts(state)["Ben"]["IX"] == 6
    assert claims(state) == []
    state = do(state, souls.give_soul, "Dan", "Ben", COBALT)
    state = do(state, souls.consume, "Ben", COBALT, "IX")    # + 1 = 7
    assert claims(state) == [("Ben", "IX", 7, None, None)]


def test_r28_occupied_arcanum_needs_more_than_the_occupant(state: State) -> None:
    state = away(state, "Ada")
    state = give(state, "Ada", "Finn", "red:10")
    state = do(state, souls.buyout, "Finn", "Ada")
    # Finn holds Ada's soul: 2 in XVI; Ada has 5 - 3 = 2. Equal is not enough.
    assert pts(state)["Finn"]["XVI"] == 2 and pts(state)["Ada"]["XVI"] == 2
    assert claims(state) == []
    state = do(state, souls.consume, "Finn", AMBER, "XVI")   # 3 against 2
    assert claims(state) == [("Finn", "XVI", 3, "Ada", 2)]


def test_r28_a_member_may_claim_the_fools_arcanum(state: State) -> None:
    state = hand(state, {"Ada": THREE_PAIR.replace("II", "0")})
    state = hand(state, {"Ada": THREE_PAIR.replace("II", "0")})
    # Ada: 3 + 3 in 0 against the Fool's 5.
    assert ("Ada", "0", 6, FOOL, 5) in claims(state)
    assert points.promotions(state)[0] == {"person": "Ada", "arcanum": "0", "points": 6,
                                           "occupant": FOOL, "occupant_points": 5}


def test_r28_the_dead_claim_nothing_and_leave_their_arcanum_vacant(state: State) -> None:
    state = hand(state, {"Ada": THREE_PAIR.replace("II", "0")})
    state = hand(state, {"Ada": THREE_PAIR.replace("II", "0")})
    state = away(state, "Ada")
    state = do(state, souls.give_soul, "Ada", "Finn", "Ada")
    state = do(state, souls.smash, "Finn", "Ada")
    assert state.seat("Ada").dead
    assert all(c[0] != "Ada" for c in claims(state))
    # XVI is vacant now: nobody has 7 there, so nobody claims it yet.
    assert points.occupants(state).get(16) is None
