"""The events of the Tarot Scum stream: one TypedDict per kind, as ``match`` writes them.

The store keeps events as plain JSON objects (``referee.streams.Event``); ``read`` is the one
door where a stored event becomes a ``ScumEvent``, and the commands and the folds of
``referee.rules.scum.match`` and ``table`` build and read these records. ``KINDS`` maps each
``kind`` to its record. (No ``from __future__ import annotations`` here: TypedDict reads
``NotRequired`` from the evaluated annotations.)
"""

from collections.abc import Mapping
from typing import Literal, TypedDict, cast

from referee.errors import InvariantViolation
from referee.jsontypes import JSON


class ScumMatchStarted(TypedDict):
    kind: Literal["scum_match_started"]
    players: list[str]               # in their seats (R29)
    rotate: bool                     # roles rotated each hand, or drawn afresh (T1, T3)
    seed: int
    hands: int
    roles: dict[str, str]            # player -> role of hand 1


class ScumHandDealt(TypedDict):
    kind: Literal["scum_hand_dealt"]
    hand: int
    cards: dict[str, list[str]]      # the console's deal (T10): player -> short names


#: One pass of the passing before play (R29, T13). ``"from"`` is a keyword in Python.
ScumPass = TypedDict("ScumPass", {
    "from": str, "to": str, "from_role": str, "to_role": str, "cards": list[str],
})


class ScumCardsPassed(TypedDict):
    kind: Literal["scum_cards_passed"]
    hand: int
    passes: list[ScumPass]


class ScumPlayed(TypedDict):
    kind: Literal["scum_played"]
    hand: int
    player: str
    cards: list[str]


class ScumPassed(TypedDict):
    kind: Literal["scum_passed"]
    hand: int
    player: str


class ScumHandFinished(TypedDict):
    kind: Literal["scum_hand_finished"]
    hand: int
    order: list[str]                 # first out to last (R31)
    roles: dict[str, str]            # the roles the hand was played with
    points: dict[str, int]
    next_roles: dict[str, str] | None  # None after the last hand (T2)


#: The moves of a hand under way, which ``table.fold_event`` folds.
ScumHandEvent = ScumHandDealt | ScumCardsPassed | ScumPlayed | ScumPassed

#: Every event of the Tarot Scum stream. A new kind is a record above, a member here and an
#: entry in ``KINDS``.
ScumEvent = ScumMatchStarted | ScumHandEvent | ScumHandFinished

KINDS: dict[str, type] = {
    "scum_match_started": ScumMatchStarted, "scum_hand_dealt": ScumHandDealt,
    "scum_cards_passed": ScumCardsPassed, "scum_played": ScumPlayed,
    "scum_passed": ScumPassed, "scum_hand_finished": ScumHandFinished,
}


def read(raw: Mapping[str, JSON]) -> ScumEvent:
    """A stored event as its record, once its kind is known to be the stream's.

    >>> read({"kind": "scum_passed", "hand": 1, "player": "Ann"})["kind"]
    'scum_passed'
    """
    kind = raw.get("kind")
    if kind not in KINDS:
        raise InvariantViolation(f"scum: unknown event kind {kind!r}")
    return cast(ScumEvent, raw)
