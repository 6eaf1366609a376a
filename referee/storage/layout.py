"""The evening file read back through TinyDB itself (E161).

The store reads and writes the evening file's tables in TinyDB's layout without importing
TinyDB on a command's path (``referee.storage.store``: TinyDB's Table would build a Document of
every row, to be copied again). ``verify`` holds that layout to TinyDB: it opens the very file
with TinyDB, read-only, and every table the store keeps must hold the same rows under the same
ids as the store read them. A file TinyDB reads otherwise is not an evening file, whatever the
store made of it.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from referee.errors import StoreError
from referee.storage.files import read_checked

if TYPE_CHECKING:
    from hashlib import sha256
    from pathlib import Path

    from referee.jsontypes import JSONObject
else:
    try:  # the builtin, as in referee.storage.files: no OpenSSL to load
        from _sha256 import sha256
    except ImportError:  # other Pythons
        from hashlib import sha256

#: The tables of the evening file (its other keys, the checksum and the answer slot, are
#: strings TinyDB never reads as tables).
TABLES = ("meta", "snapshot", "events", "undone")


def check(path: Path) -> list[str] | None:
    """``differences`` of the file at ``path`` as the store reads it, the store's reading let
    go before TinyDB reads the file (each holds the evening once, never both at a time: E99);
    None when the store does not read it as an evening's tables (the open says why)."""
    _give_back_large_blocks()
    try:
        data, _, what = read_checked(path)
    except StoreError:
        return None
    if data is None or what is not None:
        return None
    try:
        prints = {name: _prints(_table(data, name)) for name in TABLES}
    except (AttributeError, TypeError, ValueError):
        return None  # no evening's tables: the open says so
    del data
    try:
        return _differences(path, prints)
    except (OSError, ValueError):  # changed under our feet: the open and the chain say
        return None


def _give_back_large_blocks() -> None:
    """Large blocks go back to the system when they are freed, from now on (glibc's mmap
    threshold pinned at its default of 128 KiB): the store's reading of the file, let go,
    would otherwise stay resident beside TinyDB's (the allocator raises that threshold as it
    frees, and keeps what it freed), a third copy of the file (E99). Elsewhere, nothing."""
    try:
        import ctypes

        ctypes.CDLL(None).mallopt(-3, 128 * 1024)  # M_MMAP_THRESHOLD
    except (OSError, AttributeError, TypeError):  # no glibc here: its own allocator's way
        pass


def _table(data: JSONObject, name: str) -> JSONObject:
    found = data.get(name, {})
    if not isinstance(found, dict):
        raise TypeError(f"{name} is no table")
    return found


def _prints(table: JSONObject) -> dict[str, str]:
    """Each row of ``table`` by id, as a digest of its canonical JSON: equal rows, equal
    digests (both read from the same bytes by the same JSON decoder)."""
    return {key: sha256(json.dumps(row, sort_keys=True, separators=(",", ":")).encode())
            .hexdigest() for key, row in table.items()}


def differences(path: Path, tables: dict[str, JSONObject]) -> list[str]:
    """Each table of ``tables`` (name -> row id -> row, as the store read them) that TinyDB,
    reading ``path``, finds otherwise: one line each; empty when TinyDB reads the same."""
    return _differences(path, {name: _prints(tables.get(name, {})) for name in TABLES})


def _differences(path: Path, prints: dict[str, dict[str, str]]) -> list[str]:
    """``differences``, the store's tables given as ``_prints`` of each."""
    from tinydb import JSONStorage, TinyDB

    out: list[str] = []
    with TinyDB(str(path), storage=JSONStorage, access_mode="r") as db:
        for name in TABLES:
            theirs = {str(doc.doc_id): _prints({"row": dict(doc)})["row"]
                      for doc in db.table(name).all()}
            mine = prints.get(name, {})
            if theirs == mine:
                continue
            if set(theirs) != set(mine):
                what = (f"row ids {_few(set(theirs) - set(mine))} where the store reads "
                        f"{_few(set(mine) - set(theirs))}")
            else:
                row = next(k for k in mine if theirs[k] != mine[k])
                what = f"row {row} otherwise than the store"
            out.append(f"TinyDB reads the {name} table with {what}: the file is not in "
                       "TinyDB's layout (E161)")
    return out


def _few(ids: set[str]) -> str:
    """``1, 2, 3 and 4 more``: the first three of ``ids``."""
    first = sorted(ids)[:3]
    more = f" and {len(ids) - 3} more" if len(ids) > 3 else ""
    return (", ".join(first) or "none") + more
