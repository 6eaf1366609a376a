"""Tarot Scum: roles, the deal, plays, scoring and the match (R29-R31).

Pure: no I/O. The commands (``new_match``, ``finish``) validate a GM request
against the folded state and return the events to store; everything random is
decided there from the match seed and written into the event, so ``apply`` is
deterministic. House decisions beyond the rulings carry ids ``T1``... and are
written up in ``docs/rules.md``.

>>> check(parse_cards("5C 5S"), parse_cards("7C XVI")).legal
True
>>> check(None, parse_cards("0 XXI")).wins_series
True
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from referee.errors import BadInput, IllegalAction, InvariantViolation
from referee.names import match_name
from referee.rules.cards import DECK, MAJOR_NAMES, Card, parse_cards, to_roman
from referee.streams import Event, StreamSpec


class Role(StrEnum):
    """The four role cards (R29), in Arcanum order."""

    FOOL = "fool"
    MAGICIAN = "magician"
    HIGH_PRIESTESS = "high_priestess"
    EMPRESS = "empress"

    @property
    def arcanum(self) -> int:
        return _ARCANUM[self]

    @property
    def card(self) -> Card:
        return Card(None, _ARCANUM[self])

    @property
    def card_name(self) -> str:
        """``The High Priestess``."""
        return MAJOR_NAMES[_ARCANUM[self]]

    @property
    def label(self) -> str:
        """``II The High Priestess``."""
        return f"{to_roman(_ARCANUM[self])} {self.card_name}"


_ARCANUM = {Role.FOOL: 0, Role.MAGICIAN: 1, Role.HIGH_PRIESTESS: 2, Role.EMPRESS: 3}
ROLES: tuple[Role, ...] = tuple(Role)
PLAYERS = 4
HANDS_PER_MATCH = 4  # R31

#: R29: cards dealt to each role besides the role card itself.
DEAL_SIZE: dict[Role, int] = {
    Role.FOOL: 20, Role.MAGICIAN: 17, Role.HIGH_PRIESTESS: 19, Role.EMPRESS: 18,
}
#: R31: points by role for 1st, 2nd, 3rd and 4th place.
POINTS: dict[Role, tuple[int, int, int, int]] = {
    Role.FOOL: (9, 7, 5, 3),
    Role.HIGH_PRIESTESS: (8, 6, 4, 2),
    Role.MAGICIAN: (7, 5, 3, 1),
    Role.EMPRESS: (6, 4, 2, 0),
}


@dataclass(frozen=True)
class Passing:
    """Cards one role owes another before play (R29)."""

    giver: Role
    receiver: Role
    what: str


PASSING: tuple[Passing, ...] = (
    Passing(Role.FOOL, Role.MAGICIAN, "one major"),
    Passing(Role.FOOL, Role.EMPRESS, "his two highest minors"),
    Passing(Role.EMPRESS, Role.FOOL, "two minors of her choice"),
)
LEADER = Role.EMPRESS  # R29: the Empress leads the first series of a hand


def hand_size(role: Role) -> int:
    """Cards in a role's hand after the deal, the role card included (R29)."""
    return DEAL_SIZE[role] + 1


# -- roles and the deal -------------------------------------------------------------------------


def draw_roles(players: Sequence[str], rng: random.Random) -> dict[str, Role]:
    """The four role cards mixed and dealt one to each player (R29)."""
    roles = list(ROLES)
    rng.shuffle(roles)
    return dict(zip(players, roles, strict=True))


def rotate_roles(roles: Mapping[str, Role]) -> dict[str, Role]:
    """Every player takes the next Arcanum, 0 → I → II → III → 0 (T2).

    Four rotations bring each player through each role once (R31).
    """
    return {name: ROLES[(ROLES.index(role) + 1) % len(ROLES)] for name, role in roles.items()}


def deal(roles: Mapping[str, Role], rng: random.Random) -> dict[str, list[Card]]:
    """A whole deal (T10): each player's role card plus R29's count from the 74 others."""
    role_cards = {role.card for role in roles.values()}
    rest = [card for card in DECK if card not in role_cards]
    rng.shuffle(rest)
    hands: dict[str, list[Card]] = {}
    start = 0
    for role in ROLES:
        name = next(n for n, r in roles.items() if r is role)
        size = DEAL_SIZE[role]
        hands[name] = sort_hand([role.card, *rest[start : start + size]])
        start += size
    assert start == len(rest), "R29 deal sizes must use the whole deck"
    return {name: hands[name] for name in roles}


def sort_hand(cards: Iterable[Card]) -> list[Card]:
    """Minors by rank (Ace low), then the wilds by numeral."""
    return sorted(cards, key=lambda c: (c.is_major, c.rank, c.index))


# -- plays ---------------------------------------------------------------------------------------

_RANK_ONE = {
    1: "Ace", 2: "Two", 3: "Three", 4: "Four", 5: "Five", 6: "Six", 7: "Seven",
    8: "Eight", 9: "Nine", 10: "Ten", 11: "Page", 12: "Knight", 13: "Queen", 14: "King",
}
_RANK_PLURAL = {
    1: "Aces", 2: "Twos", 3: "Threes", 4: "Fours", 5: "Fives", 6: "Sixes", 7: "Sevens",
    8: "Eights", 9: "Nines", 10: "Tens", 11: "Pages", 12: "Knights", 13: "Queens", 14: "Kings",
}
_COUNT_WORD = {1: "a single", 2: "a pair", 3: "a triple", 4: "a quadruple", 5: "a quintuple"}
_NUMBER = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


@dataclass(frozen=True)
class Play:
    """Cards put down together: naturals of one rank plus at most one wild, or all wilds."""

    cards: tuple[Card, ...]
    rank: int | None  # the naturals' rank (1-14); None for an all-wild play
    wilds: int

    @property
    def count(self) -> int:
        return len(self.cards)

    @property
    def is_all_wild(self) -> bool:
        return self.rank is None

    def describe(self) -> str:
        """``a pair of Fives (one wild)``, ``an all-wild play of two``."""
        if self.rank is None:
            return f"an all-wild play of {_NUMBER.get(self.count, str(self.count))}"
        head = _COUNT_WORD[self.count]
        if self.count == 1:
            return f"{head} {_RANK_ONE[self.rank]}"
        text = f"{head} of {_RANK_PLURAL[self.rank]}"
        return text + " (one wild)" if self.wilds else text


def _distinct(cards: Sequence[Card], what: str) -> None:
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise BadInput(f"{card.short} appears twice in {what}; the deck holds each card once",
                           ruling="R1")
        seen.add(card)


def read_play(cards: Sequence[Card]) -> Play:
    """The play these cards make (R30; majors are wild, R29).

    Raises:
        BadInput: no cards, or one card twice.
        IllegalAction: mixed ranks or more than one wild added to a set.
    """
    if not cards:
        raise BadInput("a play needs at least one card (write - for a pass or a lead)")
    _distinct(cards, "one play")
    naturals = [c for c in cards if not c.is_major]
    wilds = len(cards) - len(naturals)
    if not naturals:
        return Play(tuple(cards), None, wilds)
    ranks = sorted({c.rank for c in naturals})
    if len(ranks) > 1:
        names = ", ".join(_RANK_PLURAL[r] for r in ranks)
        raise IllegalAction(
            f"{_short(cards)} mixes {names}; a play is 1-4 cards of one rank plus at most "
            "one wild", ruling="R30")
    if wilds > 1:
        raise IllegalAction(
            f"{_short(cards)} adds {wilds} wilds to {_RANK_PLURAL[ranks[0]]}; a set takes at most "
            "one wild (or play only wilds to win the series)", ruling="R30")
    return Play(tuple(cards), ranks[0], wilds)


def read_cards(text: str) -> list[Card] | None:
    """Cards as typed for ``scum check``; ``-`` or ``pass`` is None (a lead or a pass).

    >>> read_cards("5c, 5s"), read_cards(" - ")
    ([Card(5C), Card(5S)], None)
    """
    if text.strip().lower() in ("-", "pass", "lead"):
        return None
    return parse_cards(text)


def _short(cards: Iterable[Card]) -> str:
    return " ".join(c.short for c in cards)


@dataclass(frozen=True)
class Verdict:
    """The answer to ``scum check``."""

    legal: bool
    reason: str
    wins_series: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"legal": self.legal, "reason": self.reason, "wins_series": self.wins_series}


def verify_follow(previous: Play | None, play: Play | None) -> Verdict:
    """Check ``play`` (None: a pass) against ``previous`` (None: leading); legal verdict.

    Raises:
        IllegalAction: the play may not follow, with the reason and what would be legal (R30).
    """
    if play is None:
        if previous is None:
            raise IllegalAction("the leader cannot pass: lead a set of one rank, any count",
                                ruling="R30")
        return Verdict(True, "a pass is always legal; the player is out of this series (R30)")
    if previous is None:
        if play.is_all_wild:
            return Verdict(True, f"{play.describe()} leads and wins the series at once (R30)", True)
        return Verdict(True, f"{play.describe()} may lead (R30)")
    if previous.is_all_wild:
        raise IllegalAction(
            f"{previous.describe()} already won the series; its player leads the next",
            ruling="R30")
    if play.count != previous.count:
        raise IllegalAction(
            f"{play.describe()} cannot follow {previous.describe()}: a follow must be "
            f"{previous.count} card{'s' if previous.count > 1 else ''}, like the play before",
            ruling="R30")
    if play.is_all_wild:
        return Verdict(True, f"{play.describe()} wins the series at once (R30)", True)
    assert play.rank is not None and previous.rank is not None
    if play.rank <= previous.rank:
        raise IllegalAction(
            f"{play.describe()} does not beat {previous.describe()}: a follow must be higher "
            f"than {_RANK_PLURAL[previous.rank]}", ruling="R30")
    return Verdict(True, f"{play.describe()} beats {previous.describe()} (R30)")


def can_follow(previous: Play | None, play: Play | None) -> bool:
    """Whether ``play`` may follow ``previous`` (see ``verify_follow``)."""
    try:
        verify_follow(previous, play)
    except IllegalAction:
        return False
    return True


def check(previous: Sequence[Card] | None, play: Sequence[Card] | None) -> Verdict:
    """Is ``play`` (None: pass) a legal follow to ``previous`` (None: leading)? (R30)

    A malformed ``previous`` or a card on both sides is bad input (raises); a
    ``play`` that may not follow is an answer: ``Verdict(legal=False, ...)``.
    """
    before = None
    if previous is not None:
        try:
            before = read_play(previous)
        except IllegalAction as exc:
            raise BadInput(f"the previous play is no play: {exc}", ruling=exc.ruling) from None
    if previous is not None and play is not None:
        clash = [c.short for c in play if c in set(previous)]
        if clash:
            raise BadInput(f"{' '.join(clash)} is in both the previous play and this one; "
                           "the deck holds each card once", ruling="R1")
    try:
        return verify_follow(before, read_play(play) if play is not None else None)
    except IllegalAction as exc:
        return Verdict(False, exc.line)


# -- scoring -------------------------------------------------------------------------------------


def hand_points(role: Role, place: int) -> int:
    """R31 points for finishing ``place`` (1-4) in ``role``."""
    return POINTS[role][place - 1]


def score_hand(roles: Mapping[str, Role], order: Sequence[str]) -> dict[str, int]:
    """Points of one hand by role and finishing place, in finishing order (R31)."""
    return {name: hand_points(roles[name], place) for place, name in enumerate(order, start=1)}


# -- the match state -----------------------------------------------------------------------------


@dataclass
class HandResult:
    """One finished hand."""

    hand: int
    roles: dict[str, Role]
    order: list[str]
    points: dict[str, int]


@dataclass
class Match:
    """A match of four players (R31)."""

    players: list[str]
    rotate: bool
    seed: int
    hands: int
    roles: dict[str, Role]  # roles of the hand being played; empty once the match is over
    results: list[HandResult] = field(default_factory=list)

    @property
    def hand(self) -> int:
        """The number of the hand being played (``hands + 1`` once over)."""
        return len(self.results) + 1

    @property
    def is_over(self) -> bool:
        return len(self.results) >= self.hands

    def totals(self) -> dict[str, int]:
        """Points so far, in seating order."""
        out = dict.fromkeys(self.players, 0)
        for result in self.results:
            for name, pts in result.points.items():
                out[name] += pts
        return out

    def standings(self) -> dict[str, int]:
        """Points so far, highest first (ties in seating order)."""
        totals = self.totals()
        return dict(sorted(totals.items(), key=lambda kv: -kv[1]))

    def leaders(self) -> list[str]:
        """The player(s) with the most points; a tie shares the win (T8)."""
        totals = self.totals()
        best = max(totals.values())
        return [name for name, pts in totals.items() if pts == best]

    def deal_rng(self) -> random.Random:
        """The seeded shuffle for the current hand's console deal (T10)."""
        return random.Random(f"{self.seed}:deal:{self.hand}")


@dataclass
class ScumState:
    """The Scum table of an evening: the current match (older ones live in the log)."""

    match: Match | None = None
    matches: int = 0


def _roles_rng(seed: int, hand: int) -> random.Random:
    return random.Random(f"{seed}:roles:{hand}")


# -- commands: request -> events -----------------------------------------------------------------


def new_match(state: ScumState, names: Sequence[str], *, seed: int, rotate: bool = False,
              abandon: bool = False) -> list[Event]:
    """Start a match of four (R29, R31); roles of hand 1 drawn from ``seed`` (T1, T3).

    Raises:
        BadInput: not four names, a blank or duplicate name.
        IllegalAction: a match is unfinished and ``abandon`` is not set (T9).
    """
    players = [" ".join(n.split()) for n in names]
    if len(players) != PLAYERS:
        raise BadInput(f"Tarot Scum is for four players; got {len(players)} name"
                       f"{'s' if len(players) != 1 else ''}: {', '.join(players) or '(none)'}",
                       ruling="R29")
    if any(not p for p in players):
        raise BadInput("a player's name is blank; give four names")
    seen: dict[str, str] = {}
    for p in players:
        if p.lower() in seen:
            raise BadInput(f"{p!r} is named twice; give four different names")
        seen[p.lower()] = p
    current = state.match
    if current is not None and not current.is_over and not abandon:
        raise IllegalAction(
            f"a match of {', '.join(current.players)} is at hand {current.hand} of "
            f"{current.hands}; finish it, or start over with --abandon (T9)")
    roles = draw_roles(players, _roles_rng(seed, 1))
    return [{
        "kind": "scum_match_started",
        "players": players,
        "rotate": rotate,
        "seed": seed,
        "hands": HANDS_PER_MATCH,
        "roles": {n: r.value for n, r in roles.items()},
    }]


def require_match(state: ScumState) -> Match:
    """The current match.

    Raises:
        IllegalAction: none was started.
    """
    if state.match is None:
        raise IllegalAction("no Tarot Scum match yet; start one with "
                            "`referee scum new NAME NAME NAME NAME`")
    return state.match


def resolve_order(match: Match, names: Sequence[str]) -> list[str]:
    """The four players named first to last (unique prefixes, any case) (T11).

    Raises:
        BadInput: not four names, or one player twice.
        UnknownName: a name that matches no player.
    """
    everyone = ", ".join(match.players)
    if len(names) != PLAYERS:
        raise BadInput(f"give all four players first to last ({everyone}); got {len(names)}")
    order: list[str] = []
    for query in names:
        name = match_name(query, match.players, what="player")
        if name in order:
            missing = [p for p in match.players if p not in order and p != name]
            raise BadInput(f"{name} is named twice (as {query!r}); each of {everyone} once, "
                           f"first to last (missing: {', '.join(missing)})")
        order.append(name)
    return order


def finish(state: ScumState, names: Sequence[str]) -> list[Event]:
    """Score a hand by its finishing order (R31); set the next hand's roles (T1, T2).

    Raises:
        IllegalAction: no match, or the match is over.
        BadInput, UnknownName: see ``resolve_order``.
    """
    match = require_match(state)
    if match.is_over:
        raise IllegalAction(
            f"the match is over after {match.hands} hands ({winner_text(match)}); "
            "start a new one with `referee scum new`", ruling="R31")
    order = resolve_order(match, names)
    points = score_hand(match.roles, order)
    next_roles: dict[str, Role] | None = None
    if match.hand < match.hands:
        next_roles = (rotate_roles(match.roles) if match.rotate
                      else draw_roles(match.players, _roles_rng(match.seed, match.hand + 1)))
    return [{
        "kind": "scum_hand_finished",
        "hand": match.hand,
        "order": order,
        "roles": {n: r.value for n, r in match.roles.items()},
        "points": points,
        "next_roles": None if next_roles is None else {n: r.value for n, r in next_roles.items()},
    }]


def winner_text(match: Match) -> str:
    """``Ann won with 30`` or ``Ann and Bea share the win with 28`` (T8)."""
    leaders = match.leaders()
    pts = match.totals()[leaders[0]]
    if len(leaders) == 1:
        return f"{leaders[0]} won with {pts}"
    return f"{' and '.join(leaders)} share the win with {pts}"


# -- the fold ------------------------------------------------------------------------------------


def _bug(message: str) -> InvariantViolation:
    return InvariantViolation(f"scum: {message}")


def _roles_of(players: Sequence[str], raw: Mapping[str, str]) -> dict[str, Role]:
    roles = {name: Role(value) for name, value in raw.items()}
    if sorted(roles) != sorted(players) or sorted(roles.values()) != sorted(ROLES):
        raise _bug(f"roles {raw} are not one role card per player (R29)")
    return {p: roles[p] for p in players}


def apply(state: ScumState, event: Event) -> ScumState:
    """Fold one event in; a broken invariant is a bug and raises InvariantViolation."""
    kind = event.get("kind")
    if kind == "scum_match_started":
        players = list(event["players"])
        if len(players) != PLAYERS or len({p.lower() for p in players}) != PLAYERS:
            raise _bug(f"a match needs four different players, got {players}")
        state.match = Match(players=players, rotate=bool(event["rotate"]), seed=int(event["seed"]),
                            hands=int(event["hands"]), roles=_roles_of(players, event["roles"]))
        state.matches += 1
    elif kind == "scum_hand_finished":
        match = state.match
        if match is None or match.is_over:
            raise _bug("a hand finished with no match going")
        if event["hand"] != match.hand:
            raise _bug(f"hand {event['hand']} finished while hand {match.hand} was played")
        roles = _roles_of(match.players, event["roles"])
        if roles != match.roles:
            raise _bug("the hand was scored with other roles than were dealt")
        order = list(event["order"])
        if sorted(order) != sorted(match.players):
            raise _bug(f"finishing order {order} is not the four players")
        if event["points"] != score_hand(roles, order):
            raise _bug("hand points differ from R31")
        match.results.append(HandResult(match.hand, roles, order, dict(event["points"])))
        if match.is_over:
            if event["next_roles"] is not None:
                raise _bug("roles dealt after the last hand")
            match.roles = {}
            if match.rotate:
                for name in match.players:
                    taken = sorted(r.roles[name] for r in match.results)
                    if taken != sorted(ROLES):
                        raise _bug(f"{name} did not take each role once in a rotated match (R31)")
        else:
            if event["next_roles"] is None:
                raise _bug("no roles for the next hand")
            match.roles = _roles_of(match.players, event["next_roles"])
            if match.rotate and match.roles != rotate_roles(roles):
                raise _bug("a rotated match did not rotate (T2)")
    else:
        raise _bug(f"unknown event kind {kind!r}")
    return state


def dump(state: ScumState) -> dict[str, Any]:
    """JSON form of the state (``load`` reverses it)."""
    match = state.match
    if match is None:
        return {"match": None, "matches": state.matches}
    return {
        "match": {
            "players": list(match.players),
            "rotate": match.rotate,
            "seed": match.seed,
            "hands": match.hands,
            "roles": {n: r.value for n, r in match.roles.items()},
            "results": [
                {"hand": r.hand, "roles": {n: x.value for n, x in r.roles.items()},
                 "order": list(r.order), "points": dict(r.points)}
                for r in match.results
            ],
        },
        "matches": state.matches,
    }


def load(data: dict[str, Any]) -> ScumState:
    """The state from its JSON form."""
    raw = data.get("match")
    if raw is None:
        return ScumState(None, int(data.get("matches", 0)))
    match = Match(
        players=list(raw["players"]),
        rotate=bool(raw["rotate"]),
        seed=int(raw["seed"]),
        hands=int(raw["hands"]),
        roles={n: Role(r) for n, r in raw["roles"].items()},
        results=[
            HandResult(int(r["hand"]), {n: Role(x) for n, x in r["roles"].items()},
                       list(r["order"]), {n: int(p) for n, p in r["points"].items()})
            for r in raw["results"]
        ],
    )
    return ScumState(match, int(data["matches"]))


STREAM = StreamSpec(name="scum", empty=ScumState, apply=apply, dump=dump, load=load)
