"""Whether a recorded command's answer was shown (E41).

A command records who wrote it (``meta["pending"]``: the text, the process and a token of 32 hex
digits) with its events, and the evening file carries the same token in its answer slot
(``referee.storage.files``), followed by 32 zeros. Once the answer is printed, the CLI
overwrites the zeros with the token, in place: the mark is inside the evening file, so a copy of
the file (a USB stick, a backup restored) carries it, with or without its lock. The next command
that finds the slot unmarked, written by a process no longer alive, knows a console was stopped
between the write and the answer, and says so once: that it said so is remembered outside the
evening (the user cache, as `rules last` is), so that a refused or a reading command leaves the
evening file as it was.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Required, TypedDict

from referee.storage.files import NOT_SHOWN, TOKEN_LEN, mark_shown


class Written(TypedDict, total=False):
    """An evening file a command wrote, with who wrote it (the header's ``pending``, when
    answers are tracked): its text, its process and its token."""

    file: Required[str]
    text: str
    pid: int
    token: str


#: What this process wrote (the evening file, the command's text and its token), so that the
#: CLI can mark each answer as shown (E41); and the commands of killed processes it noticed.
WRITTEN: list[Written] = []
UNANSWERED: list[Written] = []

#: The tokens of unshown answers the GM has been told about, newest last (at most this many).
TOLD_FILE = "told-unanswered.json"
TOLD_KEPT = 64


def lock_path(path: Path) -> Path:
    return path.with_name(path.name + ".lock")


def new_token() -> str:
    """A writer's token: 32 hex digits, the width of the answer slot (``os.urandom``: the
    ``secrets`` module would load OpenSSL on every command)."""
    token = os.urandom(TOKEN_LEN // 2).hex()
    assert len(token) == TOKEN_LEN
    return token


def slot_for(token: str) -> str:
    """The answer slot of a file just written by ``token``: not shown yet."""
    return token + NOT_SHOWN


def is_shown(slot: str | None, token: Any) -> bool:
    """Whether the slot says the answer of ``token`` was shown. A file without a slot (an
    older version) tells nothing, and nothing is said about it."""
    return slot is None or slot == f"{token}{token}"


def mark_answered(path: str | Path, token: str) -> None:
    """The answer of the command ``token`` was shown: mark it inside the evening file (E41)."""
    if isinstance(token, str) and len(token) == TOKEN_LEN:
        mark_shown(path, token)


# -- what the GM was told, outside the evening ---------------------------------------------------


def _told_path(evening: Path) -> Path | None:
    folder = os.environ.get("REFEREE_CACHE_DIR")
    if not folder:
        from platformdirs import user_cache_dir

        folder = user_cache_dir("referee", appauthor=False)
    path = Path(folder) / TOLD_FILE
    try:
        if path.parent.resolve() == evening.resolve().parent:
            return None  # never beside the evening file
    except OSError:
        return None
    return path


def _told(evening: Path) -> list[str]:
    path = _told_path(evening)
    try:
        data = json.loads(path.read_text(encoding="utf-8")) if path else []
    except (OSError, ValueError):
        return []
    return [t for t in data if isinstance(t, str)] if isinstance(data, list) else []


def was_told(evening: Path, token: Any) -> bool:
    """Whether the GM was told already that the answer of ``token`` may not have been shown."""
    return isinstance(token, str) and token in _told(evening)


def remember_told(evening: str | Path, token: Any) -> None:
    """The GM has been told about ``token`` (a note, or the refusal of its repetition)."""
    evening = Path(evening)
    path = _told_path(evening)
    if path is None or not isinstance(token, str):
        return
    kept = [t for t in _told(evening) if t != token][-(TOLD_KEPT - 1):] + [token]
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        scratch = path.with_name(f".{path.name}.{os.getpid()}")
        scratch.write_text(json.dumps(kept), encoding="utf-8")
        os.replace(scratch, path)
    except OSError:
        pass  # only a notice is at stake


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
