"""`referee count`: what lies on the table against the books, recorded as a count (E130-E132)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from referee.cli.printing import emit_json, lit, say
from referee.cli.transaction import perform
from referee.names import plural

if TYPE_CHECKING:
    from referee.cli.transaction import Done
    from referee.evening.events import ChipsCounted


def count(
    words: Annotated[list[str], typer.Argument(
        metavar="NAME COLOUR:N ... [pot:N]",
        help="Whose chips, then what lies there by colour; NAME:N (pot:4) for a total.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")] = False,
) -> None:
    """Count the chips in front of people and in the pot against the books, colour by colour:
    each difference is named with the moves that last touched it, and the count is recorded
    (E130). Nothing is corrected: `chips settle ... --why` is the ruling (E132)."""

    def answer(outcome: Done) -> None:
        _, _, events = outcome
        event = events[0]
        if as_json:
            emit_json(event)
            return
        _say_count(event)

    perform("count", {"words": words}, then=answer)


def _say_count(event: ChipsCounted) -> None:
    counted = event["counted"]
    diff = event["differences"]
    if not diff:
        names = ", ".join(lit(h) for h in counted)
        say(f"The count agrees with the books: {names}. Recorded as a count (E130).")
        return
    for d in diff:
        what = "chips in all" if d["colour"] is None else lit(d["colour"])
        moves = d.get("moves") or []
        last = ("; last touched by " + ", ".join(f"`{lit(m)}`" for m in moves)) if moves else ""
        say(f"{lit(d['holder'])}: {d['counted']} {what} counted, the books say "
            f"{d['books']}{last} (E131).")
    agree = [h for h in counted if all(d["holder"] != h for d in diff)]
    if agree:
        say("Agrees with the books: " + ", ".join(lit(h) for h in agree) + ".")
    say(f"{plural(len(diff), 'difference')}, recorded as a count (E130); nothing was corrected: "
        "`referee chips settle FROM TO COLOUR:N --why TEXT` is the referee's ruling (E132).")


def register(app: typer.Typer) -> None:
    app.command("count", rich_help_panel="Chips and seats")(count)
