"""Whether a recorded command's answer was shown (E41).

A command records who wrote it (``meta["pending"]``: the text, the process and a token) with
its events; once its answer is printed, the CLI writes the token into the evening's lock file.
The next command that finds a token there other than the pending one, from a process no longer
alive, knows a console was stopped between the write and the answer, and says so once.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

#: What this process wrote (the lock path, the command's text and its token), so that the CLI
#: can mark each answer as shown (E41); and the commands of killed processes it noticed.
WRITTEN: list[dict[str, Any]] = []
UNANSWERED: list[dict[str, Any]] = []


def lock_path(path: Path) -> Path:
    return path.with_name(path.name + ".lock")


def mark_answered(lock: str | Path, token: str) -> None:
    """Note in the lock file that the answer of the command ``token`` was shown (E41)."""
    try:
        fd = os.open(lock, os.O_WRONLY | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o644)
    except OSError:
        return  # only a notice is at stake
    try:
        os.ftruncate(fd, 0)
        os.pwrite(fd, token.encode("ascii", "replace"), 0)
    except OSError:
        pass
    finally:
        os.close(fd)


def answered_token(lock: Path) -> str:
    try:
        with open(lock, "rb") as handle:
            return handle.read(200).decode("ascii", "replace")
    except OSError:
        return ""


def is_alive(pid: Any) -> bool:
    if not isinstance(pid, int) or pid <= 0:
        return False
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # another user's process
    return True
