"""`referee scum`: the Tarot Scum side table (R29-R31, house decisions T1-T27).

Thin shell over ``referee.rules.scum``, which every command here needs: it is imported with
the module, which only a `scum` command line loads (``referee.cli.main.TREE``).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Annotated, Any, Final

import typer

from referee.cli.context import console, db_path
from referee.cli.printing import emit_json
from referee.cli.side.side_log import add_log, plain
from referee.cli.suggest import told
from referee.cli.transaction import add_undo_redo, perform
from referee.errors import BadInput, IllegalAction
from referee.jsontypes import JSONObject
from referee.rules import scum
from referee.rules.cards import format_cards, parse_cards
from referee.rules.scum import describe
from referee.rules.scum.table import PASSING_COMMAND
from referee.said import said

if TYPE_CHECKING:
    from collections.abc import Sequence

    from rich.table import Table

    from referee.cli.transaction import Done
    from referee.rules.scum import Match, Role
    from referee.rules.scum.events import (
        ScumHandFinished,
        ScumPassed,
        ScumPlayed,
    )

app = typer.Typer(
    help="Tarot Scum side table: roles and deals, the hand move by move, scores over a match "
    "(R29-R31).",
    no_args_is_help=True,
)

Json = Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")]
STREAM: Final = "scum"


def _roles_json(roles: dict[str, Role]) -> JSONObject:
    return {name: role.value for name, role in roles.items()}


def _hand_json(match: Match) -> JSONObject:
    """Roles, deal sizes (R29), passing and leader of the hand about to be played."""
    by_role = {role: name for name, role in match.roles.items()}
    return {
        "hand": match.hand,
        "hands": match.hands,
        "roles": _roles_json(match.roles),
        "deal": {name: scum.DEAL_SIZE[role] for name, role in match.roles.items()},
        "passing": [
            {"from": by_role[p.giver], "to": by_role[p.receiver], "cards": p.what}
            for p in scum.PASSING
        ],
        "leads": by_role[scum.LEADER],
    }


def _print_hand(match: Match, how: str) -> None:
    """The roles table, passing and leader of the hand about to be played."""
    from rich.table import Table  # rich for a table only: --json and plain lines do without
    from rich.text import Text

    out = console()
    table = Table(title=f"Hand {match.hand} of {match.hands}: roles {how}", title_justify="left")
    table.add_column("Role")
    table.add_column("Player")
    table.add_column("Dealt", justify="right")
    table.add_column("Hand", justify="right")
    for role in scum.ROLES:
        name = next(n for n, r in match.roles.items() if r is role)
        table.add_row(role.label, Text(name), str(scum.DEAL_SIZE[role]),
                      str(scum.hand_size(role)))
    out.print(table)
    out.print("Dealt: besides the role card. Hand: with it; it is wild like every major (R29).")
    by_role = {role: name for name, role in match.roles.items()}
    out.print("Passing (R29):")
    for p in scum.PASSING:
        out.print(f"  {by_role[p.giver]} ({p.giver.card_name}) gives "
                  f"{by_role[p.receiver]} ({p.receiver.card_name}) {p.what}", markup=False)
    out.print(f"{by_role[scum.LEADER]} ({scum.LEADER.card_name}) leads the first series.",
              markup=False)


def _standings_table(match: Match) -> Table:
    """Points per hand and in all; while a hand is in play, each player's role and cards left
    (T26)."""
    from rich.table import Table  # rich for a table only: --json and plain lines do without
    from rich.text import Text

    table = Table(title="Standings", title_justify="left")
    table.add_column("Player")
    for result in match.results:
        table.add_column(f"H{result.hand}", justify="right")
    table.add_column("Total", justify="right")
    hand = None if match.is_over else match.current()
    if hand is not None:
        table.add_column(f"Role in hand {match.hand}")
        table.add_column("Cards left", justify="right")
    for name, total in match.standings().items():
        cells: list[str | Text] = [Text(name)]
        for result in match.results:
            cells.append(f"{result.points[name]} {result.roles[name].card_name.split()[-1]}")
        cells.append(str(total))
        if hand is not None:
            cells.append(match.roles[name].label)
            cells.append(f"out {scum.PLACES[hand.out.index(name)]}" if name in hand.out
                         else str(hand.cards_left(name)))
        table.add_row(*cells)
    return table


def _hands_json(match: Match) -> list[JSONObject]:
    """Each finished hand: roles, places and points (R31)."""
    return [{"hand": r.hand, "roles": _roles_json(r.roles),
             "places": {name: place for place, name in enumerate(r.order, start=1)},
             "order": list(r.order), "points": dict(r.points)} for r in match.results]


@app.command()
def new(
    names: Annotated[list[str], typer.Argument(help="The four players, in seating order.",
                                               show_default=False)],
    draw: Annotated[bool, typer.Option(
        "--draw", help="Draw the roles afresh every hand (R31 option); default: rotate them so "
                       "each player takes each role once over four hands.")] = False,
    rotate: Annotated[bool, typer.Option(
        "--rotate", hidden=True, help="Rotate the roles (the default, R31).")] = False,
    seed: Annotated[int | None, typer.Option(
        "--seed", help="Seed of the role draws (and the console deal), to reproduce a match.",
    )] = None,
    abandon: Annotated[bool, typer.Option(
        "--abandon", help="Start over although a match is unfinished (T9).")] = False,
    as_json: Json = False,
) -> None:
    """Start a match of four: roles drawn for hand 1, then rotated; deal sizes and passing
    (R29, R31, T1)."""
    if draw and rotate:
        raise BadInput("--draw and --rotate contradict each other: roles rotate by default "
                       "(R31); --draw draws them afresh every hand", ruling="T1")
    if seed is None:
        seed = random.SystemRandom().randrange(1, 1_000_000)

    def answer(outcome: Done) -> None:
        _, after, _ = outcome
        match = after.match
        if as_json:
            emit_json({**_hand_json(match), "seed": seed, "rotate": match.rotate})
            return
        mode = "rotated each hand (R31)" if match.rotate else "drawn afresh each hand (--draw)"
        console().print(f"Tarot Scum: {', '.join(match.players)}; {match.hands} hands, roles "
                        f"{mode}; seed {seed}", markup=False)
        _print_hand(match, "drawn")

    perform("scum new", {"names": names, "seed": seed, "rotate": not draw, "abandon": abandon},
            words={"rotate": False}, then=answer)


@app.command()
def check(
    previous: Annotated[str, typer.Argument(
        help="The play to beat, e.g. '5C 5S' or 5C,5S; '-' when leading.", show_default=False)],
    play: Annotated[str, typer.Argument(
        help="The play to check, e.g. '7C XVI'; '-' or 'pass' for a pass.", show_default=False)],
    as_json: Json = False,
) -> None:
    """Is PLAY a legal follow to PREVIOUS (or a legal lead)? Same count, higher rank, one wild
    at most (R30).

    Exit 0 when legal, 2 when not; the reason says what would be legal (T12).
    """
    before = scum.read_cards(previous)
    verdict = scum.check(before, scum.read_cards(play))
    if as_json:
        emit_json(verdict.to_json())
        if not verdict.legal:
            raise typer.Exit(2)
        return
    if not verdict.legal:
        what = "a legal lead" if before is None else "a legal follow"
        raise IllegalAction(f"not {what}: {verdict.reason}")
    line = f"legal: {verdict.reason}"
    if verdict.wins_series:
        line += "; the series is won, that player leads the next"
    plain(line)


def _print_result(match: Match, as_json: bool) -> None:
    """The hand just scored, then the next hand's roles (or the match's end)."""
    from rich.table import Table  # rich for a table only: --json and plain lines do without
    from rich.text import Text

    result = match.results[-1]
    totals = match.totals()
    if as_json:
        emit_json({
            "hand": result.hand,
            "order": result.order,
            "roles": _roles_json(result.roles),
            "points": result.points,
            "standings": match.standings(),
            "next": None if match.is_over else _hand_json(match),
            "winner": match.leaders() if match.is_over else None,
        })
        return
    out = console()
    table = Table(title=f"Hand {result.hand} of {match.hands} (R31)", title_justify="left")
    for col, right in (("Place", False), ("Player", False), ("Role", False),
                       ("Points", True), ("Total", True)):
        table.add_column(col, justify="right" if right else "left")
    for place, name in enumerate(result.order, start=1):
        table.add_row(scum.PLACES[place - 1], Text(name), result.roles[name].label,
                      str(result.points[name]), str(totals[name]))
    out.print(table)
    if match.is_over:
        out.print(f"Match over: {scum.winner_text(match)}.", markup=False)
        return
    _print_hand(match, "rotated (R31)" if match.rotate else "drawn")


@app.command()
def finish(
    names: Annotated[list[str], typer.Argument(
        help="All four players, first out to last (unique prefixes will do).",
        show_default=False)],
    as_json: Json = False,
) -> None:
    """Score a hand by its finishing order typed by hand, then show the next hand's roles (R31).

    Plays recorded with `scum play` finish the hand themselves (T20).
    """
    def answer(outcome: Done) -> None:
        _, after, _ = outcome
        _print_result(after.match, as_json)

    perform("scum finish", {"names": names}, then=answer)


@app.command()
def standings(as_json: Json = False) -> None:
    """Points of the match so far, each hand's roles and places; the hand in play: who is to
    act, who is out, each player's cards left (T26)."""
    from referee.storage.store import open_evening  # not at the top: `scum check` opens none

    with open_evening(db_path(), write=False) as ev:
        match = scum.require_match(ev.state(STREAM))
    if as_json:
        emit_json({"standings": match.standings(), "hands": _hands_json(match),
                   "hand": None if match.is_over else match.hand,
                   "roles": _roles_json(match.roles),
                   "table": None if match.table is None else match.table.to_json(),
                   "winner": match.leaders() if match.is_over else None})
        return
    out = console()
    out.print(_standings_table(match))
    if match.is_over:
        out.print(f"Match over: {scum.winner_text(match)}.", markup=False)
        return
    plain(_in_play_line(match))
    if match.results:
        leaders = match.leaders()
        plain(f"Leading: {', '.join(leaders)} with {match.totals()[leaders[0]]}.")


def _in_play_line(match: Match) -> str:
    """``Hand 2 of 4 in play: Cy to play, beat a pair of Fives of Ann; out: Bob 1st.`` (T26)."""
    table = match.current()
    head = f"Hand {match.hand} of {match.hands} in play"
    if table.holdings is not None and not table.passed_cards:
        return (f"{head}: dealt by the console; the passing comes next, "
                f"{told(said(PASSING_COMMAND))} (R29, T14).")
    if table.best is None:
        what = f"{table.to_act} leads"
        if table.moves == 0:
            what += f" ({match.roles[table.to_act].card_name}, R29)"
    else:
        what = f"{table.to_act} to play, beat {table.best.describe()} of {table.best_by}"
    gone = ", ".join(f"{n} {scum.PLACES[i]}" for i, n in enumerate(table.out))
    dealt = "" if table.holdings is not None else "; not dealt by the console, cards counted (T17)"
    return f"{head}: {what}{f'; out: {gone}' if gone else ''}{dealt}."


@app.command()
def deal(as_json: Json = False) -> None:
    """Deal the current hand from the console (seeded by the match): every card once (T10).

    Recorded: from then on a play of a card the player does not hold is refused (T16).
    """
    def answer(outcome: Done) -> None:
        _, after, _ = outcome
        match = after.match
        table = match.current()
        assert table.holdings is not None
        if as_json:
            emit_json({"hand": match.hand, "roles": _roles_json(match.roles),
                       "cards": {name: [c.short for c in cards]
                                 for name, cards in table.holdings.items()}})
            return
        plain(f"Hand {match.hand} of {match.hands}, dealt by the console (seed {match.seed}):")
        for role in scum.ROLES:
            name = table.by_role(role)
            cards = table.holdings[name]
            plain(f"  {name} ({role.card_name}, {len(cards)}): {format_cards(cards)}")

    perform("scum deal", {}, then=answer)


@app.command()
def hand(
    name: Annotated[str, typer.Argument(help="The player (unique prefix).", show_default=False)],
    as_json: Json = False,
) -> None:
    """What a player still holds (the GM's view; only when the console dealt, T16)."""
    from referee.storage.store import open_evening  # not at the top: `scum check` opens none

    with open_evening(db_path(), write=False) as ev:
        match = scum.require_match(ev.state(STREAM))
    table = match.current()
    who = scum.resolve_player(match, name)
    if table.holdings is None:
        known = f"the console did not deal hand {match.hand}, so it does not know {who}'s cards"
        if not table.moves and not table.passed_cards:  # it may deal this hand still (T10)
            raise IllegalAction(f"{known}; `referee scum deal` deals it now, before the passing "
                                "and the first play (T16)", ruling="T16")
        raise IllegalAction(f"{known}, only how many: {who} holds {table.cards_left(who)}; "
                            "`referee scum standings` shows everyone's (T16, T17)", ruling="T16")
    cards = table.holdings[who]
    if as_json:
        emit_json({"player": who, "role": match.roles[who].value,
                   "cards": [c.short for c in cards], "out": who in table.out})
        return
    plain(f"{who} ({match.roles[who].card_name}), {len(cards)} card"
          f"{'s' if len(cards) != 1 else ''}: {format_cards(cards) or '(none: out)'}")


@app.command("pass-cards")
def pass_cards(
    to_magician: Annotated[str, typer.Option(
        "--to-magician", help="The major the Fool gives the Magician, e.g. XVI.",
        show_default=False)],
    to_empress: Annotated[str, typer.Option(
        "--to-empress", help="The Fool's two highest minors, given to the Empress: 'KC KnS'.",
        show_default=False)],
    to_fool: Annotated[str, typer.Option(
        "--to-fool", help="The two minors the Empress gives the Fool: '2C 3W'.",
        show_default=False)],
    as_json: Json = False,
) -> None:
    """Record the passing before play and check it (R29, R30a, T13).

    Without a console deal only the kinds, the counts and the role cards are checked (T27).
    """
    def answer(outcome: Done) -> None:
        _, after, events = outcome
        if as_json:
            current = after.match.current()
            emit_json({"passes": events[0]["passes"], "table": current.to_json(),
                       "checked": current.holdings is not None})
            return
        table = after.match.current()
        for p in events[0]["passes"]:
            plain(f"{p['from']} gives {p['to']} {' '.join(p['cards'])}")
        plain(f"Passing recorded (R29); {table.to_act} leads the first series.")
        if table.holdings is None:
            plain("Not checked: the console did not deal this hand, so it cannot tell whether "
                  "these cards were the givers' or the Fool's two highest minors; it checked "
                  "their kinds and counts, and that no role card but the Fool's own was passed "
                  "(T13, T27).")

    perform("scum pass-cards", {
        "to_magician": parse_cards(to_magician), "to_empress": parse_cards(to_empress),
        "to_fool": parse_cards(to_fool)}, then=answer)


def _print_move(match: Match, as_json: bool,
                events: Sequence[ScumPlayed | ScumPassed | ScumHandFinished]) -> None:

    finished = any(e["kind"] == "scum_hand_finished" for e in events)
    table = None if finished or match.table is None else match.table
    if as_json:
        emit_json({"move": events[0], "said": match.said,
                   "table": None if table is None else table.to_json(),
                   "finished": _hands_json(match)[-1] if finished else None})
        return
    for line in match.said:
        plain(line)
    if finished:
        _print_result(match, False)
        return
    assert table is not None
    if table.best is None:
        plain(f"{table.to_act} leads (R29).")
    else:
        plain(f"{table.to_act} to play: beat {table.best.describe()} of {table.best_by}, "
              "or pass (R30).")


@app.command()
def play(
    words: Annotated[list[str], typer.Argument(
        metavar="[NAME] CARDS...", help="Who plays (default: the player to act) and the cards, "
        "e.g. ann 5C 5S XVI.", show_default=False)],
    as_json: Json = False,
) -> None:
    """A play in the series under way: refused out of turn, after a pass, or when R30 forbids
    it; the hand is scored when the third player goes out (R30, R31, T18-T21)."""

    def answer(outcome: Done) -> None:
        _, after, events = outcome
        _print_move(after.match, as_json, events)

    perform("scum play", {"words": words}, then=answer)


@app.command("pass")
def pass_(
    name: Annotated[str | None, typer.Argument(
        help="Who passes (default: the player to act).", show_default=False)] = None,
    as_json: Json = False,
) -> None:
    """A pass: that player is out of the series until the next lead (R30, T6)."""
    def answer(outcome: Done) -> None:
        _, after, events = outcome
        _print_move(after.match, as_json, events)

    perform("scum pass", {"name": name}, then=answer)


add_undo_redo(app, STREAM, "Tarot Scum")


def _describe(events: Any) -> list[str]:
    return describe(events)


add_log(app, STREAM, "Tarot Scum", _describe)


def register(root: typer.Typer) -> None:
    """Add the `scum` group (Side tables) to the root app."""
    root.add_typer(app, name="scum", rich_help_panel="Side tables")
