"""`referee scum`: the Tarot Scum side table (R29-R31, house decisions T1-T11).

Thin shell over ``referee.rules.scum``; the rules are imported inside each
command so that ``referee --help`` stays fast.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from referee.cli.common import add_undo_redo

if TYPE_CHECKING:
    from rich.table import Table

    from referee.rules.scum import Match, Role

app = typer.Typer(
    help="Tarot Scum side table: roles and deals, play checks, scores over a match (R29-R31).",
    no_args_is_help=True,
)

Json = Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")]
STREAM = "scum"


def _roles_json(roles: dict[str, Role]) -> dict[str, str]:
    return {name: role.value for name, role in roles.items()}


def _hand_json(match: Match) -> dict[str, Any]:
    """Roles, deal sizes (R29), passing and leader of the hand about to be played."""
    from referee.rules import scum

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
    from rich.table import Table

    from referee.cli.common import console
    from referee.rules import scum

    out = console()
    table = Table(title=f"Hand {match.hand} of {match.hands}: roles {how}", title_justify="left")
    table.add_column("Role")
    table.add_column("Player")
    table.add_column("Dealt", justify="right")
    table.add_column("Hand", justify="right")
    for role in scum.ROLES:
        name = next(n for n, r in match.roles.items() if r is role)
        table.add_row(role.label, name, str(scum.DEAL_SIZE[role]), str(scum.hand_size(role)))
    out.print(table)
    out.print("Dealt: besides the role card. Hand: with it; it is wild like every major (R29).")
    by_role = {role: name for name, role in match.roles.items()}
    out.print("Passing (R29):")
    for p in scum.PASSING:
        out.print(f"  {by_role[p.giver]} ({p.giver.card_name}) gives "
                  f"{by_role[p.receiver]} ({p.receiver.card_name}) {p.what}")
    out.print(f"{by_role[scum.LEADER]} ({scum.LEADER.card_name}) leads the first series.")


def _standings_table(match: Match) -> Table:
    from rich.table import Table

    table = Table(title="Standings", title_justify="left")
    table.add_column("Player")
    for result in match.results:
        table.add_column(f"H{result.hand}", justify="right")
    table.add_column("Total", justify="right")
    if not match.is_over:
        table.add_column(f"Role in hand {match.hand}")
    for name, total in match.standings().items():
        cells = [name]
        for result in match.results:
            cells.append(f"{result.points[name]} {result.roles[name].card_name.split()[-1]}")
        cells.append(str(total))
        if not match.is_over:
            cells.append(match.roles[name].label)
        table.add_row(*cells)
    return table


@app.command()
def new(
    names: Annotated[list[str], typer.Argument(help="The four players.", show_default=False)],
    rotate: Annotated[bool, typer.Option(
        "--rotate", help="Rotate roles so each player takes each role once over four hands "
                         "(R31); default: draw them at random every hand.")] = False,
    seed: Annotated[int | None, typer.Option(
        "--seed", help="Seed of the role draws (and the console deal), to reproduce a match.",
    )] = None,
    abandon: Annotated[bool, typer.Option(
        "--abandon", help="Start over although a match is unfinished (T9).")] = False,
    as_json: Json = False,
) -> None:
    """Start a match of four: roles drawn, deal sizes and passing for hand 1 (R29, R31)."""
    import random

    from referee.cli.common import console, db_path, emit_json
    from referee.rules import scum
    from referee.store import open_evening

    if seed is None:
        seed = random.SystemRandom().randrange(1, 1_000_000)
    with open_evening(db_path()) as ev:
        events = scum.new_match(ev.state(STREAM), names, seed=seed, rotate=rotate,
                                abandon=abandon)
        text = " ".join(["scum new", *events[0]["players"], "--seed", str(seed)]
                        + (["--rotate"] if rotate else []))
        state = ev.commit(STREAM, events, text=text)
    match = state.match
    if as_json:
        emit_json({**_hand_json(match), "seed": seed, "rotate": rotate})
        return
    mode = "rotated each hand (R31)" if rotate else "drawn at random each hand"
    console().print(f"Tarot Scum: {', '.join(match.players)}; {match.hands} hands, roles {mode}; "
                    f"seed {seed}")
    _print_hand(match, "drawn")


@app.command()
def check(
    previous: Annotated[str, typer.Argument(
        help="The play to beat, e.g. '5C 5S' or 5C,5S; '-' when leading.", show_default=False)],
    play: Annotated[str, typer.Argument(
        help="The play to check, e.g. '7C XVI'; '-' or 'pass' for a pass.", show_default=False)],
    as_json: Json = False,
) -> None:
    """Is PLAY a legal follow to PREVIOUS? Same count, higher rank, one wild at most (R30).

    Exit 0 when legal, 2 when not; the reason says what would be legal (T12).
    """
    from referee.cli.common import emit_json, say
    from referee.errors import IllegalAction
    from referee.rules import scum

    verdict = scum.check(scum.read_cards(previous), scum.read_cards(play))
    if as_json:
        emit_json(verdict.to_json())
        if not verdict.legal:
            raise typer.Exit(2)
        return
    if not verdict.legal:
        raise IllegalAction(f"not a legal follow: {verdict.reason}")
    line = f"legal: {verdict.reason}"
    if verdict.wins_series:
        line += "; the series is won, that player leads the next"
    say(line)


@app.command()
def finish(
    names: Annotated[list[str], typer.Argument(
        help="All four players, first out to last (unique prefixes will do).",
        show_default=False)],
    as_json: Json = False,
) -> None:
    """Score a hand by its finishing order, then show the next hand's roles (R31)."""
    from rich.table import Table

    from referee.cli.common import console, db_path, emit_json
    from referee.rules import scum
    from referee.store import open_evening

    with open_evening(db_path()) as ev:
        events = scum.finish(ev.state(STREAM), names)
        event = events[0]
        text = f"scum finish {' '.join(event['order'])} (hand {event['hand']})"
        state = ev.commit(STREAM, events, text=text)
    match = state.match
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
        table.add_row(("1st", "2nd", "3rd", "4th")[place - 1], name, result.roles[name].label,
                      str(result.points[name]), str(totals[name]))
    out.print(table)
    if match.is_over:
        out.print(f"Match over: {scum.winner_text(match)}.")
        return
    _print_hand(match, "rotated (R31)" if match.rotate else "drawn")


@app.command()
def standings(as_json: Json = False) -> None:
    """Points of the current match so far, and the roles of the hand being played."""
    from referee.cli.common import console, db_path, emit_json
    from referee.rules import scum
    from referee.store import open_evening

    with open_evening(db_path(), write=False) as ev:
        match = scum.require_match(ev.state(STREAM))
    if as_json:
        emit_json(match.standings())
        return
    out = console()
    out.print(_standings_table(match))
    if match.is_over:
        out.print(f"Match over: {scum.winner_text(match)}.")
    else:
        leaders = match.leaders()
        out.print(f"Hand {match.hand} of {match.hands} next; "
                  f"leading: {', '.join(leaders)} with {match.totals()[leaders[0]]}.")


@app.command()
def deal(as_json: Json = False) -> None:
    """Deal the current hand from the console (seeded by the match): every card once (T10)."""
    from referee.cli.common import db_path, emit_json, say
    from referee.errors import IllegalAction
    from referee.rules import scum
    from referee.rules.cards import format_cards
    from referee.store import open_evening

    with open_evening(db_path(), write=False) as ev:
        match = scum.require_match(ev.state(STREAM))
    if match.is_over:
        raise IllegalAction(f"the match is over ({scum.winner_text(match)}); nothing to deal")
    hands = scum.deal(match.roles, match.deal_rng())
    if as_json:
        emit_json({"hand": match.hand, "roles": _roles_json(match.roles),
                   "cards": {name: [c.short for c in cards] for name, cards in hands.items()}})
        return
    say(f"Hand {match.hand} of {match.hands}, dealt by the console (seed {match.seed}):")
    for role in scum.ROLES:
        name = next(n for n, r in match.roles.items() if r is role)
        say(f"  {name} ({role.card_name}, {len(hands[name])}): {format_cards(hands[name])}")


add_undo_redo(app, STREAM, "Tarot Scum")
