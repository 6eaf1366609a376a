"""The past on demand (E134-E136): the evening as it stood after a command, a finished hand
as it happened, each step where the log has it. Pure: the commands come in as (number, text,
events), oldest first, and are folded here with the stream's own ``apply``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Literal, NotRequired, TypedDict, cast

from referee.errors import BadInput
from referee.evening.events import EveningEvent, HandStarted, Showdown
from referee.evening.state import Answerable, HandState, State
from referee.names import plural
from referee.said import Suggest, said
from referee.streams import Event

LOG = Suggest(("log",))  #: the move that numbers the commands (E134)

Commands = Iterable[tuple[int, str, list[Event]]]
Apply = Callable[[State, Event], State]


class MoveTold(TypedDict):
    """A betting move (``action``). A bet or raise reads as its command reads it: ``by``, the
    amount typed (``raise Tomas 8``), and ``to``, the round's bet it makes."""

    kind: Literal["action"]
    cmd: int
    at: int                               # the event's place among its command's events
    name: str
    action: str
    chips: int                            # the chips the move put in
    by: NotRequired[int]
    to: NotRequired[int]
    all_in: bool
    auto: bool
    why: NotRequired[str]                 # a forced move: why (R15, S18)
    power: NotRequired[str]               # made with a power (Iron Rule)
    taken_back: NotRequired[str]          # the power that took it back, chips and all


class PowerTold(TypedDict):
    kind: Literal["power_used"]
    cmd: int
    at: int
    name: str
    power: str
    target: str | None
    summary: str                          # what the power did, as the console said it
    text: str                             # the command as typed
    cancelled: NotRequired[str]           # the power that cancelled it before it took effect


class AccessTold(TypedDict):
    kind: Literal["power_accessed"]
    cmd: int
    at: int
    name: str
    card: str                             # the face-down major slid to the Fool (R26)
    power: str
    granted: bool
    depleted: bool


class FixTold(TypedDict):
    kind: Literal["cards_fixed"]
    cmd: int
    at: int
    name: str
    old: str
    new: str
    cards: list[str]                      # the up cards showing after the correction


class ShownTold(TypedDict):
    kind: Literal["cards_shown"]
    cmd: int
    at: int
    name: str
    cards: list[str]                      # every up card so far (E25)


#: One thing that happened in a hand, where the log has it (E135).
StepTold = MoveTold | PowerTold | AccessTold | FixTold | ShownTold

#: The kinds of event a hand's rounds tell, each as one step in the log's order (E135).
TOLD = ("cards_shown", "cards_fixed", "power_accessed", "action", "power_used")


class RoundTold(TypedDict):
    street: int
    up: dict[str, list[str]]              # each player's up cards given in the round
    steps: list[StepTold]                 # what happened in it, in the log's order


class PotTold(TypedDict):
    name: str | None
    size: int
    winners: list[str]
    shares: dict[str, int]                # what each winner took
    why: str | None


class ShowdownTold(TypedDict):
    cmd: int
    hands: dict[str, list[str]]
    best: dict[str, str]                  # each hand's category, in words
    returned: dict[str, int]
    pots: list[PotTold]


class HandTold(TypedDict):
    """A finished hand move by move (E135), as ``hand history --json`` prints it."""

    no: int
    phase: str
    order: list[str]
    antes: dict[str, int]
    rounds: list[RoundTold]
    showdown: ShowdownTold | None


def state_at(commands: Commands, state: State, apply: Apply, seq: int) -> State:
    """The evening after command ``seq`` (E134): ``commands`` folded from ``state`` (the
    empty one) up to and including it.

    Raises:
        BadInput: no command ``seq`` in the evening's log (undone, another table's, or not
            yet typed).
    """
    seen: list[int] = []
    later = False  # a command after ``seq``: the log does not end before it
    for cmd, _text, events in commands:
        if cmd > seq:
            later = True
            break
        for event in events:
            state = apply(state, event)
        seen.append(cmd)
        if cmd == seq:
            return state
    if not seen:
        raise BadInput(said(f"--at {seq}: the evening's log has no command up to #{seq}; ",
                            LOG, " numbers them (E134)"), ruling="E134")
    if not later:
        raise BadInput(said(f"--at {seq}: the evening's log ends at command #{seen[-1]}; ",
                            LOG, " numbers them (E134)"), ruling="E134")
    raise BadInput(said(f"--at {seq}: no evening command #{seq} (undone, dropped by an "
                        f"amendment, or at a side table); the nearest before it is #{seen[-1]}; ",
                        LOG, " numbers them (E134)"), ruling="E134")


def hand_history(commands: Commands, state: State, apply: Apply, no: int | None
                 ) -> HandTold:
    """Hand ``no`` (the last finished one if None) as it happened (E135): its deal, then
    each round's up cards and every step of it in the log's order (moves, powers slid for
    and used, corrections), a move taken back marked so with its chips, then the showdown
    and each pot's shares.

    Raises:
        BadInput: no such hand finished yet.
    """
    out: HandTold | None = None
    last: HandTold | None = None
    slid: list[tuple[int, StepTold]] = []  # cards slid, told with what they were slid for
    for cmd, text, events in commands:
        for at, event in enumerate(events):
            kind = event["kind"]
            if kind == "hand_started":
                out = _started(cast(HandStarted, event))
            step, street = _before(out, state, (cmd, at, text), cast(EveningEvent, event))
            state = apply(state, event)
            if step is not None and out is not None:
                _tell(out, state, kind, step, street, slid)
            elif kind == "showdown" and out is not None:
                out["showdown"] = _showdown(cmd, cast(Showdown, event))
                if no is None or out["no"] == no:
                    last = out
                out = None
        if out is not None:  # slid for nothing used in the same act
            for street, card in slid:
                _in_round(out, street, card)
        slid.clear()
        if no is not None and last is not None:
            break
    if last is None:
        played = state.hands_played
        tells = said(Suggest(("status",), mention=True), " tells the one under way")
        done = said("hand 1 has" if played == 1 else f"hands 1 to {played} have") if played \
            else said("no hand has yet; ", tells)
        raise BadInput(said(f"hand {no} has not been played to its end; ", done, " (E135)")
                       if no is not None else said("no hand has been played to its end yet; ",
                                                   tells, " (E135)"), ruling="E135")
    return _up_in_order(last)


def _before(out: HandTold | None, state: State, where: tuple[int, int, str],
            event: EveningEvent) -> tuple[StepTold | None, int]:
    """The step ``event`` makes in the hand being told (``where``: its command, its place in
    it and the command's text), and the round it is made in, read before the fold (which
    may change the hand in place); None for an event not told, or no hand being told."""
    hand = state.hand
    if out is None or hand is None or event["kind"] not in TOLD:
        return None, 0
    cmd, at, text = where
    return _step(out, state, hand, cmd, at, text, event), hand.round.street


def _started(event: HandStarted) -> HandTold:
    """A hand told from its deal: its number, phase, order and each one's ante."""
    return {"no": event["no"], "phase": event["phase"], "order": list(event["order"]),
            "antes": {p: sum(c.values()) for p, c in event["antes"].items()},
            "rounds": [], "showdown": None}


def _up_in_order(told: HandTold) -> HandTold:
    """Each round's up cards in the order the hand was dealt."""
    for rnd in told["rounds"]:
        rnd["up"] = {p: rnd["up"][p] for p in told["order"] if p in rnd["up"]}
    return told


def _tell(out: HandTold, state: State, kind: str, step: StepTold, street: int,
          slid: list[tuple[int, StepTold]]) -> None:
    """A step (of an event of ``kind``) told in its round (``street``: the round it was made
    in; ``state``: after it).

    A power that puts the hand back as it stood (Second Thoughts, Mistrial) is told in the
    round it put back, with the card slid for it in the same act (R38); a card slid waits in
    ``slid`` for the power it was slid for."""
    if kind == "power_used" and state.hand is not None:
        street = state.hand.round.street
    if kind == "power_accessed":
        slid.append((street, step))
        return
    for _, card in slid:
        _in_round(out, street, card)
    slid.clear()
    _in_round(out, street, step)


def _step(out: HandTold, state: State, hand: HandState, cmd: int, at: int, text: str,
          event: EveningEvent) -> StepTold:
    """The step ``event`` tells, read against the state before it; a power that takes back
    or cancels what came before marks it so in the steps already told."""
    if event["kind"] == "action":
        name = event["name"]
        move: MoveTold = {"kind": "action", "cmd": cmd, "at": at, "name": name,
                          "action": event["action"], "chips": sum(event["chips"].values()),
                          "all_in": event["all_in"], "auto": event["auto"]}
        committed = hand.round.committed.get(name, 0) + move["chips"]
        if event["action"] in ("bet", "raise") and committed > hand.round.bet:
            # As `raise NAME N` reads N: chips over the round's bet, to a bet of ``to``.
            move["by"], move["to"] = committed - hand.round.bet, committed
        if event.get("why"):
            move["why"] = event["why"]
        if event.get("power"):
            move["power"] = event["power"]
        return move
    if event["kind"] == "power_used":
        name, title = event["name"], event.get("title") or event["power"]
        effect = event.get("effect")
        answer = hand.answerable
        if effect in ("take_back", "cancel") and answer is not None:
            _undo(out, answer, title)
        elif effect == "no_raises":  # Iron Rule: the bet or raise it came with, this command's
            mine = [m for m in _steps(out) if m["kind"] == "action" and m["cmd"] == cmd
                    and m["name"] == name and not m["auto"]]
            if mine:
                mine[-1]["power"] = title
        return {"kind": "power_used", "cmd": cmd, "at": at, "name": name, "power": title,
                "target": event.get("target"), "summary": event.get("summary", ""),
                "text": text}
    if event["kind"] == "power_accessed":
        return {"kind": "power_accessed", "cmd": cmd, "at": at, "name": event["name"],
                "card": event["card"], "power": _title(state, event["power"]),
                "granted": event["granted"], "depleted": event["depleted"]}
    if event["kind"] == "cards_fixed":
        return {"kind": "cards_fixed", "cmd": cmd, "at": at, "name": event["name"],
                "old": event["old"], "new": event["new"], "cards": list(event["cards"])}
    assert event["kind"] == "cards_shown", event  # TOLD
    return {"kind": "cards_shown", "cmd": cmd, "at": at, "name": event["name"],
            "cards": list(event["cards"])}


def _undo(out: HandTold, answer: Answerable, title: str) -> None:
    """S15: Second Thoughts puts the hand back as it stood before the bet it answers,
    Mistrial as it stood before the power it cancels: that step, and every move after it
    (the Fool's forced moves), are marked with the power that undid them."""
    steps = _steps(out)
    for i in range(len(steps) - 1, -1, -1):
        step = steps[i]
        if step["name"] != answer["by"]:
            continue
        if answer["kind"] == "bet" and step["kind"] == "action" and not step["auto"] \
                and "taken_back" not in step and step["action"] in ("bet", "raise"):
            break
        if answer["kind"] == "power" and step["kind"] == "power_used" \
                and "cancelled" not in step:
            step["cancelled"] = title
            _stands_again(steps, step["power"])
            break
    else:
        return
    for later in steps[i:]:
        if later["kind"] == "action":
            later["taken_back"] = title


def _stands_again(steps: list[StepTold], cancelled: str) -> None:
    """S15: what the power ``cancelled`` had undone (the bet Second Thoughts took back, the
    power an earlier Mistrial cancelled) stands again, for that power never took effect."""
    for step in steps:
        if step["kind"] == "action" and step.get("taken_back") == cancelled:
            del step["taken_back"]
        elif step["kind"] == "power_used" and step.get("cancelled") == cancelled:
            del step["cancelled"]


def _steps(out: HandTold) -> list[StepTold]:
    return [step for rnd in out["rounds"] for step in rnd["steps"]]


def _in_round(out: HandTold, street: int, step: StepTold) -> None:
    rounds = out["rounds"]
    if not rounds or rounds[-1]["street"] != street:
        rounds.append({"street": street, "up": {}, "steps": []})
    rounds[-1]["steps"].append(step)
    if step["kind"] in ("cards_shown", "cards_fixed"):
        rounds[-1]["up"][step["name"]] = list(step["cards"])


def _title(state: State, key: str) -> str:
    """A power of the evening's set by its name (E57); the key if the set lacks it."""
    return next((p["name"] for p in state.scenario.get("powers", []) if p["key"] == key), key)


def _showdown(cmd: int, event: Showdown) -> ShowdownTold:
    return {"cmd": cmd, "hands": {p: list(c) for p, c in event["hands"].items()},
            "best": {p: str(b.get("category", "")).replace("_", " ") for p, b in
                     event["best"].items()} if event.get("best") else {},
            "returned": {p: sum(c.values()) for p, c in event["returned"].items()},
            "pots": [{"name": p.get("name"), "size": sum(p["chips"].values()),
                      "winners": list(p["winners"]),
                      "shares": {w: sum(c.values()) for w, c in p.get("shares", {}).items()},
                      "why": p.get("why")} for p in event["pots"]]}


def history_lines(h: HandTold, *, room: bool = False) -> list[str]:
    """The hand told in lines, in the log's order, for the console (E135) and, with
    ``room``, for the wall (E136): there no card slid to the Fool and no power's own
    account (which may name a down card of a player who folded) is told."""
    antes = sum(h["antes"].values())
    lines = [f"Hand {h['no']} ({h['phase']} phase), dealt to {', '.join(h['order'])}"
             + (f"; antes {antes}" if antes else "")]
    for rnd in h["rounds"]:
        steps = rnd["steps"]
        first = next((i for i, s in enumerate(steps) if s["kind"] != "cards_shown"),
                     len(steps))
        dealt = {s["name"]: s["cards"] for s in steps[:first] if s["kind"] == "cards_shown"}
        dealt = {p: dealt[p] for p in h["order"] if p in dealt}
        lines.append(f"Round {rnd['street']}" + (": " + "; ".join(
            f"{p} {' '.join(c)}" for p, c in dealt.items()) if dealt else ""))
        for step in steps[first:]:
            line = _line(step, room)
            if line is not None:
                lines.append(f"  {line}")
    if h["showdown"]:
        lines += _showdown_lines(h["showdown"])
    return lines


def _showdown_lines(sd: ShowdownTold) -> list[str]:
    """The showdown told: each hand shown, the chips that went back uncalled, each pot."""
    lines = []
    for name, cards in sd["hands"].items():
        best = sd["best"].get(name)
        lines.append(f"Showdown: {name} {' '.join(cards)}" + (f" ({best})" if best else ""))
    for name, n in sd["returned"].items():
        if n:
            lines.append(f"  {n} uncalled back to {name}")
    for pot in sd["pots"]:
        name, winners = pot["name"] or "pot", pot["winners"]
        if len(winners) > 1:  # R11: a split pot, each share as it was paid
            lines.append(f"{name} {pot['size']}: " + ", ".join(
                f"{w} {pot['shares'].get(w, 0)}" for w in winners))
        else:
            lines.append(f"{name} {pot['size']} to {', '.join(winners) or 'no one'}")
    return lines


def _line(step: StepTold, room: bool) -> str | None:
    """One step in words; None for what the wall does not tell."""
    name = step["name"]
    if step["kind"] == "action":
        return _action_line(step)
    if step["kind"] == "power_used":
        on = f" on {step['target']}" if step.get("target") else ""
        line = f"{name} uses {step['power']}{on}"
        if not room and step["summary"]:
            line += f": {step['summary']}"
        if step.get("cancelled"):
            line += f"; cancelled by {step['cancelled']} before it took effect"
        return line
    if step["kind"] == "power_accessed":
        if room:
            return None
        return (f"{name} slides {step['card']} to the Fool for {step['power']}"
                + ("" if step["granted"] else ": already out, nothing granted")
                + (f"; {step['card']} is depleted" if step["depleted"] else ""))
    if step["kind"] == "cards_fixed":
        return (f"fixed: {name}'s up card {step['old']} is {step['new']} "
                f"(showing {' '.join(step['cards'])})")
    return f"{name} shows {' '.join(step['cards'])}"


def _action_line(step: MoveTold) -> str:
    """A betting move in words: a raise by what was typed and to what it makes the bet."""
    name, action = step["name"], step["action"]
    line = f"{name} {_verb(action)}"
    if "by" in step and action == "raise":  # as `raise NAME N` reads N
        line += f" {step['by']}, to {step['to']}"
    elif step["chips"]:
        line += f" {step['chips']}"
    line += ", all-in" if step["all_in"] else ""
    line += f", with {step['power']}" if step.get("power") else ""
    if step["auto"]:
        line += f" (forced: {step['why']})" if step.get("why") else " (forced)"
    if step.get("taken_back"):
        line += f"; taken back by {step['taken_back']}" + (
            f", {plural(step['chips'], 'chip')} back to {name}" if step["chips"] else "")
    return line


def _verb(action: str) -> str:
    return {"bet": "bets", "raise": "raises", "call": "calls", "check": "checks",
            "fold": "folds"}.get(action, action)
