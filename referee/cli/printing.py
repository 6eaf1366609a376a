"""How a command prints: JSON, markup with names kept literal (E42), money and the clock.

Only the CLI prints: below it nothing writes to stdout or stderr."""

from __future__ import annotations

import json
import re
import sys
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from referee.cli import context

if TYPE_CHECKING:

    pass


#: An ANSI style code (as click strips them from what it prints off a terminal).
_ANSI = re.compile(r"\033\[[;?0-9]*[a-zA-Z]")


def echo(message: str = "", err: bool = False) -> None:
    """One line on stdout (or stderr), flushed; ANSI style codes dropped off a terminal:
    what ``typer.echo`` does with text, without importing typer (a command line run without
    it, ``referee.cli.entry``)."""
    stream = sys.stderr if err else sys.stdout
    if stream is None:
        return
    out = message + "\n"
    if "\033" in out and not stream.isatty():
        out = _ANSI.sub("", out)
    stream.write(out)
    stream.flush()


def emit_json(obj: Any) -> None:
    """One JSON document on stdout, UTF-8, keys in insertion order."""
    echo(json.dumps(obj, ensure_ascii=False))


#: A rich markup tag, with the backslashes before it (as rich reads them).
_TAG = re.compile(r"(\\*)(\[[a-z#/@][^[]*?])")
#: Control characters, and the line separators and bidi controls that would move text around a
#: line (E96): shown as escapes, never obeyed.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def printable(text: object) -> str:
    """``text`` with its control characters (ANSI escapes, newlines) shown as ``\\x1b``:
    for rich ``Text`` and the shell's toolbar, which read no markup but would pass escapes on.

    >>> printable("Ada\\x1b[2J")
    'Ada\\\\x1b[2J'
    """
    return _CONTROL.sub(_escape, str(text))


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 256 else f"\\u{code:04x}"


def lit(text: object) -> str:
    """``text`` to print literally inside markup: names and free text are data (E42, E96).

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


def lit_values(record: Mapping[str, Any]) -> dict[str, Any]:
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
    if not context.current().has_console and not sys.stdout.isatty():
        echo(plain(text))
        return
    context.console().print(text)


def money(chips: int) -> str:
    """``$1,200,000``: chips in dollars at the evening's chip value (R10)."""
    # Loaded by then (a state is shown); not at the top, which `--help` loads too.
    from referee.evening.state import CHIP_VALUE

    return f"${chips * CHIP_VALUE:,}"


def short_money(chips: int) -> str:
    """``$1.5M`` / ``$800k``: dollars in a narrow column."""
    from referee.evening.state import CHIP_VALUE  # as in money

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


def stood(paused: Mapping[str, object] | None) -> str:
    """The clock standing still, in words (R47): `` (paused)``, `` (a break until 21:15)``,
    or nothing while it runs."""
    if not paused:
        return ""
    until = paused.get("until")
    if not isinstance(until, int | float):
        return " (paused)"
    return f" (a break until {time.strftime('%H:%M', time.localtime(until))})"


def say_lit(text: str) -> None:
    """One line of human output printed literally: no markup in it at all."""
    say(lit(text))

