"""The ``referee`` command: a table of contents of an evening, and its command tree.

Each group of commands lives in a module of its own (``TREE``); a command line imports only
the module of its command word, so `referee status` never loads the side tables, the server
or the shell. ``app`` (``from referee.cli.main import app``) is the whole tree; the shell, a
station and the demo parse their lines with ``lazy_root()``, whose commands are built, each
with its module, when a line first uses them.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import sys
import threading
from collections.abc import Iterator, MutableMapping
from pathlib import Path
from typing import Annotated

import typer
from typer._click.core import Command  # typer ships its own click
from typer._click.shell_completion import split_arg_string  # loaded with typer
from typer.core import TyperGroup

from referee import __version__
from referee.cli import runner
from referee.cli.context import Sealed
from referee.cli.errors import RefereeGroup, hoist_root_options
from referee.cli.guard import help_word, start
from referee.cli.help.contents import PANELS, Panels
from referee.cli.help.table_of_contents import table_of_contents
from referee.errors import BadInput

_root = typer.Typer(
    cls=RefereeGroup,
    help="Referee console for a live Fool's Errand evening and its side tables.",
    no_args_is_help=True,
    add_completion=True,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"referee {__version__}")
        raise typer.Exit()


@_root.callback()
def main(
    ctx: typer.Context,
    db: Annotated[
        Path | None,
        typer.Option("--db", help="Evening file (default: $REFEREE_DB, else the user data dir)."),
    ] = None,
    debug: Annotated[
        bool, typer.Option("--debug", help="Show tracebacks of internal errors.")
    ] = False,
    explain: Annotated[
        bool, typer.Option("--explain", help="After a refusal, read its ruling in full.")
    ] = False,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Show what the command would record and change; "
                           "write nothing (E133).")
    ] = False,
    version: Annotated[
        bool, typer.Option("--version", "-V", callback=_version, is_eager=True,
                           help="Print the version and exit.")
    ] = False,
    station: Annotated[
        str | None,
        typer.Option("--station", help="Run the command at `referee serve --station` URL."),
    ] = None,
    token: Annotated[
        str | None, typer.Option("--token", help="The station token (`referee links` prints it)."),
    ] = None,
) -> None:
    """Referee console for a live Fool's Errand evening and its side tables."""
    given = ctx.obj if isinstance(ctx.obj, Sealed) else None
    if given is not None and given.evening is not None and (
            db != given.evening or debug or station or token):
        # A station's line (E65): refused before this by `station.refusal`; here once more,
        # from what the parser itself read, so a miss there still reaches nothing else.

        raise BadInput("a station's commands run on the evening served there only, without "
                       "--db, --debug, --station or --token (E65)", ruling="E65")
    # The run's one context (its evening, its console, the station, --explain), passed down
    # the command tree on the click context: nothing of it outlives the run.
    ctx.obj = start(db, debug, explain, given.evening if given else None, dry_run)
    ctx.obj.note = given.note if given else None  # R46: who asked, for the log (E214)
    # A line read in this process: its request is raised to the caller (``cli.requests``)
    ctx.obj.reading = given.reading if given else None
    if station is not None:  # `run()` sends station lines before parsing; only a caller of
        # the app itself gets here
        raise typer.BadParameter("give --station URL --token T before the command, "
                                 "on the command line", param_hint="--station")


#: The command tree: every module of commands, in the order `referee --help` lists them, with
#: the words it adds at the root (``tests/cli/test_tree.py`` holds this to what the modules
#: register). Each module adds its words with ``register(root)``.
TREE: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("table.evening", ("new", "status", "bet", "raise", "call", "check", "fold", "open-phase",
                       "rise", "sit", "resign", "undo", "redo", "log", "verify", "chips")),
    ("table.count", ("count",)),  # E130-E132
    ("table.amend", ("amend",)),  # E138, E139
    ("table.hand", ("hand",)),
    ("powers.points", ("points", "promotions")),
    ("powers.souls", ("soul", "charge")),
    ("powers.power", ("power",)),
    ("between.reports", ("report", "handout", "demo")),
    ("room.watch", ("watch",)),
    ("shell.shell", ("shell",)),
    ("room.serving", ("serve", "links")),
    ("room.room", ("room",)),
    ("room.phone_requests", ("requests",)),  # R46
    ("between.scenario", ("scenario",)),
    ("side.scum", ("scum",)),
    ("side.wager", ("wager",)),
    ("side.fate", ("fate",)),
    ("rulebook.rules", ("rules",)),
    ("rulebook.players_card", ("card",)),  # E174
    ("between.ceremony", ("end", "ceremony")),  # R40
    ("between.season", ("next", "season")),  # R41-R43
)
#: The module of each command word.
MODULE_OF = {word: module for module, words in TREE for word in words}


def _grow(modules: list[str]) -> typer.Typer:
    """The root app with the commands of ``modules`` only (each imported on first need)."""
    _root.registered_commands = []
    _root.registered_groups = []
    for name in modules:
        importlib.import_module(f"referee.cli.{name}").register(_root)
    return _root


_hoist_root_options = hoist_root_options  # kept for scripts that named it here


def _target(args: list[str]) -> str | None:
    """The command word of a command line (after the root options)."""
    i = 0
    while i < len(args):
        if args[i] == "--db":
            i += 2
        elif args[i] == "--dry-run":  # E133: the command word follows
            i += 1
        elif args[i].startswith("-"):
            return None  # --help, --version, completion flags: the whole tree is needed
        else:
            return args[i]
    return None


def completed_words() -> list[str] | None:
    """In a completion run (``_REFEREE_COMPLETE``, a Tab in the user's shell): the words
    before the one being completed, read as typer's completion classes read them; else, or
    when they cannot be read, None."""
    instruction = os.environ.get("_REFEREE_COMPLETE", "")
    try:
        if instruction.endswith("bash"):
            words = split_arg_string(os.environ["COMP_WORDS"])
            return words[1 : int(os.environ["COMP_CWORD"])]
        line = os.environ["_TYPER_COMPLETE_ARGS"]
        words = split_arg_string(line)[1:]
    except (KeyError, ValueError):
        return None
    if instruction.endswith(("powershell", "pwsh")):
        return words[:-1] if os.environ.get("_TYPER_COMPLETE_WORD_TO_COMPLETE") else words
    return words[:-1] if words and not line.endswith(" ") else words


def only(target: str | None) -> bool:
    """Grow only the command ``target`` in the app: import its module alone and keep only
    its word, so that only it is built.

    Typer turns every registered command into a click command (evaluating every
    annotation) before it runs one; for a console answering mid-hand that and the imports
    of every other group are most of the start-up. Returns False (and grows everything)
    for no word or an unknown one, so the parser can list or suggest the right one. A
    completion run takes its word from the line being completed: a Tab after `scum `
    grows `scum` alone, a Tab on the command word itself the whole tree.
    """
    if os.environ.get("_REFEREE_COMPLETE"):
        words = completed_words()
        target = _target(hoist_root_options(words)) if words is not None else None
    if target not in MODULE_OF:
        full_app()
        return False
    _grow_word(target)
    return True


def _grow_word(word: str) -> None:
    """The root app with the command ``word`` alone (its module imported)."""
    _grow([MODULE_OF[word]])
    _root.registered_commands = [
        c for c in _root.registered_commands
        if (c.name or (c.callback.__name__ if c.callback else "")).replace("_", "-") == word]
    _root.registered_groups = [g for g in _root.registered_groups if g.name == word]


def full_app() -> typer.Typer:
    """The root app with every command (undoing ``only``), for the shell and the demo."""
    return _grow([name for name, _ in TREE])


class Tree(MutableMapping[str, Command]):
    """The root's click commands by word, each built the first time it is asked for: its
    module imported and its annotations read then, not before (a shell's start, a station's
    first line). Every word of ``TREE`` is a key from the start, so listing, suggesting and
    completing the command words builds nothing."""

    def __init__(self) -> None:
        self._built: dict[str, Command] = {}

    def __getitem__(self, word: str) -> Command:
        if word not in self._built:
            if word not in MODULE_OF:
                raise KeyError(word)
            self._built.setdefault(word, _command(word))  # the first build, if two raced
        return self._built[word]

    def __setitem__(self, word: str, command: Command) -> None:
        self._built[word] = command

    def __delitem__(self, word: str) -> None:
        raise KeyError(f"{word}: the command tree is fixed")

    def __iter__(self) -> Iterator[str]:
        return iter(MODULE_OF)

    def __len__(self) -> int:
        return len(MODULE_OF)

    def __contains__(self, word: object) -> bool:
        return word in MODULE_OF

    @property
    def built(self) -> list[str]:
        """The words whose commands are built so far, in the order they were first used."""
        return list(self._built)


#: One build at a time: a station answers its lines in threads, and a build grows the one
#: root app for a moment.
_BUILDING = threading.Lock()


@contextlib.contextmanager
def _borrowed() -> Iterator[None]:
    """The root app to grow for one build, under ``_BUILDING``, and its commands put back as
    they were after (the command line and the tests hold the same app)."""
    with _BUILDING:
        saved = list(_root.registered_commands), list(_root.registered_groups)
        try:
            yield
        finally:
            _root.registered_commands, _root.registered_groups = saved


def _command(word: str) -> Command:
    """The click command of ``word`` alone, as the whole tree builds it (the root app grown
    with its module and that word only)."""
    with _borrowed():
        _grow_word(word)
        built = typer.main.get_command(_root)
    assert isinstance(built, TyperGroup)
    return built.commands[word]


def described() -> dict[str, str]:
    """Each command word with the first paragraph of its help, as the stored table of
    contents gives it (a group's ``scum ...`` under ``scum``): read without building any."""
    return {name.removesuffix(" ..."): text for _, items in PANELS for name, text in items}


def lazy_root() -> TyperGroup:
    """The root's click group with every command word in it, each command built when it is
    first used (``Tree``): what the shell, a station and the demo parse their lines with."""
    with _borrowed():
        _root.registered_commands, _root.registered_groups = [], []
        group = typer.main.get_command(_root)  # the root's own options only
    assert isinstance(group, TyperGroup)
    group.commands = Tree()
    return group


def __getattr__(name: str) -> typer.Typer:
    # ``main.app``: the whole tree, grown when asked for (a test, the reference, a script).
    if name == "app":
        return full_app()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


runner.use_app(lazy_root)  # the in-process runner's tree, each command built on first use


#: The panels of `referee --help`, in the order it lists them; a command in no panel goes last.
PANEL_ORDER = ("Setup", "At the table", "Betting", "Chips and seats", "Souls, Charges, powers",
               "Status", "Between evenings", "The log", "Side tables", "Away from the table",
               "The rulebook")


def panels(app: typer.Typer) -> Panels:
    """The table of contents as ``app``'s registered commands say it: each panel with the
    first paragraph of each command's help, as ``referee --help`` prints them.

    ``referee.cli.help.contents.PANELS`` stores this for the whole tree, so that `referee --help`
    imports no module of commands (``tests/cli/test_tree.py`` holds the two equal).
    """
    found: dict[str, list[tuple[str, str]]] = {}
    for info in app.registered_commands:
        assert info.callback is not None
        name = info.name or info.callback.__name__.replace("_", "-")
        text = info.help or info.callback.__doc__ or ""
        found.setdefault(str(info.rich_help_panel or "Commands"), []).append((name, text))
    for group in app.registered_groups:
        about = group.help or (group.typer_instance.info.help if group.typer_instance else "")
        found.setdefault(str(group.rich_help_panel or "Commands"), []).append(
            (f"{group.name} ...", str(about or "")))
    ordered = sorted(found.items(), key=lambda kv: PANEL_ORDER.index(kv[0])
                     if kv[0] in PANEL_ORDER else len(PANEL_ORDER))
    return tuple((panel, tuple((name, " ".join(text.strip().split("\n\n")[0].split()))
                               for name, text in items))
                 for panel, items in ordered)


def _station_options(argv: list[str]) -> tuple[str | None, str | None, list[str]]:
    """``--station URL`` and ``--token T`` taken from the root options, before the command
    word (after it, ``--station`` is the `serve` flag)."""
    found: dict[str, str | None] = {"--station": None, "--token": None}
    rest: list[str] = []
    i = 0
    while i < len(argv) and argv[i].startswith("-") and argv[i] != "--":
        name, eq, value = argv[i].partition("=")
        if name in found and (eq or i + 1 < len(argv)):
            found[name] = value if eq else argv[i + 1]
            i += 1 if eq else 2
            continue
        rest += argv[i : i + 2] if name == "--db" and not eq else [argv[i]]
        i += 2 if name == "--db" and not eq else 1
    return found["--station"], found["--token"], rest + argv[i:]


def run() -> None:
    """Console-script entry point."""
    url, token, argv = _station_options(sys.argv[1:])
    if url is not None and argv not in ([], ["--help"], ["-h"]):
        from referee.cli.room import station  # a line for a station only

        sys.exit(station.remote(url, token, argv))
    args = help_word(_hoist_root_options(argv))
    if args in ([], ["--help"], ["-h"]) and not os.environ.get("_REFEREE_COMPLETE"):
        typer.echo(table_of_contents())
        return
    if args in (["--version"], ["-V"]):
        typer.echo(f"referee {__version__}")
        return
    only(_target(args))
    _root(args=args, prog_name="referee")
