"""When a power may be used (S11-S16, R38): the moment its timing names, checked against the
hand as it stands, or one refusal saying which moment it is."""

from __future__ import annotations

from referee.evening.powers.building import Use
from referee.evening.state import answered
from referee.rules.power_vocab import TIMINGS
from referee.said import said


def check_timing(use: Use, timing: str) -> None:
    """S11: the moment the power's timing names, or a refusal saying which moment it is."""
    hand, name = use.hand, use.name
    moment = TIMINGS.get(timing, timing)
    if timing in ("own_turn", "before_turn", "round_end") and hand.betting_over:
        raise use.fail(f"played {moment}; the betting of hand {hand.no} is over")
    current = use.now.to_act  # the turn, read once for the use (TableNow)
    if timing in ("own_turn", "before_turn") and current is None:
        raise use.fail(said(f"played {moment}; nobody is to act yet: ",
                            use.now.waiting()))
    if timing == "own_turn":
        if current != name:
            raise use.fail(said(f"played {moment}; {current} is to act, not {name}: ",
                                use.now.commands(), " first"))
    elif timing == "before_turn":
        _before_turn(use, moment, current)
    elif timing == "round_end":
        if hand.round.street < 2 or hand.round.actions > 0:
            raise use.fail(f"played {moment}: after a round's last action and before the "
                           "next round's first (S14)", "S14")
    elif timing in ("answer_bet", "answer_power"):
        _at_once(use, moment, "bet" if timing == "answer_bet" else "power")


def _before_turn(use: Use, moment: str, current: str | None) -> None:
    """S13: just before another stakeholder's turn, on that stakeholder (never the Fool)."""
    if current == use.name:
        raise use.fail(f"played {moment} (S13); it is {use.name}'s own turn")
    if current == use.state.fool:
        raise use.fail(f"played {moment} (S13); the Fool is to act, and powers never touch "
                       "him", "S7")
    given = use.given.get("target")
    if given is not None and use.person(str(given)) != current:
        raise use.fail(f"played {moment}: on the stakeholder to act, {current} (S13)", "S13")


def _at_once(use: Use, moment: str, want: str) -> None:
    """S15, R38: in answer to the bet or power just made, by its slider if a card was slid."""
    answer = use.hand.answerable
    if answer is None or not answered(answer, want) or answer["by"] == use.name:
        raise use.fail(f"played {moment}, at once: nothing else may have happened since "
                       "(S15)", "S15")
    if answer.get("via") not in (None, use.name):
        raise use.fail(f"played {moment}, at once: {answer['via']} has slid a card to the "
                       f"Fool since, and only that answer may follow (R38)", "R38")
