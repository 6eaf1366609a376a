"""E155: the shell keeps the state it folded between lines, under the file's checksum, and
starts from it only while the evening file is byte for byte the one it folded."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.errors import IllegalAction
from referee.evening import commands
from referee.storage import memo
from referee.storage.store import open_evening
from referee.streams import spec
from tests.profiles import examples

EVENING = "evening"
SEATS = ["Ada:I:red:Ann:II", "Bob:III:blue:Bea:IV"]


@pytest.fixture
def keeping() -> Iterator[None]:
    memo.keep()
    try:
        yield
    finally:
        memo.keep(False)


def commit(path: Path, build: object, text: str) -> None:
    with open_evening(path) as ev:
        ev.commit(EVENING, build(ev.state(EVENING)), text)  # type: ignore[operator]


def setup(path: Path) -> None:
    seats = [commands.parse_seat(s) for s in SEATS]
    commit(path, lambda s: commands.new_evening(s, "Fool", seats, now=0.0, force=False), "new")
    commit(path, lambda s: commands.rise(s, "Ada"), "rise Ada")


def folded(path: Path) -> str:
    """The evening as a fresh fold of the file reads it (nothing kept)."""
    was = memo._on
    memo.keep(False)
    try:
        with open_evening(path, write=False) as ev:
            return json.dumps(spec(EVENING).dump(ev.state(EVENING)), sort_keys=True)
    finally:
        memo.keep(was)


def read(path: Path) -> str:
    with open_evening(path, write=False) as ev:
        return json.dumps(spec(EVENING).dump(ev.state(EVENING)), sort_keys=True)


def test_a_line_after_a_write_starts_from_the_kept_fold(tmp_path: Path, keeping: None) -> None:
    path = tmp_path / "e.json"
    setup(path)
    commit(path, lambda s: commands.give_chips(s, "Ada", "Ann", "red:2"), "give")
    with open_evening(path, write=False) as ev:
        ev._live = []  # were the events folded again, the chips would be back with Ada
        state = ev.state(EVENING)
    assert state.holding("Ann").get("red") == 2
    assert read(path) == folded(path)


def test_a_file_written_elsewhere_is_folded_afresh(tmp_path: Path, keeping: None) -> None:
    path = tmp_path / "e.json"
    setup(path)
    commit(path, lambda s: commands.give_chips(s, "Ada", "Ann", "red:2"), "give")
    stale = dict(memo._kept)
    memo.keep(False)  # another terminal: a one-shot command, nothing kept
    commit(path, lambda s: commands.give_chips(s, "Ann", "Ada", "red:1"), "give back")
    memo.keep()
    memo._kept.update(stale)  # the shell still holds its fold of the file before
    with open_evening(path, write=False) as ev:
        assert ev.state(EVENING).holding("Ann").get("red") == 1
    assert read(path) == folded(path)


def test_the_kept_fold_is_a_copy(tmp_path: Path, keeping: None) -> None:
    path = tmp_path / "e.json"
    setup(path)
    with open_evening(path, write=False) as ev:
        ev.state(EVENING).fool = "Someone else"  # a caller that scribbles on its state
    assert json.loads(read(path))["fool"] == "Fool"


def test_undo_in_the_same_open_is_not_taken_for_the_file(tmp_path: Path, keeping: None) -> None:
    path = tmp_path / "e.json"
    setup(path)
    commit(path, lambda s: commands.give_chips(s, "Ada", "Ann", "red:2"), "give")
    with open_evening(path) as ev:
        ev.undo()
        assert ev.state(EVENING).holding("Ann").get("red") in (None, 0)
    assert read(path) == folded(path)


@settings(max_examples=examples(15), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(["give", "back", "undo", "redo", "outside"]), max_size=12))
def test_kept_reads_always_equal_a_fresh_fold(tmp_path_factory: pytest.TempPathFactory,
                                              steps: list[str]) -> None:
    """Whatever the shell and another terminal do in turn, what a line reads is the fold."""
    path = tmp_path_factory.mktemp("memo") / "e.json"
    memo.keep()
    try:
        setup(path)
        for step in steps:
            try:
                if step == "give":
                    commit(path, lambda s: commands.give_chips(s, "Ada", "Ann", "red:1"), step)
                elif step == "back":
                    commit(path, lambda s: commands.give_chips(s, "Ann", "Ada", "red:1"), step)
                elif step in ("undo", "redo"):
                    with open_evening(path) as ev:
                        getattr(ev, step)()
                else:
                    saved = dict(memo._kept)
                    memo.keep(False)
                    commit(path, lambda s: commands.give_chips(s, "Ada", "Ann", "red:2"), step)
                    memo.keep()
                    memo._kept.update(saved)  # the shell still holds its older fold
            except IllegalAction:  # a refused step (nothing to undo, Ada back at the table)
                pass
            assert read(path) == folded(path)
    finally:
        memo.keep(False)
