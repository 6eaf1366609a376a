"""The ``fate`` stream's fold: the state is plain JSON data, each event a few assignments (F16).

Every event is small and records what was decided, cards included, so the fold
replays the same whatever the seed; ``dump``/``load`` are copies.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, NotRequired, TypedDict, cast

from referee.errors import InvariantViolation
from referee.jsontypes import JSON, JSONObject
from referee.rules.fate.cards import DeckKind
from referee.rules.fate.sheet import Char, Duel
from referee.streams import StreamSpec

if TYPE_CHECKING:
    from referee.rules.fate.events import (
        AreaSet,
        CharCreated,
        CharEvent,
        ChecksSet,
        CreditSet,
        DeckSet,
        Drawn,
        DuelSet,
        EntryDropped,
        ExpAdded,
        ExpSpent,
        FateEvent,
        HealBonusSet,
        InfectionSet,
        ItemSet,
        MeasureSet,
        NextModSet,
        NoteAdded,
        PlayerSet,
        RepSet,
        Said,
        TablesSet,
        TraitSet,
        UsualSet,
    )


class Settings(TypedDict):
    deck: DeckKind                       # the deck's kind (R35)


class State(TypedDict):
    """The ``fate`` stream's state: plain JSON data."""

    settings: Settings
    chars: dict[str, Char]
    duel: Duel | None
    tables: NotRequired[JSONObject]  # the log's own tables (F19)


def empty() -> State:
    """No characters, the standard deck (R35), no duel; no tables until ``tables_set`` (F19)."""
    return {"settings": {"deck": "standard"}, "chars": {}, "duel": None}


def _char(state: State, event: CharEvent) -> Char:
    try:
        found: Char = state["chars"][event["char"]]
    except KeyError:
        raise InvariantViolation(
            f"fate event {event['kind']} names no character: {event}") from None
    return found


def _tables_set(state: State, e: TablesSet) -> None:
    state["tables"] = copy.deepcopy(e["tables"])  # F19: the log carries its own tables


def _deck_set(state: State, e: DeckSet) -> None:
    state["settings"]["deck"] = e["deck"]


def _char_created(state: State, e: CharCreated) -> None:
    name = e["char"]["name"]
    if name in state["chars"]:
        raise InvariantViolation(f"character {name!r} created twice")
    state["chars"][name] = copy.deepcopy(e["char"])  # never alias the stored event


def _measure_set(state: State, e: MeasureSet) -> None:
    _char(state, e)["measures"][e["measure"]] = e["value"]


def _credit_set(state: State, e: CreditSet) -> None:
    _char(state, e)["credit"] = e["value"]


def _trait_set(state: State, e: TraitSet) -> None:
    _char(state, e)["traits"][e["trait"]] = {"bonus": e["bonus"], "cost": e["cost"]}


def _rep_set(state: State, e: RepSet) -> None:
    char = _char(state, e)
    char["reps"][e["rep"]] = e["value"]
    char["areas"].setdefault(e["rep"], "healthy")


def _item_set(state: State, e: ItemSet) -> None:
    _char(state, e)["items"][e["item"]] = e["value"]


def _exp_added(state: State, e: ExpAdded) -> None:
    _char(state, e)["exps"][e["exp"]] = {"measure": e["measure"], "spent": False}


def _entry_dropped(state: State, e: EntryDropped) -> None:
    char = _char(state, e)
    if e["section"] == "traits":
        del char["traits"][e["name"]]
    elif e["section"] == "reps":
        del char["reps"][e["name"]]
    elif e["section"] == "items":
        del char["items"][e["name"]]
    elif e["section"] == "exps":
        del char["exps"][e["name"]]
    else:
        raise KeyError(e["section"])  # no section of a character (``characters._entry``)
    if e["section"] == "reps":
        char["areas"].pop(e["name"], None)
        char["heal_bonus"].pop(e["name"], None)
    kept = char.get("usual")
    if kept and e["section"] == "items" and kept["weapon"] == e["name"]:
        kept["weapon"] = None  # a dropped item is no longer the usual weapon (F24)
    if kept and e["section"] == "traits" and e["name"] in kept["traits"]:
        kept["traits"].remove(e["name"])


def _usual_set(state: State, e: UsualSet) -> None:
    _char(state, e)["usual"] = {"weapon": e["weapon"], "traits": list(e["traits"])}


def _player_set(state: State, e: PlayerSet) -> None:
    _char(state, e)["player"] = e["player"]


def _area_set(state: State, e: AreaSet) -> None:
    char = _char(state, e)
    if e["area"] not in char["areas"]:
        raise InvariantViolation(f"{char['name']} has no area {e['area']!r}")
    char["areas"][e["area"]] = e["state"]


def _next_mod_set(state: State, e: NextModSet) -> None:
    _char(state, e)["next_mod"] = e["value"]


def _heal_bonus_set(state: State, e: HealBonusSet) -> None:
    bonus = _char(state, e)["heal_bonus"]
    if e["value"]:
        bonus[e["area"]] = e["value"]
    else:
        bonus.pop(e["area"], None)


def _exp_spent(state: State, e: ExpSpent) -> None:
    _char(state, e)["exps"][e["exp"]]["spent"] = True


def _checks_set(state: State, e: ChecksSet) -> None:
    checks = _char(state, e)["checks"]
    if e["value"]:
        checks[e["measure"]] = e["value"]
    else:
        checks.pop(e["measure"], None)


def _infection_set(state: State, e: InfectionSet) -> None:
    _char(state, e)["infection"] = e["value"]


def _note_added(state: State, e: NoteAdded) -> None:
    _char(state, e)["notes"].append(e["note"])


def _duel_set(state: State, e: DuelSet) -> None:
    state["duel"] = copy.deepcopy(e["duel"])


def _drawn(state: State, e: Drawn) -> None:
    """A test's cards, kept in the log for the record; the state does not change."""


def _said(state: State, e: Said) -> None:
    """What the Host read for a command, kept for ``fate log`` (F21); the state does not change."""


#: Each kind's handler, taking that kind's record: the mapping is as loose as a dict of kinds
#: must be (``referee.evening.folds.HANDLERS``); every handler is typed by its record.
_FOLD: dict[str, Callable[[State, Any], None]] = {
    "tables_set": _tables_set,
    "deck_set": _deck_set,
    "char_created": _char_created,
    "measure_set": _measure_set,
    "credit_set": _credit_set,
    "trait_set": _trait_set,
    "rep_set": _rep_set,
    "item_set": _item_set,
    "exp_added": _exp_added,
    "entry_dropped": _entry_dropped,
    "player_set": _player_set,
    "usual_set": _usual_set,
    "area_set": _area_set,
    "next_mod_set": _next_mod_set,
    "heal_bonus_set": _heal_bonus_set,
    "exp_spent": _exp_spent,
    "checks_set": _checks_set,
    "infection_set": _infection_set,
    "note_added": _note_added,
    "duel_set": _duel_set,
    "drawn": _drawn,
    "said": _said,
}

EVENT_KINDS = tuple(_FOLD)


def read(raw: Mapping[str, JSON]) -> FateEvent:
    """A stored event as its record (``referee.rules.fate.events``), once its kind is known to
    be the stream's."""
    if raw.get("kind") not in _FOLD:
        raise InvariantViolation(f"unknown fate event kind {raw.get('kind')!r}")
    return cast("FateEvent", raw)


def apply(state: State, event: FateEvent) -> State:
    """Fold one event into the state (mutates and returns it)."""
    try:
        step = _FOLD[event["kind"]]
    except KeyError:
        raise InvariantViolation(f"unknown fate event kind {event.get('kind')!r}") from None
    step(state, event)
    return state


def dump(state: State) -> Any:
    """The JSON form of the state: the state itself, copied."""
    return copy.deepcopy(state)


def load(data: Any) -> State:
    """The state from its JSON form."""
    loaded: State = copy.deepcopy(data)
    return loaded


STREAM = StreamSpec(name="fate", empty=empty, apply=apply, dump=dump, load=load, read=read)
