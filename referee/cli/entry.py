"""The console's entry point, and the command lines it runs without typer (E160).

Importing typer costs most of what a command at the table takes. The few command lines typed
most often are read here, exactly, from a grammar small enough to read by hand:

    status [--json]
    bet|raise [NAME] [N] [--chips C] [--json]        call [NAME] [--chips C] [--json]
    check|fold [NAME] [--json]                       chips give FROM TO COLOUR:N[,...] [--json]
    log --last N [--json]

each with ``--db PATH`` anywhere (or ``REFEREE_DB``). Such a line runs the very body the typer
command runs (``referee.cli.typed_most``), in the same context (``guard.start``), under the same
boundary (``guard.guarded``), with its log text made here from the same words in the order the
parser would give them. Anything else (help, --explain, --dry-run, --debug, an option it does
not know, a word starting with ``-``, one word too many, a completion run, a stream that is
not UTF-8) goes to the typer app unchanged, which answers it as before.
``tests/cli/test_fast.py`` runs both ways on copies of one evening and compares every byte.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path

from referee.cli import context
from referee.cli.guard import guarded, hoist_root_options, not_text, start
from referee.cli.printing import echo

#: The betting moves: how many words each takes (NAME, N) and whether it takes --chips.
MOVES = {"bet": (2, True), "raise": (2, True), "call": (1, True), "check": (1, False),
         "fold": (1, False)}


class Line:
    """A command line read without the parser: its evening, its words, its body, and its
    log text for a write (None for a read)."""

    __slots__ = ("db", "words", "body", "text")

    def __init__(self, db: Path | None, words: list[str], body: Callable[[], None],
                 text: str | None) -> None:
        self.db = db
        self.words = words
        self.body = body
        self.text = text


def _split(rest: list[str], takes_chips: bool,
           takes_last: bool = False) -> tuple[list[str], dict[str, str], bool] | None:
    """Words, options and --json of what follows the command word, or None when anything in
    it is not exactly what this grammar knows."""
    words: list[str] = []
    options: dict[str, str] = {}
    as_json = False
    i = 0
    while i < len(rest):
        word = rest[i]
        if word == "--json" and not as_json:
            as_json = True
        elif (word == "--chips" and takes_chips or word == "--last" and takes_last) \
                and word not in options and i + 1 < len(rest) \
                and not rest[i + 1].startswith("-"):
            options[word] = rest[i + 1]
            i += 1
        elif word.startswith("-"):
            return None
        else:
            words.append(word)
        i += 1
    return words, options, as_json


def _text(words: list[str]) -> str:
    """The log text of a write, as ``transaction.command_text`` derives it."""
    import shlex  # a write only

    return " ".join(shlex.quote(w) for w in words)


def read(args: list[str]) -> Line | None:
    """``args`` (the root options already hoisted to the front) as a ``Line``, or None."""
    db: Path | None = None
    if args[:1] == ["--db"]:
        if len(args) < 2 or not args[1] or args[1].startswith("-"):
            return None
        db, args = Path(args[1]), args[2:]
    if not args or args[0] not in ("status", "chips", "log", *MOVES):
        return None
    from referee.cli import typed_most  # a line of this grammar only: `--help` does without it

    word, rest = args[0], args[1:]
    if word == "status":
        split = _split(rest, False)
        if split is None or split[0]:
            return None
        as_json = split[2]
        return Line(db, args, lambda: typed_most.show_status(None, as_json), None)
    if word in MOVES:
        most, takes_chips = MOVES[word]
        split = _split(rest, takes_chips)
        if split is None or len(split[0]) > most:
            return None
        given, options, as_json = split
        who = given[0] if given else None
        amount = given[1] if len(given) > 1 else None
        chips = options.get("--chips")
        text = _text([word, *given, *(["--chips", chips] if chips is not None else [])])
        return Line(db, args, lambda: typed_most._action(word, who, amount, chips, as_json), text)
    if word == "chips" and rest[:1] == ["give"]:
        split = _split(rest[1:], False)
        if split is None or len(split[0]) != 3:
            return None
        (source, target, chips), _, as_json = split
        return Line(db, args, lambda: typed_most.give(source, target, chips, as_json),
                    _text(["chips", "give", source, target, chips]))
    if word == "log":
        split = _split(rest, False, takes_last=True)
        if split is None or split[0] or "--last" not in split[1]:
            return None
        last = split[1]["--last"]
        if not (last.isascii() and last.isdigit() and len(last) <= 9):
            return None
        as_json = split[2]
        return Line(db, args, lambda: typed_most.show_log(None, None, None, None, int(last), None,
                                                      as_json), None)
    return None


def _plain_streams() -> bool:
    """Both streams take UTF-8 (else click wraps them first: the typer app prints)."""
    for stream in (sys.stdout, sys.stderr):
        encoding = (getattr(stream, "encoding", None) or "").lower().replace("_", "-")
        if encoding not in ("utf-8", "utf8"):
            return False
    return True


def attempt(argv: list[str]) -> int | None:
    """Run ``argv`` without typer when this module reads it exactly: its exit status; else
    None (nothing was run, nothing printed: the typer app takes the line)."""
    if os.environ.get("_REFEREE_COMPLETE") or not _plain_streams():
        return None
    args = hoist_root_options(argv)
    if not_text(args) is not None:
        return None
    line = read(args)
    if line is None:
        return None
    def body() -> None:
        # The context first, so that a --db refused at the start is remembered against it,
        # as the root callback leaves it on the click context before it checks the path.
        context.run_alone(context.Context(db=line.db))
        obj = start(line.db)
        obj.line = line.text
        context.run_alone(obj)
        line.body()

    try:
        _, code = guarded(body, line.words[2:] if line.db is not None else line.words)
    except KeyboardInterrupt:
        echo("", err=True)
        echo("Aborted.", err=True)
        return 1
    finally:
        context.run_alone(None)
    return code or 0


def main() -> None:
    """Console-script entry point: a line read here runs here, any other goes to the typer
    app (``referee.cli.main.run``)."""
    code = attempt(sys.argv[1:])
    if code is not None:
        sys.exit(code)
    from referee.cli.main import run  # typer and the command tree: any other line's

    run()
