"""What a command changes, as data: chips by colour, pots, the turn, points (E133). Pure.

A dry run (``--dry-run``, ``try`` in the shell) shows :func:`changes` between the evening
before and the evening a command would leave, and :func:`rulings` names the rulings its events
apply; an amendment (E138) lists the same for every command it replays. The same function reads
a real command's before and after, so what a dry run prints is what the command then does.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, TypedDict

from referee.evening.state import POT, State
from referee.streams import Event

if TYPE_CHECKING:
    from referee.evening.views import PotView
    from referee.jsontypes import JSON

#: The rulings each kind of event applies (E133), beside any id its own fields name.
KIND_RULINGS: dict[str, tuple[str, ...]] = {
    "evening_created": ("R10", "R9"),
    "phase_opened": ("R13",),
    "hand_started": ("R9",),
    "cards_shown": ("R9",),
    "cards_fixed": ("E25",),
    "showdown": ("R7", "R11", "R15"),
    "chips_given": ("R16",),
    "chips_counted": ("E130", "E132"),
    "seat_changed": ("R17",),
    "soul_studied": ("R23",),
    "soul_guessed": ("R24",),
    "auction_opened": ("R20",), "auction_bid": ("R20",), "auction_closed": ("R20",),
    "soul_sold": ("R16a",), "soul_traded": ("R19",), "buyout_declined": ("R21",),
    "soul_destroyed": ("R22",), "soul_given": ("R16",),
    "charges_given": ("R25",),
    "power_accessed": ("R26",), "power_used": ("R26",),
    "evening_ended": ("R40",), "claim_decided": ("R28", "R40"), "ceremony_closed": ("R40",),
    "evening_continued": ("R41", "R42"),
    "clock_stopped": ("R47",), "clock_resumed": ("R47",),
}
_ID = re.compile(r"\b([RHESTWF]\d{1,3}a?)\b")


class Between(TypedDict):
    """No hand under way: how many have been played."""

    hand: None
    hands_played: int


class Turn(TypedDict):
    """Whose turn it is in the hand under way, and what they owe."""

    hand: int
    street: int
    to_act: str | None
    owes: int
    betting_over: bool


def rulings(events: list[Event], phase: str = "limit") -> list[str]:
    """The ids of the rulings ``events`` apply, in the order they first come (E133); a bet or
    a raise is ruled by its hand's ``phase``: one chip in the limit phase (R12), any number
    in the open phase (R13)."""
    found: list[str] = []

    def add(ruling: str) -> None:
        if ruling not in found:
            found.append(ruling)

    def walk(value: JSON) -> None:
        if isinstance(value, str):
            for m in _ID.finditer(value):
                add(m.group(1))
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    for event in events:
        kind = event.get("kind", "")
        if kind == "action":
            add("R15" if event.get("auto") else "R9")
            if event.get("action") in ("bet", "raise"):
                add("R13" if phase == "open" else "R12")
            if event.get("all_in"):
                add("R14")
            if event.get("chips"):
                add("R11")
        if kind == "chips_given" and event.get("ruling"):
            add("E24")
        if kind == "hand_started" and event.get("antes"):
            add("R13")  # the open phase's antes; the up cards (R9) come with `hand show`
        else:
            for ruling in KIND_RULINGS.get(kind, ()):
                add(ruling)
        walk({k: v for k, v in event.items() if k != "kind"})
    return found


def chip_changes(before: State, after: State) -> dict[str, dict[str, int]]:
    """Each holder's change by colour (the pot too), only what moved."""
    out: dict[str, dict[str, int]] = {}
    for holder in [*after.chips, *(h for h in before.chips if h not in after.chips)]:
        was, now = before.holding(holder), after.holding(holder)
        moved = {c: now.get(c, 0) - was.get(c, 0) for c in sorted(set(was) | set(now))}
        moved = {c: n for c, n in moved.items() if n}
        if moved:
            out[holder] = moved
    return out


def _turn(state: State) -> Turn | Between | None:
    from referee.evening.views import hand_view

    if not state.started:
        return None
    hand = hand_view(state)
    if hand is None:
        return {"hand": None, "hands_played": state.hands_played}
    return {"hand": hand["no"], "street": hand["street"], "to_act": hand["to_act"],
            "owes": hand["owes"], "betting_over": hand["betting_over"]}


def _pots(state: State) -> list[PotView]:
    from referee.evening.views import hand_view

    hand = hand_view(state) if state.started else None
    if hand is None:
        return []
    return [{"name": p["name"], "size": p["size"], "eligible": p["eligible"]}
            for p in hand["pots"]] or ([{"name": "main pot", "size": hand["pot"],
                                         "eligible": hand["in"]}] if hand["pot"] else [])


def _points(state: State) -> dict[str, int]:
    from referee.evening.points import totals

    if not state.started:
        return {}
    return {p: sum(arcana.values()) for p, arcana in totals(state).items()
            if sum(arcana.values())}


def changes(before: State, after: State) -> dict[str, Any]:
    """What changed between two states of the evening (E133): ``chips`` (holder -> colour ->
    change), ``pots``, ``turn``, ``points`` (person -> total), ``charges`` (side -> change),
    ``winners`` (the pots of a hand just finished), each present only when it changed."""
    out: dict[str, Any] = {}
    chips = chip_changes(before, after)
    if chips:
        out["chips"] = chips
    for key, read in (("pots", _pots), ("turn", _turn), ("points", _points)):
        was, now = read(before), read(after)
        if was != now:
            out[key] = {"before": was, "after": now}
    charges = {s: after.charges.get(s, 0) - before.charges.get(s, 0)
               for s in sorted(set(before.charges) | set(after.charges))}
    charges = {s: n for s, n in charges.items() if n}
    if charges:
        out["charges"] = charges
    if len(after.history) > len(before.history):
        out["winners"] = [{"hand": h["no"], "pots": [
            {"size": p["size"], "winners": list(p["winners"])} for p in h["pots"]]}
            for h in after.history[len(before.history):]]
    if not before.started and after.started:
        out["evening"] = "opened"
    return out


def holder_label(holder: str) -> str:
    """``the pot`` for the pot, else the name."""
    return "the pot" if holder == POT else holder
