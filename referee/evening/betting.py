"""Betting rounds of a Fool's Errand hand (R9, R12-R15): whose turn, what is legal, the pots.

Turn order runs around the table from the Fool's left, the Fool last (E2); each round opens
with the highest hand showing among those who can still bet (R9), once every live player's
up cards for the round are given. The Fool's forced moves (R15) are a named part of the
round: ``forced_move`` says what he must do when it is his turn, and the commands play it
for him.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from referee.errors import IllegalAction
from referee.evening import effects
from referee.evening.state import HandState, Round, State
from referee.names import plural, quoted
from referee.rules.cards import parse_cards
from referee.streams import Event

if TYPE_CHECKING:
    from referee.rules.pots import Layering

LIMIT_RAISES = 3  # R12

#: Up cards dealt by each round (R9): stakeholders two down, two up, two up, one down; the
#: Fool all seven up.
UP_CARDS = {1: (2, 4), 2: (4, 6), 3: (4, 7)}
ALL_UP = (4, 7)


def can_act(state: State, hand: HandState, name: str) -> bool:
    """Still in the hand and holding chips to bet with (an all-in player cannot act)."""
    return (name in hand.order and name not in hand.folded and state.stack(name) > 0
            and not effects.suspended(hand, name))  # S19: Suspended plays as if all-in


def actors(state: State, hand: HandState) -> list[str]:
    return [p for p in hand.order if can_act(state, hand, p)]


# -- up cards (R9) --------------------------------------------------------------------------


def up_cards_dealt(state: State, hand: HandState, name: str) -> int:
    """How many up cards ``name`` has been dealt by now: by the round, all of them once the
    betting is over (the rest of the deal follows without betting, R14)."""
    player, fool = ALL_UP if hand.betting_over else UP_CARDS[hand.round.street]
    if name == state.fool:
        return fool
    return player - hand.shift.get(name, 0)  # S21: cards a power turned down or up


def missing_up_cards(state: State, hand: HandState) -> list[str]:
    """Live players whose up cards for this round have not all been given (``hand show``)."""
    if hand.betting_over:
        return []
    return [name for name in hand.live
            if len(hand.showing.get(name, [])) < up_cards_dealt(state, hand, name)]


def up_cards_line(state: State, hand: HandState) -> str:
    """``Ada has 2 of 4, Max 4 of 6``: whose up cards for this round are missing."""
    parts = []
    for i, name in enumerate(missing_up_cards(state, hand)):
        have = len(hand.showing.get(name, []))
        want = up_cards_dealt(state, hand, name)
        parts.append(f"{name} {'has ' if i == 0 else ''}{have} of {want}")
    return ", ".join(parts)


# -- the opener (R9, R15) -------------------------------------------------------------------


def first_in(state: State, hand: HandState, names: list[str],
             showing: dict[str, list[str]] | None = None) -> str:
    """The best showing hand among ``names`` (R9), ties to the seat nearest the Fool's left,
    the Fool last (H5). ``showing`` defaults to the hand's up cards."""
    from referee.rules.hands import first_to_bet

    shown = effects.live_showing(hand) if showing is None else showing  # S21: dead cards
    seats = [n for n in hand.order if n in names]
    return first_to_bet([(n, parse_cards(" ".join(shown.get(n, [])))) for n in seats],
                        fool=state.fool if state.fool in seats else None, magic=True)


def opener(state: State, hand: HandState) -> str | None:
    """Who opens the current round: the highest showing among those who can bet (R9, R15:
    the Fool without chips cannot bet, so the best-showing stakeholder opens)."""
    if hand.round.opener is not None:
        return hand.round.opener
    able = actors(state, hand)
    if not able:
        return None
    return effects.opener(state, hand, able) or first_in(state, hand, able)  # S20


def _next_after(state: State, hand: HandState, last: str | None) -> str | None:
    order = hand.order
    start = order.index(last) + 1 if last in order else 0
    for k in range(len(order)):
        name = order[(start + k) % len(order)]
        if can_act(state, hand, name) and _owes(state, hand, name):
            return name
    return None


def _owes(state: State, hand: HandState, name: str) -> bool:
    r = hand.round
    return name not in r.acted or r.committed.get(name, 0) < r.bet


def to_act(state: State, hand: HandState) -> str | None:
    """The player whose turn it is; None when the round's betting is complete, or before the
    round's up cards are all given (R9: until then the opener cannot be known)."""
    if hand.betting_over:
        return None
    r = hand.round
    if r.actions == 0:
        return None if missing_up_cards(state, hand) else opener(state, hand)
    return _next_after(state, hand, r.last)


def owed(state: State, hand: HandState, name: str) -> int:
    """Chips ``name`` must put in to call now (before all-in capping)."""
    return max(0, hand.round.bet - hand.round.committed.get(name, 0))


def may_raise(hand: HandState) -> bool:
    return hand.phase == "open" or hand.round.raises < LIMIT_RAISES


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
    if name == state.fool:  # R15: his move is forced, the console plays it
        return Options(name, due, ("call",) if due else (("bet",) if r.actions == 0
                                                         else ("check",)))
    moves: list[str] = []
    if due == 0:
        moves.append("check")
        if r.bet == 0:
            moves.append("bet")
        elif may_raise(hand):
            moves.append("raise")
    else:
        moves.append("call")
        if state.stack(name) > due and may_raise(hand):
            moves.append("raise")
        moves.append("fold")
    moves = effects.allowed_moves(state, hand, name, moves)[0]  # S17: powers in force
    return Options(name, due, tuple(moves))


def waiting_line(state: State, hand: HandState) -> str:
    """Why nobody may act now, and what comes next."""
    if hand.betting_over:
        return ("betting in this hand is over; record the showdown with "
                "`referee hand showdown \"NAME: DOWN CARDS\" ...`")
    first = quoted(missing_up_cards(state, hand)[0]) if missing_up_cards(state, hand) else "NAME"
    return (f"round {hand.round.street}'s up cards are not all given "
            f"({up_cards_line(state, hand)}); give them with `referee hand show {first} CARDS` "
            "before any bet (R9)")


def act_hint(state: State, hand: HandState) -> str:
    """What the GM may type now, as commands that the console accepts (E58): the moves of the
    player to act (``referee check Ada`` or ``referee bet Ada``), else what comes first."""
    what = options(state, hand)
    if what is None:
        return waiting_line(state, hand)
    owes = f" (owes {what.owes})" if what.owes else ""
    return f"{what.name} is to act{owes}: {move_commands(state, hand)}"


def move_commands(state: State, hand: HandState) -> str:
    """The moves of the player to act as commands: ``referee check Ada`` or ``referee bet
    Ada`` (E58); what comes first when nobody may act."""
    what = options(state, hand)
    if what is None:
        return waiting_line(state, hand)
    if what.name == state.fool:  # never at rest: the console plays his moves (R15)
        return f"the Fool must {what.moves[0]}, and the console plays it"
    name = quoted(what.name)
    commands = [f"`referee {move} {name}`" for move in what.moves]
    return commands[0] if len(commands) == 1 else (", ".join(commands[:-1]) + " or "
                                                   + commands[-1])


# -- verifying an action ---------------------------------------------------------------------


ALL = -1  #: ``bet NAME all`` / ``raise NAME all``: every chip the player holds (E27)


def verify_action(state: State, hand: HandState, name: str, action: str, amount: int | None,
                  ) -> int:
    """Raise IllegalAction unless ``name`` may ``action`` now; return the chips to put in.

    ``amount`` is N for bet/raise (None: 1; ``ALL``: every chip held). A bet or raise of more
    than one holds is refused (E27: going all-in is said, ``all``); a call for more than one
    holds is all-in (R14).
    """
    if hand.betting_over or (hand.round.actions == 0 and missing_up_cards(state, hand)):
        raise IllegalAction(waiting_line(state, hand), ruling="R14" if hand.betting_over
                            else "R9")
    if name not in hand.order:
        raise IllegalAction(f"{name} is not dealt into hand {hand.no}; in it: "
                            f"{', '.join(hand.live)}; {act_hint(state, hand)}")
    if name in hand.folded:
        raise IllegalAction(f"{name} has folded this hand; {act_hint(state, hand)}")
    if state.stack(name) == 0:
        raise IllegalAction(f"{name} is all-in (no chips left) and takes no more actions; "
                            f"{act_hint(state, hand)}", ruling="R14")
    current = to_act(state, hand)
    if name != current:
        raise IllegalAction(f"not {name}'s turn: {act_hint(state, hand)}")
    what = options(state, hand)
    if what is not None:  # S17: an action a power in force forbids is refused, naming it
        effects.check_action(state, hand, name, action, amount, list(what.moves))
    r: Round = hand.round
    due = owed(state, hand, name)
    stack = state.stack(name)
    limit = hand.phase == "limit"
    is_fool = name == state.fool
    if action == "check":
        if due:
            raise IllegalAction(f"{name} cannot check: {plural(due, 'chip')} to call; "
                                f"{act_hint(state, hand)}")
        return 0
    if action == "fold":
        if is_fool:
            raise IllegalAction("the Fool never folds (R15)", ruling="R15")
        return 0
    if action == "call":
        if not due:
            raise IllegalAction(f"nothing to call for {name}; {act_hint(state, hand)}")
        return min(due, stack)
    if action not in ("bet", "raise"):
        raise IllegalAction(f"unknown action {action!r}; use bet, raise, call, check or fold")
    if action == "bet" and r.bet > 0:
        raise IllegalAction(f"there is already a bet of {r.bet} this round; "
                            f"{act_hint(state, hand)}")
    if action == "raise":
        if r.bet == 0:
            raise IllegalAction(f"no bet to raise this round; {act_hint(state, hand)}")
        if is_fool:
            raise IllegalAction("the Fool never raises (R15)", ruling="R15")
        if limit and r.raises >= LIMIT_RAISES:
            raise IllegalAction(f"three raises this round already (limit phase); "
                                f"{act_hint(state, hand)}", ruling="R12")
        if stack <= due:
            raise IllegalAction(f"{name} holds {plural(stack, 'chip')}, not more than the {due} to "
                                f"call; `referee call {quoted(name)}` puts them all-in",
                                ruling="R14")
    if amount == ALL:
        n = stack - (due if action == "raise" else 0)
    else:
        n = 1 if amount is None else amount
    if n < 1:
        raise IllegalAction(f"a {action} is at least 1 chip, got {n}")
    # E5: in the limit phase a raise is exactly one chip over the bet (else call all-in)
    if limit and n != 1:
        said = "all their chips" if amount == ALL else str(n)
        raise IllegalAction(f"limit phase: every bet and raise is exactly 1 chip, not {said} "
                            f"(the open phase allows any amount): `referee {action} "
                            f"{quoted(name)}`", ruling="R12")
    if action == "bet" and n > stack:
        raise IllegalAction(f"{name} holds {plural(stack, 'chip')}; bet at most {stack}, or say "
                            f"`referee bet {quoted(name)} all` to go all-in (E27)",
                            ruling="E27")
    if action == "raise" and due + n > stack:
        raise IllegalAction(f"{name} holds {plural(stack, 'chip')}: {due} to call and at most "
                            f"{stack - due} more; say `referee raise {quoted(name)} all` to go "
                            "all-in (E27)", ruling="E27")
    return n if action == "bet" else due + n


# -- the Fool's forced moves (R15) -----------------------------------------------------------


def forced_move(state: State, hand: HandState) -> Event | None:
    """The Fool's forced play when it is his turn (R15), as the action event to record.

    While he holds chips he calls every bet and raise; he bets one chip (the least he can,
    E4) when he opens with the high hand showing; owing nothing and not opening, he checks.
    None when it is not his turn (including before the round's up cards are given, E4).
    """
    if to_act(state, hand) != state.fool:
        return None
    due = owed(state, hand, state.fool)
    stack = state.stack(state.fool)
    if due:
        n, action, why = min(due, stack), "call", "the Fool must call while he has chips"
    elif hand.round.actions == 0:
        n, action, why = 1, "bet", "the Fool shows the high hand and must bet"
    else:
        n, action, why = 0, "check", "nothing to call"
    from referee.rules.pots import pick_chips

    chips = pick_chips(state.holding(state.fool), n, own=None) if n else {}
    return {"kind": "action", "name": state.fool, "action": action, "chips": chips,
            "all_in": n > 0 and n == stack, "auto": True, "why": f"{why} (R15)"}


# -- the round's end ---------------------------------------------------------------------------


def advance(state: State, hand: HandState) -> None:
    """After an action: end the round when its betting is complete and start the next."""
    r = hand.round
    if r.actions and _next_after(state, hand, r.last) is not None:
        return
    if r.street >= 3:
        hand.betting_over = True
        return
    hand.round = Round(street=r.street + 1)
    begin_round(state, hand)


def begin_round(state: State, hand: HandState) -> None:
    """A round with fewer than two players able to bet has no betting (R14)."""
    if len(actors(state, hand)) < 2:
        hand.betting_over = True


# -- the pots --------------------------------------------------------------------------------


def pots(state: State, hand: HandState) -> Layering:
    """The hand's main pot, side pots and uncalled chips as they stand (R14, R15)."""
    from referee.rules.pots import build_pots

    return build_pots(hand.contrib, hand.live, state.fool, hand.antes)
