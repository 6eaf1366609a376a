"""`referee hand start|show|showdown`: the hand at the table, added to the `hand` group."""

from __future__ import annotations

import time
from typing import Annotated

import typer

from referee.cli.common import say
from referee.cli.evening import Json, report_change, run
from referee.cli.hand import app


@app.command("start", rich_help_panel="At the table")
def start(
    open_phase: Annotated[
        bool, typer.Option("--open", help="Declare the open phase with this hand (R13).")
    ] = False,
    as_json: Json = False,
) -> None:
    """Deal a hand: every seated stakeholder with chips, and the Fool (antes when open)."""
    from referee.evening import commands

    now = time.time()
    before, after, events = run("hand start" + (" --open" if open_phase else ""),
                                lambda s: commands.start_hand(s, now=now, open_phase=open_phase))
    report_change(before, after, events, as_json)
    if not as_json and after.phase == "limit" and commands.hour_passed(after, now):

        say("[yellow]An hour has passed since the first hand: the Fool may declare the "
                   "open phase (`referee open-phase`, it starts with the next hand; R13).[/]")


@app.command("show", rich_help_panel="At the table")
def show(
    name: str,
    cards: Annotated[list[str], typer.Argument(help="All of NAME's face-up cards so far.")],
    magic: Annotated[bool, typer.Option("--magic", help="Cards changed by magic (R8).")] = False,
    as_json: Json = False,
) -> None:
    """Give NAME's face-up cards so far (replacing the last); decides who opens (R9)."""
    from referee.evening import commands

    text = " ".join(cards)
    before, after, events = run(f"hand show {name} {text}",
                                lambda s: commands.show(s, name, text, magic=magic))
    report_change(before, after, events, as_json)


@app.command("showdown", rich_help_panel="At the table")
def showdown(
    hands: Annotated[
        list[str], typer.Argument(help='"NAME: CARDS" for every player still in, the Fool too.')
    ],
    magic: Annotated[bool, typer.Option("--magic", help="Hands changed by magic (R8).")] = False,
    keep: Annotated[
        list[str] | None,
        typer.Option("--keep", help="NAME:ARCANUM: the Duet Arcanum a player keeps; the "
                     "assistant gets the other (R27; default: the lower-numbered)."),
    ] = None,
    as_json: Json = False,
) -> None:
    """Rank every hand still in and award the main pot and each side pot (R7, R11, R15)."""
    from referee.evening import commands

    parsed: list[tuple[str | None, str]] = []
    for item in hands:
        name, sep, cards = item.partition(":")
        parsed.append((name.strip(), cards) if sep else (None, item))
    text = "hand showdown " + " ".join(f'"{h}"' for h in hands)
    text += "".join(f" --keep {k}" for k in keep or [])
    before, after, events = run(text,
                                lambda s: commands.showdown(s, parsed, magic=magic,
                                                            now=time.time(), keep=keep))
    report_change(before, after, events, as_json)
