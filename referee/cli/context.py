"""What a command runs with: the root options (the evening's path, ``--debug``,
``--explain``) and the console it prints on."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console




@dataclass
class Settings:
    """Root options, carried on the click context as ``ctx.obj``."""

    db: Path | None = None
    debug: bool = False
    explain: bool = False  # after a refusal, read its ruling aloud


def default_db() -> Path:
    """``REFEREE_DB``, else ``evening.json`` in the user data directory."""
    env = os.environ.get("REFEREE_DB")
    if env:
        return Path(env)
    from platformdirs import user_data_dir

    return Path(user_data_dir("referee", appauthor=False)) / "evening.json"


#: Set by the root callback for the command being run.
SETTINGS = Settings()


def db_path() -> Path:
    """The evening file this command works on: ``--db``, ``REFEREE_DB``, user data dir."""
    if SETTINGS.db is not None:
        return SETTINGS.db
    return default_db()


_console: Console | None = None


def console() -> Console:
    """The rich console for human output (colour only on a terminal, never with NO_COLOR)."""
    global _console
    if _console is None:
        from rich.console import Console

        _console = Console(highlight=False, emoji=False)  # `:smile:` in a name stays text
    return _console

