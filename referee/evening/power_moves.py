"""A power used at the table, whole (R26, R38, S11, E163): what the betting says now read once
(``betting.now``), the use as the powers decide it (``powers.use``), the bet made with it
(``play.act``, as any bet) and the Fool's forced moves that follow (``play.follows``).

Above both the betting machine and the powers: the powers never call the betting; this is
the one place a power's use and the betting meet.
"""

from __future__ import annotations

from typing import Any

from referee.evening import betting
from referee.evening.events import EveningEvent
from referee.evening.folds import replay
from referee.evening.play import act, follows
from referee.evening.powers import use as powers
from referee.evening.state import State


def use_power(state: State, who: str, power_text: str, **given: Any) -> list[EveningEvent]:
    """``power use NAME POWER``: the use (``powers.use.use_power``), the bets made with it
    first, and the Fool's forced moves after, all replayed on a copy before they are returned.
    ``given``: the flags ``powers.use.use_power`` takes."""
    now = betting.now(state, state.hand) if state.hand is not None else None
    used = powers.use_power(state, who, power_text, now, **given)
    made = [e for name, move, amount in used.bets
            for e in act(state, betting.Request(name, move, amount))]
    events = [*made, *used.events]
    return [*events, *follows(replay(state, events))]


def slide_and_use(state: State, who: str, power_text: str, access_card: str,
                  **given: Any) -> list[EveningEvent]:
    """``power use NAME POWER --access CARD`` (R38): the face-down major slid to the Fool for
    this very power first, in the same act: the access and the use are recorded together, or
    neither is. ``given``: as ``use_power`` takes them."""
    name = powers.user(state, who)
    spec = powers.find_power(state, power_text)
    slid = powers.access_for(state, name, spec, access_card)
    return slid + use_power(replay(state, slid), name, spec["key"], **given)


def use_said(state: State, who: str, power_text: str, access_card: str | None = None,
             **given: Any) -> list[EveningEvent]:
    """``power use NAME POWER [--access CARD]`` as the table's request (``referee.table.api``):
    with a card to slide, ``slide_and_use`` (R38); else ``use_power``."""
    if access_card:
        return slide_and_use(state, who, power_text, access_card, **given)
    return use_power(state, who, power_text, **given)


def drawn(events: list[EveningEvent]) -> dict[str, int]:
    """What a use chose that its words must say, so that retyping them replays the same:
    Downfall's draw (``seed``)."""
    seeds = [e["seed"] for e in events if e["kind"] == "power_used" and "seed" in e]
    return {"seed": seeds[0]} if seeds else {}
