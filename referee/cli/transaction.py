"""The one way a command changes the evening file: a request to the table's API
(``perform``, ``referee.table.api``) under the command's log text (``command_text``, derived
in one place), ``transact`` for the commands that open or carry evenings (`new`, `next`),
and `undo` / `redo` of a table's stream."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from referee.cli.context import Context, current, db_path
from referee.cli.printing import echo
from referee.errors import IllegalAction
from referee.jsontypes import JSONObject
from referee.table import Move, Outcome, run
from referee.table.api import Args, Request
from referee.table.api import perform as perform_request
from referee.table.transaction import E, More

if TYPE_CHECKING:
    import typer


#: A move made: the stream's state before and after, and the events written.
Done = Outcome[Any, Any]
#: What a command does once its move is made: its answer (and any file beside the evening it
#: changes with it, as `room show` the wall), from the outcome.
Then = Callable[[Done], None]


class Parsed(Exception):  # noqa: N818  (not an error: the end of a parse, as DryRunDone)
    """A command line read as far as its request to the table, which is not made here
    (``referee.cli.requests``): the request, what the command does with its outcome, and the
    run's context, in which that is done."""

    def __init__(self, request: Request, then: Then | None, context: Context) -> None:
        super().__init__(request.move)
        self.request = request
        self.then = then
        self.context = context


def command_text(extra: JSONObject | None = None) -> str:
    """The running command as the GM could retype it: its log line, for ``log``, ``undo`` and
    ``redo``. Derived from the parsed arguments in this one place; ``extra`` overrides values
    the console chose (a drawn seed, an Elixir), so that retyping the line replays the same.
    Who asked for it (R46, E214) is the move's own (``Move.asked_by``), after these words."""
    return line_of()(extra or {})


def line_of() -> Callable[[Mapping[str, object]], str]:
    """The running command's words as a function of what the core chose: read from this
    run's context now, so that the words can be asked later, outside it (a parsed request
    made after its parse, ``referee.cli.requests``)."""
    own = current().line  # read without the parser (``referee.cli.entry``): its own words
    if own is not None:
        return lambda chosen: own if not chosen else _parsed_words()(chosen)
    return _parsed_words()


def _parsed_words() -> Callable[[Mapping[str, object]], str]:
    """The words of the command click parsed (read now), with what the core chose."""
    from typer.main import get_current_context  # type: ignore[attr-defined]  # click's

    click_ctx = get_current_context()
    path = click_ctx.command_path.split()[1:]
    specs = list(click_ctx.command.params)
    params = dict(click_ctx.params)
    return lambda chosen: _words(path, specs, {**params, **chosen})


def _words(path: list[str], specs: list[Any], params: Mapping[str, object]) -> str:
    import shlex

    words = list(path)
    for param in specs:
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


def move(stream: str, *, extra: JSONObject | None = None, path: Path | None = None,
         fresh: bool = False) -> Move:
    """The running command as the table's typed record (``referee.table.Move``): its evening
    (``--db``, or ``path``), its stream, its log line (``command_text``, asked once the core
    has built, so that ``extra`` may carry what it chose), who asked (E214) and ``--dry-run``
    (E133), all read from this run's context here, in one place."""
    ctx = current()
    if ctx.reading == "parse":
        raise IllegalAction(f"`{command_text()}` opens or carries an evening: it is typed, "
                            "never replayed (E140)", ruling="E140")
    return Move(evening=path or ctx.path(), stream=stream,
                line=lambda: command_text(extra), asked_by=ctx.note, dry=ctx.dry_run,
                fresh=fresh)


def transact(stream: str, build: Callable[[Any], list[E]], *,
             extra: JSONObject | None = None, path: Path | None = None,
             more: More | None = None, fresh: bool = False
             ) -> Outcome[Any, E]:
    """The running command through the table's one transaction (``referee.table.run``).

    ``build(state)`` returns the command's events (or raises a RefereeError: nothing is
    written); they are committed at once under the command's log text. The answer is the
    state before (a copy), the state after, and the events. ``build`` may fill ``extra``
    with what the core chose (a drawn seed): the text is derived after it. ``path`` is
    another evening file than ``--db`` (`referee next` writes the next evening); ``more``
    holds events of other streams, committed after under the same line (R42); ``fresh`` lets
    ``new --force`` open a missing file whose evening's backups lie beside it (E182).
    """
    return run(move(stream, extra=extra, path=path, fresh=fresh), build, more=more)


def perform(name: str, args: Args, *, words: Mapping[str, object] | None = None,
            then: Then | None = None) -> Outcome[Any, Any]:
    """The running command as a request to the table (``referee.table.api``): the move
    ``name`` with ``args``, on this run's evening (``--db``), under this command's words, for
    whom it was asked (E214), dry or not (E133), all read from this run's context here.
    ``words`` overrides parsed values by parameter name where the command read its words
    otherwise than the parser (`wager turn 3`: a count, not a player) or never says one (a
    hidden flag); what the core chose overrides both. ``then`` is what the command does with
    the outcome (its answer), called here once the move is made. Parsing only
    (``referee.cli.requests``), the request is raised as ``Parsed`` with ``then``, for the
    caller to make through the API and answer.

    Raises:
        Parsed: the run only parses its words into the request.
    """
    ctx = current()
    said = line_of()
    read = dict(words or {})
    line = said if not read else (lambda chosen: said({**read, **chosen}))
    request = Request(name, args, evening=ctx.path(), line=line, asked_by=ctx.note,
                      dry=ctx.dry_run)
    if ctx.reading is not None:
        raise Parsed(request, then, ctx)
    outcome = perform_request(request)
    if then is not None:
        then(outcome)
    return outcome


def add_undo_redo(app: typer.Typer, stream: str, table: str) -> None:
    """``undo`` and ``redo`` for one table's event stream (whole commands, nothing deleted)."""

    def undo() -> None:
        from referee.storage.store import open_evening

        with open_evening(db_path(), dry=current().dry_run) as ev:
            command = ev.undo(stream)
        echo(f"undone: {command.text}")

    def redo() -> None:
        from referee.storage.store import open_evening

        with open_evening(db_path(), dry=current().dry_run) as ev:
            command = ev.redo(stream)
        echo(f"redone: {command.text}")

    app.command("undo", help=f"Take back the last {table} command (kept in the log; "
                f"`redo` restores it).")(undo)
    app.command("redo", help=f"Bring back the {table} command just undone.")(redo)
