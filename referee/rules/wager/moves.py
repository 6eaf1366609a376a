"""What the words of Weir's Wager's moves (``referee.table.api.MOVES``) must say of what the
core matched and drew, read back from the events, so that retyping them replays the same: the
players' names as written and the first Elixir and seed of a new game, the player and the
cards of a scored turn as matched, who took the first of the turns without a hand, the Elixir
set. The moves themselves are ``game``'s commands.

Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from referee.rules.wager.events import WagerEvent


def started(events: Sequence[WagerEvent]) -> dict[str, str | int]:
    """A new game's players as written (blanks folded), its first Elixir (drawn by the console
    when none was given, W6) and its seed."""
    for event in events:
        if event["kind"] == "wager_game_started":
            return {"fool": event["fool"], "mistress": event["mistress"],
                    "elixir": event["elixir"], "seed": event["seed"]}
    return {}


def scored(events: Sequence[WagerEvent]) -> dict[str, str]:
    """Who made the hand, named in full, and its two cards as written on the table (R33)."""
    for event in events:
        if event["kind"] == "wager_hand_scored":
            return {"player": event["player"], "top": event["top"], "bottom": event["bottom"]}
    return {}


def turned(events: Sequence[WagerEvent]) -> dict[str, str]:
    """Who took the first of the turns without a hand, named in full (W12)."""
    for event in events:
        if event["kind"] == "wager_turns_played" and "player" in event:
            return {"who": event["player"]}
    return {}


def set_to(events: Sequence[WagerEvent]) -> dict[str, str]:
    """The Elixir set as on the table, by its name (W6)."""
    for event in events:
        if event["kind"] == "wager_elixir_changed":
            return {"name": event["elixir"]}
    return {}
