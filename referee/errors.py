"""The one exception tree of the referee.

Only ``referee.cli`` turns these into printed lines and exit codes: every
``RefereeError`` is a user mistake (exit 2, nothing written); anything else is
a bug (exit 1).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from referee.said import Said, Suggest, said


class RefereeError(Exception):
    """A request the rules or the input forbid; the message is one line for the GM."""

    def __init__(self, message: str | Said, *, ruling: str | None = None) -> None:
        self.ruling = ruling
        #: The message with the moves it suggests as data (E240); ``str`` shows them bare.
        self.said = said(message)
        super().__init__(str(self.said))

    @property
    def line(self) -> str:
        """The message with its ruling id, each suggested move shown by its words alone."""
        return self.told(str)

    def told(self, command: Callable[[Suggest], str]) -> str:
        """The message with its ruling id, each suggested move written by ``command``: the
        console's own command text (E240)."""
        text = self.said.render(command)
        if self.ruling and not re.search(rf"\b{re.escape(self.ruling)}\b", text):
            return f"{text} ({self.ruling})"
        return text


class UnknownCard(RefereeError):
    """A token that is no card of the deck."""


class UnknownName(RefereeError):
    """A person, soul, power or other name that matches nothing."""


class BadInput(RefereeError):
    """Malformed input: wrong count, duplicate, bad number, bad file."""


class IllegalAction(RefereeError):
    """An action the rules forbid now; carries the ruling id."""


class LawViolation(IllegalAction):
    """A transfer at the table, forbidden by the Law (R16)."""


class ScenarioError(RefereeError):
    """A scenario, power set or table file that does not validate."""


class StoreError(RefereeError):
    """The evening file cannot be read, is busy, or is corrupt."""


class InvariantViolation(AssertionError):
    """A broken invariant (R10, R19, R25, R26): a bug, never a user mistake."""


class DryRunDone(Exception):  # noqa: N818  (not an error: the end of a dry run)
    """A command run with ``--dry-run`` got as far as writing: what it would have written,
    in place of the write (E133). Not a RefereeError: the command was sound.

    ``added`` and ``removed`` are the stored event records it would append and take back
    (``undo``); ``before`` and ``after`` the states of each stream they touch; ``wall`` the
    room's wall before and after, in words, for a `room` command.
    """

    def __init__(self, *, text: str | None, added: Sequence[Mapping[str, Any]] | None = None,
                 removed: Sequence[Mapping[str, Any]] | None = None,
                 before: dict[str, Any] | None = None,
                 after: dict[str, Any] | None = None,
                 wall: tuple[str, str] | None = None) -> None:
        super().__init__("dry run")
        self.text = text
        self.added: list[Mapping[str, Any]] = list(added or [])
        self.removed: list[Mapping[str, Any]] = list(removed or [])
        self.before = before or {}
        self.after = after or {}
        self.wall = wall
