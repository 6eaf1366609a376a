"""What a long-running console keeps between its lines (``referee shell``): the folded states,
and the evening file as it last wrote it.

A one-shot command folds the evening from its snapshot and its live events on every open; a
shell would fold the same few hundred events again on every line, twice (the command, then
the prompt's names). Once ``keep()`` is on, each state folded or written is kept, as a copy,
under the SHA-256 of the evening file it belongs to (the file's own checksum, E40), and an
open of a file with that very checksum starts from a copy of it (E155). A file changed in any
byte (another terminal, an edit, a restored backup) has another checksum and is folded
afresh: the file stays the only truth, and the lock is taken and the file read as before.

The same holds for the file itself. Each write keeps the bytes written and the tables they
hold (``Written``): the next open, under the lock as always, still reads the file, and when
it is those very bytes (but for the mark of the answer slot, E41) it takes the tables from
here instead of hashing and decoding the file again; any other byte and the file is read
afresh, as a one-shot command reads it. The next write encodes only the rows that are not
already kept: a stored row is never changed in place (the store replaces a row it changes),
so a row still the very object kept has the JSON kept with it. The bytes written are those
``json.dumps`` gives for the whole tables, and the rows kept are as the file reads back
(a row encoded afresh is decoded again from its own JSON).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from operator import is_
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from referee.streams import spec

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


@dataclass(frozen=True)
class Tables:
    """The tables of one write, as the file reads them back, and the JSON of each object in
    them that is encoded whole (the snapshot's states, each row), by the object's id (the
    lists here keep each of them alive, so no other object can have its id)."""

    meta: Meta
    snapshot: JSONObject
    live: list[Record]
    undone: list[Undone]
    encoded: dict[int, str]
    #: The JSON of the events and the undone tables, between their braces.
    live_json: str
    undone_json: str
    #: The JSON of each list in the header (the segments' names and sums), by its id.
    meta_lists: dict[int, str]


@dataclass(frozen=True)
class Written:
    """The evening file as this process last wrote it: its bytes, and its tables."""

    raw: bytes
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
    sp = spec(stream)
    state: StreamState = sp.load(sp.dump(hit[1]))
    return state


def remember(path: Path, stream: str, digest: bytes | None, state: StreamState) -> None:
    """Keep a copy of ``state``, the state of ``stream`` in the file at ``path`` whose
    checksum is ``digest`` (nothing without one)."""
    if not _on or digest is None:
        return
    sp = spec(stream)
    _kept[(str(path), stream)] = (digest, sp.load(sp.dump(state)))


def forget() -> None:
    """Drop every kept state and file (a write that may have failed half-way)."""
    _kept.clear()
    _files.clear()


def written(path: Path) -> Written | None:
    """The file at ``path`` as this process last wrote it, if kept."""
    return _files.get(str(path)) if _on else None


def wrote(path: Path, raw: bytes | bytearray, tables: Tables) -> None:
    """The file at ``path`` is now ``raw``, which holds ``tables``."""
    if _on:
        _files[str(path)] = Written(bytes(raw), tables)


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


def encode(meta: Meta, snapshot: JSONObject, live: Sequence[Record], undone: Sequence[Undone],
           before: Written | None, loaded: Mapping[int, object]) -> tuple[bytes, Tables]:
    """The JSON of the evening file's tables (as ``json.dumps`` of them, TinyDB's layout, the
    store's ``_write``), and the tables as the file will read them back.

    Objects of ``before`` (the file as kept) are not encoded again; an object in ``loaded``
    (read from the file by this open, by id) is kept as it is; anything else is kept as its
    own JSON decodes.
    """
    was = before.tables if before is not None else None
    known = was.encoded if was is not None else {}
    # Everything kept still there (the same snapshot, rows only added: a command's write):
    # its JSON goes on whole, without a look at each row.
    whole = (was is not None and snapshot is was.snapshot and _extends(live, was.live)
             and _extends(undone, was.undone))
    encoded: dict[int, str] = dict(known) if whole else {}
    states = known.get(id(snapshot))
    if states is None:
        states = _encode(snapshot)
        if id(snapshot) not in loaded:
            snapshot = json.loads(states)
    encoded[id(snapshot)] = states
    header, lists = _header(meta, was.meta_lists if was is not None else {})
    parts = ['{"meta":{"1":', header, '},"snapshot":{"1":{"states":', states, "}}"]
    rows, events = _rows(live, *((was.live, was.live_json) if was else ([], "")), known,
                         loaded, encoded, whole)
    if rows:
        parts += [',"events":{', events, "}"]
    gone, taken = _rows(undone, *((was.undone, was.undone_json) if was else ([], "")), known,
                        loaded, encoded, whole)
    if gone:
        parts += [',"undone":{', taken, "}"]
    parts.append("}")
    body = "".join(parts).encode("ascii")  # ASCII as json.dumps writes it
    return body, Tables(meta.copy(), snapshot, rows, gone, encoded, events, taken, lists)


def _header(meta: Meta, known: Mapping[int, str]) -> tuple[str, dict[int, str]]:
    """The header's JSON, and that of each of its lists: the segments' names and sums, a
    hundred entries on a long night, change only at a seal (the store puts a new list in;
    it never changes one in place)."""
    lists: dict[int, str] = {}
    items = []
    for key, value in meta.items():
        if isinstance(value, list):
            text = known.get(id(value))
            if text is None:
                text = _encode(value)
            lists[id(value)] = text
        else:
            text = _encode(value)
        items.append(f"{_encode(key)}:{text}")
    return "{" + ",".join(items) + "}", lists


def _extends(rows: Sequence[R], kept_rows: list[R]) -> bool:
    """Whether ``rows`` begin with ``kept_rows``, the very objects in their places."""
    return len(rows) >= len(kept_rows) and all(map(is_, rows, kept_rows))


def _rows(rows: Sequence[R], kept_rows: list[R], kept_json: str, known: Mapping[int, str],
          loaded: Mapping[int, object], encoded: dict[int, str],
          noted: bool) -> tuple[list[R], str]:
    """One table's rows as kept, and the table's JSON between its braces. When the rows kept
    are the first rows still (what appending gives), their table's JSON goes on as it was
    (and their JSON is in ``encoded`` already when ``noted``)."""
    kept: list[R] = []
    items: list[str] = []
    start = 0
    if kept_rows and _extends(rows, kept_rows):
        start = len(kept_rows)
        kept += kept_rows
        items.append(kept_json)
        if not noted:
            encoded.update((id(row), known[id(row)]) for row in kept_rows)
    for n, row in enumerate(rows[start:], start=start + 1):
        text = known.get(id(row))
        if text is None:
            text = _encode(row)
            if id(row) not in loaded:
                row = json.loads(text)
        encoded[id(row)] = text
        kept.append(row)
        items.append(f'"{n}":{text}')
    return kept, ",".join(items)
