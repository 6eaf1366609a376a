"""The evening's lock, and what a command finds or makes under it before its first write: the
temp files a killed writer left (removed), the folders a first command makes (removed again
when it is refused, E97).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from referee.errors import StoreError
from referee.storage.files import check_path, list_quietly, write_failure


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
    own, name = os.path.split(path)  # plain strings: this runs on every command
    segments = f"{os.fspath(path)}.segments"
    for folder, prefix in ((own or os.curdir, f".{name}."), (segments, ".")):
        try:  # no segments folder yet: nothing to list there
            names = [n for n in list_quietly(folder) if n.endswith(".tmp")]
        except OSError:
            continue
        for name in names:
            if not name.startswith(prefix):
                continue
            middle = name[len(prefix):-4]
            # ``.NAME.bak.tmp`` (backup staging), ``.NAME.PID.NS.tmp`` (atomic_write) or
            # ``.NAME.XXXXXXXX.tmp`` (mkstemp, older versions); in the evening's own folder
            # nothing else, so that the temps of an evening named ``NAME.other`` are left alone.
            if folder is segments or middle == "bak" or _is_temp_tag(middle):
                with contextlib.suppress(OSError):
                    os.unlink(os.path.join(folder, name))


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
        while True:
            try:
                # Never through a symlink (E94): a planted link is refused.
                fd = os.open(self.path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0),
                             0o644)
            except OSError as exc:
                import errno

                if exc.errno == errno.ELOOP:
                    raise StoreError(f"the lock {self.path} is a symbolic link; remove it "
                                     "(the referee makes its own lock)") from None
                raise write_failure(self.path, exc) from None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                if not _wait_for_flock(fd, timeout):
                    return False  # the waiting thread closes ``fd`` when it gets the lock
            # A refused first command removes the lock it made (E97); one
            # that waited on that file meanwhile holds a lock nobody else sees: retry.
            try:
                same = os.fstat(fd).st_ino == os.stat(self.path).st_ino
            except OSError:
                same = False
            if same:
                break
            os.close(fd)
        self._fd = fd
        return True

    def remove(self) -> None:
        """Remove the lock file (while holding it): the evening it guarded does not exist."""
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.unlink(self.path)

    def release(self) -> None:
        if self._fallback is not None:
            self._fallback.release()
        elif self._fd is not None:
            os.close(self._fd)  # closing the descriptor releases the flock
            self._fd = None


def make_parents(folder: Path) -> list[Path]:
    """Make ``folder`` and its missing parents; returns those made, deepest first, so that a
    refused command can remove them again (E97).

    Each folder is made on its own, from the top down, and only the ones this call made are
    named: a path that climbs back with ``..`` out of a folder it made (``missing/..``) names
    ``missing``, never ``missing/..`` (which no ``rmdir`` removes).
    """
    made: list[Path] = []
    if folder.is_dir():  # every folder above it is there too: one look, not one each
        return made
    try:
        for probe in (*reversed(folder.parents), folder):
            if probe.name in ("", ".", "..") or probe.is_dir():
                continue  # a `..` is there once the folder before it is
            try:
                probe.mkdir()
            except FileExistsError:
                continue  # made beside us a moment ago, or a file: the next mkdir says so
            made.insert(0, probe)
    except OSError as exc:
        remove_dirs(made)
        raise StoreError(f"cannot create the folder {folder}: {exc.strerror}; nothing was "
                         "written; give a --db in a folder you can write") from None
    return made


def remove_dirs(folders: list[Path]) -> None:
    for folder in folders:  # deepest first; only while empty
        try:
            folder.rmdir()
        except OSError:
            return


@contextlib.contextmanager
def beside_the_evening(evening: Path, belongs: str) -> Iterator[None]:
    """Hold ``evening``'s lock while a file kept beside it (the wall, the requests) is read
    and written, so that two stations cannot lose each other's change (E94, E82); ``belongs``
    says whose it is when there is no evening ("the wall belongs to an evening").

    Raises:
        StoreError: no evening file there, or the evening is busy in another terminal.
    """
    check_path(evening)  # E94
    if not evening.exists():
        raise StoreError(f"no evening file at {evening}; {belongs}: name it with --db PATH")
    lock = EveningLock(evening.with_name(evening.name + ".lock"))
    if not lock.acquire(3.0):
        raise StoreError(f"the evening {evening} is busy in another terminal; try again")
    try:
        yield
    finally:
        lock.release()
