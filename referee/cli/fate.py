"""`referee fate`: the Card of Fate, away from the table (R35-R37, F1-F18).

Thin shell over ``referee.rules.fate``: each command reads the ``fate`` stream,
calls one pure function, records its events (if any) and prints its lines.
The rules are imported inside each command so that ``referee --help`` stays fast.
"""

from __future__ import annotations

import shlex
from typing import TYPE_CHECKING, Annotated, Any

import typer

from referee.cli.common import add_undo_redo

if TYPE_CHECKING:
    from referee.rules.fate_actions import Outcome, Typed

app = typer.Typer(
    help="Card of Fate: characters, tests, fights, duels, drinking and healing (R35-R37).",
    no_args_is_help=True,
)
char_app = typer.Typer(help="Characters: create, show, list, edit.", no_args_is_help=True)
app.add_typer(char_app, name="char")

STREAM = "fate"

Json = Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")]
Seed = Annotated[int | None, typer.Option(
    "--seed", help="Seed of the console's deck: the same seed turns the same cards (R35).")]
Deck = Annotated[str | None, typer.Option(
    "--deck", help="standard or tarot for this command (default: the setting, fate deck).")]
Cof = Annotated[str | None, typer.Option(
    "--cof", help="Card of Fate typed in from a physical draw, e.g. 7H (R35).")]
CardsA = Annotated[str | None, typer.Option(
    "--a", help="Side a's cards typed in, e.g. \"AH 10S JD\" (with --cof and --b).")]
CardsB = Annotated[str | None, typer.Option(
    "--b", help="Side b's cards typed in; --b \"\" for none.")]
Gates = Annotated[list[str] | None, typer.Option(
    "--gate", help="A Maimed area's Measure test typed in: \"COF CARDS\" (R37, F6).")]
Many = list[str] | None


def _text(ctx: typer.Context, extra: dict[str, Any] | None = None) -> str:
    """The command as the GM could retype it (for the log, undo and redo)."""
    words = ctx.command_path.split()[1:]
    params = {**ctx.params, **(extra or {})}
    for param in ctx.command.params:
        value = params.get(param.name or "")
        if param.name == "as_json" or value in (None, False, [], ()):
            continue
        if param.param_type_name == "argument":
            words.append(str(value))
            continue
        flag = param.opts[0]
        for item in value if isinstance(value, list | tuple) else [value]:
            words += [flag] if item is True else [flag, str(item)]
    return " ".join(shlex.quote(w) for w in words)


def _print(outcome: Outcome) -> None:
    from referee.cli.common import console

    out = console()
    for line in outcome.lines:
        style = "bold" if line.startswith(("Winner", "Tie", "The duel is over")) else None
        out.print(line, markup=False, highlight=False, style=style)
    if outcome.data.get("seed") is not None:
        out.print(f"(seed {outcome.data['seed']}: --seed {outcome.data['seed']} turns the same "
                  "cards)", markup=False, style="dim")


def _record(outcome: Outcome, as_json: bool) -> None:
    from referee.cli.common import emit_json

    if as_json:
        emit_json(outcome.data)
    else:
        _print(outcome)


def _run(ctx: typer.Context, call: Any, *, write: bool = True, as_json: bool = False,
         ) -> Outcome:
    """Open the evening, run ``call(state)``, commit its events as one command, print."""
    from referee.cli.common import db_path
    from referee.store import open_evening

    with open_evening(db_path(), write=write) as ev:
        outcome: Outcome = call(ev.state(STREAM))
        if outcome.events:
            seed = outcome.data.get("seed")
            ev.commit(STREAM, outcome.events,
                      text=_text(ctx, {"seed": seed} if seed is not None else None))
    _record(outcome, as_json)
    return outcome


def _typed(cof: str | None, a: str | None, b: str | None, gates: Many) -> Typed:
    from referee.rules.fate_actions import Typed

    return Typed(cof=cof, a=a, b=b, gates=tuple(gates or ()))


def _player(player: str | None) -> str | None:
    """A character's player: a person of the evening when there is one (matched by prefix,
    near misses suggested), else free text."""
    if not player:
        return player
    from referee.cli.common import db_path
    from referee.names import match_name
    from referee.store import open_evening

    with open_evening(db_path(), write=False) as ev:
        evening = ev.state("evening")
    if not evening.started:
        return player
    return match_name(player, [p for p in evening.people if p != evening.fool],
                      "stakeholder or assistant")


def _t(values: Many) -> tuple[str, ...]:
    return tuple(values or ())


# -- settings -----------------------------------------------------------------------------------


@app.command()
def deck(
    ctx: typer.Context,
    kind: Annotated[str | None, typer.Argument(help="standard or tarot; leave out to show.")]
    = None,
    as_json: Json = False,
) -> None:
    """Show or set the deck: standard (52 + Joker) or tarot (the Fool is the Joker, R35)."""
    from referee.rules import fate
    from referee.rules.fate_actions import Outcome

    if kind is None:
        def show(state: Any) -> Outcome:
            d = state["settings"]["deck"]
            return Outcome([], {"deck": d}, [f"Card of Fate deck: {d} (R35)."])

        _run(ctx, show, write=False, as_json=as_json)
        return
    _run(ctx, lambda state: fate.set_deck(state, kind), as_json=as_json)


# -- characters ---------------------------------------------------------------------------------


@char_app.command("new")
def char_new(
    ctx: typer.Context,
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
    as_json: Json = False,
) -> None:
    """Create a character; the seed's creation budgets are checked (F15)."""
    from referee.rules import fate
    from referee.rules.fate_actions import Outcome
    from referee.rules.fate_chars import budget_left

    player = _player(player)

    def call(state: Any) -> Outcome:
        events = fate.new_character(state, name, measures=_t(measure), credit=credit,
                                    traits=_t(trait), reps=_t(rep), exps=_t(exp), items=_t(item),
                                    player=player, npc=npc)
        char = events[0]["char"]
        left = budget_left(char)
        lines = [f"Created {char['name']}" + (" (Host's character)" if npc else "") + "."]
        if not npc and any(left.values()):
            lines.append(f"Unspent: {left['points']} Measure/Credit points, {left['experiences']}"
                         f" Experiences, {left['trait_points']} Trait points.")
        return Outcome(events, {"char": _char_json(char), "unspent": left}, lines)

    outcome = _run(ctx, call, as_json=as_json)
    if not as_json:
        _show_char(outcome.data["char"])


def _char_json(char: dict[str, Any]) -> dict[str, Any]:
    from referee.rules.fate_data import load

    data = load()
    measures = {}
    for first, second in data.pairs:
        value = char["measures"][first]
        measures[first] = value
        measures[second] = 10 - value
    return {**char, "measures": measures}


def _show_char(char: dict[str, Any]) -> None:
    from rich.table import Table

    from referee.cli.common import console
    from referee.rules.fate_data import load

    data = load()
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
    if char["next_mod"]:
        out.print(f"Next test: {char['next_mod']:+d} card(s) (drink)", markup=False)
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
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="Character (unique prefix).")],
    as_json: Json = False,
) -> None:
    """Show a character: Measures, Reputations and their states, Traits, checks."""
    from referee.cli.common import db_path, emit_json
    from referee.rules.fate_chars import find
    from referee.store import open_evening

    with open_evening(db_path(), write=False) as ev:
        char = _char_json(find(ev.state(STREAM), name))
    if as_json:
        emit_json(char)
    else:
        _show_char(char)


@char_app.command("list")
def char_list(as_json: Json = False) -> None:
    """All characters with their Health and player."""
    from rich.table import Table

    from referee.cli.common import console, db_path, emit_json
    from referee.store import open_evening

    with open_evening(db_path(), write=False) as ev:
        chars = list(ev.state(STREAM)["chars"].values())
    if as_json:
        emit_json([_char_json(c) for c in chars])
        return
    if not chars:
        console().print("No characters yet: fate char new NAME")
        return
    table = Table("Character", "Health", "Player", "Hurt Reputations", box=None)
    for char in chars:
        hurt = ", ".join(f"{r} {s.title()}" for r, s in char["areas"].items()
                         if r != "health" and s != "healthy")
        table.add_row(char["name"], char["areas"]["health"].title(), char["player"] or "", hurt)
    console().print(table)


@char_app.command("edit")
def char_edit(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="Character (unique prefix).")],
    measure: Annotated[Many, typer.Option("--measure", "-m", help="Set: fiery=6.")] = None,
    shift: Annotated[Many, typer.Option("--shift", help="Move: temperate+2, calm-1.")] = None,
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
    as_json: Json = False,
) -> None:
    """Change a character after creation: what play gives and takes (no budgets)."""
    from referee.rules import fate
    from referee.rules.fate_actions import Outcome

    player = _player(player)

    def call(state: Any) -> Outcome:
        events = fate.edit_character(state, name, measures=_t(measure), shifts=_t(shift),
                                     credit=credit, traits=_t(trait), reps=_t(rep), exps=_t(exp),
                                     items=_t(item), drop=_t(drop), player=player)
        who = events[0]["char"]
        return Outcome(events, {"char": who, "events": events},
                       [f"{who}: {len(events)} change{'s' if len(events) != 1 else ''}."])

    _run(ctx, call, as_json=as_json)
    if not as_json:
        char_show(ctx, name)


# -- tests and fights ---------------------------------------------------------------------------


@app.command()
def test(
    ctx: typer.Context,
    pool: Annotated[int | None, typer.Option("--pool", help="Side a's pool in cards.")] = None,
    char: Annotated[str | None, typer.Option("--char", help="Side a is this character.")] = None,
    measure: Annotated[str | None, typer.Option("--measure", help="Side a's Measure, e.g. fiery.")]
    = None,
    trait: Annotated[Many, typer.Option("--trait", help="Side a's Trait that applies.")] = None,
    rep: Annotated[Many, typer.Option(
        "--rep", help="Side a stakes this Reputation: lost, it is hurt (R37).")] = None,
    item: Annotated[Many, typer.Option("--item", help="Side a's equipment that applies.")] = None,
    aid: Annotated[Many, typer.Option(
        "--aid", help="Help: a number or HELPER:measure, +3 at most each.")] = None,
    exp: Annotated[Many, typer.Option("--exp", help="Redeem an Experience card (+1, once).")]
    = None,
    bonus: Annotated[int, typer.Option("--bonus", help="Any other cards, + or -.")] = 0,
    physical: Annotated[bool, typer.Option(
        "--physical", help="A bodily action: Health penalties apply (R37).")] = False,
    vs: Annotated[int | None, typer.Option("--vs", help="Side b's pool in cards.")] = None,
    static: Annotated[str | None, typer.Option(
        "--static", help="Static opposition: routine 3, challenging 5, damned-hard 7, heroic 9.")]
    = None,
    vs_char: Annotated[str | None, typer.Option("--vs-char", help="Side b is this character.")]
    = None,
    vs_measure: Annotated[str | None, typer.Option("--vs-measure", help="Side b's Measure.")]
    = None,
    vs_trait: Annotated[Many, typer.Option("--vs-trait", help="Side b's Trait.")] = None,
    vs_rep: Annotated[Many, typer.Option("--vs-rep", help="Side b stakes this Reputation.")]
    = None,
    cof: Cof = None, a: CardsA = None, b: CardsB = None, gate: Gates = None,
    seed: Seed = None, deck_: Deck = None, as_json: Json = False,
) -> None:
    """A test (R36): typed-in cards or a seeded draw; recorded when a character takes part."""
    from referee.rules import fate
    from referee.rules.fate_data import load

    if sum(x is not None for x in (vs, static, vs_char)) > 1:
        from referee.errors import BadInput

        raise BadInput("give one opposition: --vs N, --static LEVEL or --vs-char NAME")
    spec_a = fate.PoolSpec(char=char, base=pool, measure=measure, traits=_t(trait),
                           reps=_t(rep), items=_t(item), aid=_t(aid), exps=_t(exp), bonus=bonus,
                           physical=physical)
    if static is not None:
        from referee.names import match_name

        data = load()
        level = match_name(static.replace("_", "-").replace(" ", "-"), data.static,
                           what="static level")
        spec_b = fate.PoolSpec(base=data.static[level], base_label=f"static {level}")
    else:
        spec_b = fate.PoolSpec(char=vs_char, base=vs, base_label="opposition",
                               measure=vs_measure, traits=_t(vs_trait), reps=_t(vs_rep),
                               physical=physical)
    if char is None and vs_char is None:
        _run(ctx, lambda state: fate.run_test(state, spec_a, spec_b, typed=_typed(cof, a, b, gate),
                                         seed=seed, deck=deck_), write=False, as_json=as_json)
        return
    _run(ctx, lambda state: fate.run_test(state, spec_a, spec_b, typed=_typed(cof, a, b, gate),
                                     seed=seed, deck=deck_), as_json=as_json)


@app.command()
def fight(
    ctx: typer.Context,
    a_name: Annotated[str, typer.Argument(metavar="A", help="Attacker (side a).")],
    b_name: Annotated[str, typer.Argument(metavar="B", help="Opponent (side b).")],
    a_weapon: Annotated[str | None, typer.Option(
        "--a-weapon", help="A's weapon: one of A's items or a number (default: unarmed).")]
    = None,
    b_weapon: Annotated[str | None, typer.Option("--b-weapon", help="B's weapon.")] = None,
    a_trait: Annotated[Many, typer.Option("--a-trait", help="A's Trait that applies.")] = None,
    b_trait: Annotated[Many, typer.Option("--b-trait", help="B's Trait that applies.")] = None,
    a_rep: Annotated[Many, typer.Option("--a-rep", help="A stakes this Reputation.")] = None,
    b_rep: Annotated[Many, typer.Option("--b-rep", help="B stakes this Reputation.")] = None,
    unaware: Annotated[str | None, typer.Option(
        "--unaware", help="Who did not see it coming: the other gets +2.")] = None,
    static: Annotated[str | None, typer.Option(
        "--static", help="A shoots at B who cannot return fire: a static challenge of this "
        "level; only A deals damage.")] = None,
    cof: Cof = None, a: CardsA = None, b: CardsB = None, gate: Gates = None,
    seed: Seed = None, deck_: Deck = None, as_json: Json = False,
) -> None:
    """One full combat in one draw: both deal their best result as damage (R37, F8)."""
    from referee.rules import fate

    _run(ctx, lambda state: fate.fight(
        state, a_name, b_name, a_weapon=a_weapon, b_weapon=b_weapon, a_traits=_t(a_trait),
        b_traits=_t(b_trait), a_reps=_t(a_rep), b_reps=_t(b_rep), unaware=unaware,
        static=static, typed=_typed(cof, a, b, gate), seed=seed, deck=deck_), as_json=as_json)


@app.command()
def compel(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="Character with a Measure at 8 or 9.")],
    measure: Annotated[str, typer.Argument(help="That Measure, e.g. fiery.")],
    cof: Cof = None, a: CardsA = None, b: CardsB = None,
    seed: Seed = None, deck_: Deck = None, as_json: Json = False,
) -> None:
    """Does an extreme Measure (8-9) compel the act? The Measure against its other side (F14)."""
    from referee.rules import fate

    _run(ctx, lambda state: fate.compel(state, name, measure, typed=_typed(cof, a, b, None),
                                   seed=seed, deck=deck_), write=False, as_json=as_json)


# -- drinking, healing, changing ----------------------------------------------------------------


@app.command()
def drink(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="The drinker.")],
    strength: Annotated[int, typer.Option("--strength", help="Strength of the drink, in cards.")],
    trait: Annotated[Many, typer.Option("--trait", help="A Trait that applies.")] = None,
    cof: Cof = None, a: CardsA = None, b: CardsB = None,
    seed: Seed = None, deck_: Deck = None, as_json: Json = False,
) -> None:
    """Bohemian against the drink: +1, nothing or -1 card on the drinker's next test (F12)."""
    from referee.rules import fate

    _run(ctx, lambda state: fate.drink(state, name, strength, traits=_t(trait),
                                  typed=_typed(cof, a, b, None), seed=seed, deck=deck_),
         as_json=as_json)


@app.command()
def heal(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="The convalescent.")],
    area: Annotated[str, typer.Option("--area", help="health, or one of their Reputations.")],
    measure: Annotated[str, typer.Option("--measure", help="The Measure tested, e.g. calm.")],
    trait: Annotated[Many, typer.Option("--trait", help="A Trait that applies.")] = None,
    cof: Cof = None,
    cards: Annotated[str | None, typer.Option("--cards", help="The drawn cards typed in.")]
    = None,
    seed: Seed = None, deck_: Deck = None, as_json: Json = False,
) -> None:
    """Convalesce: the time needed, a test; failure adds a card to the next try (F13)."""
    from referee.rules import fate

    _run(ctx, lambda state: fate.heal(state, name, area, measure, traits=_t(trait),
                                 typed=_typed(cof, cards, None, None), seed=seed, deck=deck_),
         as_json=as_json)


@app.command()
def check(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="Character.")],
    measure: Annotated[str, typer.Argument(help="The Measure they acted by, e.g. calm.")],
    as_json: Json = False,
) -> None:
    """Record a check: the character acted by a Measure when it mattered (seed: Changing)."""
    from referee.rules import fate

    _run(ctx, lambda state: fate.check(state, name, measure), as_json=as_json)


@app.command()
def grow(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="Character with two checks in the Measure.")],
    measure: Annotated[str, typer.Argument(help="The Measure, e.g. calm.")],
    cof: Cof = None,
    cards: Annotated[str | None, typer.Option("--cards", help="The drawn cards typed in.")]
    = None,
    seed: Seed = None, deck_: Deck = None, as_json: Json = False,
) -> None:
    """A week of soul-searching: test the Measure; failing, it grows by one (F14)."""
    from referee.rules import fate

    _run(ctx, lambda state: fate.grow(state, name, measure, typed=_typed(cof, cards, None, None),
                                 seed=seed, deck=deck_), as_json=as_json)


# -- the log ------------------------------------------------------------------------------------


add_undo_redo(app, STREAM, "Card of Fate")


@app.command()
def log(as_json: Json = False) -> None:
    """Every Card of Fate command of the evening, oldest first."""
    from referee.cli.common import console, db_path, emit_json
    from referee.store import open_evening

    with open_evening(db_path(), write=False) as ev:
        commands = ev.commands(STREAM)
    if as_json:
        emit_json([{"cmd": c.cmd, "text": c.text, "time": c.time, "events": list(c.events)}
                   for c in commands])
        return
    for c in commands:
        console().print(f"{c.cmd:>4}  {c.text}", markup=False)


# The duels live in their own module, built on the helpers above.
from referee.cli.fate_duel import duel_app  # noqa: E402

app.add_typer(duel_app, name="duel")
