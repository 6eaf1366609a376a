"""The roster and the fold of the ceremony (``referee.evening.roster``; R40, E19, E101, E102).

A claim event that does not match the roster it is folded into is a bug, loudly.
"""

from __future__ import annotations

import pytest

from referee.errors import InvariantViolation
from referee.evening import ceremony, roster, souls
from tests.test_carry import closed_evening
from tests.test_souls import fold


def test_r40_a_first_evenings_roster_is_its_table() -> None:
    state = closed_evening()
    assert roster.at_start(state) == {0: "Max", 3: "Cy", 7: "Ed", 16: "Ada"}
    assert roster.member_arcanum(state, "Ed") == 7 and roster.member_arcanum(state, "Flo") is None
    assert roster.unseated(state) == []  # a first evening seats every member
    assert roster.numerals({16: "Ada", 0: "Max"}) == {"0": "Max", "XVI": "Ada"}


def test_e19_the_dead_hold_no_arcanum() -> None:
    state = closed_evening((souls.give_soul, "Ada", "Ed", "Ada's soul"),
                           (souls.smash, "Ed", "Ada's soul"))
    assert 16 not in roster.standing(state) and roster.dead(state) == {"Ada"}


def test_r40_a_claim_that_does_not_match_the_roster_is_a_bug() -> None:
    state = closed_evening()
    wrong = {"kind": "claim_decided", "person": "Flo", "arcanum": 3, "how": "promote",
             "points": 4, "occupant": "Ed", "occupant_points": 2}  # III is Cy's, not Ed's
    with pytest.raises(InvariantViolation, match="III is held by Cy"):
        fold(state, [wrong])
    moved = {**wrong, "how": "switch", "occupant": "Cy", "left": 9, "person": "Ed"}
    with pytest.raises(InvariantViolation, match="Ed does not hold IX"):
        fold(state, [moved])
    closed = {"kind": "ceremony_closed", "time": 3.0, "roster": {"0": "Max"}, "left": [],
              "unheard": []}
    with pytest.raises(InvariantViolation, match="is not the one the ceremony left"):
        fold(state, [closed])
    assert ceremony.close(state, now=3.0)[0]["roster"] == {"0": "Max", "III": "Cy",
                                                          "VII": "Ed", "XVI": "Ada"}
