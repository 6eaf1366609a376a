"""The error boundary: a ``RefereeError`` is a user mistake -> one line on stderr, exit 2,
nothing written; anything else is a bug -> exit 1, with the traceback under ``--debug``; a
usage mistake -> one line with the usage, exit 2. Also what is checked at the door: numbers
(E45), the root options anywhere on the line, lines read from a file."""

from __future__ import annotations

import contextlib
import os
import sys
import traceback
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import typer
from typer.core import TyperGroup

from referee.cli import context
from referee.cli.output import printable
from referee.errors import BadInput, DryRunDone, RefereeError

if TYPE_CHECKING:

    pass



def fail(message: str) -> None:
    """Print one user-mistake line and exit 2."""
    typer.echo(f"error: {printable(message)}", err=True)
    raise typer.Exit(2)


def refuse(line: str, ruling: str | None = None) -> None:
    """A refusal: its one line on stderr, remembered for `rules last`; under ``--explain``
    the full text of the ruling behind it follows on stdout."""
    typer.echo(f"error: {line}", err=True)
    from referee.cli import aloud

    memory = aloud.remember(line, ruling, context.db_path())
    if context.current().explain:
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



def usage_line(exc: Any) -> str:
    """The one line for a usage mistake (click's), with the usage of the command it was for.

    Shared by the root group and the in-process runner (``referee.cli.runner``).
    """
    ctx = getattr(exc, "ctx", None)
    if _is_click(exc, "NoArgsIsHelpError") and ctx is not None:
        # A group typed alone (`referee fate`): one line of usage and the way to its help, as
        # git and gh say it, not the whole help on stderr (E95).
        usage = " ".join(ctx.get_usage().split())
        return (f"{ctx.command_path} needs a command. {usage} (`{ctx.command_path} --help` "
                "lists them)")
    message = exc.format_message().rstrip(".")
    line = f"{message}" + ("" if message.endswith(("?", "!")) else ".")
    if _is_click(exc, "UsageError") and ctx is not None:
        usage = " ".join(ctx.get_usage().split())
        line += f" {usage} (see `{ctx.command_path} --help`)"
    return printable(line)  # an option typed with a control or separator in it, as data (E96)


def _is_click(exc: BaseException, name: str) -> bool:
    return any(cls.__name__ == name for cls in type(exc).__mro__)


def not_text(args: Sequence[str]) -> str | None:
    """What makes an argument no text a GM could have meant, as one line, or None (E45, E94).

    A NUL byte (no path, name or card holds one: the OS would refuse it deep inside), and bytes
    that are not UTF-8 (Python hands them on as lone surrogates; stored in a promise or a name
    they would break `log` on every strict terminal after). The bytes are quoted escaped, never
    raw.
    """
    for n, arg in enumerate(map(str, args), start=1):
        if "\x00" in arg:
            return "an argument holds a NUL byte (\\x00); type it without (E45)"
        if any("\udc80" <= c <= "\udcff" or "\ud800" <= c <= "\udfff" for c in arg):
            raw = arg.encode("utf-8", "surrogateescape") if all(
                not "\ud800" <= c <= "\udfff" or "\udc80" <= c <= "\udcff" for c in arg
            ) else arg.encode("utf-8", "backslashreplace")
            shown = raw.decode("ascii", "backslashreplace")
            shown = "".join(c if c.isprintable() else repr(c)[1:-1] for c in shown)
            if len(shown) > 60:
                shown = shown[:57] + "..."
            return (f"argument {n} ({shown}) holds bytes that are not UTF-8 text; type it "
                    "again as text, or set the terminal to UTF-8 (E94)")
    return None


class RefereeGroup(TyperGroup):
    """The root group: turns a RefereeError into one line and exit 2, a bug into exit 1,
    and a usage mistake (missing argument, unknown option) into one line and exit 2."""

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True,
             windows_expand_args: bool = True, **extra: Any) -> Any:
        _bound_numbers()  # once, when the first command line is parsed: never at import
        more = {"windows_expand_args": windows_expand_args, **extra}
        bad = not_text(args) if args is not None else None
        if bad is not None:
            typer.echo(f"error: {bad}", err=True)
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
        try:
            return self._invoke(ctx)
        finally:
            from referee.storage import files

            files.DRY_RUN = False  # --dry-run is the run's own: it never outlives it (E133)

    def _invoke(self, ctx: Any) -> Any:
        _begin_command()
        words = [*getattr(ctx, "_protected_args", []), *ctx.args]  # the group takes them
        try:
            rv = super().invoke(ctx)
        except RefereeError as exc:
            if _recorded():
                _answer_failed(exc)  # after the commit: the command stands (E41)
                raise typer.Exit(0) from None
            refuse(printable(exc.line), exc.ruling)  # names as data (E42)
            raise typer.Exit(2) from None
        except (typer.Exit, typer.Abort, KeyboardInterrupt):
            _end_command()
            raise
        except DryRunDone as dry:  # E133: the command ran to its write; nothing was written
            given = words[:words.index("--")] if "--" in words else words
            from referee.cli import dryrun

            dryrun.show(dry, "--json" in given)
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
            if _is_bad_path(exc) and not _recorded():
                # A path no file can be at, typed where a file is asked for: the user's
                # situation, whichever command met it first (E94).
                shown = printable(getattr(exc, "filename", None) or "a path")
                why = getattr(exc, "strerror", None) or exc
                refuse(f"{shown}: {why}; give another path (E94)", "E94")
                raise typer.Exit(2) from None
            if context.current().debug:
                traceback.print_exc()
            if _recorded():
                _answer_failed(exc)
                raise typer.Exit(0) from None
            if not context.current().debug:
                typer.echo(
                    f"internal error: {type(exc).__name__}: {exc} "
                    "(a bug, not your mistake; nothing was written; rerun with --debug)",
                    err=True,
                )
            raise typer.Exit(1) from None
        _end_command()
        return rv


def _is_bad_path(exc: BaseException) -> bool:
    """An OSError of a path that names no possible file: too long, or a loop of links."""
    import errno

    return isinstance(exc, OSError) and exc.errno in (errno.ENAMETOOLONG, errno.ELOOP)


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
    from referee.storage.inputs import read_input

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


