"""The ``referee`` command: a table of contents of an evening."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated

import typer

from referee import __version__
from referee.cli import (
    amend,
    ceremony,
    common,
    count,
    dryrun,
    equity,
    evening,
    fate,
    hand,
    history,
    present,
    room,
    rules,
    runner,
    scenario,
    scum,
    season,
    serve,
    shell,
    souls,
    table,
    wager,
    watch,
)
from referee.cli.common import RefereeGroup, Settings

app = typer.Typer(
    cls=RefereeGroup,
    help="Referee console for a live Fool's Errand evening and its side tables.",
    no_args_is_help=True,
    add_completion=True,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"referee {__version__}")
        raise typer.Exit()


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
    explain: Annotated[
        bool, typer.Option("--explain", help="After a refusal, read its ruling in full.")
    ] = False,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Show what the command would record and change; "
                           "write nothing (E133).")
    ] = False,
    version: Annotated[
        bool, typer.Option("--version", "-V", callback=_version, is_eager=True,
                           help="Print the version and exit.")
    ] = False,
    station: Annotated[
        str | None,
        typer.Option("--station", help="Run the command at `referee serve --station` URL."),
    ] = None,
    token: Annotated[
        str | None, typer.Option("--token", help="The station token (`referee links` prints it)."),
    ] = None,
) -> None:
    """Referee console for a live Fool's Errand evening and its side tables."""
    if isinstance(ctx.obj, runner.Sealed) and (db != ctx.obj.evening or debug or station
                                               or token):
        # A station's line (E65): refused before this by `station.refusal`; here once more,
        # from what the parser itself read, so a miss there still reaches nothing else.
        from referee.errors import BadInput

        raise BadInput("a station's commands run on the evening served there only, without "
                       "--db, --debug, --station or --token (E65)", ruling="E65")
    common.SETTINGS = ctx.obj = Settings(db=db, debug=debug, explain=explain, dry_run=dry_run)
    from referee.storage import files

    files.DRY_RUN = dry_run  # E133: every write of this command stops short of the disk
    if station is not None:  # `run()` sends station lines before parsing; only a caller of
        # the app itself gets here
        raise typer.BadParameter("give --station URL --token T before the command, "
                                 "on the command line", param_hint="--station")


evening.register(app)
count.register(app)  # E130-E132
amend.register(app)  # E138, E139
app.add_typer(hand.app, name="hand", rich_help_panel="At the table")
souls.register(app)
present.register(app)
watch.register(app)
shell.register(app)
serve.register(app)
app.add_typer(room.app, name="room", rich_help_panel="Status")
app.add_typer(scenario.app, name="scenario", rich_help_panel="Setup")
app.add_typer(scum.app, name="scum", rich_help_panel="Side tables")
app.add_typer(wager.app, name="wager", rich_help_panel="Side tables")
app.add_typer(fate.app, name="fate", rich_help_panel="Away from the table")
rules.register(app)
ceremony.register(app)  # R40
season.register(app)  # R41-R43
assert table  # `hand start|show|showdown` are added to the hand group on import
assert equity  # so is `hand equity` (H26-H30)
assert history  # and `hand history` (E135)


_hoist_root_options = common.hoist_root_options  # kept for scripts that named it here


def _target(args: list[str]) -> str | None:
    """The command word of a command line (after the root options)."""
    i = 0
    while i < len(args):
        if args[i] == "--db":
            i += 2
        elif args[i].startswith("-"):
            return None  # --help, --version, completion flags: the whole tree is needed
        else:
            return args[i]
    return None


def only(target: str | None) -> bool:
    """Keep only the command group ``target`` in the app, so that only it is built.

    Typer turns every registered command into a click command (evaluating every
    annotation) before it runs one; for a console answering mid-hand that is most
    of the start-up. Returns False (and keeps everything) for an unknown word, so
    the parser can suggest the right one.
    """
    if target is None or os.environ.get("_REFEREE_COMPLETE"):
        return False
    commands = [c for c in app.registered_commands
                if (c.name or (c.callback.__name__ if c.callback else "")).replace("_", "-")
                == target]
    groups = [g for g in app.registered_groups if g.name == target]
    if not commands and not groups:
        return False
    app.registered_commands = commands
    app.registered_groups = groups
    return True


_FULL = (list(app.registered_commands), list(app.registered_groups))


def full_app() -> typer.Typer:
    """The root app with every command (undoing ``only``), for the shell and the demo."""
    app.registered_commands, app.registered_groups = list(_FULL[0]), list(_FULL[1])
    return app


runner.use_app(full_app)  # the in-process runner builds the whole tree from here
common.show_dry_run = dryrun.show  # E133: how a dry run is printed


def table_of_contents() -> str:
    """``referee --help``: every command by the part of the evening it serves.

    Written from the registered commands' docstrings without building them: typer would
    convert all ~90 commands (evaluating every annotation) just to print their first lines.
    """
    panels: dict[str, list[tuple[str, str]]] = {}
    for info in app.registered_commands:
        assert info.callback is not None
        name = info.name or info.callback.__name__.replace("_", "-")
        text = info.help or info.callback.__doc__ or ""
        panels.setdefault(str(info.rich_help_panel or "Commands"), []).append((name, text))
    for group in app.registered_groups:
        about = group.help or (group.typer_instance.info.help if group.typer_instance else "")
        panels.setdefault(str(group.rich_help_panel or "Commands"), []).append(
            (f"{group.name} ...", str(about or "")))
    order = ["Setup", "At the table", "Betting", "Chips and seats", "Souls, Charges, powers",
             "Status", "Between evenings", "The log", "Side tables", "Away from the table",
             "The rulebook"]
    panels = dict(sorted(panels.items(),
                         key=lambda kv: order.index(kv[0]) if kv[0] in order else len(order)))
    options = [("--db PATH", "The evening file (default: $REFEREE_DB, else the user data dir)."),
               ("--debug", "Show tracebacks of internal errors."),
               ("--explain", "After a refusal, read its ruling in full (also `rules last`)."),
               ("--dry-run", "Show the events, rulings and changes a command would make; "
                "write nothing (E133; `try LINE` in the shell)."),
               ("--station URL", "Run the command at a `referee serve --station` (with --token "
                "T)."),
               ("--version, -V", "Print the version and exit."),
               ("--install-completion", "Install tab completion for your shell."),
               ("--show-completion", "Print the completion script, to install it by hand."),
               ("--help, -h", "Show this and exit.")]
    import shutil
    import textwrap

    columns = max(60, min(100, shutil.get_terminal_size((80, 24)).columns))

    def rows(items: list[tuple[str, str]], width: int) -> list[str]:
        # Each description wrapped under itself, so the list reads at 80 columns.
        return [textwrap.fill(" ".join(str(text).strip().split("\n\n")[0].split()), columns,
                              initial_indent=f"  {name}".ljust(width),
                              subsequent_indent=" " * width)
                for name, text in items]

    commands = max(len(n) for items in panels.values() for n, _ in items) + 4
    out = ["Usage: referee [--db PATH] [--debug] [--explain] [--dry-run] COMMAND [ARGS]...",
           "",
           "  Referee console for a live Fool's Errand evening and its side tables.",
           "  Every command has --help; every command that reads has --json.", ""]
    for panel, items in panels.items():
        out += [f"{panel}:", *rows(items, commands), ""]
    out += ["Options:", *rows(options, max(len(n) for n, _ in options) + 4)]
    return "\n".join(out)


def _station_options(argv: list[str]) -> tuple[str | None, str | None, list[str]]:
    """``--station URL`` and ``--token T`` taken from the root options, before the command
    word (after it, ``--station`` is the `serve` flag)."""
    found: dict[str, str | None] = {"--station": None, "--token": None}
    rest: list[str] = []
    i = 0
    while i < len(argv) and argv[i].startswith("-") and argv[i] != "--":
        name, eq, value = argv[i].partition("=")
        if name in found and (eq or i + 1 < len(argv)):
            found[name] = value if eq else argv[i + 1]
            i += 1 if eq else 2
            continue
        rest += argv[i : i + 2] if name == "--db" and not eq else [argv[i]]
        i += 2 if name == "--db" and not eq else 1
    return found["--station"], found["--token"], rest + argv[i:]


def run() -> None:
    """Console-script entry point."""
    url, token, argv = _station_options(sys.argv[1:])
    if url is not None and argv not in ([], ["--help"], ["-h"]):
        from referee.cli import station

        sys.exit(station.remote(url, token, argv))
    args = _hoist_root_options(argv)
    if args in ([], ["--help"], ["-h"]):
        typer.echo(table_of_contents())
        return
    if args in (["--version"], ["-V"]):
        typer.echo(f"referee {__version__}")
        return
    only(_target(args))
    app(args=args, prog_name="referee")
