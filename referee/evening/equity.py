"""Who is ahead on what is showing, for the hand in progress (H26-H30). Pure.

:func:`public_showing` reads from the state only what the table shows (H26): each live
player's up cards as they lie, the cards out face up, and how many cards each will hold
(H27); :func:`equity_view` gives the figures as plain data, for the console and the table
page alike. The engine is :mod:`referee.rules.equity`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypedDict

from referee.errors import IllegalAction
from referee.evening import betting
from referee.evening.powers import constraints
from referee.evening.state import HandState, State, require_evening
from referee.rules.cards import parse_cards
from referee.rules.equity import CONFIDENCE, ERROR, Contender, Pot, Showing, equity
from referee.rules.equity import unseen_cards as _unseen
from referee.said import Suggest, said

if TYPE_CHECKING:
    from referee.evening.views import PotView

HAND_SIZE = 7  # R9: two down, four up, one down; the Fool's seven all up


def _need_hand(state: State) -> HandState:
    require_evening(state)
    if state.hand is None:
        raise IllegalAction(said("no hand in progress: the chances are for the hand being "
                                 "played; deal one with ", Suggest(("hand", "start")), " (H26)"),
                            ruling="H26")
    return state.hand


def public_showing(state: State) -> tuple[Showing, list[str]]:
    """The hand in progress as the table shows it (H26-H28), and notes for the GM.

    Seen, so out of the unseen cards: every up card on the table (folded players' too, dead
    ones too) and every card a power discarded face up. A dead card counts for nothing in
    its owner's hand; an up card changed by magic counts as what it was ruled to count as
    (R8). Unseen: the down cards, the cards still to come, a card a power turned face
    down, and the cards slid to the Fool for powers, which are known only to be majors.

    Raises:
        IllegalAction: no evening, or no hand in progress.
    """
    hand = _need_hand(state)
    notes: list[str] = []
    seen = [card for cards in hand.showing.values() for card in cards]
    seen += list(constraints.discarded(hand))  # S21: out of every hand, face up
    contenders = []
    missing: list[str] = []
    for name in hand.live:
        up = list(hand.showing.get(name, []))
        dead = constraints.dead_cards(hand, name)  # S21: on the table, counting for nothing
        counting = [card for card in up if card not in dead]
        magic = len(set(counting)) != len(counting)  # shown twice by magic (R8)
        for f in constraints.binding(hand, name, ("counts_as",)):
            if f["card"] in counting:  # H28: an up card counts as it was ruled to
                counting[counting.index(f["card"])] = f["counts"]
                magic = True
            else:
                notes.append(f"{name} holds a down card changed by magic ({f['power']}); "
                             "what it counts as is not showing, so it is counted as dealt "
                             "(H28)")
        held = HAND_SIZE - len(hand.forfeited.get(name, []))  # R26: given up for a power
        due = betting.up_cards_dealt(state, hand, name)
        if len(up) < due:
            missing.append(f"{'the Fool' if name == state.fool else name} {len(up)} of {due}")
        contenders.append(Contender(name, tuple(parse_cards(counting)),
                                    max(0, held - len(up)), magic))
    if missing:
        notes.append(str(said("up cards dealt but not given yet count as unseen until ",
                              Suggest(("hand", "show"), mention=True),
                              f" gives them (H27): {', '.join(missing)}")))
    majors_out = sum(len(cards) for cards in hand.forfeited.values())
    pots = tuple(Pot(p["name"], p["size"], tuple(p["eligible"])) for p in _pots(state, hand))
    return Showing(tuple(contenders), _unseen(parse_cards(seen)), pots, majors_out), notes


def _pots(state: State, hand: HandState) -> list[PotView]:
    """The pots as ``status`` shows them (E29): who put chips in, and who may still call."""
    from referee.evening.views import hand_view

    view = hand_view(state)
    assert view is not None
    return [p for p in view["pots"] if p["size"]]


class PlayerChance(TypedDict):
    """A live player's chance to win the hand (H26-H30)."""

    name: str
    fool: bool
    showing: list[str]                    # the up cards on the table
    counts: list[str]                     # the cards that count (dead ones out, S21)
    to_come: int                          # cards still to come or face down
    hand: float
    exact: str | None                     # the exact fraction, when counted exactly


class PotChance(TypedDict):
    name: str
    size: int
    eligible: list[str]
    chances: dict[str, float]
    exact: dict[str, str] | None


class EquityView(TypedDict):
    """``hand equity`` as data: how the figures were found, each player's and each pot's."""

    hand: int
    street: int
    betting_over: bool
    method: str                           # exact or sampled
    deals: int
    unseen: int
    majors_out: int
    error: float
    target: float
    confidence: float
    players: list[PlayerChance]
    pots: list[PotChance]
    notes: list[str]


def equity_view(state: State, *, seed: int = 0, error: float = ERROR) -> EquityView:
    """Each live player's chance to win the hand and each pot, from what is showing
    (H26-H30), as plain data: the same table gives the same figures (the sample is seeded).

    Raises:
        IllegalAction: no evening, or no hand in progress.
    """
    hand = _need_hand(state)
    showing, notes = public_showing(state)
    result = equity(showing, seed=seed, error=error)
    players: list[PlayerChance] = []
    for c in showing.contenders:
        fraction = result.fractions[c.name] if result.fractions else None
        players.append({
            "name": c.name,
            "fool": c.name == state.fool,
            "showing": list(hand.showing.get(c.name, [])),
            "counts": [card.short for card in c.known],
            "to_come": c.hidden,
            "hand": result.hand[c.name],
            "exact": None if fraction is None else str(fraction),
        })
    pots: list[PotChance] = [{
        "name": p.pot.name,
        "size": p.pot.size,
        "eligible": list(p.pot.eligible),
        "chances": dict(p.chances),
        "exact": None if p.fractions is None else {k: str(v) for k, v in p.fractions.items()},
    } for p in result.pots]
    return {
        "hand": hand.no,
        "street": hand.round.street,
        "betting_over": hand.betting_over,
        "method": "exact" if result.exact else "sampled",
        "deals": result.deals,
        "unseen": result.unseen,
        "majors_out": showing.majors_out,
        "error": result.error,
        "target": result.target,
        "confidence": CONFIDENCE,
        "players": players,
        "pots": pots,
        "notes": notes,
    }


def summary(view: EquityView) -> str:
    """One line saying how the figures of :func:`equity_view` were found and how far they
    can be trusted (H29)."""
    if view["method"] == "exact":
        return (f"Exact: every one of the {view['deals']:,} deals of the {view['unseen']} "
                "unseen cards counted (H29).")
    return (f"Sampled: {view['deals']:,} random deals of the {view['unseen']} unseen cards; "
            f"each figure is within ±{100 * view['error']:.2f} points of the exact chance, "
            "95 times in 100 (H29).")
