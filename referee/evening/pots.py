"""The hand's pots as they stand (R14, R15): the main pot, the side pots and the chips no one
matched, and the pot the Fool takes when every stakeholder folds (E7). Below the betting
machine, which reads them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.evening.events import Showdown
from referee.evening.state import LATE, TOLL, HandState, State
from referee.rules.pots import build_pots, pot_name, split_pot

if TYPE_CHECKING:
    from referee.rules.pots import Layering


def pots(state: State, hand: HandState) -> Layering:
    """The hand's main pot, side pots and uncalled chips as they stand (R14, R15)."""
    tolls = [(f["chips"], f["passed"]) for f in hand.effects if f["kind"] == TOLL]  # E262
    late = [(str(f["target"]), sum(f["chips"].values()), f["passed"])
            for f in hand.effects if f["kind"] == LATE]  # E286
    return build_pots(hand.contrib, hand.live, state.fool, hand.antes, tolls, late)


def uncontested(state: State, hand: HandState) -> Showdown:
    """Every stakeholder has folded: the Fool takes the pot without a showdown, his hand live
    to the end (R15, E7); uncalled chips go back (R15)."""
    layering = pots(state, hand)
    colours = {s.name: s.colour for s in state.seats}
    return Showdown(
        kind="showdown", hands={}, best={}, leaders=[], returned=layering.returned,
        pots=[{"name": pot_name(i), "chips": pot.chips,
               "eligible": list(pot.eligible), "winners": [state.fool],
               "shares": split_pot(pot.chips, [state.fool], colours),
               "why": "every stakeholder folded; the Fool's hand is live to the end (R15)"}
              for i, pot in enumerate(layering.pots)],
        magic=False)
