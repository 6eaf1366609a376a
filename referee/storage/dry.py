"""A dry run's stop (E133): the store's one write, not made.

Under ``--dry-run`` (an evening opened with ``dry``) ``Evening.flush`` calls :func:`stop` instead of
writing: every command that writes goes through that one write, so every command's dry run
is the same few lines here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NoReturn, Protocol

from referee.errors import DryRunDone
from referee.streams import spec

if TYPE_CHECKING:
    from collections.abc import Callable
    from contextlib import AbstractContextManager
    from pathlib import Path

    from referee.storage.chain import Record
    from referee.storage.folded import StreamState


class Opened(Protocol):
    """An open evening, as read here (the store's ``Evening``, which imports this module)."""

    @property
    def path(self) -> Path: ...

    def state(self, stream: str) -> StreamState: ...


class Written(Opened, Protocol):
    """An open evening about to be written: what this open appended and took back."""

    @property
    def _live(self) -> list[Record]: ...

    @property
    def _taken_back(self) -> list[Record]: ...

    @property
    def _first_seq(self) -> int: ...

    @property
    def _last_text(self) -> str | None: ...


def stop(ev: Written, open_evening: Callable[..., AbstractContextManager[Opened]]) -> NoReturn:
    """What the open evening ``ev`` would have recorded and taken back (``undo``), and the
    states before (read afresh with ``open_evening``, the store's) and after, as
    ``DryRunDone``; nothing is written."""
    added = [r for r in ev._live if r["seq"] >= ev._first_seq]
    seqs = {r["seq"] for r in ev._live}
    removed = [r for r in ev._taken_back if r["seq"] not in seqs]
    streams = sorted({r["stream"] for r in [*added, *removed]})
    before: dict[str, StreamState] = {}
    if ev.path.exists():
        with open_evening(ev.path, write=False) as old:
            before = {s: old.state(s) for s in streams}
    else:
        before = {s: spec(s).empty() for s in streams}
    after = {s: ev.state(s) for s in streams}
    raise DryRunDone(text=ev._last_text, added=added, removed=removed, before=before,
                     after=after)
