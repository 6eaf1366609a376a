"""A Tarot Scum hand played move by move: the deal, the passing, the series, the places.

Pure: ``Table`` is what the console knows about the hand being played, folded
from that hand's events (``fold_event``); the ``verify_*`` functions refuse a
move the rules forbid with one sentence that says what is right. The turn runs
round the seating order (the order of ``scum new``), skipping players who have
passed in this series or gone out (R29, R30, T13-T22).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee.errors import BadInput, IllegalAction, InvariantViolation
from referee.names import quoted
from referee.rules.cards import Card, format_cards, parse_card
from referee.rules.scum.plays import Play, read_play, verify_follow
from referee.rules.scum.roles import LEADER, Role, hand_size, sort_hand

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


@dataclass
class Table:
    """The hand being played, as far as the console has been told (T13-T22)."""

    players: list[str]  # seating order
    roles: dict[str, Role]
    holdings: dict[str, list[Card]] | None = None  # known when the console dealt (T16)
    passed_cards: bool = False
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

    def to_json(self) -> dict[str, Any]:
        return {
            "to_act": None if self.is_over else self.to_act,
            "leader": self.leader,
            "to_beat": None if self.best is None else {
                "player": self.best_by, "cards": [c.short for c in self.best.cards],
                "play": self.best.describe()},
            "passed": [p for p in self.players if p in self.passed],
            "out": list(self.out),
            "left": dict(self.left),
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
                f"{name} does not hold {' '.join(missing)} (the console dealt this hand; "
                f"`referee scum hand {quoted(name)}` shows {name}'s cards)", ruling="T16")
    if len(cards) > table.left[name]:
        raise IllegalAction(f"{name} holds only {table.left[name]} card"
                            f"{'s' if table.left[name] != 1 else ''}, not {len(cards)} (R29)",
                            ruling="T17")


def verify_turn(table: Table, name: str, *, passing: bool) -> None:
    """Refuse a move out of turn: gone out, passed in this series, or not the one to act.

    Raises:
        IllegalAction: with who is to act, and what they may do (R29, R30, T18).
    """
    if table.holdings is not None and not table.passed_cards:
        raise IllegalAction("the console dealt this hand: record the passing first, "
                            "`referee scum pass-cards` (R29, T14)", ruling="T14")
    if name in table.out:
        raise IllegalAction(f"{name} went out {PLACES[table.out.index(name)]} and plays no "
                            f"more this hand; {table.to_act} is to play (T18)", ruling="T18")
    if name in table.passed:
        raise IllegalAction(f"{name} passed in this series and is out of it until the next "
                            f"lead; {table.to_act} is to play (R30)", ruling="R30")
    if name != table.to_act:
        if table.best is None:
            why = ("the Empress leads the first series (R29)" if table.moves == 0
                   else "the series winner leads the next (R29)")
            raise IllegalAction(f"{table.to_act} leads, not {name}: {why}", ruling="R29")
        raise IllegalAction(f"it is {table.to_act}'s turn, not {name}'s: play goes round the "
                            f"table ({', '.join(table.in_hand)}) (T18)", ruling="T18")
    if passing and table.best is None:
        raise IllegalAction(f"{name} leads and cannot pass: lead a set of one rank, any count, "
                            "or wilds (R30, T6)", ruling="T6")


def verify_play(table: Table, name: str, cards: Sequence[Card]) -> Play:
    """The play ``name`` makes with ``cards``, checked against the turn, the hand and the series.

    Raises:
        IllegalAction, BadInput: out of turn, cards not held, or a play R30 forbids.
    """
    verify_turn(table, name, passing=False)
    play = read_play(cards)
    _holds(table, name, cards)
    verify_follow(table.best, play)
    return play


def verify_passing(table: Table, gives: Mapping[tuple[Role, Role], Sequence[Card]]) -> None:
    """R29's passing, checked: one major to the Magician, the Fool's two highest minors to the
    Empress, two minors from the Empress to the Fool; each from the hand as dealt (T13).

    Raises:
        IllegalAction, BadInput: after play began, twice, or cards of the wrong kind or count.
    """
    if table.moves:
        raise IllegalAction("the passing comes before the first play of the hand (R29); "
                            "undo the plays to record it", ruling="R29")
    if table.passed_cards:
        raise IllegalAction("the passing of this hand is already recorded; "
                            "`referee scum undo` takes it back", ruling="R29")
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
                raise IllegalAction(f"{who} was not dealt {' '.join(missing)}; {what} from "
                                    "the hand as dealt (T13)", ruling="T13")
            if giver is Role.FOOL and not major:
                minors = sorted((c for c in table.holdings[who] if not c.is_major),
                                key=lambda c: -c.rank)
                floor = minors[1].rank if len(minors) > 1 else 0
                low = [c.short for c in cards if c.rank < floor]
                if low:
                    best = format_cards(minors[:2])
                    raise IllegalAction(f"{who} gives the Empress his two highest minors "
                                        f"({best}), not {' '.join(low)} (R29)", ruling="R29")


# -- the fold of one hand's events ---------------------------------------------------------------


def _bug(message: str) -> InvariantViolation:
    return InvariantViolation(f"scum: {message}")


def cards_of(raw: Sequence[str]) -> list[Card]:
    return [parse_card(c) for c in raw]


def fold_event(table: Table, event: Mapping[str, Any]) -> None:
    """Fold one of the hand's events into ``table``; a move the rules forbid is a bug."""
    kind = event["kind"]
    table.said = []
    try:
        if kind == "scum_hand_dealt":
            if table.moves or table.passed_cards or table.holdings is not None:
                raise _bug("a deal after the hand began")
            table.holdings = {n: sort_hand(cards_of(c)) for n, c in event["cards"].items()}
        elif kind == "scum_cards_passed":
            gives = {(Role(g["from_role"]), Role(g["to_role"])): cards_of(g["cards"])
                     for g in event["passes"]}
            verify_passing(table, gives)
            if table.holdings is not None:
                for (giver, receiver), cards in gives.items():
                    src = table.holdings[table.by_role(giver)]
                    for card in cards:
                        src.remove(card)
                        table.holdings[table.by_role(receiver)].append(card)
                table.holdings = {n: sort_hand(c) for n, c in table.holdings.items()}
            table.passed_cards = True
        elif kind == "scum_played":
            _play(table, event["player"], cards_of(event["cards"]))
        elif kind == "scum_passed":
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
