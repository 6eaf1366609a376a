"""The folded states a long-running console keeps between its lines (``referee shell``).

A one-shot command folds the evening from its snapshot and its live events on every open; a
shell would fold the same few hundred events again on every line, twice (the command, then
the prompt's names). Once ``keep()`` is on, each state folded or written is kept, as a copy,
under the SHA-256 of the evening file it belongs to (the file's own checksum, E40), and an
open of a file with that very checksum starts from a copy of it (E155). A file changed in any
byte (another terminal, an edit, a restored backup) has another checksum and is folded
afresh: the file stays the only truth, and the lock is taken and the file read as before.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from referee.streams import spec

if TYPE_CHECKING:
    from referee.storage.folded import StreamState

_on = False
_kept: dict[tuple[str, str], tuple[bytes, StreamState]] = {}


def keep(on: bool = True) -> None:
    """Keep folded states from now on (``on``), or stop and forget them."""
    global _on
    _on = on
    _kept.clear()


def recall(path: Path, stream: str, digest: bytes | None) -> StreamState | None:
    """A copy of the state of ``stream`` kept for the file at ``path`` with checksum
    ``digest``, or None (not kept, another file, a file without a checksum)."""
    if not _on or digest is None:
        return None
    hit = _kept.get((str(path), stream))
    if hit is None or hit[0] != digest:
        return None
    sp = spec(stream)
    state: StreamState = sp.load(sp.dump(hit[1]))
    return state


def remember(path: Path, stream: str, digest: bytes | None, state: StreamState) -> None:
    """Keep a copy of ``state``, the state of ``stream`` in the file at ``path`` whose
    checksum is ``digest`` (nothing without one)."""
    if not _on or digest is None:
        return
    sp = spec(stream)
    _kept[(str(path), stream)] = (digest, sp.load(sp.dump(state)))


def forget() -> None:
    """Drop every kept state (a write that may have failed half-way)."""
    _kept.clear()
