"""A Tarot Scum hand played move by move: the deal, the passing, the series, the places.

Pure: ``Table`` is what the console knows about the hand being played, folded
from that hand's events (``fold_event``); the ``verify_*`` functions refuse a
move the rules forbid with one sentence that says what is right and what to type
next. The turn runs round the seating order (the order of ``scum new``), skipping
players who have passed in this series or gone out (R29, R30, T13-T27).

The fold re-checks a recorded move against the rules a move was always checked
against; what the console knows of who holds which card without a deal (R30a,
T23, T24) and which minors are the Fool's two highest (R30a) are checked when a
move is typed (``verify_known``, ``verify_gifts``), so an evening recorded
before those checks still folds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypedDict

from referee.errors import BadInput, IllegalAction, InvariantViolation
from referee.rules.cards import Card, format_cards, parse_card
from referee.rules.scum.plays import Play, rank_words, read_play, verify_follow
from referee.rules.scum.roles import (
    LEADER,
    ROLES,
    Role,
    hand_size,
    highest_minors,
    sort_hand,
)
from referee.said import Said, Suggest, said

if TYPE_CHECKING:
    from referee.rules.scum.events import ScumHandEvent

PLACES = ("1st", "2nd", "3rd", "4th")

#: What each passing of R29 takes: how many cards, and whether majors or minors (T13).
PASS_SHAPE: dict[tuple[Role, Role], tuple[int, bool]] = {
    (Role.FOOL, Role.MAGICIAN): (1, True),
    (Role.FOOL, Role.EMPRESS): (2, False),
    (Role.EMPRESS, Role.FOOL): (2, False),
}


def held_after_passing(role: Role) -> int:
    """Cards a role holds once R29's passing is done: the deal, less given, plus received."""
    given = sum(n for (giver, _), (n, _) in PASS_SHAPE.items() if giver is role)
    got = sum(n for (_, receiver), (n, _) in PASS_SHAPE.items() if receiver is role)
    return hand_size(role) - given + got


class ToBeat(TypedDict):
    player: str | None
    cards: list[str]
    play: str


class TableJSON(TypedDict):
    """The hand under way as ``--json`` gives it: whose turn, the play to beat, no card held."""

    to_act: str | None
    leader: str
    to_beat: ToBeat | None
    passed: list[str]
    out: list[str]
    left: dict[str, int]
    dealt: bool
    cards_passed: bool


@dataclass
class Table:
    """The hand being played, as far as the console has been told (T13-T22)."""

    players: list[str]  # seating order
    roles: dict[str, Role]
    holdings: dict[str, list[Card]] | None = None  # known when the console dealt (T16)
    passed_cards: bool = False
    gifts: dict[tuple[Role, Role], list[Card]] = field(default_factory=dict)  # the passing
    left: dict[str, int] = field(default_factory=dict)  # cards still in each hand
    played: set[Card] = field(default_factory=set)
    out: list[str] = field(default_factory=list)  # finishing order so far
    moves: int = 0
    leader: str = ""  # who leads (or led) the series under way
    to_act: str = ""
    best: Play | None = None  # the play to beat; None until the series is led
    best_by: str | None = None
    passed: set[str] = field(default_factory=set)  # passed in this series
    said: list[str] = field(default_factory=list)  # what the last move decided, for the GM

    def __post_init__(self) -> None:
        if not self.left:
            self.left = {n: held_after_passing(r) for n, r in self.roles.items()}
        if not self.leader:
            self.leader = self.to_act = self.by_role(LEADER)

    def by_role(self, role: Role) -> str:
        return next(n for n, r in self.roles.items() if r is role)

    @property
    def is_over(self) -> bool:
        return len(self.out) >= len(self.players) - 1

    @property
    def in_hand(self) -> list[str]:
        """Players who have not gone out, in seating order."""
        return [p for p in self.players if p not in self.out]

    def _next(self, after: str, *, skip_passed: bool) -> str | None:
        """The next player after ``after`` in seating order (T15) still in the hand (and
        series)."""
        i = self.players.index(after)
        for k in range(1, len(self.players)):
            p = self.players[(i + k) % len(self.players)]
            if p in self.out or (skip_passed and p in self.passed):
                continue
            return p
        return None

    def cards_left(self, name: str) -> int:
        """Cards ``name`` holds now: from the console's deal, else counted (T17, T26)."""
        if self.holdings is not None:
            return len(self.holdings[name])
        if not self.passed_cards and not self.moves:
            return hand_size(self.roles[name])  # as dealt: the passing may still come
        return self.left[name]

    def commands(self) -> Said:
        """What the player to act may type next, as moves the console accepts (T25, E240)."""
        play = Suggest(("scum", "play"), (self.to_act, "CARDS"))
        return said(play) if self.best is None else said(
            play, " or ", Suggest(("scum", "pass"), (self.to_act,)))

    def to_json(self) -> TableJSON:
        return {
            "to_act": None if self.is_over else self.to_act,
            "leader": self.leader,
            "to_beat": None if self.best is None else {
                "player": self.best_by, "cards": [c.short for c in self.best.cards],
                "play": self.best.describe()},
            "passed": [p for p in self.players if p in self.passed],
            "out": list(self.out),
            "left": {n: self.cards_left(n) for n in self.players},
            "dealt": self.holdings is not None,
            "cards_passed": self.passed_cards,
        }


# -- checks: request -> a refusal, or nothing ------------------------------------------------------


def _holds(table: Table, name: str, cards: Sequence[Card]) -> None:
    """Refuse cards the player cannot hold: not dealt to them, or already played (T16, T7)."""
    again = [c.short for c in cards if c in table.played]
    if again:
        raise BadInput(f"{' '.join(again)} {'was' if len(again) == 1 else 'were'} already "
                       "played this hand; the deck holds each card once (R1, T7)", ruling="T7")
    if table.holdings is not None:
        missing = [c.short for c in cards if c not in table.holdings[name]]
        if missing:
            raise IllegalAction(
                said(f"{name} does not hold {' '.join(missing)} (the console dealt this hand; ",
                     Suggest(("scum", "hand"), (name,)), f" shows {name}'s cards)"),
                ruling="T16")
    if len(cards) > table.left[name]:
        raise IllegalAction(f"{name} holds only {table.left[name]} card"
                            f"{'s' if table.left[name] != 1 else ''}, not {len(cards)} (R29)",
                            ruling="T17")


#: The move that records the passing (R29, T14).
PASSING_COMMAND = Suggest(("scum", "pass-cards"), ("--to-magician", "MAJOR", "--to-empress",
                                                   "MINOR MINOR", "--to-fool", "MINOR MINOR"))


def verify_turn(table: Table, name: str, *, passing: bool) -> None:
    """Refuse a move out of turn: gone out, passed in this series, or not the one to act.

    Raises:
        IllegalAction: with who is to act, and the commands that would be accepted (R29, R30,
            T18, T25).
    """
    if table.holdings is not None and not table.passed_cards:
        raise IllegalAction(said("the console dealt this hand: record the passing before the "
                                 "first play, ", PASSING_COMMAND, " (R29, T14)"), ruling="T14")
    now = said(f"{table.to_act} is to play: ", table.commands())
    if name in table.out:
        raise IllegalAction(said(f"{name} went out {PLACES[table.out.index(name)]} and plays "
                                 "no more this hand; ", now, " (T18)"), ruling="T18")
    if name in table.passed:
        raise IllegalAction(said(f"{name} passed in this series and is out of it until the "
                                 "next lead; ", now, " (R30)"), ruling="R30")
    if name != table.to_act:
        if table.best is None:
            why = ("the Empress leads the first series (R29)" if table.moves == 0
                   else "the series winner leads the next (R29)")
            raise IllegalAction(said(f"{table.to_act} leads, not {name}: {why}; ",
                                     table.commands()), ruling="R29")
        raise IllegalAction(said(f"it is {table.to_act}'s turn, not {name}'s: play goes round "
                                 f"the table ({', '.join(table.in_hand)}); ", table.commands(),
                                 " (T18)"), ruling="T18")
    if passing and table.best is None:
        raise IllegalAction(said(f"{name} leads and cannot pass: lead a set of one rank, any "
                                 "count, or wilds, ", table.commands(), " (R30, T6)"),
                            ruling="T6")


def verify_play(table: Table, name: str, cards: Sequence[Card], *, typed: bool = False) -> Play:
    """The play ``name`` makes with ``cards``, checked against the turn, the hand and the series;
    ``typed`` (a move being typed, not one folded from the log) adds what the table has seen of
    who holds which card (``verify_known``).

    Raises:
        IllegalAction, BadInput: out of turn, cards not held, or a play R30 forbids.
    """
    verify_turn(table, name, passing=False)
    play = read_play(cards)
    _holds(table, name, cards)
    if typed:
        verify_known(table, name, cards)
    try:
        verify_follow(table.best, play)
    except IllegalAction as exc:
        if table.best is None:
            raise
        raise IllegalAction(said(exc.said, "; or pass, ", Suggest(("scum", "pass"), (name,))),
                            ruling=exc.ruling) from None
    return play


def known_holders(table: Table, card: Card) -> list[str] | None:
    """Who can hold ``card`` as far as the table has seen, without a console deal; None when it
    may be anyone's (R30a, T23, T24).

    The role cards are dealt face up (R30a): I, II and III stay with their players, since the
    passing moves only the Fool's major; 0 is the Fool's, or the Magician's when he gave it to
    her; a card recorded in the passing is its receiver's.
    """
    for (_, receiver), cards in table.gifts.items():
        if card in cards:
            return [table.by_role(receiver)]
    for role in ROLES:
        if card == role.card:
            holder = table.by_role(role)
            if role is Role.FOOL and not table.passed_cards:
                return [holder, table.by_role(Role.MAGICIAN)]
            return [holder]
    return None


def _whose(table: Table, card: Card, holders: list[str]) -> str:
    """Why ``card`` is known to be ``holders``' (R30a, T23, T24)."""
    gift = next(((g, r) for (g, r), cards in table.gifts.items() if card in cards), None)
    if gift is not None:
        giver, receiver = gift
        return (f"it went from {table.by_role(giver)} to {holders[0]} ({receiver.card_name}) "
                "in the passing (T24)")
    role = next(r for r in ROLES if r.card == card)
    text = f"it is {holders[0]}'s role card ({role.card_name}), dealt face up"
    if len(holders) > 1:
        text += f"; {holders[1]} (The Magician) holds it only if {holders[0]} passed it"
    return text + " (R30a)"


def verify_known(table: Table, name: str, cards: Sequence[Card]) -> None:
    """Without a console deal, refuse a card the table has seen to be another player's: a role
    card (face up, R30a, T23) or a card recorded in the passing (T24).

    Raises:
        IllegalAction: naming the card, whose it is, and what to type instead.
    """
    if table.holdings is not None:
        return  # the deal says who holds every card (T16)
    for card in cards:
        holders = known_holders(table, card)
        if holders is not None and name not in holders:
            is_gift = any(card in given for given in table.gifts.values())
            raise IllegalAction(said(f"{name} cannot play {card.short}: "
                                     f"{_whose(table, card, holders)}; ", table.commands()),
                                ruling="T24" if is_gift else "T23")


def verify_passing(table: Table, gives: Mapping[tuple[Role, Role], Sequence[Card]]) -> None:
    """R29's passing, checked: one major to the Magician, two minors from the Fool to the
    Empress, two minors from the Empress to the Fool; each from the hand as dealt (T13).

    Which minors are the Fool's two highest is checked by ``verify_gifts`` when the passing is
    typed.

    Raises:
        IllegalAction, BadInput: after play began, twice, or cards of the wrong kind or count.
    """
    if table.passed_cards:
        undo = (said("; ", Suggest(("scum", "undo")), " takes it back") if not table.moves
                else said(" and play has begun"))
        raise IllegalAction(said("the passing of this hand is already recorded", undo, " (R29)"),
                            ruling="R29")
    if table.moves:
        raise IllegalAction("the passing comes before the first play of the hand (R29); play "
                            "has begun on a hand the console did not deal, whose passing need "
                            "not be recorded (T14)", ruling="T14")
    seen: set[Card] = set()
    for (giver, receiver), cards in gives.items():
        n, major = PASS_SHAPE[(giver, receiver)]
        who, to = table.by_role(giver), table.by_role(receiver)
        what = f"{who} ({giver.card_name}) gives {to} ({receiver.card_name})"
        kind = "major" if major else "minor"
        if len(cards) != n or any(c.is_major != major for c in cards):
            got = format_cards(cards) or "nothing"
            raise IllegalAction(f"{what} {'one major' if n == 1 else f'two {kind}s'}, not "
                                f"{got} (R29)", ruling="R29")
        for card in cards:
            if card in seen:
                raise BadInput(f"{card.short} is passed twice; the deck holds each card once",
                               ruling="R1")
            seen.add(card)
        if table.holdings is not None:
            missing = [c.short for c in cards if c not in table.holdings[who]]
            if missing:
                raise IllegalAction(said(f"{who} was not dealt {' '.join(missing)}; {what} from "
                                         "the hand as dealt, ", Suggest(("scum", "hand"), (who,)),
                                         f" shows {who}'s cards (T13)"), ruling="T13")


def verify_gifts(table: Table, gives: Mapping[tuple[Role, Role], Sequence[Card]]) -> None:
    """What the passing gives, against what the table knows (R30a): the Fool's two highest minors
    as a multiset of ranks when the console dealt (with one King and two Knights, the King and a
    Knight); and, dealt or not, no role card of another player as the Fool's major (T23).

    Raises:
        IllegalAction: naming the cards that must go and the ones that may.
    """
    fool = table.by_role(Role.FOOL)
    for card in gives.get((Role.FOOL, Role.MAGICIAN), ()):
        role = next((r for r in ROLES if r.card == card and r is not Role.FOOL), None)
        if role is not None:
            owner = table.by_role(role)
            raise IllegalAction(f"{card.long} is {owner}'s role card, dealt face up: {fool} "
                                "(The Fool) gives the Magician one of his own majors (R30a, T23)",
                                ruling="T23")
    if table.holdings is None:
        return
    minors = [c for c in table.holdings[fool] if not c.is_major]
    must = highest_minors(minors)
    given = list(gives.get((Role.FOOL, Role.EMPRESS), ()))
    if sorted((c.rank for c in given), reverse=True) == must or len(must) < 2:
        return
    first = [c.short for c in minors if c.rank == must[0]]
    second = [c.short for c in minors if c.rank == must[1]]
    if must[0] != must[1]:  # one card of the top rank, then one of the next
        pick = f"{first[0]} and {second[0]}" if len(second) == 1 else (
            f"{first[0]} with {' or '.join(second)}")
    else:
        pick = " and ".join(first) if len(first) == 2 else f"two of {' '.join(first)}"
    raise IllegalAction(f"{fool} gives the Empress his two highest minors, {rank_words(must)} "
                        f"({pick}), not {format_cards(given)} (R30a)", ruling="R30a")


# -- the fold of one hand's events ---------------------------------------------------------------


def _bug(message: str) -> InvariantViolation:
    return InvariantViolation(f"scum: {message}")


def cards_of(raw: Sequence[str]) -> list[Card]:
    return [parse_card(c) for c in raw]


def fold_event(table: Table, event: ScumHandEvent) -> None:
    """Fold one of the hand's events into ``table``; a move the rules forbid is a bug."""
    kind = event["kind"]
    table.said = []
    try:
        if event["kind"] == "scum_hand_dealt":
            if table.moves or table.passed_cards or table.holdings is not None:
                raise _bug("a deal after the hand began")
            table.holdings = {n: sort_hand(cards_of(c)) for n, c in event["cards"].items()}
        elif event["kind"] == "scum_cards_passed":
            gives = {(Role(g["from_role"]), Role(g["to_role"])): cards_of(g["cards"])
                     for g in event["passes"]}
            verify_passing(table, gives)
            table.gifts = {pair: list(cards) for pair, cards in gives.items()}
            if table.holdings is not None:
                for (giver, receiver), cards in gives.items():
                    src = table.holdings[table.by_role(giver)]
                    for card in cards:
                        src.remove(card)
                        table.holdings[table.by_role(receiver)].append(card)
                table.holdings = {n: sort_hand(c) for n, c in table.holdings.items()}
            table.passed_cards = True
        elif event["kind"] == "scum_played":
            _play(table, event["player"], cards_of(event["cards"]))
        elif event["kind"] == "scum_passed":
            verify_turn(table, event["player"], passing=True)
            table.passed.add(event["player"])
            table.moves += 1
            table.said.append(f"{event['player']} passes.")
            _advance(table, event["player"])
        else:
            raise _bug(f"unknown hand event {kind!r}")
    except (BadInput, IllegalAction) as exc:
        raise _bug(f"a recorded move breaks the rules: {exc}") from None


def _play(table: Table, name: str, cards: list[Card]) -> None:
    play = verify_play(table, name, cards)
    table.played.update(cards)
    table.left[name] -= len(cards)
    if table.holdings is not None:
        for card in cards:
            table.holdings[name].remove(card)
    table.best, table.best_by = play, name
    table.moves += 1
    table.said.append(f"{name} plays {play.describe()}: {format_cards(cards)}.")
    if table.left[name] == 0:
        table.out.append(name)
        table.said.append(f"{name} is out: {PLACES[len(table.out) - 1]} (R31).")
        if table.is_over:
            last = table.in_hand[0]
            table.out.append(last)
            table.said.append(f"{last} is last: 4th. The hand is over.")
            return
    if play.is_all_wild:
        _series_won(table)
        return
    _advance(table, name)


def _advance(table: Table, after: str) -> None:
    """The turn passes on; when it would come back to the best play's player, they win."""
    nxt = table._next(after, skip_passed=True)
    if nxt is None or nxt == table.best_by:
        _series_won(table)
    else:
        table.to_act = nxt


def _series_won(table: Table) -> None:
    """The series goes to the last play; its player leads the next, or the next player still in
    the hand when they went out (T19)."""
    winner = table.best_by
    assert winner is not None
    lead = winner if winner not in table.out else table._next(winner, skip_passed=False)
    assert lead is not None
    why = "" if lead == winner else f" ({winner} is out, so the next player leads, T19)"
    table.said.append(f"{winner} wins the series; {lead} leads the next{why}.")
    table.leader = table.to_act = lead
    table.best, table.best_by = None, None
    table.passed = set()
