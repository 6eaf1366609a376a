"""`referee soul|charge|power|points|promotions`: everything at the evening that is not money."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from referee.cli import render_souls
from referee.cli.bodies import read_state, report_change, run
from referee.cli.options import Json
from referee.cli.output import emit_json
from referee.errors import IllegalAction
from referee.jsontypes import JSONObject
from referee.names import match_name
from referee.rules.cards import parse_card, to_roman

if TYPE_CHECKING:
    from referee.cli.render_souls import PowerListed, SoulListed
    from referee.evening.events import EveningEvent, PowerSpec
    from referee.evening.state import State


soul_app = typer.Typer(help="Bottled souls and own souls: study, guess, sell, trade (R19-R24).",
                       no_args_is_help=True)
charge_app = typer.Typer(help="Charges between sides, away from the table (R25).",
                         no_args_is_help=True)
power_app = typer.Typer(help="Powers of the Major Arcana: access, use, list, show (R26).",
                        no_args_is_help=True)


@soul_app.command("list")
def soul_list(
    reveal: Annotated[bool, typer.Option("--reveal", help="Add identities and Arcana (GM only).")
                      ] = False,
    as_json: Json = False,
) -> None:
    """Every soul: who holds it, bottled or own, destroyed; secrets only with --reveal."""
    state = read_state()
    rows: list[SoulListed] = []
    for soul in state.souls:
        # The `soul list --json` contract: exactly these keys (identity and Arcanum with --reveal).
        row: SoulListed = {"soul": soul.key, "kind": soul.kind, "holder": soul.holder,
                                  "destroyed": soul.destroyed is not None}
        if reveal:
            row["identity"] = soul.identity
            row["arcanum"] = to_roman(soul.arcanum)
        rows.append(row)
    if as_json:
        emit_json(rows)
        return

    for row in rows:  # the table also says whether a bottled soul has been named (R24)
        row["identified"] = row["kind"] == "own" or any(
            g["soul"] == row["soul"] and g["result"]["name"] == "correct" for g in state.guesses)
    render_souls.soul_table(state, rows, reveal)


@soul_app.command("study")
def soul_study(assistant: str, soul: str, as_json: Json = False) -> None:
    """ASSISTANT studies SOUL (held by their side) and learns the next clue (R23)."""
    from referee.evening import souls  # the soul and charge commands only

    _, after, events = run(lambda s: souls.study(s, assistant, soul))
    e = events[0]
    if as_json:
        emit_json({"clue": e["clue"], "remaining": e["of"] - e["n"]})
        return

    render_souls.clue(e)


@soul_app.command("guess")
def soul_guess(
    assistant: str,
    soul: str,
    name: Annotated[str | None, typer.Option("--name", help="Who the soul was.")] = None,
    arcanum: Annotated[str | None, typer.Option("--arcanum", help="Its attuned Arcanum.")
                       ] = None,
    as_json: Json = False,
) -> None:
    """ASSISTANT guesses SOUL's name and/or Arcanum; three guesses per soul (R24)."""
    from referee.evening import souls  # the soul and charge commands only

    _, after, events = run(lambda s: souls.guess(s, assistant, soul, name, arcanum))
    e = events[0]
    if as_json:
        emit_json({"name": e["result"]["name"], "arcanum": e["result"]["arcanum"],
                   "charges_earned": e["charges"], "guesses_left": e["left"]})
        return

    render_souls.guess(e, after)


@soul_app.command("auction")
def soul_auction(
    seller: str,
    soul: Annotated[str | None, typer.Argument(help="The soul put up (the seller's own: their "
                                               "name).", show_default=False)] = None,
    withdraw: Annotated[bool, typer.Option("--withdraw", help="End the open auction unsold.")
                        ] = False,
    as_json: Json = False,
) -> None:
    """SELLER announces an auction of SOUL, held by them or their assistant (R20, R21)."""
    from referee.evening import souls  # the soul and charge commands only

    report_change(*run(lambda s: souls.auction(s, seller, soul, withdraw=withdraw)), as_json)


@soul_app.command("bid")
def soul_bid(
    buyer: str,
    chips: Annotated[str | None, typer.Argument(metavar="[COLOUR:N[,COLOUR:N]]",
                                                help="Chips bid.", show_default=False)] = None,
    promise: Annotated[str | None, typer.Option("--promise", help="A promise bid.")] = None,
    as_json: Json = False,
) -> None:
    """BUYER bids at the open auction: chips, a promise, or both (R20)."""
    from referee.evening import souls  # the soul and charge commands only

    report_change(*run(lambda s: souls.bid(s, buyer, chips, promise)), as_json)


@soul_app.command("sell")
def soul_sell(
    seller: str,
    soul: str,
    buyer: str,
    chips: Annotated[str | None, typer.Option("--chips", help="Winning bid, COLOUR:N[,...].")
                     ] = None,
    promise: Annotated[str | None, typer.Option("--promise", help="Promises accepted.")] = None,
    as_json: Json = False,
) -> None:
    """SOUL goes from SELLER to BUYER for the winning bid, closing the auction (R20); with no
    bid named, BUYER's last bid at the open auction."""
    from referee.evening import souls  # the soul and charge commands only

    report_change(*run(lambda s: souls.sell(s, seller, soul, buyer, chips, promise)), as_json)


@soul_app.command("force-trade")
def soul_force_trade(
    seller: str,
    with_: Annotated[str | None, typer.Option("--with", help="Pick among tied holders.")] = None,
    as_json: Json = False,
) -> None:
    """SELLER ends the auction of their own soul with a forced trade: to the largest holder of
    their colour, for those chips (R21)."""
    from referee.evening import souls  # the soul and charge commands only

    report_change(*run(lambda s: souls.force_trade(s, seller, with_)), as_json)


@soul_app.command("buyout")
def soul_buyout(buyer: str, stakeholder: str, as_json: Json = False) -> None:
    """BUYER, controlling all ten of STAKEHOLDER's chips, buys their soul with them (R21)."""
    from referee.evening import souls  # the soul and charge commands only

    report_change(*run(lambda s: souls.buyout(s, buyer, stakeholder)), as_json)


@soul_app.command("decline")
def soul_decline(buyer: str, stakeholder: str, as_json: Json = False) -> None:
    """BUYER declines to buy STAKEHOLDER's soul; STAKEHOLDER may then resign (R17)."""
    from referee.evening import souls  # the soul and charge commands only

    report_change(*run(lambda s: souls.decline(s, buyer, stakeholder)), as_json)


@soul_app.command("smash")
def soul_smash(holder: str, soul: str, as_json: Json = False) -> None:
    """HOLDER, attacked away from the table by the soul's owner, smashes it: the owner dies
    (R22)."""
    from referee.evening import souls  # the soul and charge commands only

    report_change(*run(lambda s: souls.smash(s, holder, soul)),
                  as_json)


@soul_app.command("consume")
def soul_consume(
    holder: str,
    soul: str,
    arcanum: Annotated[str, typer.Option("--arcanum", help="The Arcanum to gain a point in.")],
    as_json: Json = False,
) -> None:
    """HOLDER swallows SOUL: one status point in an Arcanum of their choice (R27)."""
    from referee.evening import souls  # the soul and charge commands only

    report_change(*run(lambda s: souls.consume(s, holder, soul, arcanum)), as_json)


@soul_app.command("give")
def soul_give(source: Annotated[str, typer.Argument(metavar="FROM")],
              target: Annotated[str, typer.Argument(metavar="TO")],
              soul: str, as_json: Json = False) -> None:
    """FROM gives SOUL to TO, both away from the table (the Law, R16)."""
    from referee.evening import souls  # the soul and charge commands only

    report_change(*run(lambda s: souls.give_soul(s, source, target, soul)), as_json)


@charge_app.command("give")
def charge_give(source: Annotated[str, typer.Argument(metavar="FROM")],
                target: Annotated[str, typer.Argument(metavar="TO")],
                n: int, as_json: Json = False) -> None:
    """FROM's side gives N Charges to TO's side, away from the table (R16, R25)."""
    from referee.evening import souls  # the soul and charge commands only

    report_change(*run(lambda s: souls.give_charges(s, source, target, n)), as_json)


@power_app.command("access")
def power_access(
    name: str,
    card: str,
    orientation: Annotated[str, typer.Argument(metavar="upright|reversed")],
    as_json: Json = False,
) -> None:
    """NAME slides face-down major CARD to the Fool for its upright or reversed power (R26)."""
    from referee.evening.powers import use as powers  # the power commands only (~7 ms)

    _, after, events = run(lambda s: powers.access(s, name, card, orientation))
    e = events[0]
    spec = powers.power_spec(after, e["rank"], e["orientation"])
    if as_json:
        emit_json({"granted": e["granted"], "power": spec["name"] if e["granted"] else None,
                   "depleted": e["depleted"]})
        return

    render_souls.access(e, spec)


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
        "power (Iron Rule).")] = None,
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
    (R26, S11). POWER is its name, a word of it, or its card (E55)."""
    from referee.evening.powers import use as powers  # the power commands only (~7 ms)

    extra: JSONObject = {}

    def build(s: State) -> list[EveningEvent]:
        events = powers.use_power(s, name, power, target=target, cards=card or (), new=new,
                                  as_card=as_card, action=action, folds=fold or (), seed=seed,
                                  access_card=access)
        drawn = [e["seed"] for e in events if e["kind"] == "power_used" and "seed" in e]
        if drawn:  # Downfall's draw: retyping the logged line draws the same power
            extra["seed"] = drawn[0]
        return events

    before, after, events = run(build, extra)
    report_change(before, after, events, as_json)
    if not as_json:  # the power's words, for the GM to read to the player
        used = next(e for e in events if e["kind"] == "power_used")
        render_souls.power_text(powers.find_power(after, used["power"]), indent="  ")


@power_app.command("list")
def power_list(as_json: Json = False) -> None:
    """Every power: available, held by whom, used; and the depleted cards."""
    from referee.evening.powers import use as powers  # the power commands only (~7 ms)

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
    from referee.evening.powers import use as powers  # the power commands only (~7 ms)

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
    from referee.evening.powers.effects import spent  # power list and show only

    held = state.powers.get(spec["key"])
    return {"key": spec["key"], "card": card, "orientation": spec["orientation"],
            "name": spec["name"], "charges": spec["charges"], "when": spec["when"],
            "text": spec["text"], "available": held is None,
            "holder": held["holder"] if held else None,
            "used": bool(held and held.get("used")), "spent": spent(held) if held else None}


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
    from referee.evening import points as pts  # points and promotions only

    state = read_state()
    if as_json:
        emit_json(pts.points_detail(state, reveal=reveal) if detail
                  else pts.points_json(state, reveal=reveal))
        return

    render_souls.points(state, reveal=reveal)


def promotions(reveal: Reveal = False, as_json: Json = False) -> None:
    """Every promotion claim that would succeed now, vacant or contested (R28); one that a
    soul's secret Arcanum takes part in only with --reveal (E43)."""
    from referee.evening import points as pts  # points and promotions only

    state = read_state()
    claims = pts.promotions(state, reveal=reveal)
    if as_json:
        emit_json(claims)
        return
    from referee.report import claims_of  # the human table only (~4 ms)

    render_souls.promotions(claims_of(claims))


def register(app: typer.Typer) -> None:
    app.add_typer(soul_app, name="soul", rich_help_panel="Souls, Charges, powers")
    app.add_typer(charge_app, name="charge", rich_help_panel="Souls, Charges, powers")
    app.add_typer(power_app, name="power", rich_help_panel="Souls, Charges, powers")
    app.command("points", rich_help_panel="Status")(points)
    app.command("promotions", rich_help_panel="Status")(promotions)
