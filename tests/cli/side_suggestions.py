"""What a side table's refusal suggests, typed as the GM would type it (T25).

A refusal names the commands the console accepts now, in backquotes; words in capitals are for
the GM to fill in from the table (CARDS, MAJOR, "MINOR MINOR", TOP, BOTTOM, NAME...). Each
suggestion is run on a copy of the evening, so that every one of them is tried from the same
moment.
"""

from __future__ import annotations

import re
import shlex
import shutil
from collections.abc import Callable
from pathlib import Path

from referee.cli.main import app
from tests.cli.conftest import GM

#: The words a refusal leaves for the GM to fill in.
PLACEHOLDERS = frozenset({"CARDS", "MAJOR", "MINOR MINOR", "TOP", "BOTTOM", "NAME", "FOOL",
                          "MISTRESS"})

Fill = Callable[[list[str]], list[str]]


def suggested(line: str) -> list[list[str]]:
    """Each ``referee ...`` command in backquotes in ``line``, as words after ``referee``.

    >>> suggested("it is Bo's turn: `referee scum play Bo CARDS` or `referee scum pass Bo`")
    [['scum', 'play', 'Bo', 'CARDS'], ['scum', 'pass', 'Bo']]
    """
    return [shlex.split(text)[1:] for text in re.findall(r"`(referee [^`]+)`", line)]


def accepted(gm: GM, line: str, fill: Fill, scratch: Path) -> list[list[str]]:
    """Runs every command ``line`` suggests, its placeholders filled by ``fill``, each on its own
    copy of the evening; fails unless the line suggests one and the console accepts each.

    Returns:
        The commands run, as typed.
    """
    commands = suggested(line)
    assert commands, f"the refusal suggests no command: {line}"
    ran: list[list[str]] = []
    for n, words in enumerate(commands):
        typed = fill(words) if PLACEHOLDERS & set(words) else words
        assert not PLACEHOLDERS & set(typed), (line, typed)
        copy = scratch / f"suggested-{n}.json"
        for path in scratch.glob(f"{copy.name}*"):
            path.unlink()
        for path in gm.db.parent.glob(f"{gm.db.name}*"):  # the file and its lock, as they are
            shutil.copyfile(path, scratch / path.name.replace(gm.db.name, copy.name, 1))
        result = gm.runner.invoke(app, ["--db", str(copy), *typed])
        assert result.exit_code == 0, (line, typed, result.output)
        ran.append(typed)
    return ran
