"""Tarot Scum: roles, the deal, plays, the hand move by move, the match (R29-R31, R30a).

Pure: no I/O. The commands validate a GM request against the folded state and
return the events to store; everything random is decided there from the match
seed and written into the event, so ``apply`` is deterministic. House decisions
beyond the rulings carry ids ``T1``... and are written up in ``docs/rules.md``.

- ``roles``  the role cards, deal sizes, passing and points (R29, R30a, R31)
- ``plays``  what a play is and what may follow it (R30)
- ``table``  a hand played move by move: turn, series, places, who holds what (T13-T27)
- ``match``  the match, its commands and the fold (R31, T1-T3, T8-T11)
"""

from __future__ import annotations

from referee.rules.scum.match import (
    HAND_EVENTS,
    STREAM,
    HandResult,
    Match,
    ScumState,
    apply,
    deal_hand,
    describe,
    dump,
    finish,
    finish_events,
    load,
    new_match,
    pass_cards,
    pass_turn,
    play,
    require_match,
    resolve_order,
    resolve_player,
    winner_text,
)
from referee.rules.scum.plays import (
    Play,
    Verdict,
    can_follow,
    check,
    read_cards,
    read_play,
    verify_follow,
)
from referee.rules.scum.roles import (
    DEAL_SIZE,
    HANDS_PER_MATCH,
    LEADER,
    PASSING,
    PLAYERS,
    POINTS,
    ROLES,
    Passing,
    Role,
    deal,
    draw_roles,
    hand_points,
    hand_size,
    rotate_roles,
    score_hand,
    sort_hand,
)
from referee.rules.scum.table import PLACES, Table, held_after_passing

__all__ = [
    "DEAL_SIZE", "HANDS_PER_MATCH", "HAND_EVENTS", "LEADER", "PASSING", "PLACES", "PLAYERS",
    "POINTS", "ROLES", "STREAM", "HandResult", "Match", "Passing", "Play", "Role", "ScumState",
    "Table", "Verdict", "apply", "can_follow", "check", "deal", "deal_hand", "describe",
    "draw_roles", "dump", "finish", "finish_events", "hand_points", "hand_size",
    "held_after_passing", "load", "new_match", "pass_cards", "pass_turn", "play",
    "read_cards", "read_play", "require_match", "resolve_order", "resolve_player",
    "rotate_roles", "score_hand", "sort_hand", "verify_follow", "winner_text",
]
