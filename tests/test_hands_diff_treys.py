"""Differential test against treys (R3-R5, R7).

Without Knights and majors the tarot deck has 13 ranks, A 2 ... 10 P Q K, which map in
order onto poker's 2 3 ... T J Q K A. Without straights (tarot straights wrap, poker's do
not, and the Knight's absence breaks runs differently) the two games rank every hand alike,
so the evaluator must order random pairs exactly as treys does.
"""

from __future__ import annotations

import random

import pytest

from referee.rules.cards import KNIGHT, MINORS, Card, Suit
from referee.rules.hands import best_hand

treys = pytest.importorskip("treys")

TAROT_RANKS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 14]  # A..10, Page, Queen, King
POKER_RANKS = "23456789TJQKA"
POKER_SUIT = {Suit.CUPS: "h", Suit.WANDS: "c", Suit.SWORDS: "s", Suit.PENTACLES: "d"}
DECK52 = [card for card in MINORS if card.rank != KNIGHT]
TO_POKER = {
    card: treys.Card.new(POKER_RANKS[TAROT_RANKS.index(card.rank)] + POKER_SUIT[card.suit])
    for card in DECK52
    if card.suit is not None
}
CLASSES = {
    "Straight Flush": "straight_flush", "Four of a Kind": "four_of_a_kind",
    "Full House": "full_house", "Flush": "flush", "Straight": "straight",
    "Three of a Kind": "three_of_a_kind", "Two Pair": "two_pair", "Pair": "pair",
    "High Card": "high_card",
}
EVALUATOR = treys.Evaluator()


def _runs(ranks: set[int], length: int, circle: bool) -> bool:
    """Does ``ranks`` (0-based positions) hold ``length`` consecutive values?"""
    size = 14 if circle else 13
    return any(all((start + i) % size in ranks for i in range(5)) for start in range(length))


def has_straight(cards: list[Card]) -> bool:
    """A straight in either game, whether or not it is the best hand."""
    tarot = {card.rank - 1 for card in cards}  # 0..13 around the tarot circle
    poker = {TAROT_RANKS.index(card.rank) for card in cards}  # 0..12, 12 is the ace
    wheel = {12, 0, 1, 2, 3} <= poker
    return _runs(tarot, 14, circle=True) or _runs(poker, 9, circle=False) or wheel


def poker_score(cards: list[Card]) -> int:
    poker = [TO_POKER[card] for card in cards]
    return int(EVALUATOR.evaluate(poker[:2], poker[2:]))  # lower is better


def _sample(rng: random.Random) -> list[Card]:
    while True:
        cards = rng.sample(DECK52, rng.choice((5, 6, 7, 7, 7)))
        if not has_straight(cards):
            return cards


def test_deck_maps_onto_the_poker_deck() -> None:
    assert len(DECK52) == 52 and len(set(TO_POKER.values())) == 52
    assert not has_straight(_sample(random.Random(1)))
    assert has_straight([c for c in DECK52 if c.suit == Suit.CUPS and c.rank in (13, 14, 1, 2, 3)])


@pytest.mark.parametrize("seed", range(4))
def test_r3_r7_orders_pairs_exactly_as_treys(seed: int) -> None:
    rng = random.Random(seed)
    compared = 0
    for _ in range(1500):
        a, b = _sample(rng), _sample(rng)
        ha, hb = best_hand(a), best_hand(b)
        pa, pb = poker_score(a), poker_score(b)
        assert (ha > hb, ha == hb, ha < hb) == (pa < pb, pa == pb, pa > pb), (a, b)
        compared += 1
    assert compared == 1500


@pytest.mark.parametrize("seed", range(2))
def test_r4_categories_agree_with_treys(seed: int) -> None:
    rng = random.Random(100 + seed)
    seen = set()
    for _ in range(3000):
        cards = _sample(rng)
        name = EVALUATOR.class_to_string(EVALUATOR.get_rank_class(poker_score(cards)))
        assert best_hand(cards).category == CLASSES[name], cards
        seen.add(CLASSES[name])
    assert {"four_of_a_kind", "full_house", "flush", "two_pair", "pair"} <= seen
