"""What a command changes, as data (E133): the rulings its events name."""

from __future__ import annotations

from referee.evening.change import rulings


def test_e133_rulings_come_from_the_kind_the_move_and_the_ids_the_events_name() -> None:
    events = [{"kind": "action", "name": "Ed", "action": "raise", "chips": {"green": 2},
               "all_in": True, "auto": False},
              {"kind": "chips_given", "from": "Ben", "to": "Di", "chips": {"red": 1},
               "ruling": "the split overridden (R11)"}]
    assert rulings(events) == ["R9", "R12", "R14", "R11", "E24", "R16"]
    assert rulings([{"kind": "action", "name": "Max", "action": "call", "chips": {},
                     "all_in": False, "auto": True}]) == ["R15"]
    assert rulings([]) == []


def test_e133_a_bet_is_ruled_by_its_phase() -> None:
    """R12 is the limit phase's one chip; a bet or raise in the open phase is R13's."""
    bet = [{"kind": "action", "name": "Ed", "action": "bet", "chips": {"green": 5},
            "all_in": False, "auto": False}]
    assert rulings(bet) == rulings(bet, "limit") == ["R9", "R12", "R11"]
    assert rulings(bet, "open") == ["R9", "R13", "R11"]
