"""What a command runs with: one ``Context`` per command line, passed down the command tree.

The root callback builds it from the root options (the evening's path, ``--debug``,
``--explain``) and from what ``referee.cli.requests`` handed in (the station's one evening,
E65; how a line's request is made), and puts
it on the click context of that run (``ctx.obj``), where every command and helper of the
run finds it with ``current()``. Nothing is kept between runs or between threads: a station
line in a server thread and a line of the shell each carry their own; the console is made
for the run, on the streams it prints to, at its first use.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console


def default_db() -> Path:
    """``REFEREE_DB``, else ``evening.json`` in the user data directory."""
    env = os.environ.get("REFEREE_DB")
    if env:
        return Path(env)
    from platformdirs import user_data_dir  # without --db or REFEREE_DB only (~3 ms)

    return Path(user_data_dir("referee", appauthor=False)) / "evening.json"


def make_console() -> Console:
    """A rich console on the current streams (colour only on a terminal, never with
    NO_COLOR); ``:smile:`` in a name stays text."""
    from rich.console import Console  # a console only when one prints (E120)

    return Console(highlight=False, emoji=False)


def preset_console() -> Console | None:
    """The console a run starts with: none (made at its first use, and only on a terminal
    at all). A test of what a terminal shows gives one here."""
    return None


class Sealed:
    """How a line read in this process is to run, handed to the root callback as the click
    context's ``obj`` by ``referee.cli.requests``: the one evening it may reach (a station's
    line, E65: any other ``--db``, or ``--debug``, is refused there too, behind the station's
    own refusal; None for the shell's own lines), who asked for it, and how its request to the
    table is made: ``"make"``, raised to the caller, who makes it through the table's API and
    answers it, inside the console's boundary; ``"parse"``, raised to the caller, boundary and
    all (``amend``: a refusal is the caller's to word)."""

    __slots__ = ("evening", "note", "reading")

    def __init__(self, evening: Path | None, note: str | None = None,
                 reading: str = "make") -> None:
        self.evening = evening
        #: What the log says of the line besides its words: who asked for it (R46, E214).
        self.note = note
        self.reading = reading


class Context:
    """One command line's context: its evening, how it reports, where it came from.

    (A plain class, not a dataclass: it is built on every command's start-up path.)
    """

    __slots__ = ("db", "debug", "explain", "station", "dry_run", "line", "note", "reading",
                 "_console")

    def __init__(self, db: Path | None = None, debug: bool = False, explain: bool = False,
                 station: Path | None = None, dry_run: bool = False) -> None:
        self.db = db  # --db; else $REFEREE_DB, else the user data dir
        self.debug = debug  # --debug: a bug's traceback
        self.explain = explain  # --explain: after a refusal, read its ruling aloud
        self.station = station  # a second station's line: the one evening it may reach (E65)
        self.dry_run = dry_run  # --dry-run: run to the write, show it, write nothing (E133)
        #: The command's log text when it was read without the parser (``referee.cli.entry``);
        #: else ``transaction.command_text`` derives it from the parsed arguments.
        self.line: str | None = None
        #: Who asked for this line, when a phone did and the GM accepted (R46, E214): the log
        #: keeps it after the line's words, as a comment the shell would read past.
        self.note: str | None = None
        #: How a line read in this process makes its move (``context.Sealed.reading``): None,
        #: the command makes it; else its request is raised to the caller (``Parsed``).
        self.reading: str | None = None
        self._console: Console | None = preset_console()

    def __repr__(self) -> str:
        return (f"Context(db={self.db!r}, debug={self.debug}, explain={self.explain}, "
                f"station={self.station!r}, dry_run={self.dry_run})")

    def options(self) -> tuple[Path | None, bool, bool, Path | None]:
        """What the run was given: ``--db``, ``--debug``, ``--explain``, the station's
        evening."""
        return self.db, self.debug, self.explain, self.station

    def path(self) -> Path:
        """The evening file this command works on: ``--db``, ``REFEREE_DB``, user data dir."""
        return self.db if self.db is not None else default_db()

    def console(self) -> Console:
        """The rich console for human output, made at its first use."""
        if self._console is None:
            self._console = make_console()
        return self._console

    @property
    def has_console(self) -> bool:
        """Whether a rich console was made (or given) for this run: off a terminal, plain
        output needs none, and rich is never imported."""
        return self._console is not None


#: For what runs outside any command line (a renderer called from a test, a benchmark): the
#: defaults, never written by a command.
_OUTSIDE = Context()


#: The context of a command line run without the parser (``referee.cli.entry``): a one-shot
#: process runs one, and sets it for that run only.
_FAST: Context | None = None


def run_alone(obj: Context | None) -> None:
    """Set (or, with None, clear) the context of a command line run without the parser."""
    global _FAST
    _FAST = obj


def current() -> Context:
    """The context of the command line running on this thread (the root of click's context
    stack, or the one run without the parser), else the defaults."""
    if _FAST is not None:
        return _FAST
    if "typer.main" not in sys.modules:  # no parser loaded: no click context to look in
        return _OUTSIDE
    # typer only where it is loaded already (above): the lines `entry` reads run without it
    from typer.main import get_current_context  # type: ignore[attr-defined]  # click's

    ctx = get_current_context(silent=True)
    obj = ctx.find_root().obj if ctx is not None else None
    return obj if isinstance(obj, Context) else _OUTSIDE


def db_path() -> Path:
    """The evening file of the running command (``current().path()``)."""
    return current().path()


def console() -> Console:
    """The running command's rich console (``current().console()``)."""
    return current().console()
