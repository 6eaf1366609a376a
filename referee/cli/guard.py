"""What every command line goes through, with typer or without it: the error boundary's core
(``guarded``), the run's start (``start``), what is checked at the door and where the root
options may stand.

``errors.RefereeGroup`` (the typer app) and ``entry`` (the hot one-shot command lines,
parsed without typer) both run a command's body through ``guarded``: a ``RefereeError`` is
one line on stderr and exit 2 with nothing written; anything else is a bug, exit 1.
Nothing here imports typer, click or rich.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from referee.cli import context
from referee.cli.printing import echo, printable
from referee.cli.suggest import told
from referee.errors import DryRunDone, RefereeError

#: The core's refusal of a command on a file that holds no evening
#: (``referee.evening.state.require_evening``): it knows no file; the refusal names it.
NO_EVENING = "no evening in this file yet"


def refuse(line: str, ruling: str | None = None) -> None:
    """A refusal: its one line on stderr, remembered for `rules last`; under ``--explain``
    the full text of the ruling behind it follows on stdout. A file with no evening in it
    is named (E171)."""
    if line.startswith(NO_EVENING):
        line = f"no evening in {printable(str(context.db_path()))} yet" + line[len(NO_EVENING):]
    echo(f"error: {line}", err=True)
    from referee.cli import rulings  # a refusal's: the rulebook, `rules last`

    memory = rulings.remember(line, ruling, context.db_path())
    if context.current().explain:
        try:
            echo(rulings.explanation(memory["rulings"]))
        except (OSError, ValueError) as exc:  # a broken install must not hide the refusal
            echo(f"(the rulebook cannot be read: {exc})")


def start(db: Path | None, debug: bool = False, explain: bool = False,
          sealed: Path | None = None, dry_run: bool = False) -> context.Context:
    """The run's one context (its evening, its console, the station, --explain), from the
    root options; a ``--db`` no file can be at is one line (E94); --dry-run kept for the run."""
    obj = context.Context(db=db, debug=debug, explain=explain, station=sealed, dry_run=dry_run)
    if db is not None or os.environ.get("REFEREE_DB"):
        # Not at the top: --help and --version load this module and touch no file (~2 ms).
        from referee.storage.files import check_reachable

        check_reachable(obj.path())  # a name too long, a symlink loop: one line (E94)
    return obj  # --dry-run is the run's own (``Context.dry_run``), handed to each write (E230)


def guarded(body: Callable[[], Any], words: Sequence[str],
            passthrough: tuple[type[BaseException], ...] = ()) -> tuple[Any, int | None]:
    """Run one command's ``body`` inside the error boundary: ``(its result, None)``, or
    ``(None, exit status)`` when it ended in a refusal (2), a bug (1) or an answer that
    could not be shown (0). ``passthrough`` (the parser's own exits) end the command and
    go on up; ``words`` are the command's words, for --dry-run's --json."""
    stops: tuple[type[BaseException], ...] = (*passthrough, KeyboardInterrupt)
    _begin_command()
    try:
        rv = body()
    except RefereeError as exc:
        if _recorded():
            _answer_failed(exc)  # after the commit: the command stands (E41)
            return None, 0
        refuse(printable(told(exc)), exc.ruling)  # names as data (E42)
        return None, 2
    except stops:
        _end_command()
        raise
    except DryRunDone as dry:  # E133: the command ran to its write; nothing was written
        given = list(words[:list(words).index("--")]) if "--" in words else list(words)
        from referee.cli.output import dryrun  # --dry-run only

        dryrun.show(dry, "--json" in given)
        _end_command()
        return None, 0
    except BrokenPipeError:
        # `referee log | head`: the reader left; say nothing more.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        _end_command()
        return None, 0
    except Exception as exc:
        if type(exc).__module__.split(".")[0] in ("click", "typer"):
            raise  # usage errors: the parser prints them and exits 2
        if _is_bad_path(exc) and not _recorded():
            # A path no file can be at, typed where a file is asked for: the user's
            # situation, whichever command met it first (E94).
            shown = printable(getattr(exc, "filename", None) or "a path")
            why = getattr(exc, "strerror", None) or exc
            refuse(f"{shown}: {why}; give another path (E94)", "E94")
            return None, 2
        if context.current().debug:
            import traceback  # --debug only (~2 ms off typer's path)

            traceback.print_exc()
        if _recorded():
            _answer_failed(exc)
            return None, 0
        if not context.current().debug:
            echo(f"internal error: {type(exc).__name__}: {exc} "
                 "(a bug, not your mistake; nothing was written; rerun with --debug)",
                 err=True)
        return None, 1
    _end_command()
    return rv, None


def _is_bad_path(exc: BaseException) -> bool:
    """An OSError of a path that names no possible file: too long, or a loop of links."""
    return isinstance(exc, OSError) and exc.errno in (errno.ENAMETOOLONG, errno.ELOOP)


def _store() -> Any:
    return sys.modules.get("referee.storage.store")


def _begin_command() -> None:
    from referee.storage import files  # not at the top, as in start

    files.NOTES.clear()
    files.TRACK_ANSWERS = True
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
        echo(f"recorded: {texts}; but its answer could not be shown ({type(exc).__name__}: "
             f"{exc}; a bug); `referee status` shows the evening", err=True)
    _end_command()


def _end_command() -> None:
    """After the answer: mark it shown (E41), and pass on the store's notes."""
    from referee.storage import files  # as in _begin_command

    store = _store()
    with contextlib.suppress(OSError):  # a closed pipe: still mark it
        if store is not None:
            for entry in store.WRITTEN:  # marked inside the evening file itself
                if entry.get("token"):
                    store.mark_answered(entry["file"], entry["token"])
            for entry in store.UNANSWERED:  # said once: remembered outside the evening
                store.remember_told(entry["file"], entry.get("token"))
                echo(f"note: the command `{entry.get('text')}` before this one was "
                     "recorded, though its answer may not have been shown (the console "
                     "stopped); `referee log` shows it: do not type it again (E41)",
                     err=True)
            store.WRITTEN.clear()
            store.UNANSWERED.clear()
        for note in files.NOTES:
            echo(f"note: {note}", err=True)
        files.NOTES.clear()


#: The longest run of digits an argument may hold (E181): every number a command takes stays
#: below 10^12 (E45), 13 digits, and Python reads no whole number of more than 4,300 digits
#: at all (its ``int`` refuses, in every slot where a number goes).
MAX_DIGITS = 100


def _digit_run(n: int, arg: str) -> str | None:
    """The refusal of a run of more than ``MAX_DIGITS`` digits in ``arg``, argument ``n``
    (E181), or None."""
    for found in re.finditer(rf"[\d_]{{{MAX_DIGITS + 1},}}", arg):
        digits = len(found[0]) - found[0].count("_")
        if digits > MAX_DIGITS:
            start = arg[max(0, found.start() - 12):found.start() + 8]
            start = start.encode("ascii", "backslashreplace").decode()
            shown = "".join(c if c.isprintable() else repr(c)[1:-1] for c in start)
            return (f"argument {n} ({shown}...) holds a number of {digits:,} digits: numbers "
                    "here stay below 1,000,000,000,000 (13 digits); type it again (E181)")
    return None


#: The control characters that make space (E185): a newline, a tab, a carriage return, a
#: vertical tab, a form feed, the file, group, record and unit separators, the next-line
#: control and the line and paragraph separators. A name or a number read past them (every
#: reader trims them away, Python's ``int`` too), and the log would keep them raw.
_SPACING = frozenset("\t\n\v\f\r\x1c\x1d\x1e\x1f\x85\u2028\u2029")


def _spacing(n: int, arg: str, found: str) -> str:
    """The refusal of argument ``n``, ``arg``, for the spacing control character ``found``."""
    shown = arg if len(arg) <= 40 else arg[:37] + "..."
    shown = "".join(c if c.isprintable() and c.isascii() else
                    c.encode("unicode_escape").decode("ascii") for c in shown)
    code = found.encode("unicode_escape").decode("ascii")
    return (f"argument {n} ({shown}) holds a control character ({code}); a name, a number "
            "or a word of the console never does: type it without (E185)")


def not_text(args: Sequence[str]) -> str | None:
    """What makes an argument no text a GM could have meant, as one line, or None (E45, E94).

    A NUL byte (no path, name or card holds one: the OS would refuse it deep inside), and bytes
    that are not UTF-8 (Python hands them on as lone surrogates; stored in a promise or a name
    they would break `log` on every strict terminal after). The bytes are quoted escaped, never
    raw.
    """
    for n, arg in enumerate(map(str, args), start=1):
        if len(arg) > MAX_DIGITS:
            long = _digit_run(n, arg)
            if long is not None:
                return long
        if not arg.isprintable():  # rare: a control, format or separator character
            spacing = next((c for c in arg if c in _SPACING), None)
            if spacing is not None:
                return _spacing(n, arg, spacing)
        if arg.isascii() and "\x00" not in arg:
            continue  # no surrogate is ASCII: the words typed at the table, looked at once
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


def help_word(args: list[str]) -> list[str]:
    """``help`` as a command word, as git and pip take it: ``help`` alone is ``--help``,
    ``help hand rank`` is ``hand rank --help`` (E170). ``args`` have the root options in front
    (``hoist_root_options``); any other line is returned as it is.

    >>> help_word(["--db", "e.json", "help", "hand"])
    ['--db', 'e.json', 'hand', '--help']
    >>> help_word(["bet", "help"])
    ['bet', 'help']
    """
    i = 0
    while i < len(args) and args[i].startswith("-"):
        i += 2 if args[i] == "--db" else 1
    if args[i:i + 1] != ["help"]:
        return args
    return [*args[:i], *args[i + 1:], "--help"]


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
