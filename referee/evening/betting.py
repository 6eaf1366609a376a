"""Betting rounds of a Fool's Errand hand (R9, R12-R15): whose turn, what is legal.

Turn order runs around the table from the Fool's left, the Fool last; each round
opens with the highest hand showing among those who can still bet (R9, R15).
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.errors import IllegalAction
from referee.evening.state import HandState, Round, State
from referee.rules.cards import parse_cards

LIMIT_RAISES = 3  # R12

#: Up cards expected at each street: stakeholders, and the Fool (all his cards are up).
UP_CARDS = {1: (2, 4), 2: (4, 6), 3: (4, 7)}


def can_act(state: State, hand: HandState, name: str) -> bool:
    """Still in the hand and holding chips to bet with (an all-in player cannot act)."""
    return name in hand.order and name not in hand.folded and state.stack(name) > 0


def actors(state: State, hand: HandState) -> list[str]:
    return [p for p in hand.order if can_act(state, hand, p)]


def showing_order(state: State, hand: HandState, names: list[str]) -> list[str]:
    """``names`` from the highest hand showing down (R9); ties keep seat order."""
    from referee.rules.hands import best_hand

    shown = [n for n in names if hand.showing.get(n)]
    hidden = [n for n in names if not hand.showing.get(n)]
    strength = {n: best_hand(parse_cards(" ".join(hand.showing[n])), magic=True) for n in shown}
    # A stable sort, best first: ties stay nearest the Fool's left (R9).
    return sorted(shown, key=lambda n: strength[n], reverse=True) + hidden


def opener(state: State, hand: HandState) -> str | None:
    """Who opens the current round: the highest showing among those who can bet (R9, R15)."""
    if hand.round.opener is not None:
        return hand.round.opener
    able = actors(state, hand)
    if not able:
        return None
    return showing_order(state, hand, able)[0]


def to_act(state: State, hand: HandState) -> str | None:
    """The player whose turn it is, or None when the round's betting is complete."""
    if hand.betting_over:
        return None
    r = hand.round
    if r.actions == 0:
        return opener(state, hand)
    return _next_after(state, hand, r.last)


def _owes(state: State, hand: HandState, name: str) -> bool:
    r = hand.round
    return name not in r.acted or r.committed.get(name, 0) < r.bet


def _next_after(state: State, hand: HandState, last: str | None) -> str | None:
    order = hand.order
    start = order.index(last) + 1 if last in order else 0
    for k in range(len(order)):
        name = order[(start + k) % len(order)]
        if can_act(state, hand, name) and _owes(state, hand, name):
            return name
    return None


def owed(state: State, hand: HandState, name: str) -> int:
    """Chips ``name`` must put in to call now (before all-in capping)."""
    return max(0, hand.round.bet - hand.round.committed.get(name, 0))


def missing_up_cards(state: State, hand: HandState) -> list[str]:
    """Live players whose up cards for this street have not been given (``hand show``)."""
    want_player, want_fool = UP_CARDS[hand.round.street]
    out = []
    for name in hand.live:
        want = want_fool if name == state.fool else want_player
        if len(hand.showing.get(name, [])) < want:
            out.append(name)
    return out


@dataclass(frozen=True)
class Options:
    """What the player to act may do now, for the prompt line."""

    name: str
    owes: int
    moves: tuple[str, ...]


def options(state: State, hand: HandState) -> Options | None:
    name = to_act(state, hand)
    if name is None:
        return None
    r = hand.round
    due = owed(state, hand, name)
    is_fool = name == state.fool
    moves: list[str] = []
    if due == 0:
        moves.append("check")
        moves.append("bet" if r.bet == 0 else "raise")
    else:
        moves.append("call")
        if not is_fool and state.stack(name) > due and _may_raise(hand):
            moves.append("raise")
        moves.append("fold")
    if is_fool:  # R15: his move is forced, the console plays it
        moves = ["call"] if due else (["bet"] if r.actions == 0 else ["check"])
    if r.bet > 0 and "raise" in moves and not _may_raise(hand):
        moves.remove("raise")
    return Options(name, due, tuple(moves))


def _may_raise(hand: HandState) -> bool:
    return hand.phase == "open" or hand.round.raises < LIMIT_RAISES


def verify_action(state: State, hand: HandState, name: str, action: str, amount: int | None,
                  ) -> int:
    """Raise IllegalAction unless ``name`` may ``action`` now; return the chips to put in.

    ``amount`` is N for bet/raise (None: 1); the return value is capped at the player's
    stack (R14: a bet or call for more than one holds is all-in).
    """
    if hand.betting_over:
        raise IllegalAction(
            "betting in this hand is over; record the showdown with "
            "`referee hand showdown \"NAME: CARDS\" ...`", ruling="R14")
    current = to_act(state, hand)
    if name not in hand.order:
        raise IllegalAction(f"{name} is not dealt into hand {hand.no}; in it: "
                            f"{', '.join(hand.live)}")
    if name in hand.folded:
        raise IllegalAction(f"{name} has folded this hand")
    if state.stack(name) == 0:
        raise IllegalAction(f"{name} is all-in (no chips left) and takes no more actions",
                            ruling="R14")
    if name != current:
        what = options(state, hand)
        allowed = f" ({'/'.join(what.moves)})" if what else ""
        raise IllegalAction(f"not {name}'s turn: {current} is to act{allowed}")
    r: Round = hand.round
    due = owed(state, hand, name)
    stack = state.stack(name)
    limit = hand.phase == "limit"
    is_fool = name == state.fool
    if action == "check":
        if due:
            raise IllegalAction(f"{name} cannot check: {due} chip(s) to call; call, raise or fold")
        return 0
    if action == "fold":
        if is_fool:
            raise IllegalAction("the Fool never folds (R15)", ruling="R15")
        return 0
    if action == "call":
        if not due:
            raise IllegalAction(f"nothing to call for {name}; check or "
                                f"{'bet' if r.bet == 0 else 'raise'}")
        return min(due, stack)
    n = 1 if amount is None else amount
    if n < 1:
        raise IllegalAction(f"a {action} is at least 1 chip, got {n}")
    # E5: in the limit phase a raise is exactly one chip over the bet (else call all-in)
    if limit and n != 1:
        raise IllegalAction(f"limit phase: every bet and raise is exactly 1 chip, not {n} "
                            "(the open phase allows any amount)", ruling="R12")
    if action == "bet":
        if r.bet > 0:
            raise IllegalAction(f"there is already a bet of {r.bet} this round; {name} may "
                                f"call ({due}), raise or fold")
        return min(n, stack)
    if action == "raise":
        if r.bet == 0:
            raise IllegalAction(f"no bet to raise this round; {name} may check or bet")
        if is_fool:
            raise IllegalAction("the Fool never raises (R15)", ruling="R15")
        if limit and r.raises >= LIMIT_RAISES:
            raise IllegalAction(f"three raises this round already (limit phase); {name} may "
                                "call or fold", ruling="R12")
        if stack <= due:
            raise IllegalAction(f"{name} holds {stack} chip(s), not more than the {due} to "
                                f"call; `call {name}` puts them all-in", ruling="R14")
        return min(due + n, stack)
    raise IllegalAction(f"unknown action {action!r}; use bet, raise, call, check or fold")


def advance(state: State, hand: HandState) -> None:
    """After an action: end the round when its betting is complete and start the next."""
    if to_act(state, hand) is not None:
        return
    if hand.round.street >= 3:
        hand.betting_over = True
        return
    hand.round = Round(street=hand.round.street + 1)
    begin_round(state, hand)


def begin_round(state: State, hand: HandState) -> None:
    """A round with fewer than two players able to bet has no betting (R14)."""
    if len(actors(state, hand)) < 2:
        hand.betting_over = True

