"""A command line typed at a prompt (the shell, a station, the remote's taps, the demo), or
kept in the log (``amend``), read into what it asks of the table.

The command line's parser reads the words, and the command its arguments, up to the request
it makes (``cli.transaction.perform``, which raises it as ``Parsed`` instead of making it): a
read is answered as it runs. A move's request is made here, by the caller, through the table's
API (``referee.table.api.perform``), and answered by what its command gives with it
(``Parsed.then``), in the line's own context and inside the console's one boundary: the same
exit status, the same one line for a mistake, the same ``internal error`` line for a bug as
the plain command gives. ``amend`` takes the request alone (``parse``) and makes it on its
scratch evening; a refusal is raised to it, never printed.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
import threading
import traceback
from pathlib import Path
from typing import Any

import typer

from referee.cli import context, errors
from referee.cli.context import Sealed
from referee.cli.runner import root_args, root_command, split
from referee.cli.suggest import told
from referee.cli.transaction import Parsed
from referee.errors import BadInput, RefereeError
from referee.table.api import MOVES, Request
from referee.table.api import perform as make

#: Each in-process command carries its own context (``referee.cli.context``), but a
#: captured one takes over the process's stdout and stderr: one runs at a time. The evening
#: file's lock is taken inside, by the command itself, exactly as for a command typed in
#: another terminal.
RUNNING = threading.RLock()


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

    if not words or " ".join(words[:2]) not in MOVES and words[0] not in MOVES:
        return None
    root = root_command()
    try:
        with root.make_context("referee", ["--db", str(evening), *words],
                               obj=Sealed(evening, reading="parse")) as ctx:
            root.invoke(ctx)
    except Parsed as done:
        return done.request
    except ClickException as exc:
        raise BadInput(usage_line(exc)) from None
    except Exit:
        return None
    return None


def answer(parsed: Parsed) -> None:
    """Make the request a line was read into through the table's API, and answer it as its
    command does (``Parsed.then``), in the line's own context."""
    outcome = make(parsed.request)
    if parsed.then is not None:
        parsed.then(outcome)
    # The answer out now, as a terminal shows it at once, before it is marked shown (E41); a
    # pipe that refuses it refuses it again where the shell flushes it.
    with contextlib.suppress(OSError):
        sys.stdout.flush()


def made(parsed: Parsed, words: list[str]) -> int:
    """``answer`` inside the console's boundary (``guard.guarded``): a refusal one line and 2,
    a bug one ``internal error`` line and 1, a dry run shown (E133), an answer that cannot be
    shown after the move is recorded said so (E41). ``words`` are the line's, for a dry
    run's --json."""
    from referee.cli.guard import guarded

    given = [w for i, w in enumerate(words) if w != "--db" and (i == 0 or words[i - 1] != "--db")]
    context.run_alone(parsed.context)
    try:
        _, code = guarded(lambda: answer(parsed), given)
    except KeyboardInterrupt:  # Ctrl-C while the move is made: as for any line
        typer.echo("interrupted", err=True)
        return 130
    finally:
        context.run_alone(None)
    return code or 0


def run(words: list[str], *, db: Path | None = None, debug: bool = False,
        root: Any = None, shell: bool = False, sealed: bool = False,
        note: str | None = None) -> int:
    """Run the line ``referee WORDS`` in this process, printing to the current streams: read
    by the parser, a read answered as it runs, a move made through the table's API.

    A mistake prints one line and returns 2, a bug one ``internal error`` line and 1
    (its traceback with ``debug``). With ``shell`` a usage line omits the ``referee``
    a shell's prompt leaves out. With ``sealed`` the line may reach only the evening ``db``
    (E65); ``note`` is what the log says of who asked for it (R46, E214).
    Returns the exit status.
    """
    if not words:
        return 0
    command = root if root is not None else root_command()
    with RUNNING:
        try:
            given = Sealed(db if sealed else None, note, reading="make")  # E65
            code = command.main(args=root_args(words, db, debug), prog_name="referee",
                                standalone_mode=False, obj=given)
            return code if isinstance(code, int) else 0
        except Parsed as parsed:
            return made(parsed, root_args(words, None, False))
        except typer.Abort:
            typer.echo("aborted", err=True)
            return 1
        except RefereeError as exc:
            errors.refuse(told(exc), exc.ruling)
            return 2
        except typer.TyperException as exc:  # click's usage errors
            return usage_error(exc, shell)
        except SystemExit as exc:
            return exc.code if isinstance(exc.code, int) else 1
        except KeyboardInterrupt:
            typer.echo("interrupted", err=True)
            return 130
        except Exception as exc:
            if debug:
                traceback.print_exc()
            else:
                again = "start the shell with --debug" if shell else "rerun with --debug"
                typer.echo(f"internal error: {type(exc).__name__}: {exc} (a bug, not your "
                           f"mistake; nothing was written; {again})", err=True)
            return 1


def run_captured(line: str | list[str], *, db: Path | None = None, debug: bool = False,
                 stdin: str = "", columns: int | None = None, sealed: bool = False,
                 note: str | None = None) -> tuple[int, str, str]:
    """Run one command line in this process (``run``) and capture its answer.

    ``line`` is the text as typed (split as a shell would) or its words already split;
    ``sealed``: it may reach only the evening ``db`` (E65).
    Returns ``(exit status, stdout, stderr)``, exactly what ``referee LINE`` would print
    off a terminal (no colour; rich tables ``columns`` wide, else $COLUMNS or 80).
    """
    out, err = io.StringIO(), io.StringIO()
    with RUNNING, contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        saved_in = sys.stdin
        saved_columns = os.environ.get("COLUMNS")
        sys.stdin = io.StringIO(stdin)
        if columns:
            os.environ["COLUMNS"] = str(columns)  # the caller's terminal (one run at a time)
        try:
            try:
                words = split(line) if isinstance(line, str) else list(line)
            except RefereeError as exc:
                errors.refuse(told(exc), exc.ruling)
                return 2, out.getvalue(), err.getvalue()
            code = run(words, db=db, debug=debug, sealed=sealed, note=note)
        finally:
            sys.stdin = saved_in
            if saved_columns is None:
                os.environ.pop("COLUMNS", None)
            else:
                os.environ["COLUMNS"] = saved_columns
    return code, out.getvalue(), err.getvalue()


def usage_error(exc: Any, shell: bool) -> int:
    ctx = getattr(exc, "ctx", None)
    if type(exc).__name__ == "NoArgsIsHelpError" and shell:
        exc.show()  # a group on its own at the shell's prompt: its commands, to pick one
        return 0
    if not shell or ctx is None:
        line = errors.usage_line(exc)  # as the plain command line says it
    else:  # as the plain CLI says it, without the `referee` a shell omits
        line = errors.mistake(exc)
        usage = " ".join(ctx.get_usage().split()).replace("Usage: referee ", "Usage: ")
        path = ctx.command_path.removeprefix("referee").strip()
        line += f" {usage} (see `{path} --help`)" if path else " (`help` lists commands)"
    errors.refuse(line)
    code: int = getattr(exc, "exit_code", 2)
    return code
