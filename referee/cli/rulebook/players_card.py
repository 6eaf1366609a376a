"""`referee card`: the players' reference card, one printable page (E174).

The sixteen hands high to low, each with an example in card names (the hand evaluator's own
``CATEGORY_EXAMPLES``, ranked by it: ``tests/cli/test_card_cli.py``), Duets and Three Pair,
the betting in both phases, the Fool's duties and how a power is taken; with ``--seat NAME``
that player's name, colour and Arcanum at the top. Printed as text, as ``--json``, or with
``--html FILE`` as a standalone page that prints on one sheet of A4 or Letter.
"""

from __future__ import annotations

import textwrap
from html import escape
from pathlib import Path
from typing import Annotated, TypedDict

import typer

from referee.cli.between.pages import check_page_target, write_page
from referee.cli.options import Json
from referee.cli.output.tables import width
from referee.cli.printing import echo, emit_json, printable
from referee.cli.typed_most import read_state
from referee.names import match_name
from referee.rules.cards import arcanum_label, parse_cards
from referee.rules.hands import CATEGORIES, CATEGORY_EXAMPLES, CATEGORY_TITLES

#: The hands a deck of unique cards cannot make: only a power's magic does (R8).
MAGIC = frozenset({"seven_of_a_kind", "six_of_a_kind", "five_of_a_kind"})

#: The card's paragraphs under their headings: (heading, ((lead, text), ...)). Each says a
#: ruling as the players need it; the ids let a player ask the GM for the ruling in full.
SECTIONS: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = (
    ("Reading a hand", (
        ("Best five of seven.", "Your hand is the best category your cards make; the rest of "
         "the five are kickers. Equal hands split the pot (R7)."),
        ("Order.", "Ace low, King high. Every minor beats every major; among majors the lower "
         "number is higher (0 The Fool highest, XXI The World lowest). Suits never break "
         "ties (R3)."),
        ("Straights wrap", "round A 2 ... 10 P Kn Q K A: 10-P-Kn-Q-K is the highest, "
         "P-Kn-Q-K-A the lowest, K-A-2-3-4 is 4-high. Majors are never in a straight or a "
         "flush (R5)."),
    )),
    ("Duets and Three Pair", (
        ("Duet.", "Any two majors make a Duet; a hand uses one at most, and with three or more "
         "majors it is the two lowest-numbered. Duet against Duet: the lower-numbered card "
         "wins, then the other card (R6)."),
        ("A Duet is less than a pair:", "pair + Duet is below two pair, trips + Duet below a "
         "full house, a Duet below a pair (R4)."),
        ("Three Pair", "is two pairs and a Duet, above a flush. Played to the end of a hand it "
         "earns 3 status points in each Duet Arcanum; pair + Duet earns 1 (R27)."),
    )),
    ("Dealing and betting", (
        ("Up cards.", "A stakeholder shows 2 after the first deal, 4 after the second and "
         "third; the seventh card is down. The Fool's cards are all up (R9)."),
        ("Who opens:", "the highest hand showing (up cards only); a tie, the tied player "
         "nearest the Fool's left (R9)."),
        ("Limit phase (the start):", "no ante; every bet and raise is one chip; three raises "
         "a round at most; checking is allowed (R12)."),
        ("Open phase", "(after an hour of play, or when the Fool says): each stakeholder dealt "
         "in antes one chip; bets and raises are any number of chips (R13)."),
        ("Short of chips?", "Stay in for what you have; the rest is played for side pots "
         "(R14)."),
        ("Chips.", "Ten $100,000 chips of your colour to start. Outside the betting, chips and "
         "Charges pass only between players both away from the table (R10, R16)."),
    )),
    ("The Fool", (
        ("He cannot lose:", "he is dealt every hand and can win every pot, main and side. He "
         "pays no ante and uses no powers (R15)."),
        ("While he holds chips", "he calls every bet and raise, never folds, never raises, "
         "and bets when he shows the high hand. His hand goes to every showdown (R15)."),
    )),
    ("Taking a power", (
        ("Dealt a major face down?", "Hand it to the Fool and ask for its upright or reversed "
         "power. Still free, it is yours; either way the card is out of the hand (R26)."),
        ("Use it", "once, at the moment its card names, paying its Charges from your side's. "
         "An answer to a bet or a power is taken and used in one act (R38)."),
        ("Charges.", "A side starts with none. A right guess about a bottled soul earns them: "
         "its Arcanum 1, its name 2, both at once 3 (R24, R25)."),
    )),
)


class Row(TypedDict):
    """One category of the card: its place, JSON name, title and example."""

    place: int
    category: str
    title: str
    magic: bool
    example: str
    cards: list[str]


class Holder(TypedDict):
    """The player a card is made for (``--seat``)."""

    name: str
    role: str
    colour: str | None
    arcanum: str


def rows() -> list[Row]:
    """The sixteen categories high to low, each with its example (R4)."""
    return [{"place": place, "category": c, "title": CATEGORY_TITLES[c], "magic": c in MAGIC,
             "example": CATEGORY_EXAMPLES[c],
             "cards": [card.name for card in parse_cards(CATEGORY_EXAMPLES[c])]}
            for place, c in enumerate(CATEGORIES, start=1)]


def in_names(names: list[str]) -> str:
    """An example in card names, a card held twice (by magic) counted once with its number.

    >>> in_names(["King of Cups", "King of Cups", "The Fool"])
    'King of Cups ×2, The Fool'
    """
    out: list[str] = []
    for name in dict.fromkeys(names):
        n = names.count(name)
        out.append(name + (f" ×{n}" if n > 1 else ""))
    return ", ".join(out)


def holder(name: str) -> Holder:
    """``--seat NAME``: the player's colour and Arcanum from the evening."""
    state = read_state()  # --seat only: the card alone opens no evening
    who = match_name(name, state.people, "person")  # as every command names a person
    if who == state.fool:
        return {"name": who, "role": "the Fool", "colour": None, "arcanum": arcanum_label(0)}
    for i, seat in enumerate(state.seats, 1):
        if who == seat.name:
            return {"name": who, "role": f"seat {i} from the Fool's left",
                    "colour": seat.colour, "arcanum": arcanum_label(seat.arcanum)}
        if who == seat.assistant:
            arcanum = seat.assistant_arcanum
            return {"name": who, "role": f"assistant to {seat.name}", "colour": seat.colour,
                    "arcanum": "" if arcanum is None else arcanum_label(arcanum)}
    raise AssertionError(f"{who} is in the evening but holds no place")  # person() found them


def holder_line(who: Holder) -> str:
    """The card's line for its player, e.g. ``Ada · seat 5 from the Fool's left · red chips
    · XVI The Tower``."""
    parts = [who["name"], who["role"]]
    if who["colour"]:
        parts.append(f"{who['colour']} chips")
    if who["arcanum"]:
        parts.append(who["arcanum"])
    return " · ".join(parts)


def text(who: Holder | None, columns: int = 80) -> str:
    """The card as plain lines for the terminal, wrapped at ``columns``."""
    mine = f" for {printable(holder_line(who))}" if who else ""  # names as data (E42)
    out = [textwrap.fill(f"Fool's Errand: the players' card{mine}", columns),
           "", "Hands, high to low (R4):"]
    for row in rows():
        magic = " (magic only)" if row["magic"] else ""
        out.append(textwrap.fill(f"{row['place']:>3}. {row['title']}{magic}: "
                                 f"{in_names(row['cards'])}", columns, subsequent_indent=" " * 5))
    for heading, items in SECTIONS:
        out += ["", f"{heading}:"]
        out += [textwrap.fill(f"  - {lead} {body}", columns, subsequent_indent=" " * 4)
                for lead, body in items]
    return "\n".join(out)


CSS = """
@page { size: auto; margin: 7mm 9mm; }
* { box-sizing: border-box; }
html { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
body { font: 9pt/1.2 Georgia, "DejaVu Serif", "Times New Roman", serif; color: #111;
       margin: 0 auto; max-width: 194mm; padding: 0; }
h1 { font-size: 16pt; margin: 0 0 1mm; }
h1 small { font-size: 10pt; font-weight: normal; color: #444; }
.who { font-size: 12pt; font-weight: bold; border: 0.4mm solid #111; padding: 1mm 2.5mm;
       margin: 1mm 0 2mm; display: inline-block; }
h2 { font-size: 10.5pt; margin: 1.8mm 0 0.6mm; border-bottom: 0.3mm solid #888; }
table { border-collapse: collapse; width: 100%; }
td, th { text-align: left; vertical-align: top; padding: 0.3mm 1.5mm 0.3mm 0; }
th { font-size: 9pt; border-bottom: 0.3mm solid #888; }
tr:nth-child(even) td { background: #eee; }
td.n { text-align: right; width: 6mm; color: #444; }
td.h { width: 38mm; font-weight: bold; white-space: nowrap; }
td.h i { font-weight: normal; color: #444; }
.cols { column-count: 2; column-gap: 7mm; }
.cols p { break-inside: avoid; }
.cols h2 { break-after: avoid; }
.cols h2:first-child { margin-top: 0; }
p { margin: 0 0 1mm; }
p b { font-weight: bold; }
.foot { margin-top: 1.5mm; font-size: 9pt; color: #444; }
"""


def html(who: Holder | None) -> str:
    """The card as a standalone page (inline CSS, no script), one sheet of A4 or Letter."""
    body = ["<h1>Fool's Errand <small>the players' card</small></h1>"]
    if who:
        body.append(f'<div class="who">{escape(holder_line(who))}</div>')
    body.append("<h2>Hands, high to low (R4)</h2><table><tr><th></th><th>Hand</th>"
                "<th>For example</th></tr>")
    for row in rows():
        magic = " <i>*</i>" if row["magic"] else ""
        body.append(f'<tr><td class="n">{row["place"]}</td><td class="h">'
                    f'{escape(row["title"])}{magic}</td>'
                    f'<td>{escape(in_names(row["cards"]))}</td></tr>')
    body.append('</table><p class="foot">* Only by magic, when a power makes a card twice '
                '(R8). The GM reads any ruling in full: <code>referee rules R6</code>.</p>'
                '<div class="cols">')
    for heading, items in SECTIONS:
        body.append(f"<section><h2>{escape(heading)}</h2>")
        body += [f"<p><b>{escape(lead)}</b> {escape(said)}</p>" for lead, said in items]
        body.append("</section>")
    body.append("</div>")
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>Fool's Errand: the players' card</title><style>{CSS}</style></head>"
            f"<body>{''.join(body)}</body></html>\n")


def card(
    html_out: Annotated[Path | None, typer.Option(
        "--html", help="Write the card as a printable page (one sheet, A4 or Letter).")] = None,
    seat: Annotated[str | None, typer.Option(
        "--seat", help="Add this player's colour and Arcanum, from the evening.")] = None,
    force: Annotated[bool, typer.Option(
        "--force", help="Let --html replace an existing file (never the evening).")] = False,
    as_json: Json = False,
) -> None:
    """The players' reference card: the hands high to low, Duets, betting, the Fool, powers.

    One printable page to pass round the table (`--html card.html`, then print it); with
    `--seat NAME` it carries that player's colour and Arcanum from the evening (E174).
    """
    if html_out is not None:
        check_page_target(html_out, force)
    who = holder(seat) if seat is not None else None
    if html_out is not None:
        write_page(html_out, html(who), secret=False, force=force)
    if as_json:
        emit_json({"seat": who, "hands": rows(),
                   "sections": [{"heading": h, "items": [f"{lead} {body}" for lead, body in items]}
                                for h, items in SECTIONS]})
        return
    if html_out is not None:
        echo(f"The players' card written to {printable(str(html_out))}: print it on one page.")
        return
    echo(text(who, max(60, min(100, width()))))


def register(app: typer.Typer) -> None:
    app.command("card", rich_help_panel="The rulebook")(card)
