"""The past on demand (E134-E136): the evening as it stood after a command, a finished hand
move by move. Pure: the commands come in as (number, text, events), oldest first, and are
folded here with the stream's own ``apply``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import NotRequired, TypedDict

from referee.errors import BadInput
from referee.evening.state import State
from referee.streams import Event

Commands = Iterable[tuple[int, str, list[Event]]]
Apply = Callable[[State, Event], State]


class MoveTold(TypedDict):
    cmd: int
    name: str
    action: str
    chips: int
    all_in: bool
    auto: bool
    power: NotRequired[str]


class RoundTold(TypedDict):
    street: int
    up: dict[str, list[str]]              # each player's up cards given in the round
    moves: list[MoveTold]


class PowerTold(TypedDict):
    cmd: int
    street: int
    name: str
    power: str
    target: str | None
    text: str                             # the command as typed


class FixTold(TypedDict):
    cmd: int
    name: str
    old: str
    new: str


class PotTold(TypedDict):
    name: str | None
    size: int
    winners: list[str]
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
    powers: list[PowerTold]
    fixes: list[FixTold]
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
        raise BadInput(f"--at {seq}: the evening's log has no command up to #{seq}; "
                       "`referee log` numbers them (E134)", ruling="E134")
    if not later:
        raise BadInput(f"--at {seq}: the evening's log ends at command #{seen[-1]}; "
                       "`referee log` numbers them (E134)", ruling="E134")
    raise BadInput(f"--at {seq}: no evening command #{seq} (undone, dropped by an amendment, "
                   f"or at a side table); the nearest before it is #{seen[-1]}; `referee log` "
                   "numbers them (E134)", ruling="E134")


def hand_history(commands: Commands, state: State, apply: Apply, no: int | None
                 ) -> HandTold:
    """Hand ``no`` (the last finished one if None) move by move (E135): its deal, each
    round's up cards and moves, the powers used, the pots and the showdown.

    Raises:
        BadInput: no such hand finished yet.
    """
    out: HandTold | None = None
    last: HandTold | None = None
    for cmd, text, events in commands:
        for event in events:
            kind = event["kind"]
            if kind == "hand_started":
                out = {"no": event["no"], "phase": event["phase"], "order": list(event["order"]),
                       "antes": {p: sum(c.values()) for p, c in event["antes"].items()},
                       "rounds": [], "powers": [], "fixes": [], "showdown": None}
            hand = state.hand
            if out is not None and hand is not None:
                street = hand.round.street
                rounds = out["rounds"]
                if not rounds or rounds[-1]["street"] != street:
                    rounds.append({"street": street, "up": {}, "moves": []})
                current = rounds[-1]
                if kind == "cards_shown":
                    current["up"][event["name"]] = list(event["cards"])
                elif kind == "cards_fixed":
                    out["fixes"].append({"cmd": cmd, "name": event["name"], "old": event["old"],
                                         "new": event["new"]})
                    current["up"][event["name"]] = list(event["cards"])
                elif kind == "action":
                    move: MoveTold = {"cmd": cmd, "name": event["name"], "action": event["action"],
                            "chips": sum(event["chips"].values()),
                            "all_in": event["all_in"], "auto": event["auto"]}
                    if event.get("power"):
                        move["power"] = event["power"]
                    current["moves"].append(move)
                elif kind == "power_used":
                    out["powers"].append({"cmd": cmd, "street": street, "name": event["name"],
                                          "power": event.get("title") or event["power"],
                                          "target": event.get("target"), "text": text})
                elif kind == "showdown":
                    out["showdown"] = {
                        "cmd": cmd, "hands": {p: list(c) for p, c in event["hands"].items()},
                        "best": {p: str(b.get("category", "")).replace("_", " ") for p, b in
                                 event["best"].items()} if event.get("best") else {},
                        "returned": {p: sum(c.values()) for p, c in event["returned"].items()},
                        "pots": [{"name": p.get("name"), "size": sum(p["chips"].values()),
                                  "winners": list(p["winners"]), "why": p.get("why")}
                                 for p in event["pots"]]}
            state = apply(state, event)
            if kind == "showdown" and out is not None:
                if no is None or out["no"] == no:
                    last = out
                out = None
        if no is not None and last is not None:
            break
    if last is None:
        played = state.hands_played
        done = ("hand 1 has" if played == 1 else f"hands 1 to {played} have") if played else \
            "no hand has yet; `status` tells the one under way"
        raise BadInput((f"hand {no} has not been played to its end; {done}" if no is not None
                        else "no hand has been played to its end yet; `status` tells the one "
                        "under way") + " (E135)", ruling="E135")
    for rnd in last["rounds"]:
        rnd["up"] = {p: rnd["up"][p] for p in last["order"] if p in rnd["up"]}
    last["rounds"] = [r for r in last["rounds"] if r["up"] or r["moves"]]
    return last


def history_lines(h: HandTold) -> list[str]:
    """The hand told in lines, for the console and the wall (E135, E136)."""
    antes = sum(h["antes"].values())
    lines = [f"Hand {h['no']} ({h['phase']} phase), dealt to {', '.join(h['order'])}"
             + (f"; antes {antes}" if antes else "")]
    done: set[int] = set()
    for rnd in h["rounds"]:
        lines.append(f"Round {rnd['street']}: " + "; ".join(
            f"{p} {' '.join(c)}" for p, c in rnd["up"].items()))
        for m in rnd["moves"]:
            extra = (" all-in" if m["all_in"] else "") + (" (forced)" if m["auto"] else "") \
                + (f" ({m['power']})" if m.get("power") else "")
            amount = f" {m['chips']}" if m["chips"] else ""
            lines.append(f"  {m['name']} {_verb(m['action'])}{amount}{extra}")
        for p in h["powers"]:
            if p["street"] == rnd["street"] and p["cmd"] not in done:
                done.add(p["cmd"])
                on = f" on {p['target']}" if p.get("target") else ""
                lines.append(f"  {p['name']} uses {p['power']}{on}")
    for f in h["fixes"]:
        lines.append(f"  fixed: {f['name']}'s {f['old']} was {f['new']}")
    sd = h["showdown"]
    if sd:
        for name, cards in sd["hands"].items():
            best = sd["best"].get(name)
            lines.append(f"Showdown: {name} {' '.join(cards)}" + (f" ({best})" if best else ""))
        for name, n in sd["returned"].items():
            if n:
                lines.append(f"  {n} uncalled back to {name}")
        for pot in sd["pots"]:
            lines.append(f"{pot['name'] or 'pot'} {pot['size']} to "
                         f"{', '.join(pot['winners']) or 'no one'}")
    return lines


def _verb(action: str) -> str:
    return {"bet": "bets", "raise": "raises", "call": "calls", "check": "checks",
            "fold": "folds"}.get(action, action)
