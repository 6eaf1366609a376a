"""The Card of Fate: characters, tests, fights, duels, drinking, healing.

The rules live in:

- ``cards``       the deck and card notation (R35)
- ``resolve``     R36 tests and the R37 ladder
- ``tables``      the validated tables of ``data/fate.toml``, carried in the stream (F19)
- ``characters``  characters, budgets and pools
- ``dealer``      the cards of one command, typed in or drawn; what a command returns
- ``actions``     tests, fights, drinking, healing, checks (commands -> events)
- ``duel``        pistol and sword duels
- ``fold``        the stream: State = fold(events)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.rules.fate.actions import (
    check,
    compel,
    drink,
    fight,
    grow,
    heal,
    run_test,
    static_pool,
)
from referee.rules.fate.characters import edit_character, new_character
from referee.rules.fate.dealer import Outcome, Typed, set_deck
from referee.rules.fate.duel import (
    duel_end,
    duel_phase,
    duel_round,
    duel_start,
    duel_surrender,
)
from referee.rules.fate.fold import EVENT_KINDS, STREAM, State, apply, dump, empty, load
from referee.rules.fate.pools import PoolSpec
from referee.rules.fate.tables import FateData, parse_data, tables, tables_event

if TYPE_CHECKING:
    from referee.jsontypes import JSONObject

__all__ = [
    "EVENT_KINDS", "STREAM", "FateData", "Outcome", "PoolSpec", "State", "Typed", "apply",
    "check", "compel", "drink", "duel_end", "duel_phase", "duel_round", "duel_start",
    "duel_surrender", "dump", "edit_character", "empty", "fight", "grow", "heal", "load",
    "new_character", "parse_data", "run_test", "set_deck", "started", "static_pool", "tables",
    "tables_event",
]


def started(raw: JSONObject) -> State:
    """An empty stream that holds these tables (F19): what the CLI folds before a first command."""
    return apply(empty(), tables_event(dict(raw)))
