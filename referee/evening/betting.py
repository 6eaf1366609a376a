"""Betting rounds of a Fool's Errand hand (R9, R12-R15): whose turn, what is legal, the pots.

Turn order runs around the table from the Fool's left, the Fool last (E2); each round opens
with the highest hand showing among those who can still bet (R9), once every live player's
up cards for the round are given. The Fool's forced moves (R15) are a named part of the
round: ``forced_move`` says what he must do when it is his turn, and the commands play it
for him.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from referee.errors import BadInput, IllegalAction
from referee.evening.events import Action, Showdown
from referee.evening.known import showdown_line
from referee.evening.pots import uncontested
from referee.evening.powers import constraints
from referee.evening.powers.building import TableNow
from referee.evening.state import ALL, HandState, Round, State
from referee.names import plural
from referee.rules.cards import parse_cards
from referee.rules.pots import check_named_chips, pick_chips
from referee.said import Said, Suggest, joined, said

LIMIT_RAISES = 3  # R12

#: Up cards dealt by each round (R9): stakeholders two down, two up, two up, one down; the
#: Fool all seven up.
UP_CARDS = {1: (2, 4), 2: (4, 6), 3: (4, 7)}
ALL_UP = (4, 7)


class Table:
    """One question put to the betting (whose turn is it, what may they do, is this move
    legal), read in one pass: the moves the rules give each player (R12-R15), the powers in
    force turned once into the constraints they impose (``constraints.constraints``: who is
    suspended, the up cards that count, parsed and ranked, whom a power names to open, the
    moves each player is left), and from those who can bet, whose turn it is and what they may
    do. Every answer below reads what the pass found; none asks the powers again."""

    def __init__(self, state: State, hand: HandState) -> None:
        self.state, self.hand = state, hand
        rules = {name: self.by_the_rules(name) for name in hand.live}
        self.limits = constraints.constraints(
            state, hand, {name: (o.moves, o.owes > 0) for name, o in rules.items()})
        self.able = who_can_bet(state, hand, self.limits.suspended)
        self.turn = self.to_act()
        self.options: Options | None = None  # what the player to act may do now
        if self.turn is not None:
            left = self.limits.left.get(self.turn)  # S17: narrowed by the powers in force
            what = rules[self.turn]
            self.options = what if left is None else Options(what.name, what.owes, left.moves)

    def by_the_rules(self, name: str) -> Options:
        """What ``name`` would owe and might do by the rules, were it their turn (R12-R15)."""
        state, hand = self.state, self.hand
        r = hand.round
        due = owed(state, hand, name)
        if name == state.fool:  # R15: his move is forced, the console plays it
            return Options(name, due, ("call",) if due else (
                ("bet",) if self.fool_must_bet() else ("check",)))
        if due == 0:
            return Options(name, due, ("check", "bet") if r.bet == 0 else (
                ("check", "raise") if may_raise(hand) else ("check",)))
        if state.stack(name) > due and may_raise(hand):
            return Options(name, due, ("call", "raise", "fold"))
        return Options(name, due, ("call", "fold"))

    def first_in(self, names: list[str]) -> str:
        """The best showing hand among ``names`` (R9; dead cards count for nothing, S21), ties
        to the seat nearest the Fool's left, the Fool last (H5): ranked on the machine's own
        cards, checked when they were shown and parsed and ranked once (``Constraints``)."""
        ranks = self.limits.ranks  # hand.order runs from the Fool's left, the Fool last
        seats = [n for n in self.hand.order if n in names]
        bare = [n for n in seats if n not in ranks]
        if bare:
            raise BadInput(f"{bare[0]} shows no up card that counts, so the round's opener "
                           "cannot be ranked (R9)", ruling="R9")
        return max(seats, key=ranks.__getitem__)  # max keeps the first of equals

    def opener(self) -> str | None:
        """Who opens the current round: the highest showing among those who can bet (R9,
        R15: the Fool without chips cannot bet, so the best-showing stakeholder opens), unless
        a power names the opener (S20: the first of those it names who can bet)."""
        if self.hand.round.opener is not None:
            return self.hand.round.opener
        if not self.able:
            return None
        named = next((p for p in self.limits.openers if p in self.able), None)  # S20
        return named or self.first_in(self.able)

    def to_act(self) -> str | None:
        """The player whose turn it is; None when the round's betting is complete, or before
        the round's up cards are all given (R9: until then the opener cannot be known)."""
        hand = self.hand
        if hand.betting_over:
            return None
        if hand.round.actions == 0:
            return None if missing_up_cards(self.state, hand) else self.opener()
        return next_after(hand, self.able, hand.round.last)

    def fool_must_bet(self) -> bool:
        """R15, R45: nothing is bet this round, the Fool holds chips and shows the high hand
        among those who can bet (ties go to the stakeholder nearer his left, H5). Whoever
        opened: a power that moved the opener (S20) moved nothing else, so his duty to bet
        stands when his turn comes after the others checked."""
        state, hand = self.state, self.hand
        if hand.round.bet or not state.stack(state.fool):
            return False
        if hand.round.actions == 0:  # his turn to open: the high hand is why (R9)
            return True
        able = actors(state, hand)
        if len(able) < 2:  # every other hand folded or all-in: nobody to bet against
            return False
        return first_in(state, hand, able) == state.fool

    def forced(self) -> Play:
        """The Fool's forced play, his turn come (R15): while he holds chips he calls every bet
        and raise; he bets one chip (the least he can, E4) when nothing is bet and he shows the
        high hand, whoever opened (R45); owing nothing otherwise, he checks."""
        state, hand = self.state, self.hand
        due = owed(state, hand, state.fool)
        if due:
            n, action, why = (min(due, state.stack(state.fool)), "call",
                              "the Fool must call while he has chips")
        elif self.fool_must_bet():
            n, action, why = 1, "bet", "the Fool shows the high hand and must bet"
        else:
            n, action, why = 0, "check", "nothing to call"
        return Play(state.fool, action, n, auto=True, why=f"{why} (R15)")

    def verified(self, move: Request, before: Sequence[Action] = ()) -> Play:
        """The GM's ``move`` verified (R11-R15, S17), the Fool's turn not come: the move a
        forced move already played this command (``before``) leaves illegal is refused naming
        that first (R15)."""
        state, hand = self.state, self.hand
        name = move.name or self.turn
        if name is None:
            raise IllegalAction(waiting_line(state, hand),
                                ruling="R14" if hand.betting_over else "R9")
        if name == state.fool:  # never his turn here: his forced moves are played first
            why = f"{self.turn} is to act" if self.turn else waiting_line(state, hand)
            raise IllegalAction(said("not the Fool's turn: ", why, "; the console plays the "
                                     "Fool's forced bets and calls itself (R15)"), ruling="R15")
        amount = move.amount
        try:
            named = move.chips() if move.chips else None
            if named is not None and amount is None and move.action in ("bet", "raise"):
                amount = sum(named.values()) - (owed(state, hand, name)
                                                if move.action == "raise" else 0)
            n = verify_action(state, hand, name, move.action, amount, self)
        except IllegalAction as exc:
            if not before:
                raise
            done = "; ".join(f"{e['name']} {e['action']}s {sum(e['chips'].values()) or ''}"
                             .strip() for e in before)
            raise IllegalAction(said(f"first the Fool's forced move: {done} (R15); then ",
                                     exc.said),
                                ruling=exc.ruling) from None
        return Play(name, move.action, n, named)


def who_can_bet(state: State, hand: HandState, suspended: Collection[str]) -> list[str]:
    """Who can still bet, in seat order: in the hand, not folded, holding chips (an all-in
    player cannot act, R14), and not ``suspended`` (S19: Suspended plays as if all-in)."""
    return [p for p in hand.order if p not in hand.folded and state.stack(p) > 0
            and p not in suspended]


def next_after(hand: HandState, able: Collection[str], last: str | None) -> str | None:
    """The next player round the table after ``last`` who can bet and owes an action (E2);
    None when the round's betting is complete."""
    order, r = hand.order, hand.round
    start = next((i + 1 for i, name in enumerate(order) if name == last), 0)
    for name in order[start:] + order[:start]:
        if name in able and (name not in r.acted or r.committed.get(name, 0) < r.bet):
            return name
    return None


def actors(state: State, hand: HandState) -> list[str]:
    """Who can still bet (R14, S19), the powers read for that alone."""
    return who_can_bet(state, hand, constraints.suspended_players(hand))


def can_act(state: State, hand: HandState, name: str) -> bool:
    """Still in the hand and holding chips to bet with (an all-in player cannot act)."""
    return name in actors(state, hand)


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
    the Fool last (H5). ``showing`` defaults to the hand's up cards that count (S21)."""
    from referee.rules.hands import first_to_bet

    if showing is None:
        showing = constraints.live_showing(hand)
    seats = [n for n in hand.order if n in names]
    return first_to_bet([(n, parse_cards(showing.get(n, []))) for n in seats],
                        fool=state.fool if state.fool in seats else None, magic=True)


def opener(state: State, hand: HandState) -> str | None:
    """Who opens the current round (R9, R15, S20): ``Table.opener``."""
    return Table(state, hand).opener()


def to_act(state: State, hand: HandState) -> str | None:
    """The player whose turn it is (``Table.to_act``)."""
    return Table(state, hand).turn


def now(state: State, hand: HandState) -> TableNow:
    """What the betting says now, read once for a power's use (R9-R15, S17, ``TableNow``)."""
    table = Table(state, hand)
    what = table.options
    return TableNow(to_act=table.turn, moves=what.moves if what else (),
                    owed={p: owed(state, hand, p) for p in hand.live}, able=tuple(table.able),
                    may=lambda who, move, amount: can_act_so(state, hand, who, move, amount),
                    waiting=lambda: waiting_line(state, hand),  # said only when refused
                    commands=lambda: move_commands(state, hand, what))


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
    """What the player to act may do now (R12-R15; narrowed by powers in force, S17)."""
    return Table(state, hand).options


def waiting_line(state: State, hand: HandState) -> Said:
    """Why nobody may act now, and what comes next."""
    if hand.betting_over:
        return said("betting in this hand is over; ", showdown_line(hand))
    missing = missing_up_cards(state, hand)
    first = missing[0] if missing else "NAME"
    return said(f"round {hand.round.street}'s up cards are not all given "
                f"({up_cards_line(state, hand)}); give them with ",
                Suggest(("hand", "show"), (first, "CARDS")), " before any bet (R9)")


def act_hint(state: State, hand: HandState) -> Said:
    """What the GM may type now, as moves that the console accepts (E58, E240): the moves of
    the player to act (check or bet, naming them), else what comes first."""
    what = options(state, hand)
    if what is None:
        return waiting_line(state, hand)
    owes = f" (owes {what.owes})" if what.owes else ""
    return said(f"{what.name} is to act{owes}: ", move_commands(state, hand, what))


def move_commands(state: State, hand: HandState, what: Options | None = None) -> Said:
    """The moves of the player to act, as data: check or bet, naming them (E58, E240); what
    comes first when nobody may act. ``what``: their options, if read."""
    what = what or options(state, hand)
    if what is None:
        return waiting_line(state, hand)
    if what.name == state.fool:  # never at rest: the console plays his moves (R15)
        return said(f"the Fool must {what.moves[0]}, and the console plays it")
    return joined([Suggest((move,), (what.name,)) for move in what.moves])


# -- verifying an action ---------------------------------------------------------------------


def verify_turn(state: State, hand: HandState, name: str, action: str,
                amount: int | None = None, table: Table | None = None) -> None:
    """Raise IllegalAction unless it is ``name``'s turn to move and the powers in force allow
    ``action`` (S17). ``table``: the one already read for this question (``step``), else one
    is read here."""
    if hand.betting_over or (hand.round.actions == 0 and missing_up_cards(state, hand)):
        raise IllegalAction(waiting_line(state, hand), ruling="R14" if hand.betting_over
                            else "R9")
    if name not in hand.order:
        raise IllegalAction(said(f"{name} is not dealt into hand {hand.no}; in it: "
                                 f"{', '.join(hand.live)}; ", act_hint(state, hand)))
    if name in hand.folded:
        raise IllegalAction(said(f"{name} has folded this hand; ", act_hint(state, hand)))
    if state.stack(name) == 0:
        raise IllegalAction(said(f"{name} is all-in (no chips left) and takes no more "
                                 "actions; ", act_hint(state, hand)), ruling="R14")
    if table is None:
        table = Table(state, hand)
    if name != table.turn:
        raise IllegalAction(said(f"not {name}'s turn: ", act_hint(state, hand)))
    left = table.limits.left.get(name)  # S17: what a power in force forbids is refused, naming it
    if left is not None and action not in left.moves:
        raise IllegalAction(f"{name} may not {action} now: {name} must "
                            f"{' or '.join(left.moves)} ({left.powers}, S17)", ruling="S17")
    whole = state.stack(name) - (owed(state, hand, name) if action == "raise" else 0)
    if left is not None and (wrong := left.wrong_chips(name, action, amount, whole)):  # E163
        raise IllegalAction(wrong, ruling="S17")


def verify_check(state: State, hand: HandState, name: str, amount: int | None = None,
                 table: Table | None = None) -> int:
    """R12: a check when nothing is owed; puts in nothing."""
    verify_turn(state, hand, name, "check", amount, table)
    due = owed(state, hand, name)
    if due:
        raise IllegalAction(said(f"{name} cannot check: {plural(due, 'chip')} to call; ",
                                 act_hint(state, hand)))
    return 0


def verify_fold(state: State, hand: HandState, name: str, amount: int | None = None,
                table: Table | None = None) -> int:
    """R12, R15: anyone but the Fool may fold in turn; puts in nothing."""
    verify_turn(state, hand, name, "fold", amount, table)
    if name == state.fool:
        raise IllegalAction("the Fool never folds (R15)", ruling="R15")
    return 0


def verify_call(state: State, hand: HandState, name: str, amount: int | None = None,
                table: Table | None = None) -> int:
    """R12, R14: a call puts in what is owed, or every chip held (all-in)."""
    verify_turn(state, hand, name, "call", amount, table)
    due = owed(state, hand, name)
    if not due:
        raise IllegalAction(said(f"nothing to call for {name}; ", act_hint(state, hand)))
    return min(due, state.stack(name))


def verify_bet(state: State, hand: HandState, name: str, amount: int | None = None,
               table: Table | None = None) -> int:
    """R12, E5, E27: the round's first bet; returns the chips it puts in."""
    verify_turn(state, hand, name, "bet", amount, table)
    if hand.round.bet > 0:
        raise IllegalAction(said(f"there is already a bet of {hand.round.bet} this round; ",
                                 act_hint(state, hand)))
    return _wager(state, hand, name, "bet", amount, 0)


def verify_raise(state: State, hand: HandState, name: str, amount: int | None = None,
                 table: Table | None = None) -> int:
    """R12, R14, R15, E5, E27: a raise over the round's bet; returns the chips it puts in
    (the call and the raise)."""
    verify_turn(state, hand, name, "raise", amount, table)
    due, stack = owed(state, hand, name), state.stack(name)
    if hand.round.bet == 0:
        raise IllegalAction(said("no bet to raise this round; ", act_hint(state, hand)))
    if name == state.fool:
        raise IllegalAction("the Fool never raises (R15)", ruling="R15")
    if hand.phase == "limit" and hand.round.raises >= LIMIT_RAISES:
        raise IllegalAction(said("three raises this round already (limit phase); ",
                                 act_hint(state, hand)), ruling="R12")
    if stack <= due:
        raise IllegalAction(said(f"{name} holds {plural(stack, 'chip')}, not more than the "
                                 f"{due} to call; ", Suggest(("call",), (name,)),
                                 " puts them all-in"),
                            ruling="R14")
    return _wager(state, hand, name, "raise", amount, due)


def _wager(state: State, hand: HandState, name: str, action: str, amount: int | None,
           due: int) -> int:
    """The chips a bet or raise of ``amount`` puts in (E5, E27)."""
    stack = state.stack(name)
    n = stack - due if amount == ALL else (1 if amount is None else amount)
    if n < 1:
        raise IllegalAction(f"a {action} is at least 1 chip, got {n}")
    # E5: in the limit phase a raise is exactly one chip over the bet (else call all-in)
    if hand.phase == "limit" and n != 1:
        got = "all their chips" if amount == ALL else str(n)
        raise IllegalAction(said(f"limit phase: every bet and raise is exactly 1 chip, not {got} "
                                 "(the open phase allows any amount): ",
                                 Suggest((action,), (name,))), ruling="R12")
    if due + n > stack:
        if action == "bet":
            raise IllegalAction(said(f"{name} holds {plural(stack, 'chip')}; bet at most "
                                     f"{stack}, or say ", Suggest(("bet",), (name, "all")),
                                     " to go all-in (E27)"),
                                ruling="E27")
        raise IllegalAction(said(f"{name} holds {plural(stack, 'chip')}: {due} to call and at "
                                 f"most {stack - due} more; say ",
                                 Suggest(("raise",), (name, "all")), " to go all-in (E27)"),
                            ruling="E27")
    return due + n


#: One verifier per move: each raises IllegalAction with the ruling, or returns the chips.
VERIFY: dict[str, Callable[[State, HandState, str, int | None, Table | None], int]] = {
    "bet": verify_bet, "raise": verify_raise, "call": verify_call, "check": verify_check,
    "fold": verify_fold,
}


def verify_action(state: State, hand: HandState, name: str, action: str, amount: int | None,
                  table: Table | None = None) -> int:
    """Raise IllegalAction unless ``name`` may ``action`` now; return the chips to put in.

    ``amount`` is N for bet/raise (None: 1; ``ALL``: every chip held). A bet or raise of more
    than one holds is refused (E27: going all-in is said, ``all``); a call for more than one
    holds is all-in (R14).
    """
    verify = VERIFY.get(action)
    if verify is None:
        verify_turn(state, hand, name, action, amount, table)
        raise IllegalAction(f"unknown action {action!r}; use bet, raise, call, check or fold")
    return verify(state, hand, name, amount, table)


def can_act_so(state: State, hand: HandState, name: str, action: str,
               amount: int | None = None) -> bool:
    """Whether ``name`` may ``action`` now (``can_bet`` and ``can_raise`` read the same)."""
    try:
        verify_action(state, hand, name, action, amount)
    except IllegalAction:
        return False
    return True


def can_bet(state: State, hand: HandState, name: str, amount: int | None = None) -> bool:
    return can_act_so(state, hand, name, "bet", amount)


def can_raise(state: State, hand: HandState, name: str, amount: int | None = None) -> bool:
    return can_act_so(state, hand, name, "raise", amount)


@dataclass(frozen=True)
class Play:
    """A move decided, and verified, before its chips are named: who, what, the chips it puts
    in, the colours the GM named (``--chips``, R11) if any; the Fool's forced moves are
    ``auto``, and say why (R15)."""

    name: str
    action: str
    n: int
    chips: dict[str, int] | None = None
    auto: bool = False
    why: str | None = None


def paid(state: State, play: Play) -> Action:
    """The action event of a verified ``play``, its chips by colour (R11): the colours named,
    checked against what the player holds, or else picked from the player's own colour first
    (R11, the house setting). The one place a move's chips are chosen."""
    name, action, chips = play.name, play.action, play.chips
    if chips is None:
        own = state.colour_of(name)
        chips = pick_chips(state.holding(name), play.n, own=own, own_first=state.own_colour_first)
    else:
        if action in ("check", "fold"):
            raise BadInput(f"--chips makes no sense with {action}")
        check_named_chips(state.holding(name), chips, name)
        if sum(chips.values()) != play.n:
            raise BadInput(f"the chips named add up to {sum(chips.values())}, but this {action} "
                           f"puts in {play.n}", ruling="R11")
    made = Action(kind="action", name=name, action=action, chips=chips,
                  all_in=bool(chips) and sum(chips.values()) == state.stack(name),
                  auto=play.auto)
    if play.why is not None:
        made["why"] = play.why
    return made


def bet(state: State, hand: HandState, name: str, amount: int | None = None,
        chips: dict[str, int] | None = None) -> Action:
    """``name`` bets (R12): verified, as its event."""
    return paid(state, Play(name, "bet", verify_bet(state, hand, name, amount), chips))


def raise_(state: State, hand: HandState, name: str, amount: int | None = None,
           chips: dict[str, int] | None = None) -> Action:
    """``name`` raises (R12): verified, as its event."""
    return paid(state, Play(name, "raise", verify_raise(state, hand, name, amount), chips))


def call(state: State, hand: HandState, name: str,
         chips: dict[str, int] | None = None) -> Action:
    """``name`` calls (R12, R14): verified, as its event."""
    return paid(state, Play(name, "call", verify_call(state, hand, name), chips))


def check(state: State, hand: HandState, name: str) -> Action:
    """``name`` checks (R12): verified, as its event."""
    return paid(state, Play(name, "check", verify_check(state, hand, name)))


def fold(state: State, hand: HandState, name: str) -> Action:
    """``name`` folds (R12): verified, as its event."""
    return paid(state, Play(name, "fold", verify_fold(state, hand, name)))


def forced_move(state: State, hand: HandState) -> Action | None:
    """The Fool's forced play when it is his turn (R15, ``Table.forced``), as the action event
    to record; None when it is not his turn (including before the round's up cards are
    given, E4)."""
    table = Table(state, hand)
    return paid(state, table.forced()) if table.turn == state.fool else None


# -- the machine's step ---------------------------------------------------------------------


def step(state: State, hand: HandState, move: Request | None,
         before: Sequence[Action] = ()) -> Action | Showdown | None:
    """What the betting records next, from one folded state: the Fool's forced move when it
    is his turn (R15), else the GM's ``move`` verified (R11-R15, S17), else, every stakeholder
    having folded, the Fool's uncontested pot (R15, E7), else None: nothing follows by itself.
    ``before`` are the forced moves already played this command: a move they leave illegal is
    refused naming them first (R15). The table is read once; the chips are chosen last."""
    table = Table(state, hand)  # the question, and the powers in force, read in one pass
    if table.turn == state.fool:
        play = table.forced()
    elif move is not None:
        play = table.verified(move, before)
    elif hand.live == [state.fool]:
        return uncontested(state, hand)
    else:
        return None
    return paid(state, play)


@dataclass(frozen=True)
class Request:
    """The GM's betting move: by ``name`` (None: the player to act), ``amount`` N or ``ALL``
    for a bet or raise; ``chips`` reads the colours named (``--chips``, R11) when the move
    comes to be verified, so that what is wrong with the turn is said first."""

    name: str | None
    action: str
    amount: int | None = None
    chips: Callable[[], dict[str, int]] | None = None


# -- the round's end ---------------------------------------------------------------------------


def advance(state: State, hand: HandState) -> None:
    """After an action: end the round when its betting is complete and start the next."""
    r = hand.round
    if r.actions and next_after(hand, actors(state, hand), r.last) is not None:
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
