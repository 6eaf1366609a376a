"""`log --format jsonl|csv` (E137), and which commands `amend` replaced."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from typing import Any


def amended_by(ev: Any) -> dict[int, str]:
    """Each amended or replayed command's number -> what the log says of it (E138)."""
    out: dict[int, str] = {}
    for a in ev.state("evening").amendments if ev.state("evening").started else []:
        changed = a.get("changed", [{"cmd": a["cmd"], "new": a["new"]}])
        for c in changed:
            out[c["cmd"]] = f"amended: now `{c['new']}`"
        for cmd in a.get("dropped", []):
            out[cmd] = f"dropped by the amendment of #{a['cmd']}"
        for cmd in a.get("replayed", []):
            out.setdefault(cmd, f"replayed after the amendment of #{a['cmd']}")
    return out


def stream_rows(commands: Iterable[Any], form: str, notes: dict[int, str]) -> None:
    """One command a line: JSON objects, or CSV with a header (E137). Streamed: a long night
    needs no more memory than a short one."""
    import csv  # `log --format` only, off the path of `log --last N` (E160)
    from datetime import datetime

    out = sys.stdout
    if form == "jsonl":
        for c in commands:
            item = {"cmd": c.cmd, "table": c.stream, "text": c.text, "time": c.time,
                    "events": list(c.events)}
            if c.cmd in notes:
                item["amended"] = notes[c.cmd]
            out.write(json.dumps(item, ensure_ascii=False) + "\n")
        return
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["cmd", "time", "table", "command", "events", "kinds", "amended"])
    for c in commands:
        writer.writerow([c.cmd, datetime.fromtimestamp(c.time).isoformat(timespec="seconds"),
                         c.stream, _cell(c.text), len(c.events),
                         " ".join(e["kind"] for e in c.events), notes.get(c.cmd, "")])


def _cell(text: str) -> str:
    """A spreadsheet reads a cell starting with = + - @ as a formula: a name is data (E137)."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text
