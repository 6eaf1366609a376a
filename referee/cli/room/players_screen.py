"""The players' screen drawn with rich, from a frame of ``referee.serve.players.frame`` (the
players' view: nothing secret on it). Imported where a frame is drawn (``watch`` imports it
then): `watch --json` does without rich.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

from rich import box
from rich.color import Color, ColorParseError
from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from referee.cli.output.render import cards_text
from referee.cli.printing import clock, money, printable, stood

if TYPE_CHECKING:
    from rich.console import RenderableType

    from referee.serve.players import FoolView, Frame, NoFrame, SeatView

CHIP = "●"
STREETS = {1: "after four cards", 2: "after six cards", 3: "after seven cards"}
#: Chip colours a GM may name that rich does not know by that name.
COLOUR_ALIASES = {"orange": "dark_orange", "gold": "gold1", "pink": "pink1", "brown": "orange4",
                  "grey": "grey62", "gray": "grey62", "silver": "grey82", "violet": "violet"}


def chip_style(colour: str) -> str:
    """A rich style for a chip colour; plain bold for a colour rich cannot draw."""

    name = COLOUR_ALIASES.get(colour.lower(), colour.lower().replace(" ", "_"))
    try:
        Color.parse(name)
    except ColorParseError:
        return "bold"
    return f"bold {name}"


def stack(n: int, colour: str, named: bool = False, marks: bool = True) -> Text:
    """``●●●●● 5`` in the chip's colour: one mark per chip (at most ten of a colour, R10);
    without ``marks``, the count alone (a narrow screen keeps its room for the cards)."""

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
    probe = Console(file=io.StringIO(), width=width, color_system=None)
    probe.print(full)
    if probe.file.getvalue().count("\n") <= height:  # type: ignore[attr-defined]
        return full
    return _render_frame(view, width, compact=True)


def _render_frame(view: Frame | NoFrame, width: int, *, compact: bool) -> RenderableType:

    if "seats" not in view or not view["seats"]:
        return Text(f"Waiting for the evening: {view.get('problem') or 'nothing to show yet'}",
                    style="bold")
    # A column per colour when they fit (ten marks and a count each), else one column with
    # a line per colour held.
    by_column = width >= 70 + 15 * len(view["colours"])
    narrow = compact or width < 100
    return Group(_head(view, narrow), *_turn_lines(view),
                 _seat_table(view, _Stacks(view["colours"], compact, by_column, narrow)),
                 *_foot(view))


def _head(view: Frame, narrow: bool) -> Text:
    """The title line: the hand and its round, the phase, the clock, the hands played."""

    hand = view["hand"]
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
    head.append(f"{phase} · clock {clock(view['clock'], exact=True)}"
                f"{stood(view['clock_paused'])} · {played} {view['hands_played']}")  # R47
    return head


def _turn_lines(view: Frame) -> list[RenderableType]:
    """Under the title: whose turn (or why nobody bets yet) and why the high hand does not
    open, then the pot; between hands, only that."""

    hand = view["hand"]
    if not hand:
        # R18 or the Fool's word (R40): no hand comes any more.
        return [] if view["ended"] else [Text("Between hands.", style="bold")]
    lines: list[RenderableType] = []
    to_act = hand["to_act"]
    if hand["betting_over"]:
        lines.append(Text("Betting is over: the showdown, "
                          f"{printable(', '.join(hand['in']))} show their hands.",
                          style="bold"))
    elif to_act:
        bet = f"bet {hand['bet']}" + (f", raises {hand['raises']}/3"
                                      if hand["phase"] == "limit" else "")
        lines.append(Text.assemble(
            (f" ▶ {printable(to_act)} to act ", "bold reverse"),
            f"  owes {hand['owes']} · {' / '.join(hand['moves'])} · {bet}"))
    elif hand.get("up_waiting"):  # R9: no bet until the round's up cards are in
        lines.append(Text.assemble(("Up cards first: ", "bold"), printable(", ".join(
            f"{w['name']} {w['have']} of {w['want']}" for w in hand["up_waiting"]))
            + " (R9)"))
    if hand.get("opener_note") and to_act:  # R15: why the high hand does not open
        lines.append(Text(printable(hand["opener_note"]), style="bold"))
    chips = f"{hand['pot']} chip" + ("" if hand["pot"] == 1 else "s")
    pot = Text.assemble(("Pot ", "bold"), (chips, "bold"), f" ({money(hand['pot'])})")
    if hand["all_in"] and len(hand["pots"]) > 1:  # side pots: someone is all-in (R14)
        pot.append(printable(" — " + " · ".join(
            f"{p['name']}: {p['size']} ({', '.join(p['eligible'])})" for p in hand["pots"])))
    return [*lines, pot]  # the turn line first, then the pot


class _Stacks:
    """How the chips of a row are drawn: no stacks (``compact``), a column per colour
    (``by_column``), or one column with a line per colour (counts alone when ``narrow``)."""

    def __init__(self, colours: list[str], compact: bool, by_column: bool,
                 narrow: bool) -> None:
        self.colours, self.compact = colours, compact
        self.by_column, self.narrow = by_column, narrow

    def columns(self, table: Table) -> None:

        if self.compact:
            return
        if not self.by_column:
            table.add_column("Stacks", no_wrap=True)
            return
        for colour in self.colours:
            table.add_column(Text(printable(colour), style=chip_style(colour)), no_wrap=True,
                             min_width=13)

    def __call__(self, chips: dict[str, int]) -> list[Text]:

        if self.compact:
            return []
        if self.by_column:
            return [stack(chips.get(c, 0), c) for c in self.colours]
        return [Text("\n").join(stack(n, c, named=True, marks=not self.narrow)
                                 for c, n in chips.items())]


def _cards(seat: SeatView | FoolView) -> str:
    """Up cards marked (E76), then the down cards still to give (E78), of which hooded
    (E77: how many, never which)."""
    text = cards_text(seat.get("cards", []))
    down = seat.get("down")
    if down and seat["in_hand"] != "folded":
        hooded = f", {seat['hooded']} hooded" if seat.get("hooded") else ""
        text += f" ({down} down{hooded})"
    return text.strip()


def _round_bet(seat: SeatView | FoolView) -> str:
    return str(seat["round_bet"]) if seat.get("round_bet") else ""


def _seat_table(view: Frame, stacks: _Stacks) -> Table:
    """A row for each seat (and its assistant, unless compact), the Fool's, then the pot's."""

    hand = view["hand"]
    table = Table(box=box.SIMPLE_HEAD, expand=True, pad_edge=False)
    table.add_column("#", justify="right", no_wrap=True)
    table.add_column("Seat", no_wrap=True)
    stacks.columns(table)
    table.add_column("Chips", justify="right", no_wrap=True)
    # No Charges here: they are each side's own (E87).
    table.add_column("Bet", justify="right", no_wrap=True)
    table.add_column("Cards", min_width=8, ratio=1)
    table.add_column("", no_wrap=True, min_width=6)
    to_act = hand["to_act"] if hand else None
    owes = hand["owes"] if hand else 0
    turn = "bold reverse"
    for seat in view["seats"]:
        acting = seat["name"] == to_act
        note = seat_note(seat)
        style = turn if acting else "dim" if seat["away"] or note == "folded" else "bold"
        table.add_row(Text("▶", style=turn) if acting else str(seat["seat"]),
                      Text.assemble((printable(seat["name"]), style), f" {seat['arcanum']}"),
                      *stacks(seat["chips"]), str(seat["stack"]), _round_bet(seat),
                      _cards(seat), Text(f"owes {owes}", style=turn) if acting else note)
        if seat["assistant"] and not stacks.compact:
            helper = seat["assistant"]
            table.add_row("", Text(f"  {printable(helper['name'])} (assistant)", style="dim"),
                          *stacks(helper["chips"]), str(helper["stack"]), "", "", "")
    fool = view["fool"]
    acting = fool["name"] == to_act
    table.add_row(Text("▶", style=turn) if acting else "",
                  Text(f"{printable(fool['name'])} (the Fool)",
                       style=turn if acting else "italic"),
                  *stacks(fool["chips"]), str(fool["stack"]), _round_bet(fool), _cards(fool),
                  Text(f"owes {owes}", style=turn) if acting
                  else "folded" if fool["in_hand"] == "folded" else "",
                  end_section=bool(hand))
    if hand:
        table.add_row("", Text("POT", style="bold"), *stacks(hand["pot_chips"]),
                      Text(str(hand["pot"]), style="bold"), "", "", "")
    return table


def _foot(view: Frame) -> list[Text]:
    """Under the table: the game's end, what is in force (S17), the depleted Arcana, and a
    problem reading the evening."""

    lines = []
    if view["over"]:
        lines.append(Text(f"The game is over (R18): {printable(view['winner'] or 'nobody')} "
                          "is the last "
                          "stakeholder holding chips.", style="bold"))
    elif view["ended"]:
        closed = view["ceremony"] is not None and view["ceremony"]["stage"] == "closed"
        lines.append(Text("The evening has ended (R40): the Fool declared it; the ceremony "
                          + ("is closed." if closed else "is under way."), style="bold"))
    for text in view.get("in_force", []):  # S17: "Cy must call or fold: Cowed"
        lines.append(Text.assemble(("In force: ", "bold"), printable(text)))
    depleted = printable(", ".join(view["depleted"]) or "none")
    lines.append(Text.assemble(("Depleted Arcana: ", "bold"), depleted))
    if view.get("problem"):
        lines.append(Text(f"(showing the last good view) {printable(view['problem'])}",
                          style="bold red"))
    return lines
