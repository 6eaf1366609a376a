"""`referee end` and `referee ceremony ...`: the evening's end and its promotion ceremony (R40).

Thin: each command calls one function of ``referee.evening.ceremony`` through the one
transaction (``transaction.transact``) and says what it did in a line or two.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Annotated

import typer

from referee.cli.context import console
from referee.cli.options import Json
from referee.cli.printing import emit_json, lit, say
from referee.cli.typed_most import perform, read_state
from referee.evening import ceremony
from referee.names import plural, quoted
from referee.rules.cards import parse_arcanum

if TYPE_CHECKING:
    from referee.cli.transaction import Done
    from referee.evening.ceremony import CeremonyView
    from referee.evening.events import EveningEvent
    from referee.evening.state import State

Reveal = Annotated[bool, typer.Option(
    "--reveal", help="Also list claims a soul's secret Arcanum takes part in (GM only, E43).")]
Name = Annotated[str, typer.Argument(metavar="NAME")]
Arcanum = Annotated[str, typer.Argument(metavar="ARCANUM", help="III, M3, the empress ...")]

app = typer.Typer(help="The promotion ceremony once the evening has ended (R40); alone, the "
                       "claims that would succeed now, in the Fool's order.",
                  no_args_is_help=False, invoke_without_command=True)


def end(as_json: Json = False) -> None:
    """The Fool declares the evening's end, between hands; the ceremony follows (R40, E100)."""
    def answer(outcome: Done) -> None:
        before, after, events = outcome
        if as_json:
            emit_json({"events": events, "ceremony": ceremony.summary(after)})
            return
        say("[bold]The evening has ended[/]: the Fool declares it after "
            f"{plural(after.hands_played, 'hand')}. Its books are closed; the ceremony is next "
            "(R40, E101).")
        _claims_hint(after)

    perform("end", {"now": time.time()}, then=answer)


@app.callback()
def listing(ctx: typer.Context, reveal: Reveal = False, as_json: Json = False) -> None:
    """The claims that would succeed now, in the Fool's order (0, I, ... XXI), each with the
    claimant's points and the occupant's, against the roster as it stands (R40)."""
    if ctx.invoked_subcommand is not None:
        return

    state = read_state()
    ceremony.require_ended(state)
    data = ceremony.summary(state, reveal=reveal)
    if as_json:
        emit_json(data)
        return
    _show(state, data, reveal)


def _show(state: State, data: CeremonyView, reveal: bool) -> None:
    from rich.table import Table  # the human table only, as the report's lines (~4 ms)

    from referee.report import decision_line, roster_line

    how = "the Fool declared it" if data["ended_by"] == "the Fool" else "R18"
    stage = {"ended": f"the evening has ended ({how}); no claim heard yet",
             "ceremony": f"under way, {plural(len(data['decisions']), 'decision')}",
             "closed": "closed: the roster is recorded"}[data["stage"]]
    say(f"[bold]The ceremony (R40)[/]: {stage}.")
    for d in data["decisions"]:
        say(f"  {lit(decision_line(d))}")
    say("Roster: " + "; ".join(lit(roster_line(r)) for r in data["roster"]))
    if data["stage"] == "closed":
        if data["left"]:
            say(f"Left the Major Arcana: {lit(', '.join(data['left']))}.")
        say("`referee next NEW.json` starts the next evening from this roster (R41).")
        return
    claims = data["claims"]
    hidden = len(ceremony.claims(state)) - len(claims)
    if not claims and not hidden:
        say("No claim would succeed now (R28).")
    elif claims:
        table = Table(title="Claims that would succeed now, in the Fool's order (R40)",
                      title_justify="left")
        for col in ("Arcanum", "Claimant", "Points", "Against", "To hear it"):
            table.add_column(col)
        for c in claims:
            against = (f"{lit(c['occupant'])} ({c['occupant_points']})" if c["occupant"]
                       else "vacant (7 needed)")
            word = "promote" if c["how"] == "promote" else "switch"
            table.add_row(lit(ceremony.title(parse_arcanum(c["arcanum"]))),
                          lit(c["person"]) + (f" (from {c['from']})" if c["from"] else ""),
                          str(c["points"]), against,
                          lit(f"ceremony {word} {_quoted(c['person'])} {c['arcanum']}"))
        console().print(table)
    if hidden and not reveal:
        say(f"{plural(hidden, 'more claim', 'more claims')} that a soul's secret Arcanum takes "
            "part in: --reveal lists them (E43).")
    say("A claimant may decline (`ceremony decline NAME`); `ceremony close` records the roster.")


def _quoted(name: str) -> str:
    return quoted(name)


def _claims_hint(state: State) -> None:
    n = len(ceremony.claims(state))
    say(f"{plural(n, 'claim')} would succeed: `referee ceremony` lists them in the Fool's order."
        if n else "No claim would succeed (R28): `referee ceremony close` records the roster.")


def _decided(after: State, events: list[EveningEvent], as_json: bool) -> None:
    data = ceremony.summary(after)
    if as_json:
        emit_json({"events": events, "ceremony": data})
        return
    from referee.report import decision_line  # the human answer only (~4 ms)

    say(f"[bold]{lit(decision_line(data['decisions'][-1]))}[/] (R40).")
    _claims_hint(after)


@app.command("promote")
def promote(name: Name, arcanum: Arcanum, as_json: Json = False) -> None:
    """NAME, outside the Major Arcana, is given ARCANUM: 7 points for a vacant one, more than
    the occupant's for a held one, who then leaves the Major Arcana (R28, R40)."""

    def answer(outcome: Done) -> None:
        _, after, events = outcome
        _decided(after, events, as_json)

    perform("ceremony promote", {"who": name, "arcanum": arcanum}, then=answer)


@app.command("switch")
def switch(member: Annotated[str, typer.Argument(metavar="MEMBER")], arcanum: Arcanum,
           as_json: Json = False) -> None:
    """MEMBER moves to ARCANUM on the same terms, leaving their old Arcanum vacant (R40)."""
    def answer(outcome: Done) -> None:
        _, after, events = outcome
        _decided(after, events, as_json)

    perform("ceremony switch", {"who": member, "arcanum": arcanum}, then=answer)


@app.command("decline")
def decline(
    name: Name,
    arcanum: Annotated[str | None, typer.Argument(
        metavar="[ARCANUM]", help="Which claim, when NAME has several.", show_default=False)
    ] = None,
    as_json: Json = False,
) -> None:
    """NAME declines a claim that would succeed; it is not heard again (R40, E104)."""
    def answer(outcome: Done) -> None:
        _, after, events = outcome
        _decided(after, events, as_json)

    perform("ceremony decline", {"who": name, "arcanum_text": arcanum}, then=answer)


@app.command("close")
def close(as_json: Json = False) -> None:
    """Record the roster, who holds which Arcanum, as the evening's last event (R40)."""
    def answer(outcome: Done) -> None:
        _, after, events = outcome
        data = ceremony.summary(after)
        if as_json:
            emit_json({"events": events, "ceremony": data})
            return
        from referee.report import roster_line  # the human answer only (~4 ms)
        say("[bold]The ceremony is closed[/]; the roster is the evening's last record (R40):")
        for r in data["roster"]:
            say(f"  {lit(roster_line(r))}")
        if data["left"]:
            say(f"Left the Major Arcana: {lit(', '.join(data['left']))}.")
        for c in data["unheard"]:
            say(f"Not heard: {lit(c['person'])}'s claim to {c['arcanum']} ({c['points']}).")
        say("`referee next NEW.json` starts the next evening from it (R41); `referee undo` reopens "
            "the ceremony.")

    perform("ceremony close", {"now": time.time()}, then=answer)


def register(root: typer.Typer) -> None:
    root.command("end", rich_help_panel="Between evenings")(end)
    root.add_typer(app, name="ceremony", rich_help_panel="Between evenings")
