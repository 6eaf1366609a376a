"""``verify``: the evening's hash chain and snapshots, checked once and remembered.

A full check replays every event from the first: at 100,000 events that is seconds. Sealed
segments never change, so what a sound check found is remembered in a sidecar,
``PATH.verified``, written only by ``verify`` and only when it found nothing wrong (a
refused or failing command never writes it, and the evening file itself is never touched).
For each sealed segment it holds the file's name and the SHA-256 of its bytes, and the chain
as it stood after it: the last sequence number and hash, the events so far, and a digest of
the replayed state of every stream. Every ``verify`` hashes every sealed segment's bytes and
compares them with the digest the live file recorded when it was sealed (E90): its size and
time are trusted for nothing. The replay is what the sidecar saves: the next ``verify``
trusts the longest run of segments whose bytes are still those remembered, starts from the
next segment's stored base state (which must have the remembered digest), and replays the
rest as a full check would; the live events in the evening file are always checked.
``verify --all`` replays everything.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict, cast

from referee.errors import StoreError
from referee.storage import layout, segments
from referee.storage.backups import read_json
from referee.storage.chain import GENESIS, check_chain, stored
from referee.storage.files import atomic_write
from referee.streams import spec

if TYPE_CHECKING:
    from hashlib import sha256

    from referee.jsontypes import JSONObject
    from referee.storage.folded import StreamState
    from referee.storage.store import Evening
else:
    try:  # the builtin, as in referee.storage.store: no OpenSSL to load
        from _sha256 import sha256
    except ImportError:  # other Pythons
        from hashlib import sha256

SIDECAR_FORMAT = 1
#: Progress reports go to a terminal when a check has at least this many segments to read.
PROGRESS_FROM = 25

Progress = Callable[[int, int], None]


class Verified(TypedDict):
    """What the sidecar remembers of a segment found sound: its file's name and the SHA-256 of
    its bytes, and the chain after it (the last sequence number and hash, the events so far,
    the streams replayed and a digest of their states)."""

    name: str
    sha256: str | None
    seq: int
    head: str
    events: int
    streams: list[str]
    digest: str


@dataclass
class Audit:
    """What one check found: ``problems`` (empty: sound), events in the file and checked now,
    and the segments found sound (what the sidecar remembers)."""

    problems: list[str]
    events: int = 0
    checked: int = 0
    sound: list[Verified] = field(default_factory=list)


def verify(ev: Evening) -> list[str]:
    """Every problem with the evening's hash chain and its snapshots; empty when it is sound.

    Checks everything; ``audit`` with what was trusted before checks only what is new.
    """
    return audit(ev).problems


def audit(ev: Evening, trusted: list[Verified] | None = None,
          progress: Progress | None = None, tinydb: list[str] | None = None) -> Audit:
    """Check the chain and snapshots of ``ev``, trusting the still-unchanged ``trusted``.

    ``progress(done, total)`` is called before each segment read, when at least
    ``PROGRESS_FROM`` segments are to be read. ``tinydb``: what ``layout.check`` found of the
    file before it was opened (read then, the file is not held twice, E99). When a check
    that trusted something finds a problem, everything is checked again, so that the report
    is that of a full check.
    """
    found = _audit(ev, trusted or [], progress, tinydb)
    if found.problems and trusted and found.checked < found.events:
        return _audit(ev, [], progress, tinydb)
    return found


def _audit(ev: Evening, trusted: list[Verified], progress: Progress | None,
           tinydb: list[str] | None = None) -> Audit:
    problems = _file_problems(ev, tinydb)
    prev, seq, count = GENESIS, 0, 0
    states: dict[str, StreamState] = {}  # the replayed state of each stream
    total = ev.meta["segments"]
    # Every segment's bytes against the digest sealed in the live file, first (E90).
    digests = [_digest_of(ev, n) for n in range(1, total + 1)]
    damaged = _damaged(ev, digests)
    if damaged:
        return Audit([*problems, *damaged], ev.meta["next_seq"] - 1, 0)
    start = trusted_prefix(ev, trusted, digests)
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
        segment = _read_segment(ev, n)
        if isinstance(segment, str):
            return Audit([*problems, segment], count, checked)
        base, events = segment["base"], segment["events"]
        if segment.get("base_head", GENESIS) != prev:
            problems.append(f"segment {n}: does not continue the chain")
        here = _base_states(f"segment {n}", base, resume if n == start + 1 else None, states,
                            problems, dumps)
        if isinstance(here, str):
            return Audit([here], count, checked)
        states = here
        prev, seq = check_chain(problems, events, prev, seq, states)
        count += len(events)
        checked += len(events)
        dumps = _dumps(states)
        if not problems and len(sound) == n - 1:
            sound.append(_entry(path, digests[n - 1], seq, prev, count, dumps))
    if ev.meta.get("sealed_head", GENESIS) != prev:
        problems.append("the live events do not continue the sealed chain")
    here = _base_states("snapshot", ev._snapshot, resume if start == total else None, states,
                        problems, dumps)
    if isinstance(here, str):
        return Audit([here], count, checked)
    states = here
    prev, seq = check_chain(problems, ev._live, prev, seq, states)
    count += len(ev._live)
    checked += len(ev._live)
    if prev != ev.meta["head"]:
        problems.append("the header's head hash does not match the last event")
    return Audit(problems, count, checked, sound if not problems else [])


def _damaged(ev: Evening, digests: list[str | None]) -> list[str]:
    """Each segment whose bytes are not those sealed (``digests``: as they are now), and why
    (E90)."""
    return [why for n in range(1, len(digests) + 1)
            if (why := _damage(ev, n, digests[n - 1])) is not None]


def _file_problems(ev: Evening, tinydb: list[str] | None) -> list[str]:
    """What is wrong with the file as a whole: its checksum, and its layout as TinyDB reads
    it (E161; ``tinydb``: found before the evening was opened, E99)."""
    problems: list[str] = []
    if ev._storage.checked is False:
        problems.append("the file's checksum does not match: it was changed outside the "
                        "referee")
    if ev.exists and tinydb is not None:
        problems += tinydb
    elif ev.exists:
        problems += layout.differences(ev.path, {name: ev._table(name, "items")
                                                 for name in layout.TABLES})
    return problems


def _read_segment(ev: Evening, n: int) -> segments.Segment | str:
    """Segment ``n`` with a base and a list of events, or why it cannot be read."""
    try:
        segment = ev._segment(n)
    except StoreError as exc:
        return str(exc)
    if not isinstance(segment.get("base"), dict) or not isinstance(segment.get("events"), list):
        return f"segment {n} ({ev._segment_path(n)}) is malformed"
    return segment


def trusted_prefix(ev: Evening, trusted: list[Verified],
                   digests: list[str | None] | None = None) -> int:
    """How many of the evening's segments, from the first, hold the very bytes ``trusted``
    remembers (by their SHA-256: a size and a time prove nothing)."""
    if digests is None:
        digests = [_digest_of(ev, n) for n in range(1, ev.meta["segments"] + 1)]
    done = 0
    try:
        for n, entry in enumerate(trusted[: ev.meta["segments"]], start=1):
            if entry["name"] != ev._segment_path(n).name or entry["sha256"] != digests[n - 1]:
                break
            done = n
    except (KeyError, TypeError):  # a sidecar edited by hand, or of an earlier release
        pass
    return done


def _digest_of(ev: Evening, n: int) -> str | None:
    """The SHA-256 of segment ``n``'s bytes as they are now (None: unreadable or missing)."""
    try:
        data = segments.read_raw(ev._segment_path(n))
    except StoreError:
        return None
    return None if data is None else str(segments.seal_sum(data)["sha256"])


def _damage(ev: Evening, n: int, digest: str | None) -> str | None:
    """What is wrong with segment ``n`` by its bytes, against the digest sealed (E90)."""
    if digest is None:
        return segments.damage(ev.path, ev.meta, n) or f"segment {n} cannot be read"
    expected = segments.recorded(ev.meta, n)
    if expected is not None and digest != expected["sha256"]:
        return segments.damage(ev.path, ev.meta, n)
    return None


def _entry(path: Path, digest: str | None, seq: int, head: str, count: int,
           dumps: dict[str, str]) -> Verified:
    """What the sidecar remembers of a sound segment: its bytes' digest and the chain after it."""
    return {"name": path.name, "sha256": digest, "seq": seq, "head": head, "events": count,
            "streams": sorted(dumps), "digest": _digest(dumps)}


def _dumps(states: dict[str, StreamState]) -> dict[str, str]:
    return {s: _canonical(spec(s).dump(state)) for s, state in states.items()}


def _digest(dumps: dict[str, str]) -> str:
    blob = "\n".join(f"{stream}:{dumps[stream]}" for stream in sorted(dumps))
    return sha256(blob.encode("utf-8")).hexdigest()


def _base_states(where: str, base: JSONObject, resume: Verified | None,
                 states: dict[str, StreamState], problems: list[str],
                 dumps: dict[str, str]) -> dict[str, StreamState] | str:
    """The streams' states where a segment (or the snapshot) starts. Where the check resumes
    (``resume``), loaded from ``base`` if it holds what was verified before (else why not);
    elsewhere ``base`` is held to the states replayed so far (``dumps``), kept as they are."""
    if resume is None:
        _check_base(problems, where, base, dumps)
        return states
    if not _resumes(base, resume):
        return f"{where}: stored state differs from the one verified before"
    return _load(base, resume)


def _resumes(base: JSONObject, resume: Verified) -> bool:
    """Whether ``base`` holds the replayed states remembered where the trusted run ends
    (and nothing else)."""
    if not set(base) <= set(resume["streams"]):
        return False
    # Read back as the current code reads it (``chain.stored``): a snapshot written before a
    # field was added still matches the states remembered from its replay.
    found = {s: stored(s, base.get(s)) for s in resume["streams"]}
    return bool(_digest(found) == resume["digest"])


def _load(base: JSONObject, resume: Verified) -> dict[str, StreamState]:
    streams = resume["streams"]
    return {s: spec(s).load(copy.deepcopy(base[s])) for s in streams if base.get(s) is not None}


def _check_base(problems: list[str], where: str, base: JSONObject,
                dumps: dict[str, str]) -> None:
    """As ``referee.storage.chain.check_base``, from the states already dumped."""
    for stream in sorted(set(dumps) | set(base)):
        if stream not in dumps:  # nothing replayed for it, so nothing may be stored for it
            problems.append(f"{where}: a stored state of {stream!r} that no event made")
        elif dumps[stream] != stored(stream, base.get(stream)):
            problems.append(f"{where}: stored state of {stream} differs from the replayed events")


def _canonical(obj: object) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


# ---------------------------------------------------------------- the sidecar


def sidecar_path(path: Path) -> Path:
    return path.with_name(f"{path.name}.verified")


def load_trusted(ev: Evening) -> list[Verified]:
    """The segments an earlier ``verify`` of this evening found sound (none if unsure)."""
    try:
        data = read_json(sidecar_path(ev.path))
    except StoreError:  # a damaged sidecar only means checking everything again
        return []
    entries = data.get("segments") if data else None
    if (not data or data.get("format") != SIDECAR_FORMAT
            or data.get("created") != ev.meta.get("created")
            or not isinstance(entries, list)):
        return []
    # The sidecar as ``verify`` wrote it; an entry edited by hand is caught where it is read
    # (``trusted_prefix``), and trusts nothing.
    return cast(list[Verified], list(entries))


def save_trusted(ev: Evening, sound: list[Verified]) -> None:
    """Remember the segments found sound; a sidecar that cannot be written is no error.
    Under ``--dry-run`` (an evening opened ``dry``) nothing is written at all (E133)."""
    if ev.dry:
        return
    text = json.dumps({"format": SIDECAR_FORMAT, "created": ev.meta.get("created"),
                       "segments": sound}, separators=(",", ":"))
    try:
        atomic_write(sidecar_path(ev.path), text)
    except OSError:
        pass
