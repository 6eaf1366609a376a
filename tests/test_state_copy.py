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


def test_a_magic_card_moved_on_a_copy_stays_where_it_was_on_the_original(
        tmp_path: Path) -> None:
    """E252, E155: Exchange of Vows moves a magic card's effect to its new holder; folded on a
    copy (a dry run, a refused command, the shell's kept evening) it left the original's
    effect moved too, so the shell's next line ruled on a swap never recorded."""
    db = tmp_path / "e.json"
    lines = [["new", "--fool", "Fay", "--seat", "Cy:I:red:Ann:II", "--seat", "Bea:III:blue:Bob:IV"],
             ["soul", "guess", "Bob", "cobalt", "--name", "houdini"],
             ["soul", "guess", "Ann", "amber", "--name", "catherine the great"],
             ["hand", "start"], ["hand", "show", "Cy: KC KW", "Bea: 4C 5W", "Fay: AC 8P 9S 10S"],
             ["check"], ["check"], ["hand", "show", "Cy: +10C 2C", "Bea: +6C 7W", "Fay: +2P 3P"],
             ["power", "use", "Cy", "royal decree", "--card", "2C", "--access", "IV"], ["check"],
             ["power", "use", "Bea", "exchange of vows", "--card", "6C", "--target", "Cy",
              "--new", "2C", "--access", "VI"]]
    for args in lines:
        result = CliRunner().invoke(app, ["--db", str(db), *args])
        assert result.exit_code == 0, result.output
    state = State()
    for event in _events(db):
        was = dump(state)
        mine = folds.apply(copy(state), event)
        assert dump(state) == was, event["kind"]
        state = mine
    assert state.hand is not None
    assert [f["target"] for f in state.hand.effects if f["kind"] == "counts_as"] == ["Bea"]
