"""A command line read into the table's request (``referee.table.api.Request``), not made.

``amend`` replays the evening's later commands on a scratch copy: it reads each logged line
(or the GM's new one) here, with the command's own parser and its own reading of its
arguments (the same refusals as typed), up to the request the command would make, and hands
that request to the table (``referee.table.api.perform``). Nothing here runs a command
through the runner, captures what it prints, or reads a refusal back from its text.
"""

from __future__ import annotations

from pathlib import Path

from referee.cli.context import Sealed
from referee.cli.transaction import Parsed
from referee.errors import BadInput
from referee.table.api import MOVES, Request


def parse(words: list[str], *, evening: Path) -> Request | None:
    """``words`` (a command line, without `referee`) as the request it makes of the table on
    ``evening``, read by the command line's parser and the command's own reading of its
    arguments, and not made. None when the line asks the table for no declared move.

    Raises:
        BadInput: the parser's refusal (an unknown command or option, a missing argument).
        RefereeError: the command's own refusal of its arguments, as when it is typed.
    """
    from typer import Exit
    from typer._click.exceptions import ClickException

    from referee.cli.errors import usage_line
    from referee.cli.runner import root_command  # the command tree (built once a process)

    if not words or " ".join(words[:2]) not in MOVES and words[0] not in MOVES:
        return None
    root = root_command()
    try:
        with root.make_context("referee", ["--db", str(evening), *words],
                               obj=Sealed(evening, parse_only=True)) as ctx:
            root.invoke(ctx)
    except Parsed as done:
        return done.request
    except ClickException as exc:
        raise BadInput(usage_line(exc)) from None
    except Exit:
        return None
    return None
