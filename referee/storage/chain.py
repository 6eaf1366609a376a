"""The hash chain of the evening's events, and the audit ``verify`` runs over it.

Each stored event carries ``prev`` (the hash before it) and ``hash`` (sha256 over ``prev`` and
its content), so an event changed, dropped or reordered breaks the chain.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, TypedDict

if TYPE_CHECKING:
    from hashlib import sha256

    from referee.jsontypes import JSON, JSONObject
    from referee.storage.folded import StreamState
else:
    try:  # CPython's builtin SHA-256 (3.11): the same digests as hashlib, which would load
        # OpenSSL first, about 5 ms on every command that writes
        from _sha256 import sha256
    except ImportError:  # other Pythons
        from hashlib import sha256

from referee.streams import plain, spec

GENESIS = "0" * 64


class Record(TypedDict):
    """One stored event: its place, its command, its stream, and the chain around it. The
    event itself is its stream's, as JSON here: each stream reads it through its spec's
    ``read`` (the evening's as an ``referee.evening.events.EveningEvent``)."""

    seq: int
    cmd: int
    stream: str
    time: float
    text: str                        # the command as the GM could retype it
    event: JSONObject
    prev: str
    hash: str


def event_hash(prev: str, record: Record) -> str:
    """The chain hash of one stored event: sha256 over the previous hash and its content."""
    body = {"seq": record["seq"], "cmd": record["cmd"], "stream": record["stream"],
            "time": record["time"], "text": record["text"], "event": record["event"]}
    blob = prev + _sorted_json(body)
    return sha256(blob.encode("utf-8")).hexdigest()


#: ``json.dumps(value, sort_keys=True, separators=(",", ":"))``, the encoder built once.
_sorted_json = json.JSONEncoder(sort_keys=True, separators=(",", ":")).encode


def chain_break(records: list[Record], prev: str, head: str) -> str | None:
    """What breaks the hash chain of ``records`` from ``prev`` to ``head``, if anything."""
    for record in records:
        try:
            if record["prev"] != prev or event_hash(prev, record) != record["hash"]:
                return f"event {record['seq']} was altered: its hash does not match"
            prev = record["hash"]
        except (KeyError, TypeError, AttributeError):
            return "an event record is malformed"
    if prev != head:
        return "the last event does not match the header (an event is missing)"
    return None


def check_base(problems: list[str], where: str, base: JSONObject,
                states: dict[str, StreamState]) -> None:
    """Whether ``base`` (stored states, by stream) holds exactly the ``states`` replayed."""
    for stream in sorted(set(states) | set(base)):
        if stream not in states:
            # Nothing replayed for it, so nothing may be stored for it (E40).
            problems.append(f"{where}: a stored state of {stream!r} that no event made")
            continue
        if _canonical(spec(stream).dump(states[stream])) != stored(stream, base.get(stream)):
            problems.append(f"{where}: stored state of {stream} differs from the replayed events")


def stored(stream: str, value: JSON) -> str:
    """A stored state as the current code reads it back, canonical: a snapshot written before a
    field was added reads with that field's default, as the fold would give it (an older
    evening stays sound). Unreadable, it is compared as it stands (and differs)."""
    try:
        return _canonical(spec(stream).dump(spec(stream).load(plain(value))))
    except Exception:  # a garbage snapshot: what verify reports, not a crash
        return _canonical(value)


def _canonical(obj: object) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


def check_chain(problems: list[str], records: list[Record], prev: str, seq: int,
                 states: dict[str, StreamState]) -> tuple[str, int]:
    for record in records:
        # A record edited by hand may lack fields: that is a finding, not a crash.
        try:
            if record["prev"] != prev:
                problems.append(f"event {record['seq']}: chain broken (prev hash does not match)")
            if event_hash(record["prev"], record) != record["hash"]:
                problems.append(f"event {record['seq']}: content altered (hash does not match)")
            if record["seq"] <= seq:
                problems.append(f"event {record['seq']}: out of order")
            stream = record["stream"]
            sp = spec(stream)
        except (KeyError, TypeError, AttributeError) as exc:
            where = record.get("seq", "?") if isinstance(record, dict) else "?"
            problems.append(f"event {where} after event {seq}: malformed record "
                            f"({type(exc).__name__}: {exc})")
            continue
        if stream not in states:
            states[stream] = sp.empty()
        try:
            states[stream] = sp.apply(states[stream], plain(record["event"]))
        except Exception as exc:  # an event that no longer folds is exactly what verify reports
            problems.append(f"event {record['seq']}: does not replay ({exc})")
        prev, seq = record["hash"], record["seq"]
    return prev, seq
