"""Fool's Errand hands (R4-R9, H1-H9): categories, tie-breaks, showing hands, who bets first."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.errors import BadInput
from referee.rules.cards import DECK, MAJORS, Card, Suit, format_cards, parse_cards
from referee.rules.hands import (
    CATEGORIES,
    CATEGORY_EXAMPLES,
    CATEGORY_TITLES,
    Hand,
    best_hand,
    check_distinct,
    explain,
    first_to_bet,
    rank_hands,
    verify_showing,
)
from tests.profiles import examples


def hand(text: str, magic: bool = False) -> Hand:
    return best_hand(parse_cards(text), magic=magic)


def shown(h: Hand) -> str:
    return format_cards(h.cards)


# ---------------------------------------------------------------- a slow, obvious oracle
# Every subset of the cards that could be "the hand" is classified using all of its cards
# (defining cards plus kickers); the best subset is the best hand. Nothing is shared with
# the evaluator under test except Card.strength.

ORDER = {name: len(CATEGORIES) - i for i, name in enumerate(CATEGORIES)}


def _windows() -> dict[int, set[int]]:
    return {last: {(last - 5 + t) % 14 + 1 for t in range(5)} for last in range(1, 15)}


WINDOWS = _windows()


def classify(cards: Sequence[Card]) -> tuple[Any, ...] | None:
    """(category order, tie-breaks...) for a set of cards that all play, or None."""
    s = len(cards)
    minors = [c for c in cards if c.suit is not None]
    majors = sorted((c for c in cards if c.suit is None), key=lambda c: c.rank)
    counts = Counter(c.rank for c in minors)
    groups = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    shape = [n for _, n in groups]
    m = len(majors)

    def kick(rest: Sequence[Card]) -> tuple[int, ...]:
        return tuple(sorted((c.strength for c in rest), reverse=True))

    def without(*ranks: int) -> list[Card]:
        return [c for c in minors if c.rank not in ranks]

    duet = tuple(c.strength for c in majors[:2])
    extra = majors[2:]
    five_minors = s == 5 and len(minors) == 5
    is_flush = five_minors and len({c.suit for c in minors}) == 1
    straight = next(
        (last for last in range(14, 0, -1) if five_minors and set(counts) == WINDOWS[last]), None
    )
    singles_only = all(n == 1 for n in shape[1:])
    if s >= 5 and shape == [s]:
        return (ORDER[{5: "five_of_a_kind", 6: "six_of_a_kind", 7: "seven_of_a_kind"}[s]],
                groups[0][0])
    if s > 5 and not (s == 6 and shape == [2, 2] and m == 2):
        return None
    if straight and is_flush:
        return (ORDER["straight_flush"], straight)
    if shape[:1] == [4]:
        return (ORDER["four_of_a_kind"], groups[0][0], kick(without(groups[0][0]) + majors))
    if shape == [3, 2] and m == 0:
        return (ORDER["full_house"], groups[0][0], groups[1][0])
    if shape == [3] and m == 2:
        return (ORDER["full_house_duet"], groups[0][0], *duet)
    if shape == [2, 2] and m == 2:
        return (ORDER["three_pair"], groups[0][0], groups[1][0], *duet)
    if is_flush:
        return (ORDER["flush"], kick(minors))
    if straight:
        return (ORDER["straight"], straight)
    if shape[:1] == [3] and singles_only and m <= 1:
        return (ORDER["three_of_a_kind"], groups[0][0], kick(without(groups[0][0]) + majors))
    if shape[:2] == [2, 2] and all(n == 1 for n in shape[2:]) and m <= 1:
        pair_ranks = (groups[0][0], groups[1][0])
        return (ORDER["two_pair"], *pair_ranks, kick(without(*pair_ranks) + majors))
    if shape[:1] == [2] and singles_only and m >= 2:
        return (ORDER["two_pair_duet"], groups[0][0], *duet,
                kick(without(groups[0][0]) + extra))
    if shape[:1] == [2] and singles_only:
        return (ORDER["pair"], groups[0][0], kick(without(groups[0][0]) + majors))
    if all(n == 1 for n in shape) and m >= 2:
        return (ORDER["duet"], *duet, kick(minors + extra))
    if all(n == 1 for n in shape):
        return (ORDER["high_card"], kick(cards))
    return None


def oracle(cards: Sequence[Card]) -> tuple[Any, ...]:
    n = len(cards)
    sizes = {min(n, 5), *(size for size in (6, 7) if size <= n)}
    found = [
        key
        for size in sizes
        for subset in itertools.combinations(cards, size)
        if (key := classify(subset)) is not None
    ]
    return max(found)


def oracle_category(cards: Sequence[Card]) -> str:
    return CATEGORIES[len(CATEGORIES) - oracle(cards)[0]]


# ---------------------------------------------------------------- strategies


@st.composite
def hands(
    draw: st.DrawFn, min_size: int = 1, max_size: int = 7, magic: bool = False
) -> list[Card]:
    """Random hands, often from a narrow pool so that pairs, straights, flushes, Duets occur."""
    if draw(st.booleans()):
        pool: Sequence[Card] = DECK
    else:
        start = draw(st.integers(1, 14))
        width = draw(st.integers(2, 7))
        ranks = {(start + i - 1) % 14 + 1 for i in range(width)}
        suits = draw(st.sets(st.sampled_from(list(Suit)), min_size=1, max_size=4))
        majors = draw(st.lists(st.sampled_from(MAJORS), max_size=4, unique=True))
        pool = [c for c in DECK if c.suit in suits and c.rank in ranks] + majors
    size = draw(st.integers(min_size, min(max_size, 7 if magic else len(pool))))
    if magic:
        return draw(st.lists(st.sampled_from(pool), min_size=size, max_size=size))
    return draw(st.lists(st.sampled_from(pool), min_size=size, max_size=size, unique=True))


# ---------------------------------------------------------------- R4 categories


def test_r4_sixteen_categories_high_to_low() -> None:
    assert CATEGORIES == (
        "seven_of_a_kind", "six_of_a_kind", "five_of_a_kind", "straight_flush",
        "four_of_a_kind", "full_house", "full_house_duet", "three_pair", "flush", "straight",
        "three_of_a_kind", "two_pair", "two_pair_duet", "pair", "duet", "high_card",
    )
    assert set(CATEGORY_TITLES) == set(CATEGORIES) == set(CATEGORY_EXAMPLES)


@pytest.mark.parametrize("category", CATEGORIES)
def test_r4_each_example_is_its_category(category: str) -> None:
    example = hand(CATEGORY_EXAMPLES[category], magic=True)
    assert example.category == category
    assert example.title.startswith(CATEGORY_TITLES[category].split()[0])


# The weakest hand of each category against the strongest of the one below it.
BOUNDARIES = [
    ("2C 2C 2W 2W 2S 2P 2P", "seven_of_a_kind", "KC KW KS KP KC KW QC", "six_of_a_kind"),
    ("AC AC AW AS AP AP", "six_of_a_kind", "KC KW KS KP KP", "five_of_a_kind"),
    ("AC AW AS AP AP", "five_of_a_kind", "10C PC KnC QC KC", "straight_flush"),
    ("PC KnC QC KC AC", "straight_flush", "KC KW KS KP QC", "four_of_a_kind"),
    ("AC AW AS AP XXI", "four_of_a_kind", "KC KW KS QC QW", "full_house"),
    ("AC AW AS 2C 2W", "full_house", "KC KW KS 0 I", "full_house_duet"),
    ("AC AW AS XX XXI", "full_house_duet", "KC KW QS QP 0 I", "three_pair"),
    ("2C 2W AC AW XX XXI", "three_pair", "KC QC KnC PC 9C", "flush"),
    ("6C 4C 3C 2C AC", "flush", "10C PW KnS QP KC", "straight"),
    ("PC KnW QS KP AC", "straight", "KC KW KS QP KnC", "three_of_a_kind"),
    ("AC AW AS 2P 3C", "three_of_a_kind", "KC KW QS QP KnC", "two_pair"),
    ("2C 2W AC AW 3S", "two_pair", "KC KW 0 I QS", "two_pair_duet"),
    ("AC AW XX XXI 2S", "two_pair_duet", "KC KW QS KnP PC", "pair"),
    ("AC AW 2S 3P 4C", "pair", "0 I KC QS KnP", "duet"),
    ("XX XXI 2C 3S 4P", "duet", "KC QS KnW PP 9C", "high_card"),
]


@pytest.mark.parametrize(("low", "low_cat", "high", "high_cat"), BOUNDARIES)
def test_r4_weakest_of_a_category_beats_strongest_below(
    low: str, low_cat: str, high: str, high_cat: str
) -> None:
    weak_upper, strong_lower = hand(low, magic=True), hand(high, magic=True)
    assert (weak_upper.category, strong_lower.category) == (low_cat, high_cat)
    assert weak_upper > strong_lower
    assert strong_lower < weak_upper
    assert weak_upper != strong_lower


@pytest.mark.parametrize(
    ("regular", "duet_version"),
    [
        ("2C 2W 2S 3C 3W", "KC KW KS 0 I"),  # full house > full house with a Duet
        ("2C 2W 3S 3P 4C", "KC KW 0 I QS"),  # two pair > two pair with a Duet
        ("2C 2W 3S 4P 5C", "0 I KC QS KnW"),  # pair > Duet
    ],
)
def test_r4_duet_versions_lose_to_regular_pairs(regular: str, duet_version: str) -> None:
    assert hand(regular) > hand(duet_version)
    assert "Duet loses to a regular pair" in explain(hand(regular), hand(duet_version))


def test_r4_three_pair_is_two_pair_plus_duet() -> None:
    three_pair = hand("KnC KnW 3S 3P 0 XXI 9C")
    assert three_pair.category == "three_pair"
    assert shown(three_pair) == "KnC KnW 3S 3P 0 XXI"
    assert three_pair.duet == (parse_cards("0")[0], parse_cards("XXI")[0])


@pytest.mark.parametrize(
    ("cards", "category", "best"),
    [
        ("KC KW KS 9C 9W 0 I", "full_house", "KC KW KS 9C 9W"),  # not the Duet version
        ("KC KW KS 9C 9W 9S 2P", "full_house", "KC KW KS 9C 9W"),  # two trips
        ("KC KW KS 9C 9W 5S 5P", "full_house", "KC KW KS 9C 9W"),  # the higher pair
        ("KC KW KS 0 I II 5C", "full_house_duet", "KC KW KS 0 I"),
        ("KC KW 5S 5P 0 I 9C", "three_pair", "KC KW 5S 5P 0 I"),
        ("KC KW 5S 5P 2C 2W 0", "two_pair", "KC KW 5S 5P 2C"),  # three pairs, no Duet
        ("KC KW 0 I II III 9C", "two_pair_duet", "KC KW 0 I 9C"),
        ("2C 4C 6C 8C 10C 0 I", "flush", "10C 8C 6C 4C 2C"),  # flush beats the Duet
        ("9C 9W 9S 9P KC KW 2S", "four_of_a_kind", "9C 9W 9S 9P KC"),
        ("7C 7W 7S 0 I", "full_house_duet", "7C 7W 7S 0 I"),
        ("7C 7W 7S 2P 9C 0", "three_of_a_kind", "7C 7W 7S 9C 2P"),
    ],
)
def test_r4_r7_best_category_from_seven(cards: str, category: str, best: str) -> None:
    result = hand(cards)
    assert result.category == category
    assert shown(result) == best


# ---------------------------------------------------------------- R5 straights

STRAIGHTS_LOW_TO_HIGH = [
    "PC KnW QS KP AC",  # ends on the Ace: the lowest
    "KnC QW KS AP 2C",
    "QC KW AS 2P 3C",
    "KC AW 2S 3P 4C",  # a 4-high straight
    "AC 2W 3S 4P 5C",
    "2C 3W 4S 5P 6C",
    "3C 4W 5S 6P 7C",
    "4C 5W 6S 7P 8C",
    "5C 6W 7S 8P 9C",
    "6C 7W 8S 9P 10C",
    "7C 8W 9S 10P PC",
    "8C 9W 10S PP KnC",
    "9C 10W PS KnP QC",
    "10C PW KnS QP KC",  # the highest
]


@pytest.mark.parametrize("index", range(len(STRAIGHTS_LOW_TO_HIGH) - 1))
def test_r5_straight_ranks_by_last_card(index: int) -> None:
    lower = hand(STRAIGHTS_LOW_TO_HIGH[index])
    higher = hand(STRAIGHTS_LOW_TO_HIGH[index + 1])
    assert lower.category == higher.category == "straight"
    assert higher > lower
    assert "last card" in explain(higher, lower)


def test_r5_wrap_straight_is_lowest() -> None:
    lowest = hand("PC KnW QS KP AC")
    assert all(hand(other) > lowest for other in STRAIGHTS_LOW_TO_HIGH[1:])
    assert shown(lowest) == "PC KnW QS KP AC"
    assert lowest.title == "Straight, Page to Ace"


def test_r5_king_ace_two_three_four_is_four_high() -> None:
    four_high = hand("4C 3P KC 2S AW")
    assert shown(four_high) == "KC AW 2S 3P 4C"  # H4: around the circle, ending on its top
    assert hand("QC KW AS 2P 3C") < four_high < hand("AC 2W 3S 4P 5C")


def test_r5_seven_cards_take_the_best_straight() -> None:
    result = hand("9C 10W PS KnP QC KC AW")
    assert result.category == "straight"
    assert shown(result) == "10W PS KnP QC KC"


@pytest.mark.parametrize(
    "cards", ["10C PW KnS QP 0", "KC AW 2S 3P XXI", "10C PW KnS QP 0 I XX"]
)
def test_r5_majors_never_in_straights(cards: str) -> None:
    assert hand(cards).category in ("high_card", "duet")


@pytest.mark.parametrize("cards", ["KC QC 9C 5C 0", "KC QC 9C 5C XXI 0 I"])
def test_r5_majors_never_in_flushes(cards: str) -> None:
    assert hand(cards).category in ("high_card", "duet")


def test_r5_straight_flush_needs_the_straight_in_the_suit() -> None:
    assert hand("9C 10C PC KnC QW 2C").category == "flush"  # straight and flush, not together
    result = hand("9C 10C PC KnC QC KW 2C")
    assert result.category == "straight_flush"
    assert shown(result) == "9C 10C PC KnC QC"
    assert hand("KC AC 2C 3C 4C").category == "straight_flush"


def test_r5_straight_flushes_rank_by_last_card() -> None:
    assert hand("10W PW KnW QW KW") > hand("9C 10C PC KnC QC") > hand("PS KnS QS KS AS")


# ---------------------------------------------------------------- R6 Duets


def test_r6_any_two_majors_make_a_duet() -> None:
    result = hand("XX XXI 5C")
    assert result.category == "duet"
    assert result.title == "Duet of XX Judgement and XXI The World"


def test_r6_three_majors_duet_is_two_lowest_numbered() -> None:
    result = hand("XXI 0 V 9C 2S")
    assert result.duet == tuple(parse_cards("0 V"))
    assert shown(result) == "0 V 9C 2S XXI"  # H3: the extra major is the last kicker


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        ("0 XXI", "I II"),  # holding the lowest-numbered card wins
        ("0 I", "0 II"),  # equal: the other card decides
        ("VIII IX", "VIII X"),
        ("0 XXI 2C", "I II KC"),  # the Duet decides before kickers
    ],
)
def test_r6_duet_against_duet(better: str, worse: str) -> None:
    assert hand(better) > hand(worse)
    assert "lowest-numbered" in explain(hand(better), hand(worse))


def test_r6_same_duet_kickers_decide() -> None:
    assert hand("0 I KC 5W") > hand("0 I QC 9W")
    assert "kicker King of Cups beats Queen of Cups" in explain(hand("0 I KC"), hand("0 I QC"))


def test_r6_only_one_duet_per_hand() -> None:
    four_majors = hand("0 I II III KC KW")
    assert four_majors.category == "two_pair_duet"
    assert shown(four_majors) == "KC KW 0 I II"
    assert hand("0 I II III").category == "duet"


@pytest.mark.parametrize(
    ("better", "worse", "why"),
    [
        ("KC KW KS 0 XXI", "KP KW KS I II", "lowest-numbered"),  # trips tie: Duet (H2)
        ("KC KW KS XX XXI", "QC QW QS 0 I", "Kings with XX"),  # trips before Duet (H2)
        ("KC KW 2S 2P 0 I", "KS KP 2C 2W XX XXI", "lowest-numbered"),
        ("KC KW 3S 3P XX XXI", "KS KP 2C 2W 0 I", "Threes"),  # second pair before Duet
        ("KC KW XX XXI", "QC QW 0 I", "Kings"),  # pair before Duet (H2)
        ("KC KW 0 II 2S", "KS KP 0 III 9C", "lowest-numbered"),
        ("KC KW 0 II 9S", "KS KP 0 II 2C", "kicker"),
    ],
)
def test_h2_inside_duet_categories(better: str, worse: str, why: str) -> None:
    high, low = hand(better), hand(worse)
    assert high.category == low.category
    assert high > low
    assert why in explain(high, low)


# ---------------------------------------------------------------- R7 kickers and splits


@pytest.mark.parametrize(
    ("cards", "best"),
    [
        ("KC KW 9S 8P 7C 6S 2W", "KC KW 9S 8P 7C"),
        ("KC KW 9S 9P 5C 5W 8S", "KC KW 9S 9P 8S"),  # third pair loses to a higher single
        ("KC KW 9S 9P 5C 5W 2S", "KC KW 9S 9P 5C"),  # third pair's card as kicker
        ("KC KW 2S 0", "KC KW 2S 0"),  # H3: majors below minors as kickers
        ("QC 0 KW 2S 9P 8P 7C", "KW QC 9P 8P 7C"),
        ("7C 7W 7S 0 KC 2P", "7C 7W 7S KC 2P"),
    ],
)
def test_r7_kickers_fill_to_five(cards: str, best: str) -> None:
    assert shown(hand(cards)) == best


@pytest.mark.parametrize(
    "cards", ["KC KW 5S 5P 0 I 9C", "KC KC KC KC KC KC 2W", "KC KC KW KW KS KP KP"]
)
def test_r7_hands_of_more_than_five_cards_have_no_kickers(cards: str) -> None:
    result = hand(cards, magic=True)
    assert len(result.cards) == {"three_pair": 6, "six_of_a_kind": 6}.get(result.category, 7)


@pytest.mark.parametrize(
    ("better", "worse", "decider"),
    [
        ("KC KW 9S 8P 7C", "KS KP 9C 8W 6S", "third kicker Seven"),
        ("KC QW 9S 8P 7C", "KS QP 9C 8W 6S", "fifth card Seven"),
        ("KC QC 9C 8C 7C", "KW QW 9W 8W 6W", "fifth card Seven"),  # flush: all five cards
        ("9C 9W 9S 9P KC", "9C 9W 9S 9P QC", "kicker King"),
        ("AC AW AS 9C 8W", "AC AW AP 9S 7W", "second kicker Eight"),
    ],
)
def test_r7_kicker_decides(better: str, worse: str, decider: str) -> None:
    assert hand(better) > hand(worse)
    assert decider in explain(hand(better), hand(worse))


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("KC KW 9S 8P 7C 2S", "KS KP 9C 8W 7S 3C"),  # sixth and seventh cards never count
        ("KC QC 9C 8C 7C", "KW QW 9W 8W 7W"),  # suits never break ties (R3)
        ("10C PW KnS QP KC", "10S PP KnC QW KW 2C"),
        ("0 I 9C", "0 I 9S"),
    ],
)
def test_r7_ties_after_kickers_split(one: str, other: str) -> None:
    a, b = hand(one), hand(other)
    assert a == b and hash(a) == hash(b)
    assert not a < b and not a > b
    assert rank_hands({"a": a, "b": b}) == [["a", "b"]]
    assert "equal after kickers" in explain(a, b)


def test_r7_rank_hands_groups_best_first_in_input_order() -> None:
    hands_ = {
        "ann": hand("KC KW 2S"),
        "bo": hand("QC QW QS"),
        "cy": hand("KS KP 2C"),
        "di": hand("0 I"),
    }
    assert rank_hands(hands_) == [["bo"], ["ann", "cy"], ["di"]]


# ---------------------------------------------------------------- R8 duplicates and magic


def test_r8_duplicate_card_is_an_error_naming_it() -> None:
    with pytest.raises(BadInput, match=r"KC \(King of Cups\) appears twice.*R8"):
        hand("KC QW KC")


@pytest.mark.parametrize("count", [0, 8])
def test_r7_more_than_seven_or_no_cards_is_an_error(count: int) -> None:
    with pytest.raises(BadInput, match="R7"):
        best_hand(list(DECK[:count]))


@pytest.mark.parametrize(
    ("cards", "category"),
    [
        ("5C 5W 5S 5P 5P", "five_of_a_kind"),
        ("5C 5W 5S 5P 5P 5C", "six_of_a_kind"),
        ("5C 5W 5S 5P 5P 5C 5W", "seven_of_a_kind"),
        ("5C 5W 5S 5P 5P KC KW", "five_of_a_kind"),
        ("KC KC 9C 5C 2C", "flush"),  # H9
        ("KC KC KC 9C 5C 2C 0", "flush"),
        ("QC QC QW QW 0 I 2S", "four_of_a_kind"),
    ],
)
def test_r8_magic_admits_duplicates(cards: str, category: str) -> None:
    assert hand(cards, magic=True).category == category
    with pytest.raises(BadInput):
        hand(cards)


def test_r8_kinds_by_rank() -> None:
    assert hand("KC KC KW KS KP", magic=True) > hand("QC QC QW QS QP", magic=True)
    assert hand("2C 2C 2W 2S 2P", magic=True) > hand("10W PW KnW QW KW")


def test_h1_identical_majors_make_a_duet_not_a_pair() -> None:
    fools = hand("0 0 KC", magic=True)
    assert fools.category == "duet"
    assert fools > hand("0 I KC")  # 0 + 0 is the highest Duet there is
    assert hand("0 0 0 0 0", magic=True).category == "duet"


def test_r8_check_distinct_across_hands() -> None:
    with pytest.raises(BadInput, match="in hands ann and bo"):
        check_distinct(
            [parse_cards("KC QC"), parse_cards("2S KC")], magic=False, names=["ann", "bo"]
        )
    with pytest.raises(BadInput, match="in two hands"):
        check_distinct([parse_cards("KC QC"), parse_cards("2S KC")], magic=False)
    check_distinct([parse_cards("KC QC"), parse_cards("2S KC")], magic=True)
    check_distinct([parse_cards("KC QC"), parse_cards("2S 3S")], magic=False)


# ---------------------------------------------------------------- R9 showing hands


@pytest.mark.parametrize(
    ("cards", "category"),
    [
        ("KC KW KS KP", "four_of_a_kind"),
        ("7C 7W 7S", "three_of_a_kind"),
        ("7C 7W 7S 0", "three_of_a_kind"),
        ("KC KW 2S 2P", "two_pair"),
        ("KC KW 0 I", "two_pair_duet"),
        ("KC KW", "pair"),
        ("0 I", "duet"),
        ("KC", "high_card"),
        ("XXI", "high_card"),
        ("10C PW KnS QP", "high_card"),  # four to a straight is nothing
        ("KC QC KnC PC", "high_card"),  # four to a flush is nothing
    ],
)
def test_r9_showing_hands_with_fewer_cards(cards: str, category: str) -> None:
    assert hand(cards).category == category


def test_r9_showing_hands_compare_in_the_same_order() -> None:
    assert hand("2C 2W") > hand("KC QS")
    assert hand("KC KW 0 I") > hand("AC AW 2S")
    assert hand("KC KW KS KP") > hand("0 I QC QW")


def test_h3_a_card_beats_no_card() -> None:
    assert hand("KC KW 5C") > hand("KS KP")
    assert "beats no card" in explain(hand("KC KW 5C"), hand("KS KP"))
    assert hand("KC 9W") > hand("KS")


def seats(*pairs: tuple[str, str]) -> list[tuple[str, list[Card]]]:
    return [(name, parse_cards(cards)) for name, cards in pairs]


def test_r9_best_showing_hand_bets_first() -> None:
    showing = seats(("ann", "KC 2S"), ("bo", "9W 9P"), ("fool", "0 I 5C 3S"))
    assert first_to_bet(showing, fool="fool") == "bo"


def test_r9_tie_goes_to_seat_nearest_the_fools_left() -> None:
    showing = seats(("ann", "KC 2S"), ("bo", "KW 2P"), ("cy", "KS 2C"))
    assert first_to_bet(showing) == "ann"
    assert first_to_bet(list(reversed(showing))) == "cy"


def test_h5_fool_is_the_last_seat_in_a_tie() -> None:
    showing = seats(("fool", "KC 2S 5C 4W"), ("ann", "KW 2P 5S 4P"))
    assert first_to_bet(showing, fool="fool") == "ann"


def test_r15_fool_with_the_high_hand_and_chips_opens() -> None:
    showing = seats(("ann", "KC 2S"), ("bo", "9W 9P"), ("fool", "QC QW QS 3S"))
    assert first_to_bet(showing, fool="fool", fool_has_chips=True) == "fool"


def test_r15_fool_without_chips_the_best_stakeholder_opens() -> None:
    showing = seats(("ann", "9C 2S"), ("bo", "9W 2P"), ("fool", "QC QW QS 3S"))
    assert first_to_bet(showing, fool="fool", fool_has_chips=False) == "ann"
    showing = seats(("ann", "KC 2S"), ("bo", "9W 9P"), ("fool", "QC QW QS 3S"))
    assert first_to_bet(showing, fool="fool", fool_has_chips=False) == "bo"


def test_r15_only_the_fool_without_chips_is_an_error() -> None:
    with pytest.raises(BadInput, match="R15"):
        first_to_bet(seats(("fool", "QC QW QS 3S")), fool="fool", fool_has_chips=False)


@pytest.mark.parametrize(
    ("showing", "fool", "message"),
    [
        ([("a", "KC"), ("a", "QC")], None, "two hands are named"),
        ([("a", "KC"), ("b", "QC")], "fool", "not among"),
        ([("a", "KC"), ("b", "KC")], None, "appears twice"),
        ([], None, "no showing hands"),
    ],
)
def test_r9_first_to_bet_bad_input(
    showing: list[tuple[str, str]], fool: str | None, message: str
) -> None:
    with pytest.raises(BadInput, match=message):
        first_to_bet(seats(*showing), fool=fool)


@pytest.mark.parametrize(
    ("count", "is_fool", "ok"),
    [(1, False, True), (4, False, True), (5, False, False), (3, True, False), (4, True, True),
     (7, True, True)],
)
def test_h7_up_card_counts(count: int, is_fool: bool, ok: bool) -> None:
    cards = list(DECK[:count])
    if ok:
        verify_showing("x", cards, is_fool=is_fool)
    else:
        with pytest.raises(BadInput, match="R9"):
            verify_showing("x", cards, is_fool=is_fool)


# ---------------------------------------------------------------- the Hand value


def test_hand_is_immutable_and_hashable() -> None:
    result = hand("KC KW 2S")
    with pytest.raises(AttributeError):
        result.cards = ()  # type: ignore[misc]
    assert len({result, hand("KS KP 2C"), hand("QC QW")}) == 2
    assert repr(result) == "Hand(pair: KC KW 2S)"
    assert result.as_dict() == {"category": "pair", "cards": ["KC", "KW", "2S"]}


def test_hand_pickles() -> None:
    import pickle

    result = hand("KC KW 2S 0 I")
    again = pickle.loads(pickle.dumps(result))
    assert again == result and again.cards == result.cards


def test_cards_made_outside_the_deck_are_the_same_cards() -> None:
    fresh = [Card(Suit.CUPS, 13), Card(Suit.WANDS, 13), Card(None, 0)]
    assert best_hand(fresh) == hand("QC QW 0")
    with pytest.raises(BadInput):
        best_hand([Card(Suit.CUPS, 13), parse_cards("QC")[0]])


# ---------------------------------------------------------------- properties


@settings(max_examples=examples(100))
@given(hands())
def test_r4_r9_best_hand_matches_the_oracle(cards: list[Card]) -> None:
    assert best_hand(cards).category == oracle_category(cards)


@settings(max_examples=examples(100))
@given(hands(magic=True))
def test_r8_magic_best_hand_matches_the_oracle(cards: list[Card]) -> None:
    assert best_hand(cards, magic=True).category == oracle_category(cards)


@settings(max_examples=examples(100))
@given(hands(), hands())
def test_r4_r7_order_matches_the_oracle(a: list[Card], b: list[Card]) -> None:
    ha, hb = best_hand(a), best_hand(b)
    oa, ob = oracle(a), oracle(b)
    assert (ha > hb, ha == hb, ha < hb) == (oa > ob, oa == ob, oa < ob)


def test_r4_r7_order_matches_the_oracle_on_random_sevens() -> None:
    rng = random.Random(7)
    for _ in range(1500):
        a, b = rng.sample(DECK, 7), rng.sample(DECK, 7)
        ha, hb = best_hand(a), best_hand(b)
        oa, ob = oracle(a), oracle(b)
        assert (ha > hb, ha == hb) == (oa > ob, oa == ob), (a, b)


@given(hands(), hands(), hands())
def test_r4_order_is_total_and_transitive(
    a: list[Card], b: list[Card], c: list[Card]
) -> None:
    x, y, z = best_hand(a), best_hand(b), best_hand(c)
    for p, q in ((x, y), (y, z), (x, z)):
        assert [p < q, p == q, p > q].count(True) == 1
        assert (p <= q) == (p < q or p == q) and (p >= q) == (p > q or p == q)
        assert (p == q) == (hash(p) == hash(q)) or p != q
    if x <= y and y <= z:
        assert x <= z
    if x < y and y < z:
        assert x < z
    if x == y and y == z:
        assert x == z


@given(hands(), st.randoms(use_true_random=False))
def test_r7_shuffling_never_changes_the_hand(cards: list[Card], rng: random.Random) -> None:
    shuffled = list(cards)
    rng.shuffle(shuffled)
    assert best_hand(shuffled) == best_hand(cards)
    assert best_hand(shuffled).cards == best_hand(cards).cards


@given(hands(), st.permutations(list(Suit)))
def test_r3_relabelling_suits_never_changes_the_rank(cards: list[Card], perm: list[Suit]) -> None:
    relabel = dict(zip(Suit, perm, strict=True))
    moved = [Card(None if c.suit is None else relabel[c.suit], c.rank) for c in cards]
    before, after = best_hand(cards), best_hand(moved)
    assert after == before
    assert after.category == before.category


@given(hands(max_size=6), st.sampled_from(DECK))
def test_r7_adding_a_card_never_makes_a_hand_worse(cards: list[Card], extra: Card) -> None:
    if extra in cards:
        return
    assert best_hand([*cards, extra]) >= best_hand(cards)


@given(hands(magic=True, max_size=6), st.sampled_from(DECK))
def test_r8_adding_a_card_never_makes_a_magic_hand_worse(
    cards: list[Card], extra: Card
) -> None:
    assert best_hand([*cards, extra], magic=True) >= best_hand(cards, magic=True)


@given(hands(), hands())
def test_hand_words_never_fail(a: list[Card], b: list[Card]) -> None:
    ha, hb = best_hand(a), best_hand(b)
    assert ha.title and hb.title
    assert set(ha.cards) <= set(a) and len(ha.cards) <= 7
    high, low = max(ha, hb), min(ha, hb)
    assert explain(high, low)
    if ha.category in ("full_house_duet", "three_pair", "two_pair_duet", "duet"):
        assert ha.duet is not None and all(card.suit is None for card in ha.duet)
    else:
        assert ha.duet is None


def test_explain_refuses_the_wrong_order() -> None:
    with pytest.raises(ValueError):
        explain(hand("2C 3W"), hand("KC KW"))


def test_explain_examples() -> None:
    assert explain(hand("KC KW KS 2C 2W"), hand("KC QC 9C 5C 2C")) == (
        "Full house beats flush (R4)"
    )
    assert explain(hand("KC KW QS QP 2C"), hand("KS KP 10S 10P AC")).startswith(
        "both two pair; Kings over Queens beats Kings over Tens"
    )
    assert "kicker Knight of Cups beats Ten of Swords" in explain(
        hand("2C 2W KnC"), hand("2S 2P 10S")
    )
