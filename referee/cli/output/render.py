"""Human output of the evening with rich: status, announcements, the log."""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from referee.cli import context
from referee.cli.context import console
from referee.cli.output.tables import Grid, console_width
from referee.cli.printing import clock, echo, lit, money, printable, say, short_money, stood
from referee.cli.suggest import told
from referee.evening.known import showdown_line
from referee.names import plural
from referee.rules.cards import parse_cards, to_roman

if TYPE_CHECKING:
    from referee.evening.events import ClockResumed, ClockStopped, PhaseOpened, SeatChanged
    from referee.evening.state import Seat, State
    from referee.evening.views import HandView, Status
    from referee.serve.players import CardShown
    from referee.storage.store import Command
    from referee.storage.tables import Undone


def cards_text(cards: list[CardShown]) -> str:
    """Up cards as the powers in force leave them (E76): ``2S(dead) 9S(as KS) QP(held)``.

    >>> cards_text([{"card": "2S", "dead": True, "counts_as": None, "held": False},
    ...             {"card": "9S", "dead": False, "counts_as": "KS", "held": True}])
    '2S(dead) 9S(as KS, held)'
    """
    out = []
    for c in cards:
        marks = (["dead"] if c["dead"] else []) + (
            [f"as {c['counts_as']}"] if c["counts_as"] else []) + (["held"] if c["held"] else [])
        out.append(c["card"] + (f"({', '.join(marks)})" if marks else ""))
    return " ".join(out)


def holding_text(holding: dict[str, int]) -> str:
    parts = [f"{lit(c)} {n}" for c, n in sorted(holding.items()) if n]
    return ", ".join(parts) if parts else "-"


def column_head(colour: str, colours: list[str]) -> str:
    """A colour's head in a narrow status table: a word of four letters whole, a longer one
    cut to three letters, or more where that would read as another colour of the table.

    >>> [column_head(c, ["green", "grey", "blue", "purple"]) for c in ["green", "grey", "blue",
    ...                                                                 "purple"]]
    ['gree', 'grey', 'blue', 'pur']
    """
    if len(colour) <= 4:
        return colour
    cut = 3
    while cut < len(colour) and any(c != colour and c[:cut] == colour[:cut] for c in colours):
        cut += 1
    return colour[:cut]


def evening_opened(state: State, path: Path) -> None:
    say(f"[bold]The evening is open[/] ({lit(path)}). The Fool: [bold]{lit(state.fool)}[/]. "
        "Seats from the Fool's left (R9):")
    status(state)
    if state.souls:
        bottled = [s for s in state.souls if s.kind == "bottled"]
        say(f"{len(bottled)} bottled souls given out; `referee soul list` shows who holds which.")
    say("Deal the first hand with [bold]referee hand start[/].")


def status(state: State, now: float | None = None) -> None:
    """The status table; ``now`` the moment it is of (`status --at`: the command's, E134)."""
    from referee.evening import views  # not at the top: `log --last N` does without (E160)

    data = views.status(state, now)
    # E172: the whole table while it fits the screen; narrower, first the turn's mark is cut
    # to `<`, then the side's dollars go, and only then are the colours (the widest columns)
    # cut to three letters.
    limit = console_width()
    for short, side, brief in ((False, True, False), (False, True, True), (False, False, True),
                               (True, False, True)):
        table = _status_grid(state, data, short, side, brief)
        if table.natural_width() <= limit:
            break
    table.show()
    hand = data["hand"]
    if hand:
        _hand_table(hand, state.hand.hooded if state.hand else {})
        say(_hand_line(state, hand))
    if data["over"]:
        say(f"[bold]The game is over (R18):[/] {lit(data['winner'] or 'nobody')} is the last "
            "stakeholder holding chips.")
    elif data["open_phase_due"]:
        say("[yellow]An hour has passed: the Fool may declare the open phase (R13).[/]")


def _status_grid(state: State, data: Status, short: bool, side: bool, brief: bool) -> Grid:
    """The status table: the colours ``short`` (three letters) or whole, the side's dollars
    with ``side``, the mark of the player to act ``brief`` (`<`) or in words."""
    colours = [s.colour for s in state.seats]
    table = Grid(title=_title(data["phase"], data["open_pending"], data["hands_played"],
                              data["clock"]) + stood(data["clock_paused"]))  # R47
    table.add_column("Seat", no_wrap=True, max_width=15)
    table.add_column("Arc", no_wrap=True, min_width=3)
    for colour in colours:  # short heads, each its own (grey whole, gree beside it)
        table.add_column(lit(column_head(colour, colours) if short else colour),
                         justify="right", min_width=3, no_wrap=True)
    table.add_column("Chips", justify="right", min_width=5, no_wrap=True)
    if side:
        table.add_column("Side", justify="right", min_width=5, no_wrap=True)
    table.add_column("Ch", justify="right", min_width=2)
    table.add_column("", no_wrap=True)
    hand = data["hand"]

    def cells(label: str, arc: str, chips: list[str], count: str, dollars: str, charges: str,
              note: str) -> list[str]:
        return [label, arc, *chips, count, *([dollars] if side else []), charges, note]

    for i, seat in enumerate(state.seats, 1):
        row = _chip_row(state, seat.name, colours)
        note = _seat_notes(seat, hand, brief)
        table.add_row(*cells(f"{i} {lit(seat.name)}", to_roman(seat.arcanum), row,
                             str(state.stack(seat.name)),
                             short_money(state.side_chips(seat.name)),
                             str(state.charges.get(seat.name, 0)), " ".join(note)))
        if seat.assistant:
            row = _chip_row(state, seat.assistant, colours)
            table.add_row(*cells(f"  +{lit(seat.assistant)}", "", row,
                                 str(state.stack(seat.assistant)), "", "", ""), style="dim")
    fool_note = ""
    if hand and hand["to_act"] == state.fool:
        fool_note = "< (forced)" if brief else "to act (forced)"
    table.add_row(*cells(f"  {lit(state.fool)} (Fool)", "0", _chip_row(state, state.fool, colours),
                         str(state.stack(state.fool)), short_money(state.stack(state.fool)),
                         "", fool_note), style="italic")
    if hand:
        table.add_row(*cells("  [bold]pot[/]", "", _chip_row(state, "pot", colours),
                             str(hand["pot"]), short_money(hand["pot"]), "", ""),
                      end_section=True)
    return table


def _seat_notes(seat: Seat, hand: HandView | None, brief: bool) -> list[str]:
    """What the status table notes of a seat: out of the evening (resigned, dead, risen),
    out of the hand or all in (S19: suspended said so), to act (a mark alone when
    ``brief``)."""
    note = []
    if seat.resigned:
        note.append("resigned")
    elif seat.dead:
        note.append("dead")
    elif not seat.seated:
        note.append("risen")
    if hand and seat.name in hand["folded"]:
        note.append("folded")
    if hand and seat.name in hand["suspended"]:
        note.append("suspended")  # S19: as if all-in, but said so
    elif hand and seat.name in hand["all_in"]:
        note.append("all-in")
    if hand and hand["to_act"] == seat.name:
        note.append("[bold reverse]<[/]" if brief else "[bold reverse]< to act[/]")
    return note


def _hand_table(hand: HandView, hooded: dict[str, list[str]]) -> None:
    """Mid-hand: each player's up cards (marked as the powers in force leave them, E76), down
    cards still to give (E78), chips in, and every pot with who can win it. The GM's view:
    a hooded card is named (E77)."""

    table = Grid()
    for name, justify in (("In hand", "left"), ("Up cards", "left"), ("Down", "right"),
                          ("Round", "right"), ("Hand", "right"), ("", "left")):
        table.add_column(name, justify=justify, no_wrap=name != "Up cards")  # type: ignore[arg-type]
    for p in hand["players"]:
        note = ("folded" if p["folded"] else "suspended" if p["suspended"] else
                "all-in" if p["all_in"] else
                f"to act, owes {hand['owes']}" if p["to_act"] else "")
        up = cards_text(p["cards"]) or "-"
        if hooded.get(p["name"]):
            up += " · hooded " + " ".join(hooded[p["name"]])
        table.add_row(lit(p["name"]), up, "-" if p["down"] is None else str(p["down"]),
                      str(p["round"]), str(p["hand"]), note,
                      style="dim" if p["folded"] else None)
    table.show()
    if len(hand["pots"]) > 1 or hand["uncalled"]:
        parts = [f"{p['name']} {p['size']} ({', '.join(p['eligible'])})" for p in hand["pots"]]
        parts += [f"uncalled so far: {n} of {who}'s" for who, n in hand["uncalled"].items()]
        say(lit("Pots: " + "; ".join(parts) + "."))


def _title(phase: str, open_pending: bool, hands_played: int, seconds: int | None) -> str:
    shown = "limit phase (1 chip, 3 raises)" if phase == "limit" else "open phase"
    if open_pending:
        shown += ", open phase from the next hand"
    return (f"Fool's Errand - {shown} - hands played {hands_played} - "
            f"clock {clock(seconds)}")


def _chip_row(state: State, name: str, colours: list[str]) -> list[str]:
    holding = state.holding(name)
    return [str(holding.get(c, 0) or "") for c in colours]


def _hand_line(state: State, hand: HandView) -> str:
    street = {1: "after four cards", 2: "after six cards", 3: "after seven cards"}
    head = f"Hand {hand['no']}, {street[hand['street']]}: bet {hand['bet']}"
    if hand["phase"] == "limit":
        head += f", raises {hand['raises']}/3"
    if hand["betting_over"] and state.hand is not None:  # the core's words (R44, E240)
        return head + ". [bold]Betting is over:[/] " + lit(told(showdown_line(state.hand))) + "."
    if hand["to_act"] is None and hand["missing_up"]:
        missing = ", ".join(
            f"{lit(p)} {len(hand['showing'].get(p, []))} of {hand['up_due'][p]}"
            for p in hand["missing_up"])
        return head + (f". [bold]Up cards first[/] (R9): {missing} "
                       "(`hand show NAME CARDS`, or `+CARDS` for the new ones).")
    line = head + f". [bold]{lit(hand['to_act'])}[/] to act: {'/'.join(hand['moves'])}"
    if hand["owes"]:
        line += f" (owes {hand['owes']})"
    if hand.get("opener_note"):  # R15: why the high hand showing does not open
        line += f". {lit(hand['opener_note'])}"
    if hand.get("effects"):  # S17: powers in force, names printed literally
        line += ". In force: " + "; ".join(lit(t) for t in hand["effects"])
    return line + "."


def announce(before: State, after: State, events: Sequence[Mapping[str, Any]]) -> None:
    """What just happened, in table order, then who is to act."""
    for event in events:
        kind = event["kind"]
        if kind == "action":
            _say_action(after, event)
        elif kind == "hand_started":
            _say_dealt(event["no"], event["phase"], event["order"], event["antes"])
        elif kind == "cards_shown":
            _say_shown(before, event["name"], event["cards"])
        elif kind == "cards_fixed":
            _say_fix(event)
        elif kind == "showdown":
            _say_showdown(event)
        elif kind == "chips_given":
            _say_given(event["from"], event["to"], event["chips"], event.get("ruling"))
        elif kind == "seat_changed":
            _say_seat(cast("SeatChanged", event))
        elif kind in ("phase_opened", "clock_resumed", "clock_stopped"):
            _say_time(after, cast("PhaseOpened | ClockResumed | ClockStopped", event),
                      any(e["kind"] == "hand_started" for e in events))
        else:
            _say_other(event)
    _say_round_change(before, after)
    if after.hand is not None:
        from referee.evening import views  # as in status

        view = views.hand_view(after)
        assert view is not None
        say(_hand_line(after, view))
    if before.over and not after.over:
        say("[bold]Two sides hold chips again: the game goes on (R18).[/]")
    if after.over and not before.over:
        say(f"[bold]The game is over (R18):[/] {lit(after.winner or 'nobody')} and the Fool are "
            f"the only ones holding chips. The Fool keeps his; {lit(after.winner)} takes the "
            "rest.")


def _say_dealt(no: int, phase: str, order: Sequence[str],
               antes_paid: Mapping[str, Mapping[str, int]]) -> None:
    """A hand dealt: its number, its phase, to whom, and the antes (R12, R13)."""
    antes = sum(sum(c.values()) for c in antes_paid.values())
    dealt = lit(", ".join(order))
    say(f"[bold]Hand {no}[/] ({phase} phase) dealt to {dealt}."
        + (f" Antes: {plural(antes, 'chip')} in the pot (R13)." if antes
           else " No ante (R12)."))


def _say_shown(before: State, name: str, showing: Sequence[str]) -> None:
    """Up cards shown (``showing``: all of ``name``'s now): the new ones by their names, and
    all of them when some were up before."""
    had = list(before.hand.showing.get(name, [])) if before.hand else []
    fresh = list(showing)
    for card in had:
        if card in fresh:
            fresh.remove(card)
    cards = parse_cards(" ".join(fresh))
    up = f" (up: {' '.join(showing)})" if had else ""
    say(f"{lit(name)} shows {', '.join(c.long for c in cards)}{up}.")


def _say_given(giver: str, taker: str, chips: dict[str, int], ruling: str | None) -> None:
    """Chips given away from the table (R16), or handed over by the referee's ruling (E24)."""
    if ruling:
        say(f"By the referee's ruling, {lit(giver)} hands {lit(taker)} "
            f"{holding_text(chips)}: {lit(ruling)}.")
    else:
        say(f"{lit(giver)} gives {lit(taker)} {holding_text(chips)} "
            "(away from the table, R16).")


def _say_time(after: State, event: PhaseOpened | ClockResumed | ClockStopped,
              with_deal: bool) -> None:
    """The open phase declared (R13, E12) and the clock stopped or run again (R47, E200);
    ``with_deal``: a hand was dealt by the same command."""
    if event["kind"] == "phase_opened":  # E12: with the hand dealt by the same command, or next
        say("[bold]The Fool declares the open phase[/] (R13): an ante of one chip, bets and "
            "raises at will" + (", from this hand." if with_deal else
                                ", from the next hand." if after.hand else "."))
    elif event["kind"] == "clock_resumed":  # R47; E200: a hand dealt ends a pause or a break
        say("The clock runs again" + (" with this deal (R47, E200)." if with_deal else
                                      " (R47)."))
    else:
        say("The clock stands still" + stood({"until": event["until"]}) + " (R47).")


def _say_seat(event: SeatChanged) -> None:
    if event.get("resigned"):
        say(f"{lit(event['name'])} resigns and leaves the game for good (R17).")
    else:
        where = "sits at" if event["seated"] else "rises from"
        say(f"{lit(event['name'])} {where} the table.")


def _say_fix(event: Mapping[str, Any]) -> None:
    say(f"Correction: {lit(event['name'])}'s up card {event['old']} is {event['new']}; showing now "
        f"{' '.join(event['cards'])} (E25).")
    for change in event.get("openers", []):
        say(f"Had it shown in round {change['street']}, {lit(change['would'])} would have "
            f"opened, not {lit(change['opened'])}; the betting stands (E25).")


def _say_other(event: Mapping[str, Any]) -> None:
    from referee.cli.powers import render_souls  # a soul's or a power's event only

    render_souls.announce(event)


def _say_action(state: State, event: Mapping[str, Any]) -> None:
    name, action = event["name"], event["action"]
    n = sum(event["chips"].values())
    words = {"bet": f"bets {n}", "raise": f"raises, putting in {n}", "call": f"calls {n}",
             "check": "checks", "fold": "folds"}[action]
    if event.get("all_in"):
        words += " and is all-in (R14)"
    paid = f" \\[{holding_text(event['chips'])}]" if n else ""
    auto = f" - forced: {lit(event['why'])}" if event.get("auto") else ""
    say(f"{lit(name)} {words}{paid}{auto}.")


def _say_round_change(before: State, after: State) -> None:
    b, a = before.hand, after.hand
    if b is None or a is None or b.no != a.no:
        return
    if a.betting_over and not b.betting_over:
        say("[bold]No more betting in this hand[/] (at most one player can still act, or the "
            "last round is complete): deal the rest and record the showdown.")
    elif a.round.street != b.round.street:
        say(f"[bold]The betting round is complete.[/] Deal the next cards; round {a.round.street}"
            " follows (give the new up cards with `referee hand show NAME +CARDS`).")


def _say_showdown(event: Mapping[str, Any]) -> None:
    from referee.rules.hands import CATEGORY_TITLES  # a showdown's only, as rich's table

    if event["hands"]:
        from rich.table import Table

        table = Table(title="Showdown", title_justify="left")
        table.add_column("Player")
        table.add_column("Hand")
        table.add_column("Cards")
        for name, best in event["best"].items():
            cards = parse_cards(" ".join(best["cards"]))
            table.add_row(lit(name), CATEGORY_TITLES[best["category"]],
                          ", ".join(c.name for c in cards))
        console().print(table)
    for name, chips in event["returned"].items():
        say(f"Uncalled chips go back to {lit(name)}: {holding_text(chips)} (R15).")
    if not event["pots"] and not event["returned"]:
        leaders = event.get("leaders") or []
        if leaders:
            best = CATEGORY_TITLES[event["best"][leaders[0]]["category"]].lower()
            verb = "share" if len(leaders) > 1 else "has"
            say(f"{lit(' and '.join(leaders))} {verb} the best hand ({best}); no chips were in the "
                "pot, so the hand is over with nothing to award.")
        else:
            say("No chips were in the pot: the hand is over with nothing to award.")
    for pot in event["pots"]:
        size = sum(pot["chips"].values())
        shares = "; ".join(f"{lit(w)} takes {holding_text(c)}" for w, c in pot["shares"].items())
        who = lit(" and ".join(pot["winners"]))
        verb = "split" if len(pot["winners"]) > 1 else "won by"
        say(f"[bold]{pot['name'].capitalize()}[/] ({plural(size, 'chip')}, {money(size)}) {verb} "
            f"[bold]{who}[/]: {lit(pot['why'])}. {shares}.")


def log(commands: list[Command], undone: list[Undone],
        notes: dict[int, str] | None = None) -> None:
    if not context.current().has_console and not sys.stdout.isatty():
        _plain_log(commands, undone, notes or {})  # piped: plain lines, without loading rich
        return
    from rich.table import Table  # a terminal's table only (E120)

    table = Table(title="The evening's log", title_justify="left")
    table.add_column("#", justify="right")
    table.add_column("Time")
    table.add_column("Table")
    table.add_column("Command")
    table.add_column("Events", justify="right")
    from rich.text import Text

    for c in commands:
        table.add_row(str(c.cmd), datetime.fromtimestamp(c.time).strftime("%H:%M:%S"), c.stream,
                      Text("\n".join(printable(ln) for ln in _lines(c, notes or {}))),
                      str(len(c.events)))
    console().print(table)
    undone = still_undone(undone)
    if undone:
        say(f"{plural(len(undone), 'command')} undone and kept: "
            + lit("; ".join(u["text"] for u in undone[-5:])))


def still_undone(undone: list[Undone]) -> list[Undone]:
    """The commands undone and not brought back: a redone one is in the log again (E13)."""
    return [u for u in undone if "redone_at" not in u]


def _lines(c: Command, notes: dict[int, str] | None = None) -> list[str]:
    """A command's log line, a line for each power it used (S17), and whether an amendment
    replaced or replayed it (E138)."""
    note = (notes or {}).get(c.cmd)
    return [c.text] + ([f"  ({note})"] if note else []) + [
        f"  {e.get('title', e['power'])}" + (f" on {e['target']}" if e.get("target") else "")
        + f": {e['summary']}" for e in c.events if e["kind"] == "power_used" and e.get("summary")]


def _plain_log(commands: list[Command], undone: list[Undone],
               notes: dict[int, str]) -> None:
    """The log off a terminal: one line a command (number, time, table, events, text)."""

    out = ["The evening's log: #, time, table, events, command"]
    for c in commands:
        lines = [printable(ln) for ln in _lines(c, notes)]
        out.append(f"{c.cmd:>5} {datetime.fromtimestamp(c.time).strftime('%H:%M:%S')} "
                   f"{c.stream:<7} {len(c.events):>3}  {lines[0]}")
        out += [f"{'':>24}{ln}" for ln in lines[1:]]
    undone = still_undone(undone)
    if undone:
        out.append(f"{plural(len(undone), 'command')} undone and kept: "
                   + printable("; ".join(u["text"] for u in undone[-5:])))
    echo("\n".join(out))


def verify(path: Path, count: int, problems: list[str], backup: Path | None = None, *,
           damaged: bool = False) -> None:
    if problems:
        say(f"[bold red]{lit(path)}: {plural(len(problems), 'problem')}[/] in "
            f"{plural(count, 'event')}:")
        for p in problems[:20]:
            say(f"  - {lit(p)}")
        if damaged:  # E93: the way back, a backup of this very evening
            say(f"The newest good backup is {lit(backup)} (copy it over {lit(path.name)} to go "
                "on)." if backup is not None else "No good backup of this evening was found.")
    else:
        say(f"{lit(path)}: sound. {count} events, hash chain and snapshots check out.")

