"""Random sequences of soul, Charge and power commands, legal and illegal (R19, R24-R26).

A model tracks what the rules say must follow: every soul has exactly one holder or is
destroyed; Charges never go negative and appear only through a first correct guess (2 for a
name, 1 for an Arcanum) and leave only by being spent on a power or moved between sides; each
power is granted at most once and used at most once; a refused command changes nothing.
"""

from __future__ import annotations

import copy
import pickle
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from referee.errors import RefereeError
from referee.evening import betting, commands, play, power_moves, souls
from referee.evening import showdown as showdowns
from referee.evening.folds import apply
from referee.evening.powers import use as powers
from referee.evening.state import State
from referee.rules.cards import to_roman
from referee.streams import Event
from tests.profiles import examples
from tests.test_souls import AMBER, COBALT, FOOL, GREEN, evening, fold

STAKEHOLDERS = ["Cara", "Eve", "Ada"]
ASSISTANTS = ["Dan", "Finn", "Ben"]
SIDE = {"Cara": "Cara", "Dan": "Cara", "Eve": "Eve", "Finn": "Eve", "Ada": "Ada", "Ben": "Ada"}
PEOPLE = [FOOL, *STAKEHOLDERS, *ASSISTANTS]
SOULS = [COBALT, AMBER, GREEN, "Cara's soul", "Eve's soul", "Ada's soul"]
ARCANUM = {COBALT: 1, AMBER: 3, GREEN: 9}
# (what the assistant says, the soul it names or None): names, aliases, near misses, wrong.
NAMES: list[tuple[str | None, str | None]] = [
    ("Harry Houdini", COBALT), ("houdini", COBALT), ("Erik Weisz", COBALT),
    ("Catherine the Great", AMBER), ("Ekaterina II", AMBER),
    ("Thoreau", GREEN), ("H.D. Thoreau", GREEN),
    ("Houdni", None), ("Catherine", None), ("Napoleon", None), (None, None),
]
ARCANA = [None, "I", "III", "IX", "0", "XX"]
CARDS = ["0", "XII", "XIX"]   # few cards, so powers are asked for again and cards deplete
MINORS = [f"{r}{s}" for s in "CWSP" for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9",
                                              "10", "P", "Kn", "Q", "K")]


def _start() -> bytes:
    """The evening every run starts from; Eve away from the table, so chips and souls can
    change hands (R16)."""
    state = evening()
    return pickle.dumps(fold(state, commands.rise(state, "Eve")))


START = _start()


class SoulsMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.state: State = pickle.loads(START)
        self.charges = {"Cara": 0, "Eve": 0, "Ada": 0}
        self.created = 0          # Charges earned by first correct guesses
        self.spent = 0            # Charges paid for powers
        self.first: set[tuple[str, str]] = set()   # (soul, "name" | "arcanum") earned
        self.guesses: Counter[tuple[str, str]] = Counter()
        self.granted: dict[str, str] = {}          # power key -> holder
        self.used: set[str] = set()
        self.costs = {p["key"]: p["charges"] for p in powers.powers(self.state)}

    def pick(self, data: st.DataObject, likely: list[str], anything: list[str],
             odds: float = 0.75) -> str:
        """With these odds a choice that may be legal, else anything at all."""
        if likely and data.draw(st.floats(0, 1)) < odds:
            return data.draw(st.sampled_from(likely))
        return data.draw(st.sampled_from(anything))

    def holder_of(self, soul: str) -> list[str]:
        held = self.state.soul(soul).holder
        return [held] if held else []

    def attempt(self, fn: Any, *args: Any, **kw: Any) -> list[Event] | None:
        """Run one request: accepted, its events are folded; refused, nothing changed."""
        # Pickled bytes: an exact and much faster comparison than dataclasses.asdict.
        before = pickle.dumps(self.state)
        try:
            events = fn(self.state, *args, **kw)
        except RefereeError as exc:
            assert pickle.dumps(self.state) == before, f"refused {fn.__name__} changed the state"
            self.refusal = str(exc)
            return None
        assert pickle.dumps(self.state) == before, f"{fn.__name__} changed the state it was given"
        state = pickle.loads(before)
        for event in events:
            state = apply(state, copy.deepcopy(event))
        self.state = state
        return list(events)

    # -- souls --------------------------------------------------------------------------------

    @rule(data=st.data(), who=st.sampled_from(ASSISTANTS),
          soul=st.sampled_from(SOULS[:3] * 3 + SOULS[3:]), said=st.sampled_from(NAMES),
          arcanum=st.sampled_from(ARCANA))
    def guess(self, data: st.DataObject, who: str, soul: str,
              said: tuple[str | None, str | None], arcanum: str | None) -> None:
        if data.draw(st.booleans()):   # often a name of this very soul
            said = data.draw(st.sampled_from([n for n in NAMES if n[1] == soul] or [said]))
        name, named = said
        expect_ok = soul in ARCANUM and (name is not None or arcanum is not None) \
            and self.guesses[(who, soul)] < 3
        events = self.attempt(souls.guess, who, soul, name, arcanum)
        assert (events is not None) == expect_ok, (who, soul, name, arcanum)
        if events is None:
            return
        self.guesses[(who, soul)] += 1
        earned = 0
        if name is not None and named == soul and (soul, "name") not in self.first:
            earned += 2
            self.first.add((soul, "name"))
        if arcanum is not None and arcanum == to_roman(ARCANUM[soul]) \
                and (soul, "arcanum") not in self.first:
            earned += 1
            self.first.add((soul, "arcanum"))
        assert events[0]["charges"] == earned
        assert events[0]["left"] == 3 - self.guesses[(who, soul)]
        self.charges[SIDE[who]] += earned
        self.created += earned

    @rule(who=st.sampled_from(ASSISTANTS), soul=st.sampled_from(SOULS))
    def study(self, who: str, soul: str) -> None:
        events = self.attempt(souls.study, who, soul)
        if events is not None:
            held = self.state.soul(soul).holder
            assert held is not None and SIDE.get(held) == SIDE[who]

    @rule(data=st.data(), dst=st.sampled_from(PEOPLE), soul=st.sampled_from(SOULS))
    def give_soul(self, data: st.DataObject, dst: str, soul: str) -> None:
        src = self.pick(data, self.holder_of(soul), PEOPLE)
        was = self.state.soul(soul).holder
        if self.attempt(souls.give_soul, src, dst, soul) is not None:
            assert was == src and self.state.soul(soul).holder == dst

    @rule(data=st.data(), buyer=st.sampled_from(PEOPLE), soul=st.sampled_from(SOULS),
          promise=st.sampled_from([None, "a favour", "a favour"]))
    def sell(self, data: st.DataObject, buyer: str, soul: str, promise: str | None) -> None:
        seller = self.pick(data, self.holder_of(soul), PEOPLE)
        held = [f"{c}:1" for c in self.state.holding(buyer)]
        chips = data.draw(st.sampled_from([None, *held, "green:11"]))
        had = copy.deepcopy(self.state.chips)
        was = self.state.soul(soul).holder
        if self.attempt(souls.sell, seller, soul, buyer, chips, promise) is not None:
            # R20: the soul and the chips move together; R21: a stakeholder may sell a soul
            # his own assistant holds for him, and the price goes to him.
            helper = (self.state.seat(seller).assistant
                      if seller in self.state.stakeholders else None)
            assert was in (seller, helper) and self.state.soul(soul).holder == buyer
            if chips:
                colour, n = chips.split(":")
                assert self.state.chips[seller].get(colour, 0) == \
                    had[seller].get(colour, 0) + int(n)

    @rule(data=st.data(), soul=st.sampled_from(SOULS),
          arcanum=st.sampled_from(["V", "IX", "XXI"]))
    def consume(self, data: st.DataObject, soul: str, arcanum: str) -> None:
        who = self.pick(data, self.holder_of(soul), PEOPLE, odds=0.1)
        was, owner = self.state.soul(soul).holder, self.state.soul(soul).owner
        if self.attempt(souls.consume, who, soul, arcanum) is not None:
            assert was == who and owner != who   # one's own soul is not eaten
            assert self.state.soul(soul).destroyed == "consumed"

    @rule(data=st.data(), soul=st.sampled_from(SOULS))
    def smash(self, data: st.DataObject, soul: str) -> None:
        who = self.pick(data, self.holder_of(soul), PEOPLE, odds=0.3)
        was = self.state.soul(soul).holder
        if self.attempt(souls.smash, who, soul) is not None:
            owner = self.state.soul(soul).owner
            assert was == who and owner not in (None, who)
            assert self.state.seat(owner).dead

    @rule(who=st.sampled_from(STAKEHOLDERS), other=st.sampled_from([None, *PEOPLE]))
    def force_trade(self, who: str, other: str | None) -> None:
        self.attempt(souls.force_trade, who, other)

    @rule(buyer=st.sampled_from(PEOPLE), owner=st.sampled_from(STAKEHOLDERS))
    def buyout(self, buyer: str, owner: str) -> None:
        self.attempt(souls.buyout, buyer, owner)

    # -- chips and seats (to let the Law allow some transfers) ------------------------------

    @rule(who=st.sampled_from(STAKEHOLDERS), up=st.booleans())
    def seat(self, who: str, up: bool) -> None:
        self.attempt(commands.rise if up else commands.sit, who)

    @rule(data=st.data(), dst=st.sampled_from(PEOPLE),
          chips=st.sampled_from(["red:3", "blue:5", "green:10", "red:10", "red:1"]))
    def give_chips(self, data: st.DataObject, dst: str, chips: str) -> None:
        rich = [p for p in PEOPLE if self.state.stack(p) and not commands.at_table(self.state, p)]
        src = self.pick(data, rich, PEOPLE)
        dst = self.pick(data, [p for p in PEOPLE if not commands.at_table(self.state, p)],
                        [dst])
        chips = self.pick(data, [f"{c}:{n}" for c, n in self.state.holding(src).items()],
                          [chips], odds=0.5)
        self.attempt(commands.give_chips, src, dst, chips)

    # -- Charges ------------------------------------------------------------------------------

    @rule(data=st.data(), dst=st.sampled_from(ASSISTANTS + PEOPLE),
          n=st.sampled_from([-1, 0, 1, 1, 1, 2, 2, 3, 4]))
    def give_charges(self, data: st.DataObject, dst: str, n: int) -> None:
        src = self.pick(data, [a for a in ASSISTANTS if self.charges[SIDE[a]]], PEOPLE)
        dst = self.pick(data, [a for a in ASSISTANTS if SIDE[a] != SIDE.get(src)], [dst])
        had = self.charges.get(SIDE.get(src, ""), 0)
        events = self.attempt(souls.give_charges, src, dst, n)
        if events is None:
            return
        assert 1 <= n <= had and SIDE[src] != SIDE[dst]
        self.charges[SIDE[src]] -= n
        self.charges[SIDE[dst]] += n

    # -- hands and powers ---------------------------------------------------------------------

    @precondition(lambda self: self.state.hand is None)
    @rule()
    def start_hand(self) -> None:
        self.attempt(play.start_hand, now=0.0)

    @precondition(lambda self: self.state.hand is not None)
    @rule()
    def finish_hand(self) -> None:
        """Everyone checks (or calls the Fool, R15) to the end; the showdown with distinct
        minors (R26: a card given up for a power is out of the hand)."""
        hand = self.state.hand
        assert hand is not None
        deck = iter(MINORS)
        planned = {p: [next(deck) for _ in range(7)] for p in hand.order}
        while self.state.hand is not None and not self.state.hand.betting_over:
            hand = self.state.hand
            name = betting.to_act(self.state, hand)
            for p in betting.missing_up_cards(self.state, hand) if name is None else []:
                up = planned[p] if p == self.state.fool else planned[p][2:6]
                have = hand.showing.get(p, [])
                new = [c for c in up if c not in have][:betting.up_cards_dealt(
                    self.state, hand, p) - len(have)]
                assert self.attempt(play.show_cards, p, "+" + " ".join(new)) is not None
            if name is not None:
                # The Fool must bet when he shows the high hand and holds chips (R15): a soul
                # sold to him for a chip gives him one. The others call that; else all check.
                move = "call" if betting.owed(self.state, hand, name) else "check"
                assert self.attempt(play.act_said, name, move) is not None, self.refusal
        hand = self.state.hand
        assert hand is not None
        # The down cards only (E26): the console adds the up cards it holds.
        hands = []
        for p in hand.live:
            shown = hand.showing.get(p, [])
            down = [c for c in planned[p] if c not in shown]
            hands.append((p, " ".join(down[:7 - len(hand.forfeited.get(p, [])) - len(shown)])))
        played = self.attempt(showdowns.showdown, hands, magic=False, now=0.0)
        assert played is not None and self.state.hand is None, self.refusal

    @precondition(lambda self: self.state.hand is not None)
    @rule(data=st.data(), card=st.sampled_from(CARDS),
          way=st.sampled_from(["upright", "reversed"]))
    def access(self, data: st.DataObject, card: str, way: str) -> None:
        hand = self.state.hand
        assert hand is not None
        who = self.pick(data, [p for p in hand.live if p != FOOL], [FOOL, *STAKEHOLDERS])
        out = {c for gone in hand.forfeited.values() for c in gone}
        card = self.pick(data, [c for c in CARDS if c not in out], [card])
        events = self.attempt(powers.access, who, card, way)
        if events is None:
            return
        assert who != FOOL
        key = events[0]["power"]
        assert key == f"{card}-{way}"
        if events[0]["granted"]:
            assert key not in self.granted, f"{key} granted twice"
            self.granted[key] = who
        else:
            assert key in self.granted
        assert events[0]["depleted"] == all(f"{card}-{w}" in self.granted
                                            for w in ("upright", "reversed"))

    @rule(data=st.data(),
          key=st.sampled_from([f"{c}-{w}" for c in CARDS for w in ("upright", "reversed")]))
    def use_power(self, data: st.DataObject, key: str) -> None:
        key = self.pick(data, sorted(self.granted), [key])
        who = self.pick(data, [self.granted[key]] if key in self.granted else [], STAKEHOLDERS)
        cost = self.costs[key]
        seat = self.state.seat(who)
        expect_ok = self.granted.get(key) == who and key not in self.used \
            and self.charges[who] >= cost and not (seat.dead or seat.resigned)
        others = [p for p in STAKEHOLDERS if p != who]
        events = self.attempt(power_moves.use_power, who, key,
                              target=data.draw(st.sampled_from(others)))
        if events is None and expect_ok:
            # Holder and Charges fit: only the moment or what the effect asks for may refuse it
            # (S7, S11-S30), or an Ill Star's extra Charge (S25).
            assert any(mark in self.refusal for mark in ("(S", "played", "takes no", "needs")), \
                self.refusal
        assert events is None or expect_ok, (who, key, self.granted, self.charges)
        if events is None:
            return
        used = next(e for e in events if e["kind"] == "power_used")
        assert used["charges"] >= cost  # more only under Ill Star (S25)
        self.used.add(key)
        if used.get("lost"):  # Downfall (S24)
            self.used.add(used["lost"])
        self.charges[who] -= used["charges"]
        self.spent += used["charges"]

    # -- invariants -------------------------------------------------------------------------

    @invariant()
    def every_soul_has_one_holder_or_is_destroyed(self) -> None:
        assert [s.key for s in self.state.souls] == SOULS
        for soul in self.state.souls:
            if soul.destroyed is None:
                assert soul.holder in PEOPLE, soul
            else:
                assert soul.holder is None and soul.destroyed in ("consumed", "smashed")

    @invariant()
    def charges_come_only_from_first_correct_guesses(self) -> None:
        assert self.state.charges == self.charges
        assert all(n >= 0 for n in self.state.charges.values())
        assert sum(self.state.charges.values()) == self.created - self.spent
        assert self.created <= 3 * len(ARCANUM)

    @invariant()
    def each_power_granted_and_used_at_most_once(self) -> None:
        assert {k: p["holder"] for k, p in self.state.powers.items()} == self.granted
        assert {k for k, p in self.state.powers.items() if p["used"]} == self.used


SoulsMachine.TestCase.settings = settings(
    max_examples=examples(20), stateful_step_count=50, deadline=None,  # 400 in nightly
    suppress_health_check=[HealthCheck.too_slow],
)
TestSouls = SoulsMachine.TestCase


def test_r15_a_chip_sold_to_the_fool_is_bet_and_the_hand_still_ends() -> None:
    """Found by the machine: the Fool buys a soul for a favour and sells it on for a chip, so
    he holds one in the third hand; showing the high hand he must bet it (R15), and the hand
    is called down to its showdown."""
    machine = SoulsMachine()
    for step in ("start_hand", "finish_hand", "start_hand", "finish_hand", "start_hand"):
        getattr(machine, step)()
    assert machine.attempt(souls.sell, "Dan", COBALT, FOOL, None, "a favour") is not None
    assert machine.attempt(souls.sell, FOOL, COBALT, "Cara", "blue:1", None) is not None
    assert machine.state.chips[FOOL] == {"blue": 1}
    machine.finish_hand()
    assert machine.state.hand is None and machine.state.soul(COBALT).holder == "Cara"
