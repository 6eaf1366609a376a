"""What an amendment changes (E138): the outcomes of a timeline, and the ripple between two.
Pure; ``referee.cli.table.amend`` replays the commands, ``referee.evening.amend`` folds the result.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import TypedDict

from referee.evening.events import EveningEvent, Rippled, read
from referee.evening.state import State
from referee.streams import Event

Apply = Callable[[State, EveningEvent], State]


class Outcomes(TypedDict):
    """What a timeline came to (E138), and the evening it left."""

    openers: dict[str, str]          # "hand 1 round 1" -> who opened it
    pots: dict[str, list[str]]       # "hand 1" -> ["main pot 5 to Ed", ...]
    points: dict[str, int]           # person -> status points
    promotions: list[str]            # the claims that would succeed, as text
    state: State


def outcomes(commands: Iterable[list[Event]], state: State, apply: Apply) -> Outcomes:
    """What a timeline came to (E138): ``openers`` ("hand 1 round 1" -> name), ``pots``
    ("hand 1" -> ["main pot 5 to Ed", ...]), ``points`` (person -> status points) and
    ``promotions`` (the claims that would succeed, as text)."""
    from referee.evening.points import promotions, totals

    openers: dict[str, str] = {}
    pots: dict[str, list[str]] = {}
    for events in commands:
        for stored in events:
            event = read(stored)
            hand = state.hand
            if event["kind"] == "action" and hand is not None and hand.round.actions == 0:
                openers[f"hand {hand.no} round {hand.round.street}"] = event["name"]
            if event["kind"] == "showdown" and hand is not None:
                pots[f"hand {hand.no}"] = [
                    f"{p.get('name') or 'pot'} {sum(p['chips'].values())} to "
                    + (", ".join(p["winners"]) or "no one") for p in event["pots"]]
            state = apply(state, event)
    points = {p: sum(a.values()) for p, a in totals(state).items()} if state.started else {}
    claims = [f"{c.get('person')} to {c.get('arcanum')}" for c in promotions(state)] \
        if state.started else []
    return {"openers": openers, "pots": pots, "points": points, "promotions": claims,
            "state": state}


def ripple(old: Outcomes, new: Outcomes) -> list[Rippled]:
    """Every outcome that differs between two timelines (E138): what, before, after."""
    out = [*_differ("opener of", old["openers"], new["openers"]),
           *_differ("pots of", old["pots"], new["pots"]),
           *_differ("status points of", old["points"], new["points"])]
    if old["promotions"] != new["promotions"]:
        out.append({"what": "promotions that would succeed", "before": old["promotions"],
                    "after": new["promotions"]})
    return out


def _differ(what: str, was: Mapping[str, str | int | list[str]],
            now: Mapping[str, str | int | list[str]]) -> Iterator[Rippled]:
    """``what KEY`` for every key whose outcome differs, the old timeline's keys first."""
    for key in [*was, *(k for k in now if k not in was)]:
        if was.get(key) != now.get(key):
            yield {"what": f"{what} {key}", "before": was.get(key), "after": now.get(key)}
