"""Read-only views of the evening as plain data: what ``status --json`` prints and the
human views render. Pure, so the report, the live view and the shell share them."""

from __future__ import annotations

import time
from typing import Any

from referee.evening import betting, effects
from referee.evening.effects import in_force
from referee.evening.state import CHIP_VALUE, POT, State
from referee.rules.cards import to_roman


def status(state: State, now: float | None = None) -> dict[str, Any]:
    """The evening at a glance (issue 3 contract)."""
    now = time.time() if now is None else now
    chips: dict[str, dict[str, int]] = {}
    for holder, holding in state.chips.items():
        if holder == POT and state.hand is None:
            continue
        chips[holder] = {c: n for c, n in sorted(holding.items()) if n}
    seats = [
        {
            "name": s.name,
            "arcanum": to_roman(s.arcanum),
            "colour": s.colour,
            "assistant": s.assistant,
            "seated": s.seated,
            "resigned": s.resigned,
            "dead": s.dead,
            "chips": state.stack(s.name),
            "side_chips": state.side_chips(s.name),
            "dollars": state.side_chips(s.name) * CHIP_VALUE,
        }
        for s in state.seats
    ]
    return {
        "phase": state.phase,
        "open_pending": state.open_pending,
        "fool": state.fool,
        "chips": chips,
        "seats": seats,
        "hand": hand_view(state),
        "hands_played": state.hands_played,
        "clock": None if state.first_hand_at is None else int(now - state.first_hand_at),
        "open_phase_due": state.phase == "limit" and state.first_hand_at is not None
        and now - state.first_hand_at >= 3600,
        "charges": dict(state.charges),
        "in_force": in_force(state),  # S17: powers binding the table
        "over": state.over,
        "winner": state.winner,
    }


def hand_view(state: State) -> dict[str, Any] | None:
    """The hand in progress, safe to show players: no down cards are ever stored."""
    hand = state.hand
    if hand is None:
        return None
    opts = betting.options(state, hand)
    layering = betting.pots(state, hand) if hand.contrib else None
    pots: list[dict[str, Any]] = []
    if layering:
        # Who can still win each pot (E29): those in it, and those still to act, who may call.
        able = set(betting.actors(state, hand)) if not hand.betting_over else set()
        for pot in layering.pots:
            eligible = [p for p in hand.order if p in pot.eligible or p in able]
            if pots and pots[-1]["eligible"] == eligible:
                pots[-1]["size"] += pot.size
                continue
            pots.append({"name": "main pot" if not pots else f"side pot {len(pots)}",
                         "size": pot.size, "eligible": eligible})
    players = [
        {
            "name": name,
            "up": list(hand.showing.get(name, [])),
            "round": hand.round.committed.get(name, 0),
            "hand": len(hand.contrib.get(name, [])),
            "ante": hand.antes.get(name, 0),
            "stack": state.stack(name),
            "folded": name in hand.folded,
            "all_in": name != state.fool and name not in hand.folded
            and (state.stack(name) == 0 or effects.suspended(hand, name)),  # S19
            "to_act": opts is not None and opts.name == name,
        }
        for name in hand.order
    ]
    return {
        "no": hand.no,
        "phase": hand.phase,
        "street": hand.round.street,
        "in": hand.live,
        "folded": list(hand.folded),
        "all_in": [p for p in hand.live if p != state.fool
                   and (state.stack(p) == 0 or effects.suspended(hand, p))],  # S19
        "showing": {p: list(c) for p, c in hand.showing.items()},
        "players": players,
        "pot": state.stack(POT),
        "pots": pots,
        "uncalled": {p: sum(c.values()) for p, c in layering.returned.items()} if layering
        else {},
        "bet": hand.round.bet,
        "raises": hand.round.raises,
        "committed": dict(hand.round.committed),
        "to_act": opts.name if opts else None,
        "owes": opts.owes if opts else 0,
        "moves": list(opts.moves) if opts else [],
        "betting_over": hand.betting_over,
        "missing_up": betting.missing_up_cards(state, hand),
        "up_due": {p: betting.up_cards_dealt(state, hand, p) for p in hand.live},
        "effects": [f["text"] for f in in_force(state)],  # S17: "Cy must call or fold: Cowed"
    }
