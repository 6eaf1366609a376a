"""What `referee fate` and `referee fate duel` share: option types, running a command, output.

A Card of Fate command that may record is a move of the table's API (``write``:
``transaction.perform``, the moves of ``referee.rules.fate.moves``): the rules decide on the
``fate`` stream, given the tables of ``data/fate.toml`` for a stream that has none yet (F19),
and what they decided is committed under the command's own words and shown. A command that
only shows runs through ``run``, on the stream read only.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Final

import typer

from referee.cli.context import console, db_path
from referee.cli.printing import emit_json
from referee.cli.transaction import Done, perform

if TYPE_CHECKING:
    from referee.rules.fate import Outcome, State, Typed
    from referee.rules.fate.events import TablesSet
    from referee.table.api import Args

STREAM: Final = "fate"

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
    "--gate", help="A Maimed area's Measure test typed in: \"COF CARDS\", one --gate per "
    "Maimed area: side a's before side b's, each one's Reputations before Health (R37, F6).")]
Comps = Annotated[list[str] | None, typer.Option(
    "--complication", help="The fresh card turned at the table for a Maimed Health, a's "
    "before b's (F9, F20, F26); needed when the fight's cards are typed.")]
Calms = Annotated[list[str] | None, typer.Option(
    "--calm", help="A duellist's Calm test typed in: \"COF CARDS\", a's before b's (F10, F20).")]
Many = list[str] | None


def print_outcome(outcome: Outcome) -> None:
    """The lines a Host reads; names are printed literally, never as markup."""

    out = console()
    for line in outcome.lines:
        style = "bold" if line.startswith(("Winner", "Tie", "The duel is over")) else None
        out.print(line, markup=False, highlight=False, style=style)
    if outcome.data.get("seed") is not None:
        out.print(f"(seed {outcome.data['seed']}: --seed {outcome.data['seed']} turns the same "
                  "cards)", markup=False, style="dim")


def _report(outcome: Outcome, as_json: bool) -> None:

    if as_json:
        emit_json(outcome.data)
    else:
        print_outcome(outcome)


def with_tables(state: State) -> tuple[State, list[TablesSet]]:
    """The state with its tables, and the event that adds them when it had none (F19)."""
    if state.get("tables") is not None:
        return state, []

    from referee.content.side_tables import fate_tables  # the evening's first fate command
    from referee.rules import fate

    event = fate.tables_event(copy.deepcopy(fate_tables()))
    return fate.apply(copy.deepcopy(state), event), [event]


def read_state() -> State:
    """The ``fate`` stream, read only, with its tables."""
    from referee.storage.store import open_evening  # as the rules, not at the top

    with open_evening(db_path(), write=False) as ev:
        state, _ = with_tables(ev.state(STREAM))
    return state


def run(call: Callable[[State], Outcome], as_json: bool = False) -> Outcome:
    """Show ``call(state)`` on the ``fate`` stream read only (with its tables): nothing is
    recorded."""
    outcome = call(read_state())
    _report(outcome, as_json)
    return outcome


def write(move: str, args: Args, as_json: bool = False,
          then: Callable[[Outcome], None] | None = None) -> None:
    """The command as the table's move ``move`` (``referee.rules.fate.moves``): its events
    recorded under its words, with the seed the console drew (F3); what the rules decided
    shown, also when nothing was recorded, then ``then`` of it. The tables of
    ``data/fate.toml`` go with it for a stream that has none yet (F19)."""
    from referee.content.side_tables import fate_tables  # as the rules, not at the top

    told: list[Outcome] = []

    def answer(_: Done) -> None:
        _report(told[0], as_json)
        if then is not None:
            then(told[0])

    perform(move, {**args, "tables": fate_tables(), "told": told}, then=answer)


def typed(cof: str | None, a: str | None, b: str | None, gates: Many, calms: Many = None,
          complications: Many = None) -> Typed:
    """What the Host typed in from the cards at the table (F20)."""
    from referee.rules.fate import Typed  # as in referee.cli.side.fate: not at the top

    return Typed(cof=cof, a=a, b=b, gates=tuple(gates or ()), calms=tuple(calms or ()),
                 complications=tuple(complications or ()))


def tup(values: Many) -> tuple[str, ...]:
    return tuple(values or ())
