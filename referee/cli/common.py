"""What every command group shares: the evening path, output, and the error boundary.

Only the CLI prints and picks exit codes: a ``RefereeError`` is a user mistake
-> one line on stderr, exit 2, nothing written; anything else is a bug -> exit 1,
with the traceback under ``--debug``.
"""

from __future__ import annotations

import json
import os
import sys
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
from typer.core import TyperGroup

from referee.errors import RefereeError

if TYPE_CHECKING:
    from rich.console import Console

    from referee.streams import Event


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

        _console = Console(highlight=False)
    return _console


def emit_json(obj: Any) -> None:
    """One JSON document on stdout, UTF-8, keys in insertion order."""
    typer.echo(json.dumps(obj, ensure_ascii=False))


_MARKUP = None


def say(text: str) -> None:
    """One line of human output with rich markup; plain text (no rich) off a terminal."""
    if _console is None and not sys.stdout.isatty():
        global _MARKUP
        if _MARKUP is None:
            import re

            _MARKUP = re.compile(r"(?<!\\)\[/?[a-z ]*\]")
        typer.echo(_MARKUP.sub("", text).replace("\\[", "["))
        return
    console().print(text)


def money(chips: int) -> str:
    """``$1,200,000``: chips in dollars at the evening's chip value (R10)."""
    from referee.evening.state import CHIP_VALUE

    return f"${chips * CHIP_VALUE:,}"


def short_money(chips: int) -> str:
    """``$1.5M`` / ``$800k``: dollars in a narrow column."""
    from referee.evening.state import CHIP_VALUE

    dollars = chips * CHIP_VALUE
    if dollars >= 1_000_000:
        return f"${dollars / 1_000_000:.1f}M"
    return f"${dollars // 1000}k" if dollars else "$0"


def clock(seconds: int | None, *, exact: bool = False) -> str:
    """The evening's clock since the first hand: ``1:05``, or ``1:05:09`` when ``exact``."""
    if seconds is None:
        return "not started"
    text = f"{seconds // 3600}:{seconds % 3600 // 60:02d}"
    return f"{text}:{seconds % 60:02d}" if exact else text


def fail(message: str) -> None:
    """Print one user-mistake line and exit 2."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2)


def refuse(line: str, ruling: str | None = None) -> None:
    """A refusal: its one line on stderr, remembered for `rules last`; under ``--explain``
    the full text of the ruling behind it follows on stdout."""
    typer.echo(f"error: {line}", err=True)
    from referee.cli import aloud

    memory = aloud.remember(line, ruling, db_path())
    if SETTINGS.explain:
        try:
            typer.echo(aloud.explanation(memory["rulings"]))
        except (OSError, ValueError) as exc:  # a broken install must not hide the refusal
            typer.echo(f"(the rulebook cannot be read: {exc})")


def usage_line(exc: Any) -> str:
    """The one line for a usage mistake (click's), with the usage of the command it was for.

    Shared by the root group and the in-process runner (``referee.cli.runner``).
    """
    message = exc.format_message().rstrip(".")
    line = f"{message}" + ("" if message.endswith(("?", "!")) else ".")
    ctx = getattr(exc, "ctx", None)
    if _is_click(exc, "UsageError") and ctx is not None:
        usage = " ".join(ctx.get_usage().split())
        line += f" {usage} (see `{ctx.command_path} --help`)"
    return line


def _is_click(exc: BaseException, name: str) -> bool:
    return any(cls.__name__ == name for cls in type(exc).__mro__)


class RefereeGroup(TyperGroup):
    """The root group: turns a RefereeError into one line and exit 2, a bug into exit 1,
    and a usage mistake (missing argument, unknown option) into one line and exit 2."""

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True,
             windows_expand_args: bool = True, **extra: Any) -> Any:
        more = {"windows_expand_args": windows_expand_args, **extra}
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, **more)
        try:
            rv = super().main(args, prog_name, complete_var, False, **more)
        except Exception as exc:
            if not _is_click(exc, "ClickException"):
                raise
            refuse(usage_line(exc))
            sys.exit(getattr(exc, "exit_code", 2))
        except BaseException as exc:
            if _is_click(exc, "Abort"):
                typer.echo("Aborted.", err=True)
                sys.exit(1)
            raise
        sys.exit(rv if isinstance(rv, int) else 0)

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except RefereeError as exc:
            refuse(exc.line, exc.ruling)
            raise typer.Exit(2) from None
        except (typer.Exit, typer.Abort, KeyboardInterrupt):
            raise
        except BrokenPipeError:
            # `referee log | head`: the reader left; say nothing more.
            import os

            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            raise typer.Exit(0) from None
        except Exception as exc:
            if type(exc).__module__.split(".")[0] in ("click", "typer"):
                raise  # usage errors: the parser prints them and exits 2
            if SETTINGS.debug:
                traceback.print_exc()
            else:
                typer.echo(
                    f"internal error: {type(exc).__name__}: {exc} "
                    "(a bug, not your mistake; nothing was written; rerun with --debug)",
                    err=True,
                )
            raise typer.Exit(1) from None


def command_text(extra: dict[str, Any] | None = None) -> str:
    """The running command as the GM could retype it: its log line, for ``log``, ``undo`` and
    ``redo``. Derived from the parsed arguments in this one place; ``extra`` overrides values
    the console chose (a drawn seed, an Elixir), so that retyping the line replays the same."""
    import shlex

    from typer.main import get_current_context  # type: ignore[attr-defined]  # click's

    ctx = get_current_context()
    words = ctx.command_path.split()[1:]
    params = {**ctx.params, **(extra or {})}
    for param in ctx.command.params:
        value = params.get(param.name or "")
        if param.name == "as_json" or value in (None, False, [], ()):
            continue
        items = value if isinstance(value, list | tuple) else [value]
        if param.param_type_name == "argument":
            words += [str(item) for item in items]
            continue
        flag = param.opts[0]
        for item in items:
            words += [flag] if item is True else [flag, str(item)]
    return " ".join(shlex.quote(w) for w in words)


def transact(stream: str, build: Callable[[Any], list[Event]], *,
             text: str | None = None, extra: dict[str, Any] | None = None,
             ) -> tuple[Any, Any, list[Event]]:
    """The one way a command changes the evening file.

    Opens the evening under its lock, folds ``stream``, lets ``build(state)`` return the
    command's events (or raise a RefereeError: nothing is written), and commits them at once
    under the command's log text (``command_text``, unless ``text`` is given). Returns the
    state before (a copy), the state after, and the events. The text is derived after
    ``build``, so ``build`` may fill ``extra`` with what the core chose (a drawn seed).
    """
    import copy

    from referee.store import open_evening

    with open_evening(db_path()) as ev:
        state = ev.state(stream)
        before = copy.deepcopy(state)
        events = build(state)
        line = text if text is not None else command_text(extra)
        after = ev.commit(stream, events, line) if events else state
    return before, after, events


def read_lines(source: str) -> list[str]:
    """Non-blank lines of FILE, or of stdin for ``-`` (``--from-file``)."""
    from referee.errors import BadInput

    try:
        text = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
    except OSError as exc:
        raise BadInput(
            f"cannot read {source!r}: {exc.strerror}; give a readable file or '-'"
        ) from None
    return [ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]


def add_undo_redo(app: typer.Typer, stream: str, table: str) -> None:
    """``undo`` and ``redo`` for one table's event stream (whole commands, nothing deleted)."""

    def undo() -> None:
        from referee.store import open_evening

        with open_evening(db_path()) as ev:
            command = ev.undo(stream)
        typer.echo(f"undone: {command.text}")

    def redo() -> None:
        from referee.store import open_evening

        with open_evening(db_path()) as ev:
            command = ev.redo(stream)
        typer.echo(f"redone: {command.text}")

    app.command("undo", help=f"Take back the last {table} command (kept in the log; "
                f"`redo` restores it).")(undo)
    app.command("redo", help=f"Bring back the {table} command just undone.")(redo)
