"""`referee power`: the powers of the Major Arcana, taken from a face-down major, used at
their moment, listed and read aloud (R26, S11)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from referee.cli import context
from referee.cli.options import Json
from referee.cli.powers import render_souls
from referee.cli.printing import emit_json
from referee.cli.typed_most import perform, read_state, report_change
from referee.errors import IllegalAction
from referee.evening.powers import use as powers
from referee.evening.powers.effects import spent
from referee.names import match_name
from referee.rules.cards import parse_card, to_roman

if TYPE_CHECKING:
    from referee.cli.powers.render_souls import PowerListed
    from referee.cli.transaction import Done
    from referee.evening.events import PowerSpec
    from referee.evening.state import State


power_app = typer.Typer(help="Powers of the Major Arcana: access, use, list, show (R26).",
                        no_args_is_help=True)


@power_app.command("access")
def power_access(
    name: str,
    card: str,
    orientation: Annotated[str, typer.Argument(metavar="upright|reversed")],
    as_json: Json = False,
) -> None:
    """NAME slides face-down major CARD to the Fool for its upright or reversed power (R26)."""
    def answer(outcome: Done) -> None:
        _, after, events = outcome
        e = events[0]
        spec = powers.power_spec(after, e["rank"], e["orientation"])
        if as_json:
            emit_json({"granted": e["granted"], "power": spec["name"] if e["granted"] else None,
                       "depleted": e["depleted"]})
            return
        render_souls.access(e, spec)

    perform("power access", {"who": name, "card_text": card, "orientation": orientation},
            then=answer)


Cards = Annotated[list[str] | None, typer.Option(
    "--card", help="The card the power works on; repeat it for two (Hold Fast, Mingling the "
    "Waters), or give NAME:CARD for each stakeholder (The Last Trumpet).")]


@power_app.command("use")
def power_use(
    name: str,
    power: str,
    target: Annotated[str | None, typer.Option(
        "--target", help="The other stakeholder the power is used on (never the Fool).")] = None,
    card: Cards = None,
    new: Annotated[str | None, typer.Option(
        "--new", help="The new card: from the deck (Onward, Lightning Strike), the other's up "
        "card taken (Exchange of Vows), the user's own card turned up (Weighed in the "
        "Balance).")] = None,
    as_card: Annotated[str | None, typer.Option(
        "--as", help="The card it counts as until the hand ends (magic, R8).")] = None,
    action: Annotated[str | None, typer.Option(
        "--action", help="The action forced (Compulsion), or the bet or raise made with the "
        "power (Iron Rule); in the open phase with its chips as `raise` reads them: "
        "'raise 5', 'bet all' (E163).")] = None,
    fold: Annotated[list[str] | None, typer.Option(
        "--fold", help="The Reaper's Toll: a stakeholder who folds rather than pay.")] = None,
    seed: Annotated[int | None, typer.Option(
        "--seed", help="Downfall: the seed of the random draw, to repeat one.")] = None,
    access: Annotated[str | None, typer.Option(
        "--access", metavar="CARD", help="Slide this face-down major to the Fool for POWER "
        "first, in the same act: how an answer is taken at its moment (R38).")] = None,
    as_json: Json = False,
) -> None:
    """NAME uses POWER at its moment, paying its Charges; the console applies its effect
    and says it in one line (R26, S11). POWER is its name, a word of it, or its card (E55);
    `referee --explain power use ...` reads the power's text too."""
    # --access: slid in the same act (R38); Downfall's draw is put in the logged words, so
    # that retyping them draws the same power (``power_moves.drawn``)
    def answer(outcome: Done) -> None:
        before, after, events = outcome
        report_change(before, after, events, as_json)
        if not as_json and context.current().explain:
            used = next(e for e in events if e["kind"] == "power_used")
            render_souls.power_text(powers.find_power(after, used["power"]), indent="  ")

    perform("power use", {
        "who": name, "power_text": power, "access_card": access, "target": target,
        "cards": tuple(card or ()), "new": new, "as_card": as_card, "action": action,
        "folds": tuple(fold or ()), "seed": seed}, then=answer)


@power_app.command("list")
def power_list(as_json: Json = False) -> None:
    """Every power: available, held by whom, used; and the depleted cards."""
    state = read_state()
    rows = [_power_row(state, p, p["key"].split("-")[0]) for p in powers.powers(state)]

    depleted = [to_roman(n) for n in range(22) if powers.depleted(state, n)]
    if as_json:
        emit_json({"powers": rows, "depleted": depleted})
        return

    render_souls.power_table(rows, depleted)


@power_app.command("show")
def power_show(
    card: str,
    orientation: Annotated[str | None, typer.Argument(metavar="[upright|reversed]")] = None,
    as_json: Json = False,
) -> None:
    """The power of major CARD (both ways, or one), with its name and text, to read aloud (R26)."""
    state = read_state()
    major = parse_card(card)
    if not major.is_major:
        raise IllegalAction(f"{major.name} is a minor card; only the Major Arcana hold powers, "
                            "0 to XXI (R26)", ruling="R26")
    ways = ["upright", "reversed"]
    if orientation is not None:
        ways = [match_name(orientation, ways, "orientation")]
    rows = [_power_row(state, powers.power_spec(state, major.rank, way), major.short)
            for way in ways]  # as `power list --json`
    if as_json:
        emit_json(rows)
        return

    render_souls.power_table(rows, None)


def _power_row(state: State, spec: PowerSpec, card: str) -> PowerListed:
    """A power for `power list` and `power show`: its words and what became of it (E57)."""
    held = state.powers.get(spec["key"])
    return {"key": spec["key"], "card": card, "orientation": spec["orientation"],
            "name": spec["name"], "charges": spec["charges"], "when": spec["when"],
            "text": spec["text"], "available": held is None,
            "holder": held["holder"] if held else None,
            "used": bool(held and held.get("used")), "spent": spent(held) if held else None}


def register(app: typer.Typer) -> None:
    app.add_typer(power_app, name="power", rich_help_panel="Souls, Charges, powers")
