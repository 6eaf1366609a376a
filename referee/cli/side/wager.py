"""`referee wager`: the Weir's Wager side table (R32-R34, house decisions W1-W18).

Thin shell over ``referee.rules.wager``, which every command here needs: it is imported with
the module, which only a `wager` command line loads (``referee.cli.main.TREE``).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Final

import typer

from referee.cli.context import db_path
from referee.cli.printing import emit_json
from referee.cli.side.side_log import add_log, plain
from referee.cli.transaction import add_undo_redo, perform
from referee.errors import BadInput
from referee.jsontypes import JSONObject
from referee.rules import wager
from referee.rules.wager import TARGET, describe, elixir_summary

if TYPE_CHECKING:
    from referee.cli.transaction import Done
    from referee.rules.wager import Elixir, Game, Hand, PointsTable

app = typer.Typer(
    help="Weir's Wager side table: hand rulings under an Elixir and the race to 999 (R32-R34).",
    no_args_is_help=True,
)

STREAM: Final = "wager"

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
    from referee.content.side_tables import wager_points  # `new` and --points only

    return wager_points(points)


def _hand_line(hand: Hand) -> str:
    sign = f"{hand.points:+d}" if hand.kind != "none" else "0"
    extra = " (favoured by the round)" if hand.favoured else ""
    return (f"{hand.top.label} over {hand.bottom.label} under {hand.elixir.value}: "
            f"{hand.describe()}, {sign} points{extra}")


def _status_json(game: Game) -> JSONObject:
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
        "to_move": game.to_move,
        "points_table": game.table.source,
    }


def _elixir_line(game: Game) -> str:
    return (f"Elixir {elixir_summary(game.elixir)}; turn {game.turns} of {game.elixir_turns} "
            "on it")


def _change_line(before: Elixir, after: Elixir, reason: str) -> str:
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
    from referee.storage.store import open_evening  # not at the top: `rank` may open none

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
    plain(_hand_line(hand))
    plain(f"  {hand.reason} (R33); {wager.elixir_summary(current)}")


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
    first = wager.parse_elixir(elixir) if elixir is not None else None
    table = _table(points)
    if seed is None:
        seed = random.SystemRandom().randrange(1, 1_000_000)

    def answer(outcome: Done) -> None:
        _, after, _ = outcome
        game = after.game
        for note in wager.role_word_notes(game):  # W17: a name that is a role word
            typer.echo(f"note: {note}", err=True)
        if as_json:
            emit_json({**_status_json(game), "seed": seed})
            return
        plain(f"Weir's Wager: {game.fool} (the Fool) against {game.mistress} (the Mistress), "
              f"first to {wager.TARGET}; seed {seed}; points table {game.table.source}")
        drawn = "" if first is not None else " — the console drew it: put it out on the table"
        plain(f"Elixir {wager.elixir_summary(game.elixir)}{drawn}")
        plain(f"It changes after a set or after {game.elixir_turns} turns; either may move first, "
              "then turns alternate (W12).")

    perform("wager new", {
        "fool": fool, "mistress": mistress, "seed": seed, "table": table, "elixir": first,
        "elixir_turns": elixir_turns, "abandon": abandon}, then=answer)


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

    A turn with no hand counts towards the Elixir's turns (W6); turns alternate (W12).
    """
    cards = (wager.parse_wcard(top), wager.parse_wcard(bottom))

    def answer(outcome: Done) -> None:
        before_state, after, events = outcome
        game, before = after.game, before_state.game.elixir
        first = events[0]
        assert first["kind"] == "wager_hand_scored"
        hand = wager.rank(*cards, before, game.table)
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
        plain(f"{first['player']} ({game.role_of(first['player'])}): {_hand_line(hand)}")
        plain(f"  {hand.reason} (R33)")
        plain(f"Score: {wager.score_line(game)}")
        if game.winner is not None:
            plain(f"{game.winner} wins, first to {wager.TARGET} (R34).")
        elif change is not None:
            plain(_change_line(before, game.elixir, change["reason"]))
        else:
            plain(_elixir_line(game))

    perform("wager score", {
        "player": player, "top": cards[0], "bottom": cards[1]}, then=answer)


@app.command()
def turn(
    who: Annotated[str | None, typer.Argument(
        metavar="[PLAYER]", help="Who moved: a name, fool or mistress (default: the player to "
        "move); or a count of turns.", show_default=False)] = None,
    count: Annotated[int | None, typer.Argument(
        help="Turns played without a hand, alternating (default 1).", show_default=False)]
    = None,
    as_json: Json = False,
) -> None:
    """Turns that make no hand; the Elixir changes when its turns run out (W6, W12, W15).

    `wager turn` is the player to move; `wager turn bea`, `wager turn 3`, `wager turn bea 3`.
    Several turns alternate from the first: `wager turn 12` is six each.
    """
    if who is not None and who.isascii() and who.strip().lstrip("-").isdigit() and count is None:
        count, who = int(who), None

    def answer(outcome: Done) -> None:
        before_state, after, events = outcome
        game, before = after.game, before_state.game.elixir
        changes = [e["elixir"] for e in events if e["kind"] == "wager_elixir_changed"]
        if as_json:
            emit_json({**_status_json(game), "elixir_changed": changes})
            return
        first = events[0]
        assert first["kind"] == "wager_turns_played"  # the turns, then any new Elixir
        plain(_turns_line(game, first["player"], 1 if count is None else count))
        for changed in changes:
            plain(_change_line(before, wager.Elixir(changed), "turns"))
            before = wager.Elixir(changed)
        plain(_elixir_line(game))

    perform(
        "wager turn", {"count": 1 if count is None else count, "player": who},
        words={"count": count}, then=answer)


_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
          "eleven", "twelve")


def _turns_line(game: Game, first: str, count: int) -> str:
    """``12 turns without a hand, six each (Ann first); Ann to move`` (W12, W15)."""
    if count == 1:
        return f"{first}: 1 turn without a hand; {game.to_move} to move (W12)"
    each = wager.turns_each(game, first, count)
    word = {n: _WORDS[n] if n < len(_WORDS) else str(n) for n in each.values()}
    if len(set(each.values())) == 1:
        split = f", {word[each[first]]} each"
    else:
        split = ": " + ", ".join(f"{word[n]} by {name}" for name, n in each.items())
    return (f"{count} turns without a hand{split} ({first} first, turns alternate); "
            f"{game.to_move} to move (W12, W15)")


@app.command()
def elixir(
    name: Annotated[str, typer.Argument(help="The Elixir now on the table.", show_default=False)],
) -> None:
    """Set the Elixir to the one actually on the table (its turn count starts again)."""
    new_elixir = wager.parse_elixir(name)

    def answer(outcome: Done) -> None:
        before, _, _ = outcome
        plain(_change_line(before.game.elixir, new_elixir, "table"))

    perform("wager elixir", {"elixir": new_elixir}, then=answer)


@app.command()
def status(
    show_all: Annotated[bool, typer.Option(
        "--all", help="Every hand of the game, not only the last five (W16).")] = False,
    as_json: Json = False,
) -> None:
    """Scores, the round in play, the Elixir and its turns, who moves, and the hands round by
    round (W12, W16)."""
    from referee.storage.store import open_evening  # not at the top: `rank` may open none

    with open_evening(db_path(), write=False) as ev:
        game = wager.require_game(ev.state(STREAM), playing=False)
    hands = wager.numbered_hands(game)
    if as_json:
        emit_json({**_status_json(game), "round": wager.round_number(game), "hands": [
            {"round": number, "player": s.player, "top": s.top, "bottom": s.bottom,
             "elixir": s.elixir.value, "hand": s.hand, "quality": s.quality,
             "points": s.points} for number, s in hands]})
        return
    plain(f"Weir's Wager, first to {wager.TARGET}: {game.fool} (Fool) "
          f"{game.scores[game.fool]}, {game.mistress} (Mistress) {game.scores[game.mistress]}")
    if game.winner is not None:
        plain(f"{game.winner} has won, in round {wager.round_number(game)}.")
    else:
        plain(f"Round {wager.round_number(game)} in play (W16); {_elixir_line(game)}")
        plain(f"To move: {game.to_move or 'either player (the first move)'} (W12)")
    if not hands:
        plain("No hands yet.")
        return
    shown = hands if show_all else hands[-5:]
    more = "" if len(shown) == len(hands) else (
        f", the last {len(shown)} of {len(hands)}; --all shows every one")
    plain(f"Hands, round by round{more}:")
    for number, scored in shown:
        hand = wager.rank(wager.parse_wcard(scored.top), wager.parse_wcard(scored.bottom),
                          scored.elixir, game.table)
        points = f"{scored.points:+d}" if scored.hand != "none" else "0"
        plain(f"  Round {number}: {scored.player}: {scored.top} over {scored.bottom} under "
              f"{scored.elixir.value}: {hand.describe()}, {points}")


add_undo_redo(app, STREAM, "Weir's Wager")


def _describe(events: Any) -> list[str]:
    return describe(events)


add_log(app, STREAM, "Weir's Wager", _describe)


def register(root: typer.Typer) -> None:
    """Add the `wager` group (Side tables) to the root app."""
    root.add_typer(app, name="wager", rich_help_panel="Side tables")
