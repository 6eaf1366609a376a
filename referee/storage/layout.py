"""The evening file read back through TinyDB itself (E161).

The store reads and writes the evening file's tables in TinyDB's layout without importing
TinyDB on a command's path (``referee.storage.store``: TinyDB's Table would build a Document of
every row, to be copied again). ``verify`` holds that layout to TinyDB: it opens the very file
with TinyDB, read-only, and every table the store keeps must hold the same rows under the same
ids as the store read them. A file TinyDB reads otherwise is not an evening file, whatever the
store made of it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

    from referee.jsontypes import JSONObject

#: The tables of the evening file (its other keys, the checksum and the answer slot, are
#: strings TinyDB never reads as tables).
TABLES = ("meta", "snapshot", "events", "undone")


def differences(path: Path, tables: dict[str, JSONObject]) -> list[str]:
    """Each table of ``tables`` (name -> row id -> row, as the store read them) that TinyDB,
    reading ``path``, finds otherwise: one line each; empty when TinyDB reads the same."""
    from tinydb import JSONStorage, TinyDB

    out: list[str] = []
    with TinyDB(str(path), storage=JSONStorage, access_mode="r") as db:
        for name in TABLES:
            theirs = {str(doc.doc_id): dict(doc) for doc in db.table(name).all()}
            mine = tables.get(name, {})
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
