"""`referee soul|charge`: the souls at the evening (study, guess, sell, trade, smash) and the
Charges passed between sides."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from referee.cli.options import Json
from referee.cli.powers import render_souls
from referee.cli.printing import emit_json
from referee.cli.typed_most import perform, read_state, report_change, reported
from referee.rules.cards import to_roman

if TYPE_CHECKING:
    from collections.abc import Callable

    from referee.cli.powers.render_souls import SoulListed
    from referee.cli.transaction import Done
    from referee.evening.events import EveningEvent
    from referee.evening.state import State


soul_app = typer.Typer(help="Bottled souls and own souls: study, guess, sell, trade (R19-R24).",
                       no_args_is_help=True)
charge_app = typer.Typer(help="Charges between sides, away from the table (R25).",
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

    def answer(outcome: Done) -> None:
        _, after, events = outcome
        show_study(after, events, as_json)

    perform("soul study", {"who": assistant, "soul_text": soul}, then=answer)


def show_study(after: State, events: list[EveningEvent], as_json: bool = False) -> None:
    """The answer to `soul study`: the clue learnt (R23)."""
    e = events[0]
    assert e["kind"] == "soul_studied"
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

    def answer(outcome: Done) -> None:
        _, after, events = outcome
        show_guess(after, events, as_json)

    perform("soul guess", {"who": assistant, "soul_text": soul, "name": name,
                           "arcanum": arcanum}, then=answer)


def show_guess(after: State, events: list[EveningEvent], as_json: bool = False) -> None:
    """The answer to `soul guess`: what was right, the Charges earned, the guesses left (R24)."""
    e = events[0]
    assert e["kind"] == "soul_guessed"
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

    perform("soul auction", {"seller_text": seller, "soul_text": soul, "withdraw": withdraw},
            then=reported(as_json))


def show_bid(before: State, after: State, events: list[EveningEvent]) -> None:
    """The answer to `soul bid`: the change it made (R20)."""
    report_change(before, after, events, False)


#: The answer of each move a phone may ask for (R46), as its command gives it.
ANSWERS: dict[str, Callable[[State, State, list[EveningEvent]], None]] = {
    "soul study": lambda before, after, events: show_study(after, events),
    "soul guess": lambda before, after, events: show_guess(after, events),
    "soul bid": show_bid,
}


@soul_app.command("bid")
def soul_bid(
    buyer: str,
    chips: Annotated[str | None, typer.Argument(metavar="[COLOUR:N[,COLOUR:N]]",
                                                help="Chips bid.", show_default=False)] = None,
    promise: Annotated[str | None, typer.Option("--promise", help="A promise bid.")] = None,
    as_json: Json = False,
) -> None:
    """BUYER bids at the open auction: chips, a promise, or both (R20)."""

    perform("soul bid", {"buyer_text": buyer, "chips_text": chips, "promise": promise},
            then=reported(as_json))


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

    perform("soul sell", {"seller_text": seller, "soul_text": soul, "buyer_text": buyer,
                          "chips_text": chips, "promise": promise},
            then=reported(as_json))


@soul_app.command("force-trade")
def soul_force_trade(
    seller: str,
    with_: Annotated[str | None, typer.Option("--with", help="Pick among tied holders.")] = None,
    as_json: Json = False,
) -> None:
    """SELLER ends the auction of their own soul with a forced trade: to the largest holder of
    their colour, for those chips (R21)."""

    perform("soul force-trade", {"seller_text": seller, "with_text": with_}, then=reported(as_json))


@soul_app.command("buyout")
def soul_buyout(buyer: str, stakeholder: str, as_json: Json = False) -> None:
    """BUYER, controlling all ten of STAKEHOLDER's chips, buys their soul with them (R21)."""

    perform("soul buyout", {"buyer_text": buyer, "owner_text": stakeholder}, then=reported(as_json))


@soul_app.command("decline")
def soul_decline(buyer: str, stakeholder: str, as_json: Json = False) -> None:
    """BUYER declines to buy STAKEHOLDER's soul; STAKEHOLDER may then resign (R17)."""

    perform("soul decline", {"buyer_text": buyer, "owner_text": stakeholder},
            then=reported(as_json))


@soul_app.command("smash")
def soul_smash(holder: str, soul: str, as_json: Json = False) -> None:
    """HOLDER, attacked away from the table by the soul's owner, smashes it: the owner dies
    (R22)."""

    perform("soul smash", {"holder_text": holder, "soul_text": soul},
            then=reported(as_json))


@soul_app.command("consume")
def soul_consume(
    holder: str,
    soul: str,
    arcanum: Annotated[str, typer.Option("--arcanum", help="The Arcanum to gain a point in.")],
    as_json: Json = False,
) -> None:
    """HOLDER swallows SOUL: one status point in an Arcanum of their choice (R27)."""

    perform("soul consume", {"holder_text": holder, "soul_text": soul, "arcanum": arcanum},
            then=reported(as_json))


@soul_app.command("give")
def soul_give(source: Annotated[str, typer.Argument(metavar="FROM")],
              target: Annotated[str, typer.Argument(metavar="TO")],
              soul: str, as_json: Json = False) -> None:
    """FROM gives SOUL to TO, both away from the table (the Law, R16)."""

    perform("soul give", {"source": source, "target": target, "soul_text": soul},
            then=reported(as_json))


@charge_app.command("give")
def charge_give(source: Annotated[str, typer.Argument(metavar="FROM")],
                target: Annotated[str, typer.Argument(metavar="TO")],
                n: int, as_json: Json = False) -> None:
    """FROM's side gives N Charges to TO's side, away from the table (R16, R25)."""

    perform("charge give", {"source": source, "target": target, "n": n},
            then=reported(as_json))


def register(app: typer.Typer) -> None:
    app.add_typer(soul_app, name="soul", rich_help_panel="Souls, Charges, powers")
    app.add_typer(charge_app, name="charge", rich_help_panel="Souls, Charges, powers")
