"""The evening's commands: setup, betting, chips, seats, status, undo/redo, log, verify.

Each command is thin: open the evening, call one function of
``referee.evening.commands``, commit its events, render. Module-level imports
stay light so every command starts fast.
"""

import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Annotated, Any, Final, TypeVar

import typer

from referee.cli.context import db_path
from referee.cli.logs import amended_by
from referee.cli.output import emit_json, lit, say
from referee.errors import BadInput, IllegalAction, StoreError
from referee.jsontypes import JSONObject
from referee.names import plural

if TYPE_CHECKING:
    from referee.evening.events import EveningCreated, EveningEvent
    from referee.evening.state import State

STREAM: Final = "evening"
#: The records a command's build returns (``list[SoulStudied]`` for ``soul study`` ...).
E = TypeVar("E", bound="EveningEvent")

Json = Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")]
Chips = Annotated[
    str | None,
    typer.Option("--chips", help="Name the colours paid, COLOUR:N[,COLOUR:N] (R11)."),
]


def run(build: Callable[["State"], list[E]], extra: "JSONObject | None" = None,
        ) -> tuple["State", "State", list[E]]:
    """An evening command through the one transaction (``transaction.transact``); its log line is
    derived from the parsed arguments there, in one place (``transaction.command_text``), with
    ``extra`` for what the core chose (``build`` may fill it)."""
    from referee.cli.transaction import transact

    return transact(STREAM, build, extra=extra)


def read_state() -> "State":
    """The evening as it stands, without taking the lock (writes are atomic renames)."""
    from referee.evening.state import require_evening
    from referee.storage.store import open_evening

    with open_evening(db_path(), write=False) as ev:
        state: State = ev.state(STREAM)
    require_evening(state)
    return state


def report_change(before: "State", after: "State", events: list["EveningEvent"],
                  as_json: bool) -> None:
    from referee.cli import render

    if as_json:
        from referee.evening.views import status

        emit_json({"events": events, "status": status(after)})
        return
    render.announce(before, after, events)


# -- setup --------------------------------------------------------------------------------------


def new(
    fool: Annotated[str, typer.Option("--fool", help="The Fool: the GM's name at the table.")],
    seat: Annotated[
        list[str],
        typer.Option("--seat", help="NAME:ARCANUM:COLOUR[:ASSISTANT[:ARCANUM]], two to six."),
    ],
    scenario: Annotated[
        str | None, typer.Option("--scenario", help="A custom scenario TOML (souls, clues).")
    ] = None,
    own_colour_first: Annotated[
        bool, typer.Option(help="R11 option: a player's own colour is paid first.")
    ] = True,
    force: Annotated[
        bool, typer.Option("--force", help="Replace an existing evening (backed up first).")
    ] = False,
    as_json: Json = False,
) -> None:
    """Open an evening: the Fool, the seats, ten chips each, the bottled souls."""
    from referee.evening import commands, lookup, souls

    commands.check_seat_count(len(seat))
    specs = [lookup.parse_seat(s) for s in seat]
    from referee.content.scenario import load_scenario

    setup = souls.setup_from_scenario(load_scenario(scenario), specs)
    settings = {"r11_own_colour_first": own_colour_first}
    path = db_path()
    backup = None
    renewed = False

    def build(state: "State") -> list["EveningCreated"]:
        nonlocal backup, renewed
        events = commands.new_evening(state, fool, specs, now=time.time(), force=force,
                                      settings=settings, **setup)
        from referee.storage import files

        if files.DRY_RUN:  # E133: no backup and no new keys for an evening not written
            return events
        if state.started and force:
            backup = keep_replaced(path)
        # A new evening, new keys (E66): under the evening's lock, before the new evening is
        # written, so no old link ever opens it; the new assistants' links work at once.
        from referee.serve.access import replace_access

        renewed = replace_access(path, [s.assistant for s in specs if s.assistant]) is not None
        return events

    _, after, _ = run(build)
    if as_json:
        from referee.evening.views import status

        emit_json(status(after))
        return
    from referee.cli import render

    if backup:
        say(f"The old evening was backed up to {lit(backup)}.")
    if renewed:
        say("Every link and the station token are new with this evening; the old ones open "
            "nothing (E66). `referee links` prints the new ones.")
    render.evening_opened(after, path)


def keep_replaced(path: Any) -> str:
    """The old evening kept beside the new one, whole or not at all (E97): hard links (no
    space needed), else copies written like every evening write, its sealed segments with
    it so the kept copy opens and verifies (S51); a disk that refuses it is one line and
    leaves no partial copy."""
    from pathlib import Path

    from referee.storage.keep import keep

    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = Path(path).with_name(f"{Path(path).name}.replaced-{stamp}")
    try:
        keep(Path(path), target)
    except FileExistsError:
        raise StoreError(f"{target} already exists (an evening replaced a moment ago); "
                         "wait a second and type the command again") from None
    return str(target)


def status(
    at: Annotated[int | None, typer.Option(
        "--at", metavar="SEQ", min=1,
        help="The evening as it stood after command SEQ (the numbers `log` shows).")] = None,
    as_json: Json = False,
) -> None:
    """Chips by colour per person, dollars, the pot, whose turn, the clock."""
    from referee.evening import views

    when = None
    if at is None:
        state = read_state()
    else:
        from referee.cli.history import state_at

        state, when = state_at(at)  # E134: the clock too, as it stood then
    if as_json:
        emit_json(views.status(state, when))
        return
    from referee.cli import render

    if at is not None:
        say(f"As it stood after command #{at} (E134):")
    render.status(state, when)


# -- betting ------------------------------------------------------------------------------------


def _amount(text: str | None, action: str = "bet") -> int | None:
    """``N`` or ``all`` (E27) -> chips; None when not given."""
    from referee.evening.betting import ALL

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
    from referee.evening import play

    for word in (who, amount):  # unknown options reach here as words (`bet -1`, E27)
        if word is not None and word.startswith("-") and not word[1:].isdigit():

            raise BadInput(f"no such option: {word} (see `referee {action} --help`)")
    if amount is None and who is not None and _is_amount(who):
        who, amount = None, who  # `bet 3`: the amount, for the player to act
    n = _amount(amount, action)
    if chips is not None and not chips.strip():  # E46: an empty --chips is no default

        raise BadInput("--chips is empty; name the colours paid as COLOUR:N[,COLOUR:N], e.g. "
                       "--chips red:1, or leave --chips out", ruling="E46")
    before, after, events = run(lambda s: play.act(s, who, action, n, chips))
    report_change(before, after, events, as_json)


Who = Annotated[str | None, typer.Argument(
    metavar="[NAME]", help="The player; by default the player to act.", show_default=False)]
Amount = Annotated[str | None, typer.Argument(
    metavar="[N|all]", help="Chips (default 1; exactly 1 in the limit phase); `all` goes "
    "all-in (E27).", show_default=False)]


def bet(name: Who = None, n: Amount = None, chips: Chips = None, as_json: Json = False) -> None:
    """NAME (or the player to act) opens the round's betting with N chips (R12, R13)."""
    _action("bet", name, n, chips, as_json)


def raise_(name: Who = None, n: Amount = None, chips: Chips = None,
           as_json: Json = False) -> None:
    """NAME (or the player to act) raises by N over the bet (three raises a round when limit)."""
    _action("raise", name, n, chips, as_json)


def call(name: Who = None, chips: Chips = None, as_json: Json = False) -> None:
    """NAME (or the player to act) calls the bet; for more than they hold, all-in (R14)."""
    _action("call", name, None, chips, as_json)


def check(name: Who = None, as_json: Json = False) -> None:
    """NAME (or the player to act) checks: nothing to call."""
    _action("check", name, None, None, as_json)


def fold(name: Who = None, as_json: Json = False) -> None:
    """NAME (or the player to act) folds and is out of this hand."""
    _action("fold", name, None, None, as_json)


def open_phase(as_json: Json = False) -> None:
    """The Fool declares the open phase: antes, bets and raises at will (R13)."""
    from referee.evening import commands

    before, after, events = run(lambda s: commands.open_phase(s, now=time.time()))
    report_change(before, after, events, as_json)


# -- around the table ---------------------------------------------------------------------------

chips_app = typer.Typer(help="Chips away from the table (R16).", no_args_is_help=True)


@chips_app.command("give")
def chips_give(
    source: Annotated[str, typer.Argument(metavar="FROM")],
    target: Annotated[str, typer.Argument(metavar="TO")],
    chips: Annotated[str, typer.Argument(metavar="COLOUR:N[,COLOUR:N]")],
    as_json: Json = False,
) -> None:
    """FROM gives TO chips; both must be away from the table (the Law, R16)."""
    from referee.evening import commands

    before, after, events = run(lambda s: commands.give_chips(s, source, target, chips))
    report_change(before, after, events, as_json)


@chips_app.command("settle")
def chips_settle(
    source: Annotated[str, typer.Argument(metavar="FROM")],
    target: Annotated[str, typer.Argument(metavar="TO")],
    chips: Annotated[str, typer.Argument(metavar="COLOUR:N[,COLOUR:N]")],
    why: Annotated[str, typer.Option("--why", help="The reason, recorded with the ruling.")],
    as_json: Json = False,
) -> None:
    """The referee moves chips by ruling, between hands: a split overridden (R11), a dead
    player's chips settled (R22)."""
    from referee.evening import commands

    before, after, events = run(lambda s: commands.settle_chips(s, source, target, chips, why))
    report_change(before, after, events, as_json)


def rise(name: str, as_json: Json = False) -> None:
    """NAME rises from the table: keeps their chips, dealt out until they sit (R17)."""
    from referee.evening import commands

    report_change(*run(lambda s: commands.rise(s, name)), as_json)


def sit(name: str, as_json: Json = False) -> None:
    """NAME sits at the table again and is dealt into the next hand (R17)."""
    from referee.evening import commands

    report_change(*run(lambda s: commands.sit(s, name)), as_json)


def resign(name: str, as_json: Json = False) -> None:
    """NAME, whose side holds no chips, resigns for good (R17)."""
    from referee.evening import commands

    report_change(*run(lambda s: commands.resign(s, name)), as_json)


# -- the log ------------------------------------------------------------------------------------


def undo(
    table: Annotated[
        str | None, typer.Option("--table", help="Undo at a side table: scum, wager, fate.")
    ] = None,
    yes: Annotated[bool, typer.Option("--yes", help="Confirm undoing past a showdown.")] = False,
) -> None:
    """Take back the last command (whole), keeping it in the log of undone commands."""
    from referee.storage.store import open_evening

    stream = _table(table) or STREAM
    with open_evening(db_path()) as ev:
        last = ev.last_command(stream)
        if last is None:
            raise IllegalAction(f"nothing to undo at the {stream} table")
        if any(e["kind"] == "showdown" and e.get("hands") for e in last.events) and not yes:
            raise IllegalAction(f"`{last.text}` was a showdown: the cards were seen. Undo only "
                                "if the hand must be replayed; confirm with `referee undo --yes`")
        command = ev.undo(stream)

    say(f"Undone: [bold]{lit(command.text)}[/] ({plural(len(command.events), 'event')}); "
               "`referee redo` brings it back.")


def redo(
    table: Annotated[
        str | None, typer.Option("--table", help="Redo at a side table: scum, wager, fate.")
    ] = None,
) -> None:
    """Bring back the last undone command, if nothing was done since."""
    from referee.storage.store import open_evening

    with open_evening(db_path()) as ev:
        command = ev.redo(_table(table))

    say(f"Redone: [bold]{lit(command.text)}[/].")


def _table(text: str | None) -> str | None:
    """A table's stream by name or unique prefix: evening, scum, wager, fate."""
    if text is None:
        return None
    from referee.names import match_name
    from referee.streams import STREAMS

    return match_name(text, list(STREAMS), "table")


def log(
    person: Annotated[
        str | None, typer.Option("--person", help="Only commands naming this person.")
    ] = None,
    soul: Annotated[str | None, typer.Option("--soul", help="Only commands about this soul.")
                    ] = None,
    hand: Annotated[int | None, typer.Option("--hand", help="Only the commands of hand N.")
                    ] = None,
    table: Annotated[
        str | None, typer.Option("--table", help="Only this table: evening, scum, wager, fate.")
    ] = None,
    last: Annotated[
        int | None, typer.Option("--last", metavar="N", help="Only the newest N commands.")
    ] = None,
    form: Annotated[
        str | None, typer.Option("--format", metavar="jsonl|csv",
                                 help="One command a line, for spreadsheets (E137).")
    ] = None,
    as_json: Json = False,
) -> None:
    """The whole evening, command by command, oldest first; filter by person, soul or hand.

    --json streams the commands as it reads them, so a long night needs no more memory
    than a short one; --last N reads only as far back as it must.
    """
    from collections import deque

    from referee.storage.store import open_evening

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
            from referee.cli.logs import stream_rows

            stream_rows(commands, form, notes)
            return
        commands = list(commands)
    from referee.cli import render

    render.log(commands, undone, notes)


def _log_filter(state: Any, person: str | None, soul: str | None,
                hand: int | None) -> Callable[[Any], bool]:
    """Whether a command names ``person`` and is about ``soul`` (either may be absent)."""
    who = key = None
    # E46: a filter that matches nothing known is a mistake, not an empty log.
    if person is not None:
        from referee.names import match_name

        who = match_name(person, state.people if state.started else [], "person")
    if soul is not None:
        from referee.evening.souls import soul_key

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


def _stream_log_json(commands: Iterable[Any], undone: list[dict[str, Any]]) -> None:
    """``{"commands": [...], "undone": [...]}`` as emit_json prints it, one command at a time."""
    import json
    import sys

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
    import json

    needle = who.lower()
    return needle in text.lower() or needle in json.dumps(list(events)).lower()


def verify(
    as_json: Json = False,
    check_all: Annotated[
        bool, typer.Option("--all", help="Check every event again, not only the new ones.")
    ] = False,
) -> None:
    """Check the evening file: every sealed segment's bytes, the hash chain, the snapshots.

    Exit 2 on damage, naming the newest good backup. What an earlier verify replayed (sealed
    segments whose bytes are unchanged since) is not replayed again; --all replays everything.
    """
    import sys

    from referee.storage.audit import audit, load_trusted, save_trusted
    from referee.storage.files import check_path
    from referee.storage.store import open_evening

    path = db_path()
    check_path(path)  # a pipe, a device, a symlink loop: one line (E94)
    if not path.exists():
        raise StoreError(f"no evening file at {path}")
    progress = _progress if sys.stderr.isatty() and not as_json else None
    with open_evening(path, write=False, audit=True) as ev:  # a bad checksum is listed
        found = audit(ev, None if check_all else load_trusted(ev), progress)
        if progress is not None:
            sys.stderr.write("\r\033[K")
        if not found.problems:
            save_trusted(ev, found.sound)
        from referee.storage import links

        chain = links.check(ev)  # R43: the last evening, when it is beside this one
        if not found.problems:  # E141: each amendment replayed, here only
            from referee.cli.amend import recheck

            chain = [*recheck(ev), *chain]
        link = links.link(ev)
        beside = link is not None and links.previous_path(ev.path, link).is_file()
    problems = found.problems + chain
    backup = None
    if found.problems:  # damage: the way back is the newest good backup of this evening (E93)
        from referee.storage.backups import newest_good_backup

        backup = newest_good_backup(path)
    if as_json:
        emit_json({"ok": not problems, "events": found.events, "checked": found.checked,
                   "problems": problems, "backup": None if backup is None else str(backup)})
    else:
        from referee.cli import render

        render.verify(path, found.events, problems, backup, damaged=bool(found.problems))
        if link is not None and not problems:
            say(f"It carries on from {lit(link['file'])}, " + (
                "whose final digest matches the one it recorded (R43)." if beside else
                "which is not beside it, so that link is not checked (R43)."))
        if not problems and found.checked < found.events:
            say(f"{found.events - found.checked} of them were verified before and are "
                "unchanged; verify --all checks them again.")
    if problems:
        raise typer.Exit(2)  # damage is the GM's situation, not a bug (E93)


def _progress(done: int, total: int) -> None:
    import sys

    sys.stderr.write(f"\rverifying: segment {done} of {total}")
    sys.stderr.flush()


def register(app: typer.Typer) -> None:
    """Add the evening's commands to the root app, in the order of an evening."""
    app.command("new", rich_help_panel="Setup")(new)
    app.command("status", rich_help_panel="Status")(status)
    for fn, name in ((bet, "bet"), (raise_, "raise"), (call, "call"), (check, "check"),
                     (fold, "fold"), (open_phase, "open-phase")):
        # `bet -1` reaches the console's own "at least 1 chip" (E27), not "no such option".
        settings = {"ignore_unknown_options": True} if name in ("bet", "raise") else None
        app.command(name, rich_help_panel="Betting", context_settings=settings)(fn)
    app.add_typer(chips_app, name="chips", rich_help_panel="Chips and seats")
    for seat_fn in (rise, sit, resign):
        app.command(rich_help_panel="Chips and seats")(seat_fn)
    for log_fn in (undo, redo, log, verify):
        app.command(rich_help_panel="The log")(log_fn)
