"""The records of a Card of Fate character and of a duel, as the ``fate`` stream holds them.

``referee.rules.fate.fold`` keeps them in its state, and the ``char_created`` and ``duel_set``
events (``referee.rules.fate.events``) carry them whole.
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

from referee.rules.fate.cards import DeckKind
from referee.rules.fate.resolve import ResultJSON


class Trait(TypedDict):
    bonus: int
    cost: int


class Experience(TypedDict):
    measure: str
    spent: bool


class Usual(TypedDict):
    """What a character fights with unless told otherwise (F24)."""

    weapon: str | None
    traits: list[str]


class Char(TypedDict):
    """A Card of Fate character as the stream holds it (``characters.blank`` builds one):
    Measures by the first side of each pair, every area's R37 state."""

    name: str
    player: str | None
    npc: bool
    measures: dict[str, int]
    credit: int
    traits: dict[str, Trait]
    reps: dict[str, int]
    items: dict[str, int]
    exps: dict[str, Experience]
    areas: dict[str, str]            # Health and each Reputation -> its R37 state
    checks: dict[str, int]
    next_mod: int
    heal_bonus: dict[str, int]
    infection: bool
    notes: list[str]
    usual: NotRequired[Usual]


class Fire(ResultJSON):
    """A pistol phase's shots: the test, and who fired (F7)."""

    shooters: list[str]


class DuelEntry(TypedDict, total=False):
    """One line of a duel's log: a pistol phase, a sword round, a surrender or its end."""

    phase: int
    chose: dict[str, str]
    acted: dict[str, str]
    fire: Fire
    round: int
    fight: ResultJSON
    result: str | None
    surrender: str
    ended: str


class Duel(TypedDict):
    """A duel under way or ended (``duel.duel_start`` builds one, F6-F11)."""

    type: str                        # pistols or swords
    to: str | None
    names: dict[str, str]            # side (a, b) -> character
    deck: DeckKind
    seed: int
    pools: dict[str, list[list[Any]]]  # side -> [label, n] of its weapon pool
    phase: int
    shot: dict[str, str | None]
    aim: dict[str, int]
    shaken: dict[str, int]
    log: list[DuelEntry]
    over: bool
    winner: str | None
    result: str | None
