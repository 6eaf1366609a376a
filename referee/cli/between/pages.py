"""Pages the console writes beside an evening (``report``, ``handout`` and ``season``
``--html``): never over one of the evening's own files, never over another file without
``--force``, always whole (E45, E97)."""

from __future__ import annotations

import os
import re
from pathlib import Path

from referee.cli.context import db_path
from referee.errors import BadInput
from referee.storage import files

__all__ = ["check_page_target", "evening_files", "write_page"]


def evening_files(db: Path) -> tuple[Path, Path, Path]:
    """The evening file, its lock and its segment folder, links followed."""
    real = Path(os.path.realpath(db))
    return real, real.with_name(real.name + ".lock"), real.with_name(real.name + ".segments")


def check_page_target(path: Path, force: bool) -> None:
    """``--html PATH`` never lands on the evening's own files, nor on another file without
    ``--force`` (E45); checked before anything is read or written."""
    if len(os.fsencode(path.name)) > 255:
        raise BadInput(f"--html: the file name is {len(os.fsencode(path.name))} bytes long; "
                       "file names hold at most 255; give a shorter one such as report.html",
                       ruling="E97")
    real = Path(os.path.realpath(path))
    evening, lock, segments = evening_files(db_path())
    # Every file of the evening: its backups, tokens (.access), wall (.room), verify's notes,
    # `new --force` copies, lock, segments and temp files (E45, E97).
    name = re.escape(evening.name)
    own = any(p.parent == evening.parent and re.fullmatch(rf"{name}\..+|\.{name}\..*", p.name)
              for p in (real, *real.parents))  # a kept copy's segments too (S51)
    if real in (evening, lock) or segments in (real, *real.parents) or own:
        raise BadInput(f"--html {path} is one of the evening's own files ({evening}, its "
                       "backups, tokens, wall, segments or lock); give another path such as "
                       "report.html", ruling="E45")
    if real.is_dir():
        raise BadInput(f"--html {path} is a folder; give a file name such as "
                       f"{path / 'report.html'}", ruling="E45")
    if real.exists() and not real.is_file():  # a device (/dev/zero) or a pipe: never replaced
        raise BadInput(f"--html {path} is not a regular file (a device or a pipe); give a file "
                       "name such as report.html", ruling="E45")
    if real.exists() and not force:
        raise BadInput(f"--html {path} already exists; give another path, or add --force to "
                       "replace it", ruling="E45")


def write_page(path: Path, text: str, *, secret: bool, force: bool) -> None:
    """Write the page atomically; a page with secrets is readable by its owner only (0600)."""
    check_page_target(path, force)
    real = Path(os.path.realpath(path))
    try:
        tmp = files.write_temp(real, text.encode("utf-8"))  # made 0600
        try:
            if not secret:
                os.chmod(tmp, 0o644)
            os.replace(tmp, real)
        except BaseException:
            os.unlink(tmp)
            raise
    except OSError as exc:
        raise BadInput(f"cannot write {path}: {exc.strerror}; give a writable path",
                       ruling="E45") from None
