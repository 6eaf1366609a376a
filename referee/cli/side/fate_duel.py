"""`referee fate duel`: pistols and swords, one command per phase (Card of Fate; F10, F11, F18)."""

from __future__ import annotations

from typing import Annotated

import typer

from referee.cli.side.fate_run import (
    Calms,
    CardsA,
    CardsB,
    Cof,
    Comps,
    Deck,
    Gates,
    Json,
    Many,
    Seed,
    run,
    tup,
    typed,
    write,
)

duel_app = typer.Typer(
    help="Duels, one command per phase: pistols (Fire, Aim, Stand, Beg, Mercy) or swords.",
    no_args_is_help=True,
)

# -- duels --------------------------------------------------------------------------------------

AWeapon = Annotated[str | None, typer.Option(
    "--a-weapon", help="A's weapon: an item or a number (pistols: the duelling pistol, 3; "
    "swords: A's usual weapon, else 3, F27).")]
BWeapon = Annotated[str | None, typer.Option("--b-weapon", help="B's weapon.")]
ATrait = Annotated[Many, typer.Option(
    "--a-trait", help="A's Trait that applies (swords: A's usual fight Traits, F27; \"\" for "
    "none).")]
BTrait = Annotated[Many, typer.Option("--b-trait", help="B's Trait that applies.")]


@duel_app.command("pistols")
def duel_pistols(
    a_name: Annotated[str, typer.Argument(metavar="A", help="Duellist a.")],
    b_name: Annotated[str, typer.Argument(metavar="B", help="Duellist b.")],
    a_weapon: AWeapon = None, b_weapon: BWeapon = None, a_trait: ATrait = None,
    b_trait: BTrait = None, gate: Gates = None, seed: Seed = None, deck_: Deck = None,
    as_json: Json = False,
) -> None:
    """Start a pistol duel: four phases; then `fate duel phase CHOICE_A CHOICE_B` (F10)."""
    write("fate duel pistols", {
        "kind": "pistols", "a": a_name, "b": b_name, "a_weapon": a_weapon, "b_weapon": b_weapon,
        "a_traits": tup(a_trait), "b_traits": tup(b_trait), "seed": seed, "deck": deck_,
        "typed": typed(None, None, None, gate)}, as_json)


@duel_app.command("swords")
def duel_swords(
    a_name: Annotated[str, typer.Argument(metavar="A", help="Duellist a.")],
    b_name: Annotated[str, typer.Argument(metavar="B", help="Duellist b.")],
    to: Annotated[str, typer.Option("--to", help="first-blood, surrender or death.")]
    = "first-blood",
    a_weapon: AWeapon = None, b_weapon: BWeapon = None, a_trait: ATrait = None,
    b_trait: BTrait = None, gate: Gates = None, seed: Seed = None, deck_: Deck = None,
    as_json: Json = False,
) -> None:
    """Start a sword duel; then `fate duel round` until it ends (F11). Each fights with
    their usual weapon and fight Traits unless told otherwise (F24, F27)."""
    write("fate duel swords", {
        "kind": "swords", "a": a_name, "b": b_name, "to": to, "a_weapon": a_weapon,
        "b_weapon": b_weapon, "a_traits": tup(a_trait), "b_traits": tup(b_trait), "seed": seed,
        "deck": deck_, "typed": typed(None, None, None, gate)}, as_json)


@duel_app.command("phase")
def duel_phase(
    choice_a: Annotated[str, typer.Argument(
        metavar="CHOICE_A", help="a's option: fire, aim, stand, beg[:REPUTATION], mercy "
        "(first letter is enough); or NAME=OPTION in any order.")],
    choice_b: Annotated[str, typer.Argument(metavar="CHOICE_B", help="b's option.")],
    cof: Cof = None, a: CardsA = None, b: CardsB = None, calm: Calms = None,
    complication: Comps = None, as_json: Json = False,
) -> None:
    """Play one pistol phase with both duellists' choices (F10); the cards may be typed in:
    --calm for Aim and Stand, --cof/--a/--b for the shots: each duellist's cards in their own
    option, and for a lone shot the static side's cards in the other duellist's (b fires
    alone: --b her shot, --a the static side); --complication for a Maimed Health (F20)."""
    write("fate duel phase", {"choice_a": choice_a, "choice_b": choice_b,
                              "typed": typed(cof, a, b, None, calm, complication)}, as_json)


@duel_app.command("round")
def duel_round(cof: Cof = None, a: CardsA = None, b: CardsB = None, complication: Comps = None,
               as_json: Json = False) -> None:
    """Play one round of the sword duel (F11); --cof/--a/--b type the cards in (F20)."""
    write("fate duel round", {"typed": typed(cof, a, b, None, None, complication)}, as_json)


@duel_app.command("surrender")
def duel_surrender(
    name: Annotated[str, typer.Argument(help="The duellist who yields.")],
    as_json: Json = False,
) -> None:
    """A sword duellist yields at the end of a round, never before the first, and loses
    (F11)."""
    write("fate duel surrender", {"name": name}, as_json)


@duel_app.command("end")
def duel_end(
    why: Annotated[str, typer.Option("--why", help="What stopped it.")] = "stopped by the Host",
    as_json: Json = False,
) -> None:
    """Stop the duel under way without a winner."""
    write("fate duel end", {"why": why}, as_json)


@duel_app.command("show")
def duel_show(as_json: Json = False) -> None:
    """The duel under way (or the last one) and the options open now."""
    from referee.rules.fate.duel import duel_view  # as in referee.cli.side.fate: not at the top

    run(duel_view, as_json)
