"""The end-of-evening report on the terminal, with rich (``referee.report`` builds it as data;
this only draws it). Every name is printed literally (``lit``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from referee.cli.context import console
from referee.cli.printing import lit
from referee.report import arcanum_label, decision_line, pots_note, power_line, roster_line

if TYPE_CHECKING:
    from rich.table import Table

    from referee.report_records import Report


def render_terminal(report: Report) -> None:
    """The report on the terminal, with rich; every name printed literally (``lit``)."""
    from rich.console import Group  # the terminal's report only: --json does without rich
    from rich.panel import Panel

    money = report["money"]
    t_money = _table("Money", ("Person", "Side", "Chips by colour", "Chips", "Dollars"), [
        (lit(h["name"]), lit(h["side"] or ""),
         lit(", ".join(f"{c} {n}" for c, n in sorted(h["chips"].items())) or "-"),
         str(h["count"]), f"${h['dollars']:,}") for h in money["holders"]],
        right=("Chips", "Dollars"))
    verdict = (f"The game is over: {lit(money['winner'])} is the last stakeholder (R18)."
               if money["over"] else
               f"Still stakeholders: {lit(', '.join(money['stakeholders']))}.")
    t_souls = _table("Souls", ("Soul", "Kind", "Holder", "Identity", "Arcanum"), [
        (lit(s["soul"]), s["kind"], lit(s["holder"] or (s["destroyed"] or "-")),
         lit(s["identity"] or "unidentified"), s["arcanum"] or "?") for s in report["souls"]])
    t_points = _table("Arcana status points (R27)", ("Person", "Points"), [
        (lit(person), ", ".join(f"{lit(arcanum_label(a))}: {n}" for a, n in arcana.items())
         or "-") for person, arcana in report["arcana"]["points"].items()])
    t_claims = _table("Promotions that would succeed (R28)",
                      ("Person", "Arcanum", "Points", "Against"), [
        (lit(c["person"]), arcanum_label(c["arcanum"]), str(c["points"]),
         f"{lit(c['occupant'])} ({c['occupant_points']})" if c["occupant"]
         else "vacant (7 needed)") for c in report["arcana"]["promotions"]])
    lines = _highlights(report)
    parts = _ceremony(report)
    console().print(Panel(Group(
        f"[bold]{lit(report['title'])}[/] - {report['hands_played']} hands, "
        f"{report['phase']} phase - printed {report['printed']}"
        + (" - the GM's copy, every identity shown" if report["revealed"] else ""),
        t_money, verdict, t_souls, t_points,
        t_claims if report["arcana"]["promotions"] else "No promotion claim would succeed.",
        *parts, "[bold]Highlights[/]", "\n".join(lines) or "none yet",
    ), title="The evening's status"))


def _table(title: str, columns: tuple[str, ...], rows: list[tuple[str, ...]],
           right: tuple[str, ...] = ()) -> Table:
    """A table of the report: its title on the left, the ``right`` columns to the right."""
    from rich.table import Table  # as in render_terminal

    table = Table(title=title, title_justify="left", expand=False)
    for col in columns:
        table.add_column(col, justify="right" if col in right else "left")
    for row in rows:
        table.add_row(*row)
    return table


def _highlights(report: Report) -> list[str]:
    """The evening's biggest hands, its Duets, the powers used (E57)."""
    hl = report["highlights"]
    lines = [f"Hand {p['hand']}: {p['size']} chips (${p['dollars']:,}) to "
             f"{lit(' and '.join(p['winners']))}{lit(pots_note(p['pots']))}"
             for p in hl["biggest_hands"]]
    lines += [f"Hand {d['hand']}: {lit(d['player'])} played {d['title']} "
              f"({' + '.join(d['duet'])})" for d in hl["duet_hands"]]
    lines += [lit(power_line(u)) for u in hl["powers_used"]]  # E57
    return lines


def _ceremony(report: Report) -> list[Any]:
    """The ceremony's stage, its decisions and the roster (R40), once the evening has ended."""
    cer = report.get("ceremony") or {"stage": "playing"}
    if cer["stage"] == "playing":
        return []
    stage = {"ended": "the evening has ended; the ceremony is still to be heard",
             "ceremony": "under way", "closed": "closed; the roster is recorded"}
    lines_c = [lit(decision_line(d)) for d in cer["decisions"]] or ["no claim decided"]
    if cer["left"]:
        lines_c.append(f"Left the Major Arcana: {lit(', '.join(cer['left']))}.")
    lines_c += ["Roster: " + "; ".join(lit(roster_line(r)) for r in cer["roster"])]
    return [f"[bold]The ceremony (R40)[/]: {stage[cer['stage']]}", "\n".join(lines_c)]
