"""Hypothesis stateful test of the evening: random sequences of legal and illegal commands
through ``referee.evening.commands`` and the store (and a subset through the CLI).

After every step: chips by colour sum to ten per colour, no count is negative, the pot is
empty between hands, the hand in progress can always go on, the stored state is the fold of
the log and verifies; and every rejected command (RefereeError) left every file of the evening
byte-for-byte unchanged.
"""

from __future__ import annotations

import copy
import json
import random
import shutil
import tempfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    rule,
    run_state_machine_as_test,
)
from typer.testing import CliRunner

from referee.cli.main import app
from referee.errors import IllegalAction, RefereeError
from referee.evening import betting, commands, play, views
from referee.evening import showdown as showdowns
from referee.evening.events import fields as event_fields
from referee.evening.state import CHIPS_PER_COLOUR, POT, State
from referee.rules.cards import DECK
from referee.storage import store
from referee.storage.audit import verify
from referee.storage.store import open_evening
from referee.streams import Event, spec
from tests.profiles import examples

SEATS = ["Ada:I:red:Ann:II", "Bob:III:blue:Bea:IV", "Cy:V:green", "Dee:VII:gold:Eli:VIII"]
PEOPLE = ["Fool", "Ada", "Ann", "Bob", "Bea", "Cy", "Dee", "Eli"]
NAMES = st.sampled_from([*PEOPLE, "Zed", "A", "pot", "fool", "b"])  # unknown, ambiguous...
COLOURS = ["red", "blue", "green", "gold"]
CARDS = [c.short for c in DECK]
ACTIONS = ["bet", "raise", "call", "check", "fold"]
#: Up cards at each street (stakeholders, the Fool): R9, ``hand show``.
UP = {1: (2, 4), 2: (4, 6), 3: (4, 7)}

chip_parts = st.builds(
    lambda c, n: f"{c}:{n}",
    st.sampled_from([*COLOURS, "r", "purple", ""]), st.integers(-1, 11),
)
chip_texts = st.lists(chip_parts, min_size=1, max_size=3).map(",".join)
amounts = st.one_of(st.none(), st.integers(-1, 12))
card_lists = st.lists(st.sampled_from([*CARDS, "ZZ", "11C"]), min_size=0, max_size=8)


#: What the runs did, to check that they reached the interesting places at all.
SEEN: Counter[str] = Counter()


def seen(what: str) -> None:
    SEEN[what] += 1
    event(what)


def chips_ok(state: State) -> None:
    """R10: ten chips of every colour, none negative; the pot is empty between hands."""
    totals: dict[str, int] = {}
    for holder, holding in state.chips.items():
        for colour, n in holding.items():
            assert n >= 0, f"{holder} holds {n} {colour}"
            totals[colour] = totals.get(colour, 0) + n
    assert totals == dict.fromkeys(state.colours(), CHIPS_PER_COLOUR), totals
    if state.hand is None:
        assert state.stack(POT) == 0, state.chips.get(POT)


#: The whole log is verified every this many steps, and at the end of every run.
VERIFY_EVERY = 8


class EveningMachine(RuleBasedStateMachine):
    """One evening file; every rule is one command as the CLI would run it."""

    def __init__(self) -> None:
        super().__init__()
        self.dir = Path(tempfile.mkdtemp(prefix="referee-stateful-"))
        self.db = self.dir / "e.json"
        self.clock = 1_000.0
        self.dealt: dict[str, list[str]] = {}
        self.spare: list[str] = []
        self.dealt_hand: int | None = None
        self.accepted = 0
        self.steps = 0
        self.segment_size = store.SEGMENT_SIZE
        self.read: tuple[bytes | None, State] | None = None  # the file's bytes, its state
        store.SEGMENT_SIZE = 9  # seal often: state and undo must read across segments

    def teardown(self) -> None:
        try:
            self.check_the_log()  # whatever the steps since the last check did
        finally:
            store.SEGMENT_SIZE = self.segment_size
            shutil.rmtree(self.dir, ignore_errors=True)

    # -- running one command ----------------------------------------------------------------

    def files(self) -> dict[str, bytes]:
        return {str(p.relative_to(self.dir)): p.read_bytes() for p in self.dir.rglob("*")
                if p.is_file() and p.suffix != ".lock"}

    def state(self) -> State:
        """The evening as a command reads it; read again only when the file's bytes changed
        (the invariants after each step all ask; nothing here changes a state it is given,
        which ``run`` checks of every command)."""
        data = self.db.read_bytes() if self.db.exists() else None
        if self.read is not None and self.read[0] == data:
            return self.read[1]
        with open_evening(self.db, write=False) as ev:
            state: State = ev.state("evening")
        self.read = (data, state)
        return state

    def run(self, what: str, build: Callable[[State], list[Event]]) -> bool:
        """One command under the lock, as ``referee.cli.table.evening.run`` does it."""
        self.clock += 61.0
        before = self.files()
        try:
            with open_evening(self.db) as ev:
                state = ev.state("evening")
                pristine = copy.deepcopy(state)
                events = build(state)
                assert spec("evening").dump(state) == spec("evening").dump(pristine), \
                    f"{what} changed the state it was given"
                for event in events:  # every field its record names, and no other
                    required, allowed = event_fields(event["kind"])
                    assert required <= set(event) <= allowed, (what, event)
                ev.commit("evening", events, what)
        except RefereeError as exc:
            assert self.files() == before, f"rejected {what} ({exc}) changed the files"
            seen(f"{what.split()[0]}: refused")
            return False
        seen(f"{what.split()[0]}: accepted")
        self.accepted += 1
        return True

    def deal(self, state: State, rnd: random.Random) -> None:
        """Seven distinct cards for everyone dealt into the hand (the table's real cards)."""
        hand = state.hand
        if hand is None or (self.dealt_hand == hand.no and set(hand.order) <= set(self.dealt)):
            return
        deck = list(CARDS)
        rnd.shuffle(deck)
        self.dealt = {name: deck[7 * i: 7 * i + 7] for i, name in enumerate(hand.order)}
        self.spare = deck[7 * len(hand.order):]
        self.dealt_hand = hand.no

    # -- setup ------------------------------------------------------------------------------

    @initialize(n=st.integers(2, 4), own_first=st.booleans(), staked=st.integers(0, 4))
    def new(self, n: int, own_first: bool, staked: int) -> None:
        seats = [commands.parse_seat(s) for s in SEATS[:n]]
        assert self.run("new", lambda s: commands.new_evening(
            s, "Fool", seats, now=self.clock, force=False,
            settings={"r11_own_colour_first": own_first}))
        # Ada leaves some chips with her assistant before the first hand, away from the table
        # (R16): the assistants then hold chips a transfer can move while hands are played.
        if staked:
            assert self.run("rise Ada", lambda s: commands.rise(s, "Ada"))
            assert self.run("give Ada Ann", lambda s: commands.give_chips(
                s, "Ada", "Ann", f"red:{staked}"))
            assert self.run("sit Ada", lambda s: commands.sit(s, "Ada"))

    # -- the hand ---------------------------------------------------------------------------

    @rule(open_phase=st.booleans())
    def start(self, open_phase: bool) -> None:
        self.run("start", lambda s: play.start_hand(s, now=self.clock,
                                                        open_phase=open_phase))

    @rule()
    def declare_open(self) -> None:
        self.run("open-phase", lambda s: commands.open_phase(s, now=self.clock))

    @rule(data=st.data(), street=st.integers(1, 3))
    def show_dealt(self, data: st.DataObject, street: int) -> None:
        """A live player's real up cards for a street (usually legal)."""
        state = self.state()
        if state.hand is None:
            return
        self.deal(state, data.draw(st.randoms(use_true_random=False)))
        name = data.draw(st.sampled_from(state.hand.live))
        k = UP[street][1] if name == state.fool else UP[street][0]
        cards = " ".join(self.dealt[name][:k])
        self.run(f"show {name}", lambda s: play.show_cards(s, name, cards))

    @rule(who=NAMES, cards=card_lists, magic=st.booleans())
    def show_any(self, who: str, cards: list[str], magic: bool) -> None:
        text = " ".join(cards)
        self.run(f"show {who}", lambda s: play.show_cards(s, who, text, magic=magic))

    @rule(data=st.data(), steps=st.integers(1, 40))
    def play_on(self, data: st.DataObject, steps: int) -> None:
        """Up to ``steps`` legal commands that move the evening on: deal, show the up cards,
        the moves the console offers, the showdown with the real cards."""
        for _ in range(steps):
            if not self.legal_step(data):
                return
            self.check_chips()

    def legal_step(self, data: st.DataObject) -> bool:
        state = self.state()
        hand = state.hand
        if hand is None:
            open_phase = data.draw(st.booleans())
            return self.either(data, "start", lambda s: play.start_hand(
                s, now=self.clock, open_phase=open_phase),
                ["hand", "start", *(["--open"] if open_phase else [])])
        self.deal(state, data.draw(st.randoms(use_true_random=False)))
        if hand.betting_over:
            hands = self.real_hands(state)
            return self.either(data, "showdown", lambda s: showdowns.showdown(
                s, hands, magic=False, now=self.clock),
                ["hand", "showdown", *(f"{name}: {cards}" for name, cards in hands)])
        missing = betting.missing_up_cards(state, hand)
        if missing and betting.to_act(state, hand) is None:  # R9: no bet before them
            name = data.draw(st.sampled_from(missing))
            k = UP[hand.round.street][1 if name == state.fool else 0]
            cards = self.dealt[name][:k]
            return self.either(data, f"show {name}", lambda s: play.show_cards(
                s, name, " ".join(cards)), ["hand", "show", name, *cards])
        options = betting.options(state, hand)
        assert options is not None, "betting not over, but nobody to act"
        if options.name == state.fool:
            # His forced moves are played when the next player acts (R15).
            self.play_after_the_fool(state, data)
            return True
        name, move = options.name, data.draw(st.sampled_from(options.moves))
        stack = state.stack(name)
        amount = None
        if move in ("bet", "raise") and hand.phase == "open":
            most = stack - (options.owes if move == "raise" else 0)
            amount = data.draw(st.one_of(st.integers(1, max(1, most)), st.just(betting.ALL)))
        chips = None
        if move in ("bet", "call") and data.draw(st.booleans()):
            bet = stack if amount == betting.ALL else (amount or 1)
            due = min(options.owes if move == "call" else bet, stack)
            holding = [c for c, n in state.holding(name).items() for _ in range(n)]
            picked = data.draw(st.permutations(holding))[:due]
            chips = ",".join(f"{c}:{picked.count(c)}" for c in sorted(set(picked))) or None
        said = "all" if amount == betting.ALL else str(amount)
        words = [move, name, *([said] if amount is not None else []),
                 *(["--chips", chips] if chips else [])]
        if not self.either(data, f"{move} {name}", lambda s: play.act_said(
                s, name, move, amount, chips), words):
            with pytest.raises(RefereeError) as info:
                play.act_said(self.state(), name, move, amount, chips)
            pytest.fail(f"{move} {name} {amount} {chips}, offered by the console, was refused: "
                        f"{info.value}")
        return True

    def either(self, data: st.DataObject, what: str, build: Callable[[State], list[Event]],
               words: list[str]) -> bool:
        """The command through the core, or (sometimes) typed into the CLI."""
        if data.draw(st.integers(0, 3)) == 0:
            return self.run_cli(words)
        return self.run(what, build)

    def run_cli(self, words: list[str]) -> bool:
        """Exit 0 or 2 (never a crash, exit 1); a refusal is one line and changes nothing."""
        self.clock += 61.0
        before = self.files()
        result = CliRunner().invoke(app, ["--db", str(self.db), *words])
        assert result.exit_code in (0, 2), (words, result.output, result.exception)
        if result.exit_code == 2:
            assert self.files() == before, words
            lines = result.stderr.strip().splitlines()
            assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
        seen(f"cli {words[0]}: {'accepted' if result.exit_code == 0 else 'refused'}")
        return result.exit_code == 0

    def real_hands(self, state: State) -> list[tuple[str | None, str]]:
        """Every live player's seven cards: their up cards, then their dealt cards."""
        hand = state.hand
        if hand is None:
            return []
        used = {c for name in hand.live for c in hand.showing.get(name, [])}
        hands: list[tuple[str | None, str]] = []
        for name in hand.live:
            cards = list(hand.showing.get(name, []))
            for card in self.dealt.get(name, []) + self.spare:
                if len(cards) == 7:
                    break
                if card not in used:
                    cards.append(card)
                    used.add(card)
            hands.append((name, " ".join(cards)))
        return hands

    def play_after_the_fool(self, state: State, data: st.DataObject) -> None:
        hand = state.hand
        assert hand is not None
        tries = [(name, move) for name in hand.live if name != state.fool
                 for move in ("call", "check", "fold")]
        legal = []
        for name, move in tries:
            try:
                play.act_said(state, name, move)
            except RefereeError:
                continue
            legal.append((name, move))
        assert legal, f"the Fool is to act and nobody can follow: {views.hand_view(state)}"
        name, move = data.draw(st.sampled_from(legal))
        assert self.run(f"{move} {name}", lambda s: play.act_said(s, name, move))

    @rule(who=NAMES, action=st.sampled_from([*ACTIONS, "dance"]), amount=amounts,
          chips=st.one_of(st.none(), chip_texts))
    def act_any(self, who: str, action: str, amount: int | None, chips: str | None) -> None:
        self.run(f"{action} {who}", lambda s: play.act_said(s, who, action, amount, chips))

    @rule(data=st.data(), spoil=st.sampled_from(["none", "drop", "swap", "short"]))
    def showdown_real(self, data: st.DataObject, spoil: str) -> None:
        """The real seven cards of every live hand, sometimes spoiled (any time in the hand)."""
        state = self.state()
        if state.hand is None:
            return
        self.deal(state, data.draw(st.randoms(use_true_random=False)))
        hands = self.real_hands(state)
        if spoil == "drop" and hands:
            hands.pop(data.draw(st.integers(0, len(hands) - 1)))
        elif spoil == "swap" and len(hands) > 1:
            hands[0] = (hands[0][0], hands[1][1])
        elif spoil == "short" and hands:
            hands[-1] = (hands[-1][0], " ".join(hands[-1][1].split()[:6]))
        self.run("showdown", lambda s: showdowns.showdown(s, hands, magic=False, now=self.clock))

    @rule(hands=st.lists(st.tuples(st.one_of(st.none(), NAMES), card_lists), max_size=5),
          magic=st.booleans())
    def showdown_any(self, hands: list[tuple[str | None, list[str]]], magic: bool) -> None:
        given = [(name, " ".join(cards)) for name, cards in hands]
        self.run("showdown", lambda s: showdowns.showdown(s, given, magic=magic, now=self.clock))

    # -- around the table -------------------------------------------------------------------

    @rule(source=NAMES, dest=NAMES, chips=chip_texts)
    def give(self, source: str, dest: str, chips: str) -> None:
        self.run(f"give {source} {dest} {chips}",
                 lambda s: commands.give_chips(s, source, dest, chips))

    @rule(data=st.data(), away=st.booleans())
    def give_held(self, data: st.DataObject, away: bool) -> None:
        """Chips someone really holds, to someone else; with ``away`` the giver first rises
        from the table if seated (and out of the hand), so that the Law allows it (R16)."""
        state = self.state()
        live = state.hand.live if state.hand else []
        # With ``away``, only people who can be away: not the Fool, not in the hand (E9).
        can_leave = [p for p in state.people if not away or (p != state.fool and p not in live)]
        holders = [p for p in PEOPLE if p in can_leave and state.stack(p)]
        if not holders:
            return
        source = data.draw(st.sampled_from(holders))
        if away and commands.at_table(state, source) and source != state.fool:
            self.run(f"rise {source}", lambda s: commands.rise(s, source))
        dests = [p for p in can_leave if p != source]
        if not dests:
            return
        dest = data.draw(st.sampled_from(dests))
        if away and commands.at_table(state, dest) and dest != state.fool:
            self.run(f"rise {dest}", lambda s: commands.rise(s, dest))
        colour = data.draw(st.sampled_from(sorted(state.holding(source))))
        n = data.draw(st.integers(1, state.holding(source)[colour]))
        self.run(f"give {source} {dest}",
                 lambda s: commands.give_chips(s, source, dest, f"{colour}:{n}"))

    @rule(data=st.data())
    def rise_or_sit(self, data: st.DataObject) -> None:
        """A real stakeholder rises (or sits again when risen): legal unless in the hand."""
        state = self.state()
        if not state.seats:
            return
        seat = data.draw(st.sampled_from(state.seats))
        how = commands.rise if seat.seated else commands.sit
        self.run(f"{how.__name__} {seat.name}", lambda s: how(s, seat.name))

    @rule(who=NAMES, how=st.sampled_from(["rise", "sit", "resign"]))
    def seat(self, who: str, how: str) -> None:
        build = {"rise": commands.rise, "sit": commands.sit, "resign": commands.resign}[how]
        self.run(f"{how} {who}", lambda s: build(s, who))

    # -- undo / redo ------------------------------------------------------------------------

    @rule(yes=st.booleans())
    def undo(self, yes: bool) -> None:
        """As ``referee undo [--yes]``: a showdown is undone only with --yes."""
        before = self.files()
        try:
            with open_evening(self.db) as ev:
                last = ev.last_command("evening")
                if last is None:
                    raise IllegalAction("nothing to undo")
                if not yes and any(e["kind"] == "showdown" and e.get("hands")
                                   for e in last.events):
                    raise IllegalAction("undoing a showdown needs --yes")
                ev.undo("evening")
        except RefereeError:
            assert self.files() == before
            seen("undo: refused")
            return
        seen("undo: accepted")

    @rule()
    def redo(self) -> None:
        before = self.files()
        try:
            with open_evening(self.db) as ev:
                ev.redo("evening")
        except RefereeError:
            assert self.files() == before
            seen("redo: refused")
            return
        seen("redo: accepted")

    # -- a few commands through the CLI -----------------------------------------------------

    @rule(words=st.one_of(
        st.tuples(st.sampled_from(["bet", "raise"]), NAMES, st.integers(0, 4).map(str)),
        st.tuples(st.sampled_from(["call", "check", "fold", "rise", "sit", "resign"]), NAMES),
        st.tuples(st.just("chips"), st.just("give"), NAMES, NAMES, chip_texts),
        st.tuples(st.just("hand"), st.just("show"), NAMES, st.sampled_from(CARDS),
                  st.sampled_from(CARDS)),
        st.sampled_from([("hand", "start"), ("status",), ("status", "--json"), ("log",),
                         ("log", "--json"), ("verify",), ("undo",), ("undo", "--yes"),
                         ("redo",), ("open-phase",)]),
    ))
    def cli(self, words: tuple[str, ...]) -> None:
        if self.run_cli(list(words)) and "--json" in words:
            json.loads(CliRunner().invoke(app, ["--db", str(self.db), *words]).stdout)

    # -- invariants -------------------------------------------------------------------------

    def check_chips(self) -> None:
        state = self.state()
        if state.started:
            chips_ok(state)

    @invariant()
    def chips_conserved(self) -> None:
        self.check_chips()

    @invariant()
    def the_hand_can_go_on(self) -> None:
        """A hand whose betting is not over always has someone to act, unless the round's up
        cards are still to be given (R9)."""
        state = self.state()
        hand = state.hand
        if hand is not None and not hand.betting_over:
            waiting = hand.round.actions == 0 and betting.missing_up_cards(state, hand)
            assert betting.to_act(state, hand) is not None or waiting, views.hand_view(state)

    @invariant()
    def table_rules_hold(self) -> None:
        """R12: at most three raises a round in the limit phase; R15: the Fool is in every hand
        to the end; the player to act is live and holds chips; R18: over exactly when at most
        one side (besides the Fool) holds chips."""
        state = self.state()
        if not state.started:
            return
        hand = state.hand
        if hand is not None:
            assert state.fool in hand.order and state.fool in hand.live
            if hand.phase == "limit":
                assert hand.round.raises <= betting.LIMIT_RAISES
            name = betting.to_act(state, hand)
            if name is not None:
                assert name in hand.live and state.stack(name) > 0, (name, views.hand_view(state))
        else:
            sides = {state.side_of(p) or p for p, h in state.chips.items()
                     if p not in (POT, state.fool) and sum(h.values())}
            assert state.over == (len(sides) <= 1), (state.over, sides)

    @invariant()
    def status_renders(self) -> None:
        state = self.state()
        if state.started:
            json.dumps(views.status(state, now=self.clock))

    @invariant()
    def stored_state_is_the_fold_of_the_log(self) -> None:
        """Every eighth step and at teardown: the whole chain verifies and the stored state is
        the fold of the log (the full check is most of a step's time; a fault it finds stays
        in the file, so a later check finds it as surely)."""
        self.steps += 1
        if self.steps % VERIFY_EVERY == 0:
            self.check_the_log()

    def check_the_log(self) -> None:
        if not self.db.exists():
            return
        with open_evening(self.db, write=False) as ev:
            assert verify(ev) == []
            sp = spec("evening")
            fresh: Any = sp.empty()
            for record in ev.records("evening"):
                fresh = sp.apply(fresh, copy.deepcopy(record["event"]))
            assert json.dumps(sp.dump(fresh), sort_keys=True) == json.dumps(
                sp.dump(ev.state("evening")), sort_keys=True)


def test_random_evenings_keep_the_books() -> None:
    SEEN.clear()
    run_state_machine_as_test(EveningMachine, settings=settings(
        max_examples=examples(25), stateful_step_count=40, deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    ))
    # The runs reached whole hands, refusals and the CLI, or they proved little.
    for what in ("showdown: accepted", "showdown: refused", "give: accepted", "cli hand: accepted"):
        assert SEEN[what] > 0, (what, SEEN)
    assert SEEN["undo: accepted"] + SEEN["cli undo: accepted"] > 0, SEEN  # in the core or the CLI


# -- cases the machine met, as plain tests ------------------------------------------------------


def _do(state: State, events: list[Event]) -> State:
    sp = spec("evening")
    for e in events:
        state = sp.apply(state, copy.deepcopy(e))
    return state


def _check_round(state: State) -> State:
    """Whoever is to act checks until the round ends."""
    street = state.hand.round.street if state.hand else 0
    while state.hand is not None and state.hand.round.street == street \
            and not state.hand.betting_over:
        who = betting.to_act(state, state.hand)
        assert who is not None, views.hand_view(state)
        state = _do(state, play.act_said(state, who, "check"))
    return state


def _fool_to_open_round_two() -> State:
    """Hand 1 won by the Fool (he now holds chips); in hand 2 the Fool shows the high hand in
    round one (his forced bet, called), and round two's up cards are then all given."""
    state = _do(State(), commands.new_evening(
        State(), "Fool", [commands.parse_seat("Ada:I:red"), commands.parse_seat("Bob:III:blue")],
        now=0.0, force=False))
    state = _do(state, play.start_hand(state, now=1.0))
    state = _do(state, play.show(state, [("Ada", "2C 3C"), ("Bob", "2W 3W"),
                                         ("Fool", "0 I II III")]))
    state = _do(state, play.act_said(state, "Ada", "bet"))
    state = _do(state, play.act_said(state, "Bob", "call"))
    state = _do(state, play.show(state, [("Ada", "+4S 5S"), ("Bob", "+4W 6S"),
                                         ("Fool", "+IV V")]))
    state = _check_round(state)
    state = _do(state, play.show(state, [("Fool", "+VI")]))
    state = _check_round(state)
    state = _do(state, showdowns.showdown(state, [
        ("Ada", "2C 3C 4S 5S 9C 10W PP"), ("Bob", "2W 3W 4W 6S 8S 10P KnP"),
        ("Fool", "0 I II III IV V VI")], magic=False, now=2.0))
    assert state.stack("Fool") == 2
    state = _do(state, play.start_hand(state, now=3.0))
    state = _do(state, play.show(state, [("Ada", "2C 3C"), ("Bob", "2W 4W"),
                                         ("Fool", "KC KW 0 I")]))
    assert state.hand is not None and state.hand.round.opener == "Fool"  # E4: bet at once
    for who in ("Ada", "Bob"):
        state = _do(state, play.act_said(state, who, "call"))
    assert state.hand is not None and state.hand.round.street == 2
    assert betting.to_act(state, state.hand) is None  # R9: round two's up cards first
    state = _do(state, play.show(state, [("Ada", "+5C 6C"), ("Bob", "+5W 6W"),
                                         ("Fool", "+XX XXI")]))
    return state


def test_r15_the_fool_to_open_a_round_is_never_a_dead_end() -> None:
    state = _fool_to_open_round_two()
    hand = state.hand
    assert hand is not None and not betting.missing_up_cards(state, hand)
    options = betting.options(state, hand)
    assert options is not None
    # E4: once the round's up cards were all given, the Fool's forced opening bet was played.
    assert hand.round.bet == 1 and hand.round.opener == state.fool
    assert options.name != state.fool
    accepted = []
    for move in options.moves:
        try:
            play.act_said(state, state.fool, move)
        except RefereeError:
            continue
        accepted.append(move)
    assert not accepted  # it is not the Fool's turn any more
    for move in options.moves:  # and the player to act can do each move offered
        try:
            play.act_said(state, options.name, move)
        except RefereeError as exc:
            raise AssertionError(f"{options.name} is offered {move} but refused: {exc}") from None
