"""`referee watch`: the players' screen. Nothing secret on it (the frame is
``referee.serve.players.frame``, the players' view).

rich is imported where a frame is drawn: `watch --json` does without it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from referee.cli.context import console, db_path
from referee.cli.printing import emit_json
from referee.serve import players

if TYPE_CHECKING:
    from rich.console import RenderableType

    from referee.serve.players import Frame, NoFrame


def render_frame(view: Frame | NoFrame, width: int = 120,
                 height: int | None = None) -> RenderableType:
    """The players' screen for one frame (``referee.cli.room.players_screen.render_frame``)."""
    from referee.cli.room import players_screen  # rich only where a frame is drawn

    return players_screen.render_frame(view, width, height)


def watch(
    once: Annotated[bool, typer.Option("--once", help="Print one frame and exit.")] = False,
    interval: Annotated[
        float, typer.Option("--interval", metavar="SECONDS", min=0.05,
                            max=5.0,
                            help="Seconds between looks at the evening file.")
    ] = 0.25,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the frame as JSON and exit.")
    ] = False,
) -> None:
    """The table for the players' screen: stacks, pots, whose turn, the clock. No secrets."""

    path = db_path()
    view = players.frame(players.load_state(path))  # no evening: one line, exit 2
    if as_json:
        emit_json(view)
        return
    con = console()
    if once:
        con.print(render_frame(view, con.width, con.height if con.is_terminal else None))
        return
    try:
        if not con.is_terminal:  # piped: a new frame whenever the evening changes
            shown = None
            for changed in players.frames(path, interval=interval):
                key = {k: v for k, v in changed.items() if k != "clock"}
                if key != shown:
                    shown = key
                    con.print(render_frame(changed, con.width))
                    con.file.flush()
            return
        from rich.live import Live  # a terminal's screen only

        with Live(console=con, screen=True, auto_refresh=False) as screen:
            for changed in players.frames(path, interval=interval):
                screen.update(render_frame(changed, con.width, con.height), refresh=True)
    except KeyboardInterrupt:
        return


def register(app: typer.Typer) -> None:
    """Add `watch` (Status) to the root app."""
    app.command("watch", rich_help_panel="Status")(watch)
