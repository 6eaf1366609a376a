"""One ``power use`` being built: the state, the user, the power, what the GM gave and what the
betting says now (read once, by ``referee.evening.powers.use``), and the helpers the power
kinds share (``referee.evening.powers.kinds``). Below the betting machine: a kind asks the
betting nothing, it reads ``Use.now``."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from referee.errors import BadInput, IllegalAction
from referee.evening.events import EveningEvent, PowerSpec
from referee.evening.known import face_down, known
from referee.evening.powers import constraints
from referee.evening.state import ALL, HandState, State
from referee.names import match_name
from referee.rules.cards import ACE, KING, Card, parse_card
from referee.rules.pots import pick_chips
from referee.said import Said, said

if TYPE_CHECKING:
    from referee.jsontypes import JSONObject

#: What the GM gave a ``power use``, flag by flag: a name, an action or a card, or several
#: cards (``--card`` given more than once); None or empty when the flag was left out.
Given = str | tuple[str, ...] | None


def label(spec: PowerSpec) -> str:
    """A power as the GM reads it: ``Second Thoughts (XX reversed)`` (E57)."""
    from referee.rules.cards import to_roman

    return f"{spec['name']} ({to_roman(spec['card'])} {spec['orientation']})"


def power_label(state: State, key: str) -> str:
    """The power ``key`` of the evening's set by its name and card; the key if unknown."""
    spec = next((p for p in state.scenario.get("powers", []) if p["key"] == key), None)
    return label(spec) if spec else key


@dataclass(frozen=True)
class TableNow:
    """What the betting says at the moment of a use (R9-R15, S17), read once from the betting
    machine by whoever asks for the use (``referee.evening.betting.now``): the powers sit below
    the betting, read this and never call it."""

    to_act: str | None                    # whose turn it is (None: nobody may act)
    moves: tuple[str, ...]                # what they may do, narrowed by the powers in force
    owed: Mapping[str, int]               # what each player still in owes to call
    able: tuple[str, ...]                 # who can still bet (R14, S19)
    may: Callable[[str, str, int | None], bool]   # whether a player may make a move now
    waiting: Callable[[], Said]           # why nobody may act, and what comes next
    commands: Callable[[], Said]          # the moves of the player to act, as data (E240)


FLAGS = {"target": "--target NAME", "cards": "--card CARD", "new": "--new CARD",
         "as": "--as CARD", "action": "--action ACTION", "folds": "--fold NAME"}


class Use:
    """One ``power use``: the state, the user, the power and what the GM gave; each builder
    takes what its effect needs, and anything left over is refused."""

    def __init__(self, state: State, hand: HandState, name: str, spec: PowerSpec,
                 given: Mapping[str, Given], now: TableNow) -> None:
        self.state, self.hand, self.name, self.spec, self.now = state, hand, name, spec, now
        self.title: str = spec["name"]
        self.effect: JSONObject = dict(spec.get("effect") or {"kind": "by_hand"})
        self.given = {k: v for k, v in given.items() if v not in (None, (), [])}
        self.taken: set[str] = set()
        self.moves: list[tuple[str, str, int | None]] = []  # bets made with the power, first
        self.after: list[EveningEvent] = []
        self.drawn = 0  # E267: cards the power dealt its user face down before it names one

    @property
    def kind(self) -> str:
        """The effect's kind: a name of ``power_vocab.EFFECTS``, checked as the scenario was
        read (``referee.content.scenario``)."""
        kind = self.effect["kind"]
        assert isinstance(kind, str), kind
        return kind

    def take(self, key: str) -> Given:
        self.taken.add(key)
        return self.given.get(key)

    def need(self, key: str, what: str) -> str | tuple[str, ...]:
        value = self.take(key)
        if value is None:
            raise BadInput(f"{self.title} needs {FLAGS[key]}: {what}")
        return value

    def one_card(self, key: str, what: str) -> str:
        value = self.need(key, what)
        if isinstance(value, (list, tuple)):
            if len(value) != 1:
                raise BadInput(f"{self.title} takes one {FLAGS[key]}: {what}")
            value = value[0]
        return parse_card(str(value)).short

    def leftovers(self) -> None:
        extra = [FLAGS[k] for k in self.given if k not in self.taken]
        if extra:
            wanted = ", ".join(FLAGS[k] for k in sorted(self.taken)) or "nothing more"
            raise BadInput(f"{self.title} takes no {' or '.join(extra)} (it asks for: {wanted})")

    def fail(self, text: str | Said, ruling: str = "S11") -> IllegalAction:
        return IllegalAction(said(f"{self.title}: ", text), ruling=ruling)  # the id once (line())

    def action(self, text: str, legal: list[str], what: str) -> tuple[str, int | None]:
        """E163: ``--action`` as the GM says it, the chips of a bet or raise after it as the
        `bet` and `raise` commands read them (``raise 2``: two over the bet; ``raise all``); none
        given, the betting's own default. In the limit phase a bet or raise is one chip (R12)."""
        word, _, rest = text.strip().partition(" ")
        moves = list(dict.fromkeys(legal))
        if word.lower() in ("check", "bet", "call", "raise", "fold") and word.lower() not in moves:
            raise self.fail(f"the rules leave no {word.lower()} here; {what}: "
                            f"{' or '.join(moves)}", "S17")  # R14: a short stack only calls
        action = match_name(word, moves, what)
        rest = rest.strip()
        if not rest:
            return action, None
        if action not in ("bet", "raise"):
            raise BadInput(f"{self.title}: only a bet or a raise carries chips; give --action "
                           f"{action}, not {text!r} (E163)", ruling="E163")
        if rest.lower() == "all":
            amount = ALL
        elif rest.isascii() and rest.isdigit() and int(rest) >= 1:
            amount = int(rest)
        else:
            raise BadInput(f"{self.title}: {rest!r} is no amount; give --action '{action} N' "
                           f"with a whole number of chips, 1 or more, or '{action} all' (E27, "
                           "E163)", ruling="E163")
        if self.hand.phase == "limit" and amount != 1:
            raise self.fail(f"limit phase: every bet and raise is exactly one chip; give --action "
                           f"{action} (amounts are for the open phase)", "R12")
        return action, amount

    # -- people and cards --

    def target(self, *, live: bool = True) -> str:
        text = self.need("target", "another stakeholder" + (" still in the hand" if live else ""))
        return self.person(str(text), live=live)

    def person(self, text: str, *, live: bool = True) -> str:
        state = self.state
        if match_name(text, [*state.stakeholders, state.fool], "player") == state.fool:
            raise self.fail("powers never touch the Fool or his hand", "S7")
        who = match_name(text, state.stakeholders, "stakeholder")
        if who == self.name:
            raise self.fail(f"the power is used on another stakeholder, not on {who} "
                            "themselves", "S7")
        seat = state.seat(who)
        if seat.dead or seat.resigned:  # E276: no longer a stakeholder (R17, R22)
            raise self.fail(f"{who} is out of the game ({'dead' if seat.dead else 'resigned'}); "
                            "a power is used on a stakeholder still in the game", "E276")
        if live and who not in self.hand.live:
            raise self.fail(f"{who} is not in hand {self.hand.no}; choose a stakeholder still "
                            "in the hand", "S7")
        return who

    def up_card(self, owner: str, card: str, *, dead_ok: bool = False) -> str:
        """One of ``owner``'s up cards, not held fast (S23); a dead one only when ``dead_ok``:
        a card cut down stays on the table, so the user may discard it (E263, S21)."""
        if card not in self.hand.showing.get(owner, []):
            shown = " ".join(self.hand.showing.get(owner, [])) or "none"
            raise self.fail(f"{card} is not one of {owner}'s up cards ({shown})", "S21")
        if not dead_ok and card in constraints.dead_cards(self.hand, owner):
            raise self.fail(f"{owner}'s {card} is dead and counts for nothing", "S21")
        self.unprotected(owner, card)
        return card

    def unseen(self, card: str, whose: str, owner: str | None = None) -> str:
        """A card that may lie face down in ``owner``'s hand (or, with no owner, on the deck):
        nowhere the table can see it, and named as no one else's by a power (E56)."""
        for shower, shown in self.hand.showing.items():
            if card in shown:
                raise self.fail(f"{card} is showing for {shower}; it cannot be {whose}", "R8")
        seen = known(self.hand)
        if card in seen.out:
            raise self.fail(f"{card} is out of this hand (given up or discarded by "
                            f"{seen.out[card][0]}); it cannot be {whose}", "R8")
        holder, how = seen.owners.get(card, (owner, "up"))
        if holder != owner and how == "hooded":  # R44: a down card the console knows
            raise self.fail(f"{card} is {holder}'s (turned face down by a power); it cannot be "
                            f"{whose}", "R44")
        if holder != owner and how != "up":
            raise self.fail(f"{card} is {holder}'s ({how} named it as one of {holder}'s "
                            f"cards); it cannot be {whose}", "E56")
        mine = seen.of(owner).down if owner is not None else ()
        if owner is not None and card not in mine and len(mine) >= self.down_left(owner):
            raise self.fail(f"{owner}'s face-down cards are all known ({' '.join(mine)}): "
                            f"{card} is not one of them", "R44")
        return card

    def own(self, card: str, *, dead_ok: bool = False) -> str:
        """A card the power names as one of the user's ("your cards", E56): one of their up
        cards (not a dead one, unless ``dead_ok``), or a card that may be face down in their
        hand, so nowhere the table can see it. How many such down cards they can hold is
        checked by ``own_cards``."""
        name = self.name
        if card in self.hand.showing.get(name, []):
            if not dead_ok and card in constraints.dead_cards(self.hand, name):
                raise self.fail(f"{name}'s {card} is dead and counts for nothing in "
                                f"{name}'s hand", "E56")
            return card
        for owner, shown in self.hand.showing.items():
            if card in shown:
                raise self.fail(f"{card} is showing for {owner}, not in {name}'s hand", "E56")
        return self.unseen(card, f"in {name}'s hand", name)

    def own_cards(self, cards: list[str], *, dead_ok: bool = False) -> list[str]:
        """Several of the user's cards (E56): each ``own``, and no more face-down ones than
        the user holds face down now."""
        for card in cards:
            self.own(card, dead_ok=dead_ok)
        down = [c for c in dict.fromkeys(cards) if c not in self.hand.showing.get(self.name, [])]
        left = self.down_left(self.name)
        held = f"{left} face-down card" + ("" if left == 1 else "s")
        if len(down) > left:
            up = " ".join(self.hand.showing.get(self.name, [])) or "none"
            raise self.fail(f"{self.name} holds {held} now (up: {up}), so "
                            f"{' and '.join(down)} cannot {'both' if len(down) == 2 else 'all'} "
                            f"be in {self.name}'s hand", "E56")
        seen = known(self.hand)
        mine = seen.of(self.name).down
        new = [c for c in down if c not in mine]
        if new and len(mine) + len(new) > left:  # R44: the known ones fill the hand already
            raise self.fail(f"{self.name} holds {held} now and the console knows "
                            f"{'it' if left == 1 else 'them'} ({' '.join(mine)}), "
                            f"so {' and '.join(new)} cannot be in {self.name}'s hand", "R44")
        return cards

    def unprotected(self, owner: str, card: str) -> None:
        held = constraints.protected(self.hand, owner, card)
        if held:
            raise self.fail(f"{owner}'s {card} is held fast by {held}: no power can change, "
                            "swap, turn or remove it", "S23")

    def down_left(self, owner: str) -> int:
        """Face-down cards ``owner`` still holds: two, three after the last card (R26), and
        for the user the ones this power has just dealt them (The Dance, E267)."""
        hand = self.hand
        drawn = self.drawn if owner == self.name else 0
        return drawn + face_down(hand, owner,
                                 3 if hand.round.street >= 3 or hand.betting_over else 2)

    def turnable(self, owner: str) -> int:
        """E260: the face-down cards ``owner`` could turn up: those held, less the ones held
        fast (S23), which no power turns."""
        mine = known(self.hand).of(owner)
        return max(0, self.down_left(owner) - len([c for c in mine.down if c in mine.held]))

    def all_held_fast(self) -> str:
        """E260: the stakeholders still in whose face-down cards are all held fast, said."""
        fast = [p for p in self.hand.live if p != self.state.fool and self.down_left(p) > 0
                and not self.turnable(p)]
        return "".join(f"; {p}'s face-down cards are all held fast, so {p} turns none (S23, "
                       "E260)" for p in fast)

    def taken_back(self) -> tuple[str, str]:
        """S15: whose bet or raise Second Thoughts takes back, and what it says; a power
        used with it in one act (Iron Rule) is spent with it, to no effect (E265)."""
        answer = self.hand.answerable
        assert answer is not None
        by = answer["by"]
        came = f"; {answer['event']['title']}, used with it, is spent to no effect, its " \
            "Charges lost (E265)" if answer["kind"] == "power" else ""
        return by, (f"{by}'s {answer['action']} is taken back, chips and all; {by} acts again "
                    f"and may only check, call or fold{came}")

    def chained(self, who: str) -> None:
        for f in constraints.binding(self.hand, who, ("no_fold",)):
            raise self.fail(f"{who} may not fold this round: {f['power']}", "S30")

    def may_fold(self, who: str) -> None:
        """S17, S30: a fold forced on the player to act (Compulsion) is one the powers in
        force leave them: not Chained, nor narrowed to moves without a fold (Excess, an
        earlier Compulsion). Owing nothing and narrowed by none, a fold is still allowed."""
        self.chained(who)
        narrowing = constraints.binding(self.hand, who, constraints.NARROWING)
        if narrowing and "fold" not in self.now.moves:
            powers = ", ".join(dict.fromkeys(str(f["power"]) for f in narrowing))
            raise self.fail(f"{who} may not fold on this turn: {' or '.join(self.now.moves)} "
                            f"only ({powers})", "S17")


def pay(state: State, who: str, n: int) -> dict[str, int]:
    return pick_chips(state.holding(who), min(n, state.stack(who)), own=state.colour_of(who),
                      own_first=state.own_colour_first)


def counts_as(use: Use, rule: str, card: Card, target: str | None,
              second: Card | None = None) -> str:
    """The card ``card`` counts as under ``rule`` (S22), from ``--as`` or the rule itself;
    ``second`` is Mingling the Waters' second card, whose suit it takes (E56)."""
    given = use.take("as")
    wanted = parse_card(str(given)) if given else None
    if rule == "same_rank" and second is not None:
        if card.is_major or second.is_major:
            raise use.fail(f"{card.short} and {second.short} must both be minor cards", "S22")
        made = Card(second.suit, card.rank)
        if second.suit == card.suit:
            raise use.fail(f"{second.short} is of {card.short}'s own suit; the second card "
                           "names another suit", "S22")
        if wanted is not None and wanted != made:
            raise use.fail(f"{card.short} in the suit of {second.short} counts as "
                           f"{made.short}, not {wanted.short}", "S22")
        return made.short
    if rule in ("king", "mirror"):
        if card.is_major:
            raise use.fail(f"{card.short} is a major; the power works on a minor card", "S22")
        rank = KING if rule == "king" else ACE + KING - card.rank
        made = Card(card.suit, rank)
        if wanted is not None and wanted != made:
            raise use.fail(f"{card.short} counts as {made.short}, not {wanted.short}", "S22")
        return made.short
    why = {
        "any": "any card you name",
        "same_suit": "a card of the same suit (a major: another major)",
        "own_card": "another card of the user's hand",
        "any_minor": "a minor card, and the card changed must be a major",
        "same_rank": "a minor of the same rank in another suit",
        "target_up": f"one of {target}'s up cards",
        "adjacent": "the next rank up or down in the same suit, around the Rota",
    }[rule]
    if wanted is None:
        raise BadInput(f"{use.title} needs --as CARD: the card {card.short} may count as "
                       f"{why}")
    # E272: a copy of the target's up card is of that card as it counts (E266)
    copies = constraints.counting(use.hand, target, dead=True) if target else {}
    ok = {
        "any": True,
        "same_suit": wanted.suit == card.suit and wanted != card,
        "own_card": wanted != card,
        "any_minor": card.is_major and not wanted.is_major,
        "same_rank": not card.is_major and not wanted.is_major and wanted.rank == card.rank
        and wanted != card,
        "target_up": wanted.short in copies or wanted.short in copies.values(),
        "adjacent": not card.is_major and wanted.suit == card.suit
        and (wanted.rank - card.rank) % 14 in (1, 13),
    }[rule]
    if not ok:
        raise use.fail(f"{card.short} may count only as {why}, not {wanted.short}", "S22")
    return copies.get(wanted.short, wanted.short)


def said_action(action: str, amount: int | None) -> str:
    """A move as ``--action`` gives it: ``raise 5``, ``bet all``, ``call`` (E163)."""
    return action if amount is None else f"{action} {'all' if amount == ALL else amount}"
