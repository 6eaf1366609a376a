"""The fate stream: the fold, JSON round trips, and the store replaying it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.content.side_tables import fate_tables
from referee.errors import InvariantViolation
from referee.rules import fate
from referee.rules.fate import Typed
from referee.rules.fate.pools import PoolSpec
from referee.storage.audit import verify
from referee.storage.store import open_evening
from referee.streams import spec
from tests.fate import fresh
from tests.profiles import examples


def test_registered_stream() -> None:
    assert spec("fate") is fate.STREAM


def _evening(state: dict[str, Any]) -> list[list[dict[str, Any]]]:
    """A short scripted evening: one list of events per command."""
    commands = []

    def run(events: list[dict[str, Any]]) -> None:
        commands.append(events)
        for event in events:
            fate.apply(state, json.loads(json.dumps(event)))

    run(fate.new_character(state, "Alice", measures=["fiery=7"], reps=["Loved=2"],
                           items=["Sabre=3"]))
    run(fate.new_character(state, "Bob", measures=["calm=7"]))
    run(fate.fight(state, "alice", "bob", a_weapon="sabre", seed=12).events)
    run(fate.run_test(state, PoolSpec(char="alice", measure="fiery", reps=("loved",)),
                      PoolSpec(base=9), seed=5).events)
    run(fate.drink(state, "bob", 4, seed=8).events)
    run(fate.duel_start(state, "swords", "alice", "bob", seed=3).events)
    return commands


def test_dump_load_round_trip() -> None:
    state = fresh()
    _evening(state)
    blob = json.loads(json.dumps(fate.dump(state)))
    assert fate.dump(fate.load(blob)) == blob


@settings(max_examples=examples(25), deadline=None)
@given(st.integers(0, 10**6))
def test_replaying_events_gives_the_same_state(seed: int) -> None:
    state = fresh()
    commands = []
    for events in _evening(state):
        commands.append(json.loads(json.dumps(events)))
    out = fate.run_test(state, PoolSpec(char="bob", measure="calm"), PoolSpec(base=3),
                        seed=seed)
    for event in out.events:
        fate.apply(state, json.loads(json.dumps(event)))
    commands.append(out.events)
    again = fresh()
    for events in commands:
        for event in events:
            fate.apply(again, json.loads(json.dumps(event)))
    assert again == state


def test_store_round_trip_verify_and_undo(tmp_path: Path) -> None:
    path = tmp_path / "ev.json"
    for i in range(6):
        with open_evening(path) as ev:
            events = _evening(fresh())[i]
            # Each command is validated against the stored state, like the CLI does.
            assert events
            if i == 0:  # the first command copies the tables in (F19)
                events = [fate.tables_event(dict(fate_tables())), *events]
            ev.commit("fate", events, text=f"cmd {i}")
    with open_evening(path, write=False) as ev:
        state = ev.state("fate")
        assert verify(ev) == []
    expected = fresh()
    for events in _evening(fresh()):
        for event in events:
            fate.apply(expected, json.loads(json.dumps(event)))
    assert state == expected
    with open_evening(path) as ev:
        ev.undo("fate")
    with open_evening(path, write=False) as ev:
        assert ev.state("fate")["duel"] is None
        assert verify(ev) == []


def test_fold_never_aliases_stored_events() -> None:
    state = fresh()
    event = fate.new_character(state, "Alice")[0]
    fate.apply(state, event)
    fate.apply(state, {"kind": "area_set", "char": "Alice", "area": "health", "state": "dead"})
    assert event["char"]["areas"]["health"] == "healthy"


@pytest.mark.parametrize("event", [
    {"kind": "area_set", "char": "Nobody", "area": "health", "state": "dead"},
    {"kind": "no_such_kind"},
])
def test_bad_events_are_bugs(event: dict[str, Any]) -> None:
    with pytest.raises(InvariantViolation):
        fate.apply(fresh(), event)


def test_every_event_kind_is_folded() -> None:
    state = fresh()
    kinds = set()
    for events in _evening(state):
        kinds |= {e["kind"] for e in events}
    assert kinds <= set(fate.EVENT_KINDS)
    out = fate.run_test(state, PoolSpec(), PoolSpec(), typed=Typed("7H", "2H", ""))
    assert out.events == []
