"""The events of the Weir's Wager stream: one TypedDict per kind, as ``game`` writes them.

The store keeps events as plain JSON objects (``referee.streams.Event``); ``read`` is the one
door where a stored event becomes a ``WagerEvent``, and the commands and the fold of
``referee.rules.wager.game`` build and read these records. ``KINDS`` maps each ``kind`` to its
record. (No ``from __future__ import annotations`` here: TypedDict reads ``NotRequired`` from
the evaluated annotations.)
"""

from collections.abc import Mapping
from typing import Literal, NotRequired, TypedDict, cast

from referee.errors import InvariantViolation
from referee.jsontypes import JSON
from referee.rules.wager.hands import TableJSON


class WagerGameStarted(TypedDict):
    kind: Literal["wager_game_started"]
    fool: str
    mistress: str
    elixir: str                      # the first Elixir's name (W6)
    elixir_turns: int
    seed: int
    points: TableJSON                # W13: the points table travels with the game
    points_source: NotRequired[str]  # the file it was read from; "default" when absent


class WagerHandScored(TypedDict):
    kind: Literal["wager_hand_scored"]
    player: str
    top: str
    bottom: str
    elixir: str
    hand: str                        # run, mirror, set, poison or none
    quality: str | None
    points: int


class WagerTurnsPlayed(TypedDict):
    kind: Literal["wager_turns_played"]
    count: int
    player: NotRequired[str]         # who took the first of them (W12)


class WagerElixirChanged(TypedDict):
    kind: Literal["wager_elixir_changed"]
    elixir: str
    reason: str                      # set, turns or table (W6)


#: Every event of the Weir's Wager stream. A new kind is a record above, a member here and an
#: entry in ``KINDS``.
WagerEvent = WagerGameStarted | WagerHandScored | WagerTurnsPlayed | WagerElixirChanged

KINDS: dict[str, type] = {
    "wager_game_started": WagerGameStarted, "wager_hand_scored": WagerHandScored,
    "wager_turns_played": WagerTurnsPlayed, "wager_elixir_changed": WagerElixirChanged,
}


def read(raw: Mapping[str, JSON]) -> WagerEvent:
    """A stored event as its record, once its kind is known to be the stream's.

    >>> read({"kind": "wager_turns_played", "count": 1})["kind"]
    'wager_turns_played'
    """
    kind = raw.get("kind")
    if kind not in KINDS:
        raise InvariantViolation(f"wager: unknown event kind {kind!r}")
    return cast(WagerEvent, raw)
