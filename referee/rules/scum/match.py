"""A Tarot Scum match (R29-R31): the commands, the fold and the stream.

Pure: no I/O. The commands validate a GM request against the folded state and
return the events to store; everything random is decided there from the match
seed and written into the event, so ``apply`` is deterministic.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NotRequired, TypedDict

from referee.errors import BadInput, IllegalAction, InvariantViolation
from referee.names import check_name, match_person
from referee.rules.cards import Card
from referee.rules.scum.events import KINDS, read
from referee.rules.scum.roles import (
    HANDS_PER_MATCH,
    PLAYERS,
    ROLES,
    Role,
    deal,
    draw_roles,
    rotate_roles,
    score_hand,
)
from referee.rules.scum.table import (
    Table,
    fold_event,
    verify_gifts,
    verify_passing,
    verify_play,
    verify_turn,
)
from referee.said import Suggest, said
from referee.streams import StreamSpec

if TYPE_CHECKING:
    from referee.rules.scum.events import (
        ScumCardsPassed,
        ScumEvent,
        ScumHandDealt,
        ScumHandEvent,
        ScumHandFinished,
        ScumMatchStarted,
        ScumPassed,
        ScumPlayed,
    )

# -- the match state -----------------------------------------------------------------------------


class HandResultJSON(TypedDict):
    hand: int
    roles: dict[str, str]
    order: list[str]
    points: dict[str, int]


class MatchJSON(TypedDict):
    """A match as the stream's snapshot keeps it (``dump``)."""

    players: list[str]
    rotate: bool
    seed: int
    hands: int
    roles: dict[str, str]
    results: list[HandResultJSON]
    hand_events: NotRequired[list[ScumHandEvent]]   # the moves of the hand under way


class ScumJSON(TypedDict):
    """The stream's state in its JSON form (``dump``, ``load``)."""

    match: MatchJSON | None
    matches: int


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
    hand_events: list[ScumHandEvent] = field(default_factory=list)  # this hand's moves so far
    table: Table | None = None  # the hand under way, folded from hand_events
    said: list[str] = field(default_factory=list)  # what the last move decided

    def __post_init__(self) -> None:
        self.new_table()

    def new_table(self) -> None:
        """A fresh hand: nothing dealt, passed or played yet."""
        self.hand_events = []
        self.table = Table(list(self.players), dict(self.roles)) if self.roles else None

    def current(self) -> Table:
        """The hand under way.

        Raises:
            IllegalAction: the match is over.
        """
        if self.table is None or self.is_over:
            raise IllegalAction(said(f"the match is over ({winner_text(self)}); start a new one "
                                     "with ", self.new_command()), ruling="R31")
        return self.table

    def new_command(self, *extra: str) -> Suggest:
        """``scum new`` for the same four, in their seats, as the GM would type it (T25)."""
        return Suggest(("scum", "new"), (*self.players, *extra))

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


def new_match(state: ScumState, names: Sequence[str], *, seed: int, rotate: bool = True,
              abandon: bool = False) -> list[ScumMatchStarted]:
    """Start a match of four (R29, R31); roles of hand 1 drawn from ``seed``, then rotated
    (the default) or drawn afresh each hand (T1, T3).

    Raises:
        BadInput: not four names, a blank or duplicate name.
        IllegalAction: a match is unfinished and ``abandon`` is not set (T9).
    """
    players = [" ".join(n.split()) for n in names]
    players = [check_name(n, "player's name") if p else p  # E42
               for n, p in zip(names, players, strict=True)]
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
            said(f"a match of {', '.join(current.players)} is at hand {current.hand} of "
                 f"{current.hands}; finish it, or start over, ",
                 Suggest(("scum", "new"), (*players, "--abandon")), " (T9)"),
            ruling="T9")
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
        raise IllegalAction(said("no Tarot Scum match yet; start one with ",
                                 Suggest(("scum", "new"), ("NAME",) * 4)))
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
        name = match_person(query, match.players, what="player")
        if name in order:
            missing = [p for p in match.players if p not in order and p != name]
            raise BadInput(f"{name} is named twice (as {query!r}); each of {everyone} once, "
                           f"first to last (missing: {', '.join(missing)})")
        order.append(name)
    return order


def finish(state: ScumState, names: Sequence[str]) -> list[ScumHandFinished]:
    """Score a hand by its finishing order (R31); set the next hand's roles (T1, T2).

    Raises:
        IllegalAction: no match, or the match is over.
        BadInput, UnknownName: see ``resolve_order``.
    """
    match = require_match(state)
    if match.is_over:
        raise IllegalAction(
            said(f"the match is over after {match.hands} hands ({winner_text(match)}); "
                 "start a new one with ", match.new_command()), ruling="R31")
    order = resolve_order(match, names)
    table = match.table
    if table is not None and table.out and order[:len(table.out)] != table.out:
        places = ", ".join(f"{n} {p}" for n, p in zip(table.out, ("1st", "2nd", "3rd"),
                                                      strict=False))
        raise IllegalAction(f"the plays recorded put {places}; give the order starting "
                            f"{' '.join(table.out)} (T20)", ruling="T20")
    return finish_events(match, order)


def finish_events(match: Match, order: list[str]) -> list[ScumHandFinished]:
    """The event that scores the hand by ``order`` and sets the next hand's roles (R31, T2)."""
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


def resolve_player(match: Match, query: str | None) -> str:
    """A player by name or unique prefix; None is the player to act (T21).

    Raises:
        UnknownName: no such player.
    """
    if query is None:
        return match.current().to_act
    return match_person(query, match.players, what="player")


def deal_hand(state: ScumState) -> list[ScumHandDealt]:
    """The console's deal of the hand under way (T10), recorded so that plays of cards a player
    was not dealt are refused (T16); nothing when it was dealt already.

    Raises:
        IllegalAction: no match, the match is over, or the hand began without a console deal.
    """
    match = require_match(state)
    table = match.current()
    if table.holdings is not None:
        return []
    if table.moves or table.passed_cards:
        raise IllegalAction(said(f"hand {match.hand} is under way without a console deal; the "
                                 "console deals before the passing and the first play (T16); ",
                                 Suggest(("scum", "standings")), " shows the hand"),
                            ruling="T16")
    hands = deal(match.roles, match.deal_rng())
    return [{"kind": "scum_hand_dealt", "hand": match.hand,
             "cards": {n: [c.short for c in cards] for n, cards in hands.items()}}]


def pass_cards(state: ScumState, to_magician: Sequence[Card], to_empress: Sequence[Card],
               to_fool: Sequence[Card]) -> list[ScumCardsPassed]:
    """The passing before play (R29): the Fool's major to the Magician, his two highest minors
    to the Empress, and the Empress's two minors to the Fool (T13).

    Raises:
        IllegalAction, BadInput: see ``table.verify_passing``.
    """
    match = require_match(state)
    table = match.current()
    gives = {(Role.FOOL, Role.MAGICIAN): list(to_magician),
             (Role.FOOL, Role.EMPRESS): list(to_empress),
             (Role.EMPRESS, Role.FOOL): list(to_fool)}
    verify_passing(table, gives)
    verify_gifts(table, gives)  # R30a, T23: typed now, not re-judged in the fold
    return [{"kind": "scum_cards_passed", "hand": match.hand, "passes": [
        {"from": table.by_role(g), "to": table.by_role(r), "from_role": g.value,
         "to_role": r.value, "cards": [c.short for c in cards]}
        for (g, r), cards in gives.items()]}]


def play(state: ScumState, name: str | None,
         cards: Sequence[Card]) -> list[ScumPlayed | ScumHandFinished]:
    """``name`` (default: the player to act) plays ``cards`` (R30, T18); the hand is scored
    when the third player goes out (R31, T20).

    Raises:
        IllegalAction, BadInput, UnknownName: out of turn, cards not held, a play R30 forbids.
    """
    match = require_match(state)
    table = match.current()
    who = resolve_player(match, name)
    verify_play(table, who, cards, typed=True)  # R30a, T23, T24 now, not again in the fold
    return _with_finish(match, {"kind": "scum_played", "hand": match.hand, "player": who,
                                "cards": [c.short for c in cards]})


def pass_turn(state: ScumState, name: str | None) -> list[ScumPassed]:
    """``name`` (default: the player to act) passes: out of this series (R30, T6).

    Raises:
        IllegalAction, UnknownName: out of turn, or the leader passing.
    """
    match = require_match(state)
    table = match.current()
    who = resolve_player(match, name)
    verify_turn(table, who, passing=True)
    return [{"kind": "scum_passed", "hand": match.hand, "player": who}]  # nobody goes out


def _with_finish(match: Match, event: ScumPlayed) -> list[ScumPlayed | ScumHandFinished]:
    table = match.current()
    if len(event["cards"]) < table.left[event["player"]]:
        return [event]  # nobody goes out: the hand goes on
    trial = copy.deepcopy(table)
    fold_event(trial, event)
    if trial.is_over:
        return [event, *finish_events(match, list(trial.out))]
    return [event]


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


HAND_EVENTS = frozenset({"scum_hand_dealt", "scum_cards_passed", "scum_played", "scum_passed"})


def apply(state: ScumState, event: ScumEvent) -> ScumState:
    """Fold one event in; a broken invariant is a bug and raises InvariantViolation."""
    kind = event.get("kind")
    if kind not in KINDS:
        raise _bug(f"unknown event kind {kind!r}")
    if event["kind"] == "scum_match_started":
        players = list(event["players"])
        if len(players) != PLAYERS or len({p.lower() for p in players}) != PLAYERS:
            raise _bug(f"a match needs four different players, got {players}")
        state.match = Match(players=players, rotate=bool(event["rotate"]), seed=int(event["seed"]),
                            hands=int(event["hands"]), roles=_roles_of(players, event["roles"]))
        state.matches += 1
    elif event["kind"] in ("scum_hand_dealt", "scum_cards_passed", "scum_played",
                           "scum_passed"):
        match = state.match
        if match is None or match.is_over or match.table is None:
            raise _bug(f"{kind} with no match going")
        if event["hand"] != match.hand:
            raise _bug(f"{kind} for hand {event['hand']} while hand {match.hand} is played")
        fold_event(match.table, event)
        match.hand_events.append(copy.deepcopy(event))
        match.said = list(match.table.said)
    elif event["kind"] == "scum_hand_finished":
        _finish_hand(state, event)
    return state


def _finish_hand(state: ScumState, event: ScumHandFinished) -> None:
    """A hand scored (R31): its roles, finishing order and points as the plays left them."""
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
    table = match.table
    if table is not None and table.out and order[:len(table.out)] != table.out:
        raise _bug(f"finishing order {order} differs from the plays ({table.out})")
    match.results.append(HandResult(match.hand, roles, order, dict(event["points"])))
    _deal_roles(match, event, roles)
    match.new_table()


def _deal_roles(match: Match, event: ScumHandFinished, roles: dict[str, Role]) -> None:
    """The roles after a hand: none after the last (a rotated match gave each player every
    role, R31), else the next hand's (rotated, T2)."""
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


def dump(state: ScumState) -> ScumJSON:
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
            "hand_events": copy.deepcopy(match.hand_events),
        },
        "matches": state.matches,
    }


def load(data: ScumJSON) -> ScumState:
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
    for event in raw.get("hand_events", []):
        assert match.table is not None
        fold_event(match.table, event)
        match.hand_events.append(event)
    return ScumState(match, int(data["matches"]))





def describe(events: Sequence[ScumEvent]) -> list[str]:
    """What a command's events decided, one line each, for ``scum log`` (F21)."""
    lines: list[str] = []
    for e in events:
        if e.get("kind") not in KINDS:
            continue
        if e["kind"] == "scum_match_started":
            mode = "rotated" if e["rotate"] else "drawn each hand"
            lines.append(f"{', '.join(e['players'])}; roles {mode}; seed {e['seed']}")
        elif e["kind"] == "scum_hand_dealt":
            lines.append(f"hand {e['hand']} dealt by the console")
        elif e["kind"] == "scum_cards_passed":
            lines.append("passing: " + "; ".join(
                f"{p['from']} to {p['to']} {' '.join(p['cards'])}" for p in e["passes"]))
        elif e["kind"] == "scum_played":
            lines.append(f"{e['player']} plays {' '.join(e['cards'])}")
        elif e["kind"] == "scum_passed":
            lines.append(f"{e['player']} passes")
        elif e["kind"] == "scum_hand_finished":
            lines.append(f"hand {e['hand']}: " + ", ".join(
                f"{n} {p} ({e['points'][n]:+d})" for n, p in
                zip(e["order"], ("1st", "2nd", "3rd", "4th"), strict=True)))
    return lines


STREAM = StreamSpec(name="scum", empty=ScumState, apply=apply, dump=dump, load=load,
                    read=read)
