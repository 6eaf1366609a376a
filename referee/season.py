"""Standings across evenings (R43): a chain of evenings, or several tables of one event.

``standings(played)`` gives the season as plain data (the ``--json`` output, the table page's
``season``); ``render_html`` draws it as a printable page with a chart of the money and of the
roster (inline SVG, no network). The evenings come in as states: the CLI reads the files.

Per person, over every evening given: evenings played (as the Fool, a stakeholder or an
assistant), money won (chips at the end minus the buy-in, in dollars), the Arcanum held after
each ceremony, the souls held and the own soul lost at the end of their newest evening,
promotions won, and status points earned (E110).
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import NotRequired, TypedDict

from referee.errors import BadInput, StoreError
from referee.evening import ceremony as cer
from referee.evening import points as pts
from referee.evening import roster
from referee.evening.state import CHIP_VALUE, CHIPS_PER_COLOUR, POT, State
from referee.names import plural
from referee.report import DASHES, line_ends, page
from referee.rules.cards import parse_arcanum, to_roman
from referee.storage import files, links
from referee.storage.store import open_evening


class Promotion(TypedDict):
    """A claim won in an evening's ceremony (``ceremony.summary``'s decisions, R40)."""

    person: str
    arcanum: str
    how: str
    points: int
    occupant: str | None
    occupant_points: int | None
    left: NotRequired[str]


class Night(TypedDict):
    """One evening of the season."""

    no: int
    file: str
    previous: str | None
    title: str
    created: float
    fool: str
    evening: int
    hands: int
    stage: str
    roster: dict[str, str]
    people: list[str]
    stakeholders: list[str]
    promotions: list[Promotion]


class Row(TypedDict):
    """A person's line of the standings (E110)."""

    name: str
    evenings: int
    money: int
    money_by_evening: list[int]
    arcana: list[str | None]
    holds: list[str]
    lost: str | None
    promotions: int
    points: int
    rank: NotRequired[int]


class Totals(TypedDict):
    buy_ins: int
    at_end: int
    in_pots: int
    won: int


class MoneyLine(TypedDict):
    name: str
    dollars: list[int]


class RosterRow(TypedDict):
    arcanum: str
    holders: list[str | None]


class SeasonChart(TypedDict):
    labels: list[str]
    money: list[MoneyLine]
    roster: list[RosterRow]


class Standings(TypedDict):
    """The season as ``season --json`` prints it."""

    evenings: list[Night]
    standings: list[Row]
    totals: Totals
    chart: SeasonChart


class WallRow(TypedDict):
    rank: int
    name: str
    evenings: int
    money: int
    arcanum: str | None
    promotions: int


class WallSeason(TypedDict):
    """The season as the table page shows it between evenings (E111)."""

    evenings: int
    standings: list[WallRow]


@dataclass(frozen=True)
class Played:
    """One evening of the season: its file's name, its state, the file it carries on from."""

    file: str
    state: State
    previous: str | None = None


def read(paths: Sequence[Path]) -> list[Played]:
    """The evenings at ``paths``: each file with the chain back from it (E114), every evening
    in a folder; each once. A file in a folder that is no evening is left out with a note.

    Raises:
        BadInput: a path that is neither, or no evening at all.
        StoreError: a named evening is damaged.
    """
    found: list[Path] = []
    for path in paths:
        files.check_reachable(path)  # a name too long, a symlink loop: one line (E94)
        if path.is_dir():
            for candidate in sorted(path.glob("*.json")):
                try:
                    found += links.chain_back(candidate)
                except StoreError:
                    files.NOTES.append(f"{candidate} is no evening file; it was left out")
        elif path.is_file():
            found += links.chain_back(path)
        else:
            raise BadInput(f"no evening file or folder at {path}; give evening files (.json) "
                           "or a folder of them")
    out: list[Played] = []
    seen: set[Path] = set()
    for path in found:
        if path in seen:
            continue
        seen.add(path)
        with open_evening(path, write=False) as ev:
            state = ev.state("evening")
            link = links.link(ev)
        if not state.started:
            files.NOTES.append(f"{path} holds no evening yet; it was left out")
            continue
        out.append(Played(path.name, state, link["file"] if link else None))
    if not out:
        raise BadInput("no evening to count: give evening files or a folder of them")
    return out


def _lost(state: State, name: str) -> str | None:
    """How ``name``'s own soul is lost at the end of ``state``, if it is (R27)."""
    for soul in state.souls:
        if soul.kind != "own" or soul.owner != name:
            continue
        if soul.destroyed:
            return soul.destroyed
        if soul.holder is not None and (state.side_of(soul.holder) or soul.holder) != name:
            return f"held by {soul.holder}"
    return None


def _earned(state: State) -> dict[str, int]:
    """Every status point of the evening but the starting ones (R27, E110), per person."""
    out: dict[str, int] = {}
    for p in pts.sources(state):
        if not p.source.startswith("start:"):
            out[p.person] = out.get(p.person, 0) + p.points
    return out


#: An evening's stage (``ceremony.summary``) as the season says it.
STAGES = {"playing": "still in play", "ended": "ended, its ceremony to come",
          "ceremony": "its ceremony under way", "closed": "its ceremony closed"}


def _evening(n: int, played: Played) -> Night:
    state = played.state
    summary = cer.summary(state)
    return {"no": n, "file": played.file, "previous": played.previous,
            "title": state.scenario.get("name") or "Fool's Errand",
            "created": state.created, "fool": state.fool,
            "evening": int(state.season.get("evening", 1)), "hands": state.hands_played,
            "stage": summary["stage"],
            "roster": roster.numerals(roster.standing(state)),
            "people": list(state.people),
            "stakeholders": [s.name for s in state.seats],
            "promotions": [d for d in summary["decisions"] if d["how"] != "decline"]}


def standings(evenings: Sequence[Played]) -> Standings:
    """The season's standings as data, the evenings oldest first (by their creation).

    ``totals`` checks the books: the chips every person holds at the ends of the evenings and
    those left in a pot add up to the buy-ins, so the money won sums to nothing (R10, R43).
    """
    ordered = sorted(evenings, key=lambda p: p.state.created)
    nights = [_evening(n, p) for n, p in enumerate(ordered, 1)]
    people: list[str] = []
    for p in ordered:  # everyone at an evening, and every member sitting one out
        for name in [*p.state.people, *roster.standing(p.state).values()]:
            if name not in people:
                people.append(name)
    rows: dict[str, Row] = {
        name: {"name": name, "evenings": 0, "money": 0, "money_by_evening": [],
               "arcana": [], "holds": [], "lost": None, "promotions": 0, "points": 0}
        for name in people}
    buy_ins = at_end = in_pots = 0
    for p, night in zip(ordered, nights, strict=True):
        state = p.state
        stake = {s.name for s in state.seats}
        earned = _earned(state)
        held = roster.standing(state)
        holder_of = {name: to_roman(a) for a, name in held.items()}
        in_pots += state.stack(POT) * CHIP_VALUE
        for name, row in rows.items():
            here = name in state.people
            won = 0
            if here:
                buy_in = CHIPS_PER_COLOUR * CHIP_VALUE if name in stake else 0
                end = state.stack(name) * CHIP_VALUE
                buy_ins += buy_in
                at_end += end
                won = end - buy_in
                row["evenings"] += 1
                row["points"] += earned.get(name, 0)
                row["holds"] = [s.key for s in state.souls if s.holder == name
                                and not (s.kind == "own" and s.owner == name)]
                row["lost"] = _lost(state, name)
            row["money"] += won
            row["money_by_evening"].append(won)
            row["arcana"].append(holder_of.get(name))
        for d in night["promotions"]:
            rows[d["person"]]["promotions"] += 1
    table = sorted(rows.values(), key=lambda r: (-r["money"], -r["promotions"], r["name"]))
    for rank, row in enumerate(table, 1):
        row["rank"] = rank
    return {"evenings": nights, "standings": table,
            "totals": {"buy_ins": buy_ins, "at_end": at_end, "in_pots": in_pots,
                       "won": sum(r["money"] for r in table)},
            "chart": _chart(nights, table)}


def _chart(nights: list[Night], table: list[Row]) -> SeasonChart:
    """Money won so far after each evening, per person; who held each Arcanum after each."""
    money: list[MoneyLine] = []
    for row in table:
        total, line = 0, [0]
        for won in row["money_by_evening"]:
            total += won
            line.append(total)
        if any(line):
            money.append({"name": row["name"], "dollars": line})
    arcana = sorted({a for n in nights for a in n["roster"]}, key=parse_arcanum)
    return {"labels": ["start", *(str(n["no"]) for n in nights)], "money": money,
            "roster": [{"arcanum": a, "holders": [n["roster"].get(a) for n in nights]}
                       for a in arcana]}


def wall(season: Standings) -> WallSeason:
    """What the table page shows of the season between evenings: public things only, the
    evenings, money won, the Arcanum now and promotions (no soul, no status point, E111)."""
    rows: list[WallRow] = [{"rank": r["rank"], "name": r["name"], "evenings": r["evenings"],
             "money": r["money"], "arcanum": r["arcana"][-1] if r["arcana"] else None,
             "promotions": r["promotions"]}
            for r in season["standings"] if r["evenings"]]
    return {"evenings": len(season["evenings"]), "standings": rows}


# -- HTML ---------------------------------------------------------------------------------------

_LINE_COLOURS = ("#7a5c2e", "#2e59a8", "#c0392b", "#2e8b57", "#7d3c98", "#e67e22", "#222",
                 "#1fa6a0", "#d4af37", "#888")


def money_svg(chart: SeasonChart, width: int = 640, height: int = 250) -> str:
    """Money won so far after each evening, a line per person (inline SVG, E112): each its own
    colour and dash, its name at the line's end, the zero line drawn, so it reads in print."""
    labels = chart["labels"]
    lines = chart["money"]
    left, right, top, bottom = 64, 96, 10, 30
    plot_w, plot_h = width - left - right, height - top - bottom
    values: list[int] = [int(v) for line in lines for v in line["dollars"]] or [0]
    low, high = min(0, *values), max(0, *values)
    span = (high - low) or CHIP_VALUE
    step = plot_w / max(1, len(labels) - 1)

    def x(i: int) -> float:
        return round(left + i * step, 1)

    def y(v: float) -> float:
        return round(top + plot_h - (v - low) * plot_h / span, 1)

    out = [f'<svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
           'role="img" aria-label="Money won so far after each evening">'
           "<title>Money won so far after each evening</title>"
           '<g font-family="sans-serif" font-size="11" fill="#333">']
    for v in sorted({low, 0, high}):
        out.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{y(v)}" y2="{y(v)}" '
                   f'stroke="#cdbf9f" stroke-width="{1 if v == 0 else 0.5}"/>'
                   f'<text x="{left - 5}" y="{y(v) + 4}" text-anchor="end">'
                   f'{_dollars(v)}</text>')
    for i, label in enumerate(labels):
        out.append(f'<text x="{x(i)}" y="{height - bottom + 15}" text-anchor="middle">'
                   f"{_e(label)}</text>")
    out.append(f'<text x="{left + plot_w / 2}" y="{height - 3}" text-anchor="middle">'
               "after evening</text></g>")
    ends: list[tuple[float, str, str]] = []
    for k, line in enumerate(lines):
        colour = _LINE_COLOURS[k % len(_LINE_COLOURS)]
        dash = DASHES[k % len(DASHES)]
        points = " ".join(f"{x(i)},{y(v)}" for i, v in enumerate(line["dollars"]))
        out.append(f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="2.5" '
                   f'stroke-linejoin="round"' + (f' stroke-dasharray="{dash}"' if dash else "")
                   + "/>")
        ends.append((y(line["dollars"][-1]), _e(line["name"]), colour))
    out.append(line_ends(ends, left + plot_w))
    out.append("</svg>")
    return "".join(out)


def roster_svg(chart: SeasonChart, width: int = 640) -> str:
    """Who held each Arcanum after each evening's ceremony, a row per Arcanum (inline SVG)."""
    rows = chart["roster"]
    evenings = len(chart["labels"]) - 1
    left, top, row_h = 70, 22, 20
    col_w = (width - left - 10) / max(1, evenings)
    height = top + row_h * len(rows) + 6
    out = [f'<svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
           'role="img" aria-label="The roster after each evening">'
           "<title>The roster after each evening</title>"
           '<g font-family="sans-serif" font-size="11" fill="#222">']
    for j in range(evenings):
        out.append(f'<text x="{round(left + (j + 0.5) * col_w, 1)}" y="14" '
                   f'text-anchor="middle">evening {j + 1}</text>')
    for i, row in enumerate(rows):
        y0 = top + i * row_h
        out.append(f'<text x="{left - 6}" y="{y0 + 14}" text-anchor="end">'
                   f'{_e(row["arcanum"])}</text>')
        for j, holder in enumerate(row["holders"]):
            x0 = round(left + j * col_w + 1, 1)
            changed = j > 0 and holder != row["holders"][j - 1]
            fill = "#efe6d2" if holder else "#fbf8f1"
            out.append(f'<rect x="{x0}" y="{y0 + 2}" width="{round(col_w - 2, 1)}" '
                       f'height="{row_h - 3}" fill="{fill}" stroke="'
                       f'{"#7a5c2e" if changed else "#cdbf9f"}" stroke-width="'
                       f'{1.5 if changed else 0.5}"/>'
                       f'<text x="{round(x0 + col_w / 2, 1)}" y="{y0 + 14}" '
                       f'text-anchor="middle">{_e(holder or "vacant")}</text>')
    out.append("</g></svg>")
    return "".join(out)


def _e(text: object) -> str:
    return html.escape(str(text))


def _dollars(v: float) -> str:
    sign = "-" if v < 0 else ""
    v = abs(v)
    return f"{sign}${v / 1_000_000:.1f}M" if v >= 1_000_000 else f"{sign}${int(v) // 1000}k"


def render_html(season: Standings) -> str:
    """The season as a standalone printable page (inline CSS and SVG, no network)."""
    nights = season["evenings"]
    head = "".join(f"<th>{n['no']}</th>" for n in nights)
    rows = "".join(
        f"<tr><td class=\"n\">{r['rank']}</td><td>{_e(r['name'])}</td>"
        f"<td class=\"n\">{r['evenings']}</td><td class=\"n\">{_signed(r['money'])}</td>"
        + "".join(f"<td>{_e(a or '-')}</td>" for a in r["arcana"])
        + f"<td>{_e(', '.join(r['holds']) or '-')}</td><td>{_e(r['lost'] or '-')}</td>"
        f"<td class=\"n\">{r['promotions']}</td><td class=\"n\">{r['points']}</td></tr>"
        for r in season["standings"])
    evenings = "".join(
        f"<tr><td class=\"n\">{n['no']}</td><td>{_e(n['file'])}</td><td>{_e(n['title'])}</td>"
        f"<td>{_e(n['fool'])}</td><td class=\"n\">{n['hands']}</td>"
        f"<td>{_e(STAGES[n['stage']])}</td>"
        f"<td>{_e(n['previous'] or '-')}</td></tr>" for n in nights)
    totals = season["totals"]
    body = (
        "<h1>Fool's Errand - the season</h1>"
        f"<div class=\"meta\">{plural(len(nights), 'evening')}. Money won is the chips at the "
        "end less the buy-in (R43); the books balance: buy-ins "
        f"${totals['buy_ins']:,}, held at the ends ${totals['at_end']:,}"
        + (f", in pots ${totals['in_pots']:,}" if totals["in_pots"] else "") + ".</div>"
        "<h2>Standings</h2><table><tr><th>#</th><th>Person</th><th>Evenings</th>"
        f"<th>Money won</th>{head}<th>Souls held</th><th>Own soul</th><th>Promotions</th>"
        f"<th>Points earned</th></tr>{rows}</table>"
        "<p class=\"muted\">The numbered columns: the Arcanum held after each evening's "
        "ceremony. Souls and the own soul: at the end of the person's newest evening.</p>"
        "<h2>Money won over the season</h2>" + money_svg(season["chart"])
        + "<h2>The roster over the season</h2>" + roster_svg(season["chart"])
        + "<h2>The evenings</h2><table><tr><th>#</th><th>File</th><th>Scenario</th>"
        "<th>Fool</th><th>Hands</th><th>Where it stands</th><th>Carries on from</th></tr>"
        f"{evenings}</table>")
    return page("Fool's Errand - the season", body)


def _signed(dollars: int) -> str:
    return f"-${-dollars:,}" if dollars < 0 else f"${dollars:,}"
