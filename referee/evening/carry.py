"""The next evening, set up from a closed one (R41, R42): GM requests -> the new file's events.

``next_evening`` takes the last evening's State (its ceremony closed), the GM's words (who is
absent, who is the Fool, what changes at the seats) and the new scenario the CLI loaded, and
returns the first event of the new evening: an ``evening_continued`` that seats the members
present as ``evening_created`` would, and carries every soul where it ended, the clues and
guesses of the bottled ones, the dead, the roster and the last evening's final digest (R43).
``fate_events`` carries the Card of Fate characters into the new file's ``fate`` stream.

Pure: the caller reads both files and writes the new one.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from referee.errors import BadInput, IllegalAction
from referee.evening import commands, roster
from referee.evening.events import EveningContinued, PreviousEvening, SoulRecord
from referee.evening.folds import replay
from referee.evening.lookup import SeatSpec
from referee.evening.souls import setup_from_scenario
from referee.evening.state import Seat, State, require_evening
from referee.names import check_name, plural, quoted
from referee.rules.cards import MAJOR_NAMES, parse_arcanum, to_roman
from referee.said import Suggest, said
from referee.streams import Event, plain

if TYPE_CHECKING:
    from referee.evening.events import ScenarioContent
    from referee.rules.fate.fold import State as FateState
    from referee.rules.scenario import Scenario

#: ``--seat NAME:::-``: the stakeholder sits without an assistant tonight.
NO_ASSISTANT = "-"
USAGE = ("write NAME[:ARCANUM]:COLOUR[:ASSISTANT[:ARCANUM]], leaving out what carries: "
         "'Flo::purple', 'Ed:::Cy:IV', 'Ed:::-' (no assistant), or a newcomer in a vacant "
         "Arcanum, 'Zoe:VII:pink'")


@dataclass(frozen=True)
class SeatChange:
    """One ``next --seat``: what changes at a seat; None is "as it was" (R41)."""

    name: str
    arcanum: int | None = None
    colour: str | None = None
    assistant: str | None = None        # NO_ASSISTANT: none tonight
    assistant_arcanum: int | None = None


def parse_change(text: str) -> SeatChange:
    """``"Flo::purple"`` -> SeatChange("Flo", colour="purple"); one clear error otherwise.

    >>> parse_change("Ed:::Cy:IV")
    SeatChange(name='Ed', arcanum=None, colour=None, assistant='Cy', assistant_arcanum=4)
    """
    parts = [p.strip() for p in text.split(":")]
    if len(parts) > 5 or not parts[0]:
        raise BadInput(f"bad seat {text!r}; {USAGE}")
    parts += [""] * (5 - len(parts))
    name = check_name(parts[0], "stakeholder's name")  # E42
    assistant = parts[3] or None
    if assistant is not None and assistant != NO_ASSISTANT:
        assistant = check_name(assistant, "assistant's name")
    return SeatChange(name, parse_arcanum(parts[1]) if parts[1] else None,
                      parts[2].lower() or None, assistant,
                      parse_arcanum(parts[4]) if parts[4] else None)


def _known(last: State) -> list[str]:
    """Everyone the last evening knew: its people and the members of its roster."""
    return list(dict.fromkeys([*last.people, *roster.numbers(_closed(last)).values()]))


def _closed(last: State) -> dict[str, str]:
    assert last.ceremony is not None
    found: dict[str, str] = last.ceremony["roster"]
    return found


def _canonical(name: str, known: list[str]) -> str | None:
    return next((k for k in known if k.lower() == name.lower()), None)


def next_evening(last: State, *, previous: PreviousEvening, scenario: Scenario, now: float,
                 fool: str | None = None, absent: Sequence[str] = (),
                 changes: Sequence[SeatChange] = ()) -> list[EveningContinued]:
    """The first event of the evening after ``last`` (R41, R42, R43).

    Args:
        last: the last evening, its ceremony closed.
        previous: the link to it: its file name, final digest, creation time and events.
        scenario: the new evening's scenario (its new bottled souls and power set).
        now: the new evening's time.
        fool: tonight's Fool (default: the holder of 0).
        absent: members and assistants of the last evening not here tonight.
        changes: ``--seat`` changes of colour or assistant, and newcomers in vacant Arcana.

    Raises:
        RefereeError: the last evening is not closed, a name is unknown, dead or twice, the
            seats do not make a table, or the scenario has too few new souls.
    """
    require_evening(last)
    if not roster.is_closed(last):
        raise IllegalAction(said("this evening's ceremony is not closed: ",
                                 Suggest(("ceremony", "close")), " records the roster the next "
                                 "evening starts from (R40, R41)"), ruling="R41")
    closed = roster.numbers(_closed(last))
    members = set(closed.values())
    known = _known(last)
    dead = roster.dead(last)
    gone = _absent(absent, known, dead)
    fool_name = _fool(fool, closed, known, dead, gone)
    by_name = _by_name(changes, known)
    table = dict(closed)
    for name, change in by_name.items():
        if name not in members:
            table[_newcomer(change, closed, dead, gone, fool_name)] = name
    away = {**dict.fromkeys(gone, "named absent (--absent)"), fool_name: "tonight's Fool"}
    _none_away(by_name, away)
    seats = [_seat(last, name, arcanum, by_name.get(name), known, table, dead, away)
             for arcanum, name in sorted(table.items()) if arcanum != 0 and name not in away]
    commands.check_seat_count(len(seats))
    _one_side_each(seats, by_name)
    souls, content, seen = _souls(last, scenario, seats, table)
    sheets = _sheets(last, seats, content["clues"], {s["key"] for s in souls})
    carried = {s["key"] for s in souls if s["kind"] == "bottled"}
    # Fresh chips, no Charges, the new scenario's powers; the settings carry (E113).
    base = commands.new_evening(State(), fool_name, seats, now=now, force=False,
                                scenario=content, souls=souls, settings=dict(last.settings))[0]
    event: EveningContinued = {
        **base, "kind": "evening_continued", "previous": PreviousEvening(**previous),
        "evening": int(last.season.get("evening", 1)) + 1,
        "roster": roster.numerals(table),
        "absent": gone, "dead": sorted(dead),
        "studies": {a: {k: n for k, n in done.items() if k in carried}
                    for a, done in last.studies.items()
                    if any(k in carried for k in done)},
        "guesses": [plain(g) for g in last.guesses if g["soul"] in carried],
        "sheets": sheets, "seen": seen,
    }
    replay(State(), [event])
    return [event]


def _by_name(changes: Sequence[SeatChange], known: list[str]) -> dict[str, SeatChange]:
    """The ``--seat`` changes by the name each is for, spelt as the evening knows it."""
    by_name: dict[str, SeatChange] = {}
    for change in changes:
        name = _canonical(change.name, known) or change.name
        if name in by_name:
            raise BadInput(f"--seat {name} is given twice; one --seat per stakeholder")
        by_name[name] = dataclasses.replace(change, name=name)
    return by_name


def _none_away(by_name: dict[str, SeatChange], away: dict[str, str]) -> None:
    """No ``--seat`` for one who holds no seat tonight (R41): named absent, or the Fool."""
    for name in by_name:
        if name in away:
            raise IllegalAction(f"--seat {name}: {name} is {away[name]} and holds no seat tonight "
                                "(R41)", ruling="R41")


def _absent(texts: Sequence[str], known: list[str], dead: set[str]) -> list[str]:
    from referee.names import match_name

    out: list[str] = []
    for text in texts:
        name = match_name(text, [k for k in known if k not in dead] or known,
                          "person of the last evening")
        if name not in out:
            out.append(name)
    return out


def _fool(fool: str | None, closed: dict[int, str], known: list[str], dead: set[str],
          gone: list[str]) -> str:
    if fool is None:
        if 0 not in closed:
            raise IllegalAction("0 The Fool is vacant after the ceremony: name tonight's Fool "
                                "with --fool NAME (R41)", ruling="R41")
        name = closed[0]
    else:
        name = _canonical(check_name(fool, "Fool's name"), known) or check_name(fool,
                                                                             "Fool's name")
    if name in dead:
        raise IllegalAction(f"{name} is dead (their soul was smashed): the dead are never seated "
                            "again (R22, R42)", ruling="R42")
    if name in gone:
        raise IllegalAction(f"{name} is tonight's Fool, yet named absent: name another Fool with "
                            "--fool NAME, or leave them out of --absent (R41)", ruling="R41")
    return name


def _newcomer(change: SeatChange, closed: dict[int, str], dead: set[str], gone: list[str],
              fool: str) -> int:
    """A newcomer's Arcanum: a vacant one on the roster (E108)."""
    name = change.name
    if name in dead:
        raise IllegalAction(f"{name} is dead (their soul was smashed): the dead are never seated "
                            "again (R22, R42)", ruling="R42")
    if change.arcanum is None or change.colour is None:
        raise BadInput(f"--seat {change.name}: {name} holds no Arcanum on the roster; a newcomer "
                       f"takes a vacant one, with a colour: --seat {quoted(name)}:ARCANUM:COLOUR "
                       "(E108)", ruling="E108")
    if change.arcanum == 0:
        raise BadInput("Arcanum 0 is the Fool's: a newcomer takes another vacant Arcanum (E108)",
                       ruling="E108")
    if change.arcanum in closed:
        raise IllegalAction(f"{to_roman(change.arcanum)} {MAJOR_NAMES[change.arcanum]} is held by "
                            f"{closed[change.arcanum]}: a newcomer takes a vacant Arcanum, and "
                            "the roster changes hands only at a ceremony (R40, E108)",
                            ruling="E108")
    return change.arcanum


def _one_side_each(seats: Sequence[SeatSpec], by_name: dict[str, SeatChange]) -> None:
    """An assistant serves one side (R41): one carried from the last evening and named again
    for another seat is told how to move them, instead of only that a name is used twice."""
    assisted: dict[str, str] = {}
    for seat in seats:
        if seat.assistant is None:
            continue
        first = assisted.setdefault(seat.assistant.lower(), seat.name)
        if first == seat.name:
            continue
        helper = seat.assistant
        kept = [n for n in (first, seat.name) if by_name.get(n) is None
                or by_name[n].assistant is None]
        if not kept:
            raise BadInput(f"{helper} is named assistant of both {first} and {seat.name}; an "
                           "assistant serves one side: name another for one of them (R41)",
                           ruling="R41")
        old = kept[0]
        new = seat.name if old == first else first
        raise BadInput(f"{helper} assists {old} (carried from the last evening) and is named "
                       f"for {new} (--seat): an assistant serves one side; to move {helper}, "
                       f"add --seat {quoted(old)}:::- (or {quoted(old)}:::NAME:ARCANUM for "
                       "another assistant) (R41)", ruling="R41")


def _seat(last: State, name: str, arcanum: int, change: SeatChange | None, known: list[str],
          table: dict[int, str], dead: set[str], away: dict[str, str]) -> SeatSpec:
    """A member's seat tonight: their colour and assistant carried unless changed (R41)."""
    before = next((s for s in last.seats if s.name == name), None)
    if change is not None and change.arcanum is not None and change.arcanum != arcanum:
        raise IllegalAction(f"{name} holds {to_roman(arcanum)} on the roster, not "
                            f"{to_roman(change.arcanum)}: the roster changes only at a ceremony "
                            "(R40)", ruling="R40")
    colour = (change.colour if change else None) or (before.colour if before else None)
    if colour is None:
        raise BadInput(f"{name} now holds {to_roman(arcanum)} {MAJOR_NAMES[arcanum]} and sits as a "
                       f"stakeholder for the first time: give their colour, --seat "
                       f"{quoted(name)}::COLOUR (R41)", ruling="R41")
    wanted = change.assistant if change else None
    if wanted == NO_ASSISTANT:
        return SeatSpec(name, arcanum, colour)
    if wanted is None:  # carried, if they can still assist
        helper = _carried_helper(before, table, dead, away)
        if helper is None:
            return SeatSpec(name, arcanum, colour)
    else:
        helper = _named_helper(_canonical(wanted, known) or wanted, name, table, dead, away)
    arc = change.assistant_arcanum if change else None
    if arc is None:
        arc = next((s.assistant_arcanum for s in last.seats if s.assistant == helper), None)
    if arc is None:
        raise BadInput(f"{name}'s assistant {helper} needs an Arcanum for their starting status "
                       f"point (R27): --seat {quoted(name)}:::{quoted(helper)}:ARCANUM",
                       ruling="R27")
    return SeatSpec(name, arcanum, colour, helper, arc)


def _souls(last: State, scenario: Scenario, seats: list[SeatSpec], table: dict[int, str],
           ) -> tuple[list[SoulRecord], ScenarioContent, list[str]]:
    """Every soul not destroyed, where it ended (R42); an own soul for a stakeholder who has
    none; one new bottled soul per stakeholder, from the scenario's souls new to the season."""
    seen = list(dict.fromkeys([*last.season.get("seen", []),
                               *(s.key for s in last.souls if s.kind == "bottled")]))
    names = {s.identity.lower() for s in last.souls if s.kind == "bottled"}
    fresh = tuple(spec for spec in scenario.souls  # none seen in the season before (E113)
                  if spec.label not in seen and spec.name.lower() not in names)
    if len(fresh) < len(seats):
        raise BadInput(f"the scenario {scenario.source} has {plural(len(fresh), 'soul')} new "
                       f"to the season for {len(seats)} stakeholders; the next evening "
                       "needs one new bottled soul each (R42): give another scenario with "
                       "--scenario FILE",
                       ruling="R42")
    setup = setup_from_scenario(dataclasses.replace(scenario, souls=fresh), seats)
    souls = _kept_souls(last, table)
    owners = {s["owner"] for s in souls if s["kind"] == "own"}
    souls += [s for s in setup["souls"] if s["kind"] == "bottled" or s["owner"] not in owners]
    content = setup["scenario"]
    carried = {s.key for s in last.souls if s.kind == "bottled" and not s.destroyed}
    content["clues"] = {**{k: v for k, v in last.scenario.get("clues", {}).items()
                           if k in carried}, **content["clues"]}
    seen += [spec.label for spec in fresh[: len(seats)]]
    return souls, content, seen


def _carried_helper(before: Seat | None, table: dict[int, str], dead: set[str],
                    away: dict[str, str]) -> str | None:
    """Last evening's assistant of the seat, if they can still assist (R41)."""
    helper = before.assistant if before else None
    if helper is None or helper in dead or helper in away or helper in table.values():
        return None
    return helper


def _named_helper(helper: str, name: str, table: dict[int, str], dead: set[str],
                  away: dict[str, str]) -> str:
    """The assistant named for ``name``'s seat, if they can assist tonight (R41, R42)."""
    if helper in dead:
        raise IllegalAction(f"{helper} is dead (their soul was smashed): the dead are never "
                            "seated again (R22, R42)", ruling="R42")
    if helper in away:
        raise IllegalAction(f"{helper} is {away[helper]} and cannot assist {name} (R41)",
                            ruling="R41")
    if helper in table.values():
        raise IllegalAction(f"{helper} holds an Arcanum and sits as a stakeholder, not as "
                            f"{name}'s assistant (R41)", ruling="R41")
    return helper


def _kept_souls(last: State, table: dict[int, str]) -> list[SoulRecord]:
    """The last evening's souls that go on (R42), an own soul attuned to its owner's Arcanum
    tonight (E106)."""
    arcanum_of = {name: a for a, name in table.items()}
    souls: list[SoulRecord] = []
    dead = roster.dead(last)
    for soul in last.souls:
        # Smashed and consumed souls are gone (R42); a consumed own soul is kept on record,
        # destroyed, for its living owner has no soul and still 3 points fewer (R27, E106).
        if soul.destroyed and not (soul.kind == "own" and soul.owner not in dead):
            continue
        record: SoulRecord = plain(soul)
        if soul.kind == "own" and soul.owner in arcanum_of:
            record["arcanum"] = arcanum_of[soul.owner]  # attuned to its owner's Arcanum (E106)
        souls.append(record)
    return souls


def _sheets(last: State, seats: list[SeatSpec], clues: dict[str, dict[str, list[str]]],
            keys: set[str]) -> dict[str, dict[str, int]]:
    """Which clue sheet each assistant reads for each carried bottled soul (E107): the one
    they read before (their side's seat number then); an assistant new to a soul gets a sheet
    nobody in the season has read, their own seat's number when it is free."""
    sheets: dict[str, dict[str, int]] = {a: {k: n for k, n in m.items() if k in keys}
                                         for a, m in last.season.get("sheets", {}).items()}
    carried = [s.key for s in last.souls if s.kind == "bottled" and s.key in keys]
    for number, before in enumerate(last.seats, 1):
        if before.assistant:
            mine = sheets.setdefault(before.assistant, {})
            for key in carried:
                mine.setdefault(key, number)
    for number, spec in enumerate(sorted(seats, key=lambda s: s.arcanum), 1):
        if spec.assistant:
            _new_sheets(sheets, spec.assistant, number, carried, clues)
    return {a: m for a, m in sheets.items() if m}


def _new_sheets(sheets: dict[str, dict[str, int]], assistant: str, number: int,
                carried: list[str], clues: dict[str, dict[str, list[str]]]) -> None:
    """An assistant's sheet for each carried soul they have not read: their seat's
    ``number`` when nobody has read it, else the first nobody has (E107)."""
    mine = sheets.setdefault(assistant, {})
    for key in carried:
        if key in mine:
            continue
        there = sorted(int(n) for n in clues.get(key, {}))
        used = {m[key] for m in sheets.values() if key in m}
        free = [n for n in there if n not in used]
        mine[key] = number if number in free else (free[0] if free else number)


def fate_events(last_fate: FateState) -> list[Event]:
    """The Card of Fate characters into the next evening's ``fate`` stream (R42): each as it
    stands, Measures, checks, Reputations, wounds, healing and infection; the tables and the
    deck with them (F19). A duel under way ends with its evening (E109)."""
    if last_fate.get("duel"):
        raise IllegalAction(said("a duel is under way at the Card of Fate table: end it (",
                                 Suggest(("fate", "duel", "end")), ") before the next evening "
                                 "(E109)"), ruling="E109")
    if not last_fate.get("chars"):
        return []
    events: list[Event] = []
    if last_fate.get("tables") is not None:
        events.append({"kind": "tables_set", "tables": copy.deepcopy(last_fate["tables"])})
    deck = last_fate.get("settings", {}).get("deck", "standard")
    if deck != "standard":
        events.append({"kind": "deck_set", "deck": deck})
    events += [{"kind": "char_created", "char": copy.deepcopy(char)}
               for char in last_fate["chars"].values()]
    return events
