"""Damage and the way back: the one line for a damaged evening, and which backup of it is good
(sound, of this very evening, its segments intact)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, cast

from referee.errors import StoreError
from referee.storage import seals
from referee.storage.files import BACKUPS, backup_path, read_checked

if TYPE_CHECKING:
    from referee.jsontypes import JSON, JSONObject


def header_row(data: JSONObject | None) -> JSONObject | None:
    """The header row (``meta``'s row 1) of the raw TinyDB tables ``data``, if it is an object."""
    meta = data.get("meta") if isinstance(data, dict) else None
    row = meta.get("1") if isinstance(meta, dict) else None
    return row if isinstance(row, dict) else None


def evening_id(data: JSONObject | None) -> float | None:
    """The id of the evening whose raw TinyDB tables are ``data`` (when it was created), if any."""
    row = header_row(data)
    return _number(row.get("created") if row is not None else None)


def _number(found: JSON) -> float | None:
    return found if isinstance(found, int | float) and not isinstance(found, bool) else None


def _id_of(path: Path) -> float | None:
    """The evening id of the file at ``path``, read even from a damaged file where the header
    is still legible (it is written first); None when nothing says."""
    try:
        data, _, _ = read_checked(path)
    except StoreError:
        return None
    if data is not None:
        return evening_id(data)
    import os
    import re

    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))  # never waits on a pipe
        try:
            head = os.read(fd, 1 << 16)
        finally:
            os.close(fd)
    except OSError:
        return None
    match = re.search(rb'"meta":\{"1":\{[^{}]*?"created":(-?[0-9][0-9.eE+-]*)', head)
    if match is None:
        return None
    try:
        found: JSON = json.loads(match.group(1))
    except ValueError:
        return None
    return _number(found)  # a number, by the pattern


def newest_good_backup(path: Path) -> Path | None:
    """The newest backup of the evening at ``path`` that reads as sound, if any (E93).

    Sound: its checksum matches, it is a backup of *this* evening (the same evening id,
    never another evening's file that happens to be named so), and every sealed segment it
    names is present with the size and digest it records. When the evening's own id cannot be
    read, a backup is named only if every sound backup there is of one and the same evening.
    """
    own = _id_of(path)
    found: list[tuple[Path, float]] = []
    for n in range(1, BACKUPS + 1):
        candidate = backup_path(path, n)
        try:
            data, checked, what = read_checked(candidate)
        except StoreError:
            continue
        row = header_row(data)
        created = evening_id(data)
        if row is None or checked is False or created is None:
            continue
        count = row.get("segments")
        if not isinstance(count, int | float | str):  # what ``int()`` refuses with a TypeError
            continue
        meta = cast(seals.Meta, row)  # a header as read; its segment fields are checked there
        try:
            if any(seals.damage(path, meta, k) for k in range(1, int(count) + 1)):
                continue
        except (KeyError, TypeError, ValueError):
            continue
        found.append((candidate, created))
    if own is None:
        return found[0][0] if found and len({i for _, i in found}) == 1 else None
    return next((candidate for candidate, i in found if i == own), None)


def damaged_message(path: Path, why: str) -> str:
    """``PATH is damaged (what); the newest good backup is PATH.bak.N`` (E40, E93)."""
    backup = newest_good_backup(path)
    where = (
        f"the newest good backup is {backup} (copy it over {path.name} to go on)"
        if backup
        else "no good backup was found"
    )
    return f"{path} is damaged ({why}); {where}; the file was not touched"


corrupt_message = damaged_message


def read_json(path: Path) -> JSONObject | None:
    """The JSON object at ``path`` (None if there is no file); damage is a ``StoreError``."""
    data, checked, what = read_checked(path)
    if what is not None:
        raise StoreError(damaged_message(path, what))
    if checked is False:
        raise StoreError(damaged_message(path, "its checksum does not match: it was changed "
                                               "outside the referee"))
    return data
