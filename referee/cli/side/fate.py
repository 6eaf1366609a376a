"""`referee fate`: the Card of Fate, away from the table (R35-R37, F1-F18).

Thin shell over ``referee.rules.fate``: a command that may record is a move of the table's
API (``fate_run.write``; the moves are ``referee.rules.fate.moves``), which records its events
(if any) under the command's words; one that only shows calls one pure function on the
``fate`` stream read only (``fate_run.run``); both print the rules' lines.
The rules (~10 ms) are imported inside each command that uses them: `fate log` reads the
lines stored with each command and does without them, and importing this module stays
light (no rules, rich or store: ``tests/cli/test_fate_cli.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, TypedDict

import typer

from referee.cli.context import console, db_path
from referee.cli.printing import emit_json, lit
from referee.cli.side.fate_duel import duel_app
from referee.cli.side.fate_run import (
    STREAM,
    CardsA,
    CardsB,
    Cof,
    Comps,
    Deck,
    Gates,
    Json,
    Many,
    Seed,
    read_state,
    run,
    tup,
    typed,
    write,
)
from referee.cli.side.side_log import add_log
from referee.cli.transaction import add_undo_redo
from referee.errors import BadInput
from referee.names import match_name

if TYPE_CHECKING:
    from referee.rules.fate import FateData, Outcome
    from referee.rules.fate.sheet import Char

app = typer.Typer(
    help="Card of Fate: characters, tests, fights, duels, drinking and healing (R35-R37).",
    no_args_is_help=True,
)
char_app = typer.Typer(help="Characters: create, show, list, edit.", no_args_is_help=True)
app.add_typer(char_app, name="char")
app.add_typer(duel_app, name="duel")

Weapon = Annotated[str | None, typer.Option(
    "--weapon", help="Usual weapon: one of the items or a number; `fate fight` uses it unless "
    "--a-weapon/--b-weapon say otherwise (\"\" clears) (F24).")]
FightTraits = Annotated[Many, typer.Option(
    "--fight-trait", help="A Trait the character usually fights with (F24); \"\" clears.")]

Static = Annotated[str | None, typer.Option(
    "--static", help="Static opposition: routine 3, challenging 5, damned-hard 7, heroic 9 "
    "(the name or the number; another number is that many cards, F28).")]


def _player(player: str | None) -> str | None:
    """A character's player: a person of the evening when there is one (matched by prefix,
    near misses suggested), else free text."""
    if not player:
        return player
    from referee.storage.store import open_evening  # as the rules, not at the top

    with open_evening(db_path(), write=False) as ev:
        evening = ev.state("evening")
    if not evening.started:
        return player
    return match_name(player, [p for p in evening.people if p != evening.fool],
                      "stakeholder or assistant")


# -- settings -----------------------------------------------------------------------------------


@app.command()
def deck(
    kind: Annotated[str | None, typer.Argument(help="standard or tarot; leave out to show.")]
    = None,
    as_json: Json = False,
) -> None:
    """Show or set the deck: standard (52 + Joker) or tarot (the Fool is the Joker, R35)."""
    from referee.rules.fate import Outcome  # not at the top: `fate log` does without the rules

    if kind is None:
        def show(state: Any) -> Outcome:
            d = state["settings"]["deck"]
            return Outcome([], {"deck": d}, [f"Card of Fate deck: {d} (R35)."])

        run(show, as_json=as_json)
        return
    write("fate deck", {"kind": kind}, as_json)


# -- characters ---------------------------------------------------------------------------------


@char_app.command("new")
def char_new(
    name: Annotated[str, typer.Argument(help="The character's name.")],
    measure: Annotated[Many, typer.Option(
        "--measure", "-m", help="Final Measure on the sheet: fiery=7, calm=3 or fiery/calm=7/3 "
        "(pairs sum to 10; start 5/5).")] = None,
    credit: Annotated[int | None, typer.Option("--credit", help="Credit Rating 1-10 (starts 5).")]
    = None,
    trait: Annotated[Many, typer.Option(
        "--trait", "-t", help="\"Swordsman=2\" (+1..+3), \"Second sight=once\" (3 points) or "
        "\"Luck=multi\" (5 points).")] = None,
    rep: Annotated[Many, typer.Option(
        "--rep", "-r", help="Reputation: \"Loved by Miss Atherton=2\" (1 to +6).")] = None,
    exp: Annotated[Many, typer.Option(
        "--exp", "-e", help="Experience and its Measure: \"Crimean War:fiery\" (+1, one card).")]
    = None,
    item: Annotated[Many, typer.Option("--item", "-i", help="Equipment: \"Sabre=3\".")] = None,
    player: Annotated[str | None, typer.Option(
        "--player", help="The Fool's Errand stakeholder or assistant who plays it.")] = None,
    npc: Annotated[bool, typer.Option(
        "--npc", help="The Host's character: creation budgets not checked.")] = False,
    weapon: Weapon = None,
    fight_trait: FightTraits = None,
    as_json: Json = False,
) -> None:
    """Create a character; the seed's creation budgets are checked (F15)."""
    entries = _entries(measure, credit, trait, rep, exp, item, player, weapon, fight_trait)
    write("fate char new", {"name": name, "npc": npc, **entries}, as_json,
          then=None if as_json else lambda outcome: char_show(outcome.data["char"]["name"]))


class _Entries(TypedDict):
    """The options ``char new`` and ``char edit`` share, as the rules' keyword arguments."""

    measures: tuple[str, ...]
    credit: int | None
    traits: tuple[str, ...]
    reps: tuple[str, ...]
    exps: tuple[str, ...]
    items: tuple[str, ...]
    player: str | None
    weapon: str | None
    fight_traits: tuple[str, ...]


def _entries(measure: Many, credit: int | None, trait: Many, rep: Many, exp: Many, item: Many,
             player: str | None, weapon: str | None, fight_trait: Many) -> _Entries:
    """The options ``char new`` and ``char edit`` share (the player matched among the
    evening's people)."""
    return {"measures": tup(measure), "credit": credit, "traits": tup(trait), "reps": tup(rep),
            "exps": tup(exp), "items": tup(item), "player": _player(player), "weapon": weapon,
            "fight_traits": tup(fight_trait)}


def _show_char(char: Char, data: FateData) -> None:
    from rich.table import Table  # the human table only


    out = console()
    who = char["name"] + (f" (played by {char['player']})" if char.get("player") else "")
    health = char["areas"]["health"]
    out.print(f"{who}: Health {health.title()}, Credit Rating {char['credit']}", markup=False,
              style="bold")
    table = Table(show_header=True, box=None, pad_edge=False)
    table.add_column("Measure")
    table.add_column("", justify="right")
    table.add_column("checks")
    for first, second in data.pairs:
        a, b = char["measures"][first], char["measures"][second]
        checks = ", ".join(f"{s} {n}" for s, n in char["checks"].items() if s in (first, second))
        compel = [s for s, v in ((first, a), (second, b)) if v >= data.compelled_from]
        note = (checks + (f"  compelled: {compel[0]}" if compel else "")).strip()
        table.add_row(f"{first} / {second}", f"{a} / {b}", note)
    out.print(table)
    for title, rows in (
        ("Reputations", [f"{r} +{v} ({char['areas'][r].title()})"
                         for r, v in char["reps"].items()]),
        ("Traits", [f"{t} +{v['bonus']}" if v["bonus"] else f"{t} (ability, {v['cost']} pts)"
                    for t, v in char["traits"].items()]),
        ("Items", [f"{i} {v}" for i, v in char["items"].items()]),
        ("Experiences", [f"{e} ({v['measure']}" + (", card spent)" if v["spent"] else ", card)")
                         for e, v in char["exps"].items()]),
    ):
        if rows:
            out.print(f"{title}: " + "; ".join(rows), markup=False)
    _show_state(char)


def _show_state(char: Char) -> None:
    """The sheet's foot: the usual weapon (F24), and what bears on the next tests."""
    out = console()
    kept = char.get("usual")
    if kept is not None and (kept.get("weapon") or kept.get("traits")):
        weapon = kept.get("weapon") or "unarmed"
        traits = f"; fights with {', '.join(kept['traits'])}" if kept.get("traits") else ""
        out.print(f"Usual weapon: {weapon}{traits} (F24)", markup=False)
    if char["next_mod"]:
        mod = char["next_mod"]
        out.print(f"Next test: {mod:+d} card{'' if abs(mod) == 1 else 's'} (drink)",
                  markup=False)
    if char["heal_bonus"]:
        out.print("Convalescence: " + ", ".join(f"+{n} on the next {a} test"
                                                for a, n in char["heal_bonus"].items()),
                  markup=False)
    if char["infection"]:
        out.print("Infection: an extra month bed-ridden", markup=False)
    for note in char["notes"]:
        out.print(f"Note: {note}", markup=False)


@char_app.command("show")
def char_show(
    name: Annotated[str, typer.Argument(help="Character (unique prefix).")],
    as_json: Json = False,
) -> None:
    """Show a character: Measures, Reputations and their states, Traits, checks."""
    from referee.rules import fate  # not at the top: `fate log` does without the rules
    from referee.rules.fate.characters import char_json, find

    state = read_state()
    data = fate.tables(state)
    char = char_json(find(state, name), data)
    if as_json:
        emit_json(char)
    else:
        _show_char(char, data)


@char_app.command("list")
def char_list(as_json: Json = False) -> None:
    """All characters with their Health and player."""
    from rich.table import Table  # the human table only

    from referee.rules import fate  # not at the top: `fate log` does without the rules
    from referee.rules.fate.characters import char_json

    state = read_state()
    chars = list(state["chars"].values())
    if as_json:
        emit_json([char_json(c, fate.tables(state)) for c in chars])
        return
    if not chars:
        console().print("No characters yet: fate char new NAME")
        return
    table = Table("Character", "Health", "Player", "Hurt Reputations", box=None)
    for char in chars:
        hurt = ", ".join(f"{r} {s.title()}" for r, s in char["areas"].items()
                         if r != "health" and s != "healthy")
        table.add_row(lit(char["name"]), char["areas"]["health"].title(),
                      lit(char["player"] or ""), lit(hurt))
    console().print(table)


@char_app.command("edit")
def char_edit(
    name: Annotated[str, typer.Argument(help="Character (unique prefix).")],
    measure: Annotated[Many, typer.Option("--measure", "-m", help="Set: fiery=6.")] = None,
    shift: Annotated[Many, typer.Option(
        "--shift", help="Move: temperate+2, calm-1 (a side stops at 9 or 1, and says so).")]
    = None,
    credit: Annotated[int | None, typer.Option("--credit", help="Credit Rating 1-10.")] = None,
    trait: Annotated[Many, typer.Option("--trait", "-t", help="Add or set: \"Scarred=1\".")]
    = None,
    rep: Annotated[Many, typer.Option("--rep", "-r", help="Add or set: \"Feared by X=3\".")]
    = None,
    exp: Annotated[Many, typer.Option("--exp", "-e", help="New Experience: \"Name:measure\".")]
    = None,
    item: Annotated[Many, typer.Option("--item", "-i", help="Add or set: \"Pistol=3\".")] = None,
    drop: Annotated[Many, typer.Option("--drop", help="Remove a Trait, Reputation, item or "
                                                       "Experience.")] = None,
    player: Annotated[str | None, typer.Option("--player", help="Who plays it (\"\" clears).")]
    = None,
    weapon: Weapon = None,
    fight_trait: FightTraits = None,
    as_json: Json = False,
) -> None:
    """Change a character after creation: what play gives and takes (no budgets)."""
    entries = _entries(measure, credit, trait, rep, exp, item, player, weapon, fight_trait)
    write("fate char edit", {"name": name, "shifts": tup(shift), "drop": tup(drop), **entries},
          as_json, then=None if as_json else lambda outcome: char_show(outcome.data["char"]))


# -- tests and fights ---------------------------------------------------------------------------


@app.command()
def test(
    pool: Annotated[int | None, typer.Option("--pool", help="Side a's pool in cards.")] = None,
    char: Annotated[str | None, typer.Option("--char", help="Side a is this character.")] = None,
    measure: Annotated[str | None, typer.Option("--measure", help="Side a's Measure, e.g. fiery.")]
    = None,
    trait: Annotated[Many, typer.Option("--trait", help="Side a's Trait that applies.")] = None,
    rep: Annotated[Many, typer.Option(
        "--rep", help="Side a stakes this Reputation: lost, it is hurt (R37).")] = None,
    item: Annotated[Many, typer.Option("--item", help="Side a's equipment that applies.")] = None,
    aid: Annotated[Many, typer.Option(
        "--aid", help="Help for side a: a number or HELPER:measure, 0 to +3 each (with or "
        "without --char).")] = None,
    exp: Annotated[Many, typer.Option("--exp", help="Redeem an Experience card (+1, once).")]
    = None,
    bonus: Annotated[int, typer.Option("--bonus", help="Any other cards, + or -.")] = 0,
    physical: Annotated[bool, typer.Option(
        "--physical", help="A bodily action: Health penalties apply (R37).")] = False,
    vs: Annotated[int | None, typer.Option("--vs", help="Side b's pool in cards.")] = None,
    static: Static = None,
    vs_char: Annotated[str | None, typer.Option("--vs-char", help="Side b is this character.")]
    = None,
    vs_measure: Annotated[str | None, typer.Option("--vs-measure", help="Side b's Measure.")]
    = None,
    vs_trait: Annotated[Many, typer.Option("--vs-trait", help="Side b's Trait.")] = None,
    vs_rep: Annotated[Many, typer.Option("--vs-rep", help="Side b stakes this Reputation.")]
    = None,
    vs_aid: Annotated[Many, typer.Option(
        "--vs-aid", help="Help for the opposition, as --aid (not with --static).")] = None,
    cof: Cof = None, a: CardsA = None, b: CardsB = None, gate: Gates = None,
    seed: Seed = None, deck_: Deck = None, as_json: Json = False,
) -> None:
    """A test (R36): typed-in cards or a seeded draw; recorded when a character takes part.
    A pool's base is one of --pool and --measure (F5, E190)."""
    from referee.rules import fate  # not at the top: `fate log` does without the rules
    from referee.rules.fate.moves import opposed

    if sum(x is not None for x in (vs, static, vs_char)) > 1:
        raise BadInput("give one opposition: --vs N, --static LEVEL or --vs-char NAME")
    _one_sheet("--char", char, ("--measure", measure), ("--trait", trait), ("--rep", rep),
               ("--item", item), ("--exp", exp))
    _one_sheet("--vs-char", vs_char, ("--vs-measure", vs_measure), ("--vs-trait", vs_trait),
               ("--vs-rep", vs_rep))
    _one_base("--pool", pool, "--measure", measure)  # side b: --vs is no character's (above)
    _aid_needs_a_pool((aid, pool, char), (vs_aid, vs, vs_char), static)
    spec_a = fate.PoolSpec(char=char, base=pool, measure=measure, traits=tup(trait),
                           reps=tup(rep), items=tup(item), aid=tup(aid), exps=tup(exp), bonus=bonus,
                           physical=physical)

    spec_b = None if static is not None else fate.PoolSpec(
        char=vs_char, base=vs, base_label="opposition", measure=vs_measure, traits=tup(vs_trait),
        reps=tup(vs_rep), aid=tup(vs_aid), physical=physical)
    cards = typed(cof, a, b, gate)
    if char is not None or vs_char is not None:  # recorded when a character takes part
        write("fate test", {"a": spec_a, "b": spec_b, "static": static, "typed": cards,
                            "seed": seed, "deck": deck_}, as_json)
        return
    run(lambda state: opposed(state, spec_a, spec_b, static, typed=cards, seed=seed,
                              deck=deck_), as_json)


def _aid_needs_a_pool(a: tuple[Many, int | None, str | None],
                      b: tuple[Many, int | None, str | None], static: str | None) -> None:
    """Aid (each side's: its --aid, its pool, its character) adds to a pool or a character's,
    never to typed-in cards or a static level (F5, F28, E190)."""
    for flag, (helps, base, by) in (("--aid", a), ("--vs-aid", b)):
        if helps and base is None and by is None and not (flag == "--vs-aid" and static):
            raise BadInput(f"{flag} adds to a pool: give {'--pool' if flag == '--aid' else '--vs'}"
                           f" N or {'--char' if flag == '--aid' else '--vs-char'} NAME; typed-in "
                           "cards are the whole pool (F5, E190)", ruling="E190")
    if static is not None and b[0]:
        raise BadInput("--vs-aid with --static: a static level is the whole opposition; give "
                       "it as a number with the help counted in, --static 6 (F28, E190)",
                       ruling="E190")


def _one_sheet(flag: str, name: str | None, *given: tuple[str, object]) -> None:
    """A character's values without the character are refused in one line, never dropped
    (E190)."""
    stray = [option for option, value in given if value]
    if name is None and stray:
        one = len(stray) == 1
        raise BadInput(f"{' and '.join(stray)} {'needs' if one else 'need'} a character: give "
                       f"{flag} NAME, or count {'it' if one else 'them'} in the pool (F5, E190)",
                       ruling="E190")


def _one_base(number_flag: str, number: int | None, measure_flag: str,
              measure: str | None) -> None:
    """A pool's base is a number or a Measure, never both added (F5, E190)."""
    if number is not None and measure is not None:
        raise BadInput(f"give one base for the pool: {number_flag} {number} or {measure_flag} "
                       f"{measure}, not both; count a Trait or help apart (--trait, --aid, "
                       "--bonus) (F5, E190)", ruling="E190")


@app.command()
def fight(
    a_name: Annotated[str, typer.Argument(metavar="A", help="Attacker (side a).")],
    b_name: Annotated[str, typer.Argument(metavar="B", help="Opponent (side b).")],
    a_weapon: Annotated[str | None, typer.Option(
        "--a-weapon", help="A's weapon: one of A's items or a number (default: A's usual "
        "weapon, else unarmed, F24).")]
    = None,
    b_weapon: Annotated[str | None, typer.Option("--b-weapon", help="B's weapon.")] = None,
    a_trait: Annotated[Many, typer.Option(
        "--a-trait", help="A's Trait that applies (default: A's usual fight Traits, F24; "
        "\"\" for none).")]
    = None,
    b_trait: Annotated[Many, typer.Option("--b-trait", help="B's Trait that applies.")] = None,
    a_rep: Annotated[Many, typer.Option("--a-rep", help="A stakes this Reputation.")] = None,
    b_rep: Annotated[Many, typer.Option("--b-rep", help="B stakes this Reputation.")] = None,
    unaware: Annotated[str | None, typer.Option(
        "--unaware", help="Who did not see it coming: the other gets +2.")] = None,
    static: Annotated[str | None, typer.Option(
        "--static", help="A shoots at B who cannot return fire: a static challenge of this "
        "level (routine 3 ... heroic 9, name or number, F28); only A deals damage.")] = None,
    cof: Cof = None, a: CardsA = None, b: CardsB = None, gate: Gates = None,
    complication: Comps = None, seed: Seed = None, deck_: Deck = None, as_json: Json = False,
) -> None:
    """One full combat in one draw: both deal their best result as damage, the loser too
    (R37, F8, F29)."""
    write("fate fight", {
        "a": a_name, "b": b_name, "a_weapon": a_weapon, "b_weapon": b_weapon,
        "a_traits": tup(a_trait), "b_traits": tup(b_trait), "a_reps": tup(a_rep),
        "b_reps": tup(b_rep), "unaware": unaware, "static": static,
        "typed": typed(cof, a, b, gate, complications=complication), "seed": seed,
        "deck": deck_}, as_json)


@app.command()
def compel(
    name: Annotated[str, typer.Argument(help="Character with a Measure at 8 or 9.")],
    measure: Annotated[str, typer.Argument(help="That Measure, e.g. fiery.")],
    cof: Cof = None, a: CardsA = None, b: CardsB = None,
    seed: Seed = None, deck_: Deck = None, as_json: Json = False,
) -> None:
    """Does an extreme Measure (8-9) compel the act? The Measure against its other side (F14)."""
    from referee.rules import fate  # not at the top: `fate log` does without the rules

    run(lambda state: fate.compel(state, name, measure, typed=typed(cof, a, b, None),
                                   seed=seed, deck=deck_), as_json)


# -- drinking, healing, changing ----------------------------------------------------------------


@app.command()
def drink(
    name: Annotated[str, typer.Argument(help="The drinker.")],
    strength: Annotated[int, typer.Option("--strength", help="Strength of the drink, in cards.")],
    trait: Annotated[Many, typer.Option("--trait", help="A Trait that applies.")] = None,
    cof: Cof = None, a: CardsA = None, b: CardsB = None,
    seed: Seed = None, deck_: Deck = None, as_json: Json = False,
) -> None:
    """Bohemian against the drink: +1, nothing or -1 card on the drinker's next test, fight,
    duel shot or sword round (F12, F25)."""
    write("fate drink", {"name": name, "strength": strength, "traits": tup(trait),
                         "typed": typed(cof, a, b, None), "seed": seed, "deck": deck_}, as_json)


@app.command()
def heal(
    name: Annotated[str, typer.Argument(help="The convalescent.")],
    area: Annotated[str, typer.Option("--area", help="health, or one of their Reputations.")],
    measure: Annotated[str, typer.Option("--measure", help="The Measure tested, e.g. calm.")],
    trait: Annotated[Many, typer.Option("--trait", help="A Trait that applies.")] = None,
    cof: Cof = None,
    cards: Annotated[str | None, typer.Option("--cards", help="The drawn cards typed in.")]
    = None,
    seed: Seed = None, deck_: Deck = None, as_json: Json = False,
) -> None:
    """Convalesce: the time needed, a test; failure adds a card to the next try (F13). The
    wound being healed costs no card (F30)."""
    write("fate heal", {"name": name, "area": area, "measure": measure, "traits": tup(trait),
                        "typed": typed(cof, cards, None, None), "seed": seed, "deck": deck_},
          as_json)


@app.command()
def check(
    name: Annotated[str, typer.Argument(help="Character.")],
    measure: Annotated[str, typer.Argument(help="The Measure they acted by, e.g. calm.")],
    as_json: Json = False,
) -> None:
    """Record a check: the character acted by a Measure when it mattered (seed: Changing)."""
    write("fate check", {"name": name, "measure": measure}, as_json)


@app.command()
def grow(
    name: Annotated[str, typer.Argument(help="Character with two checks in the Measure.")],
    measure: Annotated[str, typer.Argument(help="The Measure, e.g. calm.")],
    cof: Cof = None,
    cards: Annotated[str | None, typer.Option("--cards", help="The drawn cards typed in.")]
    = None,
    seed: Seed = None, deck_: Deck = None, as_json: Json = False,
) -> None:
    """A week of soul-searching: test the Measure; failing, it grows by one (F14)."""
    write("fate grow", {"name": name, "measure": measure,
                        "typed": typed(cof, cards, None, None), "seed": seed, "deck": deck_},
          as_json)


# -- the log ------------------------------------------------------------------------------------


add_undo_redo(app, STREAM, "Card of Fate")


def _said(events: Any) -> list[str]:
    return [line for e in events if e.get("kind") == "said" for line in e["lines"]]


add_log(app, STREAM, "Card of Fate", _said)


def register(root: typer.Typer) -> None:
    """Add the `fate` group (Away from the table) to the root app."""
    root.add_typer(app, name="fate", rich_help_panel="Away from the table")
