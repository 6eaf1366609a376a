"""Read-only views of the evening as plain data: what ``status --json`` prints and the
human views render. Pure, so the report, the live view and the shell share them."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, TypedDict

from referee.evening.clock import hour_passed, paused, play_time
from referee.evening.known import still_to_give
from referee.evening.pots import pots as hand_pots
from referee.evening.state import CHIP_VALUE, POT, HandState, State
from referee.rules.cards import to_roman

if TYPE_CHECKING:  # records for the checker alone: ``status`` builds none of them at import
    from collections.abc import Callable

    from referee.evening.clock import Paused
    from referee.evening.powers.constraints import InForce
    from referee.rules.pots import Layering

    class PotView(TypedDict):
        """A pot as ``status`` shows it (E29): its size, and who can still win it."""

        name: str                        # main pot, side pot 1 ...
        size: int
        eligible: list[str]

    class CardMark(TypedDict):
        """An up card as the powers in force leave it (E76)."""

        card: str
        dead: bool                       # Cut Down (S21)
        counts_as: str | None            # the card it counts as (S22)
        held: bool                       # held fast (S23)

    class SeatView(TypedDict):
        name: str
        arcanum: str
        colour: str
        assistant: str | None
        seated: bool
        resigned: bool
        dead: bool
        chips: int
        side_chips: int
        dollars: int

    class PlayerView(TypedDict):
        """A player of the hand in progress, as the table may see them."""

        name: str
        up: list[str]
        round: int                       # chips in this round
        hand: int                        # chips in this hand
        ante: int                        # the ante paid (R13), no toll (E280)
        toll: int                        # paid to The Reaper's Toll (S16, E280)
        stack: int
        folded: bool
        all_in: bool
        suspended: bool                  # S19
        to_act: bool
        down: int | None                 # down cards held (E78); None when folded
        hooded: int                      # E77
        cards: list[CardMark]            # E76

    class UpWaiting(TypedDict):
        name: str
        have: int
        want: int

    #: The hand in progress, safe to show players (``hand_view``); ``in`` is a keyword, so the
    #: record is written this way.
    HandView = TypedDict("HandView", {
        "no": int, "phase": str, "street": int, "in": list[str], "folded": list[str],
        "all_in": list[str], "showing": dict[str, list[str]], "players": list[PlayerView],
        "pot": int, "pots": list[PotView], "uncalled": dict[str, int], "bet": int,
        "raises": int, "committed": dict[str, int], "to_act": str | None, "owes": int,
        "moves": list[str], "betting_over": bool, "missing_up": list[str],
        "up_due": dict[str, int], "up_waiting": list[UpWaiting], "suspended": list[str],
        "opener_note": str | None, "effects": list[str], "to_give": dict[str, int],
    })

    class Status(TypedDict):
        """The evening at a glance: what ``status --json`` prints (``status``)."""

        phase: str
        open_pending: bool
        fool: str
        chips: dict[str, dict[str, int]]
        seats: list[SeatView]
        hand: HandView | None
        hands_played: int
        clock: int | None
        clock_paused: Paused | None      # R47: a pause or a break, while it lasts
        open_phase_due: bool
        charges: dict[str, int]
        in_force: list[InForce]          # S17
        over: bool
        winner: str | None


def _in_force(state: State) -> list[InForce]:
    """What binds the table now (S17). Between hands with no bar, exile or surcharge running
    nothing can, and the powers' machinery is not even loaded: ``status`` stays quick."""
    if state.hand is None and not state.barred and not state.exiles and not state.surcharges:
        return []
    from referee.evening.powers.constraints import in_force

    return list(in_force(state))


def status(state: State, now: float | None = None) -> Status:
    """The evening at a glance: the keys ``status --json`` prints, which scripts rely on."""
    now = time.time() if now is None else now
    played = play_time(state, now)
    chips: dict[str, dict[str, int]] = {}
    for holder, holding in state.chips.items():
        if holder == POT and state.hand is None:
            continue
        chips[holder] = {c: n for c, n in sorted(holding.items()) if n}
    seats: list[SeatView] = [
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
        "clock": None if played is None else int(played),  # E80, R47: play time
        "clock_paused": paused(state, now),  # R47: a break counts down in the ceremony too
        "open_phase_due": state.phase == "limit" and hour_passed(state, now),  # R13, R47
        "charges": dict(state.charges),
        "in_force": _in_force(state),  # S17: powers binding the table
        "over": state.over,
        "winner": state.winner,
    }


def hand_view(state: State) -> HandView | None:
    """The hand in progress, safe to show players: no down cards are ever stored."""
    hand = state.hand
    if hand is None:
        return None
    from referee.evening import betting  # a hand only: not for status between hands
    from referee.evening.powers import constraints
    from referee.rules.pots import pot_name  # loaded with the betting

    opts = betting.options(state, hand)
    layering = hand_pots(state, hand) if hand.contrib else None
    # Who can still win each pot (E29): those in it, and those still to act, who may call.
    able = set(betting.actors(state, hand)) if layering and not hand.betting_over else set()
    pots: list[PotView] = [{"name": pot_name(i), "size": size, "eligible": eligible}
                           for i, (size, eligible) in enumerate(_pots_won(hand, layering, able))]
    players = _player_views(state, hand, None if opts is None else opts.name,
                            constraints.suspended)
    return {
        "no": hand.no,
        "phase": hand.phase,
        "street": _street_dealt(state, hand),
        "in": hand.live,
        "folded": list(hand.folded),
        "all_in": [p for p in hand.live if p != state.fool
                   and (state.stack(p) == 0 or constraints.suspended(hand, p))],  # S19
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
        "up_waiting": [{"name": p, "have": len(hand.showing.get(p, [])),
                        "want": betting.up_cards_dealt(state, hand, p)}
                       for p in betting.missing_up_cards(state, hand)],  # R9
        "suspended": [p for p in hand.live if constraints.suspended(hand, p)],  # S19
        "opener_note": opener_note(state, hand),  # E88 (R15, R14, S19, S20)
        "effects": [f["text"] for f in _in_force(state)],  # S17: "Cy must call or fold: Cowed"
        "to_give": still_to_give(hand) if hand.betting_over else {},  # R44
    }


def _pots_won(hand: HandState, layering: Layering | None,
              able: set[str]) -> list[tuple[int, list[str]]]:
    """Each pot's size and who can still win it (its players, and ``able``: those still to
    act), in the hand's order; pots the same players can win made one."""
    pots: list[tuple[int, list[str]]] = []
    for pot in layering.pots if layering else []:
        eligible = [p for p in hand.order if p in pot.eligible or p in able]
        if pots and pots[-1][1] == eligible:
            pots[-1] = (pots[-1][0] + pot.size, eligible)
        else:
            pots.append((pot.size, eligible))
    return pots


def _player_views(state: State, hand: HandState, to_act: str | None,
                  suspended: Callable[[HandState, str], bool]) -> list[PlayerView]:
    """Each player of the hand as the table sees them, in the hand's order (``suspended``:
    whether a power suspends a player, S19)."""
    return [
        {
            "name": name,
            "up": list(hand.showing.get(name, [])),
            "round": hand.round.committed.get(name, 0),
            "hand": len(hand.contrib.get(name, [])),
            "ante": hand.antes.get(name, 0) - hand.tolls.get(name, 0),  # E280
            "toll": hand.tolls.get(name, 0),
            "stack": state.stack(name),
            "folded": name in hand.folded,
            "all_in": name != state.fool and name not in hand.folded
            and (state.stack(name) == 0 or suspended(hand, name)),  # S19
            "suspended": suspended(hand, name),  # S19: said so, not "all-in"
            "to_act": to_act == name,
            "down": None if name in hand.folded else down_cards(state, hand, name),  # E78
            "hooded": len(hand.hooded.get(name, [])),  # E77
            "cards": card_marks(hand, name),  # E76
        }
        for name in hand.order
    ]


def opener_note(state: State, hand: HandState) -> str | None:
    """Why the player opening the round is not the high hand showing (E88), while the round
    has had no action: "Max shows the high hand but has no chips: Cy opens (R15)". None when
    the high hand opens, or once the round is under way.

    The high hand is the best showing among every live player (dead cards left out, S21);
    the opener is the best among those who can bet (R9, R14, R15), unless a power names
    another (S20).
    """
    from referee.evening import betting  # a hand only: not for status between hands
    from referee.evening.powers import constraints

    if hand.betting_over or hand.round.actions or betting.missing_up_cards(state, hand):
        return None
    opens = betting.opener(state, hand)
    if opens is None:
        return None
    able = betting.actors(state, hand)
    usual = betting.first_in(state, hand, able)
    if opens != usual:
        by = next((f["power"] for f in constraints.binding(hand, "", ("opener",))), None)
        if by is not None:
            return f"{opens} opens this round by {by}, not {usual} (S20)"
        return None  # fixed by a power used on the turn (S11): that turn is under way
    high = betting.first_in(state, hand, hand.live)
    if high == opens:
        return None
    if constraints.suspended(hand, high):
        return f"{high} shows the high hand but is Suspended: {opens} opens (S19)"
    if high == state.fool:
        return f"{high} shows the high hand but has no chips: {opens} opens (R15)"
    return f"{high} shows the high hand but is all-in: {opens} opens (R14)"


#: Cards each stakeholder holds once a round's cards are dealt (R9): 4, 6, then 7.
DEALT = {1: 4, 2: 6, 3: 7}


def _street_dealt(state: State, hand: HandState) -> int:
    """The round being dealt or bet (1, 2, 3: after four, six, seven cards); once the betting
    is over, the cards the table holds, read from the Fool's, all up (R9, R15): betting that
    ends with a round (all but one all-in, E281) deals the next cards without betting, not
    before them."""
    if not hand.betting_over:
        return hand.round.street
    shown = len(hand.showing.get(state.fool, []))
    return max((s for s, n in DEALT.items() if n <= shown), default=1)


def down_cards(state: State, hand: HandState, name: str) -> int:
    """How many down cards ``name`` holds now, to be given at the showdown (E78): the cards
    dealt so far, less those handed to the Fool for a power (R26), less the up cards due
    (a card hooded counts as down, one turned up as up, S21). The Fool's are all up."""
    from referee.evening import betting  # a hand only: not for status between hands

    if name == state.fool:
        return 0
    dealt = 7 if hand.betting_over else DEALT[hand.round.street]
    held = dealt - len(hand.forfeited.get(name, []))
    return max(0, held - betting.up_cards_dealt(state, hand, name))


def card_marks(hand: HandState, name: str) -> list[CardMark]:
    """``name``'s up cards, each marked as the powers in force leave it (E76): ``dead``
    (Cut Down, S21), ``counts_as`` (the card it counts as, S22), ``held`` (held fast, S23)."""
    from referee.evening.powers import constraints

    dead = constraints.dead_cards(hand, name)
    counts = {f["card"]: f["counts"] for f in hand.effects
              if f["kind"] == "counts_as" and f["target"] == name}
    held = {f["card"] for f in hand.effects if f["kind"] == "protect" and f["target"] == name}
    return [{"card": c, "dead": c in dead, "counts_as": counts.get(c), "held": c in held}
            for c in hand.showing.get(name, [])]
