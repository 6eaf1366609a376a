"""The end-of-evening report on the terminal, with rich (``referee.report`` builds it as data;
this only draws it). Every name is printed literally (``lit``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from referee.cli.context import console
from referee.cli.output import lit
from referee.report import arcanum_label, decision_line, pots_note, power_line, roster_line

if TYPE_CHECKING:
    from referee.report_records import Report


def render_terminal(report: Report) -> None:
    """The report on the terminal, with rich; every name printed literally (``lit``)."""
    from rich.console import Group  # the terminal's report only: --json does without rich
    from rich.panel import Panel
    from rich.table import Table

    money = report["money"]
    t_money = Table(title="Money", title_justify="left", expand=False)
    for col in ("Person", "Side", "Chips by colour", "Chips", "Dollars"):
        t_money.add_column(col, justify="right" if col in ("Chips", "Dollars") else "left")
    for h in money["holders"]:
        colours = ", ".join(f"{c} {n}" for c, n in sorted(h["chips"].items())) or "-"
        t_money.add_row(lit(h["name"]), lit(h["side"] or ""), lit(colours), str(h["count"]),
                        f"${h['dollars']:,}")
    verdict = (f"The game is over: {lit(money['winner'])} is the last stakeholder (R18)."
               if money["over"] else
               f"Still stakeholders: {lit(', '.join(money['stakeholders']))}.")
    t_souls = Table(title="Souls", title_justify="left")
    for col in ("Soul", "Kind", "Holder", "Identity", "Arcanum"):
        t_souls.add_column(col)
    for s in report["souls"]:
        holder = s["holder"] or (s["destroyed"] or "-")
        t_souls.add_row(lit(s["soul"]), s["kind"], lit(holder),
                        lit(s["identity"] or "unidentified"), s["arcanum"] or "?")
    t_points = Table(title="Arcana status points (R27)", title_justify="left")
    t_points.add_column("Person")
    t_points.add_column("Points")
    for person, arcana in report["arcana"]["points"].items():
        t_points.add_row(lit(person), ", ".join(f"{lit(arcanum_label(a))}: {n}"
                                                for a, n in arcana.items()) or "-")
    t_claims = Table(title="Promotions that would succeed (R28)", title_justify="left")
    for col in ("Person", "Arcanum", "Points", "Against"):
        t_claims.add_column(col)
    for c in report["arcana"]["promotions"]:
        t_claims.add_row(lit(c["person"]), arcanum_label(c["arcanum"]), str(c["points"]),
                         f"{lit(c['occupant'])} ({c['occupant_points']})"
                         if c["occupant"] else "vacant (7 needed)")
    hl = report["highlights"]
    lines = [f"Hand {p['hand']}: {p['size']} chips (${p['dollars']:,}) to "
             f"{lit(' and '.join(p['winners']))}{lit(pots_note(p['pots']))}"
             for p in hl["biggest_hands"]]
    lines += [f"Hand {d['hand']}: {lit(d['player'])} played {d['title']} "
              f"({' + '.join(d['duet'])})" for d in hl["duet_hands"]]
    lines += [lit(power_line(u)) for u in hl["powers_used"]]  # E57
    parts: list[Any] = []
    cer = report.get("ceremony") or {"stage": "playing"}
    if cer["stage"] != "playing":
        stage = {"ended": "the evening has ended; the ceremony is still to be heard",
                 "ceremony": "under way", "closed": "closed; the roster is recorded"}
        lines_c = [lit(decision_line(d)) for d in cer["decisions"]] or ["no claim decided"]
        if cer["left"]:
            lines_c.append(f"Left the Major Arcana: {lit(', '.join(cer['left']))}.")
        lines_c += ["Roster: " + "; ".join(lit(roster_line(r)) for r in cer["roster"])]
        parts = [f"[bold]The ceremony (R40)[/]: {stage[cer['stage']]}", "\n".join(lines_c)]
    console().print(Panel(Group(
        f"[bold]{lit(report['title'])}[/] - {report['hands_played']} hands, "
        f"{report['phase']} phase - printed {report['printed']}"
        + (" - the GM's copy, every identity shown" if report["revealed"] else ""),
        t_money, verdict, t_souls, t_points,
        t_claims if report["arcana"]["promotions"] else "No promotion claim would succeed.",
        *parts, "[bold]Highlights[/]", "\n".join(lines) or "none yet",
    ), title="The evening's status"))
