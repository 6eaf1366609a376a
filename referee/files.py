"""The file mechanics under the evening store: atomic writes, backups, the lock, leftovers.

Nothing here knows what an evening is: ``referee.store`` builds the event log on top.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from pathlib import Path
from typing import Any

from referee.errors import StoreError

BACKUPS = 3


def fsync_dir(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def atomic_write(path: Path, text: str) -> None:
    """Write ``text`` to ``path``: temp file, fsync, os.replace, fsync of the directory."""
    # A unique name beside the target (same file system, so os.replace is atomic); made by
    # hand because importing tempfile costs more than the write itself.
    tmp = str(path.with_name(f".{path.name}.{os.getpid()}.{time.monotonic_ns()}.tmp"))
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    fsync_dir(path.parent)


def read_json(path: Path) -> dict[str, Any] | None:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise StoreError(f"cannot read the evening file {path}: {exc.strerror}") from None
    try:
        data = json.loads(text)
        if not isinstance(data, dict):
            raise ValueError("not a JSON object")
    except ValueError as exc:
        raise StoreError(corrupt_message(path, str(exc))) from None
    return data


def backup_path(path: Path, n: int) -> Path:
    return path.with_name(f"{path.name}.bak.{n}")


def newest_good_backup(path: Path) -> Path | None:
    """The newest backup of ``path`` that parses, if any."""
    for n in range(1, BACKUPS + 1):
        candidate = backup_path(path, n)
        try:
            data = json.loads(candidate.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(data, dict):
            return candidate
    return None


def corrupt_message(path: Path, why: str) -> str:
    backup = newest_good_backup(path)
    where = (
        f"the newest good backup is {backup} (copy it over {path.name} to go on)"
        if backup
        else "no good backup was found"
    )
    return f"evening file {path} is corrupt ({why}); it was not touched; {where}"


def rotate_backups(path: Path) -> None:
    if not path.exists():
        return
    for n in range(BACKUPS - 1, 0, -1):
        older = backup_path(path, n)
        if older.exists():
            os.replace(older, backup_path(path, n + 1))
    staging = path.with_name(f".{path.name}.bak.tmp")
    with contextlib.suppress(FileNotFoundError):
        os.unlink(staging)
    try:
        os.link(path, staging)
    except OSError:
        import shutil

        shutil.copy2(path, staging)
    os.replace(staging, backup_path(path, 1))


def _wait_for_flock(fd: int, timeout: float) -> bool:
    """Block on ``flock(fd)`` for at most ``timeout`` seconds; True when it is held.

    Polling with ``LOCK_NB`` is unfair: a process issuing commands back to back
    releases and retakes the lock between two polls of the other, which then
    times out as "busy" although the evening is free most of the time (measured:
    waits of a second against a 3 ms critical section). A blocked ``flock`` is
    woken as soon as the lock is released. It cannot be given a timeout, so it
    runs in a daemon thread; if the caller gives up first, that thread releases
    the lock (closes ``fd``) as soon as it gets it.
    """
    import fcntl
    import threading

    guard = threading.Lock()
    got = threading.Event()
    abandoned = False

    def wait() -> None:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
        except OSError:
            return
        with guard:
            if abandoned:
                os.close(fd)
            else:
                got.set()

    threading.Thread(target=wait, name="evening-lock", daemon=True).start()
    got.wait(timeout)
    with guard:
        if got.is_set():
            return True
        abandoned = True
        return False


def remove_stale_temps(path: Path) -> None:
    """Remove temp files a killed writer left behind (call only under the evening's lock).

    Every temp file of ``path`` and its segments is written under the lock, so
    one found while holding it belongs to a process that died mid-write.
    """
    folders = [(path.parent, f".{path.name}.")]
    segments = path.with_name(f"{path.name}.segments")
    if segments.is_dir():
        folders.append((segments, "."))
    for folder, prefix in folders:
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            name = entry.name
            if not (name.startswith(prefix) and name.endswith(".tmp")):
                continue
            middle = name[len(prefix):-4]
            # ``.NAME.bak.tmp`` (backup staging), ``.NAME.PID.NS.tmp`` (atomic_write) or
            # ``.NAME.XXXXXXXX.tmp`` (mkstemp, older versions); in the evening's own folder
            # nothing else, so that the temps of an evening named ``NAME.other`` are left alone.
            if folder is segments or middle == "bak" or _is_temp_tag(middle):
                with contextlib.suppress(OSError):
                    os.unlink(entry.path)


def _is_temp_tag(text: str) -> bool:
    pid, dot, stamp = text.partition(".")
    if dot:
        return pid.isdigit() and stamp.isdigit()
    return len(text) == 8 and all(c.isalnum() or c == "_" for c in text)


class EveningLock:
    """An exclusive lock on ``PATH.lock`` held for one whole command.

    ``fcntl.flock`` where the platform has it: the kernel drops the lock when the
    process dies, so a killed console never leaves the evening locked. (The
    ``filelock`` package does the same but costs more to import than a whole
    command may take; it is used where ``fcntl`` is missing.)
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd: int | None = None
        self._fallback: Any = None

    def acquire(self, timeout: float) -> bool:
        try:
            import fcntl
        except ImportError:  # pragma: no cover - Windows
            from filelock import FileLock, Timeout

            self._fallback = FileLock(str(self.path), timeout=timeout)
            try:
                self._fallback.acquire()
            except Timeout:
                return False
            return True
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if not _wait_for_flock(fd, timeout):
                return False  # the waiting thread closes ``fd`` when it gets the lock
        self._fd = fd
        return True

    def release(self) -> None:
        if self._fallback is not None:
            self._fallback.release()
        elif self._fd is not None:
            os.close(self._fd)  # closing the descriptor releases the flock
            self._fd = None
