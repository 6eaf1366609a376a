"""The evening's commands: setup, betting, chips, seats, status, undo/redo, log, verify.

Each command is thin: open the evening, call one function of
``referee.evening.commands``, commit its events, render. The module is loaded by these
commands only (``referee.cli.main.TREE``): at its top what they all use (the store); the
commands, the answers' render and what one command alone needs stay in the commands that use
them (`undo`, `redo`, `verify` and `log` fold no state through ``referee.evening.commands``).
The lines typed most run their bodies without this module (``entry``, ``typed_most``).
"""

import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from referee.cli.context import current, db_path
from referee.cli.options import Json
from referee.cli.printing import emit_json, lit, say
from referee.cli.transaction import transact
from referee.cli.typed_most import (  # the bodies, typer-free: `referee.cli.entry` runs them too
    STREAM,
    _action,
    _table,
    give,
    perform,
    reported,
    show_log,
    show_status,
)
from referee.errors import IllegalAction, StoreError
from referee.names import plural
from referee.storage import files, keep, layout
from referee.storage.backups import missing_message, newest_good_backup, put_back, set_aside
from referee.storage.files import check_path
from referee.storage.store import open_evening

if TYPE_CHECKING:
    from referee.evening.events import EveningCreated
    from referee.evening.state import State


Chips = Annotated[
    str | None,
    typer.Option("--chips", help="Name the colours paid, COLOUR:N[,COLOUR:N] (R11)."),
]


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
    from referee.evening import commands, lookup, souls  # `new`'s, as its scenario below

    commands.check_seat_count(len(seat))
    specs = [lookup.parse_seat(s) for s in seat]
    from referee.content.scenario import load_scenario

    setup = souls.setup_from_scenario(load_scenario(scenario), specs)
    settings = {"r11_own_colour_first": own_colour_first}
    path = db_path()
    dry = current().dry_run
    backup = aside = None
    renewed = False

    def build(state: "State") -> list["EveningCreated"]:
        nonlocal backup, aside, renewed
        events = commands.new_evening(state, fool, specs, now=time.time(), force=force,
                                      settings=settings, **setup)

        if dry:  # E133: no backup and no new keys for an evening not written
            return events
        if state.started and force:
            backup = keep_replaced(path)
        elif force:  # E182: a deleted evening's backups and segments, set aside whole
            aside = set_aside_leftovers(path)
        # A new evening, new keys (E66): under the evening's lock, before the new evening is
        # written, so no old link ever opens it; the new assistants' links work at once.
        # The new evening's keys, and no request of the old one (E210): here only.
        from referee.serve import access, asks

        helpers = [s.assistant for s in specs if s.assistant]
        renewed = access.replace_access(path, helpers, dry=dry) is not None
        asks.forget(path)
        return events

    try:
        _, after, _ = transact("evening", build, fresh=force)
    except BaseException:
        # Refused after the old evening was kept (a full disk, E40): nothing was replaced,
        # so nothing is left kept either (E97).
        if backup:
            keep.discard(Path(backup))
        if aside:
            put_back(path, Path(aside))
        raise
    if as_json:
        from referee.evening.views import status

        emit_json(status(after))
        return
    from referee.cli.output import render

    if backup:
        say(f"The old evening was backed up to {lit(backup)}.")
    if aside:
        say(f"The backups and segments of the evening deleted here were kept as "
            f"{lit(aside)}.bak.N (copy one to {lit(aside)} to open it) (E182).")
    if renewed:
        say("Every link and the station token are new with this evening; the old ones open "
            "nothing (E66). `referee links` prints the new ones.")
    render.evening_opened(after, path)


def keep_replaced(path: Any) -> str:
    """The old evening kept beside the new one, whole or not at all (E97): hard links (no
    space needed), else copies written like every evening write, its sealed segments with
    it so the kept copy opens and verifies (S51); a disk that refuses it is one line and
    leaves no partial copy."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = Path(path).with_name(f"{Path(path).name}.replaced-{stamp}")
    try:
        keep.keep(Path(path), target)
    except FileExistsError:
        raise StoreError(f"{target} already exists (an evening replaced a moment ago); "
                         "wait a second and type the command again") from None
    return str(target)


def set_aside_leftovers(path: Any) -> str | None:
    """The backups and segments of a deleted evening beside ``path`` kept under another name
    (``new --force``, E182), as ``keep_replaced`` keeps a replaced evening; None if none."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    kept = Path(path).with_name(f"{Path(path).name}.replaced-{stamp}")
    try:
        moved = set_aside(Path(path), kept)
    except FileExistsError:
        raise StoreError(f"{kept} already exists (an evening replaced a moment ago); wait a "
                         "second and type the command again") from None
    except OSError as exc:
        raise files.write_failure(Path(path), exc) from None
    return str(kept) if moved else None


def status(
    at: Annotated[int | None, typer.Option(
        "--at", metavar="SEQ", min=1,
        help="The evening as it stood after command SEQ (the numbers `log` shows).")] = None,
    as_json: Json = False,
) -> None:
    """Chips by colour per person, dollars, the pot, whose turn, the clock."""
    show_status(at, as_json)


# -- betting ------------------------------------------------------------------------------------


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
    perform("open-phase", {"now": time.time()}, then=reported(as_json))


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
    give(source, target, chips, as_json)


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
    perform("chips settle", {"source": source, "target": target, "chips_text": chips, "why": why},
            then=reported(as_json))


def rise(name: str, as_json: Json = False) -> None:
    """NAME rises from the table: keeps their chips, dealt out until they sit (R17)."""

    perform("rise", {"who": name}, then=reported(as_json))


def sit(name: str, as_json: Json = False) -> None:
    """NAME sits at the table again and is dealt into the next hand (R17)."""

    perform("sit", {"who": name}, then=reported(as_json))


def resign(name: str, as_json: Json = False) -> None:
    """NAME, whose side holds no chips, resigns for good (R17)."""

    perform("resign", {"who": name}, then=reported(as_json))


# -- the log ------------------------------------------------------------------------------------


def undo(
    table: Annotated[
        str | None, typer.Option("--table", help="Undo at a side table: scum, wager, fate.")
    ] = None,
    yes: Annotated[bool, typer.Option("--yes", help="Confirm undoing past a showdown.")] = False,
) -> None:
    """Take back the last command (whole), keeping it in the log of undone commands."""
    stream = _table(table) or STREAM
    with open_evening(db_path(), dry=current().dry_run) as ev:
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
    with open_evening(db_path(), dry=current().dry_run) as ev:
        command = ev.redo(_table(table))

    say(f"Redone: [bold]{lit(command.text)}[/].")


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
    show_log(person, soul, hand, table, last, form, as_json)


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
    from referee.storage.audit import audit, load_trusted, save_trusted  # verify's own

    path = db_path()
    check_path(path)  # a pipe, a device, a symlink loop: one line (E94)
    if not path.exists():  # its backups beside it: deleted by mistake (E182)
        raise StoreError(missing_message(path) or f"no evening file at {path}")
    progress = _progress if sys.stderr.isatty() and not as_json else None
    tinydb = layout.check(path)  # E161, before the evening is held (E99)
    with open_evening(path, write=False, audit=True, dry=current().dry_run) as ev:  # E133
        found = audit(ev, None if check_all else load_trusted(ev), progress, tinydb)
        if progress is not None:
            sys.stderr.write("\r\033[K")
        if not found.problems:
            save_trusted(ev, found.sound)
        from referee.storage import links

        chain = links.check(ev)  # R43: the last evening, when it is beside this one
        if not found.problems:  # E141: each amendment replayed, here only
            from referee.cli.table.amend import recheck

            chain = [*recheck(ev), *chain]
        link = links.link(ev)
        beside = link is not None and links.previous_path(ev.path, link).is_file()
    problems = found.problems + chain
    backup = None
    if found.problems:  # damage: the way back is the newest good backup of this evening (E93)
        backup = newest_good_backup(path)
    if as_json:
        emit_json({"ok": not problems, "events": found.events, "checked": found.checked,
                   "problems": problems, "backup": None if backup is None else str(backup)})
    else:
        from referee.cli.output import render

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
