"""`referee wager`: the Weir's Wager side table (R32-R34, house decisions W1-W10).

Thin shell over ``referee.rules.wager``; the rules are imported inside each
command so that ``referee --help`` stays fast.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from referee.cli.common import add_undo_redo

if TYPE_CHECKING:
    from referee.rules.wager import Elixir, Game, Hand, PointsTable

app = typer.Typer(
    help="Weir's Wager side table: hand rulings under an Elixir and the race to 999 (R32-R34).",
    no_args_is_help=True,
)

STREAM = "wager"
Json = Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")]
Top = Annotated[str, typer.Argument(
    help="Top card: 5C, KnC, II, Hermit, Prince, Thoth, an Elixir; ~ for a mirror (~5C or 5C~).",
    show_default=False)]
Bottom = Annotated[str, typer.Argument(help="Bottom card, written the same way.",
                                       show_default=False)]
ElixirOpt = Annotated[str | None, typer.Option(
    "--elixir", help="The Elixir: Relax, Calm, Rest, Heal, Relief, Soothe or Repose.")]
PointsOpt = Annotated[Path | None, typer.Option(
    "--points", help="A points table of your own (TOML, like data/wager_points.toml; R34).")]


def _table(points: Path | None) -> PointsTable:
    from referee.rules.wager import load_points

    return load_points(points)


def _hand_line(hand: Hand) -> str:
    sign = f"{hand.points:+d}" if hand.kind != "none" else "0"
    extra = " (favoured by the round)" if hand.favoured else ""
    return (f"{hand.top.label} over {hand.bottom.label} under {hand.elixir.value}: "
            f"{hand.describe()}, {sign} points{extra}")


def _status_json(game: Game) -> dict[str, Any]:
    from referee.rules.wager import TARGET, elixir_summary

    return {
        "fool": game.fool,
        "mistress": game.mistress,
        "scores": dict(game.scores),
        "elixir": game.elixir.value,
        "rule": elixir_summary(game.elixir),
        "turns": game.turns,
        "elixir_turns": game.elixir_turns,
        "rounds": game.rounds,
        "target": TARGET,
        "winner": game.winner,
        "points_table": game.table.source,
    }


def _elixir_line(game: Game) -> str:
    from referee.rules.wager import elixir_summary

    return (f"Elixir {elixir_summary(game.elixir)}; turn {game.turns} of {game.elixir_turns} "
            "on it")


def _change_line(before: Elixir, after: Elixir, reason: str) -> str:
    from referee.rules.wager import elixir_summary

    why = {"set": "a set was made", "turns": "its turns ran out",
           "table": "as on the table"}[reason]
    return (f"New Elixir ({before.value} → {after.value}, {why}): {elixir_summary(after)}"
            + ("" if reason == "table" else " — put it out on the table"))


@app.command()
def rank(
    top: Top,
    bottom: Bottom,
    elixir: ElixirOpt = None,
    points: PointsOpt = None,
    as_json: Json = False,
) -> None:
    """The hand TOP over BOTTOM makes under an Elixir, and its points (R33, R34).

    Without --elixir, the Elixir of the game going on is used.
    """
    from referee.cli.common import db_path, emit_json, say
    from referee.errors import BadInput
    from referee.rules import wager
    from referee.store import open_evening

    game = None
    if elixir is None or points is None:
        with open_evening(db_path(), write=False) as ev:
            game = ev.state(STREAM).game
    if elixir is not None:
        current = wager.parse_elixir(elixir)
    elif game is not None and game.winner is None:
        current = game.elixir
    else:
        raise BadInput("no game is going: give --elixir NAME (Relax, Calm, Rest, Heal, Relief, "
                       "Soothe or Repose)")
    table = game.table if points is None and game is not None else _table(points)
    hand = wager.rank(wager.parse_wcard(top), wager.parse_wcard(bottom), current, table)
    if as_json:
        emit_json(hand.to_json())
        return
    say(_hand_line(hand))
    say(f"  {hand.reason} (R33); {wager.elixir_summary(current)}")


@app.command()
def new(
    fool: Annotated[str, typer.Argument(help="Who plays the Fool.", show_default=False)],
    mistress: Annotated[str, typer.Argument(help="Who plays the Mistress.", show_default=False)],
    elixir: Annotated[str | None, typer.Option(
        "--elixir", help="The first Elixir, as dealt at the table (default: the console draws).",
    )] = None,
    elixir_turns: Annotated[int, typer.Option(
        "--elixir-turns", help="Turns before the Elixir changes without a set (R34 option).",
    )] = 10,
    points: PointsOpt = None,
    seed: Annotated[int | None, typer.Option(
        "--seed", help="Seed of the console's Elixir draws, to reproduce a game.")] = None,
    abandon: Annotated[bool, typer.Option(
        "--abandon", help="Start over although a game is unfinished (W10).")] = False,
    as_json: Json = False,
) -> None:
    """Start a race to 999: the Fool against the Mistress (R34)."""
    import random

    from referee.cli.common import db_path, emit_json, say
    from referee.rules import wager
    from referee.store import open_evening

    first = wager.parse_elixir(elixir) if elixir is not None else None
    table = _table(points)
    if seed is None:
        seed = random.SystemRandom().randrange(1, 1_000_000)
    with open_evening(db_path()) as ev:
        events = wager.new_game(ev.state(STREAM), fool, mistress, seed=seed, table=table,
                                elixir=first, elixir_turns=elixir_turns, abandon=abandon)
        event = events[0]
        text = (f"wager new {event['fool']} {event['mistress']} --elixir {event['elixir']} "
                f"--elixir-turns {elixir_turns} --seed {seed}"
                + (f" --points {points}" if points else ""))
        game = ev.commit(STREAM, events, text=text).game
    if as_json:
        emit_json({**_status_json(game), "seed": seed})
        return
    say(f"Weir's Wager: {game.fool} (the Fool) against {game.mistress} (the Mistress), "
              f"first to {wager.TARGET}; seed {seed}; points table {game.table.source}")
    drawn = "" if first is not None else " — the console drew it: put it out on the table"
    say(f"Elixir {wager.elixir_summary(game.elixir)}{drawn}")
    say(f"It changes after a set or after {game.elixir_turns} turns.")


@app.command()
def score(
    player: Annotated[str, typer.Argument(
        help="Who made the hand: a name (unique prefix) or fool / mistress.",
        show_default=False)],
    top: Top,
    bottom: Bottom,
    as_json: Json = False,
) -> None:
    """Record PLAYER's turn ending with TOP over BOTTOM; score it (R33, R34).

    A turn with no hand counts towards the Elixir's turns (W6).
    """
    from referee.cli.common import db_path, emit_json, say
    from referee.rules import wager
    from referee.store import open_evening

    with open_evening(db_path()) as ev:
        state = ev.state(STREAM)
        game = wager.require_game(state)
        before = game.elixir
        events = wager.score(state, player, wager.parse_wcard(top), wager.parse_wcard(bottom))
        first = events[0]
        text = f"wager score {first['player']} {first['top']} {first['bottom']}"
        game = ev.commit(STREAM, events, text=text).game
    hand = wager.rank(wager.parse_wcard(first["top"]), wager.parse_wcard(first["bottom"]), before,
                      game.table)
    change = next((e for e in events if e["kind"] == "wager_elixir_changed"), None)
    if as_json:
        emit_json({
            "player": first["player"],
            "hand": hand.to_json(),
            "scores": dict(game.scores),
            "elixir_changed": None if change is None else {
                "from": before.value, "to": change["elixir"], "reason": change["reason"]},
            **{k: v for k, v in _status_json(game).items() if k not in ("scores",)},
        })
        return
    say(f"{first['player']} ({game.role_of(first['player'])}): {_hand_line(hand)}")
    say(f"  {hand.reason} (R33)")
    say(f"Score: {wager.score_line(game)}")
    if game.winner is not None:
        say(f"{game.winner} wins, first to {wager.TARGET} (R34).")
    elif change is not None:
        say(_change_line(before, game.elixir, change["reason"]))
    else:
        say(_elixir_line(game))


@app.command()
def turn(
    count: Annotated[int, typer.Argument(help="Turns played without a hand.")] = 1,
    as_json: Json = False,
) -> None:
    """Count turns played without a hand; the Elixir changes when its turns run out (W6)."""
    from referee.cli.common import db_path, emit_json, say
    from referee.rules import wager
    from referee.store import open_evening

    with open_evening(db_path()) as ev:
        state = ev.state(STREAM)
        before = wager.require_game(state).elixir
        events = wager.turn(state, count)
        game = ev.commit(STREAM, events, text=f"wager turn {count}").game
    changes = [e["elixir"] for e in events if e["kind"] == "wager_elixir_changed"]
    if as_json:
        emit_json({**_status_json(game), "elixir_changed": changes})
        return
    for after in changes:
        say(_change_line(before, wager.Elixir(after), "turns"))
        before = wager.Elixir(after)
    say(_elixir_line(game))


@app.command()
def elixir(
    name: Annotated[str, typer.Argument(help="The Elixir now on the table.", show_default=False)],
) -> None:
    """Set the Elixir to the one actually on the table (its turn count starts again)."""
    from referee.cli.common import db_path, say
    from referee.rules import wager
    from referee.store import open_evening

    new_elixir = wager.parse_elixir(name)
    with open_evening(db_path()) as ev:
        state = ev.state(STREAM)
        before = wager.require_game(state).elixir
        events = wager.set_elixir(state, new_elixir)
        ev.commit(STREAM, events, text=f"wager elixir {new_elixir.value}")
    say(_change_line(before, new_elixir, "table"))


@app.command()
def status(as_json: Json = False) -> None:
    """Scores, the Elixir and its turns, and the winner once there is one."""
    from referee.cli.common import db_path, emit_json, say
    from referee.rules import wager
    from referee.store import open_evening

    with open_evening(db_path(), write=False) as ev:
        game = wager.require_game(ev.state(STREAM), playing=False)
    if as_json:
        emit_json(_status_json(game))
        return
    say(f"Weir's Wager, first to {wager.TARGET}: {game.fool} (Fool) "
              f"{game.scores[game.fool]}, {game.mistress} (Mistress) {game.scores[game.mistress]}")
    if game.winner is not None:
        say(f"{game.winner} has won.")
    else:
        say(_elixir_line(game))
    for scored in game.history[-5:]:
        say(f"  {scored.player}: {scored.top} over {scored.bottom} under "
                  f"{scored.elixir.value}: {scored.hand}, {scored.points:+d}")


add_undo_redo(app, STREAM, "Weir's Wager")
