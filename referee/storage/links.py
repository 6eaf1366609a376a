"""Evenings in a chain (R43): the next evening's first event records the last one's final
digest, the hash of its last event, so a season is a chain ``verify`` can follow.

The link names the last evening's file; it is looked for beside the new one. ``check`` finds
what is wrong along the chain (a last evening changed since, or damaged); ``chain_back``
lists the evenings a chain reaches, oldest first.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from referee.errors import StoreError
from referee.evening.events import PreviousEvening, read
from referee.storage.audit import audit, load_trusted
from referee.storage.store import open_evening

if TYPE_CHECKING:
    from referee.storage.store import Evening

STREAM = "evening"


def describe(ev: Evening) -> PreviousEvening:
    """What the next evening records of this one (R43): its file's name, its final digest
    (the head of its hash chain), when it was created and how many events it holds."""
    return PreviousEvening(file=ev.path.name, digest=ev.meta["head"],
                           created=ev.meta["created"], events=ev.meta["next_seq"] - 1)


def link(ev: Evening) -> PreviousEvening | None:
    """The link to the last evening recorded by this one's first event, if it has one (None
    too when the segment holding that event is missing: ``verify`` says so on its own)."""
    try:
        first = next(ev.records(STREAM), None)
        if first is None or first["event"].get("kind") != "evening_continued":
            return None
        event = read(first["event"])  # the evening's record of it (its fields checked)
    except StoreError:
        return None
    except (KeyError, TypeError, AttributeError, ValueError):
        # A first record damaged (a key renamed, a field of the wrong kind): the damage is
        # verify's to report, with the newest good backup (E93), not a link to follow.
        return None
    return event["previous"] if event["kind"] == "evening_continued" else None


def previous_path(path: Path, found: PreviousEvening) -> Path:
    """Where the last evening's file is looked for: beside this one (E114)."""
    return Path(os.path.realpath(path)).parent / str(found["file"])


def check(ev: Evening, seen: set[Path] | None = None) -> list[str]:
    """Every problem along the chain back from ``ev`` (R43), as far as the files are beside
    each other: a last evening whose final digest is not the one recorded (it changed since
    the next began), or one that is damaged or does not verify. A last evening not beside its
    successor is not checked (the chain ends there)."""
    found = link(ev)
    if found is None:
        return []
    seen = set() if seen is None else seen
    seen.add(Path(os.path.realpath(ev.path)))
    path = previous_path(ev.path, found)
    name = found["file"]
    if not path.is_file():
        return []
    if path in seen:
        return [f"the chain of evenings runs in a circle at {name}"]
    try:
        with open_evening(path, write=False, audit=True) as old:
            problems = [f"the last evening {name}: {p}"
                        for p in audit(old, load_trusted(old)).problems]
            head = old.meta["head"]
            if head != found["digest"]:
                problems.append(f"the last evening {name} does not end where this one began: "
                                f"its final digest is {head[:12]}..., this evening recorded "
                                f"{str(found['digest'])[:12]}... (it changed after `next`)")
            problems += check(old, seen)
    except StoreError as exc:
        problems = [f"the last evening {name}: {exc}"]
    return problems


def chain_back(path: Path) -> list[Path]:
    """The evening at ``path`` and those its chain reaches back to beside it, oldest first.

    Raises:
        StoreError: ``path`` or an evening on the way is damaged or no evening file.
    """
    out: list[Path] = []
    here: Path | None = Path(os.path.realpath(path))
    while here is not None and here not in out:
        out.append(here)
        with open_evening(here, write=False) as ev:
            found = link(ev)
        here = None
        if found is not None:
            before = previous_path(out[-1], found)
            here = before if before.is_file() else None
    return out[::-1]
