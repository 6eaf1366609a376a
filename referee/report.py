"""The end-of-evening status: the seed's three realms of victory, plus the highlights.

``build(state)`` gives the report as plain data (the ``--json`` output); ``render_html`` and
``referee.cli.between.render_report`` (the terminal) present the same data. Also the assistant's
handout: their clues and guesses, and nothing else (never another seat's clues, a soul's
secrets they did not find themselves, or anyone's down cards, which the console never
stores).
"""

from __future__ import annotations

import html
import time
from collections.abc import Mapping

from referee.evening import ceremony as cer
from referee.evening import points as pts
from referee.evening.powers.effects import spent
from referee.evening.state import CHIP_VALUE, CHIPS_PER_COLOUR, State
from referee.evening.views import status
from referee.report_records import (
    Arcana,
    BigHand,
    Chart,
    Claim,
    DuetHand,
    Handout,
    HandoutSoul,
    Highlights,
    Holder,
    Money,
    PotWon,
    PowerSpent,
    Report,
    SoulRow,
)
from referee.rules.cards import MAJOR_NAMES, parse_arcanum, to_roman


def claims_of(found: list[pts.Claim]) -> list[Claim]:
    """The claims ``referee.evening.points.promotions`` gives, as records, keys in order."""
    return [Claim(person=c["person"], arcanum=c["arcanum"], points=c["points"],
                  occupant=c["occupant"], occupant_points=c["occupant_points"]) for c in found]


def build(state: State, *, reveal: bool = False, now: float | None = None) -> Report:
    """The whole report as data. ``reveal`` adds every soul's identity (the GM's copy)."""
    st = status(state, now)
    name = state.scenario.get("name") or "the evening"
    return {
        "title": name if name.startswith("Fool's Errand") else f"Fool's Errand - {name}",
        "revealed": reveal,
        "printed": time.strftime("%Y-%m-%d %H:%M", time.localtime(now)),
        "phase": st["phase"],
        "hands_played": st["hands_played"],
        "clock": st["clock"],
        "money": _money(state, st["chips"]),
        "souls": _souls(state, reveal),
        "arcana": _arcana(state, reveal),
        "highlights": _highlights(state),
        "chart": chips_by_hand(state),
        "ceremony": cer.summary(state, reveal=reveal),  # R40
    }


def _money(state: State, chips: dict[str, dict[str, int]]) -> Money:
    """Who holds what: ``chips`` is each holder's chips by colour, as ``status`` counts them."""
    holders: list[Holder] = []
    for name in state.people:
        held = chips.get(name, {})
        n = sum(held.values())
        holders.append({"name": name, "side": state.side_of(name), "chips": held, "count": n,
                        "dollars": n * CHIP_VALUE})
    stakeholders = [s.name for s in state.seats if not s.resigned and not s.dead]
    return {
        "chips": chips,
        "holders": holders,
        "sides": {s.name: {"chips": state.side_chips(s.name),
                           "dollars": state.side_chips(s.name) * CHIP_VALUE}
                  for s in state.seats},
        "stakeholders": stakeholders,
        "resigned": [s.name for s in state.seats if s.resigned],
        "dead": [s.name for s in state.seats if s.dead],
        "over": state.over,
        "winner": state.winner,
        "fool_keeps": state.stack(state.fool) * CHIP_VALUE,
    }


def power_line(used: PowerSpent) -> str:
    """A power spent this evening, as the report says it (E57): ``Cy used Iron Rule``, ``Cy
    lost Second Thoughts to Downfall``, ``Ed used Sent on an Errand, cancelled by
    Mistrial``."""
    how = used["spent"]
    if how.startswith("lost to "):
        return f"{used['holder']} lost {used['power']} to {how[len('lost to '):]}"
    if how.startswith("cancelled"):
        return f"{used['holder']} used {used['power']}, {how}"
    return f"{used['holder']} used {used['power']}"


#: The key of points whose Arcanum is still a secret (E43).
SECRET = pts.SECRET


def _arcana(state: State, reveal: bool) -> Arcana:
    """Points and promotion claims; without ``reveal`` no secret Arcanum shows through (E43).

    Holding a soul is worth 2 points in the soul's Arcanum (R27): while nobody has found
    that Arcanum, the points are listed under ``"?"``, and a claim they take part in (the
    claimant's or the occupant's) is left out, since its Arcanum would give the secret away.
    """
    return {"points": pts.points_json(state, reveal=reveal),
            "promotions": claims_of(pts.promotions(state, reveal=reveal))}


def arcanum_label(numeral: str) -> str:
    """An Arcanum as the report prints it; a soul's secret one is not named."""
    if numeral == SECRET:
        return "? (a soul's secret Arcanum)"
    return f"{numeral} {MAJOR_NAMES[parse_arcanum(numeral)]}"


def _identified(state: State, key: str) -> dict[str, str | None]:
    by_name = next((g["assistant"] for g in state.guesses
                    if g["soul"] == key and g["result"]["name"] == "correct"), None)
    by_arcanum = next((g["assistant"] for g in state.guesses
                       if g["soul"] == key and g["result"]["arcanum"] == "correct"), None)
    return {"name_by": by_name, "arcanum_by": by_arcanum}


def _souls(state: State, reveal: bool) -> list[SoulRow]:
    out: list[SoulRow] = []
    for soul in state.souls:
        found = _identified(state, soul.key)
        known_name = soul.kind == "own" or found["name_by"] is not None
        known_arcanum = soul.kind == "own" or found["arcanum_by"] is not None
        out.append({
            "soul": soul.key,
            "kind": soul.kind,
            "holder": soul.holder,
            "destroyed": soul.destroyed,
            "identified": known_name,
            "identified_by": found["name_by"],
            "identity": soul.identity if (known_name or reveal) else None,
            "arcanum": to_roman(soul.arcanum) if (known_arcanum or reveal) else None,
        })
    return out


def _highlights(state: State) -> Highlights:
    hands: list[BigHand] = []
    duets: list[DuetHand] = []
    for record in state.history:
        # What the hand won in all: the main pot and every side pot together (E51).
        size = sum(pot["size"] for pot in record["pots"])
        winners = list(dict.fromkeys(w for pot in record["pots"] for w in pot["winners"]))
        if size:
            hands.append({"hand": record["no"], "size": size, "dollars": size * CHIP_VALUE,
                          "winners": winners,
                          "pots": [{"size": p["size"], "winners": p["winners"]}
                                   for p in record["pots"]]})
        for name, best in record["best"].items():
            if best["category"] in pts.DUET_POINTS and best.get("duet"):
                from referee.rules.hands import CATEGORY_TITLES  # a played duet hand's only

                duets.append({"hand": record["no"], "player": name,
                              "category": best["category"],
                              "title": CATEGORY_TITLES[best["category"]][0].lower()
                              + CATEGORY_TITLES[best["category"]][1:],
                              "duet": [to_roman(n) for n in best["duet"] or ()]})
    hands.sort(key=lambda p: (-p["size"], p["hand"]))
    used: list[PowerSpent] = []
    for key, power in state.powers.items():
        if power.get("used"):
            spec = next((p for p in state.scenario.get("powers", []) if p["key"] == key), None)
            used.append({"power": spec["name"] if spec else key, "key": key,
                         "holder": power["holder"], "hand": power.get("used_hand"),
                         "spent": spent(power)})  # E57: used, lost or cancelled
    return {"biggest_hands": hands[:5], "duet_hands": duets, "powers_used": used}


def decision_line(d: cer.DecisionShown) -> str:
    """One decision of the ceremony as the report says it (R40)."""
    arcanum = f"{d['arcanum']} {MAJOR_NAMES[parse_arcanum(d['arcanum'])]}"
    against = (f"against {d['occupant']}'s {d['occupant_points']}" if d["occupant"]
               else "vacant")
    if d["how"] == "decline":
        return f"{d['person']} declines {arcanum} ({d['points']}, {against})"
    if d["how"] == "switch":
        line = (f"{d['person']} moves from {d['left']} to {arcanum} with {d['points']}, "
                f"{against}; {d['left']} is vacant")
    else:
        line = f"{d['person']} claims {arcanum} with {d['points']}, {against}: promoted"
    return line + (f"; {d['occupant']} leaves the Major Arcana" if d["occupant"] else "")


def roster_line(entry: cer.RosterEntry) -> str:
    """``III The Empress: Flo`` (with ``absent tonight`` for a member sitting out, E102)."""
    return (f"{entry['arcanum']} {entry['title']}: {entry['member']}"
            + (" (absent tonight)" if entry["absent"] else ""))


def pots_note(pots: list[PotWon]) -> str:
    """`` (main pot 12 to Gus, side pot 4 to Ed)`` when a hand had side pots, else nothing."""
    if len(pots) < 2:
        return ""
    return " (" + ", ".join(
        f"{'main pot' if i == 0 else f'side pot {i}'} {p['size']} to {' and '.join(p['winners'])}"
        for i, p in enumerate(pots)) + ")"


def chips_by_hand(state: State) -> Chart:
    """Each stakeholder's chips (their assistant's included) at the start and after every
    hand: the data of the evening's chart (E50). Public: stacks are on the table."""
    labels = ["start"]
    series = {s.name: [CHIPS_PER_COLOUR] for s in state.seats}  # ten chips each (R10)
    for record in state.history:
        sides = record.get("sides")
        if sides is None:  # a hand folded before the chart was kept
            continue
        labels.append(str(record["no"]))
        for seat in state.seats:
            series[seat.name].append(int(sides.get(seat.name, 0)))
    if state.hand is None and any(state.side_chips(s.name) != series[s.name][-1]
                                  for s in state.seats):
        labels.append("now")  # chips changed hands away from the table since the last hand
        for seat in state.seats:
            series[seat.name].append(state.side_chips(seat.name))
    return {"labels": labels,
            "series": [{"name": s.name, "colour": s.colour, "chips": series[s.name]}
                       for s in state.seats]}


# -- HTML ---------------------------------------------------------------------------------------

_CSS = """
@page { size: auto; margin: 14mm; }
* { box-sizing: border-box; }
body { font: 11pt/1.35 Georgia, 'Times New Roman', serif; color: #1d1a16; margin: 0 auto;
       max-width: 190mm; padding: 8mm; background: #fbf8f1; }
h1 { font-size: 20pt; margin: 0 0 2mm; letter-spacing: .02em; }
h2 { font-size: 13pt; margin: 6mm 0 2mm; border-bottom: 1.5pt solid #7a5c2e; color: #4a3511; }
.meta { color: #6b5d4b; font-size: 9.5pt; margin-bottom: 4mm; }
table { border-collapse: collapse; width: 100%; font-size: 9.5pt; page-break-inside: auto; }
th, td { border-bottom: .5pt solid #cdbf9f; padding: 1.2mm 2mm; text-align: left;
         vertical-align: top; }
th { background: #efe6d2; font-weight: 600; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
tr { page-break-inside: avoid; }
.verdict { margin: 2mm 0; font-style: italic; }
.chip { display: inline-block; width: 9pt; height: 9pt; border-radius: 50%;
        border: .6pt solid #333; vertical-align: -1pt; margin-right: 2pt; }
.muted { color: #756855; }  /* 5.1:1 on the page's ground, as text must be (E193) */
.clue { margin: 1.5mm 0 1.5mm 4mm; font-style: italic; }
svg.chart { width: 100%; height: auto; max-height: 90mm; page-break-inside: avoid; }
@media print { body { background: none; padding: 0; } h2 { page-break-after: avoid; } }
"""

_CHIP_COLOURS = {"red": "#c0392b", "blue": "#2e59a8", "green": "#2e8b57", "yellow": "#e5c21b",
                 "black": "#222", "white": "#fff", "purple": "#7d3c98", "orange": "#e67e22",
                 "pink": "#e58fb0", "brown": "#7b4a2a", "grey": "#888", "gray": "#888",
                 "gold": "#d4af37", "silver": "#c0c0c0"}


def chip_colour(colour: str) -> str:
    """The CSS colour a chip colour is drawn in (grey for a colour the console does not know)."""
    return _CHIP_COLOURS.get(colour.lower(), "#999")


def _e(text: object) -> str:
    return html.escape(str(text))


def page(title: str, body: str) -> str:
    """A standalone printable page around ``body`` (inline CSS, no network)."""
    return _page(title, body)


def _page(title: str, body: str) -> str:
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{_e(title)}</title><style>{_CSS}</style></head><body>{body}</body></html>\n")


def _chips_html(chips: dict[str, int]) -> str:
    if not chips:
        return "<span class=\"muted\">-</span>"
    return " ".join(f"<span class=\"chip\" style=\"background:{_CHIP_COLOURS.get(c, '#bbb')}\">"
                    f"</span>{_e(c)} {n}" for c, n in sorted(chips.items()))


#: A line's dash by its place (the first solid): lines told apart in black-and-white print too.
DASHES = ("", "7 3", "2 3", "9 3 2 3", "4 4", "1 3")


def line_ends(ends: list[tuple[float, str, str]], edge: float, outline: str = "") -> str:
    """The lines' names at a chart's right ``edge``, each with a dot in its colour (drawn with
    ``outline``, e.g. ``' stroke="#333"'``), at its line's end and never on top of another
    (12 apart at least, top down). ``ends``: (the end's y, the name escaped, the colour)."""
    out = []
    last_y = -100.0
    for end_y, name, colour in sorted(ends):
        end_y = max(end_y, last_y + 12)
        last_y = end_y
        out.append(f'<circle cx="{edge + 8}" cy="{end_y - 4}" r="4" fill="{colour}"{outline}/>'
                   f'<text x="{edge + 16}" y="{end_y}" font-family="sans-serif" '
                   f'font-size="11" fill="#222">{name}</text>')
    return "".join(out)


def chart_svg(chart: Chart, width: int = 640, height: int = 250) -> str:
    """Each stakeholder's chips after every hand as an inline SVG line chart (E50).

    No script, no network; a line per side in its chip colour, with its own dash pattern
    and its name at the line's end, so that it reads in black-and-white print too.
    """
    hands = chart["labels"]
    series = chart["series"]
    left, right, top, bottom = 34, 96, 10, 30
    plot_w, plot_h = width - left - right, height - top - bottom
    peak = int(max([1, *(n for s in series for n in s["chips"])]))
    y_max = -(-peak // 5) * 5
    step = plot_w / max(1, len(hands) - 1)

    def x(i: int) -> float:
        return round(left + i * step, 1)

    def y(n: int) -> float:
        return round(top + plot_h - n * plot_h / y_max, 1)

    out = [f'<svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} '
           f'{height}" role="img" aria-label="Chips of each stakeholder after every hand">'
           "<title>Chips of each stakeholder after every hand</title>"
           '<g font-family="sans-serif" font-size="11" fill="#333">']
    grid = 10 if y_max > 20 else 5
    for n in range(0, y_max + 1, grid):
        out.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{y(n)}" y2="{y(n)}" '
                   f'stroke="#cdbf9f" stroke-width="{1 if n == 0 else 0.5}"/>'
                   f'<text x="{left - 5}" y="{y(n) + 4}" text-anchor="end">{n}</text>')
    every = max(1, -(-len(hands) // 16))
    for i, no in enumerate(hands):
        if i % every == 0 or i == len(hands) - 1:
            out.append(f'<text x="{x(i)}" y="{height - bottom + 15}" text-anchor="middle">'
                       f'{_e(no)}</text>')
    out.append(f'<text x="{left + plot_w / 2}" y="{height - 3}" text-anchor="middle">'
               "after hand</text></g>")
    ends: list[tuple[float, str, str]] = []
    for k, line in enumerate(series):
        colour = chip_colour(str(line["colour"]))
        points = " ".join(f"{x(i)},{y(n)}" for i, n in enumerate(line["chips"]))
        dash = f' stroke-dasharray="{DASHES[k % len(DASHES)]}"' if k % len(DASHES) else ""
        out.append(f'<polyline points="{points}" fill="none" stroke="#333" stroke-width="4" '
                   f'stroke-linejoin="round" opacity=".55"{dash}/>'
                   f'<polyline points="{points}" fill="none" stroke="{colour}" '
                   f'stroke-width="2.5" stroke-linejoin="round"{dash}/>')
        if line["chips"]:
            ends.append((y(line["chips"][-1]), _e(line["name"]), colour))
    out.append(line_ends(ends, left + plot_w, outline=' stroke="#333"'))
    out.append("</svg>")
    return "".join(out)


def render_html(report: Report) -> str:
    """A standalone printable page (inline CSS, no network), A4 and Letter alike."""
    money = report["money"]
    rows = "".join(
        f"<tr><td>{_e(h['name'])}</td><td>{_e(h['side'] or '')}</td>"
        f"<td>{_chips_html(h['chips'])}</td><td class=\"n\">{h['count']}</td>"
        f"<td class=\"n\">${h['dollars']:,}</td></tr>" for h in money["holders"])
    verdict = (f"The game is over: {_e(money['winner'])} is the last stakeholder and takes the "
               f"rest; the Fool keeps ${money['fool_keeps']:,} (R18)." if money["over"] else
               f"Still stakeholders: {_e(', '.join(money['stakeholders']))}.")
    souls = "".join(
        f"<tr><td>{_e(s['soul'])}</td><td>{_e(s['kind'])}</td>"
        f"<td>{_e(s['holder'] or s['destroyed'] or '-')}</td>"
        f"<td>{_e(s['identity'] or 'unidentified')}</td><td>{_e(s['arcanum'] or '?')}</td></tr>"
        for s in report["souls"])
    points = "".join(
        f"<tr><td>{_e(person)}</td><td>" + ", ".join(
            f"{_e(arcanum_label(a))}: <b>{n}</b>" for a, n in arcana.items())
        + "</td></tr>" for person, arcana in report["arcana"]["points"].items())
    claims = "".join(
        f"<tr><td>{_e(c['person'])}</td><td>{_e(c['arcanum'])} "
        f"{_e(MAJOR_NAMES[parse_arcanum(c['arcanum'])])}</td><td class=\"n\">{c['points']}</td><td>"
        + (f"{_e(c['occupant'])} ({c['occupant_points']})" if c["occupant"]
           else "vacant (7 needed)") + "</td></tr>"
        for c in report["arcana"]["promotions"])
    hl = report["highlights"]
    items = [f"Hand {p['hand']}: {p['size']} chips (${p['dollars']:,}) to "
             f"{_e(' and '.join(p['winners']) + pots_note(p['pots']))}"
             for p in hl["biggest_hands"]]
    items += [f"Hand {d['hand']}: {_e(d['player'])} played "
              f"{_e(d['title'])} ({_e(' + '.join(d['duet']))})"
              for d in hl["duet_hands"]]
    items += [_e(power_line(u)) for u in hl["powers_used"]]
    body = (
        f"<h1>{_e(report['title'])}</h1>"
        f"<div class=\"meta\">{report['hands_played']} hands played, {_e(report['phase'])} "
        f"phase. Printed {_e(report['printed'])}."
        + (" The GM's copy: every soul's identity is shown." if report["revealed"] else "")
        + "</div>"
        "<h2>Money</h2><table><tr><th>Person</th><th>Side</th><th>Chips by colour</th>"
        f"<th>Chips</th><th>Dollars</th></tr>{rows}</table>"
        f"<p class=\"verdict\">{verdict}</p>"
        "<h2>Souls</h2><table><tr><th>Soul</th><th>Kind</th><th>Holder</th><th>Identity</th>"
        f"<th>Arcanum</th></tr>{souls}</table>"
        "<h2>Arcana status</h2><table><tr><th>Person</th><th>Points per Arcanum (R27)</th>"
        f"</tr>{points}</table>"
        + ("<h2>Promotions that would succeed (R28)</h2><table><tr><th>Person</th>"
           f"<th>Arcanum</th><th>Points</th><th>Against</th></tr>{claims}</table>"
           if claims else "<p class=\"verdict\">No promotion claim would succeed.</p>")
        + _ceremony_html(report["ceremony"])
        + "<h2>The evening in a picture</h2>" + chart_svg(report["chart"])
        + "<h2>Highlights</h2><ul>" + "".join(f"<li>{i}</li>" for i in items) + "</ul>"
    )
    return _page(report["title"], body)


def _ceremony_html(data: cer.CeremonyView) -> str:
    """The ceremony's decisions and the roster (R40)."""
    if data["stage"] == "playing":
        return ""
    stage = {"ended": "The evening has ended; the ceremony is still to be heard.",
             "ceremony": "The ceremony is under way.",
             "closed": "The ceremony is closed: this roster is the evening's last record."}
    items = "".join(f"<li>{_e(decision_line(d))}</li>" for d in data["decisions"])
    rows = "".join(f"<tr><td>{_e(r['arcanum'])} {_e(r['title'])}</td><td>{_e(r['member'])}"
                   + (" <span class=\"muted\">(absent tonight)</span>" if r["absent"] else "")
                   + "</td></tr>" for r in data["roster"])
    left = (f"<p>Left the Major Arcana: {_e(', '.join(data['left']))}.</p>"
            if data["left"] else "")
    return (f"<h2>The ceremony (R40)</h2><p class=\"verdict\">{stage[data['stage']]}</p>"
            + (f"<ul>{items}</ul>" if items else "<p class=\"muted\">No claim decided.</p>")
            + left + "<table><tr><th>Arcanum</th><th>Member</th></tr>" + rows + "</table>")


# -- the assistant's handout ----------------------------------------------------------------------


def handout(state: State, assistant: str) -> Handout:
    """One assistant's clue sheet so far: their clues and guesses, nothing of anyone else's."""
    from referee.evening.souls import clue_sheet  # a handout's only

    souls: list[HandoutSoul] = []
    studied = state.studies.get(assistant, {})
    mine = [g for g in state.guesses if g["assistant"] == assistant]
    for soul in state.souls:
        if soul.kind != "bottled":
            continue
        n = studied.get(soul.key, 0)
        guesses = [g for g in mine if g["soul"] == soul.key]
        if not n and not guesses:
            continue
        named = any(g["result"]["name"] == "correct" for g in guesses)
        arcanum = any(g["result"]["arcanum"] == "correct" for g in guesses)
        souls.append({
            "soul": soul.key,
            "clues": clue_sheet(state, assistant, soul.key)[:n],
            "guesses": [{"name": g["name"], "arcanum": g["arcanum"],
                         "result": _as_told(g["result"]), "charges": g["charges"]}
                        for g in guesses],
            "guesses_left": 3 - len(guesses),
            "identity": soul.identity if named else None,
            "arcanum": to_roman(soul.arcanum) if arcanum else None,
        })
    side = state.side_of(assistant)
    return {"assistant": assistant, "side": side,
            "charges": state.charges.get(side or "", 0), "souls": souls}


def _as_told(result: Mapping[str, str | None]) -> dict[str, str | None]:
    """A guess's result as the handout tells it (E44): correct, or not accepted.

    A near miss is reported to the referee (R24); whether the assistant hears "close" is the
    GM's call at the table, so the sheet says no more than for a wrong guess.
    """
    return {k: (v if v in (None, "", "correct") else "not accepted") for k, v in result.items()}


def render_handout_html(data: Handout) -> str:
    parts = [f"<h1>Clue sheet: {_e(data['assistant'])}</h1>",
             f"<div class=\"meta\">Assistant to {_e(data['side'])}. "
             f"Charges of the side: {data['charges']}.</div>"]
    for s in data["souls"]:
        parts.append(f"<h2>{_e(s['soul'])}</h2>")
        if s["identity"] or s["arcanum"]:
            parts.append(f"<p class=\"verdict\">You identified: {_e(s['identity'] or '?')}, "
                         f"Arcanum {_e(s['arcanum'] or '?')}.</p>")
        parts += [f"<p class=\"clue\">{i}. {_e(c)}</p>" for i, c in enumerate(s["clues"], 1)]
        for g in s["guesses"]:
            said = " / ".join(x for x in (g["name"], g["arcanum"]) if x)
            res = ", ".join(f"{k} {v}" for k, v in g["result"].items() if v)
            parts.append(f"<p>Guess: {_e(said)} - {_e(res)}</p>")
        parts.append(f"<p class=\"muted\">{s['guesses_left']} guess(es) left.</p>")
    if not data["souls"]:
        parts.append("<p class=\"muted\">No studies or guesses yet.</p>")
    return _page(f"Clue sheet - {data['assistant']}", "".join(parts))
