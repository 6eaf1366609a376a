"""Powers that name the user's own cards (E56, S22): over random deals, a use naming a card the
user does not hold is refused, or makes no hand at the showdown.

Pure: the hand is dealt from a shuffled deck, played by the commands of ``referee.evening``
as the GM would type them, and the showdown is given every player's true cards. A card "not
held" by Ada is another player's up or down card, a card of the deck, or the major she slid
to the Fool for the power itself. (The Dance discards a card it names: one of the deck's
cannot be told from a real one, at the table or at the console, so for it only the cards of
others and the one slid are drawn.)
"""

from __future__ import annotations

import copy
import pickle
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from referee.errors import RefereeError
from referee.evening import betting, play, power_moves
from referee.evening import showdown as showdowns
from referee.evening.folds import apply
from referee.evening.powers import use as powers
from referee.evening.state import State
from referee.rules.cards import DECK, parse_card
from referee.streams import Event
from tests.profiles import examples
from tests.test_souls import evening

USER, OTHERS, FOOL = "Ada", ("Cara", "Eve"), "Fiona"

#: Every default power that names cards of its user's hand, and the slots it fills with them.
#: ``card``/``as``/``card2``/``new``: the option; ``own``: which slots name the user's cards.
NAMING: dict[str, dict[str, Any]] = {
    "The Leap": {"own": ["card"], "as": "any"},
    "As Above, So Below": {"own": ["card"], "as": "same_suit"},
    "Abundance": {"own": ["card", "as"]},
    "Royal Decree": {"own": ["card"]},
    "Conversion": {"own": ["card"], "as": "any"},
    "Upside Down": {"own": ["card"]},
    "Mingling the Waters": {"own": ["card", "card2"]},
    "Counterfeit": {"own": ["card"], "as": "target_up"},
    "Waxing and Waning": {"own": ["card"], "as": "adjacent"},
    "Hold Fast": {"own": ["card"]},
    "Hood the Lantern": {"own": ["card"]},
    "Onward": {"own": ["card"], "new": "deck"},
    "Exchange of Vows": {"own": ["card"], "new": "target_up"},
    "The Dance": {"own": ["card"]},
    "Weighed in the Balance": {"own": ["new"], "card": "target_down"},
}


def _table() -> bytes:
    state = evening()
    for spec in state.scenario["powers"]:  # free powers: Charges are not what is tested here
        spec["charges"] = 0
    return pickle.dumps(state)


TABLE = _table()


def _fold(state: State, events: list[Event]) -> State:
    for record in events:
        state = apply(state, copy.deepcopy(record))
    return state


class Hand:
    """One hand dealt from ``deck``: seven cards each (down, down, up, up, up, up, down for a
    stakeholder, all up for the Fool), played by checks."""

    def __init__(self, deck: list[str]) -> None:
        self.cards = {name: deck[7 * i:7 * i + 7]
                      for i, name in enumerate([*OTHERS, USER, FOOL])}
        self.deck = deck[28:]
        self.state: State = pickle.loads(TABLE)
        self.slid: list[str] = []
        self.do(play.start_hand, now=0.0)

    def do(self, fn: Any, *args: Any, **kw: Any) -> None:
        self.state = _fold(self.state, fn(self.state, *args, **kw))

    def up(self, name: str, street: int) -> list[str]:
        if name == FOOL:
            return self.cards[name][:betting.UP_CARDS[street][1]]
        return self.cards[name][2:2 + betting.UP_CARDS[street][0]]

    def deal_round(self) -> None:
        hand = self.state.hand
        assert hand is not None
        missing = betting.missing_up_cards(self.state, hand)
        if missing:
            self.do(play.show, [(n, " ".join(self.up(n, hand.round.street))) for n in missing])

    def check_until(self, stop: Any) -> None:
        """Deal and check around until ``stop()`` or the end of the betting."""
        while (hand := self.state.hand) is not None and not hand.betting_over and not stop():
            self.deal_round()
            if stop():
                return
            self.do(play.act_said, None, "check")

    def true_hands(self) -> list[tuple[str | None, str]]:
        hand = self.state.hand
        assert hand is not None
        return [(name, " ".join(c for c in self.cards[name] if c not in self.slid))
                for name in hand.live]


def _deal(data: st.DataObject, power: str) -> Hand:
    state: State = pickle.loads(TABLE)
    spec = powers.find_power(state, power)
    deck = [c.short for c in data.draw(st.permutations(DECK))]
    major = next(c for c in deck if parse_card(c).is_major and parse_card(c).rank == spec["card"])
    deck.remove(major)
    deck.insert(14, major)  # Ada's first down card: she slides it for the power (R26)
    return Hand(deck)


def _options(data: st.DataObject, power: str, h: Hand, slot: str, bad: str) -> dict[str, Any]:
    """The power's options: ``bad`` in ``slot``, every other slot filled as it should be."""
    how = NAMING[power]
    mine = [c for c in h.cards[USER] if c not in h.slid]
    up = h.state.hand.showing.get(USER, []) if h.state.hand else []
    target = OTHERS[0]
    their_up = h.state.hand.showing.get(target, []) if h.state.hand else []
    their_down = [c for c in h.cards[target] if c not in their_up]

    def good(name: str) -> str:
        pool = up if power in ("Hood the Lantern", "Onward", "Exchange of Vows") else mine
        return data.draw(st.sampled_from(pool or mine))

    kw: dict[str, Any] = {}
    cards = []
    for key in ("card", "card2"):
        if key in how["own"] or (key == "card" and "card" in how):
            value = bad if slot == key else (
                data.draw(st.sampled_from(their_down)) if how.get("card") == "target_down"
                else good(key))
            cards.append(value)
    if cards:
        kw["cards"] = cards
    if "as" in how["own"]:
        kw["as_card"] = bad if slot == "as" else good("as")
    elif how.get("as") == "target_up" or how.get("new") == "target_up":
        kw["target"] = target
        chosen = data.draw(st.sampled_from(their_up))
        kw["as_card" if how.get("as") else "new"] = chosen
    elif how.get("as"):
        kw["as_card"] = data.draw(st.sampled_from(h.deck + mine))
    if how.get("card") == "target_down":
        kw["target"] = target
    if "new" in how["own"]:
        kw["new"] = bad if slot == "new" else good("new")
    elif how.get("new") == "deck":
        kw["new"] = h.deck[0]
    return kw


@settings(max_examples=examples(50), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), power=st.sampled_from(sorted(NAMING)))
def test_e56_a_card_the_user_does_not_hold_is_refused_or_makes_no_hand(
        data: st.DataObject, power: str) -> None:
    h = _deal(data, power)
    spec = powers.find_power(h.state, power)
    h.deal_round()
    h.do(powers.access, USER, h.cards[USER][0], spec["orientation"])
    h.slid.append(h.cards[USER][0])
    own_turn = spec["timing"] == "own_turn"
    if own_turn:  # on Ada's turn in the last round, once its cards are all dealt
        h.check_until(lambda: h.state.hand is not None and h.state.hand.round.street == 3
                      and not betting.missing_up_cards(h.state, h.state.hand)
                      and betting.to_act(h.state, h.state.hand) == USER)
        if h.state.hand is None or h.state.hand.betting_over:
            event("Ada never to act")
            return  # Ada never came to act (a round with nobody to bet): nothing to test
    else:
        h.check_until(lambda: False)
    hand = h.state.hand
    assert hand is not None
    slot = data.draw(st.sampled_from(NAMING[power]["own"]))
    theirs = [c for n in (*OTHERS, FOOL) for c in h.cards[n]]
    pool = theirs + h.slid + ([] if power == "The Dance" else h.deck[1:8])
    bad = data.draw(st.sampled_from(pool))
    kw = _options(data, power, h, slot, bad)
    before = pickle.dumps(h.state)
    try:
        events = power_moves.use_power(h.state, USER, power, **kw)
    except RefereeError:
        assert pickle.dumps(h.state) == before  # refused at use: nothing changed
        event("refused at use")
        return
    h.state = _fold(h.state, events)
    h.check_until(lambda: False)
    try:
        showdowns.showdown(h.state, h.true_hands(), magic=False, now=0.0)
    except RefereeError:
        event("refused at the showdown")
        return  # the showdown with everyone's true cards is refused: no hand is made of it
    raise AssertionError(f"{power} with {kw} ({bad} in {slot}, not Ada's) made a hand")


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), power=st.sampled_from(["The Leap", "Abundance", "Hold Fast",
                                             "Royal Decree", "Upside Down"]))
def test_e56_cards_the_user_holds_make_the_hand(data: st.DataObject, power: str) -> None:
    """The other side: the same powers naming Ada's own cards are accepted, and so is the
    showdown of the true hands."""
    h = _deal(data, power)
    spec = powers.find_power(h.state, power)
    h.deal_round()
    h.do(powers.access, USER, h.cards[USER][0], spec["orientation"])
    h.slid.append(h.cards[USER][0])
    h.check_until(lambda: False)
    mine = [c for c in h.cards[USER] if c not in h.slid]
    minors = [c for c in mine if not parse_card(c).is_major]
    pick = minors if power in ("Royal Decree", "Upside Down") else mine
    if not pick:
        return
    card = data.draw(st.sampled_from(pick))
    kw: dict[str, Any] = {"cards": [card]}
    if power == "The Leap":
        kw["as_card"] = data.draw(st.sampled_from([c.short for c in DECK]))
    elif power == "Abundance":
        kw["as_card"] = data.draw(st.sampled_from([c for c in mine if c != card]))
    events = power_moves.use_power(h.state, USER, power, **kw)
    h.state = _fold(h.state, events)
    showdowns.showdown(h.state, h.true_hands(), magic=False, now=0.0)
