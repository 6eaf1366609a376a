"""`referee hand equity`: who is ahead on what is showing (H26-H30), added to the `hand` group.

Read-only: the evening is opened as every read command opens it. numpy and the engine
(``referee.rules.equity``) are imported inside the command only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import typer

from referee.cli.context import console
from referee.cli.options import Json
from referee.cli.printing import emit_json, lit, say
from referee.cli.typed_most import read_state

if TYPE_CHECKING:
    from referee.evening.equity import EquityView


def equity(as_json: Json = False) -> None:
    """Each live player's chance to win the hand and each pot, from the up cards alone.

    Every unseen card is dealt over the rest of the deck: exact when the deals are few,
    else sampled to within 0.5 points, 95 times in 100 (H26-H30). Ties count as shares.
    """
    from referee.evening.equity import equity_view  # numpy and the engine: this command's

    view = equity_view(read_state())
    if as_json:
        emit_json(view)
        return
    _render(view)


def _percent(chance: float, exact: bool) -> str:
    """``41.2%``; a chance that rounds away shows as ``<0.1%`` or ``>99.9%``: only a count
    of every deal says ``0%`` or ``100%`` (a sample never seeing a win proves no zero)."""
    if exact and chance in (0, 1):
        return f"{100 * chance:.0f}%"
    if chance < 0.0005:
        return "<0.1%"
    if chance > 0.9995:
        return ">99.9%"
    return f"{100 * chance:.1f}%"


def _render(view: EquityView) -> None:
    from rich.table import Table  # (as above; rich for the human table only)

    from referee.evening.equity import summary

    when = "after the betting" if view["betting_over"] else f"round {view['street']}"
    say(lit(f"Hand {view['hand']}, {when}: who is ahead on what is showing"))
    table = Table()
    table.add_column("Player")
    table.add_column("Showing")
    table.add_column("To come", justify="right")
    table.add_column("Hand", justify="right")
    pots = view["pots"]
    exact = view["method"] == "exact"
    for pot in pots:
        table.add_column(f"{pot['name']} ({pot['size']})", justify="right")
    for player in view["players"]:
        name = player["name"]
        shown = " ".join(player["showing"]) or "-"
        if player["counts"] != player["showing"]:  # a dead card, magic (H28)
            shown += f" (counting {' '.join(player['counts']) or 'nothing'})"
        row = [lit(name + (" (Fool)" if player["fool"] else "")), lit(shown),
               str(player["to_come"]),
               _percent(player["hand"], exact)]
        row += [_percent(pot["chances"][name], exact) if name in pot["chances"] else "-"
                for pot in pots]
        table.add_row(*row)
    console().print(table)
    say(lit(summary(view)))
    for note in view["notes"]:
        say(lit(f"Note: {note}"))


def register(app: typer.Typer) -> None:
    """Add `hand equity` to the `hand` group."""
    app.command("equity", rich_help_panel="At the table")(equity)
