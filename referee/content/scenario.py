"""Scenarios: bottled souls, clue sheets and the power set, loaded from TOML and validated.

One pipeline (beancount style): read the TOML, check every key, collect *every* problem as a
line ``FILE: KEY.PATH: what is wrong; what is right``, and either return frozen records or raise
one :class:`~referee.errors.ScenarioError` naming the first few. ``validate_*`` return the full
list instead. Key paths count from 1 (``souls[3]`` is the third ``[[souls]]`` table, S8).

Pure: reads TOML files, imports no typer, rich or tinydb.

>>> scenario = load_scenario()
>>> len(scenario.souls), len(scenario.powers)
(6, 44)
>>> scenario.powers.get(16, "upright").key
'XVI-upright'
"""

from __future__ import annotations

import difflib
import functools
import tomllib
from pathlib import Path
from typing import TYPE_CHECKING, Any

from referee.errors import ScenarioError, UnknownCard
from referee.names import mentioned_name, name_key, plural
from referee.rules.cards import arcanum_label, parse_arcanum, to_roman
from referee.rules.power_vocab import check as check_effect
from referee.rules.scenario import (
    ORIENTATIONS,
    PowerSet,
    PowerSpec,
    Scenario,
    SoulSpec,
    parse_orientation,
)
from referee.storage.inputs import read_input
from referee.streams import plain

if TYPE_CHECKING:
    from collections.abc import Iterator

    from referee.jsontypes import TOMLTable

#: Assistant seats, 1 = nearest the Fool's left (R23); every soul has a clue sheet per seat.
# The name folding lives in referee.names and the records in referee.rules.scenario (below the
# evening, which reads them); both are named here too, for the loader's callers.
__all__ = ["ORIENTATIONS", "PowerSet", "PowerSpec", "Scenario", "SoulSpec", "mentioned_name",
           "name_key", "parse_orientation"]

SEATS: tuple[int, ...] = (1, 2, 3, 4, 5, 6)
MIN_CLUES = 3  # per seat per soul (S3)
MAX_SOULS = 6  # one bottled soul per stakeholder seat (S1)
MAX_CHARGES = 2  # a power costs 0-2 Charges (R26)
DEFAULT_SCENARIO = "scenario.toml"
DEFAULT_POWERS = "powers.toml"
SHOWN_PROBLEMS = 5  # how many problems a ScenarioError names before "and N more"

_SCENARIO_KEYS = ("name", "description", "souls", "powers")
_POWER_FILE_KEYS = ("name", "description", "powers")
_SOUL_KEYS = ("label", "name", "aliases", "arcanum", "clues")
_POWER_KEYS = ("card", "orientation", "name", "charges", "when", "text", "magic", "timing",
               "effect")
_ARCANUM_HINT = 'write a Roman numeral "0", "I" ... "XXI"'


def data_file(name: str) -> Path:
    """A shipped data file: ``referee/data/NAME`` when installed, else ``data/NAME`` in the tree."""
    package = Path(__file__).resolve().parent.parent  # referee/, above referee/content/
    installed = package / "data" / name
    if installed.exists():
        return installed
    return package.parent / "data" / name


# --- the pipeline ----------------------------------------------------------------------------


class _Report:
    """Collects problems of one file as ``FILE: PATH: message`` lines."""

    def __init__(self, file: Path, out: list[str]) -> None:
        self.file = str(file)
        self.out = out

    def add(self, where: str, what: str) -> None:
        line = f"{self.file}: {where}: {what}" if where else f"{self.file}: {what}"
        self.out.append(" ".join(line.split()))  # one line, whatever the input held


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _kind(value: Any) -> str:
    for typ, word in ((bool, "true/false"), (int, "a whole number"), (float, "a decimal number"),
                      (str, "text"), (list, "a list"), (dict, "a table")):
        if isinstance(value, typ):
            return word
    return "a date or time"


def _join(where: str, key: str) -> str:
    return f"{where}.{key}" if where else key


def _read_toml(path: Path, rep: _Report) -> TOMLTable | None:
    try:
        parsed = _parse_toml(read_input(path))  # the parse is shared
        if too_deep(parsed):
            raise RecursionError
        data: TOMLTable = plain(parsed)
        return data
    except (FileNotFoundError, IsADirectoryError) as exc:
        rep.add("", ("no such file" if isinstance(exc, FileNotFoundError) else "is a directory")
                + "; give the path of a scenario .toml file")
    except OSError as exc:
        rep.add("", f"cannot read: {exc.strerror}")
    except tomllib.TOMLDecodeError as exc:
        rep.add("", f"invalid TOML: {exc}; fix the syntax there (strings need quotes, "
                "tables are [name] or [[name]])")
    except (ValueError, RecursionError) as exc:  # huge, not UTF-8, or nested too deeply (E45)
        if "integer string conversion" in str(exc):  # Python's own limit (E181)
            rep.add("", "holds a number of more than 4,300 digits; numbers here stay below "
                    "1,000,000,000,000 (E181)")
        else:
            rep.add("", f"{exc}; give a scenario .toml file saved as UTF-8" if isinstance(
                exc, ValueError) else "nested too deeply to be a scenario (E45)")
    return None


#: How deep tables and arrays of a game data file may nest (E45): the deepest shipped file
#: nests 3; deeper is refused as nested too deeply, whatever the interpreter's recursion limit
#: (which decides whether the parser itself gives up first).
MAX_NESTING = 32


def too_deep(value: object, limit: int = MAX_NESTING) -> bool:
    """Whether ``value`` (parsed TOML) nests tables or arrays more than ``limit`` deep."""
    level: list[tuple[object, int]] = [(value, 0)]
    while level:
        item, depth = level.pop()
        if isinstance(item, dict | list):
            if depth >= limit:
                return True
            level.extend((v, depth + 1) for v in (item.values() if isinstance(item, dict)
                                                  else item))
    return False


@functools.lru_cache(maxsize=8)
def _parse_toml(text: str) -> TOMLTable:
    """The TOML ``text`` parsed, once per process for the same text: the shell, the station and
    a test run load the same scenario for every new evening (parsing is most of loading it)."""
    return tomllib.loads(text)


def _check_keys(table: TOMLTable, allowed: tuple[str, ...], where: str, rep: _Report) -> None:
    """Typo protection (S9): an unknown key is an error, with the nearest known key."""
    for key in table:
        if key in allowed:
            continue
        near = difflib.get_close_matches(key, allowed, n=1)
        hint = f"did you mean {near[0]!r}?" if near else f"known keys: {', '.join(allowed)}"
        rep.add(_join(where, key), f"unknown key; {hint}")


def _text(
    table: TOMLTable, key: str, where: str, rep: _Report, *, required: bool = True
) -> str | None:
    value = table.get(key)
    if value is None:
        if required:
            rep.add(_join(where, key), f"missing; add {key} = \"...\"")
        return None
    if not isinstance(value, str):
        rep.add(_join(where, key), f"expected text in quotes, got {_kind(value)} {_show(value)}")
        return None
    if not value.strip():
        rep.add(_join(where, key), "is empty; write some text")
        return None
    return value.strip()


def _arcanum(table: TOMLTable, key: str, where: str, rep: _Report, what: str) -> int | None:
    """A Major Arcanum from ``"XVI"`` (also ``16``, ``"16"`` or ``"The Tower"``)."""
    value = table.get(key)
    path = _join(where, key)
    if value is None:
        rep.add(path, f"missing; {what} needs {key} = \"...\", {_ARCANUM_HINT}")
        return None
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 21:
        return value
    if isinstance(value, str):
        try:
            return parse_arcanum(value)
        except UnknownCard:
            pass
    rep.add(path, f"{_show(value)} is not a Major Arcanum; {_ARCANUM_HINT}")
    return None


# --- what powers and souls share -------------------------------------------------------------


def _tables(items: list[Any], where: str, kind: str, rep: _Report) -> Iterator[
        tuple[str, Any]]:
    """Each ``[[kind]]`` table of ``items`` with its path (``powers[3]``); anything else in
    the list is reported and skipped."""
    for i, item in enumerate(items, 1):
        path = f"{where}[{i}]"
        if not isinstance(item, dict):
            rep.add(path, f"expected a [[{kind}]] table, got {_kind(item)}")
            continue
        yield path, item


class _Once:
    """Where each value was first given, so that a second is refused (a power per card and
    side, a power's name, a soul's label and Arcanum, a clue): one registry for each."""

    def __init__(self) -> None:
        self.at: dict[object, str] = {}

    def again(self, value: object, path: str) -> str | None:
        """Where ``value`` was first given, if it was; else None, and it is given at ``path``."""
        first = self.at.get(value)
        if first is None:
            self.at[value] = path
        return first


# --- powers ----------------------------------------------------------------------------------


def _orientation(item: TOMLTable, path: str, rep: _Report) -> str | None:
    side = item.get("orientation")
    if side is None:
        rep.add(f"{path}.orientation", 'missing; add orientation = "upright" or "reversed"')
    elif isinstance(side, str) and side.strip().lower() in ORIENTATIONS:
        return side.strip().lower()
    else:
        rep.add(f"{path}.orientation", f'{_show(side)} is no orientation; write "upright" '
                'or "reversed"')
    return None


def _charges(item: TOMLTable, path: str, rep: _Report) -> int | None:
    charges = item.get("charges")
    if charges is None:
        rep.add(f"{path}.charges", f"missing; add charges = 0 to {MAX_CHARGES}")
    elif isinstance(charges, bool) or not isinstance(charges, int) or not (
        0 <= charges <= MAX_CHARGES
    ):
        rep.add(f"{path}.charges", f"{_show(charges)} is out of range; a power needs 0, 1 "
                f"or {MAX_CHARGES} Charges (R26)")
    else:
        return charges
    return None


def _parse_powers(items: Any, where: str, rep: _Report) -> tuple[PowerSpec, ...]:
    if not isinstance(items, list) or not items:
        rep.add(where, "expected [[powers]] tables, one per Major card and orientation (44)")
        return ()
    specs: list[PowerSpec] = []
    sides, names = _Once(), _Once()
    for path, item in _tables(items, where, "powers", rep):
        _check_keys(item, _POWER_KEYS, path, rep)
        card = _arcanum(item, "card", path, rep, "a power")
        orientation = _orientation(item, path, rep)
        name = _text(item, "name", path, rep)
        when = _text(item, "when", path, rep)
        text = _text(item, "text", path, rep)
        charges = _charges(item, path, rep)
        magic = _magic(item, path, rep)
        effect_problems = check_effect(item.get("timing"), item.get("effect"))  # S12, S13
        for bad, why in effect_problems:
            rep.add(f"{path}.{bad}", why)
        key = _power_key(card, orientation, sides, path, rep)
        if name is not None and (first := names.again(name_key(name), path)) is not None:
            rep.add(f"{path}.name", f"{name!r} is also the name of {first}; power names must "
                    "differ")
        if None not in (key, card, orientation, name, when, text, charges) and (
                not effect_problems):  # an effect that is no table is reported, never read
            assert card is not None and orientation is not None and key is not None
            assert name is not None and when is not None and text is not None
            assert isinstance(charges, int)
            specs.append(PowerSpec(key, card, orientation, name, charges, when, text, magic,
                                   str(item.get("timing")), dict(item.get("effect") or {})))
    _check_every_side(sides, where, rep)
    return tuple(specs)


def _magic(item: TOMLTable, path: str, rep: _Report) -> bool:
    magic = item.get("magic", False)
    if not isinstance(magic, bool):
        rep.add(f"{path}.magic", f"expected true or false, got {_show(magic)}")
        return False
    return magic


def _power_key(card: int | None, orientation: str | None, sides: _Once, path: str,
               rep: _Report) -> str | None:
    """A power's key (``XVI-upright``), or None: a card or orientation missing, or a second
    power for the same side of a card."""
    if card is None or orientation is None:
        return None
    key = f"{to_roman(card)}-{orientation}"
    if (first := sides.again((card, orientation), path)) is not None:
        rep.add(path, f"a second power for {key} ({arcanum_label(card)} "
                f"{orientation}), already given at {first}; keep one")
        return None
    return key


def _check_every_side(sides: _Once, where: str, rep: _Report) -> None:
    """A power set holds both sides of each of the 22 Majors (R26)."""
    missing = [f"{to_roman(c)} {o}" for c in range(22) for o in ORIENTATIONS
               if (c, o) not in sides.at]
    if missing:
        more = f" and {len(missing) - 8} more" if len(missing) > 8 else ""
        rep.add(where, f"no power for {', '.join(missing[:8])}{more}; a power set needs one "
                "upright and one reversed power for each of the 22 Majors, 44 in all (R26)")


def _build_powers(path: Path, problems: list[str]) -> PowerSet | None:
    rep = _Report(path, problems)
    data = _read_toml(path, rep)
    if data is None:
        return None
    _check_keys(data, _POWER_FILE_KEYS, "", rep)
    _text(data, "name", "", rep, required=False)
    _text(data, "description", "", rep, required=False)
    if "powers" not in data:
        rep.add("powers", "missing; a power set is 44 [[powers]] tables")
        return None
    before = len(problems)
    powers = _parse_powers(data["powers"], "powers", rep)
    return PowerSet(powers) if len(problems) == before else None


# --- souls -----------------------------------------------------------------------------------


def _parse_clues(raw: Any, path: str, rep: _Report) -> dict[int, tuple[str, ...]] | None:
    where = f"{path}.clues"
    if raw is None:
        rep.add(where, f"missing; add [souls.clues] with a list of {MIN_CLUES} or more clues for "
                "each assistant seat 1 to 6")
        return None
    if not isinstance(raw, dict):
        rep.add(where, f"expected a table of seats 1 to 6, got {_kind(raw)}")
        return None
    sheets: dict[int, tuple[str, ...]] = {}
    ok = True
    for key, value in raw.items():
        seat = int(key) if key.isascii() and key.isdigit() else None
        if seat not in SEATS:
            rep.add(f"{where}.{key}", "unknown seat; assistant seats are 1 to 6 (seat 1 sits "
                    "nearest the Fool's left)")
            ok = False
            continue
        assert seat is not None
        if not isinstance(value, list) or not all(isinstance(c, str) and c.strip() for c in value):
            rep.add(f"{where}.{key}", "expected a list of clues, each non-empty text in quotes")
            ok = False
            continue
        if len(value) < MIN_CLUES:
            rep.add(f"{where}.{key}", f"only {plural(len(value), 'clue')}; each seat needs "
                    f"at least {MIN_CLUES}, from vague to sharp (S3)")
            ok = False
        sheets[seat] = tuple(" ".join(c.split()) for c in value)
    ok = _every_seat(raw, where, rep) and ok
    ok = _all_different(sheets, where, rep) and ok
    return sheets if ok else None


def _every_seat(raw: dict[Any, Any], where: str, rep: _Report) -> bool:
    """Whether every assistant seat has its clues (each one missing is reported)."""
    ok = True
    for seat in SEATS:
        if seat not in raw and str(seat) not in raw:
            rep.add(f"{where}.{seat}", f"missing; every assistant seat 1 to 6 needs {MIN_CLUES} "
                    "or more clues")
            ok = False
    return ok


def _all_different(sheets: dict[int, tuple[str, ...]], where: str, rep: _Report) -> bool:
    """Different assistants learn different things about the same soul (seed, R23)."""
    ok = True
    said = _Once()
    for seat, clues in sorted(sheets.items()):
        for n, clue in enumerate(clues, 1):
            at = f"{where}.{seat}[{n}]"
            if (first := said.again(name_key(clue), at)) is not None:
                rep.add(at, f"repeats {first}; every seat must learn something different (R23)")
                ok = False
    return ok


def _aliases(item: TOMLTable, path: str, rep: _Report) -> tuple[str, ...]:
    raw = item.get("aliases", [])
    names = [a.strip() for a in raw if isinstance(a, str)] if isinstance(raw, list) else []
    if isinstance(raw, list) and len(names) == len(raw) and all(names):
        return tuple(dict.fromkeys(names))
    rep.add(f"{path}.aliases", 'expected a list of names in quotes, e.g. ["Galileo"]')
    return ()


def _parse_souls(items: Any, rep: _Report) -> tuple[SoulSpec, ...]:
    if items is None:
        rep.add("souls", f"missing; a scenario needs 1 to {MAX_SOULS} [[souls]] tables (a file "
                "of [[powers]] alone is a power set, not a scenario)")
        return ()
    if not isinstance(items, list) or not items:
        rep.add("souls", f"expected 1 to {MAX_SOULS} [[souls]] tables, got {_kind(items)}")
        return ()
    if len(items) > MAX_SOULS:
        rep.add("souls", f"{len(items)} souls; at most {MAX_SOULS}, one per stakeholder seat (S1)")
    souls: list[SoulSpec] = []
    labels, arcana = _Once(), _Once()
    names: dict[str, str] = {}
    for path, item in _tables(items, "souls", "souls", rep):
        _check_keys(item, _SOUL_KEYS, path, rep)
        label = _text(item, "label", path, rep)
        tag = f" ({label})" if label else ""
        name = _text(item, "name", path, rep)
        aliases = _aliases(item, path, rep)
        arcanum = _arcanum(item, "arcanum", path, rep, f"the soul{tag}")
        clues = _parse_clues(item.get("clues"), path, rep)
        if label is not None and (first := labels.again(name_key(label), path)) is not None:
            rep.add(f"{path}.label", f"{label!r} is also the label of {first}; labels are how "
                    "players tell bottles apart, make them differ")
        if arcanum is not None and (first := arcana.again(arcanum, path)) is not None:
            rep.add(f"{path}.arcanum", f"{to_roman(arcanum)} is also the Arcanum of {first}; "
                    "each soul is attuned to a different Arcanum (S2)")
        every = ([name] if name else []) + list(aliases)
        _check_names(every, name, path, names, rep)
        _check_secret(label, clues, every, path, rep)
        if label and name and arcanum is not None and clues is not None:
            souls.append(SoulSpec(label, name, aliases, arcanum, clues))
    return tuple(souls)


def _check_secret(label: str | None, clues: dict[int, tuple[str, ...]] | None,
                  every: list[str], path: str, rep: _Report) -> None:
    """Neither the label nor any clue names the soul (``every``: its name and aliases, S4)."""
    if label is not None and (hit := mentioned_name(label, every)):
        rep.add(f"{path}.label", f"gives away the soul's name ({hit!r}); labels are public")
    for seat, sheet in sorted((clues or {}).items()):
        for n, clue in enumerate(sheet, 1):
            if hit := mentioned_name(clue, every):
                rep.add(f"{path}.clues.{seat}[{n}]", f"mentions the soul's name or alias "
                        f"{hit!r}; a clue must never name the soul (S4)")


def _check_names(every: list[str], name: str | None, path: str, names: dict[str, str],
                 rep: _Report) -> None:
    """A soul's name and aliases each point at it alone (``names``: each name's soul)."""
    for alias in every:
        owner = names.get(name_key(alias))
        if owner is not None and owner != path:
            rep.add(f"{path}.aliases" if alias != name else f"{path}.name",
                    f"{alias!r} also names {owner}; a name or alias must point at one soul")
        names.setdefault(name_key(alias), path)


def _build_scenario(path: Path) -> tuple[Scenario | None, list[str]]:
    problems: list[str] = []
    rep = _Report(path, problems)
    data = _read_toml(path, rep)
    if data is None:
        return None, problems
    _check_keys(data, _SCENARIO_KEYS, "", rep)
    name = _text(data, "name", "", rep, required=False) or path.stem
    description = _text(data, "description", "", rep, required=False) or ""
    souls = _parse_souls(data.get("souls"), rep)
    spec = data.get("powers")
    powers: PowerSet | None = None
    if spec is None:  # S10: inline [[powers]], else powers = "file.toml", else the default set
        powers = _build_powers(data_file(DEFAULT_POWERS), problems)
    elif isinstance(spec, str):
        target = path.parent / spec
        if target.is_file():
            powers = _build_powers(target, problems)
        else:
            rep.add("powers", f"no such file {spec!r} (looked for {target}); the path is "
                    "relative to the scenario file")
    elif isinstance(spec, list):
        before = len(problems)
        inline = _parse_powers(spec, "powers", rep)
        powers = PowerSet(inline) if len(problems) == before else None
    else:
        rep.add("powers", f'expected a file name (powers = "my-powers.toml") or [[powers]] '
                f"tables, got {_kind(spec)}")
    if problems or powers is None:
        return None, problems
    return Scenario(name, description, souls, powers, str(path)), []


def _path(path: str | Path | None, default: str) -> Path:
    return data_file(default) if path is None else Path(path)


def _raise(problems: list[str]) -> None:
    shown = "; ".join(problems[:SHOWN_PROBLEMS])
    more = len(problems) - SHOWN_PROBLEMS
    if more > 0:
        shown += f"; and {more} more (run `referee scenario check FILE` to list them all)"
    raise ScenarioError(shown)


def validate_scenario(path: str | Path | None = None) -> list[str]:
    """Every problem of a scenario file (and its power set), one line each; empty if it is fine."""
    return _build_scenario(_path(path, DEFAULT_SCENARIO))[1]


def validate_powers(path: str | Path | None = None) -> list[str]:
    """Every problem of a power-set file, one line each; empty if it is fine."""
    problems: list[str] = []
    _build_powers(_path(path, DEFAULT_POWERS), problems)
    return problems


def load_scenario(path: str | Path | None = None) -> Scenario:
    """The scenario in ``path`` (None: the shipped default), validated.

    Raises:
        ScenarioError: naming the file, the key and what is wrong, for the first few problems.
    """
    scenario, problems = (_shipped() if path is None
                          else _build_scenario(_path(path, DEFAULT_SCENARIO)))
    if scenario is None:
        _raise(problems)
    assert scenario is not None
    return scenario


@functools.lru_cache(maxsize=1)
def _shipped() -> tuple[Scenario | None, list[str]]:
    """The shipped default scenario, read and checked once per process: the package's own data
    does not change under a running console (the shell, a station and a test run make every new
    evening from it). A scenario given by path is read afresh every time."""
    return _build_scenario(data_file(DEFAULT_SCENARIO))


def load_powers(path: str | Path | None = None) -> PowerSet:
    """The power set in ``path`` (None: the shipped default), validated.

    Raises:
        ScenarioError: as :func:`load_scenario`.
    """
    problems: list[str] = []
    powers = _build_powers(_path(path, DEFAULT_POWERS), problems)
    if powers is None:
        _raise(problems)
    assert powers is not None
    return powers
