"""Resolving a Card of Fate test (R36) and the damage ladder (R37).

>>> from referee.rules.fate.cards import parse_fate_card as c, parse_fate_cards as cs
>>> r = resolve(c("7H"), cs("2H 5H 9H 7S"), cs("KC QD"))
>>> r.a.critical, r.a.ordinary, r.winner
(2, 0, 'a')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, TypedDict

from referee.rules.fate.cards import JOKER_RANK, FateCard

Tier = Literal["perfect", "critical", "ordinary"]
TIERS: tuple[Tier, ...] = ("ordinary", "critical", "perfect")
Winner = Literal["a", "b", "tie"]


class TallyJSON(TypedDict):
    """One side's cards and successes, as the log and ``--json`` give them."""

    cards: list[str]
    perfect: int
    critical: int
    ordinary: int


class ResultJSON(TypedDict):
    """A resolved test, as the log and ``--json`` give it (R36)."""

    cof: str
    a: TallyJSON
    b: TallyJSON
    winner: Winner
    why: str


#: R37: Healthy -> Injured -> Maimed -> Dead.
STATES = ("healthy", "injured", "maimed", "dead")


def match(cof: FateCard, card: FateCard) -> Tier | None:
    """One drawn card against the Card of Fate (R36): Joker, same rank, same suit, or None.

    >>> from referee.rules.fate.cards import parse_fate_card as c
    >>> match(c("7H"), c("JOKER")), match(c("7H"), c("7S")), match(c("7H"), c("2H"))
    ('perfect', 'critical', 'ordinary')
    """
    if card.is_joker:
        return "perfect"
    if card.rank == cof.rank and not cof.is_joker:
        return "critical"
    if card.suit == cof.suit and not cof.is_joker:
        return "ordinary"
    return None


def carry(perfect: int, critical: int, ordinary: int) -> tuple[int, int, int]:
    """Three ordinaries carry into one critical, then three criticals into one perfect (R36).

    >>> carry(0, 2, 4)
    (1, 0, 1)
    """
    critical += ordinary // 3
    ordinary %= 3
    perfect += critical // 3
    critical %= 3
    return perfect, critical, ordinary


@dataclass(frozen=True)
class Tally:
    """One side's drawn cards and its successes after carrying."""

    cards: tuple[FateCard, ...]
    perfect: int
    critical: int
    ordinary: int

    @property
    def key(self) -> tuple[int, int, int]:
        return self.perfect, self.critical, self.ordinary

    @property
    def highest(self) -> Tier | None:
        """The best result after carrying: what this side deals as damage (F4)."""
        if self.perfect:
            return "perfect"
        if self.critical:
            return "critical"
        if self.ordinary:
            return "ordinary"
        return None

    @property
    def has_success(self) -> bool:
        return self.highest is not None

    def to_json(self) -> TallyJSON:
        return {
            "cards": [card.label for card in self.cards],
            "perfect": self.perfect,
            "critical": self.critical,
            "ordinary": self.ordinary,
        }


def tally(cof: FateCard, cards: Sequence[FateCard]) -> Tally:
    """Count one side's successes against the Card of Fate, carried (R36)."""
    raw = {"perfect": 0, "critical": 0, "ordinary": 0}
    for card in cards:
        tier = match(cof, card)
        if tier is not None:
            raw[tier] += 1
    p, c, o = carry(raw["perfect"], raw["critical"], raw["ordinary"])
    return Tally(tuple(cards), p, c, o)


def _high_to_low(cards: Sequence[FateCard]) -> list[int]:
    return sorted((card.rank for card in cards), reverse=True)


def _describe(key: tuple[int, int, int]) -> str:
    p, c, o = key
    return f"{p} perfect, {c} critical, {o} ordinary"


@dataclass(frozen=True)
class Result:
    """A resolved test: the Card of Fate, both sides, the winner and why (R36)."""

    cof: FateCard
    a: Tally
    b: Tally
    winner: Winner
    why: str

    @property
    def loser(self) -> Winner:
        return {"a": "b", "b": "a", "tie": "tie"}[self.winner]  # type: ignore[return-value]

    def side(self, who: str) -> Tally:
        return self.a if who == "a" else self.b

    def to_json(self) -> ResultJSON:
        return {
            "cof": self.cof.label,
            "a": self.a.to_json(),
            "b": self.b.to_json(),
            "winner": self.winner,
            "why": self.why,
        }


def compare(a: Tally, b: Tally) -> tuple[Winner, str]:
    """Who wins (R36): best and most successes, then the higher cards, aces high."""
    for i, tier in enumerate(("perfect", "critical", "ordinary")):
        if a.key[i] != b.key[i]:
            who: Winner = "a" if a.key[i] > b.key[i] else "b"
            mine, theirs = (a.key[i], b.key[i]) if who == "a" else (b.key[i], a.key[i])
            return who, f"{who} has more {tier} successes ({mine} to {theirs})"
    same = f"both have {_describe(a.key)}"
    ha, hb = _high_to_low(a.cards), _high_to_low(b.cards)
    by_rank = {card.rank: card.label for card in (*a.cards, *b.cards)}
    for i, (ra, rb) in enumerate(zip(ha, hb, strict=False)):
        if ra != rb:
            who = "a" if ra > rb else "b"
            high, low = max(ra, rb), min(ra, rb)
            return who, (f"{same}; {who} has the higher card: {_rank_name(by_rank, high)} against "
                         f"{_rank_name(by_rank, low)} at card {i + 1} (aces high)")
    if len(ha) != len(hb):
        who = "a" if len(ha) > len(hb) else "b"
        return who, f"{same} and equal cards as far as both go; {who} drew more cards"
    return "tie", f"{same} and cards of equal rank: a tie, nothing changes (R36)"


def _rank_name(by_rank: dict[int, str], rank: int) -> str:
    return "a Joker" if rank == JOKER_RANK else by_rank[rank][:-1]


def resolve(cof: FateCard, a: Sequence[FateCard], b: Sequence[FateCard]) -> Result:
    """Resolve a contested test: both sides against one Card of Fate (R36)."""
    ta, tb = tally(cof, a), tally(cof, b)
    winner, why = compare(ta, tb)
    return Result(cof, ta, tb, winner, why)


def passes(cof: FateCard, cards: Sequence[FateCard]) -> bool:
    """A test against a single Card of Fate passes with at least one success (F7)."""
    return tally(cof, cards).has_success


def worsen(state: str, tier: Tier) -> str:
    """The R37 ladder: a Success moves one step, a Critical two, a Perfect three.

    >>> worsen("healthy", "ordinary"), worsen("injured", "ordinary"), worsen("injured", "critical")
    ('injured', 'maimed', 'dead')
    >>> worsen("maimed", "ordinary"), worsen("healthy", "perfect")
    ('dead', 'dead')
    """
    step = TIERS.index(tier) + 1
    return STATES[min(len(STATES) - 1, STATES.index(state) + step)]


def heal_step(state: str) -> str:
    """One successful convalescence: Maimed -> Injured -> Healthy (F13)."""
    index = STATES.index(state)
    if state == "dead" or index == 0:
        return state
    return STATES[index - 1]
