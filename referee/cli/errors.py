"""The error boundary: a ``RefereeError`` is a user mistake -> one line on stderr, exit 2,
nothing written; anything else is a bug -> exit 1, with the traceback under ``--debug``; a
usage mistake -> one line with the usage, exit 2. Also what is checked at the door: numbers
(E45), the root options anywhere on the line, lines read from a file."""

from __future__ import annotations

import math
import re
import sys
from collections.abc import Sequence
from typing import Any

import typer
from typer._click import types  # typer ships its own click
from typer.core import TyperGroup

from referee.cli.guard import guarded, help_word, hoist_root_options, not_text, refuse
from referee.cli.printing import printable
from referee.errors import BadInput


def fail(message: str) -> None:
    """Print one user-mistake line and exit 2."""
    typer.echo(f"error: {printable(message)}", err=True)
    raise typer.Exit(2)


#: The largest number any option or argument takes (E45): chips, turns, hands and seeds all
#: stay far below it, and an absurd one is a typo.
MAX_NUMBER = 10**12


def _bound_numbers() -> None:
    """Every int and float typed on the command line is finite and below ``MAX_NUMBER`` (E45).

    Click's own ranges let ``nan`` through (every comparison with it is false), and an int
    option takes ``99999999999999999999`` as it comes; a command would then run with it.
    """
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

    Shared by the root group and a line run in-process (``referee.cli.requests``).
    """
    ctx = getattr(exc, "ctx", None)
    if _is_click(exc, "NoArgsIsHelpError") and ctx is not None:
        # A group typed alone (`referee fate`): one line of usage and the way to its help, as
        # git and gh say it, not the whole help on stderr (E95).
        usage = " ".join(ctx.get_usage().split())
        return (f"{ctx.command_path} needs a command. {usage} (`{ctx.command_path} --help` "
                "lists them)")
    line = mistake(exc)
    if _is_click(exc, "UsageError") and ctx is not None:
        usage = " ".join(ctx.get_usage().split())
        line += f" {usage} (see `{ctx.command_path} --help`)"
    return printable(line)  # an option typed with a control or separator in it, as data (E96)


def mistake(exc: Any) -> str:
    """What click says was wrong, as one sentence, a number in words (E162): the first part of
    a usage line, before the command's usage, at the command line and at the shell's prompt."""
    message = in_words(exc.format_message().rstrip("."))
    return message + ("" if message.endswith(("?", "!")) else ".")


#: click's refusal of a value: "Invalid value for '--at': WHY", and the two WHYs said in
#: words, a number out of its range ("0 is not in the range x>=1") and a word where a number
#: goes ("'abc' is not a valid int range").
_INVALID = re.compile(r"Invalid value for '(?P<param>[^']+)': (?P<why>.+)")
_OUT_OF_RANGE = re.compile(r"(?P<value>.+) is not in the range (?P<range>\S+)")
_NOT_A_NUMBER = re.compile(r"'(?P<value>.*)' is not a valid (?P<kind>int|integer|float)"
                           r"(?: range)?")
_RANGE_WORDS = ((re.compile(r"(?P<a>[^<>=]+)<=x<=(?P<b>[^<>=]+)"), "from {a} to {b}"),
                (re.compile(r"x>=(?P<a>[^<>=]+)"), "of {a} or more"),
                (re.compile(r"x<=(?P<b>[^<>=]+)"), "of {b} or less"),
                (re.compile(r"x>(?P<a>[^<>=]+)"), "over {a}"),
                (re.compile(r"x<(?P<b>[^<>=]+)"), "under {b}"))


def in_words(message: str) -> str:
    """click's line for a number out of range or not a number, said as the GM would say it
    (E162): the option or argument as typed, then what to give, ``--at 0: give a number of 1
    or more``. Any other line is left as click wrote it.

    >>> in_words("Invalid value for '--at': 0 is not in the range x>=1")
    '--at 0: give a number of 1 or more'
    >>> in_words("Invalid value for 'minutes': 0 is not in the range 1<=x<=180")
    'minutes 0: give a number from 1 to 180'
    >>> in_words("Invalid value for '--at': 'abc' is not a valid int range")
    '--at abc: give a whole number'
    """
    invalid = _INVALID.fullmatch(message)
    if invalid is None:
        return message
    param = invalid["param"].strip("[].")
    typed = _NOT_A_NUMBER.fullmatch(invalid["why"])
    if typed is not None:
        kind = "a whole number" if typed["kind"].startswith("int") else "a number"
        return f"{param} {typed['value']}: give {kind}"
    found = _OUT_OF_RANGE.fullmatch(invalid["why"])
    if found is None:
        return message
    for pattern, words in _RANGE_WORDS:
        bounds = pattern.fullmatch(found["range"])
        if bounds is not None:
            return f"{param} {found['value']}: give a number {words.format(**bounds.groupdict())}"
    return f"{param} {found['value']}: give a number in the range {found['range']}"


def _is_click(exc: BaseException, name: str) -> bool:
    return any(cls.__name__ == name for cls in type(exc).__mro__)


class RefereeGroup(TyperGroup):
    """The root group: turns a RefereeError into one line and exit 2, a bug into exit 1,
    and a usage mistake (missing argument, unknown option) into one line and exit 2."""

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True,
             windows_expand_args: bool = True, **extra: Any) -> Any:
        _bound_numbers()  # once, when the first command line is parsed: never at import
        if args is not None:
            args = help_word(list(args))  # `help hand` is `hand --help`
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
        reading = getattr(ctx.obj, "reading", None)  # a line read in this process
        if reading == "parse":  # its request and what it raises are the reader's (`amend`)
            return super().invoke(ctx)
        from referee.cli.transaction import Parsed  # raised to the caller, who makes it

        words = [*getattr(ctx, "_protected_args", []), *ctx.args]  # the group takes them
        rv, code = guarded(lambda: super(RefereeGroup, self).invoke(ctx), words,
                           (typer.Exit, typer.Abort, Parsed))
        if code is not None:
            raise typer.Exit(code)
        return rv


def read_lines(source: str) -> list[str]:
    """Non-blank lines of FILE, or of stdin for ``-`` (``--from-file``)."""
    from referee.storage.inputs import read_input  # --from-file only

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




#: What the boundary's core (``referee.cli.guard``) gives the rest of the CLI under this name.
__all__ = ["MAX_NUMBER", "RefereeGroup", "fail", "guarded", "hoist_root_options", "not_text",
           "read_lines", "refuse", "usage_line"]
