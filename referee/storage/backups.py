"""Damage and the way back: the one line for a damaged evening, and which backup of it is good
(sound, of this very evening, its segments intact)."""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, cast

from referee.errors import StoreError
from referee.storage import seals
from referee.storage.chain import GENESIS, chain_break
from referee.storage.files import BACKUPS, backup_path, fsync_dir, read_checked
from referee.streams import plain, spec

if TYPE_CHECKING:
    from referee.jsontypes import JSON, JSONObject
    from referee.storage.chain import Record


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
        if not replays(data):  # a checksum recomputed over an edit proves nothing (E93)
            continue
        found.append((candidate, created))
    if own is None:
        return found[0][0] if found and len({i for _, i in found}) == 1 else None
    return next((candidate for candidate, i in found if i == own), None)


def put_back(path: Path, kept: Path) -> None:
    """Undo ``set_aside`` into a fresh ``kept`` for a command then refused (E97): the backups
    and segments of the missing evening back under their own names."""
    for n in range(1, BACKUPS + 1):
        with contextlib.suppress(OSError):
            os.rename(kept.with_name(f"{kept.name}.bak.{n}"), backup_path(path, n))
    with contextlib.suppress(OSError):
        os.rename(seals.folder(kept), seals.folder(path))


def replays(data: JSONObject | None) -> bool:
    """Whether the evening whose raw TinyDB tables are ``data`` opens as a command opens it:
    its live events chained from the sealed head to the header's head, and every stream's
    stored state loading and folding each live event (E93)."""
    try:
        meta = header_row(data)
        tables = cast("dict[str, dict[str, JSONObject]]", data)  # its shape: checked by use
        snapshot = cast("JSONObject", tables.get("snapshot", {}).get("1", {})["states"])
        live = [cast("Record", row) for row in tables.get("events", {}).values()]
        if meta is None or chain_break(live, str(meta.get("sealed_head", GENESIS)),
                                       str(meta.get("head"))):
            return False
        for stream in {*snapshot, *(record["stream"] for record in live)}:
            sp = spec(stream)
            base = snapshot.get(stream)
            state = sp.load(plain(base)) if base is not None else sp.empty()
            for record in live:
                if record["stream"] == stream:
                    state = sp.apply(state, sp.read(record["event"]))
    except Exception:  # whatever does not replay (a table of another shape): no backup
        return False
    return True


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


def leftovers(path: Path) -> list[Path]:
    """What an evening leaves beside its file, when the file itself is gone (E182): its
    backups ``PATH.bak.N`` and its folder of sealed segments, if any holds a file."""
    found = [b for n in range(1, BACKUPS + 1) if os.path.lexists(b := backup_path(path, n))]
    folder = seals.folder(path)
    try:
        if any(True for _ in folder.iterdir()):
            found.append(folder)
    except OSError:  # no folder there (or none to read): nothing left of an evening
        pass
    return found


def missing_message(path: Path) -> str | None:
    """The one line for an evening file gone while its backups or segments lie beside it
    (deleted by mistake, E182): the newest good backup and how to restore it, and the
    explicit way to start anew there; None when nothing of an evening is left there."""
    if not leftovers(path):
        return None
    backup = newest_good_backup(path)
    back = (f"the newest good backup is {backup}: copy it to {path.name} to restore the "
            "evening" if backup is not None else "no good backup was found among them")
    return (f"{path} is missing, but the backups or segments of an evening lie beside it; "
            f"{back}; `referee new --force ...` starts a new evening there, keeping them as "
            f"{path.name}.replaced-TIME; nothing was written (E182)")


def set_aside(path: Path, kept: Path) -> bool:
    """The backups and segments of a missing evening moved aside (``new --force``, E182):
    ``PATH.bak.N`` renamed ``KEPT.bak.N`` and ``PATH.segments`` ``KEPT.segments``, so that a
    backup copied to ``KEPT`` opens with its segments. A segment already kept there (a kept
    copy's own link of it, S51) is not moved twice. Returns whether anything was there.

    Raises:
        FileExistsError: another file of those names is there already; nothing was moved.
    """
    found = leftovers(path)
    if not found:
        return False
    moves: list[tuple[Path, Path]] = []
    drops: list[Path] = []  # segments the kept folder holds already, the very same bytes
    for old in found:
        new = kept.with_name(kept.name + old.name.removeprefix(path.name))
        if old.is_dir() and new.is_dir():
            for segment in sorted(old.iterdir()):
                there = new / segment.name
                if not os.path.lexists(there):
                    moves.append((segment, there))
                elif there.read_bytes() == segment.read_bytes():
                    drops.append(segment)
                else:
                    raise FileExistsError(there)
        elif os.path.lexists(new):
            raise FileExistsError(new)
        else:
            moves.append((old, new))
    done: list[tuple[Path, Path]] = []
    try:
        for old, new in moves:
            os.rename(old, new)
            done.append((old, new))
    except BaseException:
        for old, new in reversed(done):  # all or nothing
            os.rename(new, old)
        raise
    for segment in drops:  # kept already, byte for byte
        segment.unlink()
    folder = seals.folder(path)
    if folder.is_dir() and not any(True for _ in folder.iterdir()):
        folder.rmdir()
    fsync_dir(path.parent)
    return True


def read_json(path: Path) -> JSONObject | None:
    """The JSON object at ``path`` (None if there is no file); damage is a ``StoreError``."""
    data, checked, what = read_checked(path)
    if what is not None:
        raise StoreError(damaged_message(path, what))
    if checked is False:
        raise StoreError(damaged_message(path, "its checksum does not match: it was changed "
                                               "outside the referee"))
    return data
