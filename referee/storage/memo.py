"""What a long-running console keeps between its lines (``referee shell``): the folded states,
and the evening file as it last wrote it.

A one-shot command folds the evening from its snapshot and its live events on every open; a
shell would fold the same few hundred events again on every line, twice (the command, then
the prompt's names). Once ``keep()`` is on, each state folded or written is kept, as a copy
(the stream's own deep copy, ``streams.copy``: nothing a fold changes in place is shared),
under the SHA-256 of the evening file it belongs to (the file's own checksum, E40), and an
open of a file with that very checksum starts from a copy of it (E155). A file changed in any
byte (another terminal, an edit, a restored backup) has another checksum and is folded
afresh: the file stays the only truth, and the lock is taken and the file read as before.

The same holds for the file itself. Each write keeps the bytes written and the tables they
hold (``Written``): the next open, under the lock as always, still reads the file, and when
it is those very bytes (but for the mark of the answer slot, E41) it takes the tables from
here instead of hashing and decoding the file again; any other byte and the file is read
afresh, as a one-shot command reads it. The next write encodes only what is not kept
already: a stored row is never changed in place (the store replaces a row it changes), so
the first rows of a table that are still the very objects kept, and the snapshot and the
header's lists while they are, are taken from the bytes last written. The bytes written are
those ``json.dumps`` gives for the whole tables, and the rows kept are as the file reads
back (a row encoded afresh is decoded again from its own JSON). The shell holds the file's
bytes once, and a write the new file's bytes once more (E99).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from operator import is_
from pathlib import Path
from typing import TYPE_CHECKING, Generic, TypeVar

from referee.streams import copy

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence

    from referee.jsontypes import JSONObject
    from referee.storage.chain import Record
    from referee.storage.folded import StreamState
    from referee.storage.seals import Meta
    from referee.storage.tables import Undone

R = TypeVar("R", "Record", "Undone")

_on = False
_kept: dict[tuple[str, str], tuple[bytes, StreamState]] = {}
_files: dict[str, Written] = {}


#: Where a piece of JSON lies in the bytes of a file written: (start, end).
Span = tuple[int, int]


@dataclass(frozen=True)
class Table(Generic[R]):
    """One table of rows as written: the rows (as the file reads them back), where the table
    lies between its braces, and where each row's item ends in it (from the table's start)."""

    rows: list[R]
    span: Span
    ends: list[int]


@dataclass(frozen=True)
class Tables:
    """The tables of one write as the file reads them back, and where their JSON lies in the
    bytes written: the snapshot's states, each list of the header (the segments' names and
    sums), by the object's id (alive here: no other object can have its id), and each table
    of rows."""

    meta: Meta
    snapshot: JSONObject
    live: Table[Record]
    undone: Table[Undone]
    spans: dict[int, Span]


@dataclass(frozen=True)
class Written:
    """The evening file as this process last wrote it: its bytes (never changed once
    written), and its tables."""

    raw: bytes | bytearray
    tables: Tables


def keep(on: bool = True) -> None:
    """Keep folded states and written files from now on (``on``), or stop and forget them."""
    global _on
    _on = on
    _kept.clear()
    _files.clear()
    if on:
        from referee.storage import files

        files.hash_with_openssl()  # a long-running process loads OpenSSL once


def keeping() -> bool:
    return _on


def recall(path: Path, stream: str, digest: bytes | None) -> StreamState | None:
    """A copy of the state of ``stream`` kept for the file at ``path`` with checksum
    ``digest``, or None (not kept, another file, a file without a checksum)."""
    if not _on or digest is None:
        return None
    hit = _kept.get((str(path), stream))
    if hit is None or hit[0] != digest:
        return None
    state: StreamState = copy(stream, hit[1])
    return state


def remember(path: Path, stream: str, digest: bytes | None, state: StreamState) -> None:
    """Keep a copy of ``state``, the state of ``stream`` in the file at ``path`` whose
    checksum is ``digest`` (nothing without one)."""
    if not _on or digest is None:
        return
    _kept[(str(path), stream)] = (digest, copy(stream, state))


def forget() -> None:
    """Drop every kept state and file (a write that may have failed half-way)."""
    _kept.clear()
    _files.clear()


def written(path: Path) -> Written | None:
    """The file at ``path`` as this process last wrote it, if kept."""
    return _files.get(str(path)) if _on else None


def wrote(path: Path, raw: bytes | bytearray, tables: Tables) -> None:
    """The file at ``path`` is now ``raw`` (the file's bytes themselves: not to be changed),
    which holds ``tables``."""
    if _on:
        _files[str(path)] = Written(raw, tables)


def _json_encoder() -> Callable[[object], str]:
    """``json.dumps(value, separators=(",", ":"))``, without building an encoder per call."""
    from json import encoder

    make = getattr(encoder, "c_make_encoder", None)  # CPython's C encoder (not in the stubs)
    if make is None:  # a Python without it
        return json.JSONEncoder(separators=(",", ":")).encode
    # What ``json.dumps`` builds for each call (no indent, ASCII, NaN allowed, keys in order),
    # once; without the check for a circular value, which only turns a crash into an error.
    run: Callable[[object, int], Sequence[str]] = make(
        None, json.JSONEncoder().default, encoder.encode_basestring_ascii, None, ":", ",",
        False, False, True)
    return lambda value: "".join(run(value, 0))


_encode = _json_encoder()


class _Body:
    """The body of a file being written, as parts (``files.frame_parts``), with where each
    part lands in the file."""

    def __init__(self, at: int) -> None:
        self.parts: list[bytes | memoryview] = [b"{"]
        self.at = at  # where the next part lands

    def add(self, part: bytes | memoryview) -> int:
        """Add ``part``; where it lands."""
        self.parts.append(part)
        start = self.at
        self.at += len(part)
        return start


def encode(meta: Meta, snapshot: JSONObject, live: Sequence[Record], undone: Sequence[Undone],
           before: Written | None, loaded: Mapping[int, object],
           at: int) -> tuple[list[bytes | memoryview], Tables]:
    """The JSON of the evening file's tables (``json.dumps`` of them, TinyDB's layout, the
    store's ``_write``) in parts, for a file where its second byte lands at ``at``
    (``files.framed_at``); and the tables as the file will read them back.

    What ``before`` (the file as kept) holds already is taken from its bytes: the snapshot and
    each list of the header while they are the very objects written, the first rows of each
    table while they are (a command appends rows; the store never changes a row in place). An
    object in ``loaded`` (read from the file by this open, by id) is kept as it is; anything
    else encoded here is kept as its own JSON decodes.
    """
    was = before.tables if before is not None else None
    old = memoryview(before.raw) if before is not None else memoryview(b"")
    known = was.spans if was is not None else {}
    spans: dict[int, Span] = {}
    body = _Body(at)
    text = ['"meta":{"1":{']  # the JSON since the last part, added as one part
    part: bytes | memoryview
    for n, (key, value) in enumerate(meta.items()):
        text.append(_KEYS.get((key, n > 0)) or _key(key, n > 0))
        if isinstance(value, list):
            body.add("".join(text).encode("ascii"))
            text = []
            span = known.get(id(value))
            part = old[span[0]:span[1]] if span is not None else _ascii(value)
            spans[id(value)] = _span(body.add(part), part)
        else:
            text.append(_encode(value))
    text.append('}},"snapshot":{"1":{"states":')
    body.add("".join(text).encode("ascii"))
    span = known.get(id(snapshot))
    if span is not None:
        part = old[span[0]:span[1]]
    else:
        part = _ascii(snapshot)
        if id(snapshot) not in loaded:
            snapshot = json.loads(part)
    spans[id(snapshot)] = _span(body.add(part), part)
    body.add(b"}}")
    rows = _table(body, b',"events":{', live, was.live if was else None, old, loaded)
    gone = _table(body, b',"undone":{', undone, was.undone if was else None, old, loaded)
    body.add(b"}")
    return body.parts, Tables(meta.copy(), snapshot, rows, gone, spans)


#: A header key as written (``"key":``, after a comma but for the first), once per key.
_KEYS: dict[tuple[str, bool], str] = {}


def _key(key: str, after: bool) -> str:
    found = _KEYS[key, after] = f'{"," if after else ""}{_encode(key)}:'
    return found


def _ascii(value: object) -> bytes:
    return _encode(value).encode("ascii")  # ASCII, as json.dumps writes it


def _span(start: int, part: bytes | memoryview) -> Span:
    return start, start + len(part)


def _table(body: _Body, opening: bytes, rows: Sequence[R], was: Table[R] | None,
           old: memoryview, loaded: Mapping[int, object]) -> Table[R]:
    """One table's rows (none: no table at all), as kept. The first rows that are still the
    rows kept, in their places, go on as the bytes written for them."""
    if not rows:
        return Table([], (0, 0), [])
    body.add(opening)
    start = body.at
    same = 0
    if was is not None and was.rows:
        if len(rows) >= len(was.rows) and all(map(is_, rows, was.rows)):
            same = len(was.rows)  # a command's write: rows only added
        else:
            same = next((n for n, (row, kept) in enumerate(zip(rows, was.rows, strict=False))
                         if row is not kept), min(len(rows), len(was.rows)))
    kept: list[R] = list(rows[:same])
    ends: list[int] = []
    if was is not None and same:
        ends = was.ends[:same]
        body.add(old[was.span[0]:was.span[0] + ends[-1]])
    for n in range(same, len(rows)):
        row = rows[n]
        text = _encode(row)
        if id(row) not in loaded:
            row = json.loads(text)
        body.add(f'{"," if n else ""}"{n + 1}":{text}'.encode("ascii"))
        kept.append(row)
        ends.append(body.at - start)
    end = body.at
    body.add(b"}")
    return Table(kept, (start, end), ends)
