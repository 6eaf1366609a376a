"""Where the powers meet the table's rules (R8, R15, R26, R44, R45): random hands with random
powers used at their moments, the Fool holding chips, each event held against the rules as
the rule texts say them, independently of the code that applies them:

- the Fool bets when nothing is bet, he shows the high hand and holds chips, whoever opened
  (R15, R45); he calls what he owes; otherwise he checks;
- a showdown takes the cards the console knows as each player's, and the GM gives only the
  unseen ones (R44): every known card is in its owner's showdown hand, no card in two hands;
- an Arcanum is announced depleted exactly once, on whichever path took its second power
  (``power access`` or ``power use --access``), as the console says it (R26);
- chips by colour are conserved and Charges never go negative (the base machine).
"""

from __future__ import annotations

import pickle
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import invariant, rule

from referee.cli.powers import render_souls
from referee.evening import betting, play, power_moves, souls
from referee.evening.state import State
from referee.rules.cards import parse_cards, to_roman
from referee.rules.hands import best_hand
from referee.streams import Event
from tests.profiles import examples
from tests.test_powers import DECK, FOOL, TABLE, PowersMachine, powers
from tests.test_souls import COBALT, fold

#: Powers taken in a hand before the machine starts, so that a second side is there to take.
FIRST_SIDES = [("Cara", "X", "upright"), ("Eve", "IX", "reversed"), ("Ada", "XIX", "upright"),
               ("Cara", "VIII", "reversed"), ("Eve", "XV", "upright"), ("Ada", "I", "upright")]


def _table() -> bytes:
    """The base machine's table, the Fool holding eight chips: he bought a soul for a favour
    and sold it on for chips (R16a), so his duties to bet and call are in play (R15). A first
    hand took one power of six cards and was folded to the Fool, so the second powers of those
    cards are there to deplete them (R26)."""
    state: State = pickle.loads(TABLE)
    state = fold(state, souls.sell(state, "Dan", COBALT, FOOL, None, "a favour"))
    state = fold(state, souls.sell(state, FOOL, COBALT, "Cara", "blue:8", None))
    assert state.stack(FOOL) == 8
    state = fold(state, play.start_hand(state, now=0.0))
    up = iter(["2C 3C", "5W 7W", "9S KnS", "AP 2P 3P 5P"])
    hand = state.hand
    assert hand is not None
    for name in hand.order:
        state = fold(state, play.show_cards(state, name, next(up)))
    for name, card, way in FIRST_SIDES[:2]:  # two face-down cards each (R26)
        state = fold(state, powers.access(state, name, card, way))
    for name, card, way in FIRST_SIDES[2:]:
        state = fold(state, powers.access(state, name, card, way))
    while state.hand is not None:
        what = betting.options(state, state.hand)
        assert what is not None
        state = fold(state, play.act_said(state, what.name, "fold"))
    assert len(state.powers) == len(FIRST_SIDES)
    return pickle.dumps(state)


RICH = _table()


def _key(cards: list[str]) -> int | None:
    return best_hand(parse_cards(" ".join(cards)), magic=True).key if cards else None


def fool_must(state: State) -> str:
    """What R15 and R45 make the Fool do, his turn come, read from the rule text alone: call
    what he owes; with nothing bet, bet when his showing hand beats every other showing hand
    of those who can still bet (a tie goes to the stakeholder, H5; and there must be one) and
    he holds chips; else check. A showing hand counts its magic cards as they count (E266)."""
    hand = state.hand
    assert hand is not None
    r = hand.round
    if r.bet > r.committed.get(FOOL, 0):
        return "call"
    if r.bet or not state.stack(FOOL):
        return "check"
    dead = {(f["target"], f["card"]) for f in hand.effects if f["kind"] == "dead"}
    suspended = {f["target"] for f in hand.effects if f["kind"] == "all_in"}
    able = [p for p in hand.order if p not in hand.folded and state.stack(p) > 0
            and p not in suspended]
    # E266: a face-up card a magic power changed counts in the showing hand as its chip says
    # (the later power's, S52)
    magic = {(f["target"], f["card"]): f["counts"] for f in hand.effects
             if f["kind"] == "counts_as"}
    keys = {p: _key([magic.get((p, c), c) for c in hand.showing.get(p, []) if (p, c) not in dead])
            for p in able}
    mine = keys.get(FOOL)
    others = [k for p, k in keys.items() if p != FOOL and k is not None]
    if not others:  # nobody left who can bet against him
        return "check"
    return "bet" if mine is not None and all(mine > k for k in others) else "check"


def known(state: State, everyone: bool = False) -> dict[str, set[str]]:
    """Every card the console knows as a player's still in (``everyone``: or folded), read
    from the hand's records (R44): up cards, hooded ones, and the face-down cards a power
    named or held fast as theirs."""
    hand = state.hand
    assert hand is not None
    out = {p: set(hand.showing.get(p, [])) | set(hand.hooded.get(p, []))
           for p in (hand.order if everyone else hand.live)}
    for f in hand.effects:
        if f["kind"] in ("protect", "counts_as") and f["target"] in out:
            out[f["target"]] |= {f["card"], *f.get("needs", [])}
    gone = {c for cards in [*hand.forfeited.values(), *hand.out.values()] for c in cards}
    up = {c for cards in hand.showing.values() for c in cards}
    # slid or discarded: in no hand; showing: its shower's, wherever a power named it before
    return {p: {c for c in cards if c not in gone and (c not in up or c in
                                                        hand.showing.get(p, []))}
            for p, cards in out.items()}


class PowersMeetTheTable(PowersMachine):
    """The base machine's GM, with the Fool holding chips, a power now and then taken and used
    in one act (``power use --access``), and the showdown given as R44 asks."""

    def __init__(self) -> None:
        super().__init__()
        self.state = pickle.loads(RICH)
        self.announced: dict[int, int] = {}

    def attempt(self, fn: Any, *args: Any, **kw: Any) -> list[Event] | None:
        before = self.state
        events = super().attempt(fn, *args, **kw)
        if events is None:
            return None
        state = pickle.loads(pickle.dumps(before))
        from referee.evening.folds import apply

        together = fn is power_moves.slide_and_use
        for event in events:
            if event["kind"] == "action" and event["name"] == FOOL:
                assert event["action"] == fool_must(state), (event, state.hand)
            elif event["kind"] == "power_accessed":
                self.say_access(event, state, together)
            elif event["kind"] == "showdown" and event["hands"] and not event["magic"]:
                self.held_known(event, state)
            state = apply(state, pickle.loads(pickle.dumps(event)))
        return events

    def say_access(self, event: Event, state: State, together: bool) -> None:
        """The access as the console says it on its own path: ``power access`` prints its
        own report, ``power use --access`` the events' lines (R26); count the announcement."""
        said: list[str] = []
        real = render_souls.say
        render_souls.say = said.append  # type: ignore[assignment]
        try:
            if together:
                render_souls.announce(event)
            else:
                spec = powers.power_spec(state, event["rank"], event["orientation"])
                render_souls.access(event, spec)
        finally:
            render_souls.say = real  # type: ignore[assignment]
        if any("The Fool announces" in line for line in said):
            self.announced[event["rank"]] = self.announced.get(event["rank"], 0) + 1

    def held_known(self, event: Event, state: State) -> None:
        """R44, R8: every known card in its owner's hand; no card in two hands."""
        for name, cards in known(state).items():
            missing = cards - set(event["hands"].get(name, []))
            assert not missing, (name, missing, event["hands"])
        every = [c for cards in event["hands"].values() for c in cards]
        assert len(every) == len(set(every)), event["hands"]

    @rule(data=st.data(), n=st.integers(1, 12))
    def play_on(self, data: st.DataObject, n: int) -> None:
        """Several of the base machine's steps (deal, bet, the showdown) in a row: with more
        kinds of power use to choose from, a hand still reaches its showdown."""
        for _ in range(n):
            self.step(data)

    @rule()
    def check_around(self) -> None:
        """Everyone to act checks (or calls) until the round ends or the Fool's turn is played:
        the turn reaches him with nothing bet (R15, R45)."""
        for _ in range(6):
            state = self.state
            hand = state.hand
            if hand is None or hand.betting_over or state.over:
                return
            what = betting.options(state, hand)
            if what is None or not ({"check", "call"} & set(what.moves)):
                return
            move = "check" if "check" in what.moves else "call"
            if self.attempt(play.act_said, what.name, move) is None:
                return

    @rule(data=st.data(), card=st.sampled_from([to_roman(n) for n in range(22)]),
          way=st.sampled_from(["upright", "reversed"]))
    def access_and_use(self, data: st.DataObject, card: str, way: str) -> None:
        """``power use NAME POWER --access CARD``: the card slid and its power used in one act
        (R38), by the player to act most often, and most often the second power of a card
        whose first is out (R26: the access that depletes it)."""
        state = self.state
        if state.hand is None or state.over:
            return
        half = [(to_roman(n), o) for n in range(22) for o in ("upright", "reversed")
                if f"{to_roman(n)}-{o}" not in state.powers
                and f"{to_roman(n)}-{'reversed' if o == 'upright' else 'upright'}"
                in state.powers]
        if half and data.draw(st.booleans()):
            card, way = data.draw(st.sampled_from(half))
        self.slide_and_use(data, card, way)

    @rule(data=st.data())
    def deplete(self, data: st.DataObject) -> None:
        """The second power of a card whose first is out, at its moment, taken and used in one
        act by the player it fits (R26, R38): the access that depletes the card."""
        state = self.state
        if state.hand is None or state.over:
            return
        self.take_at_its_moment(data, lambda spec: any(
            k.startswith(f"{to_roman(spec['card'])}-") for k in state.powers))

    @rule(data=st.data(), kind=st.sampled_from(["hide_up", "protect", "counts_as"]))
    def make_a_card_known(self, data: st.DataObject, kind: str) -> None:
        """A power that makes a face-down card known as its user's (hooded, held fast, named
        by magic, R44), taken and used in one act."""
        state = self.state
        if state.hand is None or state.over:
            return
        self.take_at_its_moment(data, lambda spec: spec["effect"]["kind"] == kind)

    @rule(data=st.data())
    def move_the_opener(self, data: st.DataObject) -> None:
        """Fortune Reversed or Take the Reins at its moment, taken and used in one act: the
        next round opens with another than the high hand (S20), the Fool's duty unmoved (R45)."""
        self.take_at_its_moment(data, lambda spec: spec["effect"]["kind"] == "opener")

    def take_at_its_moment(self, data: st.DataObject, which: Any) -> None:
        """A power ``which`` picks, not yet given out, whose card is still free, used in one
        act by a live player whose moment it is (S11, R38)."""
        state = self.state
        hand = state.hand
        if hand is None or state.over:
            return
        gone = {c for cards in hand.forfeited.values() for c in cards} | self.seen()
        live = [p for p in hand.live if p != FOOL and len(hand.forfeited.get(p, [])) < 2]
        free = [(spec, who) for spec in powers.powers(state) for who in live
                if which(spec) and spec["key"] not in state.powers
                and to_roman(spec["card"]) not in gone and self.fits(spec, who)]
        if free:
            spec, who = data.draw(st.sampled_from(free))
            self.slide_and_use(data, to_roman(spec["card"]), spec["orientation"], who)

    def slide_and_use(self, data: st.DataObject, card: str, way: str,
                      who: str | None = None) -> None:
        state = self.state
        hand = state.hand
        assert hand is not None
        live = [p for p in hand.live if p != FOOL]
        to_act = None if hand.betting_over else betting.to_act(state, hand)
        if who is None:
            who = to_act if to_act in live and data.draw(st.booleans()) else \
                data.draw(st.sampled_from(live))
        spec = next(p for p in powers.powers(state) if to_roman(p["card"]) == card
                    and p["orientation"] == way)
        kw = self.arguments(data, spec, who)
        mine = hand.showing.get(who, [])
        if spec["effect"]["kind"] in ("hide_up", "protect", "counts_as") and mine:
            kw["cards"] = [data.draw(st.sampled_from(mine))]  # one of the user's own cards
        self.attempt(power_moves.slide_and_use, who, spec["key"], card, **kw)

    def showdown(self, data: st.DataObject) -> None:
        """R44: the GM gives each hand's unseen cards alone, from cards no hand holds; where a
        power's claim cannot hold (a suit Mingling the Waters named and no card left to lend
        it), the base machine's whole hands ruled --magic."""
        from referee.evening import showdown as showdowns
        from referee.evening.known import still_to_give

        hand = self.state.hand
        assert hand is not None
        seen = {c for cards in known(self.state, everyone=True).values() for c in cards}
        seen |= {c for cards in hand.forfeited.values() for c in cards}
        seen |= {c for cards in hand.out.values() for c in cards}
        free = [c for c in DECK if c not in seen]
        hands: list[tuple[str | None, str]] = []
        for name, n in still_to_give(hand).items():
            if n > len(free):
                return super().showdown(data)
            given, free = free[:n], free[n:]
            if given:
                hands.append((name, " ".join(given)))
        if self.attempt(showdowns.showdown, hands, magic=False, now=0.0) is None:
            # The one refusal left to a hand of known and unseen cards: the unseen cards drawn
            # hold no minor of the suit Mingling the Waters took from a card left unnamed.
            assert "the suit of another of" in self.refused, (hands, self.refused)
            super().showdown(data)

    @invariant()
    def depletion_announced_once_when_the_second_side_is_taken(self) -> None:
        """R26: announced exactly once for each card both of whose powers are out."""
        out = {n for n in range(22) if powers.depleted(self.state, n)}
        assert self.announced == dict.fromkeys(out, 1), (self.announced, out)

    @invariant()
    def no_card_shows_twice(self) -> None:
        """R8: a card shows for one player at most."""
        hand = self.state.hand
        if hand is not None:
            shown = [c for cards in hand.showing.values() for c in cards]
            assert len(shown) == len(set(shown)), hand.showing


PowersMeetTheTable.TestCase.settings = settings(
    max_examples=examples(40), stateful_step_count=50, deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestPowersMeetTheTable = PowersMeetTheTable.TestCase


# -- the issue's own hands, played through the machine's checks ---------------------------------


def _round_one(machine: PowersMeetTheTable) -> None:
    """A hand dealt at the machine's table: the Fool shows a pair of Kings and holds chips, so
    he opens with a bet (R9, R15); the stakeholders' cards are low."""
    assert machine.attempt(play.start_hand, now=0.0) is not None
    shown = [("Cara", "2C 3W"), ("Eve", "4C 5W"), ("Ada", "6C 7W"), (FOOL, "KC KW 8S 9S")]
    assert machine.attempt(play.show, shown) is not None, machine.refused


def test_r45_the_machine_holds_the_fools_bet_after_fortune_reversed() -> None:
    """Fortune Reversed gives round 2 to the lowest hand (S20); Ada, the lowest, checks, and
    the Fool, with nothing bet, the high hand and chips, must bet (R15, R45): the machine's
    check of every move of the Fool sees it."""
    machine = PowersMeetTheTable()
    _round_one(machine)
    for name in ("Cara", "Eve", "Ada"):
        assert machine.attempt(play.act_said, name, "call") is not None, machine.refused
    assert machine.attempt(power_moves.slide_and_use, "Eve", "X-reversed", "X") is not None, \
        machine.refused
    shown = [("Cara", "2C 3W 9C 10W"), ("Eve", "4C 5W PC KnW"), ("Ada", "6C 7W 2S 4S"),
             (FOOL, "KC KW 8S 9S AC 3P")]
    assert machine.attempt(play.show, shown) is not None, machine.refused
    events = machine.attempt(play.act_said, "Ada", "check")
    assert events is not None, machine.refused
    fool = [e for e in events if e["kind"] == "action" and e["name"] == FOOL]
    assert [e["action"] for e in fool] == ["bet"], events


def test_r44_the_machine_holds_a_hooded_card_in_its_owners_showdown_hand() -> None:
    """Eve hoods her 5W (Hood the Lantern, slid and used in one act); the hand is called down
    and the showdown given as R44 asks, the unseen cards alone: the machine finds 5W in
    Eve's hand, and no card in two."""
    machine = PowersMeetTheTable()
    _round_one(machine)
    assert machine.attempt(play.act_said, "Cara", "call") is not None, machine.refused
    assert machine.attempt(power_moves.slide_and_use, "Eve", "IX-upright", "IX",
                           cards=["5W"]) is not None, machine.refused
    machine.check_around()
    street = 1
    for more in ([("Cara", "2C 3W 9C 10W"), ("Eve", "4C PC KnW"), ("Ada", "6C 7W 2S 4S"),
                  (FOOL, "KC KW 8S 9S AC 3P")], [(FOOL, "KC KW 8S 9S AC 3P 5P")]):
        hand = machine.state.hand
        assert hand is not None and hand.round.street > street, hand
        street = hand.round.street
        live = [(name, cards) for name, cards in more if name in hand.live]
        assert machine.attempt(play.show, live) is not None, machine.refused
        machine.check_around()
    hand = machine.state.hand
    assert hand is not None and hand.betting_over and "Eve" in hand.live
    assert "5W" in hand.hooded["Eve"]
    machine.refused = ""
    machine.showdown(None)  # type: ignore[arg-type]  # R44's way draws nothing
    assert machine.refused == "" and machine.state.hand is None  # recorded as R44 asks
