"""The evening file's tables read back: the header checked, the snapshot, the live events and
the undone commands, straight from the file's JSON as TinyDB lays it out (TinyDB's own Table
would build a Document of every row, to be copied again by the store).

A table or row of the wrong shape raises what TinyDB's reading would (``AttributeError``,
``TypeError``, ``ValueError``): the store reports it as a damaged file, its repr in the line.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple, cast

from referee.storage import header
from referee.storage.chain import GENESIS

if TYPE_CHECKING:
    from referee.jsontypes import JSON, JSONObject
    from referee.storage.chain import Record
    from referee.storage.memo import Tables as Kept
    from referee.storage.tables import Undone
    from referee.streams import Event


@dataclass(frozen=True)
class Command:
    """One GM command as stored: its id, stream, text and the events it wrote."""

    cmd: int
    stream: str
    text: str
    time: float
    events: tuple[Event, ...]


class Read(NamedTuple):
    """The four tables an open starts from."""

    meta: header.Meta
    snapshot: JSONObject
    live: list[Record]
    undone: list[Undone]


def read(path: Path, raw: JSONObject | None, exists: bool, version: int,
         loaded: dict[int, object] | None = None) -> Read:
    """The tables of the file's JSON ``raw`` (None: no file yet, a new header), the header
    checked against format ``version``; each row a copy. ``loaded`` (when the shell keeps
    what it writes, ``memo``) is given every row read, by id."""
    meta = first_row(raw, "meta")
    if exists:
        header.check(path, meta, version)
    # The header as stored, just checked by ``header.check`` (its counts and its head).
    found = cast(header.Meta, dict(meta)) if meta else {
        "format": version,
        "created": time.time(),
        "segments": 0,
        "next_seq": 1,
        "next_cmd": 1,
        "head": GENESIS,
    }
    snap = first_row(raw, "snapshot")
    snapshot = row(snap["states"]) if snap else {}
    # Records as stored; a malformed one is found by the chain check (``chain_break``).
    live = [cast("Record", found_row) for found_row in rows(raw, "events")]
    # Commands taken back, as stored (each read where it is redone).
    undone = cast("list[Undone]", rows(raw, "undone"))
    if loaded is not None:
        for kept in (snapshot, *live, *undone):
            loaded[id(kept)] = kept
    return Read(found, snapshot, live, undone)


def kept(path: Path, tables: Kept, version: int) -> Read:
    """The tables of the file as this process wrote it (the file is still those bytes): the
    same header check; the rows themselves, shared (a row is never changed in place: the
    store makes a changed row anew)."""
    meta = tables.meta.copy()
    header.check(path, meta, version)
    return Read(meta, tables.snapshot, list(tables.live.rows), list(tables.undone.rows))


def table(raw: JSONObject | None, name: str, reading: str) -> JSONObject:
    """The raw table ``name`` of the file (``{"1": row, ...}``), empty when there is none.
    A table that is no object raises what ``reading`` it would (its repr is in the line
    for a damaged file)."""
    if raw is None:
        return {}
    try:
        found = raw[name]
    except KeyError:
        return {}
    if not isinstance(found, dict):
        raise AttributeError(f"{type(found).__name__!r} object has no attribute {reading!r}")
    return found


def rows(raw: JSONObject | None, name: str) -> list[JSONObject]:
    """The rows of table ``name`` in the file's order, each a copy (a row id that is no
    number, or a row that is no object, raises as TinyDB's own reading would)."""
    out = []
    for row_id, found in table(raw, name, "items").items():
        int(row_id)
        out.append(row(found))
    return out


def first_row(raw: JSONObject | None, name: str) -> JSONObject | None:
    """A copy of row ``"1"`` of table ``name``, if there is one."""
    found = table(raw, name, "get").get("1", None)
    return None if found is None else row(found)


def row(found: JSON) -> JSONObject:
    """A copy of a row as read, which must be an object (its error's repr is in the line for
    a damaged file: a number or null raises what ``dict(found)`` would)."""
    if isinstance(found, dict):
        return dict(found)
    if isinstance(found, list | str):
        raise ValueError(f"a row that is no object: {found!r:.40}")
    raise TypeError(f"{type(found).__name__!r} object is not iterable")


def commands(records: Iterable[Record]) -> Iterator[Command]:
    """Consecutive records of one command, as Commands."""
    last: Command | None = None
    for record in records:
        if last is not None and last.cmd == record["cmd"]:
            last = Command(last.cmd, last.stream, last.text, last.time,
                           (*last.events, record["event"]))
            continue
        if last is not None:
            yield last
        last = Command(record["cmd"], record["stream"], record["text"], record["time"],
                       (record["event"],))
    if last is not None:
        yield last
