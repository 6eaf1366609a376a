"""Tarot Scum plays: what a play is and what may follow it (R30, T4-T7, T12).

>>> check(parse_cards("5C 5S"), parse_cards("7C XVI")).legal
True
>>> check(None, parse_cards("0 XXI")).wins_series
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TypedDict

from referee.errors import BadInput, IllegalAction
from referee.rules.cards import Card, parse_cards
from referee.said import said

# -- plays ---------------------------------------------------------------------------------------

_RANK_ONE = {
    1: "Ace", 2: "Two", 3: "Three", 4: "Four", 5: "Five", 6: "Six", 7: "Seven",
    8: "Eight", 9: "Nine", 10: "Ten", 11: "Page", 12: "Knight", 13: "Queen", 14: "King",
}
_RANK_PLURAL = {
    1: "Aces", 2: "Twos", 3: "Threes", 4: "Fours", 5: "Fives", 6: "Sixes", 7: "Sevens",
    8: "Eights", 9: "Nines", 10: "Tens", 11: "Pages", 12: "Knights", 13: "Queens", 14: "Kings",
}
_COUNT_WORD = {1: "a single", 2: "a pair", 3: "a triple", 4: "a quadruple", 5: "a quintuple"}
_NUMBER = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


@dataclass(frozen=True)
class Play:
    """Cards put down together: naturals of one rank plus at most one wild, or all wilds."""

    cards: tuple[Card, ...]
    rank: int | None  # the naturals' rank (1-14); None for an all-wild play
    wilds: int

    @property
    def count(self) -> int:
        return len(self.cards)

    @property
    def is_all_wild(self) -> bool:
        return self.rank is None

    def describe(self) -> str:
        """``a pair of Fives (one wild)``, ``an all-wild play of two``."""
        if self.rank is None:
            return f"an all-wild play of {_NUMBER.get(self.count, str(self.count))}"
        head = _COUNT_WORD[self.count]
        if self.count == 1:
            return f"{head} {_RANK_ONE[self.rank]}"
        text = f"{head} of {_RANK_PLURAL[self.rank]}"
        return text + " (one wild)" if self.wilds else text


def rank_words(ranks: Iterable[int]) -> str:
    """Ranks as a multiset in words, highest first (R30a).

    >>> rank_words([12, 14]), rank_words([12, 12]), rank_words([8, 1])
    ('a King and a Knight', 'two Knights', 'an Eight and an Ace')
    """
    counts: dict[int, int] = {}
    for rank in sorted(ranks, reverse=True):
        counts[rank] = counts.get(rank, 0) + 1
    words = []
    for rank, n in counts.items():
        if n == 1:
            name = _RANK_ONE[rank]
            words.append(f"{'an' if name[0] in 'AEIOU' else 'a'} {name}")
        else:
            words.append(f"{_NUMBER.get(n, str(n))} {_RANK_PLURAL[rank]}")
    return " and ".join(words)


def _distinct(cards: Sequence[Card], what: str) -> None:
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise BadInput(f"{card.short} appears twice in {what}; the deck holds each card once",
                           ruling="R1")
        seen.add(card)


def read_play(cards: Sequence[Card]) -> Play:
    """The play these cards make (R30; majors are wild, R29).

    Raises:
        BadInput: no cards, or one card twice.
        IllegalAction: mixed ranks or more than one wild added to a set.
    """
    if not cards:
        raise BadInput("a play needs at least one card (write - for a pass or a lead)")
    _distinct(cards, "one play")
    naturals = [c for c in cards if not c.is_major]
    wilds = len(cards) - len(naturals)
    if not naturals:
        return Play(tuple(cards), None, wilds)
    ranks = sorted({c.rank for c in naturals})
    if len(ranks) > 1:
        names = ", ".join(_RANK_PLURAL[r] for r in ranks)
        raise IllegalAction(
            f"{_short(cards)} mixes {names}; a play is 1-4 cards of one rank plus at most "
            "one wild", ruling="R30")
    if wilds > 1:
        raise IllegalAction(
            f"{_short(cards)} adds {wilds} wilds to {_RANK_PLURAL[ranks[0]]}; a set takes at most "
            "one wild (or play only wilds to win the series)", ruling="R30")
    return Play(tuple(cards), ranks[0], wilds)


def read_cards(text: str) -> list[Card] | None:
    """Cards as typed for ``scum check``; ``-`` or ``pass`` is None (a lead or a pass).

    >>> read_cards("5c, 5s"), read_cards(" - ")
    ([Card(5C), Card(5S)], None)
    """
    if text.strip().lower() in ("-", "pass", "lead"):
        return None
    return parse_cards(text)


def _short(cards: Iterable[Card]) -> str:
    return " ".join(c.short for c in cards)


class VerdictJSON(TypedDict):
    """``scum check --json``."""

    legal: bool
    reason: str
    wins_series: bool


@dataclass(frozen=True)
class Verdict:
    """The answer to ``scum check``."""

    legal: bool
    reason: str
    wins_series: bool = False

    def to_json(self) -> VerdictJSON:
        return {"legal": self.legal, "reason": self.reason, "wins_series": self.wins_series}


def verify_follow(previous: Play | None, play: Play | None) -> Verdict:
    """Check ``play`` (None: a pass) against ``previous`` (None: leading); legal verdict.

    Raises:
        IllegalAction: the play may not follow, with the reason and what would be legal (R30).
    """
    if play is None:
        if previous is None:
            raise IllegalAction("the leader cannot pass: lead a set of one rank, any count",
                                ruling="R30")
        return Verdict(True, "a pass is always legal; the player is out of this series (R30)")
    if previous is None:
        if play.is_all_wild:
            return Verdict(True, f"{play.describe()} leads and wins the series at once (R30)", True)
        return Verdict(True, f"{play.describe()} may lead (R30)")
    if previous.is_all_wild:  # T5: nothing follows an all-wild play, not even more wilds
        raise IllegalAction(
            f"{previous.describe()} already won the series; its player leads the next",
            ruling="R30")
    if play.count != previous.count:
        raise IllegalAction(
            f"{play.describe()} cannot follow {previous.describe()}: a follow must be "
            f"{previous.count} card{'s' if previous.count > 1 else ''}, like the play before",
            ruling="R30")
    if play.is_all_wild:
        return Verdict(True, f"{play.describe()} wins the series at once (R30)", True)
    assert play.rank is not None and previous.rank is not None
    if play.rank <= previous.rank:
        raise IllegalAction(
            f"{play.describe()} does not beat {previous.describe()}: a follow must be higher "
            f"than {_RANK_PLURAL[previous.rank]}", ruling="R30")
    return Verdict(True, f"{play.describe()} beats {previous.describe()} (R30)")


def can_follow(previous: Play | None, play: Play | None) -> bool:
    """Whether ``play`` may follow ``previous`` (see ``verify_follow``)."""
    try:
        verify_follow(previous, play)
    except IllegalAction:
        return False
    return True


def check(previous: Sequence[Card] | None, play: Sequence[Card] | None) -> Verdict:
    """Is ``play`` (None: pass) a legal follow to ``previous`` (None: leading)? (R30)

    A malformed ``previous`` or a card on both sides is bad input (raises); a
    ``play`` that may not follow is an answer: ``Verdict(legal=False, ...)``.
    """
    before = None
    if previous is not None:
        try:
            before = read_play(previous)
        except IllegalAction as exc:
            raise BadInput(said("the previous play is no play: ", exc.said),
                           ruling=exc.ruling) from None
    if previous is not None and play is not None:
        clash = [c.short for c in play if c in set(previous)]
        if clash:
            raise BadInput(f"{' '.join(clash)} is in both the previous play and this one; "
                           "the deck holds each card once", ruling="R1")
    try:
        return verify_follow(before, read_play(play) if play is not None else None)
    except IllegalAction as exc:
        return Verdict(False, exc.line)
