"""What every command group shares: the evening path, output, and the error boundary.

Only the CLI prints and picks exit codes: a ``RefereeError`` is a user mistake
-> one line on stderr, exit 2, nothing written; anything else is a bug -> exit 1,
with the traceback under ``--debug``.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import sys
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
from typer.core import TyperGroup

from referee.errors import DryRunDone, RefereeError

if TYPE_CHECKING:
    from rich.console import Console

    from referee.streams import Event


@dataclass
class Settings:
    """Root options, carried on the click context as ``ctx.obj``."""

    db: Path | None = None
    debug: bool = False
    explain: bool = False  # after a refusal, read its ruling aloud
    dry_run: bool = False  # E133: run to the write, show it, write nothing


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


def emit_json(obj: Any) -> None:
    """One JSON document on stdout, UTF-8, keys in insertion order."""
    typer.echo(json.dumps(obj, ensure_ascii=False))


#: A rich markup tag, with the backslashes before it (as rich reads them).
_TAG = re.compile(r"(\\*)(\[[a-z#/@][^[]*?])")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def printable(text: object) -> str:
    """``text`` with its control characters (ANSI escapes, newlines) shown as ``\\x1b``:
    for rich ``Text`` and the shell's toolbar, which read no markup but would pass escapes on.

    >>> printable("Ada\\x1b[2J")
    'Ada\\\\x1b[2J'
    """
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", str(text))


def lit(text: object) -> str:
    """``text`` to print literally inside markup: names and free text are data (issue 12).

    Rich markup in it is escaped (as ``rich.markup.escape`` does, without importing rich),
    and control characters (ANSI escapes, newlines) are shown as ``\\x1b``, never obeyed.

    >>> lit("[/]")
    '\\\\[/]'
    >>> lit("a\\x1b[31mb")
    'a\\\\x1b[31mb'
    """
    out = printable(text)
    out = _TAG.sub(lambda m: f"{m.group(1)}{m.group(1)}\\{m.group(2)}", out)
    if out.endswith("\\") and not out.endswith("\\\\"):
        out += "\\"
    return out


def lit_values(record: dict[str, Any]) -> dict[str, Any]:
    """A copy of ``record`` whose text values (and lists of text) are ``lit``: for events
    and views formatted straight into markup."""
    out: dict[str, Any] = {}
    for key, value in record.items():
        if isinstance(value, str):
            value = lit(value)
        elif isinstance(value, list) and all(isinstance(v, str) for v in value):
            value = [lit(v) for v in value]
        out[key] = value
    return out


def plain(text: str) -> str:
    """Markup as plain text: the style tags dropped, escaped brackets kept, as rich reads it.

    >>> plain("[bold]Ada[/] bets \\\\[red 1]")
    'Ada bets [red 1]'
    """

    def tag(m: re.Match[str]) -> str:
        slashes = m.group(1)
        kept = slashes[: len(slashes) // 2]
        return kept + m.group(2) if len(slashes) % 2 else kept

    return _TAG.sub(tag, text)


def say(text: str) -> None:
    """One line of human output with rich markup; plain text (no rich) off a terminal.

    Names and free text go in through ``lit`` at the formatting site.
    """
    if _console is None and not sys.stdout.isatty():
        typer.echo(plain(text))
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


def say_lit(text: str) -> None:
    """One line of human output printed literally: no markup in it at all."""
    say(lit(text))


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


#: The largest number any option or argument takes (E45): chips, turns, hands and seeds all
#: stay far below it, and an absurd one is a typo.
MAX_NUMBER = 10**12


def _bound_numbers() -> None:
    """Every int and float typed on the command line is finite and below ``MAX_NUMBER`` (E45).

    Click's own ranges let ``nan`` through (every comparison with it is false), and an int
    option takes ``99999999999999999999`` as it comes; a command would then run with it.
    """
    import math

    from typer._click import types  # typer ships its own click

    def bounded(convert: Any) -> Any:
        def check(self: Any, value: Any, param: Any, ctx: Any) -> Any:
            out = convert(self, value, param, ctx)
            if isinstance(out, float) and not math.isfinite(out):
                self.fail(f"{value!r} is not a number of seconds or chips; give a finite "
                          "number (E45)", param, ctx)
            if isinstance(out, int | float) and abs(out) > MAX_NUMBER:
                self.fail(f"{value} is out of all proportion; numbers here stay below "
                          f"{MAX_NUMBER:,} (E45)", param, ctx)
            return out

        return check

    for kind in (types.IntParamType, types.FloatParamType):
        if not getattr(kind.convert, "_bounded", False):
            kind.convert = bounded(kind.convert)  # type: ignore[method-assign]
            kind.convert._bounded = True  # type: ignore[attr-defined]


_bound_numbers()


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
        if args is not None and any("\x00" in str(a) for a in args):
            # No path, name or card holds a NUL byte; the OS would refuse it deep inside (E45).
            typer.echo("error: an argument holds a NUL byte (\\x00); type it without (E45)",
                       err=True)
            if not standalone_mode:
                return 2
            sys.exit(2)
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
        _begin_command()
        words = [*getattr(ctx, "_protected_args", []), *ctx.args]  # the group takes them
        try:
            rv = super().invoke(ctx)
        except RefereeError as exc:
            if _recorded():
                _answer_failed(exc)  # after the commit: the command stands (issue 12, point 2)
                raise typer.Exit(0) from None
            refuse(printable(exc.line), exc.ruling)  # names as data (E42)
            raise typer.Exit(2) from None
        except (typer.Exit, typer.Abort, KeyboardInterrupt):
            _end_command()
            raise
        except DryRunDone as dry:  # E133: the command ran to its write; nothing was written
            show_dry_run(dry, as_json="--json" in words[:words.index("--")] if "--" in words
                        else "--json" in words)
            _end_command()
            raise typer.Exit(0) from None
        except BrokenPipeError:
            # `referee log | head`: the reader left; say nothing more.
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            _end_command()
            raise typer.Exit(0) from None
        except Exception as exc:
            if type(exc).__module__.split(".")[0] in ("click", "typer"):
                raise  # usage errors: the parser prints them and exits 2
            if SETTINGS.debug:
                traceback.print_exc()
            if _recorded():
                _answer_failed(exc)
                raise typer.Exit(0) from None
            if not SETTINGS.debug:
                typer.echo(
                    f"internal error: {type(exc).__name__}: {exc} "
                    "(a bug, not your mistake; nothing was written; rerun with --debug)",
                    err=True,
                )
            raise typer.Exit(1) from None
        _end_command()
        return rv


def _no_dry_run_report(dry: DryRunDone, as_json: bool) -> None:
    typer.echo(f"dry run: `{dry.text}` was not written (E133)")


#: Prints a dry run (E133): ``referee.cli.dryrun.show``, set by the app that has it
#: (``referee.cli.main``), so that this module, which everything imports, imports no view.
show_dry_run: Callable[..., None] = _no_dry_run_report


def _store() -> Any:
    return sys.modules.get("referee.storage.store")


def _begin_command() -> None:
    from referee.storage import files

    files.NOTES.clear()
    files.TRACK_ANSWERS = True
    files.DRY_RUN = False  # the root callback sets it from --dry-run (E133)
    store = _store()
    if store is not None:
        store.WRITTEN.clear()
        store.UNANSWERED.clear()


def _recorded() -> bool:
    store = _store()
    return bool(store is not None and store.WRITTEN)


def _answer_failed(exc: BaseException) -> None:
    """The command was recorded, but printing its answer failed: say so, truthfully."""
    store = _store()
    texts = "; ".join(f"`{w.get('text') or '?'}`" for w in store.WRITTEN) if store else "?"
    with contextlib.suppress(OSError):  # a closed pipe: still mark it
        typer.echo(f"recorded: {texts}; but its answer could not be shown ({type(exc).__name__}: "
                   f"{exc}; a bug); `referee status` shows the evening", err=True)
    _end_command()


def _end_command() -> None:
    """After the answer: mark it shown (E41), and pass on the store's notes."""
    from referee.storage import files

    store = _store()
    with contextlib.suppress(OSError):  # a closed pipe: still mark it
        if store is not None:
            for entry in store.WRITTEN:  # marked inside the evening file itself
                if entry.get("token"):
                    store.mark_answered(entry["file"], entry["token"])
            for entry in store.UNANSWERED:  # said once: remembered outside the evening
                store.remember_told(entry["file"], entry.get("token"))
                typer.echo(f"note: the command `{entry.get('text')}` before this one was "
                           "recorded, though its answer may not have been shown (the console "
                           "stopped); `referee log` shows it: do not type it again (E41)",
                           err=True)
            store.WRITTEN.clear()
            store.UNANSWERED.clear()
        for note in files.NOTES:
            typer.echo(f"note: {note}", err=True)
        files.NOTES.clear()


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
        if param.name == "as_json" or _left_out(value, param.default):
            continue
        items = value if isinstance(value, list | tuple) else [value]
        if param.param_type_name == "argument":
            words += [str(item) for item in items]
            continue
        flag = param.opts[0]
        for item in items:
            words += [flag] if item is True else [flag, str(item)]
    return " ".join(shlex.quote(w) for w in words)


def _left_out(value: Any, default: Any) -> bool:
    """Whether ``command_text`` may leave a value out: nothing given, a flag off, or a 0 that
    is the option's own default. A 0 typed where it is not (``--strength 0``) stays, so that
    the line replays."""
    if value is None or value is False or (isinstance(value, list | tuple) and not value):
        return True
    return value == 0 and not isinstance(value, bool) and default == 0 and \
        not isinstance(default, bool)


def transact(stream: str, build: Callable[[Any], list[Event]], *,
             extra: dict[str, Any] | None = None, path: Path | None = None,
             more: dict[str, list[Event]] | None = None) -> tuple[Any, Any, list[Event]]:
    """The one way a command changes the evening file.

    Opens the evening under its lock, folds ``stream``, lets ``build(state)`` return the
    command's events (or raise a RefereeError: nothing is written), and commits them at once
    under the command's log text (``command_text``: one place for every command). Returns the
    state before (a copy), the state after, and the events. The text is derived after
    ``build``, so ``build`` may fill ``extra`` with what the core chose (a drawn seed).
    ``path`` is another evening file than ``--db`` (`referee next` writes the next evening);
    ``more`` holds events of other streams, committed after under the same line (the Card of
    Fate characters an evening carries, R42).
    """
    from referee.storage.store import open_evening
    from referee.streams import spec

    with open_evening(path or db_path()) as ev:
        state = ev.state(stream)
        sp = spec(stream)
        before = sp.load(sp.dump(state))  # a deep copy, cheaper than copy.deepcopy
        events = build(state)
        line = command_text(extra)
        after = ev.commit(stream, events, line) if events else state
        for other, other_events in (more or {}).items():
            if events and other_events:
                ev.commit(other, other_events, line)
    return before, after, events


def hoist_root_options(argv: list[str]) -> list[str]:
    """Let ``--db PATH``, ``--debug``, ``--explain`` and ``--dry-run`` stand anywhere on the
    line, as a GM types them."""
    front: list[str] = []
    rest: list[str] = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--":
            rest += argv[i:]
            break
        if arg == "--db" and i + 1 < len(argv):
            front += argv[i : i + 2]
            i += 2
            continue
        if arg.startswith("--db=") or arg in ("--debug", "--explain", "--dry-run"):
            front.append(arg)
        else:
            rest.append(arg)
        i += 1
    return front + rest


def read_lines(source: str) -> list[str]:
    """Non-blank lines of FILE, or of stdin for ``-`` (``--from-file``)."""
    from referee.errors import BadInput
    from referee.storage.files import read_input

    try:
        text = read_input(source)
    except OSError as exc:
        raise BadInput(
            f"cannot read {source!r}: {exc.strerror}; give a readable file or '-'"
        ) from None
    except ValueError as exc:  # E45
        raise BadInput(f"cannot read {source!r}: {exc}; give a text file of rulings or '-'",
                       ruling="E45") from None
    return [ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]


def add_undo_redo(app: typer.Typer, stream: str, table: str) -> None:
    """``undo`` and ``redo`` for one table's event stream (whole commands, nothing deleted)."""

    def undo() -> None:
        from referee.storage.store import open_evening

        with open_evening(db_path()) as ev:
            command = ev.undo(stream)
        typer.echo(f"undone: {command.text}")

    def redo() -> None:
        from referee.storage.store import open_evening

        with open_evening(db_path()) as ev:
            command = ev.redo(stream)
        typer.echo(f"redone: {command.text}")

    app.command("undo", help=f"Take back the last {table} command (kept in the log; "
                f"`redo` restores it).")(undo)
    app.command("redo", help=f"Bring back the {table} command just undone.")(redo)
