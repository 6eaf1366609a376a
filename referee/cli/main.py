"""The ``referee`` command: a table of contents of an evening."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from referee.cli import common, evening, fate, hand, scum, souls, table, wager
from referee.cli.common import RefereeGroup, Settings

app = typer.Typer(
    cls=RefereeGroup,
    help="Referee console for a live Fool's Errand evening and its side tables.",
    no_args_is_help=True,
    add_completion=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)


@app.callback()
def main(
    ctx: typer.Context,
    db: Annotated[
        Path | None,
        typer.Option("--db", help="Evening file (default: $REFEREE_DB, else the user data dir)."),
    ] = None,
    debug: Annotated[
        bool, typer.Option("--debug", help="Show tracebacks of internal errors.")
    ] = False,
) -> None:
    """Referee console for a live Fool's Errand evening and its side tables."""
    common.SETTINGS = ctx.obj = Settings(db=db, debug=debug)


evening.register(app)
app.add_typer(hand.app, name="hand", rich_help_panel="At the table")
souls.register(app)
app.add_typer(scum.app, name="scum", rich_help_panel="Side tables")
app.add_typer(wager.app, name="wager", rich_help_panel="Side tables")
app.add_typer(fate.app, name="fate", rich_help_panel="Away from the table")
assert table  # `hand start|show|showdown` are added to the hand group on import


def _hoist_root_options(argv: list[str]) -> list[str]:
    """Let ``--db PATH`` and ``--debug`` stand anywhere on the line, as a GM types them."""
    front: list[str] = []
    rest: list[str] = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--":
            rest += argv[i:]
            break
        if arg == "--db" and i + 1 < len(argv):
            front += argv[i : i + 2]
            i += 2
            continue
        if arg.startswith("--db=") or arg == "--debug":
            front.append(arg)
        else:
            rest.append(arg)
        i += 1
    return front + rest


def run() -> None:
    """Console-script entry point."""
    app(args=_hoist_root_options(sys.argv[1:]), prog_name="referee")
