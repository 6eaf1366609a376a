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
