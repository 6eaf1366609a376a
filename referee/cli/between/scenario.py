"""`referee scenario`: check a scenario file; show its souls and powers (secrets on --reveal)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NotRequired, TypedDict

import typer

from referee.cli.context import console
from referee.cli.printing import emit_json, lit, printable
from referee.content.scenario import load_powers, load_scenario, validate_powers, validate_scenario
from referee.rules.cards import to_roman

if TYPE_CHECKING:
    from referee.content.scenario import Scenario

app = typer.Typer(
    help="Scenarios: validate a custom scenario, show the souls and powers.",
    no_args_is_help=True,
)

JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")]

#: `scenario check` lists this many problems, then how many more (S40).
MAX_PROBLEMS = 50


@app.command()
def check(
    file: Annotated[Path, typer.Argument(help="Scenario TOML file.", show_default=False)],
    powers: Annotated[
        bool, typer.Option("--powers", help="FILE is a power set (44 [[powers]]), not a scenario.")
    ] = False,
    json_: JsonOpt = False,
) -> None:
    """Validate a scenario file and list every problem at once (exit 2 if any).

    Prints "ok: 6 souls, 44 powers" when the file is good.
    """
    problems = validate_powers(file) if powers else validate_scenario(file)
    souls = n_powers = 0
    if not problems:
        if powers:
            n_powers = len(load_powers(file))
        else:
            scenario = load_scenario(file)
            souls, n_powers = len(scenario.souls), len(scenario.powers)
    if json_:
        emit_json({"file": str(file), "ok": not problems, "souls": souls, "powers": n_powers,
                   "problems": problems})
    elif not problems:
        typer.echo(f"ok: {n_powers} powers" if powers else f"ok: {souls} souls, {n_powers} powers")
    else:
        for problem in problems[:MAX_PROBLEMS]:
            typer.echo(f"error: {printable(problem)}", err=True)  # file text as data (E96)
        if len(problems) > MAX_PROBLEMS:  # a file of junk is not a page of errors (S40)
            more = len(problems) - MAX_PROBLEMS
            typer.echo(f"error: and {more} more problem{'' if more == 1 else 's'} in "
                       f"{printable(file)}; "
                       "fix these first", err=True)
    if problems:
        raise typer.Exit(2)


class Bottle(TypedDict):
    """A bottled soul as `scenario show` lists it: its label; the rest only with --reveal."""

    soul: str
    identity: NotRequired[str]
    aliases: NotRequired[list[str]]
    arcanum: NotRequired[str]
    clue_counts: NotRequired[dict[str, int]]   # seat -> clues on its sheet


class Power(TypedDict):
    key: str
    card: str
    orientation: str
    name: str
    charges: int
    when: str
    text: str
    magic: bool


class Summary(TypedDict):
    """`scenario show --json`."""

    name: str
    description: str
    source: str
    souls: list[Bottle]
    powers: list[Power]


def _summary(scenario: Scenario, reveal: bool) -> Summary:
    souls: list[Bottle] = []
    for soul in scenario.souls:
        row: Bottle = {"soul": soul.label}
        if reveal:
            row |= {
                "identity": soul.name,
                "aliases": list(soul.aliases),
                "arcanum": to_roman(soul.arcanum),
                "clue_counts": {str(seat): len(c) for seat, c in sorted(soul.clues.items())},
            }
        souls.append(row)
    powers: list[Power] = [
        {"key": p.key, "card": to_roman(p.card), "orientation": p.orientation, "name": p.name,
         "charges": p.charges, "when": p.when, "text": p.text, "magic": p.magic}
        for p in scenario.powers
    ]
    return {"name": scenario.name, "description": scenario.description,
            "source": scenario.source, "souls": souls, "powers": powers}


@app.command()
def show(
    file: Annotated[
        Path | None,
        typer.Argument(help="Scenario TOML file (default: the shipped scenario).",
                       show_default=False),
    ] = None,
    reveal: Annotated[
        bool,
        typer.Option("--reveal", help="Add the secrets: names, Arcana, clue counts (GM only)."),
    ] = False,
    json_: JsonOpt = False,
) -> None:
    """List the bottles by label and every power. Names and Arcana only with --reveal."""
    scenario = load_scenario(file)
    data = _summary(scenario, reveal)
    if json_:
        emit_json(data)
        return
    from rich.table import Table  # the human table only

    out = console()
    out.print(f"[bold]{lit(scenario.name)}[/bold]  ({lit(scenario.source)})", soft_wrap=True)
    if scenario.description:
        out.print(printable(scenario.description), markup=False)
    souls = Table(title="Bottled souls" + (" (SECRET)" if reveal else ""), title_justify="left")
    souls.add_column("#", justify="right")
    souls.add_column("bottle")
    if reveal:
        souls.add_column("identity")
        souls.add_column("arcanum")
        souls.add_column("clues by seat 1-6")
    for n, row in enumerate(data["souls"], 1):
        cells = [str(n), lit(row["soul"])]
        if reveal:
            counts = " ".join(str(n) for n in row["clue_counts"].values())
            cells += [lit(row["identity"]), lit(row["arcanum"]), counts]
        souls.add_row(*cells)
    out.print(souls)
    table = Table(title="Powers", title_justify="left")
    for column in ("card", "orientation", "name", "charges", "when"):
        table.add_column(column, justify="right" if column == "charges" else "left")
    for p in data["powers"]:
        table.add_row(lit(p["card"]), lit(p["orientation"]),
                      lit(p["name"]) + (" *" if p["magic"] else ""), str(p["charges"]),
                      lit(p["when"]))
    out.print(table)
    out.print("* magic: the hand is ruled with --magic at the showdown (R8)")


def register(root: typer.Typer) -> None:
    """Add the `scenario` group (Setup) to the root app."""
    root.add_typer(app, name="scenario", rich_help_panel="Setup")
