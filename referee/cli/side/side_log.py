"""What the side tables' commands share: literal output and a `log` with each result (F21, T22,
W14)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Annotated

import typer

from referee.cli.context import console, db_path
from referee.cli.printing import emit_json

if TYPE_CHECKING:
    from referee.jsontypes import JSON

#: A table's ``describe``: the result lines of one command's stored events (JSON objects, as
#: the store keeps them).
Describe = Callable[[Sequence[Mapping[str, "JSON"]]], list[str]]


def plain(text: str) -> None:
    """One line printed literally: names are data, never markup (no rich off a terminal)."""
    if not sys.stdout.isatty():
        typer.echo(text)
        return

    console().print(text, markup=False, highlight=False)


def add_log(app: typer.Typer, stream: str, table: str, describe: Describe) -> None:
    """A ``log`` command: each command as typed, then its result lines (``describe(events)``)."""

    def log(as_json: Annotated[bool, typer.Option(
            "--json", help="Print JSON instead of text.")] = False) -> None:
        # Not at the top: the tables' modules load this one, and `scum check` opens no evening.
        from referee.storage.store import open_evening

        with open_evening(db_path(), write=False) as ev:
            commands = ev.commands(stream)
        if as_json:
            emit_json([{"cmd": c.cmd, "text": c.text, "time": c.time,
                        "result": describe(c.events), "events": list(c.events)}
                       for c in commands])
            return
        out = console()
        if not commands:
            out.print(f"No {table} commands yet.", markup=False)
        for c in commands:
            out.print(f"{c.cmd:>4}  {c.text}", markup=False, highlight=False)
            for line in describe(c.events):
                out.print(f"      {line}", markup=False, highlight=False)

    app.command("log", help=f"Every {table} command of the evening with its result, "
                            "oldest first.")(log)
