"""The bodies of the evening's commands that run most at the table: `status`, the betting
moves, `chips give`, `log`, and what they share (the transaction, the state read, the answer
to a change).

Typer-free: ``referee.cli.table.evening`` gives them their parsed signatures, and
``referee.cli.entry`` calls the very same bodies for a command line it reads without typer.
Each body imports inside it what it alone needs: this module is on the path of the lines
typed most (``entry``), and of the `hand` rulings, which open no evening; `--json` answers do
without ``render``.
"""

import json
import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, Final

from referee.cli.context import db_path
from referee.cli.log_formats import amended_by, stream_rows
from referee.cli.printing import emit_json, say
from referee.errors import BadInput
from referee.names import match_name
from referee.streams import STREAMS

if TYPE_CHECKING:
    from referee.cli.transaction import Then
    from referee.evening.events import EveningEvent
    from referee.evening.state import State
    from referee.storage.tables import Undone
    from referee.table.api import Args

STREAM: Final = "evening"


def perform(name: str, args: "Args", then: "Then") -> None:
    """An evening command as a request to the table's API (``transaction.perform``), and
    ``then`` what the command does with the outcome (its answer)."""
    from referee.cli.transaction import perform as perform_request  # the writes only

    perform_request(name, args, then=then)


def read_state() -> "State":
    """The evening as it stands, without taking the lock (writes are atomic renames)."""
    from referee.evening.state import require_evening  # not for the `hand` rulings
    from referee.storage.store import open_evening

    with open_evening(db_path(), write=False) as ev:
        state: State = ev.state(STREAM)
    require_evening(state)
    return state


def reported(as_json: bool) -> "Then":
    """What most evening commands do with their move's outcome: say the change it made, or
    print it as JSON (``report_change``)."""
    return lambda outcome: report_change(*outcome, as_json)


def report_change(before: "State", after: "State", events: list["EveningEvent"],
                  as_json: bool) -> None:
    if as_json:
        from referee.evening.views import status  # each answer imports what it prints with

        emit_json({"events": events, "status": status(after)})
        return
    from referee.cli.output import render

    render.announce(before, after, events)


def show_status(at: int | None, as_json: bool) -> None:
    """`status [--at SEQ] [--json]`."""
    from referee.evening import views  # status only, as history and render below

    when = None
    if at is None:
        state = read_state()
    else:
        from referee.cli.table.history import state_at

        state, when = state_at(at)  # E134: the clock too, as it stood then
    if as_json:
        emit_json(views.status(state, when))
        return
    from referee.cli.output import render

    if at is not None:
        say(f"As it stood after command #{at} (E134):")
    render.status(state, when)



def _amount(text: str | None, action: str = "bet") -> int | None:
    """``N`` or ``all`` (E27) -> chips; None when not given."""
    from referee.evening.state import ALL  # every chip held (E27)

    if text is None:
        return None
    if text.lower() == "all":
        return ALL
    if text.isascii() and text.startswith("-") and text[1:].isdigit():  # `bet -1`: E27
        raise BadInput(f"a {action} is at least 1 chip, not {text}; write a whole number of "
                       "chips, or `all` to go all-in (E27)", ruling="E27")
    if not (text.isascii() and text.isdigit()):  # `²` is a digit to Python, not to int()
        raise BadInput(f"bad amount {text!r}; write a whole number of chips, or `all` to go "
                       "all-in (E27)", ruling="E27")
    return int(text)


def _is_amount(text: str) -> bool:
    return (text.isascii() and text.lstrip("-").isdigit()) or text.lower() == "all"


def _action(action: str, who: str | None, amount: str | None, chips: str | None,
            as_json: bool) -> None:

    for word in (who, amount):  # unknown options reach here as words (`bet -1`, E27)
        if word is not None and word.startswith("-") and not word[1:].isdigit():

            raise BadInput(f"no such option: {word} (see `referee {action} --help`)")
    if amount is None and who is not None and _is_amount(who):
        who, amount = None, who  # `bet 3`: the amount, for the player to act
    n = _amount(amount, action)
    if chips is not None and not chips.strip():  # E46: an empty --chips is no default

        raise BadInput("--chips is empty; name the colours paid as COLOUR:N[,COLOUR:N], e.g. "
                       "--chips red:1, or leave --chips out", ruling="E46")
    perform(action, {"who": who, "action": action, "amount": n, "chips_text": chips},
            then=reported(as_json))



def give(source: str, target: str, chips: str, as_json: bool) -> None:
    """`chips give FROM TO COLOUR:N[,COLOUR:N] [--json]`."""
    perform("chips give", {"source": source, "target": target, "chips_text": chips},
            then=reported(as_json))



def show_log(person: str | None, soul: str | None, hand: int | None, table: str | None,
             last: int | None, form: str | None, as_json: bool) -> None:
    """`log` with its filters (``evening.log``)."""
    from referee.storage.store import open_evening  # not for the `hand` rulings

    if last is not None and last < 1:
        raise BadInput(f"--last {last}: give how many of the newest commands to show, 1 or more")
    if form is not None:
        form = form.lower()
        if form not in ("jsonl", "csv"):
            raise BadInput(f"--format {form}: give jsonl or csv (E137)", ruling="E137")
        if as_json:
            raise BadInput("give --json or --format, not both (E137)", ruling="E137")
    table = _table(table)
    with open_evening(db_path(), write=False) as ev:
        undone = ev.undone()
        state = ev.state(STREAM)  # folded even unfiltered: a damaged snapshot is refused (E40)
        filtered = person is not None or soul is not None or hand is not None
        keep = _log_filter(state, person, soul, hand) if filtered else None
        if last is not None and not filtered:
            commands: Iterable[Any] = ev.last_commands(last, table)
        else:
            commands = ev.iter_commands(table)
            if keep is not None:
                commands = filter(keep, commands)
            if hand is not None:
                commands = _of_hand(commands, hand)
            if last is not None:
                commands = deque(commands, maxlen=last)
        if as_json:
            _stream_log_json(commands, undone)
            return
        notes = amended_by(ev)  # E138
        if form is not None:
            stream_rows(commands, form, notes)
            return
        commands = list(commands)
    from referee.cli.output import render

    render.log(commands, undone, notes)



def _log_filter(state: Any, person: str | None, soul: str | None,
                hand: int | None) -> Callable[[Any], bool]:
    """Whether a command names ``person`` and is about ``soul`` (either may be absent)."""
    who = key = None
    # E46: a filter that matches nothing known is a mistake, not an empty log.
    if person is not None:
        who = match_name(person, state.people if state.started else [], "person")
    if soul is not None:
        from referee.evening.souls import soul_key  # `log --soul` only

        key = soul_key(state, soul)
    if hand is not None and not 1 <= hand <= state.hands_played + (state.hand is not None):

        played = state.hands_played + (state.hand is not None)
        raise BadInput(f"--hand {hand}: no such hand; "
                       + (f"hands 1 to {played} were dealt" if played else
                          "no hand has been dealt yet"), ruling="E46")

    def keep(c: Any) -> bool:
        if who is not None and not _mentions(c.text, c.events, who):
            return False
        return key is None or any(e.get("soul") == key for e in c.events)

    return keep


def _stream_log_json(commands: Iterable[Any], undone: list["Undone"]) -> None:
    """``{"commands": [...], "undone": [...]}`` as emit_json prints it, one command at a time."""
    out = sys.stdout
    out.write('{"commands": [')
    for n, c in enumerate(commands):
        item = {"cmd": c.cmd, "table": c.stream, "text": c.text, "time": c.time,
                "events": list(c.events)}
        out.write((", " if n else "") + json.dumps(item, ensure_ascii=False))
    out.write('], "undone": ' + json.dumps(undone, ensure_ascii=False) + "}\n")


def _of_hand(commands: Iterable[Any], no: int) -> Iterator[Any]:
    """The commands from the start of hand ``no`` to its showdown (evening table only)."""
    inside = False
    for c in commands:
        if c.stream != STREAM:
            continue
        if any(e["kind"] == "hand_started" for e in c.events):
            inside = any(e["kind"] == "hand_started" and e["no"] == no for e in c.events)
        if inside:
            yield c
            if any(e["kind"] == "showdown" for e in c.events):
                inside = False


def _mentions(text: str, events: tuple[Mapping[str, Any], ...], who: str) -> bool:
    needle = who.lower()
    return needle in text.lower() or needle in json.dumps(list(events)).lower()



def _table(text: str | None) -> str | None:
    """A table's stream by name or unique prefix: evening, scum, wager, fate."""
    if text is None:
        return None

    return match_name(text, list(STREAMS), "table")


