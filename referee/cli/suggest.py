"""The moves the rules suggest, written as this console's commands (E240).

The core's refusals and hints hold each move as data (``referee.said.Suggest``); this is the
one place that writes them as the text the GM types: ``Suggest(("hand", "start"))`` ->
```referee hand start```. The command line, the shell and the station print through it.
"""

from __future__ import annotations

from referee.errors import RefereeError
from referee.said import Said, Suggest

PROGRAM = "referee"


def command(move: Suggest) -> str:
    """A suggested move as a command to type: ```referee hand show Ada CARDS```; one named in
    passing by its words alone: ```hand show```."""
    return str(move) if move.mention else f"`{' '.join((PROGRAM, *move.words))}`"


def told(what: RefereeError | Said | str) -> str:
    """A refusal (with its ruling id) or a hint, its moves written as commands."""
    if isinstance(what, RefereeError):
        return what.told(command)
    return what if isinstance(what, str) else what.render(command)
