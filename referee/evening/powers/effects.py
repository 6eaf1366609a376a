"""Powers in force (S11-S30): how a ``power_used`` event changes the evening. Pure; folded by
``referee.evening.folds``; what the effects then impose is read through
``referee.evening.powers.constraints``.

Everything a power leaves behind is plain data on the state: ``HandState.effects`` holds
``{kind, scope, target, power, by, ...}`` records, where ``scope`` is ``turn`` (until the
target's next action), ``round`` (this betting round, ``street``) or ``hand``;
``HandState.answerable`` is the bet or power that may be answered now, with the state
before it (S15); ``State.barred``, ``surcharges`` and ``exiles`` reach past the hand.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from referee.errors import InvariantViolation
from referee.evening.events import Action, PowerAccessed, PowerUsed
from referee.evening.state import (
    POT,
    Answerable,
    Effect,
    HandState,
    PowerHeld,
    State,
    dump,
    load,
    move_chips,
)

if TYPE_CHECKING:
    from referee.jsontypes import JSONObject

TURN, ROUND, HAND = "turn", "round", "hand"


# -- answers: the state before a bet or a power (S15) -------------------------------------------


def grant(forfeited: dict[str, list[str]], powers: dict[str, PowerHeld], e: PowerAccessed,
          hand_no: int) -> None:
    """R26: the card slid is out of the hand; the power, if free, goes to the one who slid
    it. On the state, and on the state an answer would put back (R38)."""
    forfeited.setdefault(e["name"], []).append(e["card"])
    if e["granted"]:
        if e["power"] in powers:
            raise InvariantViolation(f"R26: power {e['power']} given out twice")
        powers[e["power"]] = {"holder": e["name"], "used": False, "hand": hand_no}


def on_access(hand: HandState, e: PowerAccessed) -> None:
    """R38: a card slid while a bet or power may be answered is slid for the answer: only its
    slider may now answer, and the evening an answer puts back keeps the card given and the
    power granted."""
    answer = hand.answerable
    if answer is None:
        return
    answer["via"] = e["name"]
    # The state put back is shared by every copy of this one (``state.copy``): replaced with
    # the card given, never changed in place.
    was = answer["before"]
    forfeited = {k: list(v) for k, v in was["hand"]["forfeited"].items()}
    powers = dict(was["powers"])
    grant(forfeited, powers, e, hand.no)
    answer["before"] = {**was, "hand": {**was["hand"], "forfeited": forfeited}, "powers": powers}


def snapshot(state: State) -> JSONObject:
    """The state as plain data (``dump``), less what a hand never changes (the scenario, the
    history)."""
    hand = state.hand
    assert hand is not None
    saved = state.scenario, state.history, hand.answerable
    state.scenario, state.history, hand.answerable = {}, [], None
    try:
        return dump(state)
    finally:
        state.scenario, state.history, hand.answerable = saved


def _restore(state: State, before: JSONObject) -> State:
    return load({**copy.deepcopy(before), "scenario": state.scenario, "history": state.history})


def on_action(state: State, hand: HandState, e: Action) -> None:
    """Before a betting action folds in: a stakeholder's own bet or raise may be answered
    (Second Thoughts); the actor's turn-long effects are used up."""
    if not e.get("auto") and e["action"] in ("bet", "raise") and e["name"] != state.fool:
        hand.answerable = Answerable(kind="bet", by=e["name"], action=e["action"],
                                     before=snapshot(state))
    street = hand.round.street
    hand.effects = [f for f in hand.effects
                    if not (f["scope"] == TURN and f["target"] == e["name"])
                    and not (f["scope"] == ROUND and f["street"] < street)]


# -- the fold -----------------------------------------------------------------------------------


def spend(state: State, e: PowerUsed) -> None:
    """R26: the power is used once, by its holder; its Charges (and any Ill Star) are paid."""
    power = state.powers.get(e["power"])
    if power is None or power["used"] or power["holder"] != e["name"]:
        raise InvariantViolation(f"R26: power {e['power']} used twice or by another")
    power["used"] = True
    power["used_hand"] = e.get("hand")
    state.charges[e["name"]] -= e["charges"]
    if e.get("surcharge"):
        state.surcharges.pop(e["name"], None)


def spent(power: PowerHeld) -> str:
    """What became of a power given out (E57): ``used``, ``lost to Downfall`` (drawn by a
    power, as if spent, never used), ``cancelled by Mistrial`` (used, and cancelled before it
    took effect); ``unused`` while it is not spent."""
    if power.get("lost"):
        return f"lost to {power['lost']}"
    if power.get("cancelled"):
        return f"cancelled by {power['cancelled']}"
    return "used" if power.get("used") else "unused"


def apply_power(state: State, e: PowerUsed) -> State:
    """Fold one ``power_used`` event (validated by ``referee.evening.powers.use``)."""
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
        state.hand.answerable = Answerable(kind="power", by=e["name"], power=e["power"],
                                           event=copy.deepcopy(e), before=before)
    return state


def _effect(e: PowerUsed, kind: str, scope: str, target: str | None, **more: Any) -> Effect:
    """An effect of the power used in ``e``; ``more`` holds the fields its kind adds."""
    made = Effect(kind=kind, scope=scope, target=target, power=e["title"], by=e["name"])
    made.update(more)  # type: ignore[typeddict-item]  # moves, street, who, card ... (Effect)
    return made


def _nothing(state: State, hand: HandState, e: PowerUsed) -> None:
    return None


def _target(e: PowerUsed) -> str:
    """The stakeholder a power was used on: every effect that folds it names one (S7)."""
    target = e.get("target")
    assert target is not None, e
    return target


def _fold(state: State, hand: HandState, e: PowerUsed) -> None:
    hand.folded.append(_target(e))


def _toll(state: State, hand: HandState, e: PowerUsed) -> None:
    """S16: toll chips go into the pot as dead money, like antes (R15): no bet, counted towards
    no call, never returned as uncalled."""
    for name, chips in e["paid"].items():
        move_chips(state, name, POT, chips)
        dead = hand.antes.get(name, 0)  # the first chips of a contribution are the dead ones
        paid = [c for c, n in chips.items() for _ in range(n)]
        hand.contrib.setdefault(name, [])[dead:dead] = paid
        hand.antes[name] = dead + len(paid)
    hand.folded.extend(e["folded"])


def _skip(state: State, hand: HandState, e: PowerUsed) -> None:
    """S18: owing, the player is passed over and must call or fold when the action returns."""
    if e.get("passed"):
        hand.round.last = e["target"]
        hand.effects.append(_effect(e, "only", TURN, e["target"], moves=["call", "fold"]))


def _turn(kind: str) -> Callable[[State, HandState, PowerUsed], None]:
    def fold_in(state: State, hand: HandState, e: PowerUsed) -> None:
        more = {"moves": [e["action"]]} if kind == "only" else {}
        hand.effects.append(_effect(e, kind, TURN, e["target"], **more))
        if kind == "only" and "amount" in e:
            hand.effects[-1]["amount"] = e["amount"]  # E163: the chips forced too
    return fold_in


def _round(kind: str, everyone: bool = False) -> Callable[[State, HandState, PowerUsed], None]:
    def fold_in(state: State, hand: HandState, e: PowerUsed) -> None:
        hand.effects.append(_effect(e, kind, ROUND, None if everyone else e["target"],
                                    street=e["street"]))
    return fold_in


def _all_in(state: State, hand: HandState, e: PowerUsed) -> None:
    hand.effects.append(_effect(e, "all_in", HAND, e["target"]))


def _opener(state: State, hand: HandState, e: PowerUsed) -> None:
    hand.effects.append(_effect(e, "opener", ROUND, None, street=e["street"],
                                who=e["name"] if e["who"] == "self" else "lowest"))


def _swap(state: State, hand: HandState, e: PowerUsed) -> None:
    mine, theirs = hand.showing[e["name"]], hand.showing[_target(e)]
    mine[mine.index(e["card"])] = e["new"]
    theirs[theirs.index(e["new"])] = e["card"]


def _replace(state: State, hand: HandState, e: PowerUsed) -> None:
    cards = hand.showing[e["owner"]]
    cards[cards.index(e["card"])] = e["new"]
    hand.out.setdefault(e["owner"], []).append(e["card"])


def _hide(state: State, hand: HandState, e: PowerUsed) -> None:
    hand.showing[e["name"]].remove(e["card"])
    hand.shift[e["name"]] = hand.shift.get(e["name"], 0) + 1
    hand.hooded.setdefault(e["name"], []).append(e["card"])  # E77: marked as hooded


def _unhood(hand: HandState, owner: str, card: str) -> None:
    """A hooded card turned up again or discarded is no longer a hooded down card (E77)."""
    if card in hand.hooded.get(owner, []):
        hand.hooded[owner].remove(card)


def _kill(state: State, hand: HandState, e: PowerUsed) -> None:
    hand.effects.append(_effect(e, "dead", HAND, e["target"], card=e["card"]))


def _reveal(state: State, hand: HandState, e: PowerUsed) -> None:
    for owner, card in e["revealed"]:
        hand.showing.setdefault(owner, []).append(card)
        hand.shift[owner] = hand.shift.get(owner, 0) - 1
        _unhood(hand, owner, card)


def _discard(state: State, hand: HandState, e: PowerUsed) -> None:
    if e["up"]:
        hand.showing[e["name"]].remove(e["card"])
        hand.shift[e["name"]] = hand.shift.get(e["name"], 0) + 1
    hand.out.setdefault(e["name"], []).append(e["card"])
    _unhood(hand, e["name"], e["card"])


def _counts_as(state: State, hand: HandState, e: PowerUsed) -> None:
    more = {k: e[k] for k in ("needs", "suit") if k in e}  # E56: the other cards it names
    hand.effects.append(_effect(e, "counts_as", HAND, e["name"], card=e["card"], counts=e["as"],
                                **more))


def _lose(state: State, hand: HandState, e: PowerUsed) -> None:
    lost = state.powers[e["lost"]]
    if lost["used"] or lost["holder"] != e["target"]:
        raise InvariantViolation(f"S24: {e['lost']} is no unused power of {e['target']}")
    lost["used"] = True
    lost["lost"] = e["title"]


def _surcharge(state: State, hand: HandState, e: PowerUsed) -> None:
    state.surcharges.setdefault(_target(e), []).append(
        {"power": e["title"], "by": e["name"], "n": e["n"]})


def _bar(state: State, hand: HandState, e: PowerUsed) -> None:
    state.barred[e["assistant"]] = {"power": e["title"], "by": e["name"], "side": e["target"],
                                    "until": hand.no + 1}


def _exile(state: State, hand: HandState, e: PowerUsed) -> None:
    state.exiles[_target(e)] = {"power": e["title"], "by": e["name"], "hand": hand.no,
                                 "until": hand.no + 1}


def _protect(state: State, hand: HandState, e: PowerUsed) -> None:
    for card in e["cards"]:
        hand.effects.append(_effect(e, "protect", HAND, e["name"], card=card))


APPLY: dict[str, Callable[[State, HandState, PowerUsed], None]] = {
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
