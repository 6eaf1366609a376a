"""``state.copy`` is a deep copy for what the folds change: folding any event of the demo
evening, or of the demo season, on a copy leaves the state it was copied from exactly as it
was, and the copy dumps to the same data as the original."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli.main import app
from referee.evening import folds
from referee.evening.events import EveningEvent
from referee.evening.state import State, copy, dump
from referee.storage.store import open_evening


def _events(db: Path) -> list[EveningEvent]:
    with open_evening(db, write=False) as ev:
        return [r["event"] for r in ev.records("evening")]


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> list[list[EveningEvent]]:
    folder = tmp_path_factory.mktemp("copy")
    one, season = folder / "demo.json", folder / "season-1.json"
    for args in (["demo", "--db", str(one), "--quiet"],
                 ["demo", "--season", "--db", str(season), "--quiet"]):
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 0, result.output
    return [_events(one), _events(season), _events(season.with_name("season-2.json"))]


def test_folding_on_a_copy_never_reaches_the_original(
        logs: list[list[EveningEvent]]) -> None:
    kinds = set()
    for log in logs:
        state = State()
        for event in log:
            was = dump(state)
            mine = copy(state)
            assert dump(mine) == was
            mine = folds.apply(mine, event)
            assert dump(state) == was, event["kind"]
            kinds.add(event["kind"])
            state = mine
    assert {"action", "power_used", "auction_bid", "showdown", "claim_decided",
            "ceremony_closed", "evening_continued"} <= kinds


def test_a_copy_shares_nothing_a_fold_changes(logs: list[list[EveningEvent]]) -> None:
    state = State()
    for event in logs[0]:
        state = folds.apply(state, event)
        if state.hand is not None and state.hand.round.committed:
            break
    assert state.hand is not None
    mine = copy(state)
    mine.chips[state.fool]["x"] = 1
    mine.hand.round.committed["x"] = 1  # type: ignore[union-attr]
    mine.hand.showing.setdefault(state.hand.order[0], []).append("x")  # type: ignore[union-attr]
    mine.seats[0].dead = True
    assert "x" not in state.chips[state.fool] and "x" not in state.hand.round.committed
    assert "x" not in state.hand.showing.get(state.hand.order[0], [])
    assert not state.seats[0].dead
