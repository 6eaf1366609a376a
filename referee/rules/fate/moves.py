"""The Card of Fate's moves as the table's API makes them (``referee.table.api.MOVES``).

Each takes the ``fate`` stream's state and a command's typed arguments by name, lets the
rules decide (``actions``, ``characters``, ``duel``: an ``Outcome``) and returns the events
to record: the tables first when the stream has none yet (``tables``, those of
``data/fate.toml``, F19), the rules' events, then the lines the Host read (F21); nothing when
the rules recorded nothing. ``told``, when given, receives the rules' ``Outcome`` (the lines
and the report), also when nothing is recorded, for the caller to show. ``drawn`` reads back
the seed the console drew, for the move's words (F3).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from referee.errors import InvariantViolation
from referee.rules.fate import actions, characters
from referee.rules.fate import dealer as dealing
from referee.rules.fate import duel as duels
from referee.rules.fate.dealer import NOTHING_TYPED, Outcome, Typed
from referee.rules.fate.fold import State, apply
from referee.rules.fate.tables import tables as tables_of
from referee.rules.fate.tables import tables_event

if TYPE_CHECKING:
    from referee.jsontypes import JSONObject
    from referee.rules.fate.events import FateEvent
    from referee.rules.fate.pools import PoolSpec


def recorded(state: State, decide: Callable[[State], Outcome], tables: JSONObject | None,
             told: list[Outcome] | None) -> list[FateEvent]:
    """The events of ``decide(state)``, the tables before them when the stream has none (F19)
    and the lines the Host read after them (F21); the outcome into ``told``.

    Raises:
        InvariantViolation: the stream has no tables and none were given.
    """
    pre: list[FateEvent] = []
    if state.get("tables") is None:
        if tables is None:
            raise InvariantViolation("the fate stream has no tables: give those of "
                                     "data/fate.toml with its first move (F19)")
        event = tables_event(copy.deepcopy(tables))
        state = apply(copy.deepcopy(state), event)
        pre.append(event)
    outcome = decide(state)
    if told is not None:
        told.append(outcome)
    if not outcome.events:
        return []
    return [*pre, *outcome.events, {"kind": "said", "lines": list(outcome.lines)}]


def drawn(events: Sequence[FateEvent]) -> dict[str, int]:
    """The seed the console drew for a test, a fight, a drink, a heal or a growth, which its
    words say so that retyping them turns the same cards (F3); nothing for cards typed in."""
    for event in events:
        if event["kind"] == "drawn" and event["seed"] is not None:
            return {"seed": event["seed"]}
    return {}


# -- settings and characters --------------------------------------------------------------------


def set_deck(state: State, *, kind: str, tables: JSONObject | None = None,
             told: list[Outcome] | None = None) -> list[FateEvent]:
    """`fate deck KIND`: standard or tarot (R35)."""
    return recorded(state, lambda s: dealing.set_deck(s, kind), tables, told)


def new_character(state: State, *, name: str, npc: bool = False, measures: Sequence[str] = (),
                  credit: int | None = None, traits: Sequence[str] = (),
                  reps: Sequence[str] = (), exps: Sequence[str] = (),
                  items: Sequence[str] = (), player: str | None = None,
                  weapon: str | None = None, fight_traits: Sequence[str] = (),
                  tables: JSONObject | None = None,
                  told: list[Outcome] | None = None) -> list[FateEvent]:
    """`fate char new`: a character within the creation budgets (F15); the report holds it
    as ``--json`` shows it and what its budgets left."""

    def decide(s: State) -> Outcome:
        data = tables_of(s)
        events = characters.new_character(
            s, name, npc=npc, measures=measures, credit=credit, traits=traits, reps=reps,
            exps=exps, items=items, player=player, weapon=weapon, fight_traits=fight_traits)
        char = events[0]["char"]
        left = characters.budget_left(char, data)
        lines = [f"Created {char['name']}" + (" (Host's character)" if npc else "") + "."]
        if not npc and any(left.values()):
            lines.append(f"Unspent: {left['points']} Measure/Credit points, {left['experiences']}"
                         f" Experiences, {left['trait_points']} Trait points.")
        return Outcome([*events], {"char": characters.char_json(char, data), "unspent": left},
                       lines)

    return recorded(state, decide, tables, told)


def edit_character(state: State, *, name: str, measures: Sequence[str] = (),
                   shifts: Sequence[str] = (), credit: int | None = None,
                   traits: Sequence[str] = (), reps: Sequence[str] = (),
                   exps: Sequence[str] = (), items: Sequence[str] = (),
                   drop: Sequence[str] = (), player: str | None = None,
                   weapon: str | None = None, fight_traits: Sequence[str] = (),
                   tables: JSONObject | None = None,
                   told: list[Outcome] | None = None) -> list[FateEvent]:
    """`fate char edit`: changes after creation (no budgets); the report names the character,
    its changes and the notes on sides stopped at 1 or 9."""

    def decide(s: State) -> Outcome:
        notes: list[str] = []
        events = characters.edit_character(
            s, name, measures=measures, shifts=shifts, credit=credit, traits=traits,
            reps=reps, exps=exps, items=items, drop=drop, player=player, weapon=weapon,
            fight_traits=fight_traits, notes=notes)
        who = events[0]["char"]
        return Outcome([*events], {"char": who, "events": events, "notes": notes},
                       [f"{who}: {len(events)} change{'s' if len(events) != 1 else ''}.",
                        *notes])

    return recorded(state, decide, tables, told)


# -- tests and fights ---------------------------------------------------------------------------


def opposed(state: State, a: PoolSpec, b: PoolSpec | None, static: str | None, *,
            typed: Typed = NOTHING_TYPED, seed: int | None = None,
            deck: str | None = None) -> Outcome:
    """A test of side ``a`` against ``b``, or against the ``static`` level (F28)."""
    if static is not None:
        b = actions.static_pool(state, static)
    if b is None:
        raise InvariantViolation("a test needs an opposition: a pool or a static level")
    return actions.run_test(state, a, b, typed=typed, seed=seed, deck=deck)


def run_test(state: State, *, a: PoolSpec, b: PoolSpec | None = None,
             static: str | None = None, typed: Typed = NOTHING_TYPED, seed: int | None = None,
             deck: str | None = None, tables: JSONObject | None = None,
             told: list[Outcome] | None = None) -> list[FateEvent]:
    """`fate test` with a character taking part (R36): ``opposed``."""
    return recorded(state, lambda s: opposed(s, a, b, static, typed=typed, seed=seed,
                                             deck=deck), tables, told)


def fight(state: State, *, a: str, b: str, a_weapon: str | None = None,
          b_weapon: str | None = None, a_traits: tuple[str, ...] = (),
          b_traits: tuple[str, ...] = (), a_reps: tuple[str, ...] = (),
          b_reps: tuple[str, ...] = (), unaware: str | None = None, static: str | None = None,
          typed: Typed = NOTHING_TYPED, seed: int | None = None, deck: str | None = None,
          tables: JSONObject | None = None,
          told: list[Outcome] | None = None) -> list[FateEvent]:
    """`fate fight`: one full combat in one draw (R37, F8, F29)."""
    return recorded(state, lambda s: actions.fight(
        s, a, b, a_weapon=a_weapon, b_weapon=b_weapon, a_traits=a_traits, b_traits=b_traits,
        a_reps=a_reps, b_reps=b_reps, unaware=unaware, static=static, typed=typed, seed=seed,
        deck=deck), tables, told)


def drink(state: State, *, name: str, strength: int, traits: tuple[str, ...] = (),
          typed: Typed = NOTHING_TYPED, seed: int | None = None, deck: str | None = None,
          tables: JSONObject | None = None,
          told: list[Outcome] | None = None) -> list[FateEvent]:
    """`fate drink`: Bohemian against the drink (F12, F25)."""
    return recorded(state, lambda s: actions.drink(s, name, strength, traits=traits,
                                                   typed=typed, seed=seed, deck=deck),
                    tables, told)


def heal(state: State, *, name: str, area: str, measure: str, traits: tuple[str, ...] = (),
         typed: Typed = NOTHING_TYPED, seed: int | None = None, deck: str | None = None,
         tables: JSONObject | None = None,
         told: list[Outcome] | None = None) -> list[FateEvent]:
    """`fate heal`: convalescence, a test of ``measure`` for ``area`` (F13, F30)."""
    return recorded(state, lambda s: actions.heal(s, name, area, measure, traits=traits,
                                                  typed=typed, seed=seed, deck=deck),
                    tables, told)


def check(state: State, *, name: str, measure: str, tables: JSONObject | None = None,
          told: list[Outcome] | None = None) -> list[FateEvent]:
    """`fate check`: the character acted by ``measure`` when it mattered."""
    return recorded(state, lambda s: actions.check(s, name, measure), tables, told)


def grow(state: State, *, name: str, measure: str, typed: Typed = NOTHING_TYPED,
         seed: int | None = None, deck: str | None = None, tables: JSONObject | None = None,
         told: list[Outcome] | None = None) -> list[FateEvent]:
    """`fate grow`: a week of soul-searching; failing the test, ``measure`` grows (F14)."""
    return recorded(state, lambda s: actions.grow(s, name, measure, typed=typed, seed=seed,
                                                  deck=deck), tables, told)


# -- duels --------------------------------------------------------------------------------------


def duel_start(state: State, *, kind: str, a: str, b: str, to: str | None = None,
               a_weapon: str | None = None, b_weapon: str | None = None,
               a_traits: tuple[str, ...] = (), b_traits: tuple[str, ...] = (),
               seed: int | None = None, deck: str | None = None,
               typed: Typed = NOTHING_TYPED, tables: JSONObject | None = None,
               told: list[Outcome] | None = None) -> list[FateEvent]:
    """`fate duel pistols` and `fate duel swords` (``kind``): a duel starts (F10, F11)."""
    return recorded(state, lambda s: duels.duel_start(
        s, kind, a, b, to=to, a_weapon=a_weapon, b_weapon=b_weapon, a_traits=a_traits,
        b_traits=b_traits, seed=seed, deck=deck, typed=typed), tables, told)


def duel_phase(state: State, *, choice_a: str, choice_b: str, typed: Typed = NOTHING_TYPED,
               tables: JSONObject | None = None,
               told: list[Outcome] | None = None) -> list[FateEvent]:
    """`fate duel phase`: one pistol phase, both duellists' choices (F10)."""
    return recorded(state, lambda s: duels.duel_phase(s, choice_a, choice_b, typed),
                    tables, told)


def duel_round(state: State, *, typed: Typed = NOTHING_TYPED, tables: JSONObject | None = None,
               told: list[Outcome] | None = None) -> list[FateEvent]:
    """`fate duel round`: one round of the sword duel (F11)."""
    return recorded(state, lambda s: duels.duel_round(s, typed), tables, told)


def duel_surrender(state: State, *, name: str, tables: JSONObject | None = None,
                   told: list[Outcome] | None = None) -> list[FateEvent]:
    """`fate duel surrender`: a sword duellist yields (F11)."""
    return recorded(state, lambda s: duels.duel_surrender(s, name), tables, told)


def duel_end(state: State, *, why: str, tables: JSONObject | None = None,
             told: list[Outcome] | None = None) -> list[FateEvent]:
    """`fate duel end`: the duel under way stops without a winner."""
    return recorded(state, lambda s: duels.duel_end(s, why), tables, told)
