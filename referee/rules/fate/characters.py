"""Card of Fate characters: creation within the seed's budgets and edits (pools: ``pools.py``).

A character is a plain JSON dict in the ``fate`` stream's state (see ``fate.py``):
Measures are stored by the first side of each pair (the other side is 10 minus
it); every area (Health and each Reputation) has an R37 state.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from referee.errors import BadInput, IllegalAction, UnknownName
from referee.names import check_label, check_name, match_name, match_person, quoted
from referee.rules.fate.fold import State
from referee.rules.fate.sheet import Char, Usual
from referee.rules.fate.tables import FateData, tables

if TYPE_CHECKING:
    from referee.rules.fate.events import CharCreated, CharEvent

HEALTH = "health"
_VALUE = re.compile(r"^(?P<name>.*?)\s*(?:=\s*\+?|\s\+|\s)(?P<value>-?\d+)$")


# -- looking things up --------------------------------------------------------------------------


def find(state: State, name: str) -> Char:
    """The character ``name`` names (case-insensitive, unique prefix).

    Raises:
        UnknownName: no such character; lists the near names.
    """
    chars: dict[str, Char] = state["chars"]
    if not chars:
        raise UnknownName("no Card of Fate characters yet; create one: "
                          f"fate char new {quoted(name)}")
    # "ashby" for "Lord Ashby": a unique prefix of any word of the name (F17).
    found: Char = chars[match_person(name, chars, what="character")]
    return found


def find_alive(state: State, name: str) -> Char:
    """As ``find``, refusing a character whose Health is Dead (R37)."""
    char = find(state, name)
    if char["areas"][HEALTH] == "dead":
        raise IllegalAction(f"{char['name']} is dead and cannot act", ruling="R37")
    return char


def side_name(text: str, data: FateData) -> str:
    """A Measure side from what the GM typed (``fi`` -> ``Fiery``)."""
    return match_name(text, data.sides, what="Measure")


def measure(char: Char, side: str, data: FateData) -> int:
    """The value of one Measure side: stored first sides, 10 minus for the second."""
    first, _second = data.pair_of(side)
    value: int = char["measures"][first]
    return value if side == first else 10 - value


def area_name(char: Char, text: str) -> str:
    """``health`` or one of the character's Reputations."""
    found = match_person(text, ["Health", *char["reps"]],
                       what=f"area (Health or a Reputation of {char['name']})")
    return HEALTH if found == "Health" else found


def parse_value(text: str, what: str) -> tuple[str, int]:
    """``"Loved by Miss Atherton=2"`` or ``"... +2"`` -> (name, 2)."""
    found = _VALUE.match(text.strip())
    if not found or not found["name"].strip():
        raise BadInput(
            f"{what} {text!r} needs a name and a number, e.g. \"Loved by Miss Atherton=2\"")
    return found["name"].strip(), int(found["value"])


# -- creation and edits -------------------------------------------------------------------------


def _measure_setting(text: str, data: FateData) -> tuple[str, int]:
    """``fiery=7``, ``calm=3``, ``fiery/calm=7/3`` -> (``Fiery``, 7); pairs sum to 10."""
    if "=" not in text:
        raise BadInput(f"Measure {text!r} needs a value, e.g. fiery=7 or fiery/calm=7/3")
    names, _, values = text.partition("=")
    sides = [side_name(n, data) for n in names.split("/") if n.strip()]
    try:
        numbers = [int(v) for v in values.split("/")]
    except ValueError:
        raise BadInput(f"Measure {text!r}: {values!r} is no number") from None
    if len(sides) == 1 and len(numbers) == 2:
        sides.append(data.pair_of(sides[0])[1 - data.pair_of(sides[0]).index(sides[0])])
    if len(sides) != len(numbers) or len(sides) not in (1, 2):
        raise BadInput(f"Measure {text!r}: give one side and value, or a pair like fiery/calm=7/3")
    if len(sides) == 2:
        if data.pair_of(sides[0]) != data.pair_of(sides[1]) or sides[0] == sides[1]:
            raise BadInput(f"{sides[0]} and {sides[1]} are not the two sides of one Measure")
        if numbers[0] + numbers[1] != 10:
            raise BadInput(
                f"{sides[0]} {numbers[0]} / {sides[1]} {numbers[1]} sums to "
                f"{numbers[0] + numbers[1]}; the two sides of a Measure always sum to 10"
            )
    first, _ = data.pair_of(sides[0])
    value = numbers[0] if sides[0] == first else 10 - numbers[0]
    low, high = data.creation["measure_min"], data.creation["measure_max"]
    if not low <= value <= high:
        raise BadInput(f"Measure {text!r} is out of range: each side runs {low}-{high}")
    return first, value


def _measures(texts: Sequence[str], data: FateData) -> dict[str, int]:
    out: dict[str, int] = {}
    for text in texts:
        first, value = _measure_setting(text, data)
        if first in out and out[first] != value:
            second = data.pair_of(first)[1]
            raise BadInput(
                f"{first} {out[first]} / {second} {10 - out[first]} and {first} {value} / "
                f"{second} {10 - value} disagree: the two sides of a Measure always sum to 10"
            )
        out[first] = value
    return out


def _trait(text: str, data: FateData) -> tuple[str, int, int]:
    """``Swordsman=2`` (bonus, costs 2), ``Second sight=once`` (3), ``Luck=multi`` (5)."""
    check_label(text, "Trait")  # printed raw by `fate char show` otherwise (E96)
    head, _, tail = text.rpartition("=")
    kind = tail.strip().lower()
    if head.strip() and kind in ("once", "multi"):
        cost = data.creation[f"ability_{kind}_cost"]
        return head.strip(), 0, cost
    name, bonus = parse_value(text, "Trait")
    top = data.creation["trait_max_bonus"]
    if not 1 <= bonus <= top:
        raise BadInput(f"Trait {name!r} +{bonus}: a Trait holds 1 to {top} points (seed)")
    return name, bonus, bonus


def _rep(text: str, data: FateData) -> tuple[str, int]:
    name, value = parse_value(check_label(text, "Reputation"), "Reputation")  # E96
    top = data.creation["reputation_max"]
    if name.lower() == HEALTH:
        raise BadInput("a Reputation cannot be called 'health'")
    if not 1 <= value <= top:
        raise BadInput(f"Reputation {name!r} {value}: Reputations run 1 to +{top} (seed)")
    return name, value


def _item(text: str, data: FateData) -> tuple[str, int]:
    name, value = parse_value(check_label(text, "item"), "item")  # E96
    top = data.creation["item_max"]
    if not 0 <= value <= top:
        raise BadInput(f"item {name!r} {value}: an item adds 0 to {top} cards")
    return name, value


def _exp(text: str, data: FateData) -> tuple[str, str]:
    """``Crimean War:fiery`` -> (``Crimean War``, ``Fiery``)."""
    name, sep, side = check_label(text, "Experience").rpartition(":")  # E96
    if not sep or not name.strip():
        raise BadInput(
            f"Experience {text!r} needs a name and a Measure, e.g. \"Crimean War:fiery\"")
    return name.strip(), side_name(side, data)


def _credit(value: int, data: FateData) -> int:
    low, high = data.creation["credit_min"], data.creation["credit_max"]
    if not low <= value <= high:
        raise BadInput(f"Credit Rating {value} is out of range {low}-{high}")
    return value


def blank(name: str, data: FateData) -> Char:
    """A fresh character: 5/5 everywhere, Credit 5, Healthy."""
    return {
        "name": name, "player": None, "npc": False,
        "measures": {first: data.creation["start_measure"] for first, _ in data.pairs},
        "credit": data.creation["start_credit"],
        "traits": {}, "reps": {}, "items": {}, "exps": {},
        "areas": {HEALTH: "healthy"}, "checks": {}, "next_mod": 0, "heal_bonus": {},
        "infection": False, "notes": [],
    }


def _check_new_name(state: State, name: str) -> str:
    if not name.strip():
        raise BadInput("a character needs a name")
    name = check_name(name, "character's name")  # E42
    for other in state["chars"]:
        if other.lower() == name.lower():
            raise IllegalAction(f"a character named {other!r} already exists (fate char show)")
    return name


def new_character(state: State, name: str, *, measures: Sequence[str] = (),
                  credit: int | None = None, traits: Sequence[str] = (),
                  reps: Sequence[str] = (), exps: Sequence[str] = (),
                  items: Sequence[str] = (), player: str | None = None,
                  npc: bool = False, weapon: str | None = None,
                  fight_traits: Sequence[str] = ()) -> list[CharCreated]:
    """Validate a new character against the creation budgets (F15) -> ``char_created``.

    ``measures`` are the final values on the sheet (``fiery=7``), Experiences
    included; the budget is counted from 5 plus each Experience's +1.

    Raises:
        BadInput: a bad value, a pair not summing to 10, or a budget overspent.
    """
    data = tables(state)
    name = _check_new_name(state, name)
    char = blank(name, data)
    char["player"] = check_name(player, "player's name") if player else None  # E42
    char["npc"] = npc
    shift = {first: 0 for first, _ in data.pairs}
    for text in exps:
        exp, side = _exp(text, data)
        if exp in char["exps"]:
            raise BadInput(f"Experience {exp!r} is listed twice")
        first, _ = data.pair_of(side)
        shift[first] += 1 if side == first else -1
        char["exps"][exp] = {"measure": side, "spent": False}
    typed = _measures(measures, data)
    low, high = data.creation["measure_min"], data.creation["measure_max"]
    for first, _ in data.pairs:
        value = typed.get(first, data.creation["start_measure"] + shift[first])
        if not low <= value <= high:
            raise BadInput(
                f"{first} would be {value} after the Experiences; sides run {low}-{high}")
        char["measures"][first] = value
    if credit is not None:
        char["credit"] = _credit(credit, data)
    for text in traits:
        trait, bonus, cost = _trait(text, data)
        char["traits"][trait] = {"bonus": bonus, "cost": cost}
    for text in reps:
        rep, value = _rep(text, data)
        char["reps"][rep] = value
        char["areas"][rep] = "healthy"
    for text in items:
        item, value = _item(text, data)
        char["items"][item] = value
    if not npc:
        _check_budgets(char, shift, data)
    if weapon is not None or fight_traits:
        char["usual"] = usual(char, weapon, fight_traits)
    return [{"kind": "char_created", "char": char}]


def usual(char: Char, weapon: str | None, fight_traits: Sequence[str]) -> Usual:
    """A character's usual weapon (an item or a number of cards) and the Traits they fight
    with; ``fate fight`` uses them unless told otherwise (F24).

    Raises:
        UnknownName: not one of their items or Traits.
        BadInput: a weapon pool below 0.
    """
    kept = char.get("usual") or {"weapon": None, "traits": []}
    chosen = kept["weapon"]
    if weapon is not None:
        raw = weapon.strip()
        if not raw:
            chosen = None
        elif raw.isascii() and raw.lstrip("+-").isdigit():
            if int(raw) < 0:
                raise BadInput(f"a weapon pool cannot be below 0 (got {raw})")
            chosen = str(int(raw))
        else:
            chosen = match_person(raw, char["items"], what=f"item of {char['name']}")
    traits = list(kept["traits"])
    if fight_traits:
        traits = [] if [t.strip() for t in fight_traits] == [""] else [
            match_person(t, char["traits"], what=f"Trait of {char['name']}")
            for t in fight_traits]
    return {"weapon": chosen, "traits": traits}


def _check_budgets(char: Char, shift: dict[str, int], data: FateData) -> None:
    c = data.creation
    spent = []
    for first, second in data.pairs:
        cost = abs(char["measures"][first] - c["start_measure"] - shift[first])
        if cost:
            value = char["measures"][first]
            side, shown = (first, value) if value >= 5 else (second, 10 - value)
            spent.append((f"{side} {shown}", cost))
    if char["credit"] < c["start_credit"]:
        raise BadInput(f"Credit Rating starts at {c['start_credit']} and can only be raised at "
                       f"creation (use --npc for the Host's characters)")
    if char["credit"] > c["start_credit"]:
        spent.append((f"Credit {char['credit']}", char["credit"] - c["start_credit"]))
    total = sum(cost for _, cost in spent)
    if total > c["points"]:
        detail = ", ".join(f"{what} costs {cost}" for what, cost in spent)
        raise BadInput(f"Measures and Credit cost {total} points, the budget is {c['points']} "
                       f"({detail}; Experiences' +1 are free) (F15)")
    if len(char["exps"]) > c["experiences"]:
        raise BadInput(f"{len(char['exps'])} Experiences; a new character gets {c['experiences']}")
    trait_cost = sum(t["cost"] for t in char["traits"].values())
    if trait_cost > c["trait_points"]:
        detail = ", ".join(f"{n} {t['cost']}" for n, t in char["traits"].items())
        raise BadInput(f"Traits cost {trait_cost} points, the budget is {c['trait_points']} "
                       f"({detail}) (F15)")


def budget_left(char: Char, data: FateData) -> dict[str, int]:
    """What creation left unspent (shown after ``char new``)."""
    c = data.creation
    shift = {first: 0 for first, _ in data.pairs}
    for exp in char["exps"].values():
        first, _ = data.pair_of(exp["measure"])
        shift[first] += 1 if exp["measure"] == first else -1
    spent = sum(abs(char["measures"][f] - c["start_measure"] - shift[f]) for f, _ in data.pairs)
    spent += max(0, char["credit"] - c["start_credit"])
    return {
        "points": c["points"] - spent,
        "experiences": c["experiences"] - len(char["exps"]),
        "trait_points": c["trait_points"] - sum(t["cost"] for t in char["traits"].values()),
    }


def char_json(char: Char, data: FateData) -> Char:
    """The character as ``--json`` shows it: every Measure side with its value, not only
    each pair's first."""
    measures = {}
    for first, second in data.pairs:
        value = char["measures"][first]
        measures[first] = value
        measures[second] = 10 - value
    return {**char, "measures": measures}


def edit_character(state: State, name: str, *, measures: Sequence[str] = (),
                   shifts: Sequence[str] = (), credit: int | None = None,
                   traits: Sequence[str] = (), reps: Sequence[str] = (),
                   exps: Sequence[str] = (), items: Sequence[str] = (),
                   drop: Sequence[str] = (), player: str | None = None,
                   weapon: str | None = None, fight_traits: Sequence[str] = (),
                   notes: list[str] | None = None) -> list[CharEvent]:
    """Changes after creation (no budgets: what play gives): set, add or drop entries.

    ``shifts`` move a Measure side: ``temperate+2`` (a complication's choice);
    a new Experience adds +1 to its Measure. A side moved past 1-9 stops there, and
    ``notes`` (when given) receives a line saying so.
    """
    data = tables(state)
    char = find(state, name)
    who = char["name"]
    events: list[CharEvent] = []
    values = dict(char["measures"])
    said = notes if notes is not None else []

    def set_measure(first: str, value: int) -> None:
        values[first] = value
        events.append({"kind": "measure_set", "char": who, "measure": first, "value": value})

    def move(side: str, delta: int, why: str) -> None:
        """Move ``side`` by ``delta``; past the range it stops at the end, and says so."""
        first, _ = data.pair_of(side)
        wanted = (values[first] if side == first else 10 - values[first]) + delta
        got = _stop(data, f"{who}'s {side}", side, wanted, why, said)
        set_measure(first, got if side == first else 10 - got)

    for first, value in _measures(measures, data).items():
        set_measure(first, value)
    for text in shifts:
        side, delta = _shift(text, data)
        move(side, delta, f"--shift {text.strip()}")
    if credit is not None:
        events.append({"kind": "credit_set", "char": who, "value": _credit(credit, data)})
    events += _entries_set(char, data, traits, reps, items)
    for text in exps:
        exp, side = _exp(text, data)
        if exp in char["exps"]:
            raise BadInput(f"{who} already has the Experience {exp!r}")
        events.append({"kind": "exp_added", "char": who, "exp": exp, "measure": side})
        move(side, 1, f"the Experience {exp!r}")
    for text in drop:
        section, entry = _entry(char, text)
        events.append({"kind": "entry_dropped", "char": who, "section": section, "name": entry})
    if player is not None:
        events.append({"kind": "player_set", "char": who, "player": player.strip() or None})
    if weapon is not None or fight_traits:
        events.append(_usual_set(char, events, weapon, fight_traits))
    if not events:
        raise BadInput("nothing to change: give --measure, --shift, --credit, --trait, --rep, "
                       "--item, --exp, --drop, --player, --weapon or --fight-trait")
    return events


def _shift(text: str, data: FateData) -> tuple[str, int]:
    """``temperate+2``: a Measure side and a change."""
    found = re.match(r"^\s*(.+?)\s*([+-]\d+)\s*$", text)
    if not found:
        raise BadInput(f"shift {text!r}: write a Measure and a change, e.g. temperate+2")
    return side_name(found[1], data), int(found[2])


def _stop(data: FateData, whose: str, side: str, wanted: int, why: str, said: list[str]) -> int:
    """``wanted`` kept within a side's range; where it stops, a line in ``said`` says so."""
    first, second = data.pair_of(side)
    low, high = data.creation["measure_min"], data.creation["measure_max"]
    got = max(low, min(high, wanted))
    if got != wanted:
        other = second if side == first else first
        said.append(f"{whose} would be {wanted} by {why}: it stops at {got} "
                    f"({side} {got} / {other} {10 - got}; a side runs {low}-{high})")
    return got


def _entries_set(char: Char, data: FateData, traits: Sequence[str], reps: Sequence[str],
                 items: Sequence[str]) -> list[CharEvent]:
    """The Traits, Reputations and items an edit sets, in that order; a Reputation keeps the
    spelling it has."""
    who = char["name"]
    events: list[CharEvent] = []
    for text in traits:
        trait, bonus, cost = _trait(text, data)
        events.append({"kind": "trait_set", "char": who, "trait": trait, "bonus": bonus,
                       "cost": cost})
    for text in reps:
        rep, value = _rep(text, data)
        existing = [r for r in char["reps"] if r.lower() == rep.lower()]
        events.append({"kind": "rep_set", "char": who, "rep": existing[0] if existing else rep,
                       "value": value})
    for text in items:
        item, value = _item(text, data)
        events.append({"kind": "item_set", "char": who, "item": item, "value": value})
    return events


def _usual_set(char: Char, events: Sequence[CharEvent], weapon: str | None,
               fight_traits: Sequence[str]) -> CharEvent:
    """The usual weapon and fight Traits, checked against the items and Traits as this edit's
    ``events`` leave them."""
    after = copy.deepcopy(char)
    for event in events:
        if event["kind"] == "item_set":
            after["items"][event["item"]] = event["value"]
        elif event["kind"] == "trait_set":
            after["traits"][event["trait"]] = {"bonus": event["bonus"], "cost": event["cost"]}
    return {"kind": "usual_set", "char": char["name"], **usual(after, weapon, fight_traits)}


def _entry(char: Char, text: str) -> tuple[str, str]:
    pool = {**dict.fromkeys(char["traits"], "traits"), **dict.fromkeys(char["reps"], "reps"),
            **dict.fromkeys(char["items"], "items"), **dict.fromkeys(char["exps"], "exps")}
    what = f"Trait, Reputation, item or Experience of {char['name']}"
    entry = match_person(text, pool, what=what)
    return pool[entry], entry
