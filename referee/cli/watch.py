"""`referee watch`: the players' screen. Nothing secret on it (the frame is
``referee.serve.players.frame``, the players' view).

rich is imported where a frame is drawn: `watch --json` does without it.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Annotated

import typer

from referee.cli.context import console, db_path
from referee.cli.output import clock, emit_json, money, printable
from referee.cli.render import cards_text
from referee.serve import players

if TYPE_CHECKING:
    from rich.console import RenderableType
    from rich.text import Text

    from referee.serve.players import FoolView, Frame, NoFrame, SeatView

CHIP = "●"
STREETS = {1: "after four cards", 2: "after six cards", 3: "after seven cards"}
#: Chip colours a GM may name that rich does not know by that name.
COLOUR_ALIASES = {"orange": "dark_orange", "gold": "gold1", "pink": "pink1", "brown": "orange4",
                  "grey": "grey62", "gray": "grey62", "silver": "grey82", "violet": "violet"}


def chip_style(colour: str) -> str:
    """A rich style for a chip colour; plain bold for a colour rich cannot draw."""
    from rich.color import Color, ColorParseError  # rich only where a frame is drawn

    name = COLOUR_ALIASES.get(colour.lower(), colour.lower().replace(" ", "_"))
    try:
        Color.parse(name)
    except ColorParseError:
        return "bold"
    return f"bold {name}"


def stack(n: int, colour: str, named: bool = False, marks: bool = True) -> Text:
    """``●●●●● 5`` in the chip's colour: one mark per chip (at most ten of a colour, R10);
    without ``marks``, the count alone (a narrow screen keeps its room for the cards)."""
    from rich.text import Text  # as in chip_style

    if not n:
        return Text("")
    return Text.assemble((CHIP * n if marks else "", chip_style(colour)),
                         f" {n:>2}" if marks else f"{n}",
                         (f" {colour}", chip_style(colour)) if named else "")


def seat_note(seat: SeatView) -> str:
    """A seat's state in the hand for the players' screen: away, folded, all-in or
    suspended (S19), and its down cards still to give (E78)."""
    state = seat["in_hand"]
    note = seat["away"] or (state if state in ("folded", "all-in", "suspended") else "")
    return note


def render_frame(view: Frame | NoFrame, width: int = 120,
                 height: int | None = None) -> RenderableType:
    """The players' screen for one frame of ``referee.serve.players.frame``: the turn line and the
    pots first; compact (no assistants' rows, chip counts without stacks) when ``height``
    rows cannot hold the whole table."""
    full = _render_frame(view, width, compact=False)
    if height is None:
        return full

    from rich.console import Console  # as in chip_style

    probe = Console(file=io.StringIO(), width=width, color_system=None)
    probe.print(full)
    if probe.file.getvalue().count("\n") <= height:  # type: ignore[attr-defined]
        return full
    return _render_frame(view, width, compact=True)


def _render_frame(view: Frame | NoFrame, width: int, *, compact: bool) -> RenderableType:
    from rich import box  # as in chip_style
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    if "seats" not in view or not view["seats"]:
        return Text(f"Waiting for the evening: {view.get('problem') or 'nothing to show yet'}",
                    style="bold")
    colours: list[str] = view["colours"]
    hand = view["hand"]
    # A column per colour when they fit (ten marks and a count each), else one column with
    # a line per colour held.
    by_column = width >= 70 + 15 * len(colours)

    narrow = compact or width < 100
    phase = "limit phase" if view["phase"] == "limit" else "open phase"
    if not narrow and view["phase"] == "limit":
        phase += " (1 chip, 3 raises)"
    if view["open_pending"]:
        phase += ", open phase from the next hand"
    head = Text.assemble(("FOOL'S ERRAND", "bold reverse"), "  ")
    if hand:
        head.append(f"Hand {hand['no']}, {STREETS[hand['street']]}", style="bold")
        head.append(" · ")
    played = "hands" if narrow else "hands played"
    head.append(f"{phase} · clock {clock(view['clock'], exact=True)} · "
                f"{played} {view['hands_played']}")

    table = Table(box=box.SIMPLE_HEAD, expand=True, pad_edge=False)
    table.add_column("#", justify="right", no_wrap=True)
    table.add_column("Seat", no_wrap=True)
    if compact:
        pass
    elif by_column:
        for colour in colours:
            table.add_column(Text(printable(colour), style=chip_style(colour)), no_wrap=True,
                             min_width=13)
    else:
        table.add_column("Stacks", no_wrap=True)
    table.add_column("Chips", justify="right", no_wrap=True)
    # No Charges here: they are each side's own (E87).
    table.add_column("Bet", justify="right", no_wrap=True)
    table.add_column("Cards", min_width=8, ratio=1)
    table.add_column("", no_wrap=True, min_width=6)

    def stacks(chips: dict[str, int]) -> list[Text]:
        if compact:
            return []
        if by_column:
            return [stack(chips.get(c, 0), c) for c in colours]
        return [Text("\n").join(stack(n, c, named=True, marks=not narrow)
                                 for c, n in chips.items())]

    to_act = hand["to_act"] if hand else None
    owes = hand["owes"] if hand else 0
    turn = "bold reverse"
    def cards(seat: SeatView | FoolView) -> str:
        """Up cards marked (E76), then the down cards still to give (E78), of which hooded
        (E77: how many, never which)."""
        text = cards_text(seat.get("cards", []))
        down = seat.get("down")
        if down and seat["in_hand"] != "folded":
            hooded = f", {seat['hooded']} hooded" if seat.get("hooded") else ""
            text += f" ({down} down{hooded})"
        return text.strip()

    def round_bet(seat: SeatView | FoolView) -> str:
        return str(seat["round_bet"]) if seat.get("round_bet") else ""

    for seat in view["seats"]:
        acting = seat["name"] == to_act
        note = seat_note(seat)
        style = turn if acting else "dim" if seat["away"] or note == "folded" else "bold"
        table.add_row(Text("▶", style=turn) if acting else str(seat["seat"]),
                      Text.assemble((printable(seat["name"]), style), f" {seat['arcanum']}"),
                      *stacks(seat["chips"]), str(seat["stack"]), round_bet(seat), cards(seat),
                      Text(f"owes {owes}", style=turn) if acting else note)
        if seat["assistant"] and not compact:
            helper = seat["assistant"]
            table.add_row("", Text(f"  {printable(helper['name'])} (assistant)", style="dim"),
                          *stacks(helper["chips"]), str(helper["stack"]), "", "", "")
    fool = view["fool"]
    acting = fool["name"] == to_act
    table.add_row(Text("▶", style=turn) if acting else "",
                  Text(f"{printable(fool['name'])} (the Fool)",
                       style=turn if acting else "italic"),
                  *stacks(fool["chips"]), str(fool["stack"]), round_bet(fool), cards(fool),
                  Text(f"owes {owes}", style=turn) if acting
                  else "folded" if fool["in_hand"] == "folded" else "",
                  end_section=bool(hand))
    if hand:
        table.add_row("", Text("POT", style="bold"), *stacks(hand["pot_chips"]),
                      Text(str(hand["pot"]), style="bold"), "", "", "")

    parts: list[RenderableType] = [head]
    if hand:
        chips = f"{hand['pot']} chip" + ("" if hand["pot"] == 1 else "s")
        pot = Text.assemble(("Pot ", "bold"), (chips, "bold"), f" ({money(hand['pot'])})")
        if hand["all_in"] and len(hand["pots"]) > 1:  # side pots: someone is all-in (R14)
            pot.append(printable(" — " + " · ".join(
                f"{p['name']}: {p['size']} ({', '.join(p['eligible'])})" for p in hand["pots"])))
        parts.append(pot)
        if hand["betting_over"]:
            parts.append(Text("Betting is over: the showdown, "
                              f"{printable(', '.join(hand['in']))} show their hands.",
                              style="bold"))
        elif to_act:
            bet = f"bet {hand['bet']}" + (f", raises {hand['raises']}/3"
                                          if hand["phase"] == "limit" else "")
            parts.append(Text.assemble(
                (f" ▶ {printable(to_act)} to act ", "bold reverse"),
                f"  owes {hand['owes']} · {' / '.join(hand['moves'])} · {bet}"))
        elif hand.get("up_waiting"):  # R9: no bet until the round's up cards are in
            parts.append(Text.assemble(("Up cards first: ", "bold"), printable(", ".join(
                f"{w['name']} {w['have']} of {w['want']}" for w in hand["up_waiting"]))
                + " (R9)"))
        parts.insert(1, parts.pop())  # the turn line first, then the pot
        if hand.get("opener_note") and to_act:  # R15: why the high hand does not open
            parts.insert(2, Text(printable(hand["opener_note"]), style="bold"))
    elif not view["ended"]:  # R18 or the Fool's word (R40): no hand comes any more
        parts.append(Text("Between hands.", style="bold"))
    parts.append(table)
    if view["over"]:
        parts.append(Text(f"The game is over (R18): {printable(view['winner'] or 'nobody')} "
                          "is the last "
                          "stakeholder holding chips.", style="bold"))
    elif view["ended"]:
        closed = view["ceremony"] is not None and view["ceremony"]["stage"] == "closed"
        parts.append(Text("The evening has ended (R40): the Fool declared it; the ceremony "
                          + ("is closed." if closed else "is under way."), style="bold"))
    for text in view.get("in_force", []):  # S17: "Cy must call or fold: Cowed"
        parts.append(Text.assemble(("In force: ", "bold"), printable(text)))
    depleted = printable(", ".join(view["depleted"]) or "none")
    parts.append(Text.assemble(("Depleted Arcana: ", "bold"), depleted))
    if view.get("problem"):
        parts.append(Text(f"(showing the last good view) {printable(view['problem'])}",
                          style="bold red"))
    return Group(*parts)


def watch(
    once: Annotated[bool, typer.Option("--once", help="Print one frame and exit.")] = False,
    interval: Annotated[
        float, typer.Option("--interval", metavar="SECONDS", min=0.05,
                            max=5.0,
                            help="Seconds between looks at the evening file.")
    ] = 0.25,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the frame as JSON and exit.")
    ] = False,
) -> None:
    """The table for the players' screen: stacks, pots, whose turn, the clock. No secrets."""

    path = db_path()
    view = players.frame(players.load_state(path))  # no evening: one line, exit 2
    if as_json:
        emit_json(view)
        return
    con = console()
    if once:
        con.print(render_frame(view, con.width, con.height if con.is_terminal else None))
        return
    try:
        if not con.is_terminal:  # piped: a new frame whenever the evening changes
            shown = None
            for changed in players.frames(path, interval=interval):
                key = {k: v for k, v in changed.items() if k != "clock"}
                if key != shown:
                    shown = key
                    con.print(render_frame(changed, con.width))
                    con.file.flush()
            return
        from rich.live import Live  # a terminal's screen only

        with Live(console=con, screen=True, auto_refresh=False) as screen:
            for changed in players.frames(path, interval=interval):
                screen.update(render_frame(changed, con.width, con.height), refresh=True)
    except KeyboardInterrupt:
        return


def register(app: typer.Typer) -> None:
    """Add `watch` (Status) to the root app."""
    app.command("watch", rich_help_panel="Status")(watch)
