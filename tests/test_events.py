"""Every event the evening's commands write has exactly the fields its record in
referee.evening.events names (one TypedDict per kind), and every kind the fold knows has one."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli.main import app
from referee.evening import events, folds
from referee.storage.store import open_evening


def test_every_kind_the_fold_knows_has_a_record() -> None:
    assert set(folds.HANDLERS) == set(events.KINDS)


@pytest.fixture(scope="module")
def demo_events(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, object]]:
    db: Path = tmp_path_factory.mktemp("events") / "demo.json"
    result = CliRunner().invoke(app, ["demo", "--db", str(db)])
    assert result.exit_code == 0, result.output
    with open_evening(db, write=False) as ev:
        return [r["event"] for r in ev.records("evening")]


def test_the_demo_evening_writes_only_the_fields_each_record_names(
        demo_events: list[dict[str, object]]) -> None:
    seen = set()
    for event in demo_events:
        kind = str(event["kind"])
        required, allowed = events.fields(kind)
        keys = set(event)
        assert required <= keys, (kind, sorted(required - keys))
        if kind != "power_used":  # a power's effect adds its own fields (target, cards ...)
            assert keys <= allowed, (kind, sorted(keys - allowed))
        seen.add(kind)
    assert {"hand_started", "cards_shown", "action", "showdown", "auction_bid",
            "soul_sold", "power_used"} <= seen


def test_a_record_can_fail() -> None:
    required, allowed = events.fields("soul_sold")
    assert "soul" in required and "holder" in allowed - required
    assert events.fields("chips_given")[0] >= {"from", "to", "chips"}


def test_r40_the_demo_season_writes_only_the_fields_each_record_names(
        tmp_path: Path) -> None:
    first = tmp_path / "season-1.json"
    result = CliRunner().invoke(app, ["demo", "--season", "--db", str(first), "--quiet"])
    assert result.exit_code == 0, result.output
    seen = set()
    for db in (first, first.with_name("season-2.json")):
        with open_evening(db, write=False) as ev:
            for record in ev.records("evening"):
                event = record["event"]
                required, allowed = events.fields(str(event["kind"]))
                if event["kind"] != "power_used":
                    assert required <= set(event) <= allowed, (event["kind"], sorted(event))
                seen.add(event["kind"])
    assert {"evening_ended", "claim_decided", "ceremony_closed", "evening_continued"} <= seen
