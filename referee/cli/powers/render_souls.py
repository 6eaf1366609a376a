"""Human output for souls, clues, guesses, Charges, powers and status points."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, NotRequired, TypedDict

from referee.cli.context import console
from referee.cli.printing import lit, lit_values, printable, say
from referee.evening.powers.announce import depletion as depletion_announced
from referee.names import plural
from referee.rules.cards import arcanum_label, parse_card

if TYPE_CHECKING:
    from referee.evening.events import PowerSpec
    from referee.evening.state import State
    from referee.report_records import Claim, Handout


class SoulListed(TypedDict):
    """A soul as `soul list` gives it: ``--json`` has exactly these keys (identity and Arcanum
    with --reveal); the table adds whether a bottled soul has been named (R24)."""

    soul: str
    kind: str
    holder: str | None
    destroyed: bool
    identity: NotRequired[str]
    arcanum: NotRequired[str]
    identified: NotRequired[bool]


class PowerListed(TypedDict):
    """A power as `power list` and `power show` give it: its words and what became of it."""

    key: str
    card: str
    orientation: str
    name: str
    charges: int
    when: str
    text: str
    available: bool
    holder: str | None
    used: bool
    spent: str | None


def announce(event: Mapping[str, Any]) -> None:
    """One line for a soul, Charge or power event in an action's report."""
    kind = event["kind"]
    raw, event = event, lit_values(event)  # every name printed literally (E42)
    if kind == "auction_opened":
        via = (f" (held for them by {event['holder']})" if event["holder"] != event["seller"]
               else "")
        say(f"{event['seller']} puts {event['soul']}{via} up for auction: bids with "
            "`soul bid BUYER COLOUR:N [--promise TEXT]` (R20).")
    elif kind == "auction_bid":
        bid = ", ".join(f"{lit(c)} {n}" for c, n in event["chips"].items())
        parts = [p for p in (bid, lit(repr(raw["promise"])) if event["promise"] else "") if p]
        say(f"{event['buyer']} bids {' and '.join(parts)} for {event['soul']}.")
    elif kind == "auction_closed":
        say(f"{event['seller']} withdraws {event['soul']}: the auction ends unsold.")
    elif kind == "soul_sold":
        bid = ", ".join(f"{lit(c)} {n}" for c, n in event["chips"].items())
        promise = f" and the promise {lit(repr(raw['promise']))}" if event["promise"] else ""
        say(f"{event['seller']} sells {event['soul']} to {event['buyer']} for "
            f"{bid or 'no chips'}{promise} (R20).")
    elif kind == "soul_traded":
        how = "forces a trade of" if event["how"] == "force-trade" else "is bought out of"
        say(f"{event['seller']} {how} {event['soul']}: it goes to {event['buyer']}, and "
            f"{event['seller']} receives {event['count']} {event['colour']} "
            f"{'chip' if event['count'] == 1 else 'chips'} (R21).")
    elif kind == "buyout_declined":
        say(f"{event['buyer']} declines to buy {event['owner']}'s soul; {event['owner']} may "
            "resign (R17).")
    elif kind == "soul_destroyed":
        if event["how"] == "smashed":
            say(f"{event['holder']} smashes {event['soul']}: {event['victim']} dies and is out "
                "of the game; their chips stay where they are for the referee to settle (R22).")
        else:
            say(f"{event['holder']} consumes {event['soul']}: +1 status point in "
                f"{arcanum_label(event['arcanum'])} (R27).")
    elif kind == "soul_given":
        say(f"{event['from']} gives {event['soul']} to {event['to']} (away from the table, R16).")
    elif kind == "charges_given":
        say(f"{event['from']}'s side gives {plural(event['n'], 'Charge')} to {event['to']}'s "
            "side (R25).")
    elif kind == "power_used":
        power_used(event)
    elif kind == "power_accessed":  # `power use ... --access CARD`: one act (R38)
        say(f"{event['name']} slides {event['card']} face down to the Fool for its "
            f"{event['orientation']} power (R26, R38).")
        depletion(event["card"], granted=event["granted"], depleted=event["depleted"])
    else:
        say(lit(f"{kind}: {raw}"))


def power_used(event: Mapping[str, Any]) -> None:
    """The power, its user, target and Charges, then what it did (S11-S30); names literal."""
    title = event.get("title", event["power"])
    on = f" on {event['target']}" if event.get("target") else ""
    extra = f" ({event['surcharge']} more for Ill Star)" if event.get("surcharge") else ""
    line = (f"{event['name']} uses {title}{on}, paying {plural(event['charges'], 'Charge')}"
            f"{extra} (R26)")
    if event.get("summary"):
        line += f": {event['summary']}"
    say(line + ".")  # the event's words are literal already (lit_values)
    if event.get("effect") in ("private", "by_hand"):
        say("GM: nothing changes in the books; see that it is done at the table.")


def soul_table(state: State, rows: list[SoulListed], reveal: bool) -> None:
    from rich.table import Table  # the tables only: rich is loaded where one is drawn

    table = Table(title="Souls" + (" (revealed: GM's eyes only)" if reveal else ""),
                  title_justify="left")
    for col in ("Soul", "Kind", "Holder", "Identified"):
        table.add_column(col)
    if reveal:
        table.add_column("Identity")
        table.add_column("Arcanum")
    for row in rows:
        holder = row["holder"] or ("smashed" if row["destroyed"] else "-")
        soul = state.soul(row["soul"])
        if soul.destroyed:
            holder = soul.destroyed
        cells = [lit(row["soul"]), lit(row["kind"]), lit(holder),
                 "yes" if row["identified"] else "no"]
        if reveal:
            cells += [lit(row["identity"]), lit(row["arcanum"])]
        table.add_row(*cells)
    console().print(table)


def clue(event: Mapping[str, Any]) -> None:
    event = lit_values(event)
    say(f"[bold]{event['assistant']}[/] studies {event['soul']} "
        f"(clue {event['n']} of {event['of']}):")
    say(f"  [italic]{event['clue']}[/]")
    if event["n"] == event["of"]:
        say("  That was the last clue on this sheet (R23).")


def guess(event: Mapping[str, Any], state: State) -> None:
    r = event["result"]
    raw, event = event, lit_values(event)
    parts = []
    if r["name"]:
        word = {"correct": "[bold green]correct[/]", "wrong": "wrong",
                "near": "[yellow]a near miss[/] (not accepted; tell the assistant it is close, "
                        "or not, as you see fit)"}[r["name"]]
        parts.append(f"name {lit(repr(raw['name']))}: {word}")
    if r["arcanum"]:
        parts.append(f"Arcanum {event['arcanum']}: "
                     + ("[bold green]correct[/]" if r["arcanum"] == "correct" else "wrong"))
    say(f"{event['assistant']} guesses {event['soul']}: " + "; ".join(parts) + ".")
    if event["charges"]:
        say(f"First to get it right: +{plural(event['charges'], 'Charge')} for "
            f"{event['side']}'s side, "
            f"now {state.charges.get(raw['side'], 0)} (R24).")
    elif "correct" in (r["name"], r["arcanum"]):
        say("Correct, but someone was first: no Charges (R24).")
    say(f"{event['left']} guess(es) left for {event['assistant']} on this soul.")


def power_lines(spec: PowerSpec | PowerListed, status: str = "", indent: str = ""
                ) -> list[str]:
    """A power read aloud, from the evening's power set: card and way, name, Charges, when,
    then its whole text (R26). Printed literally: a power set's words are data."""
    import shutil  # a power read aloud only
    import textwrap

    card = spec["card"] if isinstance(spec["card"], int) else parse_card(spec["card"]).rank
    charges = f"{spec['charges']} Charge" + ("" if spec["charges"] == 1 else "s")
    head = (f"{indent}{arcanum_label(card)}, {spec['orientation']}: {spec['name']} "
            f"({charges}; {spec['when']})" + (f" · {status}" if status else ""))
    width = max(40, min(100, shutil.get_terminal_size((100, 24)).columns))
    more = indent + "  "
    return [*textwrap.wrap(head, width, subsequent_indent=more + "  "),
            *textwrap.wrap(str(spec["text"]), width, initial_indent=more,
                           subsequent_indent=more)]


def power_text(spec: PowerSpec | PowerListed, status: str = "", indent: str = "") -> None:
    import typer  # not at the top: `render` loads this module on the fast path (E160)

    typer.echo("\n".join(printable(line) for line in power_lines(spec, status, indent)))


def access(event: Mapping[str, Any], spec: PowerSpec) -> None:
    card = parse_card(event["card"])
    name = lit(event["name"])
    if event["granted"]:
        say(f"{name} receives {lit(spec['name'])} (R26), to read aloud:")
        power_text(spec, indent="  ")
    else:
        say(f"The {event['orientation']} power of {card.long} is already out: nothing granted.")
    say(f"{card.long} is out of {name}'s hand for this hand (R26).")
    depletion(event["card"], granted=event["granted"], depleted=event["depleted"])


def depletion(card: str, *, granted: bool, depleted: bool) -> None:
    """R26: the Fool announces a card depleted when an access takes its second power, on
    every path that records an access (``power access``, ``power use --access``); an access
    of a card already depleted says so, unannounced (``powers.announce``)."""
    line = depletion_announced(card, granted=granted, depleted=depleted)
    if line is not None:
        say(f"[bold]{line}.[/]")
    elif depleted:
        say(f"{parse_card(card).name} is depleted: both its powers are out (R26).")


def power_table(rows: list[PowerListed], depleted: list[str] | None) -> None:
    """Every power of the set with its name and whole text, and who holds it (R26)."""
    import typer  # not at the top: `render` loads this module on the fast path (E160)

    out = []
    for row in rows:
        if row["available"]:
            status = "available"
        elif not row["used"]:
            status = f"held by {row['holder']}"
        elif row.get("spent", "used") == "used":
            status = f"used by {row['holder']}"
        else:  # E57: lost to Downfall, cancelled by Mistrial
            status = f"{row['spent']} ({row['holder']}'s)"
        out += power_lines(row, status)
    typer.echo("\n".join(printable(line) for line in out))  # names and texts are data
    if depleted is not None:
        typer.echo(printable("Depleted: " + (", ".join(depleted) if depleted else "none") + "."))


def points(state: State, *, reveal: bool = False) -> None:
    from rich.table import Table  # the tables only: rich is loaded where one is drawn

    from referee.evening import points as pts  # the points table only

    def label(arcanum: int) -> str:
        return "? (a soul's secret Arcanum)" if arcanum == pts.HIDDEN else arcanum_label(arcanum)

    title = "Arcana status points (R27)" + (" (revealed: GM's eyes only)" if reveal else "")
    table = Table(title=title, title_justify="left")
    table.add_column("Person")
    table.add_column("Arcanum")
    table.add_column("Points", justify="right")
    table.add_column("From")
    by: dict[tuple[str, int], list[pts.Point]] = {}
    for p in pts.shown_sources(state, reveal=reveal):  # E43: secret Arcana as "?"
        by.setdefault((p.person, p.arcanum), []).append(p)
    order = {name: i for i, name in enumerate(state.people)}
    # One person's rows together, in seat order, Arcana in order, a secret one last.
    for (person, arcanum), items in sorted(by.items(), key=lambda kv: (
            order.get(kv[0][0], len(order)), kv[0][1] == pts.HIDDEN, kv[0][1])):
        total = sum(p.points for p in items)
        table.add_row(lit(person), label(arcanum), str(total),
                      "; ".join(f"{p.points:+d} {lit(p.source)}" for p in items))
    console().print(table)


def promotions(claims: list[Claim]) -> None:
    if not claims:
        say("No promotion claim would succeed now (R28: 7 points for a vacant Arcanum, more "
            "than the occupant for a held one).")
        return
    from rich.table import Table  # the tables only: rich is loaded where one is drawn

    table = Table(title="Claims that would succeed (R28)", title_justify="left")
    for col in ("Person", "Arcanum", "Points", "Against"):
        table.add_column(col)
    for c in claims:
        against = (f"{lit(c['occupant'])} ({c['occupant_points']})" if c["occupant"]
                   else "vacant (needs 7)")
        table.add_row(lit(c["person"]), c["arcanum"], str(c["points"]), against)
    console().print(table)


def handout(data: Handout) -> None:
    def t(text: str | None) -> str | None:
        return None if text is None else lit(text)

    say(f"[bold]Clue sheet of {lit(data['assistant'])}[/] (assistant to {t(data['side'])}; the "
        f"side has {plural(data['charges'], 'Charge')}).")
    if not data["souls"]:
        say("No studies or guesses yet.")
    for s in data["souls"]:
        known = ""
        if s["identity"] or s["arcanum"]:
            known = (f" - identified: {t(s['identity']) or '?'}, "
                     f"Arcanum {t(s['arcanum']) or '?'}")
        say(f"\n[bold]{lit(s['soul'])}[/]{known}")
        for i, c in enumerate(s["clues"], 1):
            say(f"  {i}. [italic]{lit(c)}[/]")
        for g in s["guesses"]:
            said = " / ".join(x for x in (t(g["name"]), t(g["arcanum"])) if x)
            res = ", ".join(f"{k} {v}" for k, v in g["result"].items() if v)
            say(f"  guess: {said} - {res}")
        say(f"  {s['guesses_left']} guess(es) left.")
