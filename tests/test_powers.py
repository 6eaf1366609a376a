"""Powers as data and as events (S11-S30): the vocabulary the loader checks, and random hands
with random power uses, legal and not, through the pure commands and through the console."""

from __future__ import annotations

import copy
import json
import pickle
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule
from typer.testing import CliRunner

from referee.content.scenario import data_file, load_powers, validate_powers
from referee.errors import RefereeError
from referee.evening import betting, commands, play, power_moves, souls
from referee.evening import showdown as showdowns
from referee.evening.folds import apply
from referee.evening.powers import use as powers
from referee.evening.state import CHIPS_PER_COLOUR, POT, State, dump
from referee.rules.cards import parse_card, to_roman
from referee.rules.power_vocab import EFFECTS, TIMINGS, check
from referee.streams import Event
from tests.profiles import examples
from tests.test_souls import AMBER, COBALT, FOOL, GREEN, evening, fold

STAKEHOLDERS = ["Cara", "Eve", "Ada"]


# -- the vocabulary (S12) -----------------------------------------------------------------------


def test_s12_every_default_power_declares_a_timing_and_an_effect() -> None:
    power_set = load_powers()
    assert {p.timing for p in power_set} <= set(TIMINGS)
    assert {p.effect["kind"] for p in power_set} <= set(EFFECTS)
    assert all(not check(p.timing, p.effect) for p in power_set)
    assert sum(p.effect["kind"] == "counts_as" for p in power_set) == len(power_set.magic)


def _custom(tmp_path: Path, old: str, new: str) -> Path:
    text = data_file("powers.toml").read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "powers.toml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


BAD = {
    "unknown kind": ('effect = { kind = "fold" }', 'effect = { kind = "fould" }',
                     "powers[2].effect.kind: 'fould' is no effect"),
    "unknown timing": ('timing = "own_turn"\neffect = { kind = "fold" }',
                       'timing = "my_turn"\neffect = { kind = "fold" }',
                       "powers[2].timing: 'my_turn' is no timing"),
    "bad value": ('{ kind = "opener", who = "self" }', '{ kind = "opener", who = "me" }',
                  "powers[16].effect.who: 'me' is not one of self, lowest"),
    "unknown parameter": ('{ kind = "fold" }', '{ kind = "fold", chips = 2 }',
                          "powers[2].effect.chips: unknown for fold"),
    "wrong moment": ('timing = "answer_power"', 'timing = "any_time"',
                     "powers[24].timing: cancel is played in answer"),
    "missing": ('timing = "own_turn"\neffect = { kind = "fold" }\n', "",
                "powers[2].timing: missing"),
    "missing parameter": ('{ kind = "reveal", who = "target" }', '{ kind = "reveal" }',
                          "powers[39].effect.who: missing; reveal needs who"),
    "out of range": ('{ kind = "toll", chips = 1 }', '{ kind = "toll", chips = 9 }',
                     "powers[28].effect.chips: 9 is out of range"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_s12_the_loader_names_file_key_and_reason(tmp_path: Path, case: str) -> None:
    old, new, want = BAD[case]
    path = _custom(tmp_path, old, new)
    problems = validate_powers(path)
    assert any(p.startswith(f"{path}: ") and want in p for p in problems), problems


def test_s12_a_custom_power_applied_by_hand_is_recorded(tmp_path: Path) -> None:
    path = _custom(tmp_path, 'effect = { kind = "bar_assistant" }',
                   'effect = { kind = "by_hand", target = "another" }')
    scenario = tmp_path / "scenario.toml"
    text = data_file("scenario.toml").read_text(encoding="utf-8")
    scenario.write_text(f'powers = "{path.name}"\n' + text, encoding="utf-8")
    state = evening(scenario=str(scenario))
    state = fold(state, souls.guess(state, "Dan", COBALT, "Houdini", "I"))   # Cara: 3
    state = fold(state, play.start_hand(state, now=0.0))
    state = fold(state, powers.access(state, "Cara", "III", "reversed"))
    events = power_moves.use_power(state, "Cara", "Neglect", target="Eve")
    after = fold(state, events)
    assert "apply by hand" in events[0]["summary"] and events[0]["target"] == "Eve"
    assert after.barred == {}   # the GM bars Finn by hand
    assert after.charges["Cara"] == 2


# -- random hands with random power uses (pure) -------------------------------------------------


def _table() -> bytes:
    state = evening()
    for helper, soul, name, arcanum in (("Dan", COBALT, "Houdini", "I"),
                                        ("Finn", AMBER, "Catherine the Great", "III"),
                                        ("Ben", GREEN, "Thoreau", "IX")):
        state = fold(state, souls.guess(state, helper, soul, name, arcanum))
    for spec in state.scenario["powers"]:  # a free power set, so that many powers get used
        spec["charges"] = 0
    return pickle.dumps(state)


TABLE = _table()
DECK = ([f"{r}{s}" for s in "CWSP" for r in ("A", "2", "3", "5", "7", "9", "Kn", "K")]
        + ["XIII", "XX"])
MAJORS = [to_roman(n) for n in range(22)]
#: What each kind of effect asks for (S12), so that random uses are often well formed.
NEEDS: dict[str, set[str]] = {
    "fold": {"target"}, "toll": {"folds"}, "force_action": {"action"},
    "no_raises": {"action"}, "no_fold": {"target"}, "no_bets": {"target"},
    "all_in": {"target"}, "swap_up": {"cards", "target", "new"}, "replace_up": {"new"},
    "hide_up": {"cards"}, "kill_up": {"target", "cards"}, "reveal": {"target", "cards"},
    "discard": {"cards"}, "counts_as": {"cards", "as"}, "lose_power": {"target"},
    "surcharge": {"target"}, "bar_assistant": {"target"}, "exile": {"target"},
    "protect": {"cards"}, "private": {"target"},
}


def _lends(card: str, f: dict[str, Any]) -> bool:
    """Mingling the Waters' second card (E56): another minor card of the suit it names."""
    parsed = parse_card(card)
    return card != f["card"] and not parsed.is_major and parsed.suit.value == f["suit"]


class PowersMachine(RuleBasedStateMachine):
    """A GM at the console: betting, dealing, accessing and using powers at random."""

    def __init__(self) -> None:
        super().__init__()
        self.state: State = pickle.loads(TABLE)
        self.uses = 0
        self.refused = ""

    def attempt(self, fn: Any, *args: Any, **kw: Any) -> list[Event] | None:
        before = pickle.dumps(self.state)
        try:
            events = fn(self.state, *args, **kw)
        except RefereeError as exc:
            self.refused = str(exc)  # said when a move the machine must make is refused
            assert pickle.dumps(self.state) == before, "a refused request changed the state"
            return None
        assert pickle.dumps(self.state) == before, "a request changed the state it was given"
        state = pickle.loads(before)
        for event in events:
            state = apply(state, copy.deepcopy(event))
        self.state = state
        return list(events)

    def seen(self) -> set[str]:
        hand = self.state.hand
        assert hand is not None
        out = {c for cards in hand.showing.values() for c in cards}
        out |= {c for cards in hand.forfeited.values() for c in cards}
        return out | {c for cards in hand.out.values() for c in cards}

    @rule(data=st.data())
    def step(self, data: st.DataObject) -> None:
        state = self.state
        if state.over:
            return
        if state.hand is None:
            for name in STAKEHOLDERS:   # an exile sits again when the console allows it
                self.attempt(commands.sit, name)
            self.attempt(play.start_hand, now=0.0)
            return
        hand = state.hand
        if hand.betting_over:
            self.showdown(data)
            return
        missing = betting.missing_up_cards(state, hand)
        if missing:
            name = missing[0]
            need = betting.up_cards_dealt(state, hand, name) - len(hand.showing.get(name, []))
            free = [c for c in DECK if c not in self.seen()]
            cards = hand.showing.get(name, []) + data.draw(
                st.lists(st.sampled_from(free), min_size=need, max_size=need, unique=True))
            self.attempt(play.show_cards, name, " ".join(cards))
            return
        what = betting.options(state, hand)
        if what is None:
            return
        moves = [m for m in what.moves if m != "fold"] or list(what.moves)
        if data.draw(st.floats(0, 1)) < 0.1:
            moves = ["fold"]
        self.attempt(play.act_said, what.name, data.draw(st.sampled_from(moves)))

    @rule(data=st.data(), card=st.sampled_from(MAJORS), way=st.sampled_from(["upright",
                                                                             "reversed"]))
    def access(self, data: st.DataObject, card: str, way: str) -> None:
        if self.state.hand is None or self.state.over:
            return
        hand = self.state.hand
        live = [p for p in hand.live if p != FOOL]
        to_act = None if hand.betting_over else betting.to_act(self.state, hand)
        if to_act in live and data.draw(st.booleans()):
            live = [to_act]  # most powers are used on one's own turn
        if self.attempt(powers.access, data.draw(st.sampled_from(live)), card, way):
            self.use(data)

    @rule(data=st.data())
    def use_one(self, data: st.DataObject) -> None:
        self.use(data)

    def use(self, data: st.DataObject) -> None:
        """A held power, most often one whose moment it is, with arguments most often of the
        kind its effect asks for; sometimes anything at all."""
        state = self.state
        if state.hand is None or state.over:
            return
        hand = state.hand
        held = sorted(k for k, p in state.powers.items() if not p["used"])
        if not held:
            return
        spec = {p["key"]: p for p in powers.powers(state)}
        fits = [k for k in held if state.powers[k]["holder"] in hand.live
                and self.fits(spec[k], state.powers[k]["holder"])]
        key = data.draw(st.sampled_from(fits if fits and data.draw(st.booleans()) else held))
        if self.attempt(power_moves.use_power, state.powers[key]["holder"], key,
                        **self.arguments(data, spec[key], state.powers[key]["holder"])):
            self.uses += 1

    def arguments(self, data: st.DataObject, spec: dict[str, Any], who: str) -> dict[str, Any]:
        """What ``who`` gives a use of ``spec``: most often what its effect asks for (S12),
        sometimes anything at all."""
        state = self.state
        hand = state.hand
        assert hand is not None
        kind = spec["effect"]["kind"]
        live = [p for p in hand.live if p != FOOL]
        others = [p for p in live if p != who] or STAKEHOLDERS
        to_act = betting.to_act(state, hand)
        target = to_act if to_act in others and data.draw(st.booleans()) else \
            data.draw(st.sampled_from(others))
        free = [c for c in DECK if c not in self.seen()]
        up = hand.showing.get(who, []) + hand.showing.get(target, [])
        card = data.draw(st.sampled_from(up + free if up else free))
        wants = NEEDS.get(kind, set())
        anything = data.draw(st.floats(0, 1)) < 0.1
        kw: dict[str, Any] = {"seed": data.draw(st.integers(0, 99))}
        if "target" in wants or anything:
            kw["target"] = target
        if "cards" in wants or anything:
            kw["cards"] = [card]
        if kind == "reveal" and spec["effect"].get("who") == "all":
            kw["cards"] = [f"{p}:{c}" for p, c in zip(live, free, strict=False)]
        if kind == "protect":
            kw["cards"] = data.draw(st.lists(st.sampled_from(up + free), min_size=1,
                                             max_size=2, unique=True))
        if "new" in wants or anything:
            kw["new"] = data.draw(st.sampled_from(free + hand.showing.get(target, [])))
        if ("as" in wants and spec["effect"].get("as") not in ("king", "mirror")
                or anything):
            kw["as_card"] = data.draw(st.sampled_from(free + up))
        if "action" in wants or anything:
            kw["action"] = data.draw(st.sampled_from(["check", "bet", "call", "raise", "fold"]))
        if "folds" in wants or anything:
            kw["folds"] = data.draw(st.lists(st.sampled_from(others), max_size=1))
        return kw

    def fits(self, spec: dict[str, Any], who: str) -> bool:
        """Whether it is the power's moment (S11), roughly."""
        hand = self.state.hand
        assert hand is not None
        to_act = None if hand.betting_over else betting.to_act(self.state, hand)
        answer = hand.answerable
        return {
            "own_turn": to_act == who,
            "before_turn": to_act not in (None, who, FOOL),
            "round_end": not hand.betting_over and hand.round.actions == 0
            and hand.round.street > 1,
            "answer_bet": answer is not None and answer["kind"] == "bet" and answer["by"] != who,
            "answer_power": answer is not None and answer["kind"] == "power"
            and answer["by"] != who,
        }.get(spec["timing"], True)

    def showdown(self, data: st.DataObject) -> None:
        hand = self.state.hand
        assert hand is not None
        hands: list[tuple[str | None, str]] = []
        named: dict[str, list[str]] = {}
        for name in hand.live:
            cards = list(hand.showing.get(name, []))
            for f in hand.effects:  # S22, E56: the cards a power named as theirs are in it
                if f["kind"] in ("counts_as", "protect") and f["target"] == name:
                    cards += [c for c in (f["card"], *f.get("needs", [])) if c not in cards]
            named[name] = cards
        taken = {c for cards in named.values() for c in cards}
        for name in hand.live:
            cards = named[name]
            for f in hand.effects:
                if f["kind"] == "counts_as" and f["target"] == name and f.get("suit") and not any(
                        _lends(c, f) for c in cards):
                    lender = next(c for c in DECK if c not in taken and _lends(c, f))
                    cards.append(lender)
                    taken.add(lender)
            # Filled from cards no hand names: a deck holds each card once (R8).
            fill = [c for c in DECK if c not in taken][:max(0, 5 - len(cards))]
            taken.update(fill)
            hands.append((name, " ".join((cards + fill)[:7])))
        events = self.attempt(showdowns.showdown, hands, magic=True, now=0.0)
        assert events is not None, (hands, self.refused)

    @invariant()
    def chips_are_conserved(self) -> None:
        """R10: ten chips of every colour; the pot holds exactly what was put in."""
        totals: dict[str, int] = {}
        for holding in self.state.chips.values():
            for colour, n in holding.items():
                assert n >= 0
                totals[colour] = totals.get(colour, 0) + n
        assert totals == dict.fromkeys(self.state.colours(), CHIPS_PER_COLOUR)
        if self.state.hand is not None:
            put_in = sum(len(c) for c in self.state.hand.contrib.values())
            assert put_in == self.state.stack(POT)

    @invariant()
    def charges_never_negative(self) -> None:
        assert all(n >= 0 for n in self.state.charges.values())


PowersMachine.TestCase.settings = settings(
    max_examples=examples(15), stateful_step_count=50, deadline=None,  # 300 in nightly
    suppress_health_check=[HealthCheck.too_slow],
)
TestPowers = PowersMachine.TestCase


# -- through the console: refusals leave the file as it was; undo gives the state back ---------


SEATS = ["--seat", "Ada:XVI:red:Ben:IX", "--seat", "Cy:III:blue:Di:II",
         "--seat", "Ed:VII:green:Flo:XVII"]
POWERS = ["Sent on an Errand", "Iron Rule", "Cowed", "Standstill", "Second Thoughts",
          "Suspended", "The Reaper's Toll", "Exchange of Vows", "Daylight", "Ill Star",
          "Mistrial", "Downfall", "Hood the Lantern", "Excess", "Chained"]
ARGS = st.lists(st.sampled_from([
    ("--target", "Ada"), ("--target", "Cy"), ("--target", "Ed"), ("--target", "Fool"),
    ("--card", "8W"), ("--card", "9P"), ("--card", "2C"), ("--new", "8W"), ("--new", "KnS"),
    ("--action", "bet"), ("--action", "raise"), ("--fold", "Cy"), ("--seed", "3")]),
    max_size=3)


def _state_dump(db: Path) -> Any:
    from referee.storage.store import open_evening

    with open_evening(db, write=False) as ev:
        return json.loads(json.dumps(dump(ev.state("evening"))))


@settings(max_examples=examples(12), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(moves=st.lists(st.tuples(st.sampled_from(["Ada", "Cy", "Ed"]), st.sampled_from(POWERS),
                                ARGS, st.sampled_from(["check", "bet", "call", "none"])),
                      min_size=3, max_size=8))
def test_s11_refusals_leave_the_file_and_undo_gives_the_state_back(
        tmp_path_factory: pytest.TempPathFactory, moves: list[Any]) -> None:
    from referee.cli.main import app

    db = tmp_path_factory.mktemp("powers") / "evening.json"
    runner = CliRunner()

    def run(*args: str) -> Any:
        return runner.invoke(app, ["--db", str(db), *args])

    assert run("new", "--fool", "Fool", *SEATS).exit_code == 0
    for helper, soul, name, arcanum in (("Di", "cobalt", "Houdini", "I"),
                                        ("Flo", "amber", "Catherine the Great", "III"),
                                        ("Ben", "green", "Thoreau", "IX")):
        assert run("soul", "guess", helper, soul, "--name", name, "--arcanum", arcanum
                   ).exit_code == 0
    assert run("hand", "start").exit_code == 0
    for name, cards in (("Cy", "2C 5W"), ("Ed", "3S 9P"), ("Ada", "4C 8W"),
                        ("Fool", "KC KW KS QP")):
        assert run("hand", "show", name, cards).exit_code == 0
    spec = {p["name"]: p for p in json.loads(run("power", "list", "--json").stdout)["powers"]}
    for who, power, args, action in moves:
        run("power", "access", who, spec[power]["card"], spec[power]["orientation"])
        flat = [a for pair in args for a in pair]
        before, state = db.read_bytes(), _state_dump(db)
        result = run("power", "use", who, power, *flat)
        if result.exit_code == 2:
            assert db.read_bytes() == before, result.output
            assert len(result.output.strip().splitlines()) == 1, result.output
        else:
            assert result.exit_code == 0, result.output
            assert run("undo").exit_code == 0
            assert _state_dump(db) == state
            assert run("redo").exit_code == 0
        if action != "none":
            status = json.loads(run("status", "--json").stdout)
            hand = status["hand"]
            if hand and hand["to_act"] and not hand["betting_over"]:
                run("call" if hand["owes"] else action, hand["to_act"])


def test_s52_a_card_two_magic_powers_changed_counts_as_the_later() -> None:
    """Two counts_as effects on one card: the later decides, and the showdown does not fail."""
    from referee.evening.powers.constraints import counted

    state = pickle.loads(TABLE)
    for event in play.start_hand(state, now=0.0):
        state = apply(state, event)
    hand = state.hand
    assert hand is not None
    effect = {"kind": "counts_as", "scope": "hand", "target": "Eve", "card": "KnW",
              "power": "Abundance"}
    hand.effects = [{**effect, "counts": "KC"}, {**effect, "counts": "AC", "power": "Counterfeit"}]
    hand.showing = {"Eve": ["KnW", "KC", "AC"]}
    cards, changed = counted(hand, "Eve", ["2P", "KnW", "7P", "KC", "AC"])
    assert changed and cards == ["2P", "AC", "7P", "KC", "AC"]
