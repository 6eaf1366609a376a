"""`referee points|promotions`: the Arcana status points and the claims they would carry now
(R27, R28, E43)."""

from __future__ import annotations

from typing import Annotated

import typer

from referee.cli.options import Json
from referee.cli.powers import render_souls
from referee.cli.printing import emit_json
from referee.cli.typed_most import read_state
from referee.evening import points as pts

Reveal = Annotated[bool, typer.Option(
    "--reveal", help="Show the Arcana of souls nobody has found yet (GM only, E43).")]


def points(
    detail: Annotated[bool, typer.Option("--detail", help="Every point with its source.")
                      ] = False,
    reveal: Reveal = False,
    as_json: Json = False,
) -> None:
    """Arcana status points per person per Arcanum, and where each came from (R27). A held
    soul's points stand under "?" while nobody has found its Arcanum (E43)."""
    state = read_state()
    if as_json:
        emit_json(pts.points_detail(state, reveal=reveal) if detail
                  else pts.points_json(state, reveal=reveal))
        return

    render_souls.points(state, reveal=reveal)


def promotions(reveal: Reveal = False, as_json: Json = False) -> None:
    """Every promotion claim that would succeed now, vacant or contested (R28); one that a
    soul's secret Arcanum takes part in only with --reveal (E43)."""
    state = read_state()
    claims = pts.promotions(state, reveal=reveal)
    if as_json:
        emit_json(claims)
        return
    from referee.report import claims_of  # the human table only (~4 ms)

    render_souls.promotions(claims_of(claims))


def register(app: typer.Typer) -> None:
    app.command("points", rich_help_panel="Status")(points)
    app.command("promotions", rich_help_panel="Status")(promotions)
