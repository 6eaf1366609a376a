"""Powers in force (S11-S30): how a ``power_used`` event changes the evening. Pure; folded by
``referee.evening.folds``: what every use has in common here (its Charges spent, the answer it
opens or takes, S15), what its kind does by that kind's own fold
(``referee.evening.powers.kinds``); what the effects then impose is read through
``referee.evening.powers.constraints``.

Everything a power leaves behind is plain data on the state: ``HandState.effects`` holds
``{kind, scope, target, power, by, ...}`` records, where ``scope`` is ``turn`` (until the
target's next action), ``round`` (this betting round, ``street``) or ``hand``;
``HandState.answerable`` is the bet or power that may be answered now, with the state
before it (S15); ``State.barred``, ``surcharges`` and ``exiles`` reach past the hand.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Literal

from referee.errors import InvariantViolation
from referee.evening.events import Action, PowerAccessed, PowerSpec, PowerUsed
from referee.evening.powers.kinds import KINDS, made_effect
from referee.evening.state import (
    ROUND,
    TURN,
    Answerable,
    HandState,
    PowerHeld,
    State,
    answered,
    dump,
    load,
)

if TYPE_CHECKING:
    from referee.jsontypes import JSONObject


# -- answers: the state before a bet or a power (S15) -------------------------------------------


def grant(forfeited: dict[str, list[str]], powers: dict[str, PowerHeld], e: PowerAccessed,
          hand_no: int, showing: dict[str, list[str]], shift: dict[str, int]) -> None:
    """R26: the card slid is out of the hand (out of the up cards, when a power had turned it
    face up, E273); the power, if free, goes to the one who slid it. On the state, and on the
    state an answer would put back (R38)."""
    forfeited.setdefault(e["name"], []).append(e["card"])
    if e["card"] in showing.get(e["name"], []):  # E273: turned up by a power, now slid
        showing[e["name"]] = [c for c in showing[e["name"]] if c != e["card"]]
        shift[e["name"]] = shift.get(e["name"], 0) + 1
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
    _granted(answer, "before", e, hand.no)
    if "bet_before" in answer:  # E265: the state Second Thoughts would put back
        _granted(answer, "bet_before", e, hand.no)


def _granted(answer: Answerable, key: Literal["before", "bet_before"], e: PowerAccessed,
             hand_no: int) -> None:
    """The state ``answer`` puts back under ``key`` (``dump``) replaced by one with the card
    ``e`` slid given and its power granted."""
    was = answer[key]
    forfeited = {k: list(v) for k, v in was["hand"]["forfeited"].items()}
    showing = {k: list(v) for k, v in was["hand"]["showing"].items()}
    shift = dict(was["hand"]["shift"])
    powers = dict(was["powers"])
    grant(forfeited, powers, e, hand_no, showing, shift)
    answer[key] = {**was, "hand": {**was["hand"], "forfeited": forfeited, "showing": showing,
                                   "shift": shift}, "powers": powers}


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


def put_back(state: State, before: JSONObject) -> State:
    """The evening as it stood before a power or bet that may be answered (S15)."""
    return _restore(state, before)


def as_answered(state: State, spec: PowerSpec) -> State:
    """E274: the evening a power that cancels another (Mistrial) is judged on: as it stood
    before the power it answers, which is cancelled "before it takes effect" (S15), and which
    so cannot take the power that cancels it (Downfall) nor make it dearer (Ill Star)."""
    answer = None if state.hand is None else state.hand.answerable
    if answer is None or answer["kind"] != "power" or \
            (spec.get("effect") or {}).get("kind") != "cancel":
        return state
    return _restore(state, answer["before"])


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
    before, prior = snapshot(state), hand.answerable
    if kind in ("cancel", "take_back"):
        answer = hand.answerable
        want = "power" if kind == "cancel" else "bet"
        if answer is None or not answered(answer, want) or answer["by"] == e["name"]:
            raise InvariantViolation(f"S15: {e['power']} answers no {want} now")
        with_bet = kind == "take_back" and answer["kind"] == "power"  # E265: and its power
        state = _restore(state, answer["bet_before"] if with_bet else answer["before"])
        hand = state.hand
        assert hand is not None
        if kind == "cancel" or with_bet:
            spend(state, answer["event"])
            state.powers[answer["power"]]["cancelled"] = e["title"]  # E57
        if kind == "take_back":  # E261: the turn's powers the move obeyed are spent
            hand.effects = [f for f in hand.effects
                            if not (f["scope"] == TURN and f["target"] == answer["by"])]
            hand.effects.append(made_effect(e, "no_bets", TURN, answer["by"]))
    spend(state, e)
    if e.get("opener") and hand.round.actions == 0:  # S11: a turn begun fixes the opener (E3)
        hand.round.opener = e["opener"]
    if kind in KINDS:
        KINDS[kind].fold(state, hand, e)
    if state.hand is not None:
        made = Answerable(kind="power", by=e["name"], power=e["power"],
                          event=copy.deepcopy(e), before=before)
        if kind == "no_raises" and prior is not None and prior["kind"] == "bet" \
                and prior["by"] == e["name"]:  # E265: the bet made with it, in one act
            made["bet_before"], made["action"] = prior["before"], prior["action"]
        state.hand.answerable = made
    return state


def hand_ended(state: State, hand: HandState) -> None:
    """S27: an exiled stakeholder rises from the table when the hand ends."""
    for name, exile in state.exiles.items():
        if exile["hand"] == hand.no:
            state.seat(name).seated = False
