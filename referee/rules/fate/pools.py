"""Card of Fate card pools: what makes up one side's pool (F5), worked out from a number or a
character's values, with the R37 penalties and aid (seed).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TypedDict

from referee.errors import BadInput, IllegalAction
from referee.names import match_person
from referee.rules.fate.characters import HEALTH, find_alive, measure, side_name
from referee.rules.fate.fold import State
from referee.rules.fate.sheet import Char
from referee.rules.fate.tables import FateData, tables


@dataclass(frozen=True)
class PoolSpec:
    """What makes up one side's card pool: a number, or a character's values (seed, F5)."""

    char: str | None = None
    base: int | None = None
    base_label: str = "pool"
    measure: str | None = None
    traits: tuple[str, ...] = ()
    reps: tuple[str, ...] = ()
    items: tuple[str, ...] = ()
    aid: tuple[str, ...] = ()
    exps: tuple[str, ...] = ()
    bonus: int = 0
    extras: tuple[tuple[str, int], ...] = ()
    physical: bool = False
    use_next_mod: bool = True


class PoolJSON(TypedDict):
    """A pool as ``--json`` gives it: its size (None when its cards were typed in), each part
    as [label, cards], and what it stakes."""

    char: str | None
    size: int | None
    parts: list[list[str | int]]
    staked: list[str]


@dataclass
class Pool:
    """A worked-out pool: its parts (label, cards, area or None), and what it stakes."""

    char: str | None
    parts: list[tuple[str, int, str | None]] = field(default_factory=list)
    staked: list[str] = field(default_factory=list)
    gates: list[str] = field(default_factory=list)
    exps: list[str] = field(default_factory=list)
    next_mod: int = 0
    known: bool = True
    unable: bool = False

    @property
    def raw(self) -> int:
        return sum(n for _, n, _ in self.parts)

    @property
    def size(self) -> int:
        """Never below 0: a pool pushed below 0 by penalties draws nothing (F5)."""
        return 0 if self.unable else max(0, self.raw)

    def drop_area(self, area: str) -> None:
        """A failed gate: the Maimed Reputation is not used at all (F6)."""
        self.parts = [p for p in self.parts if p[2] != area]
        if area in self.staked:
            self.staked.remove(area)

    def to_json(self) -> PoolJSON:
        return {"char": self.char, "size": self.size if self.known else None,
                "parts": [[label, n] for label, n, _ in self.parts], "staked": self.staked}

    def describe(self) -> str:
        """``6 = 5 Fiery + 2 Swordsman - 1 Health Injured``."""
        if not self.known:
            return "typed in"
        if not self.parts:
            return "0"
        if len(self.parts) == 1 and self.parts[0][0] in ("pool", "opposition"):
            return str(self.size)
        text = ""
        for i, (label, n, _) in enumerate(self.parts):
            sign = ("- " if n < 0 else "+ ") if i else ("-" if n < 0 else "")
            text += f"{' ' if i else ''}{sign}{abs(n)} {label}"
        clamp = " (below 0: no cards, F5)" if self.raw < 0 else ""
        if self.unable:
            clamp = " (cannot act: Maimed and the Measure test failed, F6)"
        return f"{self.size} = {text}{clamp}"


def build_pool(state: State, spec: PoolSpec, data: FateData | None = None) -> Pool:
    """Work out a pool from a ``PoolSpec`` with the R37 penalties applied automatically.

    Raises:
        BadInput: a typed pool below 0, aid above +3 per helper, or as E190 refuses.
        UnknownName: an unknown character, Measure, Trait, Reputation or item.
        IllegalAction: a Dead character, or staking a Dead Reputation.
    """
    data = data or tables(state)
    if spec.base is not None and spec.base < 0:
        raise BadInput(f"a pool cannot be below 0 cards (got {spec.base})")
    if spec.base is not None and spec.measure is not None:  # E190: one base (F5), not two
        raise BadInput(f"give one base for a pool: {spec.base} cards or the Measure "
                       f"{spec.measure}, not both (F5, E190)", ruling="E190")
    if spec.char is None:
        return _pool_without_char(state, spec, data)
    char = find_alive(state, spec.char)
    pool = Pool(char["name"])
    if spec.base is not None:
        pool.parts.append((spec.base_label, spec.base, None))
    if spec.measure is not None:
        side = side_name(spec.measure, data)
        pool.parts.append((side, measure(char, side, data), None))
    for text in spec.traits:
        trait = match_person(text, char["traits"], what=f"Trait of {char['name']}")
        pool.parts.append((trait, char["traits"][trait]["bonus"], None))
    for text in spec.items:
        item = match_person(text, char["items"], what=f"item of {char['name']}")
        pool.parts.append((item, char["items"][item], None))
    for text in spec.reps:
        _stake(pool, char, text, data)
    for text in spec.aid:
        label, n = _aid(state, text, char["name"], data)
        pool.parts.append((label, n, None))
    for text in spec.exps:
        exp = match_person(text, char["exps"], what=f"Experience of {char['name']}")
        if char["exps"][exp]["spent"]:
            raise IllegalAction(f"{char['name']}'s Experience card {exp!r} is already spent (F15)")
        pool.exps.append(exp)
        pool.parts.append((f"{exp} (Experience card)", 1, None))
    if spec.physical:
        _penalty(pool, HEALTH, char["areas"][HEALTH], data)
    for label, n in spec.extras:
        pool.parts.append((label, n, None))
    if spec.bonus:
        pool.parts.append(("bonus", spec.bonus, None))
    if spec.use_next_mod and char["next_mod"]:
        pool.next_mod = char["next_mod"]
        pool.parts.append(("drink", char["next_mod"], None))
    return pool


def _pool_without_char(state: State, spec: PoolSpec, data: FateData) -> Pool:
    """A pool of numbers (no character): its base, extras, aid and bonus (E190); no base and
    no aid is a pool typed in at the draw."""
    if spec.measure or spec.traits or spec.reps or spec.items or spec.exps:  # E190
        raise BadInput("a Measure, Traits, Reputations, items and Experiences come from a "
                       "character: name one, or count them in the pool (F5, E190)",
                       ruling="E190")
    if spec.base is None:
        if spec.aid:
            raise BadInput("aid adds to a pool: give the pool, or a character (F5, E190)",
                           ruling="E190")
        return Pool(None, known=False)
    pool = Pool(None, parts=[(spec.base_label, spec.base, None)])
    pool.parts += [(label, n, None) for label, n in spec.extras]
    pool.parts += [(*_aid(state, text, None, data), None) for text in spec.aid]  # E190
    if spec.bonus:
        pool.parts.append(("bonus", spec.bonus, None))
    return pool


def _stake(pool: Pool, char: Char, text: str, data: FateData) -> None:
    """A Reputation staked: its value, and its penalty if hurt; a Dead one cannot be (R37)."""
    rep = match_person(text, char["reps"], what=f"Reputation of {char['name']}")
    st = char["areas"][rep]
    if st == "dead":
        raise IllegalAction(f"{char['name']}'s Reputation {rep!r} is Dead: all relation is "
                            "lost, it cannot be staked", ruling="R37")
    pool.staked.append(rep)
    pool.parts.append((f"{rep} (staked)", char["reps"][rep], rep))
    _penalty(pool, rep, st, data)


def _penalty(pool: Pool, area: str, st: str, data: FateData) -> None:
    label = "Health" if area == HEALTH else area
    if st == "injured":
        pool.parts.append((f"{label} Injured", data.penalty["injured"], area))
    elif st == "maimed":
        pool.parts.append((f"{label} Maimed", data.penalty["maimed"], area))
        pool.gates.append(area)


def _aid(state: State, text: str, helped: str | None, data: FateData) -> tuple[str, int]:
    """``2`` or ``Bob:fiery``: another's help, +3 at most per helper (seed)."""
    top = data.aid_max
    raw = text.strip()
    if re.fullmatch(r"[+-]?\d+", raw):
        n = int(raw)
        if not 0 <= n <= top:
            raise BadInput(f"aid {n}: a helper adds 0 to +{top} cards (seed)")
        return "aid", n
    who, sep, side = raw.rpartition(":")
    if not sep:
        raise BadInput(f"aid {text!r}: give a number (2) or a helper and Measure (Bob:fiery)")
    helper = find_alive(state, who)
    if helper["name"] == helped:
        raise BadInput(f"{helped} cannot aid their own test")
    m = side_name(side, data)
    return f"aid {helper['name']} {m}", min(top, measure(helper, m, data))
