"""The table: one evening's front door, below the command line.

A caller (the command line, the shell, a station, a phone accepted at the shell) names what it
wants as a typed record, a :class:`~referee.table.transaction.Move` (the evening, the table's
stream, the line the log keeps, who asked, dry or not), and hands the core's ``build`` to
:func:`~referee.table.transaction.run`: the lock, the read, the fold, the core's checks, the
append and the backups are made there, once, for every caller, and the answer comes back as
data (:class:`~referee.table.transaction.Outcome`: the state before and after, the events
written). Nothing here reads the parser's context or prints; a dry run is the record's own
``dry`` (E133, E230), never a flag of the process.
"""

from __future__ import annotations

from referee.table.transaction import Move, Outcome, run

__all__ = ["Move", "Outcome", "run"]
