"""The past on demand: `hand history [N]` (E135), added to the `hand` group, and the folding
`status --at` and `room replay` read the log with (E134, E136)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from referee.cli.context import db_path
from referee.cli.printing import emit_json, lit, say

if TYPE_CHECKING:
    from referee.evening.history import HandTold
    from referee.evening.state import State
    from referee.storage.store import Evening
    from referee.streams import Event


def evening_commands(ev: Evening) -> Iterator[tuple[int, str, list[Event]]]:
    """The evening table's commands as (number, text, events), oldest first, copied: the
    timeline as it stands, an amendment's replay in place of what it replaced (E138)."""
    # Not at the top: the `hand` rulings load this module and open no evening.
    from referee.evening.amend import effective
    from referee.streams import plain

    yield from effective(((c.cmd, c.text, [plain(e) for e in c.events])
                          for c in ev.iter_commands("evening")), marked=True)


def state_at(seq: int, path: Path | None = None) -> tuple[State, float]:
    """The evening as it stood after command ``seq`` (E134), and the time of that command."""
    from referee.evening import history  # not at the top, as above
    from referee.evening.state import require_evening
    from referee.storage.store import open_evening
    from referee.streams import spec

    sp = spec("evening")
    with open_evening(path or db_path(), write=False) as ev:
        require_evening(ev.state("evening"))
        state: State = history.state_at(evening_commands(ev), sp.empty(), sp.apply, seq)
        when = next((c.time for c in ev.iter_commands("evening") if c.cmd == seq), None)
    return state, when if when is not None else state.created


def read_history(no: int | None, path: Path | None = None) -> HandTold:
    """Hand ``no`` (the last finished one when None) as it happened (E135)."""
    from referee.evening import history  # not at the top, as above
    from referee.evening.state import require_evening
    from referee.storage.store import open_evening
    from referee.streams import spec

    sp = spec("evening")
    with open_evening(path or db_path(), write=False) as ev:
        require_evening(ev.state("evening"))
        return history.hand_history(evening_commands(ev), sp.empty(), sp.apply, no)


def hand_history(
    no: Annotated[int | None, typer.Argument(
        metavar="[N]", min=1, help="The hand's number; the last finished hand if left out.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")
                       ] = False,
) -> None:
    """A finished hand as it happened: the deal, then each round's up cards, moves, powers
    and fixes in the log's order, the showdown and each pot's shares (E135)."""
    from referee.evening.history import history_lines  # not at the top, as above

    data = read_history(no)
    if as_json:
        emit_json(data)
        return
    lines = history_lines(data)
    say(f"[bold]{lit(lines[0])}[/]")
    for line in lines[1:]:
        say(lit(line))


def register(app: typer.Typer) -> None:
    """Add `hand history` to the `hand` group."""
    app.command("history", rich_help_panel="At the table")(hand_history)
