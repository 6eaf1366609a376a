"""`referee hand`: the group; the hand at the table (start, show, fix, showdown) here, the
rulings that need no evening (``hand_rulings``) and the equity (``equity``) added to it."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Annotated

import typer

from referee.cli.options import Json
from referee.cli.printing import say
from referee.cli.table import equity, hand_rulings, history
from referee.cli.typed_most import perform, report_change, reported
from referee.errors import BadInput

if TYPE_CHECKING:
    from referee.cli.transaction import Done


app = typer.Typer(
    help="The hand: start, show up cards, showdown; rulings: rank, compare, first, categories,"
    " odds.",
    no_args_is_help=True,
)

hand_rulings.register(app)  # rank, compare, first, categories, odds
equity.register(app)  # `hand equity` (H26-H30)
history.register(app)  # `hand history` (E135)


@app.command("start", rich_help_panel="At the table")
def start(
    open_phase: Annotated[
        bool, typer.Option("--open", help="Declare the open phase with this hand (R13).")
    ] = False,
    as_json: Json = False,
) -> None:
    """Deal a hand: every seated stakeholder with chips, and the Fool (antes when open)."""
    from referee.evening import clock  # the rulings of this group play no hand

    now = time.time()

    def answer(outcome: Done) -> None:
        before, after, events = outcome
        report_change(before, after, events, as_json)
        if not as_json and after.phase == "limit" and clock.hour_passed(after, now):  # R47
            say("[yellow]An hour has passed since the first hand: the Fool may declare the "
                "open phase (`referee open-phase`, it starts with the next hand; R13).[/]")

    perform("hand start", {"now": now, "open_phase": open_phase}, then=answer)


def _named(args: list[str], what: str) -> list[tuple[str, str]]:
    """``NAME CARDS...`` for one player, or ``NAME: CARDS ...`` for several, quoted or not:
    a word with a colon starts a player, the words after it are their cards (E27)."""

    if any(":" in a for a in args):
        out: list[tuple[str, str]] = []
        for item in args:
            if ":" in item:
                name, _, cards = item.partition(":")
                if not name.strip():
                    raise BadInput(f"bad {what} {item!r}; write NAME: CARDS for each player")
                out.append((name.strip(), cards.strip()))
            elif out:
                out[-1] = (out[-1][0], f"{out[-1][1]} {item}".strip())
            else:
                raise BadInput(f"cards {item!r} before any name; write NAME: CARDS for each "
                               f"player, e.g. `hand {what} Ada: KC KW Cy: 2S 3P`")
        return out
    if len(" ".join(args).split()) < 2:
        raise BadInput(f"give a name and cards: `hand {what} NAME CARDS`, or "
                       f"`hand {what} NAME CARDS NAME CARDS ...` for several players")
    return []  # names without colons: grouped against the evening's players (play.by_names)


@app.command("show", rich_help_panel="At the table")
def show(
    cards: Annotated[list[str], typer.Argument(
        metavar="NAME CARDS... | \"NAME: CARDS\"...",
        help="NAME's up cards so far, or +CARDS for the new ones; or several players as "
        "\"NAME: CARDS\" (all or nothing).")],
    magic: Annotated[bool, typer.Option("--magic", help="Cards changed by magic (R8).")] = False,
    as_json: Json = False,
) -> None:
    """Give up cards as they are dealt: those showing stay, `+CARDS` adds (R9, E25)."""

    items = _named(cards, "show")
    perform("hand show", {"items": items, "words": " ".join(cards).split(), "magic": magic},
            then=reported(as_json))


@app.command("fix", rich_help_panel="At the table")
def fix(
    name: str,
    old: Annotated[str, typer.Argument(help="The up card given by mistake.")],
    new: Annotated[str, typer.Argument(help="The card really showing.")],
    magic: Annotated[bool, typer.Option("--magic", help="Cards changed by magic (R8).")] = False,
    as_json: Json = False,
) -> None:
    """Correct one of NAME's up cards; says if it would have changed an opener (E25)."""

    perform("hand fix", {"who": name, "old_text": old, "new_text": new, "magic": magic},
            then=reported(as_json))


@app.command("showdown", rich_help_panel="At the table")
def showdown(
    hands: Annotated[
        list[str] | None,
        typer.Argument(help='"NAME: CARDS" for every hand still in with cards nobody has seen '
                       '(the console adds the ones it knows, R44; all seven are accepted too).')
    ] = None,
    magic: Annotated[bool, typer.Option("--magic", help="Hands changed by magic (R8).")] = False,
    keep: Annotated[
        list[str] | None,
        typer.Option("--keep", help="NAME:ARCANUM: the Duet Arcanum a player keeps; the "
                     "assistant gets the other (R27; default: the lower-numbered)."),
    ] = None,
    as_json: Json = False,
) -> None:
    """Rank every hand still in and award the main pot and each side pot (R7, R11, R15).

    Give each stakeholder's down cards nobody has seen; the console adds the cards it knows:
    up cards, hooded ones, cards a power named as theirs (E26, R44).
    """

    hands = hands or []
    named = _named(hands, "showdown") if hands else []

    perform("hand showdown", {
        "items": named, "words": " ".join(hands).split(), "magic": magic, "now": time.time(),
        "keep": keep}, then=reported(as_json))


def register(root: typer.Typer) -> None:
    """Add the `hand` group (At the table) to the root app."""
    root.add_typer(app, name="hand", rich_help_panel="At the table")
