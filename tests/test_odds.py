"""Exact odds of each hand (R4-R8, H20): counted, checked against brute force and a sample."""

from __future__ import annotations

import math
import random
from collections import Counter
from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.errors import BadInput
from referee.rules.cards import DECK, parse_cards
from referee.rules.hand_keys import CATEGORIES, category_of, hand_keys
from referee.rules.hands import best_hand
from referee.rules.odds import deck_counts, known_counts, probabilities, total_hands
from tests.profiles import examples

FULL = deck_counts()


def test_r4_the_sixteen_probabilities_sum_to_one_exactly() -> None:
    chances = probabilities(FULL)
    assert list(chances) == list(CATEGORIES)
    assert sum(chances.values(), Fraction(0)) == 1
    assert sum(FULL.values()) == math.comb(78, 7) == total_hands()
    # R8: five to seven of a kind need magic; every other category can be dealt.
    assert [name for name, n in FULL.items() if n == 0] == list(CATEGORIES[:3])


def test_r4_a_sample_of_hands_agrees_within_four_standard_errors() -> None:
    rng = random.Random(78)
    size = examples(50_000)  # a million in the nightly profile
    hands = [rng.sample(range(78), 7) for _ in range(size)]
    seen = Counter(category_of(key) for key in hand_keys(hands))
    for name, chance in probabilities(FULL).items():
        p = float(chance)
        error = math.sqrt(p * (1 - p) / size)
        assert abs(seen[name] / size - p) <= 4 * error, (name, seen[name], p)


def test_the_seed_order_against_rarity() -> None:
    # docs/rules.md, "How rare each hand is": three pair sits above a flush yet is dealt more
    # than twice as often; full house, above it, is rarer.
    assert FULL["three_pair"] > 2 * FULL["flush"]
    assert FULL["full_house"] < FULL["three_pair"]
    assert FULL["straight_flush"] < FULL["four_of_a_kind"] < FULL["full_house"]


def _reduced_deck(ranks: set[int], suits: int, majors: int) -> list[int]:
    return [
        card.index for card in DECK
        if (card.is_major and card.rank < majors)
        or (not card.is_major and card.rank in ranks and card.index // 14 < suits)
    ]


def _brute(deck: list[int], size: int) -> dict[str, int]:
    seen = Counter(category_of(key) for key in hand_keys(combinations(deck, size)))
    return {name: seen[name] for name in CATEGORIES}


@pytest.mark.parametrize(
    ("size", "ranks", "suits", "majors"),
    [
        (7, {10, 11, 12, 13, 14, 1, 2}, 3, 2),  # straights around the top of the circle
        (6, {1, 2, 3, 4, 5, 6}, 4, 3),  # four of a kind, full houses, three pair
        (7, set(range(1, 9)), 2, 2),  # flushes and straight flushes of two suits
        (5, set(range(1, 15)), 1, 6),  # one suit: every five minors are a flush
    ],
)
def test_r4_counting_matches_brute_force_on_reduced_decks(
    size: int, ranks: set[int], suits: int, majors: int
) -> None:
    counted = deck_counts(hand_size=size, ranks=ranks, suits=suits, majors=majors)
    assert counted == _brute(_reduced_deck(ranks, suits, majors), size)


@settings(max_examples=examples(25), deadline=None)
@given(
    st.integers(1, 7),
    st.sets(st.integers(1, 14), min_size=1, max_size=8),
    st.integers(1, 4),
    st.integers(0, 6),
)
def test_r4_counting_matches_brute_force_on_small_decks(
    size: int, ranks: set[int], suits: int, majors: int
) -> None:
    deck = _reduced_deck(ranks, suits, majors)
    if len(deck) < size or math.comb(len(deck), size) > 40_000:
        return  # brute force would take too long; the parametrized cases go bigger
    counted = deck_counts(hand_size=size, ranks=ranks, suits=suits, majors=majors)
    assert counted == _brute(deck, size)


def test_h20_six_known_cards_against_the_72_remaining() -> None:
    known = parse_cards("KC QC KnC PC 0 XXI")
    by_hand = Counter(best_hand([*known, card]).category for card in DECK if card not in known)
    counted = known_counts(known)
    assert sum(counted.values()) == 72 == total_hands(6)
    assert {name: n for name, n in counted.items() if n} == dict(by_hand)
    # By hand: 10C or AC finish a straight flush; 8 more Cups a flush; the 6 other Tens and
    # Aces a straight; the 12 other Kings, Queens, Knights and Pages a pair (with the Duet).
    assert counted["straight_flush"] == 2 and counted["flush"] == 8
    assert counted["straight"] == 6 and counted["two_pair_duet"] == 12
    assert counted["duet"] == 72 - 28


def test_h20_four_known_cards_against_brute_force_over_pairs_of_unseen_cards() -> None:
    known = parse_cards("KC KW 0 9S 9P")
    unseen = [card for card in DECK if card not in known]
    by_hand = Counter(best_hand([*known, *pair]).category for pair in combinations(unseen, 2))
    assert {name: n for name, n in known_counts(known).items() if n} == dict(by_hand)


@pytest.mark.parametrize("text", ["KC QC", "KC QC KnC PC 10C 0 XXI", ""])
def test_h20_known_cards_are_three_to_six(text: str) -> None:
    with pytest.raises(BadInput, match="give 3 to 6 cards.*H20"):
        known_counts(parse_cards(text))


def test_h20_r8_a_known_card_twice_is_refused() -> None:
    with pytest.raises(BadInput, match=r"KC \(King of Cups\) appears twice.*R8, H20"):
        known_counts(parse_cards("KC QC KC"))


@settings(max_examples=examples(40))
@given(st.lists(st.integers(0, 77), min_size=5, max_size=6, unique=True))
def test_h20_known_counts_equal_brute_force_for_any_five_or_six_cards(known: list[int]) -> None:
    # The count draws majors by how many and weighs them; brute force names every card.
    unseen = [i for i in range(78) if i not in known]
    by_hand = Counter(
        category_of(key)
        for key in hand_keys([*known, *more] for more in combinations(unseen, 7 - len(known)))
    )
    counted = known_counts([DECK[i] for i in known])
    assert {name: n for name, n in counted.items() if n} == dict(by_hand)
