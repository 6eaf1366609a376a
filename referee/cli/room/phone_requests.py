"""`referee requests`: what the assistants asked from their phones (R46), and the GM's answer.

The queue lives in ``PATH.asks`` beside the evening (``referee.serve.asks``, E210). Listing or
declining a request never touches the evening; accepting one makes the move the phone's form
asked for (``soul study`` with Di and amber, checked when it was asked) through the table's
API on this evening, answered as its command answers; the log keeps its words
(``soul study Di amber``) and who asked after them (E214). `ok N` and `no N REASON`
at the shell's prompt are `requests accept N` and `requests decline N REASON`.
"""

from __future__ import annotations

import dataclasses
import shlex
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from referee.cli.context import current, db_path
from referee.cli.guard import refuse
from referee.cli.powers.souls import ANSWERS
from referee.cli.printing import echo, emit_json, printable
from referee.cli.requests import parse
from referee.cli.suggest import told
from referee.errors import BadInput, DryRunDone, RefereeError
from referee.serve import asks
from referee.table.api import Request, perform

if TYPE_CHECKING:
    from referee.serve.asks import Ask

app = typer.Typer(help="What the assistants asked from their phones (R46): list, accept, "
                       "decline. `ok N` / `no N REASON` at the shell's prompt.",
                  invoke_without_command=True)


@app.callback()
def requests(
    ctx: typer.Context,
    every: Annotated[bool, typer.Option("--all", help="Finished requests too.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """The phones' requests waiting for the GM (R46); with --all, what became of the others."""
    if ctx.invoked_subcommand is not None:
        return
    queue = asks.load_queue(_evening())
    shown = queue.asks if every else queue.open()
    if as_json:
        emit_json(shown)
        return
    if not shown:
        echo("No request waits for you." if not every else "No request was made.")
        return
    now = time.time()
    for ask in shown:
        echo(f"{asks.line(ask)}; {_status(ask, now)}")
    if any(a["status"] == "open" for a in shown):
        echo("`ok N` accepts (a question: `ok N ANSWER`), `no N REASON` declines.")


def _status(ask: Ask, now: float) -> str:
    age = int(now - ask["at"])
    if ask["status"] == "open":
        return f"waiting {age // 60}:{age % 60:02d}"
    if ask["status"] == "running":
        return "being accepted"
    return ask["status"] + (f": {ask['reason']}" if ask["reason"] else "")


def _evening() -> Path:
    path = db_path()
    if not path.exists():
        raise BadInput(f"no evening file at {path}; requests belong to an evening: name it "
                       "with --db PATH")
    return path


@app.command("accept")
def accept_cmd(
    no: Annotated[int, typer.Argument(metavar="N", min=1, help="The request's number.")],
    answer: Annotated[str | None, typer.Argument(
        metavar="[ANSWER]", help="A question's answer, shown on the phone.",
        show_default=False)] = None,
) -> None:
    """Accept request N: its command runs as if typed here, the log says who asked (R46)."""
    raise typer.Exit(accept(_evening(), no, answer))


@app.command("decline")
def decline_cmd(
    no: Annotated[int, typer.Argument(metavar="N", min=1, help="The request's number.")],
    reason: Annotated[list[str], typer.Argument(metavar="REASON...",
                                                help="Why: the phone shows it.")],
) -> None:
    """Decline request N with REASON, which the assistant's phone shows (R46, E213)."""
    decline(_evening(), no, " ".join(reason))


def accept(evening: Path, no: int, answer: str | None = None) -> int:
    """Accept request ``no`` of ``evening``: a question answered, or its move made through the
    table's API with who asked as the log's note (E214); the command's own answer printed, a
    refusal recorded for the phone. Returns the exit status (the command's).

    Raises:
        RefereeError: no such request, it is not open, or an answer for a command.
    """
    dry = current().dry_run
    ask = asks.load_queue(evening).find(no)
    if ask["kind"] == "question" and dry:  # E133
        asks.must_be_open(ask)
        echo(f"Dry run: request {no} ({ask['assistant']}) would be answered; nothing was "
             "written (E133).")
        return 0
    if ask["kind"] == "question":
        asks.claim(evening, no)
        done = asks.finish(evening, no, "accepted", " ".join((answer or "").split()) or None)
        echo(f"Answered {no} ({done['assistant']}): "
             + (f"their phone shows: {done['reason']}" if done["reason"] else
                "their phone shows the GM will answer in person"))
        return 0
    if answer:
        raise BadInput(f"request {no} is a {ask['kind']}; accept it with `ok {no}` alone (an "
                       "answer goes with a question) (E212)", ruling="E212")
    request = _request(evening, ask, dry)
    if dry:  # E133: what it would record; the queue is left as it is
        return _dry(request)
    asks.claim(evening, no)
    try:
        before, after, events = perform(request)
    except RefereeError as exc:
        why = told(exc)
        asks.finish(evening, no, "failed", why.removeprefix("error: "))
        refuse(printable(why), exc.ruling)
        echo(f"Request {no} was not recorded: the evening refused it; "
             f"{ask['assistant']}'s phone shows why.", err=True)
        return 2
    except BaseException:  # a bug, or Ctrl-C: nothing was recorded, the request waits again
        asks.finish(evening, no, "open", None)
        raise
    # Recorded: the queue says so before anything is printed, so that an answer that cannot be
    # shown leaves no request open for a move the evening holds (E41).
    asks.finish(evening, no, "accepted", None)
    ANSWERS[request.move](before, after, events)
    echo(f"Accepted {no}: {ask['assistant']}'s phone shows it; the log says who asked.")
    return 0


def _request(evening: Path, ask: asks.Ask, dry: bool) -> Request:
    """The table's request an ask makes, on ``evening``, for whom it was asked (E214), dry or
    not: its move and arguments as the phone's form gave them (E210), under the words the log
    keeps. A request queued before asks carried their move is read from its words by their
    command's parser."""
    request = (Request(ask["move"], ask["fields"], evening=evening,
                       line=shlex.join(ask["args"]))
               if "move" in ask and "fields" in ask
               else parse(list(ask["args"]), evening=evening))
    if request is None or request.move not in ANSWERS:  # the queue holds no other kind
        raise BadInput(f"request {ask['no']} asks for no move a phone may ask for (E210)",
                       ruling="E210")
    return dataclasses.replace(request, asked_by=asks.note(ask), dry=dry)


def _dry(request: Request) -> int:
    """What ``request`` would record, shown as `--dry-run` shows it (E133), or its refusal."""
    try:
        perform(request)
    except DryRunDone as done:
        from referee.cli.output import dryrun  # --dry-run only

        dryrun.show(done, False)
        return 0
    except RefereeError as exc:
        refuse(printable(told(exc)), exc.ruling)
        return 2
    raise AssertionError("a dry request wrote")  # pragma: no cover  (perform raises above)


def decline(evening: Path, no: int, reason: str) -> int:
    """Decline request ``no`` with ``reason`` (`requests decline`, `no N REASON` at the
    shell's prompt, E213).

    Raises:
        RefereeError: no reason, no such request, or it is not open.
    """
    dry = current().dry_run
    ask = asks.decline(evening, no, reason, dry=dry)  # under a dry run, checked, not written
    if dry:
        echo(f"Dry run: request {no} ({ask['assistant']}: {ask['what']}) would be declined, "
             f"their phone showing: {ask['reason']}; nothing was written (E133).")
        return 0
    echo(f"Declined {ask['no']} ({ask['assistant']}: {ask['what']}); their phone shows: "
         f"{ask['reason']}")
    return 0


def news(evening: Path, seen: int) -> tuple[list[str], int]:
    """The lines for requests opened after number ``seen`` (between the shell's prompts), and
    the newest number now."""
    queue = asks.load_queue(evening)
    fresh = [a for a in queue.asks if a["no"] > seen and a["status"] == "open"]
    lines = [f"request {asks.line(a)}: `ok {a['no']}` or `no {a['no']} REASON`" for a in fresh]
    return lines, max([seen, *(a["no"] for a in queue.asks)])


def register(root: typer.Typer) -> None:
    """Add `requests` (Status) to the root app."""
    root.add_typer(app, name="requests", rich_help_panel="Status")
