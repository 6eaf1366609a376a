"""What every prompt of the console shares: a typed line split into its words, the prompt's
own words (``exit``, ``clear``, ``help``), the loop that reads lines, and the command tree the
lines are parsed with (``root_command``).

A line is run by ``referee.cli.requests``: read by the command line's parser, a read answered
as it runs, a move's request made through the table's API and answered by its command.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import typer
import typer.main

from referee.cli.errors import hoist_root_options
from referee.cli.help.table_of_contents import table_of_contents
from referee.errors import BadInput

_ROOT: Any = None
#: The whole app, unpruned: given by ``referee.cli.main`` when it has built it (the runner
#: sits below every command module and imports none of them).
_APP: Callable[[], Any] | None = None
#: The words that leave the shell (and a station's shell).
LEAVE = ("exit", "quit")


class Leave(Exception):
    """``exit`` or ``quit``."""


def run_piped(lines: Iterable[str], run_line: Callable[[str], int]) -> int:
    """Run every line until ``exit``; the status is that of the last line that failed, else 0
    (the shell's and the station's shell when their input is piped)."""
    status = 0
    for text in lines:
        try:
            code = run_line(text)
        except Leave:
            break
        if code:
            status = code
        sys.stdout.flush()
    return status


def prompt_loop(session: Any, prompt: str, run_line: Callable[[str], int],
                pre_run: Callable[[], None] | None = None) -> int:
    """Read and run lines at ``prompt`` until ``exit`` or Ctrl-D; Ctrl-C drops the line.
    ``pre_run`` is called as each prompt starts (inside its application)."""
    while True:
        try:
            text = session.prompt(prompt, pre_run=pre_run)
        except KeyboardInterrupt:
            continue
        except EOFError:
            return 0
        try:
            run_line(text)
        except Leave:
            return 0


def at_the_prompt(words: list[str], prompting: bool) -> int | None:
    """A line of the prompt's own words, at the shell and a station's shell alike: its exit
    status, or None for a command line. ``exit`` or ``quit`` (in any case, and as a Python
    prompt takes them, ``exit()``) leaves; ``clear`` clears the screen when a person is at
    the prompt (Ctrl-L does the same), and does nothing when lines are piped; ``help`` or
    ``?`` alone lists the commands by the part of the evening they serve.

    Raises:
        Leave: the line was ``exit`` or ``quit``.
    """
    if not words:
        return None
    if words[0].lower().removesuffix("()") in LEAVE:
        raise Leave
    if words == ["--help"]:  # `help` or `?` alone, as ``split`` reads them
        typer.echo(table_of_contents(shell=True))
        return 0
    if words[0] != "clear":
        return None
    if len(words) > 1:
        typer.echo("error: `clear` takes nothing after it: it clears the screen", err=True)
        return 2
    if prompting:
        from prompt_toolkit.shortcuts import clear  # a terminal's prompt only

        clear()
    return 0


def use_app(root: Callable[[], Any]) -> None:
    """The builder of the root's click group, registered by ``referee.cli.main``
    (``main.lazy_root``: every command word, each command built on first use)."""
    global _APP, _ROOT
    _APP, _ROOT = root, None


def build_root() -> Any:
    """The click group of the whole app, even when ``run()`` pruned it, built anew; each of
    its commands is built (its module imported) when a line first uses it.

    (A click command keeps what it learnt in the first context that used it, such as its
    help option's names: a fresh one for each user that needs its own contexts.)
    """
    if _APP is None:
        raise RuntimeError("the runner needs referee.cli.main's app (import it first)")
    return _APP()


def root_command() -> Any:
    """The whole app's click group, made once per process for the runner's lines."""
    global _ROOT
    if _ROOT is None:
        _ROOT = build_root()
    return _ROOT


#: The longest line the shell (and every in-process runner) reads (E184): as long as the
#: longest single argument the system passes to a one-shot `referee` command (Linux's
#: MAX_ARG_STRLEN, 128 KiB). Splitting a line costs time that grows with its square.
MAX_LINE = 128 * 1024


def check_length(text: str) -> None:
    """Refuse a line longer than ``MAX_LINE`` at once, before anything reads it (E184).

    Raises:
        BadInput: the line is too long.
    """
    if len(text) > MAX_LINE:
        raise BadInput(f"the line is {len(text):,} characters long, past the {MAX_LINE:,} a "
                       "command line takes; nothing was run; type it shorter (E184)",
                       ruling="E184")


def split(text: str) -> list[str]:
    """The words of a command line as a shell splits them (``#`` starts a comment).

    Raises:
        BadInput: an unclosed quote, or a line longer than ``MAX_LINE`` (E184).
    """
    import shlex  # only a line typed in-process is split: not on a command's start-up

    check_length(text)

    try:
        words = shlex.split(text, comments=True)
    except ValueError as exc:
        raise BadInput(f"cannot read the line: {exc}; close the quote") from None
    if words and words[0] == "referee":
        words = words[1:]
    if words and words[0] in ("help", "?"):
        words = [*words[1:], "--help"]
    if words and words[0] == "try":  # `try LINE`: the line as a dry run (E133)
        if len(words) == 1:
            raise BadInput("`try LINE` shows what LINE would do and writes nothing: give the "
                           "line after it, e.g. `try bet Ada` (E133)", ruling="E133")
        words = ["--dry-run", *words[1:]]
    return words


#: What makes ``shlex`` read a line otherwise than ``str.split``: quotes, escapes, comments,
#: and the ASCII whitespace that ``str.split`` splits on and a shell does not.
_NOT_PLAIN = frozenset("'\"\\#\x0b\x0c\x1c\x1d\x1e\x1f")


def plain_words(text: str) -> list[str] | None:
    """The words of a line of plain words (ASCII, no quote, escape or comment), as
    ``split`` reads it, without shlex: most lines typed at the table. None for any
    other line, and for a line ``split`` rewrites (``referee``, ``help``, ``try``)."""
    if not text.isascii() or not _NOT_PLAIN.isdisjoint(text):
        return None
    words = text.split()
    if words and words[0] in ("referee", "help", "?", "try"):
        return None
    return words


def root_args(words: list[str], db: Path | None, debug: bool) -> list[str]:
    """``words`` with the runner's root options (``--db``, ``--debug``) in front."""

    args = hoist_root_options(words)
    given = args[:args.index("--")] if "--" in args else args  # after `--`: arguments (E65)
    if db is not None and not any(a == "--db" or a.startswith("--db=") for a in given):
        args = ["--db", str(db), *args]
    if debug and "--debug" not in given:
        args = ["--debug", *args]
    return args
