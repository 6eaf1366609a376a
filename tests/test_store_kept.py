"""E155: the shell keeps the evening file as it last wrote it, and its tables. A line whose
file is still those bytes takes the tables from memory; any other byte and the file is read
afresh. What is written is byte for byte what the store writes without the memory."""

from __future__ import annotations

import itertools
import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee import streams
from referee.errors import IllegalAction, InvariantViolation, StoreError
from referee.evening import commands
from referee.storage import files, memo, store
from referee.storage.answers import mark_answered
from referee.storage.store import open_evening
from referee.streams import Event, StreamSpec, spec
from tests.profiles import examples

EVENING = "evening"
SEATS = ["Ada:I:red:Ann:II", "Bob:III:blue:Bea:IV"]


def _toy_apply(state: dict[str, int], event: Event) -> dict[str, int]:
    state["n"] += event["by"]
    if state["n"] < 0:
        raise InvariantViolation("the toy counter went negative")
    return state


#: A second stream beside the evening, as a side table is: undo of its command takes back a
#: command that is not the newest in the file, and the events after it are chained anew.
TOY = StreamSpec(name="toy", empty=lambda: {"n": 0}, apply=_toy_apply, dump=dict, load=dict)


@pytest.fixture(autouse=True)
def _toy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(streams._loaded, "toy", TOY)


@pytest.fixture
def keeping() -> Iterator[None]:
    memo.keep()
    try:
        yield
    finally:
        memo.keep(False)


@pytest.fixture
def answers(monkeypatch: pytest.MonkeyPatch) -> None:
    """Commands record who wrote them, as on the command line (E41): the answer slot too."""
    monkeypatch.setattr(files, "TRACK_ANSWERS", True)


def commit(path: Path, build: Callable[[Any], list[Any]], text: str) -> None:
    with open_evening(path) as ev:
        ev.commit(EVENING, build(ev.state(EVENING)), text)


def setup(path: Path) -> None:
    seats = [commands.parse_seat(s) for s in SEATS]
    commit(path, lambda s: commands.new_evening(s, "Fool", seats, now=0.0, force=False), "new")
    commit(path, lambda s: commands.rise(s, "Ada"), "rise Ada")


def give(path: Path, src: str, dst: str) -> None:
    commit(path, lambda s: commands.give_chips(s, src, dst, "red:1"), f"give {src} {dst}")


def step(path: Path, what: str) -> None:
    """One command of a night, as the store sees it; a refused one changes nothing."""
    try:
        if what == "give":
            give(path, "Ada", "Ann")
        elif what == "back":
            give(path, "Ann", "Ada")
        elif what == "toy":
            with open_evening(path) as ev:
                ev.commit("toy", [{"kind": "add", "by": 1}], "toy +1")
        elif what in ("undo", "redo"):
            with open_evening(path) as ev:
                getattr(ev, what)()
        elif what in ("undo toy", "redo toy"):
            with open_evening(path) as ev:
                getattr(ev, what.split()[0])("toy")
        elif what == "refused":
            with open_evening(path) as ev:  # a command that fails after it changed things
                ev.undo()
                ev.commit("toy", [{"kind": "add", "by": -99}], "toy -99")
        elif what == "read":
            with open_evening(path, write=False) as ev:
                ev.state(EVENING)
    except (IllegalAction, InvariantViolation):
        pass


def opened(path: Path) -> tuple[dict[str, Any], str]:
    """The tables a read-only open holds, and the evening's state it folds."""
    with open_evening(path, write=False) as ev:
        tables = {"meta": ev.meta, "snapshot": ev._snapshot, "live": ev._live,
                  "undone": ev._undone}
        return tables, json.dumps(spec(EVENING).dump(ev.state(EVENING)), sort_keys=True)


def fresh(path: Path) -> tuple[dict[str, Any], str]:
    """``opened`` by a process that keeps nothing; what is kept stays kept."""
    was = memo.keeping()
    saved = dict(memo._files), dict(memo._kept)
    memo.keep(False)
    try:
        return opened(path)
    finally:
        if was:
            memo.keep()
            memo._files.update(saved[0])
            memo._kept.update(saved[1])


def night(path: Path, steps: list[str], *, keep: bool) -> list[bytes]:
    """The file's bytes (and its segments') after each step, times and tokens fixed."""
    memo.keep(keep)
    try:
        setup(path)
        found = []
        for what in steps:
            step(path, what)
            folder = path.with_name(path.name + ".segments")
            found.append(path.read_bytes() + b"".join(
                p.read_bytes() for p in sorted(folder.glob("*.json"))))
        return found
    finally:
        memo.keep(False)


STEPS = ["give", "back", "toy", "undo", "redo", "undo toy", "redo toy", "refused", "read"]


@settings(max_examples=examples(20), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(STEPS), min_size=1, max_size=14))
def test_the_bytes_written_are_those_of_the_uncached_path(
        tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch,
        answers: None, steps: list[str]) -> None:
    """The same night with and without the memory: the same bytes after every command, the
    seals, the undo across a seal and the chain made anew after a side table's undo included."""
    monkeypatch.setattr(store, "SEGMENT_SIZE", 3)
    runs = []
    for keep in (False, True):
        clock = itertools.count(1_000_000)
        tokens = itertools.count(1)
        monkeypatch.setattr(store.time, "time", lambda c=clock: float(next(c)) / 8)
        monkeypatch.setattr(store, "new_token", lambda t=tokens: f"{next(t):032x}")
        runs.append(night(tmp_path_factory.mktemp("night") / "e.json", steps, keep=keep))
    assert runs[0] == runs[1]


def test_a_line_takes_the_tables_kept_while_the_file_is_unchanged(
        tmp_path: Path, keeping: None, answers: None) -> None:
    path = tmp_path / "e.json"
    setup(path)
    with open_evening(path, write=False) as ev:
        assert ev._kept is not None  # not decoded again
        token = ev.meta["pending"]["token"]
    mark_answered(path, token)  # the answer shown: 32 bytes of the slot overwritten in place
    with open_evening(path, write=False) as ev:
        assert ev._kept is not None and ev.unanswered is None
    assert opened(path) == fresh(path)


def test_the_kept_file_does_not_survive_a_changed_file(tmp_path: Path, keeping: None) -> None:
    path = tmp_path / "e.json"
    setup(path)
    give(path, "Ada", "Ann")
    kept = memo.written(path)
    assert kept is not None
    memo.keep(False)  # another terminal writes: a one-shot command, nothing kept
    give(path, "Ada", "Ann")
    memo.keep()
    memo._files[str(path)] = kept  # the shell still holds the file as it wrote it
    with open_evening(path) as ev:
        assert ev._kept is None  # read afresh
        assert ev.state(EVENING).holding("Ann").get("red") == 2
    assert opened(path) == fresh(path)


def test_a_byte_changed_in_place_is_caught_though_size_and_time_are_kept(
        tmp_path: Path, keeping: None) -> None:
    path = tmp_path / "e.json"
    setup(path)
    give(path, "Ada", "Ann")
    raw = path.read_bytes()
    stat = path.stat()
    at = raw.rindex(b'"text":"give Ada Ann"') + len(b'"text":"give A')
    with open(path, "r+b") as handle:  # in place, the same size
        handle.seek(at)
        handle.write(b"x")
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    for write in (True, False):
        with pytest.raises(StoreError, match="checksum does not match"):
            with open_evening(path, write=write):
                pass


def test_a_refused_command_changes_nothing_kept(tmp_path: Path, keeping: None) -> None:
    path = tmp_path / "e.json"
    setup(path)
    give(path, "Ada", "Ann")
    with open_evening(path) as ev:
        ev.commit("toy", [{"kind": "add", "by": 1}], "toy +1")
    before = path.read_bytes()
    kept = memo.written(path)
    assert kept is not None
    rows = json.dumps([kept.tables.live.rows, kept.tables.undone.rows, kept.tables.meta])
    with pytest.raises(IllegalAction), open_evening(path) as ev:
        ev.undo(EVENING)  # not the newest command: the toy's after it is chained anew
        ev.redo(EVENING)
        ev.undo(EVENING)
        raise IllegalAction("refused after the changes")
    assert path.read_bytes() == before
    assert memo.written(path) is kept
    assert json.dumps([kept.tables.live.rows, kept.tables.undone.rows, kept.tables.meta]) == rows
    with open_evening(path, write=False) as ev:
        assert ev._kept is not None
        assert ev.state(EVENING).holding("Ann").get("red") == 1
    assert opened(path) == fresh(path)


@settings(max_examples=examples(15), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from([*STEPS, "outside"]), max_size=12))
def test_kept_tables_always_equal_a_fresh_read(tmp_path_factory: pytest.TempPathFactory,
                                              monkeypatch: pytest.MonkeyPatch,
                                              steps: list[str]) -> None:
    """Whatever the shell and another terminal do in turn, a line opens the tables a fresh
    read gives, and the state a fresh fold gives."""
    monkeypatch.setattr(store, "SEGMENT_SIZE", 3)
    path = tmp_path_factory.mktemp("kept") / "e.json"
    memo.keep()
    try:
        setup(path)
        for what in steps:
            if what == "outside":
                saved = dict(memo._files), dict(memo._kept)
                memo.keep(False)
                step(path, "give")
                memo.keep()
                memo._files.update(saved[0])  # the shell still holds the file before
                memo._kept.update(saved[1])
            else:
                step(path, what)
            assert opened(path) == fresh(path)
    finally:
        memo.keep(False)
