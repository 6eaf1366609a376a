"""Input files a GM names (a scenario, a points table, a stack of rulings): bounded (E45), and
never waited on for ever (a named pipe nothing writes to, E94)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

#: The largest input file read (a scenario, a points table, a stack of rulings): E45.
MAX_INPUT_BYTES = 4 * 1024 * 1024


def read_input(source: Path | str, limit: int = MAX_INPUT_BYTES) -> str:
    """The text of an input file (``-`` for stdin), at most ``limit`` bytes of UTF-8 (E45).

    Raises:
        OSError: it cannot be read (missing, a folder, no permission).
        ValueError: larger than ``limit`` (``/dev/zero``), or not UTF-8 text: the reason.
    """
    import sys

    if str(source) == "-":
        data = _read_upto(sys.stdin.buffer, limit + 1)
    else:
        with os.fdopen(_open_input(source), "rb") as handle:
            data = _read_upto(handle, limit + 1)
    if len(data) > limit:
        raise ValueError(f"larger than {limit >> 20} MB, which no input file is")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError("not UTF-8 text (a binary file?)") from None


#: How long a named pipe given as an input file may keep its writer waiting (E94).
PIPE_WAIT = 2.0


def _open_input(source: Path | str) -> int:
    """A descriptor on the input file ``source``, opened without blocking: a named pipe that
    nothing writes to would otherwise hold the command for ever (E94). A pipe with a writer
    (``<(...)`` in the shell) is read once the writer is there.

    Raises:
        OSError: it cannot be opened.
        ValueError: a pipe nothing wrote to within ``PIPE_WAIT`` seconds.
    """
    import select
    import stat

    fd = os.open(source, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        if stat.S_ISFIFO(os.fstat(fd).st_mode):
            ready, _, _ = select.select([fd], [], [], PIPE_WAIT)
            if not ready:
                raise ValueError("a named pipe that nothing writes to")
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _read_upto(handle: Any, size: int) -> bytes:
    """Up to ``size`` bytes: a device (``/dev/zero``) or a pipe may give fewer per read."""
    chunks: list[bytes] = []
    got = 0
    while got < size:
        chunk = handle.read(size - got)
        if not chunk:
            break
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)
