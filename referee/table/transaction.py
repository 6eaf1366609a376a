"""The one way a move changes an evening file: :func:`run` of a :class:`Move`."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, NamedTuple, TypeAlias, TypeVar

if TYPE_CHECKING:
    from referee.streams import Event

#: A stream's event record (the evening's are ``referee.evening.events.EveningEvent``).
E = TypeVar("E", bound="Mapping[str, Any]")
#: A stream's folded state (the evening's is ``referee.evening.state.State``).
S = TypeVar("S")
#: Events of other streams, committed after a move's own under its line (R42).
More: TypeAlias = "dict[str, list[Event]]"


@dataclass(frozen=True, slots=True)
class Move:
    """One command, as the table receives it.

    ``line`` is what the log keeps of it: the words as the GM could retype them (``log``,
    ``undo``, ``amend`` replay them). It may be a callable, asked only once the core has
    built the events, when the words name what the core chose (a drawn seed, an Elixir).
    ``asked_by`` is who asked for it when it was not the GM (a phone's request the GM
    accepted, R46, E214): the log keeps it after the words, as a comment the shell reads
    past. ``dry`` runs the move to its write and makes none (``DryRunDone`` is raised with
    what would have been written, E133, E230). ``fresh`` lets ``new --force`` open a missing
    file whose evening's backups lie beside it (E182).
    """

    evening: Path
    stream: str
    line: str | Callable[[], str]
    asked_by: str | None = None
    dry: bool = False
    fresh: bool = False

    def text(self) -> str:
        """The log's line for this move: its words, then who asked (E214)."""
        words = self.line() if callable(self.line) else self.line
        return words + (f"  # {self.asked_by}" if self.asked_by else "")


class Outcome(NamedTuple, Generic[S, E]):
    """What a move did: the stream's state before (a copy) and after, and the events written
    (none when the core had nothing to record)."""

    before: S
    after: S
    events: list[E]


def run(move: Move, build: Callable[..., list[E]], *,
        more: More | None = None, log: bool = False) -> Outcome[Any, E]:
    """Run ``move``: open its evening under the lock, fold its stream, let ``build(state)``
    return the events (or raise a RefereeError: nothing is written), and commit them at once
    under the move's line. ``more`` holds events of other streams, committed after under the
    same line (the Card of Fate characters an evening carries, R42). ``log``: ``build`` is
    handed a second argument, a function returning the stream's commands oldest first as
    ``(number, words, events)``, read under the same lock.

    Raises:
        RefereeError: the core refused the move, or the evening cannot be opened or written.
        DryRunDone: ``move.dry``: the events as they would be written; nothing was.
    """
    from referee.storage.store import open_evening  # the first write of a run loads it
    from referee.streams import copy

    with open_evening(move.evening, fresh=move.fresh, dry=move.dry) as ev:
        state = ev.state(move.stream)
        before = copy(move.stream, state)  # the stream's own deep copy (``streams.copy``)
        if log:
            events = build(state, lambda: ((c.cmd, c.text, c.events)
                                           for c in ev.iter_commands(move.stream)))
        else:
            events = build(state)
        line = move.text()
        after = ev.commit(move.stream, events, line) if events else state
        for other, other_events in (more or {}).items():
            if events and other_events:
                ev.commit(other, other_events, line)
    return Outcome(before, after, events)
