"""An amendment: a past command replaced, everything after it replayed (E138, E139). Pure.

The console replays the commands (``referee.cli.table.amend``) and compares the timelines
(``referee.evening.ripple``); this module says what may be amended, reads the timeline as it
stands (:func:`effective`), and folds the amendment: the ``command_amended`` event carries
the evening as the replay left it, so the log keeps both versions, the old commands where
they were and the new ones in the amendment (:func:`amended_state`).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, cast

from referee.errors import IllegalAction
from referee.evening.events import CommandAmended
from referee.evening.state import State, dump, load
from referee.said import Suggest, said
from referee.streams import Event

if TYPE_CHECKING:
    from referee.evening.events import Dropped, Replaced, Replayed, Rippled
    from referee.jsontypes import JSON

#: Commands an amendment never replays (E139): they reach past this evening's file.
NOT_REPLAYED = ("next", "new")


def effective(commands: Iterable[tuple[int, str, list[Event]]], *, marked: bool = False
              ) -> list[tuple[int, str, list[Event]]]:
    """The evening's timeline as it now stands (E138): each amendment drops the command it
    replaced and every one after it, and brings in the commands as it replayed them (under
    their old numbers), so that folding this list gives the evening the amendment left.
    ``marked``: the amendment itself stays in, with no events, so that the past can be asked
    for as it stood after it (E134)."""
    out: list[tuple[int, str, list[Event]]] = []
    for _ in _walk(commands, out, marked=marked):
        pass
    return out


def _walk(commands: Iterable[tuple[int, str, list[Event]]],
          out: list[tuple[int, str, list[Event]]], *, marked: bool = False
          ) -> Iterator[tuple[int, str, CommandAmended]]:
    """Build the timeline in ``out`` command by command (E138), yielding each amendment (its
    command, text and event) when ``out`` is the timeline as that amendment left it."""
    for cmd, text, events in commands:
        found = next((e for e in events if e["kind"] == "command_amended"), None)
        if found is None:
            out.append((cmd, text, events))
            continue
        amended = cast(CommandAmended, found)  # a stored event, by its kind an amendment
        out[:] = [c for c in out if c[0] < amended["cmd"]]
        out += [(r["cmd"], r["text"], list(r["events"])) for r in amended["replayed"]]
        yield cmd, text, amended
        if marked:
            out.append((cmd, text, []))


def check_target(cmd: int, text: str, events: list[Event]) -> None:
    """Whether command ``cmd`` may be amended (E139).

    Raises:
        IllegalAction: it opened the evening, or it is itself an amendment.
    """
    kinds = {e["kind"] for e in events}
    if kinds & {"evening_created", "evening_continued"}:
        raise IllegalAction(said(f"#{cmd} `{text}` opened the evening; it is not amended: open "
                                 "the evening again with ", Suggest(("new",), ("--force",)),
                                 " (E139)"), ruling="E139")
    if "command_amended" in kinds:
        raise IllegalAction(said(f"#{cmd} `{text}` is an amendment itself; amend the command "
                                 "it replaced again, or ", Suggest(("undo",)), " it (E139)"),
                            ruling="E139")


def check_replayable(later: Iterable[tuple[int, str, list[Event]]]) -> None:
    """Refuse an amendment that would replay a command reaching past the evening (E139)."""
    for cmd, text, _events in later:
        if text.split(" ", 1)[0] in NOT_REPLAYED:
            raise IllegalAction(f"#{cmd} `{text}` comes after it and is not replayed (it "
                                "writes another evening); amend only after it (E139)",
                                ruling="E139")


def amendment(cmd: int, old: str, new: str, replayed: list[Replayed],
              state: State, found: list[Rippled], *,
              changed: list[Replaced] | None = None,
              dropped: list[Dropped] | None = None) -> CommandAmended:
    """The ``command_amended`` event (E138, E140): the first command it reaches (``cmd``,
    its ``old`` text and its ``new`` one, empty when it is dropped), every command replaced
    (``changed``: cmd, old, new) and dropped (``dropped``: cmd, text), every command from the
    first on as replayed (its number, text and new events), the ripple, and the evening as
    the replay left it."""
    event = CommandAmended(kind="command_amended", cmd=cmd, old=old, new=new,
                           replayed=replayed, ripple=found, state=dump(state))
    if changed is not None:
        event["changed"] = changed
    if dropped:
        event["dropped"] = dropped
    return event


def amended_state(state: State, event: CommandAmended) -> State:
    """Fold an amendment (E138): the evening becomes the replayed one; what was amended is
    kept, for `log`."""
    # A copy: the state read back would otherwise share its lists with the stored event,
    # and the next command's fold would alter the event under its hash (E138).
    new = load(copy.deepcopy(dict(event["state"])))
    alone: Replaced = {"cmd": event["cmd"], "old": event["old"], "new": event["new"]}
    changed = event["changed"] if "changed" in event else [alone]
    new.amendments = [*state.amendments, {
        "cmd": event["cmd"], "old": event["old"], "new": event["new"],
        "replayed": [r["cmd"] for r in event["replayed"] if r.get("cmd") is not None],
        "changed": [{"cmd": c["cmd"], "new": c["new"]} for c in changed],
        "dropped": [d["cmd"] for d in event.get("dropped", [])]}]
    return new


def recheck(commands: Iterable[tuple[int, str, list[Event]]], empty: State,
            apply: Callable[[State, Event], State]) -> list[str]:
    """Every amendment whose stored evening the log as amended does not reach (E141).

    For each ``command_amended`` event, the timeline as it stood before it (the commands
    before the first it reached) and its replayed commands are folded from ``empty``; the
    result must be the evening it stored, which is what the folds take on trust. A full
    replay for each amendment: ``verify`` runs it, no ordinary command does.
    """
    problems: list[str] = []
    out: list[tuple[int, str, list[Event]]] = []
    for cmd, text, amended in _walk(commands, out):
        state = copy.deepcopy(empty)
        try:
            for _c, _t, evs in out:
                for e in evs:
                    state = apply(state, e)
            reached = _canonical(dump(state))
        except (IllegalAction, KeyError, TypeError, ValueError) as exc:
            reached = f"a refusal ({exc})"
        if reached != _canonical(amended["state"]):
            problems.append(f"#{cmd} `{text}`: replaying the log as amended does not reach the "
                            "evening the amendment stored; it was altered (E141)")
    return problems


def _canonical(value: JSON) -> str:
    import json

    return json.dumps(value, sort_keys=True, separators=(",", ":"), default=str)
