"""`--dry-run` and `try LINE`: what a command would record, the rulings, what changes (E133).

Every command that writes does so through the store's one write (``Evening.flush``); under
``--dry-run`` that write raises ``DryRunDone`` instead, carrying the events it would have
appended (or taken back), and the states before and after. This module prints it.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, NotRequired, TypedDict

from referee.cli.printing import emit_json, lit, say
from referee.errors import DryRunDone
from referee.evening.change import changes, holder_label, rulings
from referee.jsontypes import JSON, JSONList, JSONObject
from referee.names import plural
from referee.streams import spec

if TYPE_CHECKING:
    from referee.streams import Event


class WallChange(TypedDict):
    before: str
    after: str


class DryReport(TypedDict):
    """A dry run as ``--dry-run --json`` prints it (E133)."""

    dry_run: bool
    written: bool
    command: str | None
    events: list[Event]
    undone: list[Event]
    rulings: list[str]
    changes: dict[str, JSONObject]      # per table: what changes, a shape of its own each
    wall: NotRequired[WallChange]


def report(dry: DryRunDone) -> DryReport:
    """The dry run as data: the command, its events, the rulings, the changes per table."""
    events = [r["event"] for r in dry.added]
    gone = [r["event"] for r in dry.removed]
    evening = dry.before.get("evening")
    hand = None if evening is None else evening.hand
    phase = hand.phase if hand is not None else "limit"  # R12 or R13: the phase its bets are in
    out: DryReport = {"dry_run": True, "written": False, "command": dry.text,
                      "events": events, "undone": gone,
                      "rulings": rulings(events or gone, phase), "changes": {}}
    for stream, after in dry.after.items():
        before = dry.before.get(stream)
        if stream == "evening":
            out["changes"][stream] = changes(before, after)  # type: ignore[arg-type]
            continue
        sp = spec(stream)
        was, now = sp.dump(before), sp.dump(after)
        out["changes"][stream] = {k: {"before": was.get(k), "after": now.get(k)}
                                  for k in sorted(set(was) | set(now))
                                  if was.get(k) != now.get(k)} \
            if isinstance(was, dict) and isinstance(now, dict) else {}
    if dry.wall is not None:
        out["wall"] = {"before": dry.wall[0], "after": dry.wall[1]}
    return out


def show(dry: DryRunDone, as_json: bool = False) -> None:
    """Print the dry run: JSON with ``--json``, else a few lines for the GM."""
    data = report(dry)
    if as_json:
        emit_json(data)
        return
    text = f"`{lit(data['command'])}`" if data["command"] else "this command"
    if dry.wall is not None:
        say(f"Dry run: {text} would put on the wall {lit(dry.wall[1])} (it shows "
            f"{lit(dry.wall[0])}); nothing was written (E133).")
        return
    if data["undone"]:
        say(f"Dry run: {text} would take back {plural(len(data['undone']), 'event')}; nothing was "
            "written (E133).")
    else:
        say(f"Dry run: {text} would record {plural(len(data['events']), 'event')}; nothing was "
            "written (E133).")
    for event in data["events"] or data["undone"]:
        say("  " + lit(_event_line(event)))
    if data["rulings"]:
        say("Rulings: " + ", ".join(data["rulings"]))
    lines = [line for stream, change in data["changes"].items()
             for line in _change_lines(stream, change)]
    say("Changes: none to chips, pots, the turn or points" if not lines else "Changes:")
    for line in lines:
        say("  " + line)


def _event_line(event: Event) -> str:
    body = {k: v for k, v in event.items() if k not in ("kind", "time", "scenario", "souls")}
    text = json.dumps(body, ensure_ascii=False, separators=(", ", ": "))
    return f"{event['kind']}: {text if len(text) <= 160 else text[:157] + '...'}"


def _obj(value: JSON) -> JSONObject:
    """A part of the changes that is a table (empty when absent)."""
    return value if isinstance(value, dict) else {}


def _list(value: JSON) -> JSONList:
    return value if isinstance(value, list) else []


def _signed(moved: JSON) -> str:
    return ", ".join(f"{lit(c)} {n:+d}" for c, n in _obj(moved).items())


def _change_lines(stream: str, change: JSONObject) -> list[str]:
    if stream != "evening":
        return [f"{stream}: {lit(key)} changes" for key in change]
    out: list[str] = []
    if change.get("evening"):
        out.append("the evening opens")
    for holder, moved in _obj(change.get("chips")).items():
        out.append(f"{lit(holder_label(holder))}: {_signed(moved)}")
    if "pots" in change:
        pots = _obj(change["pots"])
        out.append("pots: " + _pots(pots["before"]) + " -> " + _pots(pots["after"]))
    if "turn" in change:
        turn = _obj(change["turn"])
        out.append("turn: " + _turn(turn["before"]) + " -> " + _turn(turn["after"]))
    for hand in map(_obj, _list(change.get("winners"))):
        for pot in map(_obj, _list(hand["pots"])):
            out.append(f"hand {hand['hand']}: a pot of {pot['size']} to "
                       + lit(", ".join(map(str, _list(pot["winners"]))) or "no one"))
    if "points" in change:
        points = _obj(change["points"])
        was, now = _obj(points["before"]), _obj(points["after"])
        for person in sorted(set(was) | set(now)):
            if was.get(person, 0) != now.get(person, 0):
                out.append(f"points: {lit(person)} {was.get(person, 0)} -> {now.get(person, 0)}")
    for side, n in _obj(change.get("charges")).items():
        out.append(f"Charges: {lit(side)} {n:+d}")
    return out


def _pots(pots: JSON) -> str:
    return ", ".join(f"{p['name']} {p['size']} ({lit(', '.join(map(str, _list(p['eligible']))))})"
                     for p in map(_obj, _list(pots))) or "none"


def _turn(value: JSON) -> str:
    turn = _obj(value)
    if not turn:
        return "no evening"
    if turn.get("hand") is None:
        return f"between hands ({turn.get('hands_played', 0)} played)"
    if turn.get("betting_over"):
        return f"hand {turn['hand']}, betting over"
    who = lit(turn["to_act"] or "no one")
    owes = f", owes {turn['owes']}" if turn.get("owes") else ""
    return f"hand {turn['hand']} round {turn['street']}: {who} to act{owes}"
