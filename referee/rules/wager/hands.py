"""Weir's Wager hands (R33, R34): the points table and the ruling on two cards.

>>> from referee.rules.wager.cards import parse_wcard
>>> classify(parse_wcard("5C"), parse_wcard("~6C"), Elixir.CALM)[:2]
('run', 'mixed')
>>> classify(parse_wcard("relax"), parse_wcard("the fool"), Elixir.RELAX)[0]
'set'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypedDict

from referee.errors import BadInput, ScenarioError
from referee.rules.wager.cards import (
    RULES,
    WAGER_DECK,
    Elixir,
    WCard,
)

# -- the points table (R34) ----------------------------------------------------------------------

_QUALITIES: dict[str, tuple[str, ...]] = {
    "run": ("true", "mixed", "false"),
    "mirror": ("true", "false"),
    "set": ("true", "mixed"),  # the Elixir has no mirror, so a set is never false (W2)
}
class Cost(TypedDict):
    cost: int


class Bonus(TypedDict):
    bonus: int


class TableJSON(TypedDict):
    """The points table in its TOML/JSON form (``PointsTable.to_dict``): points by quality for
    each kind, the cost of poison, the favoured bonus (R34)."""

    run: dict[str, int]
    mirror: dict[str, int]
    set: dict[str, int]
    poison: Cost
    favoured: Bonus


@dataclass(frozen=True)
class PointsTable:
    """Points of a hand by kind and quality, the favoured bonus, the cost of poison (R34, W4)."""

    hands: Mapping[str, Mapping[str, int]]
    poison: int  # points lost, > 0
    bonus: int  # extra for a hand the round's direction favours, > 0
    source: str = "default"

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], source: str = "default") -> PointsTable:
        """A validated table from its TOML/JSON form.

        Raises:
            ScenarioError: a missing or unknown entry, a non-integer, a poison that costs
                nothing, or a set that does not beat every run and pair (R34).
        """
        def bad(why: str) -> ScenarioError:
            return ScenarioError(f"points table {source}: {why}", ruling="R34")

        expected = {*_QUALITIES, "poison", "favoured"}
        unknown = sorted(set(data) - expected - {"about"})
        if unknown:
            raise bad(f"unknown section [{unknown[0]}]; expected [run] [mirror] [set] [poison] "
                      "[favoured]")

        def number(section: str, key: str) -> int:
            block = data.get(section)
            if not isinstance(block, Mapping):
                raise bad(f"section [{section}] is missing")
            value = block.get(key)
            if isinstance(value, bool) or not isinstance(value, int):
                raise bad(f"[{section}] {key} must be a whole number, not {value!r}")
            return value

        hands: dict[str, dict[str, int]] = {}
        for kind, qualities in _QUALITIES.items():
            number(kind, qualities[0])
            extra = sorted(set(data[kind]) - set(qualities))
            if extra:
                raise bad(f"[{kind}] has no quality {extra[0]!r}; expected {', '.join(qualities)}")
            hands[kind] = {q: number(kind, q) for q in qualities}
            if min(hands[kind].values()) < 0:
                raise bad(f"[{kind}] points cannot be negative")
        for section, key in (("poison", "cost"), ("favoured", "bonus")):
            extra = sorted(set(data.get(section) or {}) - {key})
            if extra:
                raise bad(f"[{section}] has no entry {extra[0]!r}; expected {key}")
        poison = number("poison", "cost")
        bonus = number("favoured", "bonus")
        if poison <= 0:
            raise bad(f"[poison] cost must be more than 0 (poisoning costs points), not {poison}")
        if bonus <= 0:
            raise bad(f"[favoured] bonus must be more than 0 (the favoured hands score more), "
                      f"not {bonus}")
        best = max(max(hands["run"].values()), max(hands["mirror"].values())) + bonus
        if min(hands["set"].values()) <= best:
            raise bad(f"every set must beat every run and pair: the lowest set scores "
                      f"{min(hands['set'].values())}, a favoured run or pair up to {best}")
        return cls(hands, poison, bonus, source)

    def to_dict(self) -> TableJSON:
        """The table's TOML/JSON form (``from_dict`` reverses it)."""
        return {
            "run": dict(self.hands["run"]),
            "mirror": dict(self.hands["mirror"]),
            "set": dict(self.hands["set"]),
            "poison": {"cost": self.poison},
            "favoured": {"bonus": self.bonus},
        }


# -- hands (R33) ---------------------------------------------------------------------------------


class HandJSON(TypedDict):
    """A ruling on two cards as ``--json`` gives it."""

    kind: str
    quality: str | None
    points: int
    top: str
    bottom: str
    elixir: str
    favoured: bool
    reason: str


@dataclass(frozen=True)
class Hand:
    """A ruling on two cards under an Elixir."""

    top: WCard
    bottom: WCard
    elixir: Elixir
    kind: str  # "run" | "mirror" | "set" | "poison" | "none"
    quality: str | None  # "true" | "mixed" | "false" | None
    points: int
    favoured: bool
    reason: str

    def describe(self) -> str:
        """``true ascending run``, ``false mirror``, ``mixed set``, ``poison``, ``no hand``."""
        if self.kind == "none":
            return "no hand"
        if self.kind == "poison":
            return "poison"
        shape = f" {RULES[self.elixir].shape}" if self.kind == "run" else ""
        return f"{self.quality}{shape} {self.kind}"

    def to_json(self) -> HandJSON:
        return {
            "kind": self.kind, "quality": self.quality, "points": self.points,
            "top": self.top.label, "bottom": self.bottom.label, "elixir": self.elixir.value,
            "favoured": self.favoured, "reason": self.reason,
        }


def _quality_by_mirrors(*cards: WCard) -> str:
    return ("true", "mixed", "false")[sum(c.mirror for c in cards)]


def classify(top: WCard, bottom: WCard, elixir: Elixir) -> tuple[str, str | None, str]:
    """Kind, quality and reason of the hand ``top`` over ``bottom`` under ``elixir`` (R33, W1-W3).

    Raises:
        BadInput: one card twice, or an Elixir other than the one on the table.
    """
    if top == bottom:
        if top.is_elixir:
            raise BadInput(f"{top.label} cannot be both top and bottom: there is one "
                           f"{top.face} Elixir and it has no mirror image", ruling="R32")
        other = WCard(top.face, not top.mirror)
        raise BadInput(f"{top.label} cannot be both top and bottom: the deck holds it once; "
                       f"its mirror image is written {other.label} (W12)", ruling="R32")
    for card in (top, bottom):
        if card.is_elixir and card.face != elixir.value:
            raise BadInput(f"the Elixir on the table is {elixir.value}; {card.face} is not in "
                           "play (one Elixir at a time)", ruling="R32")
    rule = RULES[elixir]
    partner = WCard(rule.partner)
    if top.is_elixir:
        if bottom.face == rule.partner:
            return ("set", _quality_by_mirrors(bottom),
                    f"{elixir.value} over {partner.name} (or its mirror) makes a set")
        return ("poison", None,
                f"{elixir.value} on top over anything but {partner.name} poisons")
    if bottom.is_elixir:
        return ("none", None, "the Elixir must be on top to make a set (W3)")
    if rule.shape == "mirror":
        if top.face == bottom.face:
            quality = "false" if top.mirror else "true"
            return ("mirror", quality, "a card over its own mirror image"
                    + (" (mirror on top: false)" if top.mirror else ""))
        return ("none", None, f"a Mirror round scores only a card with its own mirror image, "
                              f"or {elixir.value} over {partner.name}")
    if top.face == bottom.face:
        return ("none", None, "mirror pairs count only in Mirror rounds (Relief, Soothe, Repose)")
    low, high = top.cups_rank, bottom.cups_rank
    if low is not None and high is not None and abs(low - high) == 1:
        ascending = low < high
        if ascending == (rule.shape == "ascending"):
            return ("run", _quality_by_mirrors(top, bottom),
                    f"two Cups in a row, {'lower' if ascending else 'higher'} on top")
        wrong = "an ascending" if ascending else "a descending"
        return ("none", None, f"{wrong} run does not count under {elixir.value}, "
                              f"{rule.describe()}")
    return ("none", None, f"no {rule.shape} run (two Cups of consecutive rank, no wrap) "
                          f"and no set ({elixir.value} over {partner.name})")


def is_favoured(top: WCard, bottom: WCard, elixir: Elixir) -> bool:
    """Whether the round's direction favours this hand (R34): Arcana to Cups favours a hand
    holding a non-Cups card, Cups to Arcana an all-Cups hand."""
    all_cups = top.is_cups and bottom.is_cups
    favours = RULES[elixir].favours
    return (favours == "arcana" and not all_cups) or (favours == "cups" and all_cups)


def rank(top: WCard, bottom: WCard, elixir: Elixir, table: PointsTable) -> Hand:
    """The hand two cards make under ``elixir`` and its points (R33, R34, W4)."""
    kind, quality, reason = classify(top, bottom, elixir)
    favoured = False
    if kind == "none":
        points = 0
    elif kind == "poison":
        points = -table.poison  # a flat cost: no favour bonus (W4)
    else:
        assert quality is not None
        favoured = is_favoured(top, bottom, elixir)
        points = table.hands[kind][quality] + (table.bonus if favoured else 0)
    return Hand(top, bottom, elixir, kind, quality, points, favoured, reason)


def all_hands(elixir: Elixir) -> Sequence[tuple[WCard, WCard]]:
    """Every ordered pair of distinct cards that can be in play under ``elixir``."""
    pool = [*WAGER_DECK, WCard(elixir.value)]
    return [(a, b) for a in pool for b in pool if a != b]
