"""What an amendment changes (E138): the outcomes of a timeline, and the ripple between two.
Pure; ``referee.cli.amend`` replays the commands, ``referee.evening.amend`` folds the result.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from referee.evening.state import State
from referee.streams import Event

Apply = Callable[[State, Event], State]


def outcomes(commands: Iterable[list[Event]], state: State, apply: Apply) -> dict[str, Any]:
    """What a timeline came to (E138): ``openers`` ("hand 1 round 1" -> name), ``pots``
    ("hand 1" -> ["main pot 5 to Ed", ...]), ``points`` (person -> status points) and
    ``promotions`` (the claims that would succeed, as text)."""
    from referee.evening.points import promotions, totals

    openers: dict[str, str] = {}
    pots: dict[str, list[str]] = {}
    for events in commands:
        for event in events:
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


def ripple(old: dict[str, Any], new: dict[str, Any]) -> list[dict[str, Any]]:
    """Every outcome that differs between two timelines (E138): what, before, after."""
    out: list[dict[str, Any]] = []
    for what in ("openers", "pots", "points"):
        was, now = old[what], new[what]
        for key in [*was, *(k for k in now if k not in was)]:
            if was.get(key) != now.get(key):
                label = {"openers": f"opener of {key}", "pots": f"pots of {key}",
                         "points": f"status points of {key}"}[what]
                out.append({"what": label, "before": was.get(key), "after": now.get(key)})
    if old["promotions"] != new["promotions"]:
        out.append({"what": "promotions that would succeed", "before": old["promotions"],
                    "after": new["promotions"]})
    return out
