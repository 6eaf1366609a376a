"""The Card of Fate tables (``data/fate.toml``), validated; the rules never read the file.

Static difficulties, creation budgets, Maimed complications, healing times and
drinking outcomes are game content: the rules read them from ``FateData`` and
never hard-code them. The CLI loads the file and copies the raw tables into the
``fate`` stream once (a ``tables_set`` event), so a replayed log uses the tables
it was played with, whatever today's data file says (F19).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

from referee.errors import InvariantViolation, ScenarioError

if TYPE_CHECKING:
    from referee.jsontypes import JSONObject
    from referee.rules.fate.events import TablesSet
    from referee.rules.fate.fold import State

COMPLICATION_KINDS = ("red-number", "black-number", "red-face", "black-face", "ace")
DRINK_OUTCOMES = ("perfect", "critical", "ordinary", "none", "lose", "tie")


@dataclass(frozen=True)
class Complication:
    """One row of the Maimed complications table."""

    kind: str
    text: str
    trait: str | None = None
    trait_bonus: int = 0
    infection: bool = False
    choice: str | None = None


@dataclass(frozen=True)
class FateData:
    """Every Card of Fate table, validated."""

    creation: dict[str, int]
    pairs: tuple[tuple[str, str], ...]
    static: dict[str, int]
    aid_max: int
    penalty: dict[str, int]
    unaware_bonus: int
    unarmed_pool: int
    gate_measure: str
    duel_jokers: int
    tarot_second_joker: str
    phases: int
    pistol_pool: int
    sword_pool: int
    lone_shot: str
    calm_measure: str
    checks_to_grow: int
    compelled_from: int
    heal_time: dict[str, str]
    infection_time: str
    drink: dict[str, int]
    drink_measure: str
    complications: dict[str, Complication]

    @property
    def sides(self) -> tuple[str, ...]:
        """All twelve Measure names, each pair's first side first."""
        return tuple(name for pair in self.pairs for name in pair)

    def pair_of(self, side: str) -> tuple[str, str]:
        """The pair a Measure side belongs to."""
        for pair in self.pairs:
            if side in pair:
                return pair
        raise KeyError(side)


#: What a key of the tables holds: a whole number, a text or true/false.
Leaf = TypeVar("Leaf", bound=int | str)


def _need(table: JSONObject, key: str, kind: type[Leaf], where: str) -> Leaf:
    value = table.get(key)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise ScenarioError(f"fate.toml: [{where}] {key} must be a {kind.__name__}")
    return value


def _table(table: JSONObject, key: str, where: str) -> JSONObject:
    value = table.get(key)
    if not isinstance(value, dict):
        raise ScenarioError(f"fate.toml: [{where}] {key} must be a dict")
    return value


def _maybe(table: JSONObject, key: str, kind: type[Leaf], where: str, default: Leaf
           ) -> Leaf:
    """An optional key: ``default`` when left out, else as ``_need`` checks it."""
    return default if key not in table else _need(table, key, kind, where)


def _text_or_none(table: JSONObject, key: str, where: str) -> str | None:
    return None if table.get(key) is None else _need(table, key, str, where)


def _pairs(creation: JSONObject) -> tuple[tuple[str, str], ...]:
    """The Measures as pairs of names, each pair's first side first."""
    raw = creation.get("measures")
    pairs: list[tuple[str, str]] = []
    for pair in raw if isinstance(raw, list) else [None]:
        if not (isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], str)
                and isinstance(pair[1], str)):
            raise ScenarioError("fate.toml: [creation] measures must be a list of name pairs")
        pairs.append((pair[0], pair[1]))
    return tuple(pairs)


def parse_data(raw: JSONObject) -> FateData:
    """Validate the parsed TOML into ``FateData``.

    Raises:
        ScenarioError: naming the first table or key that is missing or of the wrong type.
    """
    creation_raw = _table(raw, "creation", "top")
    pairs = _pairs(creation_raw)
    creation = _creation(creation_raw)
    static_raw = _table(raw, "static", "top")
    static = {k: _need(static_raw, k, int, "static") for k in static_raw}
    fight = _table(raw, "fight", "top")
    duel = _table(raw, "duel", "top")
    changing = _table(raw, "changing", "top")
    heal = _table(raw, "heal", "top")
    drink_raw = _table(raw, "drink", "top")
    drink = {k: _need(drink_raw, k, int, "drink") for k in DRINK_OUTCOMES}
    complications = _complications(_table(raw, "complications", "top"))
    data = FateData(
        creation=creation,
        pairs=pairs,
        static=static,
        aid_max=_need(_table(raw, "aid", "top"), "max_per_helper", int, "aid"),
        penalty={k: _need(_table(raw, "penalty", "top"), k, int, "penalty")
                 for k in ("injured", "maimed")},
        unaware_bonus=_need(fight, "unaware_bonus", int, "fight"),
        unarmed_pool=_need(fight, "unarmed_pool", int, "fight"),
        gate_measure=_need(fight, "gate_measure", str, "fight"),
        duel_jokers=_need(duel, "jokers", int, "duel"),
        tarot_second_joker=_need(duel, "tarot_second_joker", str, "duel"),
        phases=_need(duel, "phases", int, "duel"),
        pistol_pool=_need(duel, "pistol_pool", int, "duel"),
        sword_pool=_need(duel, "sword_pool", int, "duel"),
        lone_shot=_need(duel, "lone_shot", str, "duel"),
        calm_measure=_need(duel, "calm_measure", str, "duel"),
        checks_to_grow=_need(changing, "checks_to_grow", int, "changing"),
        compelled_from=_need(changing, "compelled_from", int, "changing"),
        heal_time={k: _need(heal, k, str, "heal") for k in ("injured", "maimed")},
        infection_time=_need(heal, "infection", str, "heal"),
        drink=drink,
        drink_measure=_need(drink_raw, "measure", str, "drink"),
        complications=complications,
    )
    _check_names(data)
    return data


def _creation(creation_raw: JSONObject) -> dict[str, int]:
    """[creation]'s numbers (the Measures' pairs apart), none negative."""
    creation: dict[str, int] = {}
    for key in creation_raw:
        if key == "measures":
            continue
        creation[key] = _need(creation_raw, key, int, "creation")
        if creation[key] < 0:
            raise ScenarioError(f"fate.toml: [creation] {key} must not be negative")
    return creation


def _complications(comp_raw: JSONObject) -> dict[str, Complication]:
    """One complication of each kind, in ``COMPLICATION_KINDS``' order."""
    complications: dict[str, Complication] = {}
    for kind in COMPLICATION_KINDS:
        row = _table(comp_raw, kind, "complications")
        where = f"complications.{kind}"
        complications[kind] = Complication(
            kind=kind,
            text=_need(row, "text", str, where),
            trait=_text_or_none(row, "trait", where),
            trait_bonus=_maybe(row, "trait_bonus", int, where, 0),
            infection=_maybe(row, "infection", bool, where, False),
            choice=_text_or_none(row, "choice", where),
        )
    return complications


def _check_names(data: FateData) -> None:
    """The tables' names agree: the Measures they name exist, the lone shot is a static level,
    a deck holds one or two Jokers."""
    for name in (data.gate_measure, data.calm_measure, data.drink_measure):
        if name not in data.sides:
            raise ScenarioError(f"fate.toml: {name!r} is not one of the Measures")
    if data.lone_shot not in data.static:
        raise ScenarioError(f"fate.toml: [duel] lone_shot {data.lone_shot!r} is no static level")
    if data.duel_jokers not in (1, 2):
        raise ScenarioError("fate.toml: [duel] jokers must be 1 or 2")


_parsed: dict[int, tuple[JSONObject, FateData]] = {}


def tables(state: State) -> FateData:
    """The tables the ``fate`` stream was started with (F19), validated once per process.

    Raises:
        InvariantViolation: the stream holds no tables (the CLI adds them before any command).
    """
    raw = state.get("tables")
    if raw is None:
        raise InvariantViolation("the fate stream has no tables: start it with tables_event()")
    hit = _parsed.get(id(raw))
    if hit is not None and hit[0] is raw:
        return hit[1]
    data = parse_data(raw)
    if len(_parsed) > 8:
        _parsed.clear()
    _parsed[id(raw)] = (raw, data)
    return data


def tables_event(raw: JSONObject) -> TablesSet:
    """The event that copies the tables into the stream (F19); validated first.

    Raises:
        ScenarioError: the tables do not validate.
    """
    parse_data(raw)
    return {"kind": "tables_set", "tables": raw}
