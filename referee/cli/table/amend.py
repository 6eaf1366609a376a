"""`referee amend SEQ -- NEW COMMAND`: replace past commands, replay the rest (E138-E141).

One amendment may replace several commands and drop others (E140): ``amend 3 -- hand show
Cy '2C 3W' -- 5 -- bet Ada --drop 6``. The evening up to the first of them is written to a
scratch file in a temporary folder, and from there every command of the evening table is made
again through the table's API: each line read by its command's own parser into its request
(``referee.cli.requests.parse``) and made there (``referee.table.api.perform``), a replaced
one as it should have been, a dropped one not at all, every other one exactly as typed; the
two timelines are compared (``referee.evening.amend``). Only with ``--yes`` is anything
recorded: one ``command_amended`` event in the real evening, under its lock, carrying the replay.
"""

from __future__ import annotations

import re
import shlex
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NamedTuple, TypedDict

import typer

from referee.cli.context import current, db_path
from referee.cli.printing import emit_json, lit, say
from referee.cli.requests import parse as parse_request
from referee.cli.suggest import told
from referee.errors import BadInput, IllegalAction, RefereeError
from referee.evening import amend as amending
from referee.evening.amend import amendment
from referee.evening.amend import recheck as rechecking
from referee.evening.state import require_evening
from referee.storage.store import WRITTEN, open_evening
from referee.streams import plain, spec
from referee.table.api import perform

if TYPE_CHECKING:
    from referee.evening.events import Dropped, Replaced, Replayed, Rippled
    from referee.evening.state import State

#: Words of the first command that make no sense as an amendment (E139).
NOT_COMMANDS = ("amend", "undo", "redo", "shell", "serve", "watch", "demo", "next", "new")
#: Options of `amend` itself, typed at the end of the line (after the last command).
TRAILING = ("--yes", "--dry-run", "--json")
#: The root options a command line may carry anywhere (``guard.hoist_root_options``).
ROOT_FLAGS = ("--debug", "--explain", "--dry-run")


class Plan(NamedTuple):
    """What one amendment does (E140): the new words of each replaced command, in the order
    typed, and the commands dropped."""

    changes: dict[int, list[str]]
    drops: list[int]

    def line(self, *, yes: bool = False) -> str:
        """The amendment as it is typed: ``amend 3 --drop 6 -- hand show ... -- 5 -- bet``."""
        words = ["amend"]
        seqs = sorted(self.changes)
        if seqs:
            words.append(str(seqs[0]))
        if yes:
            words.append("--yes")
        for d in self.drops:
            words += ["--drop", str(d)]
        for n, seq in enumerate(seqs):
            words += ["--", *([] if n == 0 else [str(seq), "--"]), *self.changes[seq]]
        return shlex.join(words)


def parse(seq: int | None, words: list[str], drops: list[int]) -> tuple[Plan, set[str]]:
    """The plan of ``amend [SEQ] [--drop N ...] [-- COMMAND [-- SEQ -- COMMAND ...]]`` and the
    options of `amend` typed at the end (E140). A group starts only at ``-- N --`` (a number
    alone between two ``--``), which no command of the console contains.

    Raises:
        BadInput: no command and nothing dropped, a number named twice, or a command that
            cannot stand in for a past one (E139).
    """

    words, flags, drops = list(words), set(), list(drops)
    while words and (words[-1] in TRAILING or (len(words) > 1 and words[-2] == "--drop"
                                               and words[-1].isdigit())):
        if words[-1] in TRAILING:
            flags.add(words.pop())
        else:
            drops.insert(0, int(words.pop()))
            words.pop()
    groups: list[tuple[int | None, list[str]]] = [(seq, [])]
    i = 0
    while i < len(words):
        if (words[i] == "--" and i + 2 < len(words) and words[i + 1].isdigit()
                and words[i + 2] == "--"):
            groups.append((int(words[i + 1]), []))
            i += 3
            continue
        groups[-1][1].append(words[i])
        i += 1
    example = ("`referee amend 3 -- hand show Cy '2C 3W'`, several at once `referee amend 3 "
               "-- hand show Cy '2C 3W' -- 5 -- bet Ada --drop 6`")
    changes: dict[int, list[str]] = {}
    for n, (at, typed) in enumerate(groups):
        if at is None:
            if typed:
                raise BadInput(f"give the number of the command to amend before `--`: {example}"
                               " (E140)", ruling="E140")
            continue
        if not typed:
            if n == 0 and drops and at in drops:
                continue  # `amend 5 --drop 5`: nothing but the drop
            raise BadInput(f"give the new command for #{at} after `--` (or drop it with "
                           f"`--drop {at}`): {example} (E140)", ruling="E140")
        if at in changes or at in drops:
            raise BadInput(f"#{at} is named twice in one amendment; give it once, a new "
                           "command or `--drop` (E140)", ruling="E140")
        _check_words(typed)
        changes[at] = typed
    if len(set(drops)) < len(drops):
        raise BadInput("a command is dropped twice in one amendment; drop it once (E140)",
                       ruling="E140")
    if not changes and not drops:
        raise BadInput(f"give the new command after `--`: {example}, or drop one with "
                       "`referee amend --drop 5` (E140)", ruling="E140")
    return Plan(changes, sorted(drops)), flags


def _number(text: str, option: str = "") -> int:
    """A command's number as typed (E140): a whole number from 1, else one line saying so."""

    if not text.isdigit() or int(text) < 1:
        raise BadInput(f"{option}{text!r} is no command number: give the number `referee log` "
                       "shows, `referee amend 3 -- hand show Cy '2C 3W'` or `referee amend "
                       "--drop 6` (E140)", ruling="E140")
    return int(text)


def _check_words(words: list[str]) -> None:
    if words[0] in NOT_COMMANDS:
        raise BadInput(f"`{words[0]}` cannot stand in for a past command; give a command of "
                       "the evening table after `--` (E139)", ruling="E139")
    from referee.cli.room.station import refusal  # amend's own: verify loads this module too

    why = refusal(words)  # E65, E54: it runs on a scratch evening and reaches nothing else
    if why is not None:
        raise BadInput(f"`{shlex.join(words)}` cannot stand in for a past command: "
                       f"{why.split(' (E')[0]}; an amendment reaches its own evening only "
                       "(E139)", ruling="E139")
    command = [w for w in words if w not in ROOT_FLAGS]  # `--db` was refused just above
    if not command or command[0].startswith("-") or "--help" in command:
        # E180: an option where the command goes, or help, which records nothing: refused
        # here, before the evening is replayed at all.
        what = "`--help` records nothing" if "--help" in command else (
            f"`{command[0] if command else words[0]}` is an option, not a command")
        raise BadInput(f"{what}: give a command of the evening table after `--`, "
                       "`referee amend 3 -- hand show Cy '2C 3W'` (E180)", ruling="E180")


def amend(
    seq: Annotated[str | None, typer.Argument(
        metavar="SEQ", show_default=False,
        help="The command to replace (the number `log` shows).")] = None,
    words: Annotated[list[str] | None, typer.Argument(
        metavar="-- NEW COMMAND [-- SEQ -- COMMAND ...]", show_default=False,
        help="The command as it should have been, after `--`; `-- SEQ -- COMMAND` replaces "
             "another one in the same amendment.")] = None,
    drop: Annotated[list[str] | None, typer.Option(
        "--drop", metavar="SEQ", show_default=False,
        help="Drop a later command from the timeline (repeatable).")] = None,
    yes: Annotated[bool, typer.Option("--yes", help="Record the amendment.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")
                       ] = False,
) -> None:
    """Replace past command SEQ (a wrong card, a forgotten up card, a misheard bet) and replay
    everything after it: lists every outcome that changes (openers, pots and who won them,
    points, promotions). A later command that no longer applies is named, with the ways on:
    replace it too (`-- 5 -- bet Ada`), drop it (`--drop 5`), or undo back and retype.
    Only --yes records it; the log keeps both versions (E138, E140)."""
    plan, flags = parse(None if seq is None else _number(seq), list(words or []),
                        [_number(d, "--drop ") for d in drop or []])
    yes, as_json = yes or "--yes" in flags, as_json or "--json" in flags
    dry = current().dry_run or "--dry-run" in flags  # E133: this run's, no flag of the process
    with open_evening(db_path(), dry=dry) as ev:
        result = _replay(ev, plan)
        recorded = False
        if yes and not dry:
            event = amendment(result["first"], result["old"], result["new"],
                              result["replayed"], result["state"], result["ripple"],
                              changed=result["changed"], dropped=result["dropped"])
            # The log text as retyped, each new command after its `--`, so that its options
            # stay its own (the one place that builds other lines, `command_text`, knows no
            # `--`).
            ev.commit("evening", [event], plan.line(yes=True))
            recorded = True
    _show(result, plan, recorded=recorded, dry=dry, as_json=as_json)


class Amendment(TypedDict):
    """The new timeline an amendment makes (E138, E140): what ``amend`` shows and what its
    ``command_amended`` event records. The lists are the event's, as it stores them: each
    replaced command (cmd, old, new), each dropped one (cmd, text), every command replayed
    (cmd, text, events), every outcome that changes (what, before, after)."""

    first: int                       # the first command the amendment reaches
    old: str                         # its text as it was
    new: str                         # its text now ("" when it is dropped)
    changed: list[Replaced]
    dropped: list[Dropped]
    replayed: list[Replayed]
    state: State                     # the evening as the replay leaves it
    ripple: list[Rippled]
    later: int                       # how many later commands are replayed as typed


class _Cmd(NamedTuple):
    cmd: int
    text: str
    events: list[Any]


def _replay(ev: Any, plan: Plan) -> Amendment:
    """The new timeline: the evening to just before the first command named, then every later
    command of the evening table, replaced, dropped or as typed; the ripple against the old."""
    from referee.evening import ripple as rippling  # as station in _check_words

    require_evening(ev.state("evening"))
    commands = [_Cmd(*c) for c in amending.effective(
        (c.cmd, c.text, [plain(e) for e in c.events]) for c in ev.iter_commands("evening"))]
    where = {c.cmd: i for i, c in enumerate(commands)}
    for seq in [*plan.changes, *plan.drops]:
        if seq not in where:
            raise BadInput(f"no evening command #{seq} to amend (undone, a side table's, or "
                           "not typed yet); `referee log` numbers them (E138)", ruling="E138")
        target = commands[where[seq]]
        amending.check_target(seq, target.text, list(target.events))
    index = min(where[s] for s in [*plan.changes, *plan.drops])
    amending.check_replayable((c.cmd, c.text, list(c.events)) for c in commands[index + 1:])
    sp = spec("evening")
    undos = sum(1 for c in ev.iter_commands("evening") if c.cmd >= commands[index].cmd)
    # The scratch evening is written, whatever the real one is: its opens are not dry (E230).
    with tempfile.TemporaryDirectory(prefix="referee-amend-") as folder:
        replayed = _timeline(Path(folder) / "replay.json", commands, index, plan, undos)
    old = rippling.outcomes(([plain(e) for e in c.events] for c in commands), sp.empty(),
                            sp.apply)
    prefix = ([plain(e) for e in c.events] for c in commands[:index])
    fresh = rippling.outcomes([*prefix, *(r.events for r in replayed)], sp.empty(), sp.apply)
    first = commands[index]
    texts = {r.cmd: r.text for r in replayed}
    changed: list[Replaced] = [{"cmd": c.cmd, "old": c.text, "new": texts[c.cmd]}
                               for c in commands[index:] if c.cmd in plan.changes]
    dropped: list[Dropped] = [{"cmd": c.cmd, "text": c.text}
                              for c in commands[index:] if c.cmd in plan.drops]
    same = next((c for c in changed if c["old"] == c["new"]), None)
    if same is not None:
        raise BadInput(f"#{same['cmd']} is already `{same['old']}`: give the command as it should "
                       "have been (E140)", ruling="E140")
    return {"first": first.cmd, "old": first.text, "new": texts.get(first.cmd, ""),
            "changed": changed, "dropped": dropped,
            "replayed": [{"cmd": r.cmd, "text": r.text, "events": r.events} for r in replayed],
            "state": fresh["state"], "ripple": rippling.ripple(old, fresh),
            "later": sum(1 for c in commands[index:] if c.cmd not in plan.changes
                         and c.cmd not in plan.drops)}


def _timeline(scratch: Path, commands: list[Any], index: int, plan: Plan, undos: int
              ) -> list[_Cmd]:
    """Write the evening before ``commands[index]`` to ``scratch`` and run every command from
    there: the new words of a replaced one, nothing of a dropped one, the others as typed.
    Each as (cmd, text, events)."""
    with open_evening(scratch) as t:
        for c in commands[:index]:
            t.commit("evening", [plain(e) for e in c.events], c.text)
    _forget(scratch)
    replayed: list[_Cmd] = []
    for c in commands[index:]:
        if c.cmd in plan.drops:
            continue
        new = plan.changes.get(c.cmd)
        # A note after the words (who asked, E214) is a comment, as the shell reads it.
        words = new if new is not None else shlex.split(c.text, comments=True)
        again = _run(scratch, words, c, new, plan, undos)
        if again is None:
            what = (f"the new command for #{c.cmd}, `{shlex.join(new)}`," if new is not None
                    else f"after the amendment, #{c.cmd} `{c.text}`")
            raise IllegalAction(f"{what} would record nothing; {_ways(c, plan, undos, new)} "
                                "(E140)", ruling="E140")
        replayed.append(_Cmd(c.cmd, again[0], again[1]))
    return replayed


def _forget(scratch: Path) -> None:
    """The scratch evening's writes are no command of the GM's: were the amendment refused
    after them, the boundary must not call it recorded (E180)."""
    WRITTEN[:] = [w for w in WRITTEN if w.get("file") != str(scratch)]


def _ways(c: Any, plan: Plan, undos: int, new: list[str] | None) -> str:
    """The ways on past a command the amendment cannot replay (E140): replace it too, drop
    it, or undo back and type the evening again."""
    first = min([*plan.changes, *plan.drops])
    ways = [f"give #{c.cmd} another command"] if new is not None else [
        "replace it too (`referee "
        f"{Plan({**plan.changes, c.cmd: ['COMMAND']}, plan.drops).line()}`)"]
    rest = {k: v for k, v in plan.changes.items() if k != c.cmd}
    ways.append(f"drop it (`referee {Plan(rest, sorted({*plan.drops, c.cmd})).line()}`)")
    ways.append(f"`referee undo` {undos} time{'' if undos == 1 else 's'} and type again from "
                f"#{first}")
    return ", ".join(ways[:-1]) + " or " + ways[-1] + "; nothing was written"


#: The console's own way on, cut from a replayed command's refusal: on the scratch evening it
#: names commands the GM is not about to type (the amendment's ways on are given instead).
_HINT = re.compile(r"[:;] `referee .*$")


def _run(scratch: Path, words: list[str], was: Any, new: list[str] | None, plan: Plan,
         undos: int) -> tuple[str, list[Any]] | None:
    """Run one line on the scratch evening: its log text and events, None if it recorded
    nothing. A refusal is the amendment's refusal, naming the command and the ways on (E140)."""
    with open_evening(scratch, write=False) as t:
        count = t.meta["next_cmd"]
    try:  # read by the command's own parser into its request, made on the scratch evening
        request = parse_request(words, evening=scratch)
        if request is None:
            raise BadInput(f"`{shlex.join(words)}` is no move of the evening's table")
        perform(request)
    except RefereeError as exc:
        _forget(scratch)
        why = told(exc).removeprefix("error: ")
        why = _HINT.sub("", why.split(" (E")[0]).rstrip(" .;:")
        if new is not None:
            raise IllegalAction(f"the new command for #{was.cmd}, `{shlex.join(words)}`, does "
                                f"not apply there: {why}; {_ways(was, plan, undos, new)} "
                                "(E140)", ruling="E140") from None
        raise IllegalAction(f"after the amendment, #{was.cmd} `{was.text}` no longer applies: "
                            f"{why}; {_ways(was, plan, undos, None)} (E140)",
                            ruling="E140") from None
    _forget(scratch)
    with open_evening(scratch, write=False) as t:
        if t.meta["next_cmd"] == count:
            return None
        last = t.last_commands(1, "evening")[0]
        return last.text, [dict(e) for e in last.events]


def _show(result: Amendment, plan: Plan, *, recorded: bool, dry: bool, as_json: bool
          ) -> None:
    first = result["first"]
    if as_json:
        emit_json({"cmd": first, "old": result["old"], "new": result["new"],
                   "changed": result["changed"], "dropped": result["dropped"],
                   "replayed": result["later"], "ripple": result["ripple"],
                   "recorded": recorded})
        return
    changed = ", ".join(f"#{c['cmd']} `{lit(c['old'])}` to `{lit(c['new'])}`"
                        for c in result["changed"])
    dropped = ", ".join(f"#{d['cmd']} `{lit(d['text'])}`" for d in result["dropped"])
    what = (f"Amending {changed}" if changed else "") + (
        ("; dropping " if changed else "Dropping ") + dropped if dropped else "")
    later = result["later"]
    say(f"{what}: {later} later command{'' if later == 1 else 's'} replayed as "
        "typed (E138, E140).")
    if not result["ripple"]:
        say("  No opener, pot, winner, status point or promotion changes.")
    for r in result["ripple"]:
        say(f"  {lit(r['what'])}: {lit(_text(r['before']))} -> {lit(_text(r['after']))}")
    if recorded:  # each command by what befell it: one amended, another dropped (E138)
        done = [f"#{c['cmd']} is amended" for c in result["changed"]] + [
            f"#{d['cmd']} is dropped" for d in result["dropped"]]
        say(f"Recorded: {', '.join(done)}; the log keeps both versions, `referee log` marks "
            "it, and `referee undo` takes the amendment back (E138).")
    elif dry:
        say("Dry run: nothing was written (E133).")
    else:
        say(f"Nothing was written: `referee {lit(plan.line(yes=True))}` records it (E138).")


def _text(value: Any) -> str:
    if value is None:  # no opener yet, no showdown yet
        return "not yet"
    if isinstance(value, list):
        return "; ".join(str(v) for v in value) or "none"
    return str(value)


def register(app: typer.Typer) -> None:
    app.command("amend", rich_help_panel="The log")(amend)


def recheck(ev: Any) -> list[str]:
    """Every recorded amendment replayed from the log (E141): what `verify` adds to the chain.
    A full fold of the evening for each amendment, so it runs in `verify` only, and not at
    all for an evening that records none (its folded state lists every amendment, and the
    chain and the snapshots that `verify` checks first vouch for the fold)."""
    if not ev.state("evening").amendments:
        return []
    sp = spec("evening")
    return rechecking(((c.cmd, c.text, [plain(e) for e in c.events])
                       for c in ev.iter_commands("evening")), sp.empty(), sp.apply)
