"""`referee amend SEQ -- NEW COMMAND`: replace a past command, replay the rest (E138, E139).

The evening up to the command is written to a scratch file beside nothing (a temporary
folder), the new command and every later command of the evening table are run there again
through the in-process runner, exactly as typed, and the two timelines are compared
(``referee.evening.amend``). Only with ``--yes`` is anything recorded: one
``command_amended`` event in the real evening, under its lock, carrying the replay.
"""

from __future__ import annotations

import shlex
import tempfile
from pathlib import Path
from typing import Annotated, Any, NamedTuple

import typer

from referee.cli.context import db_path
from referee.cli.output import emit_json, lit, say
from referee.errors import BadInput, IllegalAction

#: Words of the first command that make no sense as an amendment (E139).
NOT_COMMANDS = ("amend", "undo", "redo", "shell", "serve", "watch", "demo", "next", "new")


def amend(
    seq: Annotated[int, typer.Argument(metavar="SEQ", min=1,
                                       help="The command to replace (the number `log` shows).")],
    words: Annotated[list[str], typer.Argument(
        metavar="-- NEW COMMAND", help="The command as it should have been, after `--`.")],
    yes: Annotated[bool, typer.Option("--yes", help="Record the amendment.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")
                       ] = False,
) -> None:
    """Replace past command SEQ (a wrong card, a forgotten up card, a misheard bet) and replay
    everything after it: lists every outcome that changes (openers, pots and who won them,
    points, promotions) and refuses, naming it, a later command that no longer applies.
    Only --yes records it; the log keeps both versions (E138)."""
    from referee.storage import files
    from referee.storage.store import open_evening

    words = list(words)
    while words and words[-1] in ("--yes", "--dry-run", "--json"):  # typed at the end
        flag = words.pop()
        yes, as_json = yes or flag == "--yes", as_json or flag == "--json"
        files.DRY_RUN = files.DRY_RUN or flag == "--dry-run"
    if not words:
        raise BadInput("give the new command after `--`: `referee amend 12 -- hand show "
                       "'Cy: KC KW'` (E138)", ruling="E138")
    if words[0] in NOT_COMMANDS:
        raise BadInput(f"`{words[0]}` cannot stand in for a past command; give a command of "
                       "the evening table after `--` (E139)", ruling="E139")
    from referee.cli.station import refusal

    why = refusal(words)  # E65, E54: it runs on a scratch evening and reaches nothing else
    if why is not None:
        raise BadInput(f"`{shlex.join(words)}` cannot stand in for a past command: "
                       f"{why.split(' (E')[0]}; an amendment reaches its own evening only "
                       "(E139)", ruling="E139")
    dry = files.DRY_RUN
    with open_evening(db_path()) as ev:
        result = _replay(ev, seq, words)
        recorded = False
        if yes and not dry:
            from referee.evening.amend import amendment

            event = amendment(seq, result["old"], result["new"], result["replayed"],
                              result["state"], result["ripple"])
            # The log text as retyped: the new command after `--`, so that its options stay
            # its own (the one place that builds other lines, `command_text`, knows no `--`).
            ev.commit("evening", [event], f"amend {seq} --yes -- {shlex.join(words)}")
            recorded = True
    _show(seq, result, recorded=recorded, dry=dry, as_json=as_json)


class _Cmd(NamedTuple):
    cmd: int
    text: str
    events: list[Any]


def _replay(ev: Any, seq: int, words: list[str]) -> dict[str, Any]:
    """The new timeline: the evening to just before ``seq``, the new command, then every later
    command of the evening table as typed; the ripple against the old one."""
    from referee.evening import amend as amending
    from referee.evening import ripple as rippling
    from referee.evening.state import require_evening
    from referee.storage import files
    from referee.streams import plain, spec

    require_evening(ev.state("evening"))
    commands = [_Cmd(*c) for c in amending.effective(
        (c.cmd, c.text, [plain(e) for e in c.events]) for c in ev.iter_commands("evening"))]
    index = next((i for i, c in enumerate(commands) if c.cmd == seq), None)
    if index is None:
        raise BadInput(f"no evening command #{seq} to amend (undone, a side table's, or not "
                       "typed yet); `referee log` numbers them (E138)", ruling="E138")
    target, later = commands[index], commands[index + 1:]
    amending.check_target(seq, target.text, list(target.events))
    amending.check_replayable((c.cmd, c.text, list(c.events)) for c in later)
    sp = spec("evening")
    dry = files.DRY_RUN
    files.DRY_RUN = False  # the scratch evening is written, whatever the real one is
    try:
        with tempfile.TemporaryDirectory(prefix="referee-amend-") as folder:
            replayed = _timeline(Path(folder) / "replay.json", commands, index, words)
    finally:
        files.DRY_RUN = dry
    old = rippling.outcomes(([plain(e) for e in c.events] for c in commands), sp.empty(),
                            sp.apply)
    prefix = ([plain(e) for e in c.events] for c in commands[:index])
    fresh = rippling.outcomes([*prefix, *(r["events"] for r in replayed)], sp.empty(), sp.apply)
    return {"old": target.text, "new": replayed[0]["text"], "replayed": replayed,
            "state": fresh["state"], "ripple": rippling.ripple(old, fresh),
            "later": len(later)}


def _timeline(scratch: Path, commands: list[Any], index: int, words: list[str]
              ) -> list[dict[str, Any]]:
    """Write the evening before ``commands[index]`` to ``scratch``, run ``words`` there and
    every later command after it: each as (cmd, text, events), the new command first."""
    from referee.storage.store import open_evening
    from referee.streams import plain

    seq, later = commands[index].cmd, commands[index + 1:]
    with open_evening(scratch) as t:
        for c in commands[:index]:
            t.commit("evening", [plain(e) for e in c.events], c.text)
    new = _run(scratch, words, None)
    if new is None:
        raise IllegalAction(f"`{shlex.join(words)}` would record nothing at #{seq}; give a "
                            "command that records a move (E138)", ruling="E138")
    replayed = [{"cmd": seq, "text": new[0], "events": new[1]}]
    for c in later:
        again = _run(scratch, shlex.split(c.text), c)
        if again is None:
            raise IllegalAction(f"after the amendment, #{c.cmd} `{c.text}` would record "
                                "nothing; nothing was written (E138)", ruling="E138")
        replayed.append({"cmd": c.cmd, "text": again[0], "events": again[1]})
    return replayed


def _run(scratch: Path, words: list[str], was: Any) -> tuple[str, list[Any]] | None:
    """Run one line on the scratch evening: its log text and events, None if it recorded
    nothing. A refusal is the amendment's refusal, naming the command (E138)."""
    from referee.cli import runner
    from referee.storage import files
    from referee.storage.store import open_evening

    with open_evening(scratch, write=False) as t:
        count = t.meta["next_cmd"]
    saved = files.DRY_RUN
    try:
        # Sealed as a station's line is (E65): the scratch evening and nothing else.
        code, _, err = runner.run_line(words, db=scratch, sealed=True)
    finally:
        files.DRY_RUN = saved  # the line's own run set it
    if code != 0:
        why = next((ln.removeprefix("error: ") for ln in err.splitlines() if ln.strip()),
                   "refused")
        if was is None:
            raise IllegalAction(f"the new command `{shlex.join(words)}` does not apply there: "
                                f"{why} (E138)", ruling="E138")
        raise IllegalAction(f"after the amendment, #{was.cmd} `{was.text}` no longer applies: "
                            f"{why}; nothing was written (E138)", ruling="E138")
    with open_evening(scratch, write=False) as t:
        if t.meta["next_cmd"] == count:
            return None
        last = t.last_commands(1, "evening")[0]
        return last.text, [dict(e) for e in last.events]


def _show(seq: int, result: dict[str, Any], *, recorded: bool, dry: bool,
          as_json: bool) -> None:
    if as_json:
        emit_json({"cmd": seq, "old": result["old"], "new": result["new"],
                   "replayed": result["later"], "ripple": result["ripple"],
                   "recorded": recorded})
        return
    say(f"Amending #{seq} `{lit(result['old'])}` to `{lit(result['new'])}`: "
        f"{result['later']} later command(s) replayed (E138).")
    if not result["ripple"]:
        say("  No opener, pot, winner, status point or promotion changes.")
    for r in result["ripple"]:
        say(f"  {lit(r['what'])}: {lit(_text(r['before']))} -> {lit(_text(r['after']))}")
    if recorded:
        say(f"Recorded: #{seq} is amended; the log keeps both versions, `referee log` marks "
            "it, and `referee undo` takes the amendment back (E138).")
    elif dry:
        say("Dry run: nothing was written (E133).")
    else:
        say(f"Nothing was written: `referee amend {seq} --yes -- ...` records it (E138).")


def _text(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, list):
        return "; ".join(str(v) for v in value) or "none"
    return str(value)


def register(app: typer.Typer) -> None:
    app.command("amend", rich_help_panel="The log")(amend)
