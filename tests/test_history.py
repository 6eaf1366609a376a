"""A hand told again (E135), over random hands: the history lists the log's events of a hand,
each once, in the log's order, each round told once and in order, and its books replay to the
status after the hand: each person's chips before it, less the ante, the chips of every move
not taken back and the tolls not cancelled, plus the pots' shares and the chips that went
back, are their chips after it.

Pure: each hand is dealt from a shuffled deck and played by the commands of
``referee.evening`` as a GM would type them: moves, up cards fixed, cards slid for powers
and powers used (any of the evening's set, whatever they ask; a refused one changes nothing
and is left out of the log), then checked, called or folded to its showdown with the true
cards.
"""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from referee.content.scenario import load_scenario
from referee.errors import RefereeError
from referee.evening import betting, commands, play, power_moves, souls
from referee.evening import showdown as showdowns
from referee.evening.history import TOLD, hand_history, history_lines
from referee.evening.powers import use as powers
from referee.evening.state import State
from referee.rules.cards import DECK, parse_card
from referee.streams import Event, spec
from tests.profiles import examples

FOOL = "Fiona"
SEATS = ["Ada:XVI:red:Ben:IX", "Cara:III:blue:Dan:V", "Eve:VII:green:Finn:XI"]
STEPS = ("move", "move", "move", "slide", "use", "use", "fix")
#: The majors of the powers that meet the betting: Compulsion, Iron Rule, Fortune Reversed,
#: Mistrial, The Reaper's Toll, Second Thoughts, Standstill. Each hand deals one to each
#: stakeholder face down, so that a power is there to be slid for.
MAJORS = ["I", "IV", "X", "XI", "XIII", "XX", "XXI"]
ACTIONS = ["check", "bet", "call", "raise", "fold", "bet 2", "raise 2", "raise all"]


def _opening() -> list[Event]:
    """The evening's first command, every power free (Charges are not what is told)."""
    specs = [commands.parse_seat(s) for s in SEATS]
    setup = souls.setup_from_scenario(load_scenario(None), specs)
    made: list[Event] = [dict(e) for e in commands.new_evening(State(), FOOL, specs, now=0.0,
                                                               force=False, **setup)]
    for p in made[0]["scenario"]["powers"]:
        p["charges"] = 0
    return made


OPENING = _opening()


class Table:
    """The evening, its log as ``hand_history`` reads it, and each player's true cards."""

    def __init__(self) -> None:
        self.state: State = spec("evening").empty()
        self.log: list[tuple[int, str, list[Event]]] = []
        self.cards: dict[str, list[str]] = {}
        self.deck: list[str] = []
        self.slid: dict[str, list[str]] = {}
        self.stacks: dict[int, list[dict[str, int]]] = {}  # each hand: chips before and after
        self.record("new", lambda s: copy.deepcopy(OPENING))

    def chips(self) -> dict[str, int]:
        return {p: self.state.stack(p) for p in [*(s.name for s in self.state.seats), FOOL]}

    def record(self, text: str, fn: Any, *args: Any, **kw: Any) -> bool:
        """One command: its events folded and logged, or refused and nothing logged."""
        try:
            made = fn(self.state, *args, **kw)
        except RefereeError:
            return False
        events = [copy.deepcopy(dict(e)) for e in made]
        for e in events:
            self.state = spec("evening").apply(self.state, copy.deepcopy(e))
        self.log.append((len(self.log) + 1, text, events))
        return True

    def deal(self, deck: list[str], majors: list[str], open_phase: bool) -> int | None:
        """A hand dealt, its number; None when none can be (the game is over, R18)."""
        before = self.chips()
        if not self.record("hand start", play.start_hand, now=0.0, open_phase=open_phase):
            return None
        hand = self.state.hand
        assert hand is not None
        self.stacks[hand.no] = [before]
        deck = list(deck)
        for i, major in enumerate(majors):  # the first down card of each stakeholder
            at = deck.index(major)
            deck[7 * i], deck[at] = deck[at], deck[7 * i]
        self.cards = {name: deck[7 * i:7 * i + 7] for i, name in enumerate(hand.order)}
        self.deck, self.slid = deck[7 * len(hand.order):], {}
        return hand.no

    def up(self, name: str, street: int) -> list[str]:
        player, fool = betting.UP_CARDS[street]
        return self.cards[name][:fool] if name == FOOL else self.cards[name][2:2 + player]

    def show(self) -> bool:
        hand = self.state.hand
        assert hand is not None
        missing = betting.missing_up_cards(self.state, hand)
        if missing:
            self.record("hand show", play.show,
                        [(n, " ".join(self.up(n, hand.round.street))) for n in missing])
        return bool(missing)

    def down_majors(self, name: str) -> list[str]:
        """``name``'s face-down majors not yet slid: what a power can be asked for with."""
        hand = self.state.hand
        assert hand is not None
        down = [self.cards[name][i] for i in (0, 1, 6)]
        return [c for c in down if parse_card(c).is_major and c not in self.slid.get(name, [])
                and c not in hand.showing.get(name, [])]


def _step(data: st.DataObject, t: Table) -> None:
    hand = t.state.hand
    assert hand is not None
    if t.show():
        return
    what = data.draw(st.sampled_from(STEPS))
    stakeholders = [p for p in hand.live if p != FOOL]
    if what == "move":
        options = betting.options(t.state, hand)
        if options is None:
            return
        action = data.draw(st.sampled_from(options.moves))
        amount = data.draw(st.sampled_from([None, 2, betting.ALL])) \
            if action in ("bet", "raise") else None
        t.record(f"{action}", play.act_said, None, action, amount)
    elif what == "fix":
        who = data.draw(st.sampled_from(sorted(hand.showing)))
        if not hand.showing[who]:
            return
        old = data.draw(st.sampled_from(hand.showing[who]))
        new = data.draw(st.sampled_from(t.deck))
        if t.record(f"hand fix {who} {old} {new}", play.fix, who, old, new):
            t.cards[who][t.cards[who].index(old)] = new
            t.deck.remove(new)
    elif stakeholders:
        usable = _powers(t, hand, stakeholders)
        answers = [u for u in usable
                   if powers.find_power(t.state, u[1])["timing"].startswith("answer")]
        if hand.answerable is not None and answers and data.draw(st.booleans()):
            usable = answers  # Second Thoughts and Mistrial, while there is what they answer
        if not usable:
            return
        who, key, card = data.draw(st.sampled_from(usable))
        others = [p for p in t.state.stakeholders if p != who]
        kw: dict[str, Any] = {
            "target": data.draw(st.one_of(st.none(), st.sampled_from(others))),
            "action": data.draw(st.one_of(st.none(), st.sampled_from(ACTIONS))), "seed": 0}
        if card is None:
            t.record(f"power use {who} {key}", power_moves.use_power, who, key, **kw)
            return
        if what == "slide":
            done = t.record(f"power access {who} {card}", powers.access, who, card,
                            key.split("-")[1])
        else:
            done = t.record(f"power use {who} {key} --access {card}", power_moves.slide_and_use,
                            who, key, card, **kw)
        if done:
            t.slid.setdefault(who, []).append(card)


def _powers(t: Table, hand: Any, stakeholders: list[str]) -> list[tuple[str, str, str | None]]:
    """The powers that might be used now, by whom, and the card slid for each (None: held
    already): each own-turn power by the player to act, each power before a turn by another."""
    to_act = betting.to_act(t.state, hand)
    out: list[tuple[str, str, str | None]] = []
    for who in stakeholders:
        mine: list[tuple[str, str | None]] = [(k, None) for k, p in t.state.powers.items()
                                              if p["holder"] == who and not p["used"]]
        mine += [(powers.power_spec(t.state, parse_card(card).rank, way)["key"], card)
                 for card in t.down_majors(who) for way in ("upright", "reversed")]
        for key, card in mine:
            timing = powers.find_power(t.state, key)["timing"]
            if (timing == "own_turn") == (who == to_act) or timing not in ("own_turn",
                                                                            "before_turn"):
                out.append((who, key, card))
    return sorted(out, key=str)


def _finish(t: Table) -> bool:
    """Checks, calls or folds to the showdown with the true cards; whether it was recorded."""
    for _ in range(100):
        hand = t.state.hand
        if hand is None:
            return True  # every stakeholder folded: the Fool's pot (R15, E7)
        if hand.betting_over:
            hands = [(n, " ".join(c for c in t.cards[n] if c not in t.slid.get(n, [])))
                     for n in hand.live]
            return t.record("hand showdown", showdowns.showdown, hands, magic=False, now=0.0)
        if t.show():
            continue
        options = betting.options(t.state, hand)
        assert options is not None, betting.act_hint(t.state, hand)
        action = next(m for m in ("check", "call", "fold", *options.moves) if m in options.moves)
        forced = [f["amount"] for f in hand.effects  # E163: Compulsion's chips
                  if f["target"] == options.name and "amount" in f]
        assert t.record(action, play.act_said, None, action, *forced[:1])
    return False


def _told_in_the_log(log: list[tuple[int, str, list[Event]]]) -> dict[int, list[Any]]:
    """Each finished hand's events of the kinds a history tells, where the log has them."""
    out: dict[int, list[Any]] = {}
    current: list[Any] | None = None
    for cmd, _text, events in log:
        for at, e in enumerate(events):
            if e["kind"] == "hand_started":
                current, no = [], e["no"]
            elif e["kind"] == "showdown" and current is not None:
                out[no] = current
                current = None
            elif current is not None and e["kind"] in TOLD:
                current.append((cmd, at, e["kind"], e["name"], e))
    return out


@settings(max_examples=examples(40), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data(), decks=st.lists(st.permutations([c.short for c in DECK]), min_size=1,
                                      max_size=2),
       open_phase=st.booleans())
def test_e135_the_history_lists_the_hand_as_the_log_has_it(
        data: st.DataObject, decks: list[list[str]], open_phase: bool) -> None:
    assert set(TOLD) == {"cards_shown", "cards_fixed", "power_accessed", "action",
                         "power_used"}
    t = Table()
    for deck in decks:
        majors = data.draw(st.lists(st.sampled_from(MAJORS), min_size=3, max_size=3,
                                    unique=True))
        no = t.deal(deck, majors, open_phase)
        if no is None:
            break
        for _ in range(data.draw(st.integers(0, 40))):
            if t.state.hand is None or t.state.hand.betting_over:
                break
            _step(data, t)
        if not _finish(t):
            event("a showdown refused")
            return
        t.stacks[no].append(t.chips())
    sp = spec("evening")
    for no, logged in _told_in_the_log(t.log).items():
        told = hand_history(t.log, sp.empty(), sp.apply, no)
        steps = [s for r in told["rounds"] for s in r["steps"]]
        assert [(s["cmd"], s["at"], s["kind"], s["name"]) for s in steps] == \
            [entry[:4] for entry in logged]
        streets = [r["street"] for r in told["rounds"]]
        assert streets == sorted(set(streets)), streets  # each round once, in order
        # The books replay: each person's chips before the hand, less the ante, the moves
        # not taken back and the tolls not cancelled, plus the shares and the chips back, are
        # their chips after it; and what went in is what the pots paid out.
        paid = {p: told["antes"].get(p, 0) for p in t.stacks[no][0]}
        for s, (*_, e) in zip(steps, logged, strict=True):
            if s["kind"] == "action" and not s.get("taken_back"):
                paid[s["name"]] += s["chips"]
            elif s["kind"] == "power_used" and not s.get("cancelled"):
                for payer, c in e.get("paid", {}).items():
                    paid[payer] += sum(c.values())
        showdown = told["showdown"]
        assert showdown is not None
        back = dict(showdown["returned"])
        for pot in showdown["pots"]:
            assert sum(pot["shares"].values()) == pot["size"]
            for winner, n in pot["shares"].items():
                back[winner] = back.get(winner, 0) + n
        assert sum(paid.values()) == sum(back.values())
        before, after = t.stacks[no]
        assert {p: n - paid[p] + back.get(p, 0) for p, n in before.items()} == after
        for s in steps:
            if s["kind"] == "action" and "by" in s:
                assert s["to"] - s["by"] >= 0 and s["by"] >= 1
        event("taken back" if any(s.get("taken_back") for s in steps) else "nothing taken back")
        event("a power used" if any(s["kind"] == "power_used" for s in steps) else "no power")
        event("a power cancelled" if any(s.get("cancelled") for s in steps) else "none cancelled")
        assert len(history_lines(told)) >= len(told["rounds"]) + 1
