"""`referee requests`: what the assistants asked from their phones (R46), and the GM's answer.

The queue lives in ``PATH.asks`` beside the evening (``referee.serve.asks``, E210). Listing or
declining a request never touches the evening; accepting one runs the very command line the GM
would type (``soul study Di amber``) through the one in-process runner, sealed to this evening,
and the log keeps who asked after its words (E214). `ok N` and `no N REASON` at the shell's
prompt are `requests accept N` and `requests decline N REASON`.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from referee.cli import runner
from referee.cli.context import current, db_path
from referee.cli.printing import echo, emit_json
from referee.errors import BadInput
from referee.serve import asks

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
    """Accept request ``no`` of ``evening``: a question answered, or its command run through the
    runner with who asked as the log's note (E214); the command's own answer printed, a
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
        told = asks.finish(evening, no, "accepted", " ".join((answer or "").split()) or None)
        echo(f"Answered {no} ({told['assistant']}): "
             + (f"their phone shows: {told['reason']}" if told["reason"] else
                "their phone shows the GM will answer in person"))
        return 0
    if answer:
        raise BadInput(f"request {no} is a {ask['kind']}; accept it with `ok {no}` alone (an "
                       "answer goes with a question) (E212)", ruling="E212")
    if dry:  # E133: what it would record; the queue is left as it is
        code, out, err = runner.run_line(["--dry-run", *ask["args"]], db=evening, sealed=True,
                                         note=asks.note(ask))
        _show(out, err)
        return code
    asks.claim(evening, no)
    try:
        code, out, err = runner.run_line(ask["args"], db=evening, sealed=True,
                                         note=asks.note(ask))
    except BaseException:
        asks.finish(evening, no, "open", None)
        raise
    _show(out, err)
    if code == 0:
        asks.finish(evening, no, "accepted", None)
        echo(f"Accepted {no}: {ask['assistant']}'s phone shows it; the log says who asked.")
    elif code == 2:
        why = _refusal(err)
        asks.finish(evening, no, "failed", why)
        echo(f"Request {no} was not recorded: the evening refused it; "
             f"{ask['assistant']}'s phone shows why.", err=True)
    else:  # a bug: the request waits again, nothing was recorded
        asks.finish(evening, no, "open", None)
    return code


def _refusal(err: str) -> str:
    lines = [ln.strip() for ln in err.splitlines() if ln.strip()]
    last = lines[0] if lines else "refused"
    return last.removeprefix("error: ")


def _show(out: str, err: str) -> None:
    if out:
        echo(out.rstrip("\n"))
    if err:
        echo(err.rstrip("\n"), err=True)


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
