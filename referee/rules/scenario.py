"""A scenario's records: bottled souls, clue sheets and the power set, frozen.

``referee.content.scenario`` builds them from TOML and validates them; the evening receives them
(``referee.evening.souls.setup_from_scenario``) and never loads a file. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from referee.errors import UnknownCard, UnknownName
from referee.names import match_name
from referee.rules.cards import arcanum_label, parse_arcanum

if TYPE_CHECKING:
    from referee.jsontypes import JSONObject

ORIENTATIONS: tuple[str, ...] = ("upright", "reversed")


@dataclass(frozen=True)
class SoulSpec:
    """A bottled soul as the scenario defines it: public label, secrets, clue sheets by seat."""

    label: str
    name: str
    aliases: tuple[str, ...]
    arcanum: int
    clues: dict[int, tuple[str, ...]]

    @property
    def names(self) -> tuple[str, ...]:
        """The name and every alias, each accepted for a name guess (R24)."""
        return (self.name, *self.aliases)


@dataclass(frozen=True)
class PowerSpec:
    """One power of a Major card; ``key`` is ``"XVI-upright"``, ``magic`` means rule --magic."""

    key: str
    card: int
    orientation: str
    name: str
    charges: int
    when: str
    text: str
    magic: bool
    timing: str = "any_time"  # when it may be played, and what it does (S12, S13)
    effect: JSONObject = field(default_factory=lambda: {"kind": "by_hand"})

    @property
    def card_label(self) -> str:
        """``XVI The Tower``."""
        return arcanum_label(self.card)


def parse_orientation(text: str) -> str:
    """``upright`` or ``reversed`` from any case or a unique prefix (``up``, ``rev``, ``r``).

    >>> parse_orientation("Rev")
    'reversed'
    """
    key = text.strip().lower()
    found = [o for o in ORIENTATIONS if key and o.startswith(key)]
    if len(found) != 1:
        raise UnknownName(f"unknown orientation {text!r}; write upright or reversed", ruling="R26")
    return found[0]


@dataclass(frozen=True)
class PowerSet:
    """The 44 powers of an evening: one upright and one reversed for each Major (R26, S5)."""

    powers: tuple[PowerSpec, ...]

    def __iter__(self) -> Iterator[PowerSpec]:
        return iter(self.powers)

    def __len__(self) -> int:
        return len(self.powers)

    @property
    def magic(self) -> tuple[PowerSpec, ...]:
        """The powers that make a hand need ``--magic`` at the showdown (R8)."""
        return tuple(p for p in self.powers if p.magic)

    def for_card(self, card: int) -> tuple[PowerSpec, ...]:
        """The powers of one Major card, upright first."""
        return tuple(p for p in self.powers if p.card == card)

    def get(self, card: int, orientation: str) -> PowerSpec:
        """The power of ``card`` (0-21) in ``orientation`` (``upright``/``reversed``, or a prefix).

        Raises:
            UnknownName: no such card or orientation in this set.
        """
        side = parse_orientation(orientation)
        for power in self.powers:
            if power.card == card and power.orientation == side:
                return power
        raise UnknownName(f"no {side} power for Major card {card!r}; cards run 0 to XXI")

    def find(self, query: str) -> PowerSpec:
        """A power by key (``XVI-upright``, ``the tower reversed``) or by name (or unique prefix).

        Raises:
            UnknownName: nothing or several match; names the nearest powers.
        """
        found = re.fullmatch(r"\s*(.+?)[\s_-]+(upright|reversed)\s*", query, re.IGNORECASE)
        if found:
            try:
                card = parse_arcanum(found.group(1))
            except UnknownCard:
                pass
            else:
                return self.get(card, found.group(2))

        name = match_name(query, (p.name for p in self.powers), what="power")
        return next(p for p in self.powers if p.name == name)


@dataclass(frozen=True)
class Scenario:
    """An evening's content: its souls (secret), its power set, and the file it came from."""

    name: str
    description: str
    souls: tuple[SoulSpec, ...]
    powers: PowerSet
    source: str

    def find_soul(self, query: str) -> SoulSpec:
        """A soul by its public label (any case, unique prefix; ``the`` may be left off)."""
        labels = [soul.label for soul in self.souls]
        try:
            label = match_name(query, labels, what="soul")
        except UnknownName:
            bare = {re.sub(r"(?i)^the\s+", "", lab): lab for lab in labels}
            label = bare[match_name(query, list(bare), what="soul")]
        return next(soul for soul in self.souls if soul.label == label)
