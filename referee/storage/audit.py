"""``verify``: the evening's hash chain and snapshots, checked once and remembered.

A full check replays every event from the first: at 100,000 events that is seconds. Sealed
segments never change, so what a sound check found is remembered in a sidecar,
``PATH.verified``, written only by ``verify`` and only when it found nothing wrong (a
refused or failing command never writes it, and the evening file itself is never touched).
For each sealed segment it holds the file's name, size and modification time, and the
chain as it stood after it: the last sequence number and hash, the events so far, and a
digest of the replayed state of every stream. The next ``verify`` trusts the longest run of
segments that are still those very files (a segment is remembered only once its file
is a few seconds old, so that a later change cannot hide behind a coarse timestamp),
starts from the next segment's stored base state (which must have the remembered digest),
and checks the rest as a full check would; the live events in the evening file are always
checked. ``verify --all`` trusts nothing.
"""

from __future__ import annotations

import copy
import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from referee.errors import StoreError
from referee.storage.chain import GENESIS, check_chain, stored
from referee.storage.files import atomic_write, read_json
from referee.streams import spec

if TYPE_CHECKING:
    from hashlib import sha256

    from referee.storage.store import Evening
else:
    try:  # the builtin, as in referee.storage.store: no OpenSSL to load
        from _sha256 import sha256
    except ImportError:  # other Pythons
        from hashlib import sha256

SIDECAR_FORMAT = 1
#: Progress reports go to a terminal when a check has at least this many segments to read.
PROGRESS_FROM = 25
#: A segment file younger than this is checked again next time (see ``_entry``).
RECENT_NS = 2_000_000_000

Progress = Callable[[int, int], None]


@dataclass
class Audit:
    """What one check found: ``problems`` (empty: sound), events in the file and checked now,
    and the segments found sound (what the sidecar remembers)."""

    problems: list[str]
    events: int = 0
    checked: int = 0
    sound: list[dict[str, Any]] = field(default_factory=list)


def verify(ev: Evening) -> list[str]:
    """Every problem with the evening's hash chain and its snapshots; empty when it is sound.

    Checks everything; ``audit`` with what was trusted before checks only what is new.
    """
    return audit(ev).problems


def audit(ev: Evening, trusted: list[dict[str, Any]] | None = None,
          progress: Progress | None = None) -> Audit:
    """Check the chain and snapshots of ``ev``, trusting the still-unchanged ``trusted``.

    ``progress(done, total)`` is called before each segment read, when at least
    ``PROGRESS_FROM`` segments are to be read. When a check that trusted something finds a
    problem, everything is checked again, so that the report is that of a full check.
    """
    found = _audit(ev, trusted or [], progress)
    if found.problems and trusted and found.checked < found.events:
        return _audit(ev, [], progress)
    return found


def _audit(ev: Evening, trusted: list[dict[str, Any]], progress: Progress | None) -> Audit:
    problems: list[str] = []
    if ev._storage.checked is False:
        problems.append("the file's checksum does not match: it was changed outside the "
                        "referee")
    prev, seq, count = GENESIS, 0, 0
    states: dict[str, Any] = {}
    total = ev.meta["segments"]
    start = trusted_prefix(ev, trusted)
    sound = list(trusted[:start])
    resume = sound[-1] if sound else None
    if resume is not None:
        prev, seq, count = resume["head"], resume["seq"], resume["events"]
    checked = 0
    dumps: dict[str, str] = {}  # the replayed states, canonical JSON, where the chain is
    if total - start < PROGRESS_FROM:
        progress = None
    for n in range(start + 1, total + 1):
        if progress is not None:
            progress(n - start, total - start)
        path = ev._segment_path(n)
        try:
            segment = ev._segment(n)
        except StoreError as exc:
            return Audit([*problems, str(exc)], count, checked)
        base, events = segment.get("base"), segment.get("events")
        if not isinstance(base, dict) or not isinstance(events, list):
            return Audit([*problems, f"segment {n} ({path}) is malformed"], count, checked)
        if segment.get("base_head", GENESIS) != prev:
            problems.append(f"segment {n}: does not continue the chain")
        if resume is not None and n == start + 1:
            if not _resumes(base, resume):
                return Audit([f"segment {n}: stored state differs from the one verified before"],
                             count, checked)
            states = _load(base, resume)
        else:
            _check_base(problems, f"segment {n}", base, dumps)
        prev, seq = check_chain(problems, events, prev, seq, states)
        count += len(events)
        checked += len(events)
        dumps = _dumps(states)
        if not problems and len(sound) == n - 1:
            entry = _entry(path, seq, prev, count, dumps)
            if entry is not None:
                sound.append(entry)
    if ev.meta.get("sealed_head", GENESIS) != prev:
        problems.append("the live events do not continue the sealed chain")
    if resume is not None and start == total:
        if not _resumes(ev._snapshot, resume):
            return Audit(["snapshot: stored state differs from the one verified before"],
                         count, checked)
        states = _load(ev._snapshot, resume)
    else:
        _check_base(problems, "snapshot", ev._snapshot, dumps)
    prev, seq = check_chain(problems, ev._live, prev, seq, states)
    count += len(ev._live)
    checked += len(ev._live)
    if prev != ev.meta["head"]:
        problems.append("the header's head hash does not match the last event")
    return Audit(problems, count, checked, sound if not problems else [])


def trusted_prefix(ev: Evening, trusted: list[dict[str, Any]]) -> int:
    """How many of the evening's segments, from the first, are the files ``trusted`` names."""
    done = 0
    try:
        for n, entry in enumerate(trusted[: ev.meta["segments"]], start=1):
            path = ev._segment_path(n)
            if entry["name"] != path.name:
                break
            stat = os.stat(path)
            if (stat.st_size, stat.st_mtime_ns) != (entry["size"], entry["mtime_ns"]):
                break
            done = n
    except (OSError, KeyError, TypeError):  # a file gone, or a sidecar edited by hand
        pass
    return done


def _entry(path: Path, seq: int, head: str, count: int,
           dumps: dict[str, str]) -> dict[str, Any] | None:
    """What the sidecar remembers of a sound segment; None for a file written so recently
    that a change now might keep its size and modification time (timestamps are coarse)."""
    stat = os.stat(path)
    if stat.st_mtime_ns > time.time_ns() - RECENT_NS:
        return None
    return {"name": path.name, "size": stat.st_size, "mtime_ns": stat.st_mtime_ns, "seq": seq,
            "head": head, "events": count, "streams": sorted(dumps), "digest": _digest(dumps)}


def _dumps(states: dict[str, Any]) -> dict[str, str]:
    return {s: _canonical(spec(s).dump(state)) for s, state in states.items()}


def _digest(dumps: dict[str, str]) -> str:
    blob = "\n".join(f"{stream}:{dumps[stream]}" for stream in sorted(dumps))
    return sha256(blob.encode("utf-8")).hexdigest()


def _resumes(base: dict[str, Any], resume: dict[str, Any]) -> bool:
    """Whether ``base`` holds the replayed states remembered where the trusted run ends
    (and nothing else)."""
    if not set(base) <= set(resume["streams"]):
        return False
    # Read back as the current code reads it (``chain.stored``): a snapshot written before a
    # field was added still matches the states remembered from its replay.
    found = {s: stored(s, base.get(s)) for s in resume["streams"]}
    return bool(_digest(found) == resume["digest"])


def _load(base: dict[str, Any], resume: dict[str, Any]) -> dict[str, Any]:
    streams = resume["streams"]
    return {s: spec(s).load(copy.deepcopy(base[s])) for s in streams if base.get(s) is not None}


def _check_base(problems: list[str], where: str, base: dict[str, Any],
                dumps: dict[str, str]) -> None:
    """As ``referee.storage.chain.check_base``, from the states already dumped."""
    for stream in sorted(set(dumps) | set(base)):
        if stream not in dumps:  # nothing replayed for it, so nothing may be stored for it
            problems.append(f"{where}: a stored state of {stream!r} that no event made")
        elif dumps[stream] != stored(stream, base.get(stream)):
            problems.append(f"{where}: stored state of {stream} differs from the replayed events")


def _canonical(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


# ---------------------------------------------------------------- the sidecar


def sidecar_path(path: Path) -> Path:
    return path.with_name(f"{path.name}.verified")


def load_trusted(ev: Evening) -> list[dict[str, Any]]:
    """The segments an earlier ``verify`` of this evening found sound (none if unsure)."""
    try:
        data = read_json(sidecar_path(ev.path))
    except StoreError:  # a damaged sidecar only means checking everything again
        return []
    if (not data or data.get("format") != SIDECAR_FORMAT
            or data.get("created") != ev.meta.get("created")
            or not isinstance(data.get("segments"), list)):
        return []
    return list(data["segments"])


def save_trusted(ev: Evening, sound: list[dict[str, Any]]) -> None:
    """Remember the segments found sound; a sidecar that cannot be written is no error.
    Under ``--dry-run`` nothing is written at all (E133)."""
    from referee.storage import files

    if files.DRY_RUN:
        return
    text = json.dumps({"format": SIDECAR_FORMAT, "created": ev.meta.get("created"),
                       "segments": sound}, separators=(",", ":"))
    try:
        atomic_write(sidecar_path(ev.path), text)
    except OSError:
        pass
