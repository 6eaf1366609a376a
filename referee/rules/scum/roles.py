"""Tarot Scum roles, the deal and the points (R29, R31).

>>> Role.EMPRESS.label, hand_size(Role.FOOL), hand_points(Role.MAGICIAN, 1)
('III The Empress', 21, 7)
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from referee.rules.cards import DECK, MAJOR_NAMES, Card, to_roman


class Role(StrEnum):
    """The four role cards (R29), in Arcanum order."""

    FOOL = "fool"
    MAGICIAN = "magician"
    HIGH_PRIESTESS = "high_priestess"
    EMPRESS = "empress"

    @property
    def arcanum(self) -> int:
        return _ARCANUM[self]

    @property
    def card(self) -> Card:
        return Card(None, _ARCANUM[self])

    @property
    def card_name(self) -> str:
        """``The High Priestess``."""
        return MAJOR_NAMES[_ARCANUM[self]]

    @property
    def label(self) -> str:
        """``II The High Priestess``."""
        return f"{to_roman(_ARCANUM[self])} {self.card_name}"


_ARCANUM = {Role.FOOL: 0, Role.MAGICIAN: 1, Role.HIGH_PRIESTESS: 2, Role.EMPRESS: 3}
ROLES: tuple[Role, ...] = tuple(Role)
PLAYERS = 4
HANDS_PER_MATCH = 4  # R31

#: R29: cards dealt to each role besides the role card itself.
DEAL_SIZE: dict[Role, int] = {
    Role.FOOL: 20, Role.MAGICIAN: 17, Role.HIGH_PRIESTESS: 19, Role.EMPRESS: 18,
}
#: R31: points by role for 1st, 2nd, 3rd and 4th place.
POINTS: dict[Role, tuple[int, int, int, int]] = {
    Role.FOOL: (9, 7, 5, 3),
    Role.HIGH_PRIESTESS: (8, 6, 4, 2),
    Role.MAGICIAN: (7, 5, 3, 1),
    Role.EMPRESS: (6, 4, 2, 0),
}


@dataclass(frozen=True)
class Passing:
    """Cards one role owes another before play (R29)."""

    giver: Role
    receiver: Role
    what: str


PASSING: tuple[Passing, ...] = (
    Passing(Role.FOOL, Role.MAGICIAN, "one major"),
    Passing(Role.FOOL, Role.EMPRESS, "his two highest minors"),
    Passing(Role.EMPRESS, Role.FOOL, "two minors of her choice"),
)
LEADER = Role.EMPRESS  # R29: the Empress leads the first series of a hand


def hand_size(role: Role) -> int:
    """Cards in a role's hand after the deal, the role card included (R29)."""
    return DEAL_SIZE[role] + 1


# -- roles and the deal -------------------------------------------------------------------------


def draw_roles(players: Sequence[str], rng: random.Random) -> dict[str, Role]:
    """The four role cards mixed and dealt one to each player (R29)."""
    roles = list(ROLES)
    rng.shuffle(roles)
    return dict(zip(players, roles, strict=True))


def rotate_roles(roles: Mapping[str, Role]) -> dict[str, Role]:
    """Every player takes the next Arcanum, 0 → I → II → III → 0 (T2).

    Four rotations bring each player through each role once (R31).
    """
    return {name: ROLES[(ROLES.index(role) + 1) % len(ROLES)] for name, role in roles.items()}


def deal(roles: Mapping[str, Role], rng: random.Random) -> dict[str, list[Card]]:
    """A whole deal (T10): each player's role card plus R29's count from the 74 others."""
    role_cards = {role.card for role in roles.values()}
    rest = [card for card in DECK if card not in role_cards]
    rng.shuffle(rest)
    hands: dict[str, list[Card]] = {}
    start = 0
    for role in ROLES:
        name = next(n for n, r in roles.items() if r is role)
        size = DEAL_SIZE[role]
        hands[name] = sort_hand([role.card, *rest[start : start + size]])
        start += size
    assert start == len(rest), "R29 deal sizes must use the whole deck"
    return {name: hands[name] for name in roles}


def sort_hand(cards: Iterable[Card]) -> list[Card]:
    """Minors by rank (Ace low), then the wilds by numeral."""
    return sorted(cards, key=lambda c: (c.is_major, c.rank, c.index))



def highest_minors(cards: Iterable[Card]) -> list[int]:
    """The two highest ranks among the minors of ``cards`` as a multiset, highest first: what the
    Fool gives the Empress (R29, R30a).

    >>> from referee.rules.cards import parse_cards
    >>> highest_minors(parse_cards("KnS 2W KC XX KnW"))
    [14, 12]
    """
    return sorted((c.rank for c in cards if not c.is_major), reverse=True)[:2]


# -- scoring -------------------------------------------------------------------------------------


def hand_points(role: Role, place: int) -> int:
    """R31 points for finishing ``place`` (1-4) in ``role``."""
    return POINTS[role][place - 1]


def score_hand(roles: Mapping[str, Role], order: Sequence[str]) -> dict[str, int]:
    """Points of one hand by role and finishing place, in finishing order (R31)."""
    return {name: hand_points(roles[name], place) for place, name in enumerate(order, start=1)}
