"""Every event the evening's commands write has exactly the fields its record in
referee.evening.events names (one TypedDict per kind), and every kind the fold knows has one."""

from __future__ import annotations

import textwrap
import typing
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli.main import app
from referee.errors import InvariantViolation
from referee.evening import events, folds
from referee.storage.store import open_evening
from tests.cli.serving import make_demo


def test_every_kind_the_fold_knows_has_a_record() -> None:
    assert set(folds.HANDLERS) == set(events.KINDS)


@pytest.fixture(scope="module")
def demo_events(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, object]]:
    db = make_demo(tmp_path_factory.mktemp("events"))
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


def test_the_union_holds_every_kind_and_each_record_names_its_own_kind() -> None:
    assert set(typing.get_args(events.EveningEvent)) == set(events.KINDS.values())
    for kind, record in events.KINDS.items():
        assert typing.get_args(typing.get_type_hints(record)["kind"]) == (kind,), kind


def test_a_stored_event_is_read_through_its_record() -> None:
    raw = {"kind": "cards_shown", "name": "Ada", "cards": ["KC"]}
    assert events.read(raw) is raw  # the stored JSON itself: nothing copied, nothing reshaped
    with pytest.raises(InvariantViolation, match="unknown event kind 'card_shown'"):
        events.read({"kind": "card_shown", "name": "Ada", "cards": ["KC"]})
    with pytest.raises(InvariantViolation, match="a cards_shown event without cards"):
        events.read({"kind": "cards_shown", "name": "Ada"})


def test_the_type_checker_sees_the_records(tmp_path: Path) -> None:
    """A record built without a field it requires, or read for a field another kind has, is a
    type error; the evening file's evening stream is its State, not Any."""
    from mypy import api

    probe = tmp_path / "probe.py"
    probe.write_text(textwrap.dedent('''
        from pathlib import Path

        from referee.evening.events import Action, EveningEvent
        from referee.storage.store import open_evening

        bad = Action(kind="action", name="Ada", action="bet", all_in=False, auto=False)

        def chips(event: EveningEvent) -> object:
            return event["chips"]

        with open_evening(Path("x.json"), write=False) as ev:
            reveal_type(ev.state("evening"))
    '''))
    out, _, status = api.run(["--strict", "--no-error-summary", str(probe)])
    assert status == 1, out
    assert 'Missing key "chips" for TypedDict "Action"' in out, out
    assert 'TypedDict "CardsShown" has no key "chips"' in out, out
    assert 'Revealed type is "referee.evening.state.State"' in out, out
