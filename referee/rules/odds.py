"""How likely each Fool's Errand hand is (R4-R8), exactly: by counting, never by sampling.

:func:`deck_counts` counts the hands of each category among all ``C(78, 7)`` seven-card
hands of the full deck (no magic); :func:`known_counts` counts the final category of one
hand over every way the unseen deck can complete 3-6 known cards (H20). Both give integer
counts; :func:`probabilities` turns them into exact fractions.

>>> counts = deck_counts()
>>> sum(counts.values()) == comb(78, 7)
True

How the full deck is counted (checked against brute force on reduced decks in the tests).
A hand is ``m`` majors and ``k = 7 - m`` minors, and the majors matter only by how many
there are (two or more make a Duet, R6), so each ``m`` weighs ``C(22, m)``. The minors are
a rank-count vector (how many cards of each of the 14 ranks) and a choice of suits for
each rank. Without a flush the category depends only on the multiset of counts, how many
majors, and whether the ranks present hold a straight (R5). So the vectors are grouped by
their *support* (the set of ranks present: its size and whether it holds a straight) and
their *parts* (the counts, high to low); a support of ``d`` ranks takes a given ``d``
parts in ``d! / prod(multiplicity!)`` ways, and each rank of count ``c`` picks its suits
in ``C(4, c)`` ways.

Flushes go by suit pattern. In seven cards at most one suit can hold five or more. For
one suit, the hands with ``j >= 5`` cards of it are ``C(14, j)`` rank sets (split by
whether they hold a straight: straight flush or flush) times any ``k - j`` of the 42
minors of other suits. Such a hand is always ruled a flush or straight flush: every
category above a flush needs at least eight cards beside a five-card suit. The same
hands are taken out of the plain count: for a vector with parts ``c_1 .. c_d``, the suit
choices that give one given suit ``j >= 5`` cards are the sum, over the sets ``A`` of
``j`` ranks holding that suit, of ``prod_{i in A} C(3, c_i - 1) * prod_{i not in A}
C(3, c_i)``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from fractions import Fraction
from functools import cache
from itertools import combinations
from math import comb, factorial, prod

from referee.errors import BadInput
from referee.rules.cards import DECK, Card
from referee.rules.hand_keys import (
    BITS,
    CAT_SHIFT,
    CATEGORIES,
    CODE,
    NCAT,
    key_of_sum,
    pattern_key,
    straight_top,
)

HAND_SIZE = 7
#: Known cards ``known_counts`` takes (H20): fewer leave too many completions to count.
KNOWN = (3, 6)


def deck_counts(
    *,
    hand_size: int = HAND_SIZE,
    ranks: Iterable[int] = range(1, 15),
    suits: int = 4,
    majors: int = 22,
) -> dict[str, int]:
    """How many ``hand_size``-card hands of each R4 category a deck holds (no magic).

    The full deck by default; ``ranks`` (a subset of 1-14, straights as on the full
    circle), ``suits`` (1-4) and ``majors`` (0-22) describe a smaller one.
    """
    rank_set = sorted(set(ranks))
    if not 0 < hand_size <= HAND_SIZE or not 1 <= suits <= 4 or not 0 <= majors <= 22:
        raise ValueError("a hand of 1-7 cards from 1-4 suits and 0-22 majors")
    if not set(rank_set) <= set(range(1, 15)):
        raise ValueError("ranks are 1-14")
    supports = _supports(tuple(rank_set))  # (size, holds a straight) -> how many rank sets
    others = (suits - 1) * len(rank_set)  # minors outside one suit
    counts = dict.fromkeys(CATEGORIES, 0)
    for m in range(min(hand_size, majors) + 1):
        k = hand_size - m
        weight = comb(majors, m)
        if k > suits * len(rank_set):
            continue
        for (size, straight), sets in supports.items():
            for parts in _partitions(k, size, suits):
                choices = prod(comb(suits, c) for c in parts)
                flushes = suits * _flush_choices(parts, suits)
                ways = sets * _arrangements(parts) * (choices - flushes) * weight
                if ways:
                    counts[_plain_category(parts, m, straight)] += ways
        for j in range(5, k + 1):  # j cards of the flush suit: one suit of `suits`
            rest = comb(others, k - j) * weight * suits
            counts["straight_flush"] += supports.get((j, True), 0) * rest
            counts["flush"] += supports.get((j, False), 0) * rest
    return counts


def _supports(ranks: tuple[int, ...]) -> dict[tuple[int, bool], int]:
    """Rank sets of each size (up to seven) from ``ranks``, by whether they hold a straight."""
    found: Counter[tuple[int, bool]] = Counter()
    for size in range(HAND_SIZE + 1):
        for chosen in combinations(ranks, size):
            mask = sum(1 << rank for rank in chosen)
            found[size, size >= 5 and straight_top(mask) > 0] += 1
    return dict(found)


@cache
def _partitions(total: int, parts: int, most: int) -> tuple[tuple[int, ...], ...]:
    """Ways to write ``total`` as ``parts`` counts of 1..``most``, high to low."""
    if parts == 0:
        return ((),) if total == 0 else ()
    out = []
    for first in range(min(most, total - parts + 1), 0, -1):
        for rest in _partitions(total - first, parts - 1, first):
            out.append((first, *rest))
    return tuple(out)


def _arrangements(parts: tuple[int, ...]) -> int:
    """Ways to hand ``parts`` out to as many distinct ranks."""
    return factorial(len(parts)) // prod(factorial(n) for n in Counter(parts).values())


@cache
def _flush_choices(parts: tuple[int, ...], suits: int) -> int:
    """Suit choices for ranks of these counts that give one given suit five cards or more."""
    total = 0
    for size in range(5, len(parts) + 1):
        for holding in combinations(range(len(parts)), size):
            total += prod(
                comb(suits - 1, c - 1) if i in holding else comb(suits - 1, c)
                for i, c in enumerate(parts)
            )
    return total


# Ranks for a representative pattern: the first d of them hold a straight exactly when d >= 5.
_STRAIGHT_RANKS = (14, 13, 12, 11, 10, 8, 7)
_NO_STRAIGHT_RANKS = (1, 2, 3, 4, 6, 7, 8)


def _plain_category(parts: tuple[int, ...], majors: int, straight: bool) -> str:
    """The category the evaluator gives these counts with no flush (R4-R7)."""
    ranks = _STRAIGHT_RANKS if straight else _NO_STRAIGHT_RANKS
    pattern = majors + sum(c << 3 * rank for c, rank in zip(parts, ranks, strict=False))
    key = pattern_key(pattern)
    return CATEGORIES[NCAT - 1 - (key >> CAT_SHIFT)]


def known_counts(known: Sequence[Card], *, hand_size: int = HAND_SIZE) -> dict[str, int]:
    """How many completions of ``known`` from the unseen deck end in each category (H20).

    The unseen deck is the 78 cards less the known ones, each equally likely; the hand
    draws ``hand_size - len(known)`` of them. Majors drawn count only by how many (R6), so
    each number of majors is counted once with its weight.

    Raises:
        BadInput: fewer than 3 or more than 6 known cards, or a card twice (R8).
    """
    low, high = KNOWN
    if not low <= len(known) <= high:
        raise BadInput(
            f"{len(known)} known cards: give {low} to {high} cards of one hand, or none for "
            "the odds of a whole hand from the full deck (H20)",
            ruling="H20",
        )
    seen: set[Card] = set()
    for card in known:
        if card in seen:
            raise BadInput(
                f"{card.short} ({card.name}) appears twice: a deck holds each card once, and "
                "odds are counted for a deck that magic has not changed (R8, H20)",
                ruling="H20",
            )
        seen.add(card)
    unseen = [card for card in DECK if card not in seen]
    unseen_majors = [BITS[card.index] for card in unseen if card.is_major]
    unseen_minors = [BITS[card.index] for card in unseen if not card.is_major]
    base = sum(BITS[card.index] for card in known)
    draw = hand_size - len(known)
    by_code: Counter[int] = Counter()
    for m in range(min(draw, len(unseen_majors)) + 1):
        weight = comb(len(unseen_majors), m)
        start = base + sum(unseen_majors[:m])  # which majors does not change the category
        codes = Counter(
            key_of_sum(start + drawn) >> CAT_SHIFT
            for drawn in map(sum, combinations(unseen_minors, draw - m))
        )
        for code, count in codes.items():
            by_code[code] += count * weight
    return {name: by_code[CODE[name]] for name in CATEGORIES}


def probabilities(counts: dict[str, int]) -> dict[str, Fraction]:
    """The counts as exact fractions of their total, in R4 order."""
    total = sum(counts.values())
    return {name: Fraction(counts[name], total) for name in CATEGORIES}


def total_hands(known: int = 0, *, hand_size: int = HAND_SIZE) -> int:
    """How many hands the counts cover: ``C(78 - known, hand_size - known)``."""
    return comb(len(DECK) - known, hand_size - known)

