"""The next evening from a closed one, through the core (``referee.evening.carry``; R41, R42,
E102, E106-E109, E113), and the season's books over random evenings (R43).

The property: over random evenings (souls given, smashed and consumed, chips moved, claims
heard), the next evening conserves every soul, none appearing or disappearing but by
smashing and consuming, and the season's money sums to its buy-ins.
"""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from referee.content.scenario import load_scenario
from referee.errors import IllegalAction, RefereeError
from referee.evening import carry, ceremony, commands, points, roster, souls
from referee.evening.state import CHIP_VALUE, CHIPS_PER_COLOUR, State
from referee.rules.cards import to_roman
from referee.rules.scenario import SoulSpec
from referee.season import Played, standings
from tests.profiles import examples
from tests.test_souls import fold

DEFAULT = load_scenario(None)
#: The default scenario and six souls more, so that any table can be carried on.
MORE = dataclasses.replace(DEFAULT, souls=(*DEFAULT.souls, *(
    SoulSpec(f"jar {i}", f"Someone Number{i}", (f"Number{i}",), 10 + i,
             {s: (f"jar {i} sheet {s} a", f"jar {i} sheet {s} b", f"jar {i} sheet {s} c")
              for s in range(1, 7)}) for i in range(1, 7))))
NAMES = ["Ada", "Cy", "Ed", "Gus", "Ivy"]
HELPERS = ["Ben", "Di", "Flo", "Hal", "Jo"]
COLOURS = ["red", "blue", "green", "yellow", "black", "white", "purple", "orange"]
PREVIOUS = {"file": "one.json", "digest": "0" * 64, "created": 0.0, "events": 1}


def try_(state: State, fn: Any, *args: Any, **kw: Any) -> State:
    """The state after the request, or as it was when the rules refuse it."""
    try:
        return fold(state, fn(state, *args, **kw))
    except RefereeError:
        return state


@st.composite
def evenings(draw: st.DrawFn) -> State:
    """A random first evening: two to four stakeholders, some with assistants."""
    n = draw(st.integers(2, 4))
    arcana = draw(st.lists(st.integers(1, 21), min_size=n, max_size=n, unique=True))
    seats = []
    for i in range(n):
        helper = f":{HELPERS[i]}:{to_roman(draw(st.integers(0, 21)))}" if draw(
            st.booleans()) else ""
        seats.append(f"{NAMES[i]}:{to_roman(arcana[i])}:{COLOURS[i]}{helper}")
    specs = [commands.parse_seat(s) for s in seats]
    setup = souls.setup_from_scenario(DEFAULT, specs)
    return fold(State(), commands.new_evening(State(), "Max", specs, now=1.0, force=False,
                                              **setup))


def play(draw: st.DrawFn, state: State, steps: int) -> State:
    """Random moves away from the table, each legal or refused: risings, chips given and
    settled, souls given, smashed and consumed."""
    for _ in range(steps):
        people = state.people
        move = draw(st.sampled_from(["rise", "rise", "chips", "settle", "soul", "soul",
                                     "smash", "consume", "plot"]))
        if move == "rise":
            state = try_(state, commands.rise, draw(st.sampled_from(state.stakeholders)))
        elif move == "plot":  # X's own soul to Y, who consumes another into X's Arcanum:
            x = draw(st.sampled_from(state.stakeholders))  # Y then has 3 there, X 2 (R28)
            y = draw(st.sampled_from([p for p in people if p != state.fool  # at the table
                                      and state.side_of(p) != x]))
            for who in (x, y):
                if who in state.stakeholders:
                    state = try_(state, commands.rise, who)
            state = try_(state, souls.give_soul, x, y, f"{x}'s soul")
            other = [s.key for s in state.souls if s.holder == y and s.owner != x]
            if other:
                state = try_(state, souls.consume, y, other[0],
                             to_roman(state.seat(x).arcanum))
        elif move in ("chips", "settle"):
            source = draw(st.sampled_from(people))
            held = sorted(state.holding(source).items())
            if not held:
                continue
            colour, most = draw(st.sampled_from(held))
            text = f"{colour}:{draw(st.integers(1, most))}"
            target = draw(st.sampled_from(people))
            state = try_(state, commands.give_chips, source, target, text) if move == "chips" \
                else try_(state, commands.settle_chips, source, target, text, "a ruling")
        else:
            alive = [s for s in state.souls if s.holder and s.holder in people]
            if move == "smash":  # a soul held by another, its owner attacking (R22)
                alive = [s for s in alive if s.kind == "own" and s.holder != s.owner]
            if not alive:
                continue
            soul = draw(st.sampled_from(alive))
            assert soul.holder is not None
            if move == "soul":
                state = try_(state, souls.give_soul, soul.holder,
                             draw(st.sampled_from(people)), soul.key)
            elif move == "smash":
                state = try_(state, souls.smash, soul.holder, soul.key)
            else:  # often into an Arcanum someone holds: a claim may come of it
                arcanum = draw(st.one_of(st.sampled_from([s.arcanum for s in state.seats]),
                                         st.integers(0, 21)))
                state = try_(state, souls.consume, soul.holder, soul.key, to_roman(arcanum))
    return state


def hold_ceremony(draw: st.DrawFn, state: State) -> State:
    """End the evening and hear random claims, then close (R40)."""
    if not state.over:
        state = fold(state, ceremony.end(state, now=2.0))
    for _ in range(draw(st.integers(1, 4))):
        listed = ceremony.claims(state)
        if listed and draw(st.integers(0, 3)):  # most often a claim that would succeed
            claim = draw(st.sampled_from(listed))
            who, arcanum = claim["person"], claim["arcanum"]
            how = getattr(ceremony, claim["how"]) if draw(st.integers(0, 3)) else \
                ceremony.decline
        else:  # anything at all, most often refused
            who = draw(st.sampled_from(state.people))
            arcanum = to_roman(draw(st.integers(0, 21)))
            how = draw(st.sampled_from([ceremony.promote, ceremony.switch, ceremony.decline]))
        state = try_(state, how, who, arcanum)
    return fold(state, ceremony.close(state, now=3.0))


def next_of(draw: st.DrawFn, last: State) -> State | None:
    """The next evening, with random absentees; None when no table can be made of it."""
    closed = roster.numbers(last.ceremony["roster"]) if last.ceremony else {}
    others = [name for a, name in closed.items() if a != 0]
    absent = draw(st.lists(st.sampled_from(others), unique=True, max_size=1)) if others else []
    used = {s.colour for s in last.seats}
    spare = iter(c for c in COLOURS if c not in used)
    stakeholders = {s.name for s in last.seats}
    changes = [carry.SeatChange(name, colour=next(spare)) for name in others
               if name not in stakeholders]  # a member new to a seat brings a colour (R41)
    try:
        events = carry.next_evening(last, previous=PREVIOUS, scenario=MORE, now=10.0,
                                    absent=absent, changes=changes)
    except RefereeError as exc:
        assert "seat" in str(exc), exc  # only too few seats may stop it here
        return None
    return fold(State(), events)


def souls_of(state: State) -> dict[str, tuple[Any, ...]]:
    return {s.key: (s.kind, s.holder, s.identity, s.owner) for s in state.souls}


@settings(max_examples=examples(30))
@given(st.data())
def test_r42_the_next_evening_conserves_every_soul(data: st.DataObject) -> None:
    first = data.draw(evenings())
    at_start = souls_of(first)
    last = hold_ceremony(data.draw, play(data.draw, first, data.draw(st.integers(0, 15))))
    # Within the evening no soul appears, and one disappears only by smashing or consuming.
    assert set(souls_of(last)) == set(at_start)
    gone = {s.key for s in last.souls if s.destroyed}
    assert gone == {s.key for s in last.souls if s.destroyed in ("smashed", "consumed")}
    nxt = next_of(data.draw, last)
    for what in ("smashed", "consumed"):
        if any(s.destroyed == what for s in last.souls):
            event(f"a soul {what}")
    if any(d["how"] != "decline" for d in last.ceremony["decisions"]):
        event("a claim won")
    if nxt is None:
        event("no table next")
        return
    if roster.unseated(nxt):
        event("a member sits out")
    kept = {k: v for k, v in souls_of(last).items() if k not in gone}
    carried = souls_of(nxt)
    # Every soul not destroyed is there, held where it ended; the destroyed ones are gone, or
    # (a living owner's consumed soul, E106) still destroyed.
    assert {k: carried[k] for k in kept} == kept
    assert all(k not in carried or nxt.soul(k).destroyed == "consumed" for k in gone)
    # What is new: one new bottled soul per stakeholder, and an own soul for a stakeholder
    # who had none, held by themselves.
    new = {k: v for k, v in carried.items() if k not in kept and k not in gone}
    bottled = [k for k, v in new.items() if v[0] == "bottled"]
    own = [v for v in new.values() if v[0] == "own"]
    assert len(bottled) == len(nxt.seats)
    assert all(v[1] == v[3] and v[3] in nxt.stakeholders for v in own)
    owners = [s.owner for s in nxt.souls if s.kind == "own"]
    assert all(owners.count(name) == 1 for name in nxt.stakeholders)
    # The dead are never seated again (R22, R42), and are remembered.
    dead = roster.dead(last)
    assert not dead & set(nxt.people) and dead <= set(nxt.season["dead"])
    # A soul still held by another keeps costing its owner 3 (R41).
    for soul in nxt.souls:
        if soul.kind == "own" and soul.owner in nxt.stakeholders and soul.holder is not None \
                and nxt.side_of(soul.holder) != soul.owner:
            assert any(p.person == soul.owner and p.points == -3
                       for p in points.sources(nxt)), soul.key
    # R43: the season's money sums to its buy-ins, over both evenings.
    second = play(data.draw, nxt, data.draw(st.integers(0, 10)))
    season = standings([Played("one.json", last), Played("two.json", second, "one.json")])
    sides = len(last.seats) + len(second.seats)
    assert season["totals"]["buy_ins"] == sides * CHIPS_PER_COLOUR * CHIP_VALUE
    assert season["totals"]["at_end"] + season["totals"]["in_pots"] == \
        season["totals"]["buy_ins"]
    assert sum(r["money"] for r in season["standings"]) == 0


# -- the rules one at a time ----------------------------------------------------------------------


SEATS = ["Ada:XVI:red:Ben:IX", "Cy:III:blue:Di:II", "Ed:VII:green:Flo:XVII"]


def closed_evening(*moves: tuple[Any, ...]) -> State:
    """The three-seat evening (Cy III seat 1, Ed VII seat 2, Ada XVI seat 3), everyone away
    from the table, ``moves`` applied, ended and closed."""
    specs = [commands.parse_seat(s) for s in SEATS]
    state = fold(State(), commands.new_evening(
        State(), "Max", specs, now=1.0, force=False, **souls.setup_from_scenario(DEFAULT, specs)))
    for who in ("Ada", "Cy", "Ed"):
        state = fold(state, commands.rise(state, who))
    for fn, *args in moves:
        state = fold(state, fn(state, *args))
    state = fold(state, ceremony.end(state, now=2.0))
    return state


def close(state: State) -> State:
    return fold(state, ceremony.close(state, now=3.0))


def test_e106_an_own_soul_follows_its_owner_and_costs_only_a_member() -> None:
    # Cy's soul to Flo, who then takes III from Cy (4 against 2) and Ada's own soul to Ed;
    # Ada moves nowhere. In the next evening Cy, out of the Major Arcana, assists Ed.
    last = close(fold(*_promoted()))
    events = carry.next_evening(last, previous=PREVIOUS, scenario=DEFAULT, now=9.0,
                                changes=[carry.SeatChange("Flo", colour="purple"),
                                         carry.SeatChange("Ed", assistant="Cy",
                                                          assistant_arcanum=4)])
    nxt = fold(State(), events)
    cy = nxt.soul("Cy's soul")
    assert (cy.holder, cy.arcanum) == ("Flo", 3)  # keeps III: Cy holds no Arcanum now
    assert not any(p.person == "Cy" and p.points == -3 for p in points.sources(nxt))
    # Cy's soul cannot be smashed tonight: Cy is no stakeholder (E19, E106).
    state = fold(nxt, commands.rise(nxt, "Flo"))
    with pytest.raises(IllegalAction, match="holds no seat"):
        souls.smash(state, "Flo", "Cy's soul")


def _promoted() -> tuple[State, list[Any]]:
    state = closed_evening((souls.give_soul, "Cy", "Flo", "Cy's soul"))
    return state, ceremony.promote(state, "Flo", "III")


def test_e107_an_assistant_keeps_their_sheet_and_a_newcomer_gets_a_free_one() -> None:
    last = close(closed_evening((souls.study, "Di", "cobalt")))
    # Di (sheet 1 last evening) now assists Ada in seat 3; Jo, new, assists Cy in seat 1.
    events = carry.next_evening(last, previous=PREVIOUS, scenario=MORE, now=9.0,
                                changes=[carry.SeatChange("Ada", assistant="Di"),
                                         carry.SeatChange("Cy", assistant="Jo",
                                                          assistant_arcanum=5)])
    nxt = fold(State(), events)
    sheets = nxt.season["sheets"]
    assert sheets["Di"]["the cobalt phial"] == 1
    # Sheets 1 (Di), 2 (Flo) and 3 (Ben) were read in the season: Jo in seat 1 gets 4.
    assert sheets["Jo"]["the cobalt phial"] == 4
    phial = nxt.scenario["clues"]["the cobalt phial"]
    assert souls.clue_sheet(nxt, "Di", "the cobalt phial") == phial["1"]
    assert nxt.studies["Di"] == {"the cobalt phial": 1}


def test_e109_a_duel_under_way_stops_the_next_evening() -> None:
    with pytest.raises(IllegalAction, match="duel is under way"):
        carry.fate_events({"chars": {"A": {}}, "duel": {"a": "A"}})
    assert carry.fate_events({"chars": {}, "duel": None}) == []
    events = carry.fate_events({"chars": {"Bob": {"name": "Bob", "areas": {"health":
                                                                          "maimed"}}},
                                "tables": {"t": 1}, "settings": {"deck": "tarot"},
                                "duel": None})
    assert [e["kind"] for e in events] == ["tables_set", "deck_set", "char_created"]
    assert events[2]["char"]["areas"] == {"health": "maimed"}


def test_e113_chips_charges_and_powers_do_not_carry() -> None:
    last = closed_evening((souls.guess, "Di", "cobalt", None, "I"))  # 1 Charge for Cy's side
    assert last.charges["Cy"] == 1
    nxt = fold(State(), carry.next_evening(close(last), previous=PREVIOUS, scenario=DEFAULT,
                                           now=9.0))
    assert nxt.charges == {"Cy": 0, "Ed": 0, "Ada": 0} and nxt.powers == {}
    assert all(nxt.stack(s.name) == CHIPS_PER_COLOUR for s in nxt.seats)
    assert nxt.guesses == [copy.deepcopy(g) for g in last.guesses]  # the guesses used carry
    # The souls seen in the season do not come in again as new (E113).
    assert [s.key for s in nxt.souls if s.kind == "bottled"][3:] == [
        "the bottle sealed with black wax", "the smoked-glass flask", "the gilded decanter"]
