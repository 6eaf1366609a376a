"""An evening kept whole under another name (E97, S51): the live file and every sealed segment
it names, so the kept copy opens and verifies on its own.

A sealed segment is looked for in the folder named after its evening's file
(``PATH.segments/``), so a copy named ``KEPT`` needs its segments in ``KEPT.segments/``.
Segments are immutable, so each is hard-linked there (no space needed), else copied; the
live file comes last, so a kept copy is never named before its segments are all there.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import cast

from referee.errors import StoreError
from referee.storage import files, seals


def segment_names(path: Path) -> list[str]:
    """The file names of the sealed segments the evening at ``path`` names, oldest first
    (none for a file that is no evening: it has none to carry)."""
    try:
        data, _, _ = files.read_checked(path)
    except StoreError:
        return []
    tables = data.get("meta") if isinstance(data, dict) else None
    meta = tables.get("1") if isinstance(tables, dict) else None
    if not isinstance(meta, dict):
        return []
    total = meta.get("segments")
    if type(total) is not int:
        return []
    header = cast(seals.Meta, meta)  # a header as read: only its segment names are read here
    return [seals.name(header, n) for n in range(1, total + 1)]


def keep(path: Path, target: Path) -> None:
    """Keep the evening at ``path`` (a link followed) as ``target``, its sealed segments in
    ``target``'s own segment folder: whole, or not at all (E97, S51).

    Raises:
        FileExistsError: ``target`` or its segment folder is already there; nothing was made.
        StoreError: the disk refused a link and a copy alike (E40); nothing is left behind.
    """
    real = Path(os.path.realpath(path))
    names = [n for n in segment_names(real) if (seals.folder(real) / n).is_file()]
    made: list[Path] = []
    try:
        if names:
            where = seals.folder(target)
            where.mkdir()
            made.append(where)
            for name in names:
                _link_or_copy(seals.folder(real) / name, where / name)
                made.append(where / name)
            files.fsync_dir(where)
        _link_or_copy(real, target)
        made.append(target)
    except FileExistsError:
        _remove(made)
        raise
    except OSError as exc:
        _remove(made)
        raise files.write_failure(target, exc) from None
    except BaseException:
        _remove(made)
        raise
    files.fsync_dir(target.parent)


def _link_or_copy(source: Path, target: Path) -> None:
    """``target`` as a hard link to ``source``, else (another file system, no links there) a
    copy written like every evening write."""
    try:
        os.link(source, target)
    except FileExistsError:
        raise
    except OSError:
        if os.path.lexists(target):
            raise FileExistsError(target) from None
        files.atomic_write(target, source.read_bytes())


def _remove(made: list[Path]) -> None:
    """Take back what ``keep`` made, newest first: the files, then their folder."""
    for made_path in reversed(made):
        with contextlib.suppress(OSError):
            if made_path.is_dir() and not made_path.is_symlink():
                made_path.rmdir()
            else:
                made_path.unlink()


def discard(target: Path) -> None:
    """Take back a copy ``keep`` made at ``target`` for a command that was then refused
    (E97): the kept file, then each segment in its own segment folder and the folder."""
    made: list[Path] = []
    where = seals.folder(target)
    if where.is_dir() and not where.is_symlink():
        made = [where, *sorted(where.iterdir())]
    _remove([*made, target])
