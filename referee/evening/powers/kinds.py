"""Every kind of power effect (S12-S30), each declared once, found by its name: what a use of
it asks for and says (its builder, reading the ``Use``: the GM's words, the hand and what the
betting says now), and how it changes the cards and the books once recorded (its fold). The
constraints an effect puts on the table are the records its fold leaves in ``HandState.effects``,
which every rule reads through ``referee.evening.powers.constraints`` and the known view
(``referee.evening.known``).

Adding a power: one entry in the power set's data (``data/powers.toml``: its timing, cost and
effect kind) and, for a new kind, one builder here declared with its fold.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from referee.errors import BadInput, InvariantViolation
from referee.evening.events import PowerUsed
from referee.evening.powers import constraints
from referee.evening.powers.building import Use, counts_as, pay, power_label, said_action
from referee.evening.state import HAND, LATE, POT, ROUND, TURN, Effect, HandState, State, move_chips
from referee.names import match_name, plural
from referee.rules.cards import parse_card
from referee.rules.power_vocab import param

#: A kind's builder: checks what the GM gave, fills the ``power_used`` event, says what it did.
Builder = Callable[[Use, PowerUsed], str]
#: A kind's fold: the recorded use's change to the evening (``referee.evening.powers.effects``).
Fold = Callable[[State, HandState, PowerUsed], None]


def _nothing(state: State, hand: HandState, e: PowerUsed) -> None:
    return None


@dataclass(frozen=True)
class Kind:
    """One kind of effect (S12): its name in the power set's data, its builder and its fold."""

    name: str
    build: Builder
    fold: Fold


#: Every kind, by its name (``power_vocab.EFFECTS`` names the same, checked by a test).
KINDS: dict[str, Kind] = {}


def declare(name: str, *, fold: Fold = _nothing) -> Callable[[Builder], Builder]:
    """Declare the kind ``name``: the builder below it, and its ``fold``."""
    def register(build: Builder) -> Builder:
        KINDS[name] = Kind(name, build, fold)
        return build

    return register


def made_effect(e: PowerUsed, kind: str, scope: str, target: str | None, **more: Any) -> Effect:
    """An effect of the power used in ``e``, left in force; ``more`` holds the fields its kind
    adds (moves, street, who, card ...)."""
    made = Effect(kind=kind, scope=scope, target=target, power=e["title"], by=e["name"])
    made.update(more)  # type: ignore[typeddict-item]  # moves, street, who, card ... (Effect)
    return made


def _target(e: PowerUsed) -> str:
    """The stakeholder a power was used on: every effect that folds it names one (S7)."""
    target = e.get("target")
    assert target is not None, e
    return target


def _toll_payers(use: Use) -> list[str]:
    """S16: the others still in the hand who can pay: all-in or suspended players are passed."""
    return [p for p in use.hand.live if p not in (use.name, use.state.fool) and p in use.now.able]


def _to_act(use: Use) -> str:
    current = use.now.to_act
    assert current is not None  # the timing was checked
    use.take("target")
    return current


def _fold_in(state: State, hand: HandState, e: PowerUsed) -> None:
    _folded(state, hand, e, [_target(e)])  # E285


def _folded(state: State, hand: HandState, e: PowerUsed, names: list[str]) -> None:
    """``names`` fold by a power (E285): the round's bet comes down to the most a live player
    has put in this round; their chips stay in the pot, and what no live player matched is for
    those who could still bet to win (E286)."""
    hand.folded.extend(names)
    r = hand.round
    r.bet = min(r.bet, max((r.committed.get(p, 0) for p in hand.live), default=0))
    able = _lone(state, hand)
    passed = [p for p in hand.live if p not in able and p != state.fool]
    for name in names:
        late = r.committed.get(name, 0) - r.bet
        if late > 0 and passed:  # E286: bet above them, all-in or Suspended, and unmatched
            chips = dict(Counter(hand.contrib[name][-late:]))
            hand.effects.append(made_effect(e, LATE, HAND, name, chips=chips, passed=passed))


def _lone(state: State, hand: HandState) -> list[str]:
    """Who can still bet; left one, owing nothing, the betting is over (R14, E285)."""
    r = hand.round
    able = [p for p in hand.live if state.stack(p) > 0
            and p not in constraints.suspended_players(hand)]
    if len(able) < 2 and all(r.committed.get(p, 0) >= r.bet for p in able):
        hand.betting_over = True
    return able


@declare("fold", fold=_fold_in)
def _fold(use: Use, e: PowerUsed) -> str:
    who = use.target()
    use.chained(who)
    e["target"] = who
    return f"{who} folds at once; their chips stay in the pot"


def _toll_in(state: State, hand: HandState, e: PowerUsed) -> None:
    """S16: toll chips go into the pot as dead money, like antes (R15): no bet, counted towards
    no call, never returned as uncalled."""
    for name, chips in e["paid"].items():
        move_chips(state, name, POT, chips)
        dead = hand.antes.get(name, 0)  # the first chips of a contribution are the dead ones
        paid = [c for c, n in chips.items() for _ in range(n)]
        hand.contrib.setdefault(name, [])[dead:dead] = paid
        hand.antes[name] = dead + len(paid)
        hand.tolls[name] = hand.tolls.get(name, 0) + len(paid)  # E280: dead, but no ante
    passed = [p for p in hand.live if p not in (e["name"], state.fool, *e["paid"], *e["folded"])]
    if passed and e["paid"]:  # E262: as if all-in, they play for the pot as it stood
        chips = sum((Counter(paid) for paid in e["paid"].values()), Counter())
        hand.effects.append(made_effect(e, "toll_paid", HAND, None, chips=dict(chips),
                                        passed=passed))  # state.TOLL
    _folded(state, hand, e, e["folded"])  # E285: a bettor folding rather than pay: owed by none


@declare("toll", fold=_toll_in)
def _toll(use: Use, e: PowerUsed) -> str:
    n = int(param(use.effect, "chips"))
    payers = _toll_payers(use)
    folding = [use.person(str(t)) for t in use.take("folds") or ()]
    for who in folding:
        if who not in payers:
            raise use.fail(f"{who} owes no toll (all-in players are passed over)", "S16")
        use.chained(who)
    e["paid"] = {p: pay(use.state, p, n) for p in payers if p not in folding}
    e["folded"] = folding
    passed = [p for p in use.hand.live if p not in (use.name, use.state.fool, *payers)]
    told = [f"{', '.join(e['paid']) or 'nobody'} {'pay' if len(e['paid']) > 1 else 'pays'}",
            *([f"{', '.join(folding)} {'fold' if len(folding) > 1 else 'folds'}"]
              if folding else []),  # S16, E262: and who is passed
            *([f"{', '.join(passed)} passed over, all-in or Suspended (S16)"] if passed else [])]
    return f"toll of {plural(n, 'chip')} into the pot, no bet: " + "; ".join(told)


@declare("take_back")
def _take_back(use: Use, e: PowerUsed) -> str:
    e["target"], told = use.taken_back()
    return told


def _skip_in(state: State, hand: HandState, e: PowerUsed) -> None:
    """S18: owing, the player is passed over and must call or fold when the action returns."""
    if e.get("passed"):
        hand.round.last = e["target"]
        hand.effects.append(made_effect(e, "only", TURN, e["target"], moves=["call", "fold"]))


@declare("skip_turn", fold=_skip_in)
def _skip(use: Use, e: PowerUsed) -> str:
    who = _to_act(use)
    e["target"] = who
    if use.now.owed.get(who, 0):
        e["passed"] = True
        return f"the action passes {who}; {who} must call or fold when it comes back"
    use.after.append({"kind": "action", "name": who, "action": "check", "chips": {},
                      "all_in": False, "auto": True,
                      "why": f"{use.title}: the turn is skipped (S18)"})
    return f"{who}'s turn is skipped: {who} checks"


def _turn_in(kind: str) -> Callable[[State, HandState, PowerUsed], None]:
    def fold_in(state: State, hand: HandState, e: PowerUsed) -> None:
        more = {"moves": [e["action"]]} if kind == "only" else {}
        hand.effects.append(made_effect(e, kind, TURN, e["target"], **more))
        if kind == "only" and "amount" in e:
            hand.effects[-1]["amount"] = e["amount"]  # E163: the chips forced too
    return fold_in


@declare("force_action", fold=_turn_in("only"))
def _force(use: Use, e: PowerUsed) -> str:
    who = _to_act(use)
    legal = list(dict.fromkeys([*use.now.moves, "fold"]))
    text = str(use.need("action", f"the action {who} must take ({'/'.join(legal)})"))
    action, amount = use.action(text, legal, f"action open to {who}")
    if action == "fold":
        use.may_fold(who)  # S30: Chained forbids a fold a power would force, too
    e["target"], e["action"] = who, action
    if amount is not None:  # E163: the target bets or raises exactly this
        if not use.now.may(who, action, amount):
            due = use.now.owed.get(who, 0)
            raise use.fail(f"{who} holds {plural(use.state.stack(who), 'chip')} and owes {due}: "
                           f"{who} cannot {said_action(action, amount)}", "E163")
        e["amount"] = amount
    return f"{who} must {said_action(action, amount)} on this turn"


@declare("call_or_fold", fold=_turn_in("call_or_fold"))
@declare("must_raise", fold=_turn_in("must_raise"))
def _turn(use: Use, e: PowerUsed) -> str:
    who = _to_act(use)
    e["target"] = who
    if use.kind == "must_raise":
        return f"{who} must raise if a raise is allowed, otherwise call; no check, no fold"
    if use.hand.round.bet > use.hand.round.committed.get(who, 0):
        return f"{who} must call or fold, and may not raise"
    return f"{who} must bet one chip or fold"


def _round_in(kind: str, everyone: bool = False) -> Callable[[State, HandState, PowerUsed], None]:
    def fold_in(state: State, hand: HandState, e: PowerUsed) -> None:
        hand.effects.append(made_effect(e, kind, ROUND, None if everyone else e["target"],
                                    street=e["street"]))
    return fold_in


@declare("no_raises", fold=_round_in("no_raises", everyone=True))
def _no_raises(use: Use, e: PowerUsed) -> str:
    text = str(use.need("action", "the bet or raise it comes with (bet or raise, and its "
                                  "chips in the open phase: 'raise 5')"))
    action, amount = use.action(text, ["bet", "raise"], "action with this power")
    use.moves.append((use.name, action, amount))  # made first (use)
    e["street"] = use.hand.round.street
    said = said_action(action, amount).replace(action, f"{action}s", 1)
    return f"{use.name} {said}: no more raises this round; the others call or fold"


def _all_in_in(state: State, hand: HandState, e: PowerUsed) -> None:
    hand.effects.append(made_effect(e, "all_in", HAND, e["target"]))
    _lone(state, hand)  # E285: left alone to bet, the user bets against nobody


@declare("no_fold", fold=_round_in("no_fold"))
@declare("no_bets", fold=_round_in("no_bets"))
@declare("all_in", fold=_all_in_in)
def _binds(use: Use, e: PowerUsed) -> str:
    who = use.target()
    e["target"], e["street"] = who, use.hand.round.street
    return {"no_fold": f"{who} may not fold this round",
            "no_bets": f"{who} may not bet or raise this round",
            "all_in": f"{who} takes no further action this hand and plays as if all-in, "
                      "for the pot as it stands"}[use.kind]


def _opener_in(state: State, hand: HandState, e: PowerUsed) -> None:
    hand.effects.append(made_effect(e, "opener", ROUND, None, street=e["street"],
                                who=e["name"] if e["who"] == "self" else "lowest"))


@declare("opener", fold=_opener_in)
def _opener(use: Use, e: PowerUsed) -> str:
    e["street"], e["who"] = use.hand.round.street, param(use.effect, "who")
    if e["who"] == "self":
        why, rule = constraints.cannot_open(use.state, use.hand, use.name)  # S20, E270
        if why:
            raise use.fail(f"{use.name} {why}, so cannot open round {e['street']}", rule)
        return f"{use.name} opens round {e['street']}"
    return f"the lowest hand showing opens round {e['street']}"


def _magic_ends(use: Use, card: str) -> str:
    """E252: said when a magic card leaves every hand or is cut down."""
    return "; its magic ends with it (E252)" if constraints.magic_card(use.hand, card) else ""


def _swap_in(state: State, hand: HandState, e: PowerUsed) -> None:
    mine, theirs = hand.showing[e["name"]], hand.showing[_target(e)]
    mine[mine.index(e["card"])] = e["new"]
    theirs[theirs.index(e["new"])] = e["card"]
    constraints.magic_moves(hand, {e["card"]: _target(e), e["new"]: e["name"]})


@declare("swap_up", fold=_swap_in)
def _swap(use: Use, e: PowerUsed) -> str:
    mine = use.up_card(use.name, use.one_card("cards", f"one of {use.name}'s up cards"))
    who = use.target()
    theirs = use.up_card(who, parse_card(str(use.need("new", f"one of {who}'s up cards"))).short)
    e.update({"target": who, "card": mine, "new": theirs})
    magic = [c for c in (mine, theirs) if constraints.magic_card(use.hand, c)]
    chip = f"; {' and '.join(magic)} keep{'s' if len(magic) == 1 else ''} the magic, the chip " \
        "going with the card (E252)" if magic else ""
    return f"{use.name}'s {mine} and {who}'s {theirs} change places, face up{chip}"


def _replace_in(state: State, hand: HandState, e: PowerUsed) -> None:
    cards = hand.showing[e["owner"]]
    cards[cards.index(e["card"])] = e["new"]
    hand.out.setdefault(e["owner"], []).append(e["card"])


@declare("replace_up", fold=_replace_in)
def _replace(use: Use, e: PowerUsed) -> str:
    if param(use.effect, "who") == "self":
        owner = use.name
        card = use.up_card(owner, use.one_card("cards", f"{owner}'s up card"), dead_ok=True)
    else:
        owner = use.target()
        highest = constraints.highest_up(use.hand, owner)  # E271: as it counts (E266)
        if not highest:
            raise use.fail(f"{owner} shows no up card", "S21")
        given = use.take("cards")
        if given:
            card = parse_card(str(given[0])).short
            if card not in highest:
                told = constraints.told_as(use.hand, owner, highest)
                raise use.fail(f"{owner}'s highest up card is {told}, not {card}", "E271")
        elif len(highest) > 1:
            raise BadInput(f"{use.title}: {owner}'s highest up cards tie ({' '.join(highest)}); "
                           "name the one discarded with --card")
        else:
            card = highest[0]
        use.up_card(owner, card)
        e["target"] = owner
    new = use.unseen(parse_card(str(use.need("new", "the card taken from the deck"))).short,
                     "the top card of the deck")
    e.update({"owner": owner, "card": card, "new": new})
    return (f"{owner} discards {card} face up and takes {new} face up in its place"
            + _magic_ends(use, card))


def _hide_in(state: State, hand: HandState, e: PowerUsed) -> None:
    hand.showing[e["name"]].remove(e["card"])
    hand.shift[e["name"]] = hand.shift.get(e["name"], 0) + 1
    hand.hooded.setdefault(e["name"], []).append(e["card"])  # E77: marked as hooded


@declare("hide_up", fold=_hide_in)
def _hide(use: Use, e: PowerUsed) -> str:
    e["card"] = use.up_card(use.name, use.one_card("cards", f"the up card {use.name} turns down"))
    return f"{use.name} turns {e['card']} face down: a down card for the rest of the hand"


def _kill_in(state: State, hand: HandState, e: PowerUsed) -> None:
    hand.effects.append(made_effect(e, "dead", HAND, e["target"], card=e["card"]))


@declare("kill_up", fold=_kill_in)
def _kill(use: Use, e: PowerUsed) -> str:
    who = use.target()
    e["target"] = who
    e["card"] = use.up_card(who, use.one_card("cards", f"the up card of {who} cut down"))
    return (f"{who}'s {e['card']} is turned sideways: dead, it counts for nothing"
            + _magic_ends(use, e["card"]))


def _unhood(hand: HandState, owner: str, card: str) -> None:
    """A hooded card turned up again or discarded is no longer a hooded down card (E77)."""
    if card in hand.hooded.get(owner, []):
        hand.hooded[owner].remove(card)


def _reveal_in(state: State, hand: HandState, e: PowerUsed) -> None:
    for owner, card in e["revealed"]:
        hand.showing.setdefault(owner, []).append(card)
        hand.shift[owner] = hand.shift.get(owner, 0) - 1
        if card not in hand.hooded.get(owner, []):  # E273: dealt face down (not hooded, E264)
            hand.turned_up.setdefault(owner, []).append(card)
        _unhood(hand, owner, card)


@declare("reveal", fold=_reveal_in)
def _reveal(use: Use, e: PowerUsed) -> str:
    how = param(use.effect, "who")
    pairs: list[tuple[str, str]] = []
    if how in ("target", "both"):
        who = use.target()
        e["target"] = who
        pairs.append((who, use.one_card("cards", f"the down card {who} turns face up")))
        if how == "both":
            pairs.append((use.name, parse_card(str(use.need(
                "new", f"the down card {use.name} turns face up"))).short))
    else:
        given = use.need("cards", "NAME:CARD for every stakeholder still in the hand")
        for item in given:
            who, sep, card = str(item).partition(":")
            if not sep:
                raise BadInput(f"{use.title}: write --card NAME:CARD for each stakeholder, "
                               f"e.g. --card {use.name}:5C")
            owner = use.name if match_name(who, use.state.stakeholders) == use.name else \
                use.person(who)
            pairs.append((owner, parse_card(card).short))
        wanted = [p for p in use.hand.live if p != use.state.fool and use.turnable(p)]
        named = [p for p, _ in pairs]
        if sorted(named) != sorted(wanted):  # E260: one whose down cards are all held fast
            raise BadInput(f"{use.title}: one --card NAME:CARD for each of {', '.join(wanted)}"
                           + use.all_held_fast())
    for owner, card in pairs:
        if use.down_left(owner) < 1:
            raise use.fail(f"{owner} holds no down card", "S21")
        use.unseen(card, f"a down card of {owner}", owner)
        use.unprotected(owner, card)
    e["revealed"] = [[owner, card] for owner, card in pairs]
    return "; ".join(f"{o} turns {c} face up" for o, c in pairs)


def _discard_in(state: State, hand: HandState, e: PowerUsed) -> None:
    if e["up"]:
        hand.showing[e["name"]].remove(e["card"])
        hand.shift[e["name"]] = hand.shift.get(e["name"], 0) + 1
    hand.out.setdefault(e["name"], []).append(e["card"])
    _unhood(hand, e["name"], e["card"])


@declare("discard", fold=_discard_in)
def _discard(use: Use, e: PowerUsed) -> str:
    card = use.one_card("cards", f"the card {use.name} discards, up or down")
    e["up"] = card in use.hand.showing.get(use.name, [])
    if e["up"]:
        use.up_card(use.name, card, dead_ok=True)  # E263: a dead card may be discarded
    else:  # E56: one of the user's own down cards, the one just taken among them (E267)
        use.drawn = 1
        use.own_cards([card], dead_ok=True)
        use.unprotected(use.name, card)
    e["card"] = card
    return (f"{use.name} takes the top card of the deck face down and discards {card}"
            + (" (an up card)" if e["up"] else "") + _magic_ends(use, card)
            + "; tell no one the new card")


def _counts_as_in(state: State, hand: HandState, e: PowerUsed) -> None:
    more = {k: e[k] for k in ("needs", "suit") if k in e}  # E56: the other cards it names
    hand.effects.append(made_effect(e, "counts_as", HAND, e["name"], card=e["card"], counts=e["as"],
                                **more))


@declare("counts_as", fold=_counts_as_in)
def _counts_as(use: Use, e: PowerUsed) -> str:
    rule = param(use.effect, "as")
    target = use.target(live=False) if rule == "target_up" else None
    what = f"the card of {use.name}'s hand that changes"
    second = None
    if rule == "same_rank" and len(use.given.get("cards") or ()) == 2:
        # Mingling the Waters: "two minor cards in your hand", the second lending its suit.
        card, second = (parse_card(str(c)) for c in use.need("cards", what))
    else:
        card = parse_card(use.one_card("cards", what))
    use.unprotected(use.name, card.short)
    made = counts_as(use, rule, card, target, second)
    # E56: the cards the power names as the user's must be in the user's hand: now, as far
    # as the table can see, and at the showdown (constraints.counted).
    needs = [card.short]
    if rule == "own_card":
        needs.append(made)  # Abundance: "choose two cards in your hand"
    elif second is not None:
        needs.append(second.short)
    use.own_cards(needs)
    copied = constraints.counts_now(use.hand, use.name, made) if rule == "own_card" else made
    e.update({"card": card.short, "target": target, "as": copied})  # E275: copied as it counts
    if len(needs) > 1:
        e["needs"] = needs[1:]
    elif rule == "same_rank":
        suit = parse_card(made).suit  # the second card: a minor of this suit (E56)
        assert suit is not None
        e["suit"] = suit.value
    return (f"{use.name}'s {card.short} counts as {e['as']} until the hand ends (magic, R8): "
            "mark it with a chip")


@declare("cancel")
def _cancel(use: Use, e: PowerUsed) -> str:
    answer = use.hand.answerable
    assert answer is not None
    e["target"], e["cancels"] = answer["by"], answer["power"]
    return (f"{answer['event']['title']} of {answer['by']} is cancelled before it takes effect; "
            f"it is spent and its {plural(answer['event']['charges'], 'Charge')} "
            f"{'is' if answer['event']['charges'] == 1 else 'are'} lost")


def _lose_in(state: State, hand: HandState, e: PowerUsed) -> None:
    lost = state.powers[e["lost"]]
    if lost["used"] or lost["holder"] != e["target"]:
        raise InvariantViolation(f"S24: {e['lost']} is no unused power of {e['target']}")
    lost["used"] = True
    lost["lost"] = e["title"]


@declare("lose_power", fold=_lose_in)
def _lose(use: Use, e: PowerUsed) -> str:
    who = use.target(live=False)
    unused = sorted(k for k, p in use.state.powers.items()
                    if p["holder"] == who and not p["used"])
    if not unused:
        raise use.fail(f"{who} holds no unused power", "S24")
    e["target"] = who
    e["lost"] = unused[random.Random(e["seed"]).randrange(len(unused))]
    lost = power_label(use.state, e["lost"])  # E57: by its name, not its key
    return f"{who} loses {lost}, drawn at random (seed {e['seed']}), as if spent"


def _surcharge_in(state: State, hand: HandState, e: PowerUsed) -> None:
    state.surcharges.setdefault(_target(e), []).append(
        {"power": e["title"], "by": e["name"], "n": e["n"]})


@declare("surcharge", fold=_surcharge_in)
def _surcharge(use: Use, e: PowerUsed) -> str:
    who = use.target(live=False)
    e["target"], e["n"] = who, int(param(use.effect, "charges"))
    return f"the next power {who} uses costs {plural(e['n'], 'Charge')} more"


def _bar_in(state: State, hand: HandState, e: PowerUsed) -> None:
    state.barred[e["assistant"]] = {"power": e["title"], "by": e["name"], "side": e["target"],
                                    "until": hand.no + 1}


@declare("bar_assistant", fold=_bar_in)
def _bar(use: Use, e: PowerUsed) -> str:
    who = use.target(live=False)
    helper = use.state.seat(who).assistant
    if not helper:
        raise use.fail(f"{who} has no assistant to bar", "S26")
    e["target"], e["assistant"] = who, helper
    return (f"{helper} ({who}'s assistant) may not study souls or guess until the end of "
            f"hand {use.hand.no + 1}")


def _exile_in(state: State, hand: HandState, e: PowerUsed) -> None:
    state.exiles[_target(e)] = {"power": e["title"], "by": e["name"], "hand": hand.no,
                                 "until": hand.no + 1}


@declare("exile", fold=_exile_in)
def _exile(use: Use, e: PowerUsed) -> str:
    who = use.target(live=False)
    e["target"] = who
    return (f"when hand {use.hand.no} ends, {who} rises from the table and sits out hand "
            f"{use.hand.no + 1}; away from the table the Law does not protect them")


def _protect_in(state: State, hand: HandState, e: PowerUsed) -> None:
    for card in e["cards"]:
        hand.effects.append(made_effect(e, "protect", HAND, e["name"], card=card))


@declare("protect", fold=_protect_in)
def _protect(use: Use, e: PowerUsed) -> str:
    most = int(param(use.effect, "cards"))
    given = [parse_card(str(c)).short for c in use.need("cards", f"up to {most} of "
                                                         f"{use.name}'s cards")]
    if len(given) > most or len(set(given)) != len(given):
        raise BadInput(f"{use.title} holds up to {most} different cards fast, not "
                       f"{' '.join(given)}")
    use.own_cards(given, dead_ok=True)  # E56: the user's own cards, up or down
    e["cards"] = given
    return f"{' and '.join(given)} of {use.name} are held fast: no power can touch them"


def _forget_in(state: State, hand: HandState, e: PowerUsed) -> None:
    """E251: the hooded cards a power may have moved unseen are known as nobody's now."""
    for owner, cards in e.get("forgets", {}).items():
        for card in cards:
            _unhood(hand, owner, card)


def _unseen(use: Use, e: PowerUsed) -> str:
    """E251: down cards moved unseen (Behind the Veil, Wish Upon a Star, Turn of the Wheel):
    the hooded cards of the players it touches may have gone, so the console stops counting
    them as theirs; cards a power named as theirs stay (S23, E56), so they pass another."""
    moved = param(use.effect, "unseen")
    touched = [use.name] if moved == "own" else \
        [p for p in use.hand.live if p != use.state.fool]
    forgets = {p: list(use.hand.hooded[p]) for p in touched if use.hand.hooded.get(p)}
    if not forgets:
        return ""
    e["forgets"] = forgets
    cards = "; ".join(f"{' '.join(c)} of {p}" for p, c in forgets.items())
    return (f"; the cards turned face down ({cards}) may have moved unseen, so the showdown "
            "asks for them with the cards nobody has seen (E251)")


@declare("private", fold=_forget_in)
@declare("by_hand")
def _tell(use: Use, e: PowerUsed) -> str:
    if param(use.effect, "target") == "another":
        e["target"] = use.target()
    what = use.spec["text"]
    if use.kind == "private":
        return (f"privately, as the power says: {what} The table's books do not change (S28)"
                + _unseen(use, e))
    return f"apply by hand: {what} (S12)"
