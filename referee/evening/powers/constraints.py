"""What the powers in force impose (S17-S30), read by the rest of the evening: on the betting
one ``Constraints`` value per question (``constraints``: who is suspended, the up cards that
count, parsed and ranked, whom a power names to open, the moves each player is left), on the
showdown the cards that count (``counted``), on souls and guesses the bars and exiles, and for
the table what binds it now (``in_force``). Pure; the effects themselves are folded by
``referee.evening.powers.effects``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TypedDict

from referee.errors import BadInput
from referee.evening.known import known
from referee.evening.state import HAND, LATE, ROUND, TOLL, TURN, Effect, HandState, State
from referee.names import plural
from referee.rules.cards import Card, Suit, parse_card, parse_cards
from referee.rules.hands import Hand, best_hand
from referee.said import Said, Suggest

# -- what binds the next actions ---------------------------------------------------------------


def binding(hand: HandState, name: str, kinds: tuple[str, ...] | None = None
            ) -> list[Effect]:
    """The effects in force on ``name`` now (round effects of this street only)."""
    street = hand.round.street
    return [f for f in hand.effects
            if (kinds is None or f["kind"] in kinds)
            and ((f["scope"] in (TURN, HAND) and f["target"] == name)
                 or (f["scope"] == ROUND and f["street"] == street
                     and f["target"] in (None, name)))]


def suspended(hand: HandState, name: str) -> bool:
    """S19: a stakeholder playing as if all-in takes no further action."""
    return any(f["kind"] == "all_in" and f["target"] == name for f in hand.effects)


def cannot_open(state: State, hand: HandState, name: str) -> tuple[str, str]:
    """S20, E270: why ``name`` cannot be the one a power names to open a round, and the rule
    that says so: no chips left (R14), or Suspended (S19: no further action this hand); an
    empty reason when they can."""
    if not state.stack(name):
        return "holds no chips", "S20"
    if suspended(hand, name):
        return "is Suspended and takes no further action this hand (S19)", "E270"
    return "", ""


def dead_cards(hand: HandState, name: str) -> list[str]:
    return [f["card"] for f in hand.effects if f["kind"] == "dead" and f["target"] == name]


def magic_card(hand: HandState, card: str) -> bool:
    """Whether a power made ``card`` count as another card (S22)."""
    return any(f["kind"] == "counts_as" and f["card"] == card for f in hand.effects)


def magic_moves(hand: HandState, moved: dict[str, str]) -> None:
    """E252: a magic card goes with its chip (S6): it counts as it did in the hand of whoever
    holds it now, its other named cards left behind (seen to be its user's when it was used,
    E56); a card named beside another's magic that moved is no longer asked of that hand.
    Each effect changed is replaced, never changed in place: a copy of the state shares the
    effects of the one it was copied from (``state.copy``)."""
    for i, f in enumerate(hand.effects):
        if f["kind"] != "counts_as":
            continue
        if f["card"] in moved:
            made = Effect(**f)
            made["target"] = moved[f["card"]]
            made.pop("needs", None)
            made.pop("suit", None)
            hand.effects[i] = made
        elif any(c in moved for c in f.get("needs", [])):
            hand.effects[i] = Effect(**{**f, "needs": [c for c in f.get("needs", [])
                                                       if c not in moved]})


def live_up(hand: HandState, name: str) -> list[str]:
    """The up cards that count in a showing hand: dead ones count for nothing (S21)."""
    dead = dead_cards(hand, name)
    return [c for c in hand.showing.get(name, []) if c not in dead]


def counting(hand: HandState, name: str, *, dead: bool = False) -> dict[str, str]:
    """E266: ``name``'s up cards that count (with ``dead``, every up card as it lies), each
    with what it counts as: a card a power made count as another counted so (S22; the later
    power where two changed it, S52), any other as itself."""
    made = {f["card"]: f["counts"] for f in binding(hand, name, ("counts_as",))}
    cards = hand.showing.get(name, []) if dead else live_up(hand, name)
    return {c: made.get(c, c) for c in cards}


def counts_now(hand: HandState, name: str, card: str) -> str:
    """E275: what ``card`` of ``name``'s hand, up or down, counts as now (S22, S52)."""
    made = {f["card"]: f["counts"] for f in binding(hand, name, ("counts_as",))}
    return made.get(card, card)


def showing_as(hand: HandState, name: str) -> list[str]:
    """E266: ``name``'s showing hand: the up cards that count (S21), as they count."""
    return list(counting(hand, name).values())


def highest_up(hand: HandState, name: str) -> list[str]:
    """S21, E271: ``name``'s highest up cards (Lightning Strike's), of those that count, each
    ranked as it counts (E266): a Four that counts as a King is a King."""
    up = counting(hand, name)
    top = max((parse_card(c).strength for c in up.values()), default=None)
    return [c for c, made in up.items() if parse_card(made).strength == top]


def told_as(hand: HandState, name: str, cards: Sequence[str]) -> str:
    """``cards`` of ``name``'s as the table reads them: ``4C (counts as KC)`` (S6, E266)."""
    up = counting(hand, name, dead=True)
    return " or ".join(c + (f" (counts as {up[c]})" if up.get(c, c) != c else "") for c in cards)


def live_showing(hand: HandState) -> dict[str, list[str]]:
    """Every player's showing hand: the up cards that count, as they count (S21, E266)."""
    return {name: showing_as(hand, name) for name in hand.showing}


#: The effects that narrow a player's moves (S17).
NARROWING = ("only", "call_or_fold", "must_raise", "no_raises", "no_fold", "no_bets")

#: S20: an opener effect naming no player but the lowest hand showing.
LOWEST = "lowest"


@dataclass(frozen=True)
class Narrowed:
    """S17: the moves the powers in force leave one player, and who imposes them."""

    moves: tuple[str, ...]                # what is left of the moves the rules give
    powers: str                           # the powers that narrow them, named once each
    one_chip: bool                        # a bet is one chip (call_or_fold: bet one or fold)
    amount: int | None = None             # E163: the chips a bet or raise must be (Compulsion)

    def wrong_chips(self, name: str, action: str, amount: int | None,
                    whole: int) -> str | Said | None:
        """Why a bet or raise of ``amount`` chips (None: the default one; -1: all, which comes
        to ``whole`` for this player) is not the one these powers force, if it is not: one chip
        (S17), the chips named (E163); "all" and its number are the same move (E290)."""
        if self.one_chip and action == "bet" and amount not in (None, 1):
            return f"{name} must bet one chip or fold ({self.powers}, S17)"
        sized = {None: 1, -1: whole}
        if self.amount is None or action not in ("bet", "raise") or \
                sized.get(amount, amount) == sized.get(self.amount, self.amount):
            return None
        said = "all" if self.amount < 0 else str(self.amount)
        return Said((f"{name} must {action} {said} ({self.powers}, S17, E163): ",
                     Suggest((action,), (name, said))))


@dataclass(frozen=True)
class Constraints:
    """What the powers in force impose on the betting now (S17-S21), built once per question
    by ``constraints``: the betting machine (``referee.evening.betting``) reads these values and
    never asks the powers one by one. Cards are parsed and ranked here, once."""

    suspended: frozenset[str]             # S19: play as if all-in, take no further action
    ranks: dict[str, int]                 # S21, E266: the showing hands, ranked (``Hand.key``)
    openers: tuple[str, ...]              # S20: whom a power names to open, first first
    narrowing: dict[str, list[Effect]]    # S17: the effects that narrow each player's moves
    left: dict[str, Narrowed]             # S17: the moves those effects leave each player


def constraints(state: State, hand: HandState,
                moves: Mapping[str, tuple[Sequence[str], bool]] | None = None) -> Constraints:
    """The powers in force on ``hand``, turned once into what they impose on the betting.

    ``moves``: what the rules leave each player who might act (R12-R15), and whether they
    owe chips; the powers narrow them (S17). The up cards that count are parsed and ranked
    only while the round is still to open, for only then is its opener read from them (R9)."""
    street = hand.round.street
    narrowing: dict[str, list[Effect]] = {}
    opening = None
    for f in hand.effects:
        kind, target = f["kind"], f["target"]
        if f["scope"] == ROUND and f["street"] != street:
            continue
        if kind == "opener" and opening is None:
            opening = f
        elif kind in NARROWING and (target is not None or f["scope"] == ROUND):
            for name in hand.order if target is None else [target]:  # None: the whole round
                narrowing.setdefault(name, []).append(f)
    left: dict[str, Narrowed] = {}  # S17
    for name, (allowed, owes) in (moves or {}).items():
        fs = narrowing.get(name)
        if fs and name != state.fool:
            keep = narrow(list(allowed), owes, fs)
            if keep is not None:
                powers = ", ".join(dict.fromkeys(f["power"] for f in fs))
                left[name] = Narrowed(tuple(keep), powers,
                                      any(f["kind"] == "call_or_fold" for f in fs),
                                      next((f["amount"] for f in fs if "amount" in f), None))
    suspended = suspended_players(hand)  # S19
    ranks: dict[str, int] = {}  # S21
    if hand.round.actions == 0:
        for name in hand.showing:
            cards = parse_cards(showing_as(hand, name))  # S21, E266
            if cards:
                ranks[name] = best_hand(cards, magic=True).key
    openers: tuple[str, ...] = ()  # S20
    if opening is not None and opening["who"] != LOWEST:
        openers = (opening["who"],)
    elif opening is not None:  # the lowest first; sorted() keeps the seats' order in a tie
        openers = tuple(sorted((p for p in hand.order if p != state.fool and p in ranks),
                               key=ranks.__getitem__))
    return Constraints(suspended=suspended, ranks=ranks, openers=openers,
                       narrowing=narrowing, left=left)


def suspended_players(hand: HandState) -> frozenset[str]:
    """S19: the stakeholders playing as if all-in, who take no further action."""
    return frozenset(f["target"] for f in hand.effects
                     if f["kind"] == "all_in" and f["target"] is not None)


def narrow(moves: list[str], owes: bool, fs: list[Effect]) -> list[str] | None:
    """``moves`` narrowed by the effects ``fs`` (S17); None when they would leave no legal move,
    for then they give way to the rules."""
    keep = moves if "fold" in moves else [*moves, "fold"]
    for f in fs:
        drop = {"no_raises": ("raise",), "no_fold": ("fold",),
                "no_bets": ("bet", "raise")}.get(f["kind"], ())
        keep = [m for m in keep if m not in drop]
    for f in fs:
        if f["kind"] == "only":
            keep = [m for m in keep if m in f["moves"]]
        elif f["kind"] == "call_or_fold":
            keep = [m for m in keep if m in (("call", "fold") if owes else ("bet", "fold"))]
        elif f["kind"] == "must_raise":
            want = next((m for m in ("bet", "raise", "call") if m in keep), None)
            keep = [m for m in keep if m == want]
    return keep or None


def protected(hand: HandState, owner: str, card: str) -> str | None:
    """S23: the power that holds ``card`` of ``owner`` fast, if any."""
    for f in hand.effects:
        if f["kind"] == "protect" and f["target"] == owner and f["card"] == card:
            return str(f["power"])
    return None


def counted(hand: HandState, name: str, cards: list[str]) -> tuple[list[str], bool]:
    """S21, S22: the cards a showdown hand counts: dead up cards left out, magic cards as
    what they count as. Returns the cards and whether magic changed any."""
    out = list(cards)
    for card in dead_cards(hand, name):
        if card in out:
            out.remove(card)
    gone = known(hand).out  # slid to the Fool or discarded: in no hand (R26, S21)
    held_fast = [f for f in binding(hand, name, ("protect",))
                 if f["card"] not in cards and f["card"] not in gone]
    if held_fast:  # E56: Hold Fast named them as the user's cards
        which = " and ".join(f["card"] for f in held_fast)
        raise BadInput(f"{name} held {which} fast ({held_fast[0]['power']}), so {name}'s "
                       f"showdown hand must hold {which}; it does not (E56)", ruling="E56")
    dead = dead_cards(hand, name)
    # E252: a magic card gone from every hand, or cut down, takes its magic with it
    magic = [f for f in binding(hand, name, ("counts_as",))
             if f["card"] not in gone and f["card"] not in dead]
    for f in magic:
        _holds_what_it_named(name, f, out, gone)
    changed = False
    at: dict[str, int] = {}  # S52: a card two magic powers changed counts as the later's
    for f in magic:
        where = at[f["card"]] if f["card"] in at else out.index(f["card"])
        out[where] = f["counts"]
        at[f["card"]] = where
        changed = True
    return out, changed


def _holds_what_it_named(name: str, f: Effect, cards: list[str], gone: Mapping[str, object]
                         ) -> None:
    """S22, E56: a magic power's cards are in the user's showdown hand: the card it changes,
    and Abundance's card copied or Mingling the Waters' second card (one of the suit it names,
    when only the suit was given); a card named beside it that has left the hand since was
    seen to be theirs when it left (E252)."""
    named = [f["card"], *(c for c in f.get("needs", []) if c not in gone)]
    missing = [c for c in named if c not in cards]
    suit = f.get("suit")
    lender = [c for c in cards if c != f["card"] and not parse_card(c).is_major
              and parse_card(c).suit == suit] if suit else [True]
    if not missing and lender:
        return
    what = f"{f['power']} named " + " and ".join(named) + f" as {name}'s cards"
    if suit and not lender and not missing:
        what = (f"{f['power']} gave {f['card']} the suit of another of {name}'s cards, "
                f"{Suit(suit).title}")
        lacking = f"another minor card of {Suit(suit).title}"
    else:
        lacking = " and ".join(missing)
    raise BadInput(f"{what}, so {name}'s showdown hand must hold them; it lacks {lacking} "
                   f"(S22, E56)", ruling="E56")


def counted_hand(hand: HandState, name: str, cards: list[Card], magic: bool) -> Hand:
    """A showdown hand as the powers in force count it: dead cards out, magic applied (S21,
    S22); a card a power discarded is in no hand (unless the showdown is ruled --magic)."""
    shorts = [c.short for c in cards]
    for card, who in discarded(hand).items():
        if card in shorts and not magic:
            raise BadInput(f"{card} was discarded by a power ({who}); it is out of this hand "
                           f"and not in {name}'s (S21)", ruling="S21")
    counts, changed = counted(hand, name, shorts)
    return best_hand(parse_cards(" ".join(counts)), magic=magic or changed)


def discarded(hand: HandState) -> dict[str, str]:
    """Cards a power took out of the hand (discarded), and whose they were (S21)."""
    return {card: who for who, cards in hand.out.items() for card in cards}


def barred(state: State, assistant: str) -> str | None:
    """S26: the power barring this assistant from studies and guesses now, if any."""
    bar = state.barred.get(assistant)
    if bar and state.hands_played < bar["until"]:
        return f"{bar['power']} (used by {bar['by']})"
    return None


def exiled(state: State, name: str) -> str | None:
    """S27: the power keeping ``name`` from sitting again now, if any."""
    exile = state.exiles.get(name)
    if exile and state.hands_played < exile["until"]:
        return f"{exile['power']} (used by {exile['by']})"
    return None


def surcharge(state: State, name: str) -> int:
    """S25: how many Charges more the next power of ``name`` costs."""
    return sum(s["n"] for s in state.surcharges.get(name, []))


class InForce(TypedDict):
    """One thing that binds the table now, as ``status`` and ``watch`` show it (S17)."""

    power: str
    target: str | None
    kind: str
    text: str


def in_force(state: State) -> list[InForce]:
    """What binds the table now, for ``status``, ``watch`` and the table page (S17). A card
    that is not face up is not named."""
    out: list[InForce] = []
    hand = state.hand
    if hand is not None:
        street = hand.round.street
        for f in hand.effects:
            if (f["scope"] == ROUND and f["street"] != street) or f["kind"] in (TOLL, LATE):
                continue  # a toll is told by the pots (E262)
            if f["kind"] in ("counts_as", "protect") and f["card"] not in hand.showing.get(
                    str(f["target"]), []):
                text = f"a card of {f['target']}'s " + (
                    "counts as another" if f["kind"] == "counts_as" else "is held fast")
                text += f": {f['power']}"
            else:
                text = describe(f)
            out.append({"power": f["power"], "target": f["target"], "kind": f["kind"],
                        "text": text})
    for helper, bar in state.barred.items():
        if state.hands_played < bar["until"]:
            out.append({"power": bar["power"], "target": helper, "kind": "bar_assistant",
                        "text": f"{helper} may not study souls or guess until hand "
                                f"{bar['until']} ends: {bar['power']}"})
    for name, exile in state.exiles.items():
        if state.hands_played < exile["until"]:
            when = "rises when this hand ends" if state.hands_played < exile["hand"] else \
                f"sits out hand {exile['until']}"
            out.append({"power": exile["power"], "target": name, "kind": "exile",
                        "text": f"{name} {when}: {exile['power']}"})
    for name, extra in state.surcharges.items():
        for s in extra:
            out.append({"power": s["power"], "target": name, "kind": "surcharge",
                        "text": f"{name}'s next power costs {plural(s['n'], 'Charge')} more: "
                                f"{s['power']}"})
    return out


def describe(f: Effect) -> str:
    """One line for an effect in force (S17), as ``status`` and ``watch`` show it."""
    who, power = f.get("target"), f["power"]
    text = {
        "only": f"{who} must {' or '.join(f.get('moves', []))}" + (
            f" {'all' if f['amount'] < 0 else f['amount']}" if "amount" in f else ""),
        "call_or_fold": f"{who} must call or fold (bet one chip or fold if no bet)",
        "must_raise": f"{who} must raise if allowed, otherwise call",
        "no_raises": "no more raises this round",
        "no_fold": f"{who} may not fold this round",
        "no_bets": f"{who} may not bet or raise" + (" this round" if f["scope"] == "round"
                                                    else " on this turn"),
        "all_in": f"{who} plays as if all-in",
        "opener": f"{f.get('who')} opens this round" if f.get("who") != "lowest"
        else "the lowest hand showing opens this round",
        "dead": f"{who}'s {f.get('card')} is dead",
        "counts_as": f"{who}'s {f.get('card')} counts as {f.get('counts')}",
        "protect": f"{who}'s {f.get('card')} is held fast",
    }.get(f["kind"], f["kind"])
    return f"{text}: {power}"
