"""Powers in force (S11-S30): how a ``power_used`` event changes the evening, and what
binds the next actions. Pure; folded by ``referee.evening.folds``, read by ``betting``,
``commands`` and ``views``.

Everything a power leaves behind is plain data on the state: ``HandState.effects`` holds
``{kind, scope, target, power, by, ...}`` records, where ``scope`` is ``turn`` (until the
target's next action), ``round`` (this betting round, ``street``) or ``hand``;
``HandState.answerable`` is the bet or power that may be answered now, with the state
before it (S15); ``State.barred``, ``surcharges`` and ``exiles`` reach past the hand.
"""

from __future__ import annotations

import copy
from typing import Any

from referee.errors import BadInput, IllegalAction, InvariantViolation
from referee.evening.state import POT, HandState, State, dump, load, move_chips
from referee.names import plural
from referee.streams import Event

TURN, ROUND, HAND = "turn", "round", "hand"


# -- answers: the state before a bet or a power (S15) -------------------------------------------


def still_answerable(event: Event, answer: dict[str, Any]) -> bool:
    """A bet or power stays answerable through power uses and the Fool's forced moves only,
    and through one card slid to the Fool for the answer (R38): sliding it and using its
    power are one act."""
    if event["kind"] == "power_accessed":
        return "via" not in answer
    return event["kind"] == "power_used" or (event["kind"] == "action"
                                             and bool(event.get("auto")))


def grant(forfeited: dict[str, list[str]], powers: dict[str, dict[str, Any]], e: Event,
          hand_no: int) -> None:
    """R26: the card slid is out of the hand; the power, if free, goes to the one who slid
    it. On the state, and on the state an answer would put back (R38)."""
    forfeited.setdefault(e["name"], []).append(e["card"])
    if e["granted"]:
        if e["power"] in powers:
            raise InvariantViolation(f"R26: power {e['power']} given out twice")
        powers[e["power"]] = {"holder": e["name"], "used": False, "hand": hand_no}


def on_access(hand: HandState, e: Event) -> None:
    """R38: a card slid while a bet or power may be answered is slid for the answer: only its
    slider may now answer, and the evening an answer puts back keeps the card given and the
    power granted."""
    answer = hand.answerable
    if answer is None:
        return
    answer["via"] = e["name"]
    before = answer["before"]
    grant(before["hand"]["forfeited"], before["powers"], e, hand.no)


def snapshot(state: State) -> dict[str, Any]:
    """The state as plain data, less what a hand never changes (the scenario, the history)."""
    hand = state.hand
    assert hand is not None
    saved = state.scenario, state.history, hand.answerable
    state.scenario, state.history, hand.answerable = {}, [], None
    try:
        return dump(state)
    finally:
        state.scenario, state.history, hand.answerable = saved


def _restore(state: State, before: dict[str, Any]) -> State:
    data = copy.deepcopy(before)
    data["scenario"], data["history"] = state.scenario, state.history
    return load(data)


def on_action(state: State, hand: HandState, e: Event) -> None:
    """Before a betting action folds in: a stakeholder's own bet or raise may be answered
    (Second Thoughts); the actor's turn-long effects are used up."""
    if not e.get("auto") and e["action"] in ("bet", "raise") and e["name"] != state.fool:
        hand.answerable = {"kind": "bet", "by": e["name"], "action": e["action"],
                           "before": snapshot(state)}
    street = hand.round.street
    hand.effects = [f for f in hand.effects
                    if not (f["scope"] == TURN and f["target"] == e["name"])
                    and not (f["scope"] == ROUND and f["street"] < street)]


# -- the fold -----------------------------------------------------------------------------------


def spend(state: State, e: Event) -> None:
    """R26: the power is used once, by its holder; its Charges (and any Ill Star) are paid."""
    power = state.powers.get(e["power"])
    if power is None or power["used"] or power["holder"] != e["name"]:
        raise InvariantViolation(f"R26: power {e['power']} used twice or by another")
    power["used"] = True
    power["used_hand"] = e.get("hand")
    state.charges[e["name"]] -= e["charges"]
    if e.get("surcharge"):
        state.surcharges.pop(e["name"], None)


def spent(power: dict[str, Any]) -> str:
    """What became of a power given out (E57): ``used``, ``lost to Downfall`` (drawn by a
    power, as if spent, never used), ``cancelled by Mistrial`` (used, and cancelled before it
    took effect); ``unused`` while it is not spent."""
    if power.get("lost"):
        return f"lost to {power['lost']}"
    if power.get("cancelled"):
        return f"cancelled by {power['cancelled']}"
    return "used" if power.get("used") else "unused"


def apply_power(state: State, e: Event) -> State:
    """Fold one ``power_used`` event (validated by ``referee.evening.powers``)."""
    kind = e.get("effect", "by_hand")
    hand = state.hand
    if hand is None:  # events from before powers took effect at the table
        spend(state, e)
        return state
    before = snapshot(state)
    if kind in ("cancel", "take_back"):
        answer = hand.answerable
        want = "power" if kind == "cancel" else "bet"
        if answer is None or answer["kind"] != want or answer["by"] == e["name"]:
            raise InvariantViolation(f"S15: {e['power']} answers no {want} now")
        state = _restore(state, answer["before"])
        hand = state.hand
        assert hand is not None
        if kind == "cancel":
            spend(state, answer["event"])
            state.powers[answer["power"]]["cancelled"] = e["title"]  # E57
        else:
            hand.effects.append(_effect(e, "no_bets", TURN, answer["by"]))
    spend(state, e)
    if e.get("opener") and hand.round.actions == 0:  # S11: a turn begun fixes the opener (E3)
        hand.round.opener = e["opener"]
    APPLY.get(kind, _nothing)(state, hand, e)
    if state.hand is not None:
        state.hand.answerable = {"kind": "power", "by": e["name"], "power": e["power"],
                                 "event": copy.deepcopy(e), "before": before}
    return state


def _effect(e: Event, kind: str, scope: str, target: str | None, **more: Any) -> dict[str, Any]:
    return {"kind": kind, "scope": scope, "target": target, "power": e["title"],
            "by": e["name"], **more}


def _nothing(state: State, hand: HandState, e: Event) -> None:
    return None


def _fold(state: State, hand: HandState, e: Event) -> None:
    hand.folded.append(e["target"])


def _toll(state: State, hand: HandState, e: Event) -> None:
    """S16: toll chips go into the pot as dead money, like antes (R15): no bet, counted towards
    no call, never returned as uncalled."""
    for name, chips in e["paid"].items():
        move_chips(state, name, POT, chips)
        dead = hand.antes.get(name, 0)  # the first chips of a contribution are the dead ones
        paid = [c for c, n in chips.items() for _ in range(n)]
        hand.contrib.setdefault(name, [])[dead:dead] = paid
        hand.antes[name] = dead + len(paid)
    hand.folded.extend(e["folded"])


def _skip(state: State, hand: HandState, e: Event) -> None:
    """S18: owing, the player is passed over and must call or fold when the action returns."""
    if e.get("passed"):
        hand.round.last = e["target"]
        hand.effects.append(_effect(e, "only", TURN, e["target"], moves=["call", "fold"]))


def _turn(kind: str) -> Any:
    def fold_in(state: State, hand: HandState, e: Event) -> None:
        more = {"moves": [e["action"]]} if kind == "only" else {}
        hand.effects.append(_effect(e, kind, TURN, e["target"], **more))
    return fold_in


def _round(kind: str, everyone: bool = False) -> Any:
    def fold_in(state: State, hand: HandState, e: Event) -> None:
        hand.effects.append(_effect(e, kind, ROUND, None if everyone else e["target"],
                                    street=e["street"]))
    return fold_in


def _all_in(state: State, hand: HandState, e: Event) -> None:
    hand.effects.append(_effect(e, "all_in", HAND, e["target"]))


def _opener(state: State, hand: HandState, e: Event) -> None:
    hand.effects.append(_effect(e, "opener", ROUND, None, street=e["street"],
                                who=e["name"] if e["who"] == "self" else "lowest"))


def _swap(state: State, hand: HandState, e: Event) -> None:
    mine, theirs = hand.showing[e["name"]], hand.showing[e["target"]]
    mine[mine.index(e["card"])] = e["new"]
    theirs[theirs.index(e["new"])] = e["card"]


def _replace(state: State, hand: HandState, e: Event) -> None:
    cards = hand.showing[e["owner"]]
    cards[cards.index(e["card"])] = e["new"]
    hand.out.setdefault(e["owner"], []).append(e["card"])


def _hide(state: State, hand: HandState, e: Event) -> None:
    hand.showing[e["name"]].remove(e["card"])
    hand.shift[e["name"]] = hand.shift.get(e["name"], 0) + 1
    hand.hooded.setdefault(e["name"], []).append(e["card"])  # E77: marked as hooded


def _unhood(hand: HandState, owner: str, card: str) -> None:
    """A hooded card turned up again or discarded is no longer a hooded down card (E77)."""
    if card in hand.hooded.get(owner, []):
        hand.hooded[owner].remove(card)


def _kill(state: State, hand: HandState, e: Event) -> None:
    hand.effects.append(_effect(e, "dead", HAND, e["target"], card=e["card"]))


def _reveal(state: State, hand: HandState, e: Event) -> None:
    for owner, card in e["revealed"]:
        hand.showing.setdefault(owner, []).append(card)
        hand.shift[owner] = hand.shift.get(owner, 0) - 1
        _unhood(hand, owner, card)


def _discard(state: State, hand: HandState, e: Event) -> None:
    if e["up"]:
        hand.showing[e["name"]].remove(e["card"])
        hand.shift[e["name"]] = hand.shift.get(e["name"], 0) + 1
    hand.out.setdefault(e["name"], []).append(e["card"])
    _unhood(hand, e["name"], e["card"])


def _counts_as(state: State, hand: HandState, e: Event) -> None:
    more = {k: e[k] for k in ("needs", "suit") if k in e}  # E56: the other cards it names
    hand.effects.append(_effect(e, "counts_as", HAND, e["name"], card=e["card"], counts=e["as"],
                                **more))


def _lose(state: State, hand: HandState, e: Event) -> None:
    lost = state.powers[e["lost"]]
    if lost["used"] or lost["holder"] != e["target"]:
        raise InvariantViolation(f"S24: {e['lost']} is no unused power of {e['target']}")
    lost["used"] = True
    lost["lost"] = e["title"]


def _surcharge(state: State, hand: HandState, e: Event) -> None:
    state.surcharges.setdefault(e["target"], []).append(
        {"power": e["title"], "by": e["name"], "n": e["n"]})


def _bar(state: State, hand: HandState, e: Event) -> None:
    state.barred[e["assistant"]] = {"power": e["title"], "by": e["name"], "side": e["target"],
                                    "until": hand.no + 1}


def _exile(state: State, hand: HandState, e: Event) -> None:
    state.exiles[e["target"]] = {"power": e["title"], "by": e["name"], "hand": hand.no,
                                 "until": hand.no + 1}


def _protect(state: State, hand: HandState, e: Event) -> None:
    for card in e["cards"]:
        hand.effects.append(_effect(e, "protect", HAND, e["name"], card=card))


APPLY: dict[str, Any] = {
    "fold": _fold, "toll": _toll, "skip_turn": _skip, "force_action": _turn("only"),
    "call_or_fold": _turn("call_or_fold"), "must_raise": _turn("must_raise"),
    "no_raises": _round("no_raises", everyone=True), "no_fold": _round("no_fold"),
    "no_bets": _round("no_bets"), "all_in": _all_in, "opener": _opener, "swap_up": _swap,
    "replace_up": _replace, "hide_up": _hide, "kill_up": _kill, "reveal": _reveal,
    "discard": _discard, "counts_as": _counts_as, "lose_power": _lose,
    "surcharge": _surcharge, "bar_assistant": _bar, "exile": _exile, "protect": _protect,
}


def hand_ended(state: State, hand: HandState) -> None:
    """S27: an exiled stakeholder rises from the table when the hand ends."""
    for name, exile in state.exiles.items():
        if exile["hand"] == hand.no:
            state.seat(name).seated = False


# -- what binds the next actions ---------------------------------------------------------------


def binding(hand: HandState, name: str, kinds: tuple[str, ...] | None = None
            ) -> list[dict[str, Any]]:
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


def dead_cards(hand: HandState, name: str) -> list[str]:
    return [f["card"] for f in hand.effects if f["kind"] == "dead" and f["target"] == name]


def live_up(hand: HandState, name: str) -> list[str]:
    """The up cards that count in a showing hand: dead ones count for nothing (S21)."""
    dead = dead_cards(hand, name)
    return [c for c in hand.showing.get(name, []) if c not in dead]


def live_showing(hand: HandState) -> dict[str, list[str]]:
    """Every player's up cards that count in a showing hand (S21)."""
    return {name: live_up(hand, name) for name in hand.showing}


def opener(state: State, hand: HandState, able: list[str]) -> str | None:
    """S20: the round's opener named by a power, or None for the usual one (R9)."""
    from referee.rules.cards import parse_cards
    from referee.rules.hands import best_hand

    for f in binding(hand, "", ("opener",)):
        if f["who"] != "lowest":
            return str(f["who"]) if f["who"] in able else None
        shown = [p for p in able if p != state.fool and live_up(hand, p)]
        if not shown:
            return None
        strength = {p: best_hand(parse_cards(" ".join(live_up(hand, p))), magic=True)
                    for p in shown}
        low = min(strength.values())
        return next(p for p in shown if strength[p] == low)
    return None


def allowed_moves(state: State, hand: HandState, name: str, moves: list[str]
                  ) -> tuple[list[str], list[dict[str, Any]]]:
    """``moves`` narrowed by the effects on ``name`` (S17), and those effects."""
    fs = [f for f in binding(hand, name)
          if f["kind"] in ("only", "call_or_fold", "must_raise", "no_raises", "no_fold",
                           "no_bets")]
    if not fs or name == state.fool:
        return moves, []
    base = moves if "fold" in moves else [*moves, "fold"]
    keep = list(base)
    for f in fs:
        drop = {"no_raises": ("raise",), "no_fold": ("fold",),
                "no_bets": ("bet", "raise")}.get(f["kind"], ())
        keep = [m for m in keep if m not in drop]
    owes = hand.round.bet > hand.round.committed.get(name, 0)
    for f in fs:
        if f["kind"] == "only":
            keep = [m for m in keep if m in f["moves"]]
        elif f["kind"] == "call_or_fold":
            keep = [m for m in keep if m in (("call", "fold") if owes else ("bet", "fold"))]
        elif f["kind"] == "must_raise":
            want = next((m for m in ("bet", "raise", "call") if m in keep), None)
            keep = [m for m in keep if m == want]
    if not keep:  # S17: effects that leave no legal move give way to the rules
        return moves, []
    return keep, fs


def check_action(state: State, hand: HandState, name: str, action: str, amount: int | None,
                 moves: list[str]) -> None:
    """Refuse an action an effect in force forbids, naming the power (S17)."""
    keep, fs = allowed_moves(state, hand, name, moves)
    if not fs:
        return
    names = ", ".join(dict.fromkeys(f["power"] for f in fs))
    if action not in keep:
        raise IllegalAction(f"{name} may not {action} now: {name} must {' or '.join(keep)} "
                            f"({names}, S17)", ruling="S17")
    if action == "bet" and amount not in (None, 1) and any(
            f["kind"] == "call_or_fold" for f in fs):
        raise IllegalAction(f"{name} must bet one chip or fold ({names}, S17)", ruling="S17")


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
    held_fast = [f for f in binding(hand, name, ("protect",)) if f["card"] not in cards]
    if held_fast:  # E56: Hold Fast named them as the user's cards
        which = " and ".join(f["card"] for f in held_fast)
        raise BadInput(f"{name} held {which} fast ({held_fast[0]['power']}), so {name}'s "
                       f"showdown hand must hold {which}; it does not (E56)", ruling="E56")
    magic = binding(hand, name, ("counts_as",))
    for f in magic:
        _holds_what_it_named(name, f, out)
    changed = False
    for f in magic:
        out[out.index(f["card"])] = f["counts"]
        changed = True
    return out, changed


def _holds_what_it_named(name: str, f: dict[str, Any], cards: list[str]) -> None:
    """S22, E56: a magic power's cards are in the user's showdown hand: the card it changes,
    and Abundance's card copied or Mingling the Waters' second card (one of the suit it names,
    when only the suit was given)."""
    from referee.rules.cards import Suit, parse_card

    named = [f["card"], *f.get("needs", [])]
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


def counted_hand(hand: HandState, name: str, cards: list[Any], magic: bool) -> Any:
    """A showdown hand as the powers in force count it: dead cards out, magic applied (S21,
    S22); a card a power discarded is in no hand (unless the showdown is ruled --magic)."""
    from referee.rules.cards import parse_cards
    from referee.rules.hands import best_hand

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


def in_force(state: State) -> list[dict[str, Any]]:
    """What binds the table now, for ``status``, ``watch`` and the table page (S17): each
    ``{"power", "target", "kind", "text"}``. A card that is not face up is not named."""
    out: list[dict[str, Any]] = []
    hand = state.hand
    if hand is not None:
        street = hand.round.street
        for f in hand.effects:
            if f["scope"] == ROUND and f["street"] != street:
                continue
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


def describe(f: dict[str, Any]) -> str:
    """One line for an effect in force (S17), as ``status`` and ``watch`` show it."""
    who, power = f.get("target"), f["power"]
    text = {
        "only": f"{who} must {' or '.join(f.get('moves', []))}",
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
