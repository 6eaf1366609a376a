"""Weir's Wager, the race to 999 (R34): the game, its commands and its fold.

Pure: the points table comes in as a ``PointsTable`` and is written into the
game's first event (W4), so a replayed log never reads a file.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypedDict

from referee.errors import BadInput, IllegalAction, InvariantViolation, UnknownName
from referee.names import check_name, nearest
from referee.rules.wager.cards import ELIXIRS, Elixir, WCard, parse_wcard
from referee.rules.wager.events import KINDS, read
from referee.rules.wager.hands import PointsTable, TableJSON, rank
from referee.said import Suggest, said
from referee.streams import StreamSpec

if TYPE_CHECKING:
    from referee.rules.wager.events import (
        WagerElixirChanged,
        WagerEvent,
        WagerGameStarted,
        WagerHandScored,
        WagerTurnsPlayed,
    )

TARGET = 999  # R34: first to 999 wins
ELIXIR_TURNS = 10  # R34 (option): the Elixir changes after this many turns

# -- the race to 999 -----------------------------------------------------------------------------


@dataclass
class Scored:
    """One turn recorded with its two cards."""

    player: str
    top: str
    bottom: str
    elixir: Elixir
    hand: str
    quality: str | None
    points: int


@dataclass
class Game:
    """A game of the Fool against the Mistress (R34)."""

    fool: str
    mistress: str
    elixir: Elixir
    elixir_turns: int
    seed: int
    table: PointsTable
    scores: dict[str, int]
    turns: int = 0  # turns played on the current Elixir
    draws: int = 0  # Elixirs drawn by the console since the start (seeds the next draw)
    rounds: int = 0  # hands made (run, pair, set, poison): each ends a round (W7)
    history: list[Scored] = field(default_factory=list)
    winner: str | None = None
    last: str | None = None  # who moved last; turns alternate (W12)

    @property
    def players(self) -> list[str]:
        return [self.fool, self.mistress]

    def role_of(self, name: str) -> str:
        return "Fool" if name == self.fool else "Mistress"

    def other(self, name: str) -> str:
        return self.mistress if name == self.fool else self.fool

    @property
    def to_move(self) -> str | None:
        """Who moves next; None before the first move, which either may make (W12)."""
        return None if self.last is None else self.other(self.last)

    def after(self, first: str, count: int) -> str:
        """Who has moved last after ``count`` alternating turns from ``first`` (W12)."""
        return first if count % 2 else self.other(first)


class ScoredJSON(TypedDict):
    player: str
    top: str
    bottom: str
    elixir: str
    hand: str
    quality: str | None
    points: int


class GameJSON(TypedDict):
    """A game as the stream's snapshot keeps it (``dump``)."""

    fool: str
    mistress: str
    elixir: str
    elixir_turns: int
    seed: int
    points: TableJSON
    points_source: str
    scores: dict[str, int]
    turns: int
    draws: int
    rounds: int
    winner: str | None
    last: str | None
    history: list[ScoredJSON]


class WagerJSON(TypedDict):
    """The stream's state in its JSON form (``dump``, ``load``)."""

    game: GameJSON | None
    games: int


@dataclass
class WagerState:
    """The Weir's Wager table of an evening: the current game (older ones live in the log)."""

    game: Game | None = None
    games: int = 0


def draw_elixir(seed: int, draw: int, leaving: Elixir | None) -> Elixir:
    """The ``draw``-th Elixir of a game seeded ``seed``, never the one leaving (W6)."""
    pool = [e for e in ELIXIRS if e != leaving]
    return random.Random(f"{seed}:elixir:{draw}").choice(pool)


def new_game(state: WagerState, fool: str, mistress: str, *, seed: int,
             table: PointsTable, elixir: Elixir | None = None,
             elixir_turns: int = ELIXIR_TURNS, abandon: bool = False) -> list[WagerGameStarted]:
    """Start a race to 999 between the Fool and the Mistress (R34).

    Raises:
        BadInput: blank or equal names, fewer than one turn per Elixir.
        IllegalAction: a game is unfinished and ``abandon`` is not set (W10).
    """
    names = [" ".join(fool.split()), " ".join(mistress.split())]
    names = [check_name(raw, what) if name else name  # E42
             for raw, name, what in ((fool, names[0], "Fool's player's name"),
                                     (mistress, names[1], "Mistress's player's name"))]
    if not all(names):
        raise BadInput("give two names: the Fool's player, then the Mistress's")
    if names[0].lower() == names[1].lower():
        raise BadInput(f"{names[0]!r} cannot play both the Fool and the Mistress")
    if elixir_turns < 1:
        raise BadInput(f"--elixir-turns must be 1 or more, not {elixir_turns}", ruling="R34")
    current = state.game
    if current is not None and current.winner is None and not abandon:
        raise IllegalAction(
            said(f"a game of {current.fool} against {current.mistress} is going "
                 f"({score_line(current)}); finish it, or start over, ",
                 Suggest(("wager", "new"), (names[0], names[1], "--abandon")), " (W10)"),
            ruling="W10")
    first = elixir if elixir is not None else draw_elixir(seed, 0, None)
    return [{
        "kind": "wager_game_started",
        "fool": names[0],
        "mistress": names[1],
        "elixir": first.value,
        "elixir_turns": elixir_turns,
        "seed": seed,
        "points": table.to_dict(),  # W13: the points table travels with the game
        "points_source": table.source,
    }]


def score_line(game: Game) -> str:
    """``Ann 300, Bea 150``."""
    return f"{game.fool} {game.scores[game.fool]}, {game.mistress} {game.scores[game.mistress]}"


def require_game(state: WagerState, *, playing: bool = True) -> Game:
    """The current game; with ``playing``, one not yet won.

    Raises:
        IllegalAction: no game, or the game is over.
    """
    game = state.game
    if game is None:
        raise IllegalAction(said("no Weir's Wager game yet; start one with ",
                                 Suggest(("wager", "new"), ("FOOL", "MISTRESS"))))
    if playing and game.winner is not None:
        raise IllegalAction(said(f"the game is over: {game.winner} won ({score_line(game)}); "
                                 "start a new one with ",
                                 Suggest(("wager", "new"), (game.fool, game.mistress))),
                            ruling="R34")
    return game


def _key(text: str) -> str:
    return " ".join(text.lower().split())


def _by_name(game: Game, key: str) -> list[str]:
    """Players whose name, or a word of it, starts with ``key`` (W11, W18)."""
    return [p for p in game.players
            if _key(p).startswith(key) or any(w.startswith(key) for w in _key(p).split())]


def _by_role(game: Game, key: str) -> list[str]:
    """The player whose role ``key`` names or begins: ``fool``, ``the mis`` (W11)."""
    role = key.removeprefix("the ")
    return [holder for word, holder in (("fool", game.fool), ("mistress", game.mistress))
            if len(role) >= 2 and word.startswith(role)]


def resolve_player(game: Game, query: str) -> str:
    """A player by name or unique prefix, or by role or its prefix (``fool``, ``mis``) (W11).

    A name typed in full is that player, even when it is a role word (W17); a prefix that
    fits both players, or one player's name and the other's role, is ambiguous (W18).

    Raises:
        UnknownName: ambiguous (the matches listed), or neither a player nor a role.
    """
    key = _key(query)
    exact = [p for p in game.players if _key(p) == key]
    if exact:
        return exact[0]
    names = _by_name(game, key) if key else []
    roles = _by_role(game, key)
    found = list(dict.fromkeys([*names, *roles]))
    if len(found) == 1:
        return found[0]
    if found:
        listed = ", ".join(f"{p} (the {game.role_of(p)}{'' if p in names else ', by role'})"
                           for p in found)
        raise UnknownName(f"player {query!r} is ambiguous: {listed}; type more of the name "
                          "(W18)", ruling="W18")
    near = nearest(query, game.players)
    hint = f"did you mean {', '.join(near)}? " if near else ""
    raise UnknownName(f"unknown player {query!r}; {hint}players: {game.fool} (the Fool), "
                      f"{game.mistress} (the Mistress); 'fool' and 'mistress' work too (W11)",
                      ruling="W11")


def role_word_notes(game: Game) -> list[str]:
    """Warnings for a game whose names make a role word name the other player, or nobody
    for sure (``wager new Ann Fool``): what to type instead (W17)."""
    notes: list[str] = []
    for word, holder in (("fool", game.fool), ("mistress", game.mistress)):
        others = [p for p in _by_name(game, word) if p != holder]
        if not others:
            continue
        other = others[0]
        instead = f"type '{holder}' for the {game.role_of(holder)} (W17)"
        if _key(other) == word:
            notes.append(f"'{word}' is the name of {other}, who plays the "
                         f"{game.role_of(other)}: it names {other}; {instead}")
        else:
            notes.append(f"'{word}' fits {other}'s name as well as naming the "
                         f"{game.role_of(holder)}, so it is refused as ambiguous; {instead}")
    return notes


def _change(game_elixir: Elixir, seed: int, draws: int, reason: str) -> WagerElixirChanged:
    return {"kind": "wager_elixir_changed",
            "elixir": draw_elixir(seed, draws + 1, game_elixir).value, "reason": reason}


def score(state: WagerState, player: str, top: WCard,
          bottom: WCard) -> list[WagerHandScored | WagerElixirChanged]:
    """One turn ending with ``top`` over ``bottom`` in ``player``'s hand (R33, R34, W6-W8).

    Raises:
        IllegalAction: no game or the game is over.
        UnknownName: no such player.
        BadInput: see ``classify``.
    """
    game = require_game(state)
    name = resolve_player(game, player)
    _check_turn(game, name)
    hand = rank(top, bottom, game.elixir, game.table)
    events: list[WagerHandScored | WagerElixirChanged] = [{
        "kind": "wager_hand_scored", "player": name, "top": top.label, "bottom": bottom.label,
        "elixir": game.elixir.value, "hand": hand.kind, "quality": hand.quality,
        "points": hand.points,
    }]
    if game.scores[name] + hand.points >= TARGET:
        return events  # the game is won: no new Elixir (W8)
    if hand.kind == "set":
        events.append(_change(game.elixir, game.seed, game.draws, "set"))
    elif game.turns + 1 >= game.elixir_turns:
        events.append(_change(game.elixir, game.seed, game.draws, "turns"))
    return events


def _check_turn(game: Game, name: str) -> None:
    """Turns alternate (W12): the player who just moved waits for the other.

    Raises:
        IllegalAction: ``name`` moved last.
    """
    if game.last == name:
        raise IllegalAction(
            said(f"{name} ({game.role_of(name)}) has just moved; it is {game.other(name)}'s "
                 "turn: ", Suggest(("wager", "score"), (game.other(name), "TOP", "BOTTOM")),
                 ", or ", Suggest(("wager", "turn")), " for a turn without a hand"),
            ruling="W12")


def turn(state: WagerState, count: int = 1,
         player: str | None = None) -> list[WagerTurnsPlayed | WagerElixirChanged]:
    """``count`` turns played without a hand, alternating from ``player`` (default: the player
    to move, the Fool at the start); the Elixir changes when its turns run out (W6, W12).

    Raises:
        IllegalAction: no game, the game is over, or ``player`` has just moved.
        UnknownName: no such player.
        BadInput: a count below 1 or above 100.
    """
    game = require_game(state)
    if not 1 <= count <= 100:
        more = said("; ", Suggest(("wager", "turn"), ("100",)), ", then the rest") \
            if count > 100 else said()
        raise BadInput(said(f"count turns 1 to 100 at a time, not {count}", more, " (W15)"),
                       ruling="W15")
    first = game.to_move or game.fool
    if player is not None:
        first = resolve_player(game, player)
        _check_turn(game, first)
    events: list[WagerTurnsPlayed | WagerElixirChanged] = []
    turns, draws, elixir = game.turns, game.draws, game.elixir
    left = count
    while left:
        step = min(left, game.elixir_turns - turns)
        events.append({"kind": "wager_turns_played", "count": step, "player": first})
        first = game.other(game.after(first, step))
        turns += step
        left -= step
        if turns >= game.elixir_turns:
            change = _change(elixir, game.seed, draws, "turns")
            events.append(change)
            turns, draws, elixir = 0, draws + 1, Elixir(change["elixir"])
    return events


def turns_each(game: Game, first: str, count: int) -> dict[str, int]:
    """How many of ``count`` alternating turns from ``first`` each player took (W12, W15).

    The first takes the odd ones: 12 turns are six each, 3 are two and one.
    """
    return {first: (count + 1) // 2, game.other(first): count // 2}


def numbered_hands(game: Game) -> list[tuple[int, Scored]]:
    """Every scored turn with the number of its round: a round runs up to a made hand (W7,
    W16)."""
    out: list[tuple[int, Scored]] = []
    number = 1
    for scored in game.history:
        out.append((number, scored))
        if scored.hand != "none":
            number += 1
    return out


def round_number(game: Game) -> int:
    """The round in play, or the last one once the game is won (W16)."""
    return game.rounds if game.winner is not None else game.rounds + 1


def set_elixir(state: WagerState, elixir: Elixir) -> list[WagerElixirChanged]:
    """The Elixir actually on the table, when it differs from the console's (W6).

    Raises:
        IllegalAction: no game, the game is over, or that Elixir is already out.
    """
    game = require_game(state)
    if elixir == game.elixir:
        raise IllegalAction(said(f"{elixir.value} is already the Elixir; ",
                                 Suggest(("wager", "status")), " shows the game (W6)"),
                            ruling="W6")
    return [{"kind": "wager_elixir_changed", "elixir": elixir.value, "reason": "table"}]


# -- the fold ------------------------------------------------------------------------------------


def _bug(message: str) -> InvariantViolation:
    return InvariantViolation(f"wager: {message}")


def _playing(state: WagerState) -> Game:
    game = state.game
    if game is None or game.winner is not None:
        raise _bug("an event with no game going")
    return game


def apply(state: WagerState, event: WagerEvent) -> WagerState:
    """Fold one event in; a broken invariant is a bug and raises InvariantViolation."""
    kind = event.get("kind")
    if kind not in KINDS:
        raise _bug(f"unknown event kind {kind!r}")
    if event["kind"] == "wager_game_started":
        _start(state, event)
    elif event["kind"] == "wager_hand_scored":
        _score(_playing(state), event)
    elif event["kind"] == "wager_turns_played":
        _play_turns(_playing(state), event)
    elif event["kind"] == "wager_elixir_changed":
        _change_elixir(_playing(state), event)
    return state


def _start(state: WagerState, event: WagerGameStarted) -> None:
    fool, mistress = event["fool"], event["mistress"]
    if not fool or not mistress or fool.lower() == mistress.lower():
        raise _bug(f"a game needs two different players, got {fool!r} and {mistress!r}")
    if int(event["elixir_turns"]) < 1:
        raise _bug("an Elixir must last at least one turn")
    table = PointsTable.from_dict(event["points"], event.get("points_source", "default"))
    state.game = Game(fool=fool, mistress=mistress, elixir=Elixir(event["elixir"]),
                      elixir_turns=int(event["elixir_turns"]), seed=int(event["seed"]),
                      table=table, scores={fool: 0, mistress: 0})
    state.games += 1


def _score(game: Game, event: WagerHandScored) -> None:
    if event["player"] not in game.scores:
        raise _bug(f"{event['player']!r} is not in the game")
    if Elixir(event["elixir"]) != game.elixir or game.turns >= game.elixir_turns:
        raise _bug("a hand scored under an Elixir that should have changed")
    hand = rank(parse_wcard(event["top"]), parse_wcard(event["bottom"]), game.elixir,
                game.table)
    if (hand.kind, hand.quality, hand.points) != (
            event["hand"], event["quality"], event["points"]):
        raise _bug(f"hand {event['top']} over {event['bottom']} does not score as recorded")
    game.scores[event["player"]] += hand.points
    game.turns += 1
    if hand.kind != "none":
        game.rounds += 1
    game.history.append(Scored(event["player"], event["top"], event["bottom"], game.elixir,
                               hand.kind, hand.quality, hand.points))
    game.last = event["player"]
    if game.scores[event["player"]] >= TARGET:
        game.winner = event["player"]


def _play_turns(game: Game, event: WagerTurnsPlayed) -> None:
    count = int(event["count"])
    if count < 1 or game.turns + count > game.elixir_turns:
        raise _bug(f"{count} turns overrun the Elixir's {game.elixir_turns}")
    game.turns += count
    first = event.get("player") or game.to_move or game.fool
    if first not in game.scores:
        raise _bug(f"{first!r} is not in the game")
    game.last = game.after(first, count)


def _change_elixir(game: Game, event: WagerElixirChanged) -> None:
    new, reason = Elixir(event["elixir"]), event["reason"]
    if new == game.elixir:
        raise _bug(f"the Elixir {new.value} changed to itself")
    if reason == "turns" and game.turns != game.elixir_turns:
        raise _bug(f"the Elixir changed after {game.turns} of {game.elixir_turns} turns")
    if reason == "set" and not (game.history and game.history[-1].hand == "set"):
        raise _bug("the Elixir changed for a set that was not made")
    if reason in ("set", "turns"):
        game.draws += 1
    elif reason != "table":
        raise _bug(f"unknown reason {reason!r} for a new Elixir")
    game.elixir = new
    game.turns = 0


def dump(state: WagerState) -> WagerJSON:
    """JSON form of the state (``load`` reverses it)."""
    game = state.game
    if game is None:
        return {"game": None, "games": state.games}
    return {
        "game": {
            "fool": game.fool, "mistress": game.mistress, "elixir": game.elixir.value,
            "elixir_turns": game.elixir_turns, "seed": game.seed,
            "points": game.table.to_dict(), "points_source": game.table.source,
            "scores": dict(game.scores), "turns": game.turns, "draws": game.draws,
            "rounds": game.rounds, "winner": game.winner, "last": game.last,
            "history": [
                {"player": s.player, "top": s.top, "bottom": s.bottom, "elixir": s.elixir.value,
                 "hand": s.hand, "quality": s.quality, "points": s.points}
                for s in game.history
            ],
        },
        "games": state.games,
    }


def load(data: WagerJSON) -> WagerState:
    """The state from its JSON form."""
    raw = data.get("game")
    if raw is None:
        return WagerState(None, int(data.get("games", 0)))
    game = Game(
        fool=raw["fool"], mistress=raw["mistress"], elixir=Elixir(raw["elixir"]),
        elixir_turns=int(raw["elixir_turns"]), seed=int(raw["seed"]),
        table=PointsTable.from_dict(raw["points"], raw["points_source"]),
        scores={k: int(v) for k, v in raw["scores"].items()}, turns=int(raw["turns"]),
        draws=int(raw["draws"]), rounds=int(raw["rounds"]), winner=raw["winner"],
        last=raw.get("last"),
        history=[Scored(s["player"], s["top"], s["bottom"], Elixir(s["elixir"]), s["hand"],
                        s["quality"], int(s["points"])) for s in raw["history"]],
    )
    return WagerState(game, int(data["games"]))


def describe(events: Sequence[WagerEvent]) -> list[str]:
    """What a command's events decided, one line each, for ``wager log`` (W14)."""
    lines: list[str] = []
    for e in events:
        if e.get("kind") not in KINDS:
            continue
        if e["kind"] == "wager_game_started":
            lines.append(f"{e['fool']} (Fool) against {e['mistress']} (Mistress); Elixir "
                         f"{e['elixir']}, {e['elixir_turns']} turns; seed {e['seed']}")
        elif e["kind"] == "wager_hand_scored":
            hand = "no hand" if e["hand"] == "none" else (
                "poison" if e["hand"] == "poison" else f"{e['quality']} {e['hand']}")
            lines.append(f"{e['player']}: {e['top']} over {e['bottom']} under {e['elixir']}: "
                         f"{hand}, {e['points']:+d}")
        elif e["kind"] == "wager_turns_played":
            who = f" from {e['player']}" if e.get("player") else ""
            lines.append(f"{e['count']} turn{'s' if e['count'] != 1 else ''} without a "
                         f"hand{who}")
        elif e["kind"] == "wager_elixir_changed":
            why = {"set": "after a set", "turns": "its turns ran out",
                   "table": "as on the table"}.get(e["reason"], e["reason"])
            lines.append(f"Elixir now {e['elixir']} ({why})")
    return lines


STREAM = StreamSpec(name="wager", empty=WagerState, apply=apply, dump=dump, load=load,
                    read=read)
