"""`referee next` and `referee season`: the evening after this one, and standings across
evenings (R41-R43); `referee demo --season` plays two evenings with a ceremony between.

Thin: ``next`` reads the closed evening, asks ``referee.evening.carry`` for the new file's
events and writes them through the one transaction; ``season`` reads the evenings and draws
``referee.season.standings``.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from referee.cli.between.pages import check_page_target, write_page
from referee.cli.context import console, current, db_path
from referee.cli.options import Json
from referee.cli.output import render
from referee.cli.printing import emit_json, lit, say
from referee.cli.transaction import transact
from referee.errors import BadInput
from referee.evening import roster
from referee.evening.views import status
from referee.names import plural
from referee.rules.cards import to_roman
from referee.storage.files import check_reachable
from referee.storage.store import open_evening

if TYPE_CHECKING:
    from referee.evening.events import EveningContinued
    from referee.evening.state import State
    from referee.season import Played, Standings

HtmlOut = Annotated[
    Path | None, typer.Option("--html", help="Also write a standalone printable HTML file.")
]
Force = Annotated[
    bool, typer.Option("--force", help="Let --html replace an existing file (never an evening).")
]


def next_evening(
    new: Annotated[Path, typer.Argument(metavar="NEW.json", help="The next evening's file.")],
    scenario: Annotated[str | None, typer.Option(
        "--scenario", help="The scenario whose new bottled souls join (default: the shipped "
                           "one).")] = None,
    fool: Annotated[str | None, typer.Option(
        "--fool", help="Tonight's Fool (default: the holder of 0).")] = None,
    absent: Annotated[list[str] | None, typer.Option(
        "--absent", help="A member or assistant of this evening not there; once each.")] = None,
    seat: Annotated[list[str] | None, typer.Option(
        "--seat", help="NAME[:ARCANUM]:COLOUR[:ASSISTANT[:ARCANUM]], what changes: "
                       "'Flo::purple', 'Ed:::Cy:IV', 'Ed:::-'; or a newcomer in a vacant "
                       "Arcanum.")] = None,
    as_json: Json = False,
) -> None:
    """Start the next evening in NEW.json from this one, its ceremony closed (R41, R42).

    The members present sit in Arcanum order from the Fool's left with ten new chips each;
    every soul stays where it ended, with its clues and guesses; the dead are never seated
    again; the Card of Fate characters carry; the scenario adds a new bottled soul per seat;
    and the first event records this evening's final digest, so `verify` follows the chain
    (R43).
    """
    from referee.content.scenario import load_scenario  # `next`'s own, as its links (~8 ms)
    from referee.evening import carry
    from referee.storage import links

    last_path = db_path()
    _check_files(last_path, new)
    changes = [carry.parse_change(s) for s in seat or []]
    with open_evening(last_path, write=False) as ev:
        last: State = ev.state("evening")
        fate_state = ev.state("fate")
        previous = links.describe(ev)
    fate_events = carry.fate_events(fate_state)  # E109: not during a duel
    loaded = load_scenario(scenario)

    def build(state: State) -> list[EveningContinued]:
        events = carry.next_evening(last, previous=previous, scenario=loaded, now=time.time(),
                                    fool=fool, absent=absent or [], changes=changes)
        # The new evening's keys, and no request of the old one (E210): here only.
        from referee.serve import access, asks

        dry = current().dry_run  # E133: no keys and no queue changed by a dry run
        access.replace_access(new, [s["assistant"] for s in events[0]["seats"] if s["assistant"]],
                              dry=dry)
        asks.forget(new, dry=dry)
        return events

    _, after, _ = transact("evening", build, path=new, more={"fate": fate_events})
    if as_json:
        emit_json({"status": status(after), "season": after.season})
        return
    _opened(after, new, last_path, previous, len(fate_state["chars"]) if fate_events else 0)


def _check_files(last_path: Path, new: Path) -> None:
    """``next`` starts from an evening on file into a file of its own, not there yet."""
    if not last_path.is_file():
        raise BadInput(f"no evening at {last_path}: `referee next` starts from the evening of "
                       "--db (or $REFEREE_DB), its ceremony closed")
    if os.path.realpath(new) == os.path.realpath(last_path):
        raise BadInput(f"{new} is this evening's own file; the next evening is a file of its "
                       "own, e.g. evening-2.json")

    check_reachable(new)  # a name too long, a symlink loop: one line (E94)
    if new.exists() or new.is_symlink():
        raise BadInput(f"{new} exists already; the next evening is a new file: give another "
                       "name")


def _opened(state: State, new: Path, last: Path, previous: Mapping[str, Any], chars: int) -> None:
    say(f"[bold]Evening {state.season['evening']} is open[/] in {lit(new)}, carried on from "
        f"{lit(last.name)} (its final digest {previous['digest'][:12]}..., R43). The Fool: "
        f"[bold]{lit(state.fool)}[/]. Seats from the Fool's left (R41):")
    render.status(state)
    out = roster.unseated(state)
    if out:
        say("Not seated tonight, their Arcanum kept (E102): " + ", ".join(
            f"{lit(n)} ({to_roman(a)})" for n, a in out) + ".")
    fresh = set(state.season["seen"][-len(state.seats):])  # the labels added last (R42)
    new_souls = [s for s in state.souls if s.kind == "bottled" and s.key in fresh]
    say(f"{plural(len(state.souls) - len(new_souls), 'soul')} carried where they ended, "
        f"{plural(len(new_souls), 'new bottled soul')} given out (R42); `soul list` shows them.")
    away = [s for s in state.souls if s.holder and s.holder not in state.people]
    if away:
        say("Held by people not at this evening, where they ended (R42): " + ", ".join(
            f"{lit(s.key)} ({lit(s.holder)})" for s in away) + ".")
    owing = [s for s in state.souls if s.kind == "own" and s.owner in state.stakeholders
             and s.holder and state.side_of(s.holder) != s.owner]
    for soul in owing:
        say(f"{lit(soul.owner)}'s soul is still held by {lit(soul.holder)}: it costs "
            f"{lit(soul.owner)} 3 points in {to_roman(soul.arcanum)} (R41).")
    if chars:
        say(f"{plural(chars, 'Card of Fate character')} carried with their wounds and checks "
            "(R42).")
    say(f"Go on with `referee --db {lit(new)} hand start` (or `export REFEREE_DB={lit(new)}`).")


# -- the season ---------------------------------------------------------------------------------


def season(
    evenings: Annotated[list[Path] | None, typer.Argument(
        metavar="[EVENING...]", help="Evening files (each with the chain back from it) or "
        "folders of evenings; default: the chain back from --db.", show_default=False)] = None,
    html: HtmlOut = None,
    force: Force = False,
    as_json: Json = False,
) -> None:
    """Standings across evenings, and across the tables of one event (R43): per person the
    evenings played, money won, the Arcanum after each ceremony, souls held and lost,
    promotions and status points earned; --html with charts of the money and the roster."""
    from referee import season as sea  # `season`'s own (~5 ms)

    if html is not None:
        check_page_target(html, force)
    data = sea.standings(gather(list(evenings or [])))
    if html is not None:
        write_page(html, sea.render_html(data), secret=False, force=force)
    if as_json:
        emit_json(data)
        return
    show_season(data)
    if html is not None:
        say(f"The season written to {lit(html)}.")


def gather(paths: list[Path]) -> list[Played]:
    """The evenings named (``referee.season.read``); with none, the chain back from --db."""
    from referee.season import read  # as in season

    return read(paths or [db_path()])


def show_season(data: Standings) -> None:
    from rich.table import Table  # the human table only

    from referee.season import STAGES

    nights = data["evenings"]
    table = Table(title=f"The season: {plural(len(nights), 'evening')} (R43)", title_justify="left")
    table.add_column("#", justify="right")
    table.add_column("Person", max_width=16)
    table.add_column("Ev", justify="right")
    table.add_column("Money won", justify="right", no_wrap=True)
    for n in nights:
        table.add_column(str(n["no"]), no_wrap=True)
    for col in ("Souls", "Own soul", "Promo", "Points"):
        table.add_column(col, justify="left" if col == "Own soul" else "right")
    for r in data["standings"]:
        money = f"-${-r['money']:,}" if r["money"] < 0 else f"${r['money']:,}"
        table.add_row(str(r["rank"]), lit(r["name"]), str(r["evenings"]), money,
                      *[a or "-" for a in r["arcana"]], str(len(r["holds"])),
                      lit(r["lost"] or "-"), str(r["promotions"]), str(r["points"]))
    console().print(table)
    say("Ev: evenings played; the numbered columns: the Arcanum held after each evening's "
        "ceremony; Souls: souls held besides one's own, and Own soul: whether it is lost, at "
        "the end of the person's newest evening; Promo: promotions won; Points: status points "
        "earned (E110). The evenings:")
    for n in nights:
        say(f"  {n['no']}. {lit(n['file'])}: {lit(n['title'])}, the Fool {lit(n['fool'])}, "
            f"{plural(n['hands'], 'hand')}, {STAGES[n['stage']]}"
            + (f", carried on from {lit(n['previous'])}" if n["previous"] else ""))
    totals = data["totals"]
    say(f"Buy-ins ${totals['buy_ins']:,}; held at the ends ${totals['at_end']:,}"
        + (f", in pots ${totals['in_pots']:,}" if totals["in_pots"] else "")
        + ": the money won sums to $" + f"{totals['won']:,}.")


def register(app: typer.Typer) -> None:
    app.command("next", rich_help_panel="Between evenings")(next_evening)
    app.command("season", rich_help_panel="Between evenings")(season)
