"""The evening file (referee.storage.store): atomic writes, corrupt files, backups, the hash chain,
sealed segments and snapshots, undo/redo, the lock, read-only opens."""

from __future__ import annotations

import copy
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from referee import streams
from referee.cli.main import app
from referee.errors import IllegalAction, InvariantViolation, StoreError
from referee.evening import commands
from referee.evening.state import CHIPS_PER_COLOUR, State
from referee.storage import store
from referee.storage.audit import verify
from referee.storage.store import atomic_write, newest_good_backup, open_evening
from referee.streams import Event, StreamSpec, spec

EVENING = "evening"
SEATS = ["Ada:I:red:Ann:II", "Bob:III:blue:Bea:IV", "Cy:V:green"]


# -- helpers ------------------------------------------------------------------------------------


def commit(path: Path, build: Any, text: str) -> None:
    """One command, as the CLI runs it: open under the lock, build, commit, flush."""
    with open_evening(path) as ev:
        ev.commit(EVENING, build(ev.state(EVENING)), text)


def new_evening(path: Path) -> None:
    """Three seats; Ada and Bob rise, so they and the assistants may trade chips (R16)."""
    seats = [commands.parse_seat(s) for s in SEATS]
    commit(path, lambda s: commands.new_evening(s, "Fool", seats, now=0.0, force=False), "new")
    commit(path, lambda s: commands.rise(s, "Ada"), "rise Ada")
    commit(path, lambda s: commands.rise(s, "Bob"), "rise Bob")


def give(path: Path, src: str, dst: str, chips: str) -> None:
    commit(path, lambda s: commands.give_chips(s, src, dst, chips), f"chips give {src} {dst} "
           f"{chips}")


def shuffle_chips(path: Path, n: int) -> None:
    """``n`` transfers between Ada and Ann, alternating, each one command."""
    for i in range(n):
        if i % 2 == 0:
            give(path, "Ada", "Ann", "red:1")
        else:
            give(path, "Ann", "Ada", "red:1")


def evening_state(path: Path) -> State:
    with open_evening(path, write=False) as ev:
        state: State = ev.state(EVENING)
    return state


def dumped(stream: str, state: Any) -> str:
    return json.dumps(spec(stream).dump(state), sort_keys=True)


def refold(ev: store.Evening, stream: str = EVENING) -> str:
    """A fresh fold of every stored record of ``stream``, ignoring the snapshots."""
    sp = spec(stream)
    state = sp.empty()
    for record in ev.records(stream):
        state = sp.apply(state, copy.deepcopy(record["event"]))
    return dumped(stream, state)


def assert_chips_conserved(state: State) -> None:
    totals: dict[str, int] = {}
    for holder, holding in state.chips.items():
        for colour, n in holding.items():
            assert n >= 0, (holder, colour, n)
            totals[colour] = totals.get(colour, 0) + n
    assert totals == dict.fromkeys(state.colours(), CHIPS_PER_COLOUR)


def all_files(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*")}


def raw(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def toy_apply(state: dict[str, int], event: Event) -> dict[str, int]:
    state["n"] += event["n"]  # mutates first, checks after, like the evening's fold
    if state["n"] < 0:
        raise InvariantViolation(f"toy counter went negative: {state['n']}")
    return state


TOY = StreamSpec(name="toy", empty=lambda: {"n": 0}, apply=toy_apply, dump=dict, load=dict)


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A second stream (a counter) beside the evening, as the side tables are."""
    monkeypatch.setitem(streams._loaded, "toy", TOY)
    yield "toy"


def add(path: Path, n: int) -> None:
    with open_evening(path) as ev:
        ev.commit("toy", [{"kind": "add", "n": n}], f"add {n}")


# -- atomic writes ------------------------------------------------------------------------------


def test_atomic_write_replaces_whole_and_leaves_no_temp_files(tmp_path: Path) -> None:
    target = tmp_path / "e.json"
    for i in range(5):
        atomic_write(target, f"version {i}" * (i + 1))
        assert target.read_text() == f"version {i}" * (i + 1)
    assert all_files(tmp_path) == {"e.json"}


def test_atomic_write_that_fails_keeps_the_old_file_and_no_temp(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "e.json"
    atomic_write(target, "old")

    def broken_replace(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("referee.storage.files.os.replace", broken_replace)
    with pytest.raises(OSError):
        atomic_write(target, "new")
    assert target.read_text() == "old"
    assert all_files(tmp_path) == {"e.json"}


def test_a_night_of_commands_leaves_no_temp_files(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store, "SEGMENT_SIZE", 4)
    db = tmp_path / "e.json"
    new_evening(db)
    shuffle_chips(db, 12)
    names = all_files(tmp_path)
    assert not [n for n in names if n.endswith(".tmp")], names
    assert "e.json.segments" in names  # segments were sealed on the way


def test_temp_files_of_a_killed_writer_are_removed_by_the_next_command(tmp_path: Path) -> None:
    db = tmp_path / "e.json"
    new_evening(db)
    stale = [tmp_path / ".e.json.4242.1234567890123.tmp", tmp_path / ".e.json.k3x_9a2q.tmp",
             tmp_path / ".e.json.bak.tmp", tmp_path / "e.json.segments" / ".000001.json.1.2.tmp"]
    others = [tmp_path / ".e.json.other.4242.123.tmp",  # the temps of an evening e.json.other
              tmp_path / ".e.json.other.abcdefgh.tmp"]
    (tmp_path / "e.json.segments").mkdir()
    for path in [*stale, *others]:
        path.write_text("half a file")
    give(db, "Ada", "Ann", "red:1")
    assert [p for p in stale if p.exists()] == []
    assert all(p.exists() for p in others)


# -- corrupt files and backups --------------------------------------------------------------------


CORRUPTIONS = {
    "truncated": lambda text: text[: len(text) // 2],
    "empty": lambda text: "",
    "binary junk": lambda text: "\x00\xff garbage",
    "a JSON list": lambda text: "[1, 2, 3]",
    "no header": lambda text: "{}",
    "malformed tables": lambda text: '{"meta": 5, "events": "x"}',
}


@pytest.mark.parametrize("how", sorted(CORRUPTIONS))
def test_corrupt_file_is_reported_with_newest_good_backup_and_never_overwritten(
        tmp_path: Path, how: str) -> None:
    db = tmp_path / "e.json"
    new_evening(db)
    give(db, "Ada", "Ann", "red:2")
    db.write_text(CORRUPTIONS[how](db.read_text()))
    damaged = db.read_bytes()
    backups = {p: p.read_bytes() for p in tmp_path.glob("e.json.bak.*")}
    assert newest_good_backup(db) == tmp_path / "e.json.bak.1"

    for write in (True, False):
        with pytest.raises(StoreError) as info:
            with open_evening(db, write=write) as ev:
                ev.commit(EVENING, [], "never reached")
        message = str(info.value)
        assert " is damaged (" in message and str(tmp_path / "e.json.bak.1") in message, message
    result = CliRunner().invoke(app, ["--db", str(db), "chips", "give", "Ann", "Ada", "red:1"])
    assert result.exit_code == 2, result.output
    assert "e.json.bak.1" in result.stderr
    assert db.read_bytes() == damaged
    assert {p: p.read_bytes() for p in tmp_path.glob("e.json.bak.*")} == backups


def test_corrupt_file_names_the_newest_backup_that_parses(tmp_path: Path) -> None:
    db = tmp_path / "e.json"
    new_evening(db)
    shuffle_chips(db, 3)
    db.write_text("{broken")
    (tmp_path / "e.json.bak.1").write_text("{also broken")
    with pytest.raises(StoreError, match=r"e\.json\.bak\.2"):
        with open_evening(db):
            pass
    for n in (2, 3):
        (tmp_path / f"e.json.bak.{n}").write_text("")
    with pytest.raises(StoreError, match="no good backup"):
        with open_evening(db):
            pass
    assert db.read_text() == "{broken"


def test_backups_rotate_keeping_the_three_previous_versions(tmp_path: Path) -> None:
    db = tmp_path / "e.json"
    new_evening(db)
    versions = [db.read_bytes()]
    for i in range(5):
        if i % 2 == 0:
            give(db, "Ada", "Ann", f"red:{i + 1}")
        else:
            give(db, "Ann", "Ada", "red:1")
        versions.append(db.read_bytes())
        assert len(set(versions)) == len(versions)
        for n in range(1, min(3, len(versions) - 1) + 1):
            assert (tmp_path / f"e.json.bak.{n}").read_bytes() == versions[-1 - n]
    assert not (tmp_path / "e.json.bak.4").exists()


def test_a_rejected_command_writes_nothing(tmp_path: Path) -> None:
    db = tmp_path / "e.json"
    new_evening(db)
    before = {name: (tmp_path / name).read_bytes() for name in all_files(tmp_path)}
    with pytest.raises(IllegalAction):
        give(db, "Ann", "Bea", "red:1")  # Ann holds nothing
    with pytest.raises(RuntimeError):
        with open_evening(db) as ev:
            ev.commit(EVENING, commands.give_chips(ev.state(EVENING), "Ada", "Ann", "red:3"), "x")
            raise RuntimeError("the command failed after committing")
    after = {name: (tmp_path / name).read_bytes() for name in all_files(tmp_path)}
    assert after == before


# -- the hash chain ----------------------------------------------------------------------------


def verify_file(path: Path) -> list[str]:
    with open_evening(path, write=False, audit=True) as ev:
        return verify(ev)


def cli_verify(path: Path) -> int:
    return CliRunner().invoke(app, ["--db", str(path), "verify"]).exit_code


def chained_evening(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, list[Path]]:
    """An evening of 3 + 9 commands: two sealed segments of 5 events, and 2 live events."""
    monkeypatch.setattr(store, "SEGMENT_SIZE", 5)
    db = tmp_path / "e.json"
    new_evening(db)
    shuffle_chips(db, 9)
    files = [db, *sorted((tmp_path / "e.json.segments").glob("*.json"))]
    assert len(files) == 3 and len(raw(db).get("events", {})) == 2
    assert verify_file(db) == [] and cli_verify(db) == 0
    return db, files


def event_slots(files: list[Path]) -> list[tuple[Path, Any]]:
    """(file, key) of every stored event: keys of the ``events`` table, or list indices."""
    slots: list[tuple[Path, Any]] = []
    for path in files:
        events = raw(path)["events"]
        keys = list(events) if isinstance(events, dict) else range(len(events))
        slots += [(path, key) for key in keys]
    return slots


def test_every_event_is_chained(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db, files = chained_evening(tmp_path, monkeypatch)
    with open_evening(db, write=False) as ev:
        records = list(ev.records())
    assert [r["seq"] for r in records] == list(range(1, 13))
    assert len(event_slots(files)) == 12


TAMPERINGS = {
    "content": lambda r: r["event"].update(tampered=True),
    "text": lambda r: r.update(text=r["text"] + " (edited)"),
    "time": lambda r: r.update(time=r["time"] + 1),
    "stream": lambda r: r.update(stream="toy"),
    "hash field removed": lambda r: r.pop("hash"),
}


@pytest.mark.parametrize("how", sorted(TAMPERINGS))
def test_tampering_with_any_event_is_caught_by_verify(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    db, files = chained_evening(tmp_path, monkeypatch)
    pristine = {p: p.read_bytes() for p in files}
    for path, key in event_slots(files):
        data = raw(path)
        TAMPERINGS[how](data["events"][key])
        path.write_text(json.dumps(data))
        assert verify_file(db), f"{how} of event {key} in {path.name} went unnoticed"
        assert cli_verify(db) == 2
        path.write_bytes(pristine[path])
    assert verify_file(db) == []


def test_deleting_any_event_is_caught_by_verify(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db, files = chained_evening(tmp_path, monkeypatch)
    pristine = {p: p.read_bytes() for p in files}
    for path, key in event_slots(files):
        data = raw(path)
        del data["events"][key]
        path.write_text(json.dumps(data))
        assert verify_file(db), f"deleting event {key} of {path.name} went unnoticed"
        assert cli_verify(db) == 2
        path.write_bytes(pristine[path])
    assert verify_file(db) == []


def test_tampering_with_the_snapshot_or_losing_a_segment_is_caught(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db, files = chained_evening(tmp_path, monkeypatch)
    data = raw(db)
    data["snapshot"]["1"]["states"][EVENING]["chips"]["Ada"]["red"] += 1
    data["snapshot"]["1"]["states"][EVENING]["chips"]["Ann"]["red"] -= 1
    pristine = db.read_bytes()
    db.write_text(json.dumps(data))
    assert any("snapshot" in p for p in verify_file(db))
    assert cli_verify(db) == 2
    db.write_bytes(pristine)
    files[1].unlink()
    assert any("missing" in p for p in verify_file(db))


def test_cli_verify_reports_a_missing_segment_as_a_problem(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db, files = chained_evening(tmp_path, monkeypatch)
    files[1].unlink()
    result = CliRunner().invoke(app, ["--db", str(db), "verify"])
    assert result.exit_code == 2, result.output


# -- segments and snapshots ---------------------------------------------------------------------


def test_segments_seal_and_the_state_equals_a_fresh_fold(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store, "SEGMENT_SIZE", 4)
    db = tmp_path / "e.json"
    new_evening(db)
    for i in range(30):
        if i % 3 == 0:
            give(db, "Bob", "Bea", "blue:1")
        else:
            give(db, *(("Ada", "Ann") if i % 3 == 1 else ("Ann", "Ada")), "red:1")
        with open_evening(db, write=False) as ev:
            assert dumped(EVENING, ev.state(EVENING)) == refold(ev)
            assert len(raw(db).get("events", {})) < 4  # a command reads a bounded amount
    with open_evening(db, write=False) as ev:
        seqs = [r["seq"] for r in ev.records()]
        assert verify(ev) == []
        assert ev.meta["segments"] == len(list((tmp_path / "e.json.segments").glob("*.json")))
        assert ev.meta["segments"] >= 7
        state = ev.state(EVENING)
    assert seqs == list(range(1, 34))
    assert state.chips["Ann"] == {} and state.chips["Bea"] == {"blue": 10}
    assert_chips_conserved(state)


def sealed_with_nothing_live(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An evening whose last flush sealed every event: the live table is empty."""
    monkeypatch.setattr(store, "SEGMENT_SIZE", 5)
    db = tmp_path / "e.json"
    new_evening(db)
    shuffle_chips(db, 2)
    assert raw(db).get("events", {}) == {} and raw(db)["meta"]["1"]["segments"] == 1
    return db


def test_undo_reaches_across_a_sealed_segment(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = sealed_with_nothing_live(tmp_path, monkeypatch)
    for expected_red in (9, 10):  # undo "Ann gives Ada 1", then "Ada gives Ann 1"
        with open_evening(db) as ev:
            undone = ev.undo(EVENING)
        assert undone.text.startswith("chips give")
        state = evening_state(db)
        assert state.chips["Ada"].get("red") == expected_red
        with open_evening(db, write=False) as ev:
            assert verify(ev) == []
            assert dumped(EVENING, ev.state(EVENING)) == refold(ev)
    with open_evening(db, write=False) as ev:
        assert [c.text for c in ev.commands()] == ["new", "rise Ada", "rise Bob"]
        assert [u["text"] for u in ev.undone()] == ["chips give Ann Ada red:1",
                                                    "chips give Ada Ann red:1"]


def test_undo_redo_and_a_reseal_keep_sealed_segments_immutable(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = sealed_with_nothing_live(tmp_path, monkeypatch)
    segments = tmp_path / "e.json.segments"
    sealed = {p.name: p.read_bytes() for p in segments.iterdir()}
    old_version = db.read_bytes()  # what a backup of this moment holds
    with open_evening(db, write=False) as ev:
        old_records = list(ev.records())
    with open_evening(db) as ev:
        ev.undo(EVENING)
    give(db, "Bob", "Bea", "blue:3")  # five live events again: sealed anew
    assert raw(db)["meta"]["1"]["segments"] == 1
    for name, content in sealed.items():
        assert (segments / name).read_bytes() == content, f"sealed segment {name} rewritten"
    assert verify_file(db) == []
    assert evening_state(db).chips["Bea"] == {"blue": 3}
    # The GM restores the older version (a backup): it still verifies and reads the same.
    db.write_bytes(old_version)
    with open_evening(db, write=False) as ev:
        assert verify(ev) == []
        assert list(ev.records()) == old_records


def test_redo_works_only_right_after_undo_and_nothing_is_deleted(tmp_path: Path) -> None:
    db = tmp_path / "e.json"
    new_evening(db)
    shuffle_chips(db, 3)  # Ada->Ann, Ann->Ada, Ada->Ann
    with open_evening(db) as ev:
        first = ev.undo(EVENING)
        second = ev.undo(EVENING)
    assert evening_state(db).chips["Ann"] == {"red": 1}
    with open_evening(db) as ev:
        assert ev.redo(EVENING).text == second.text  # the newest undone comes back first
    assert evening_state(db).chips["Ann"] == {}
    with open_evening(db) as ev:
        assert ev.redo(EVENING).text == first.text
    assert evening_state(db).chips["Ann"] == {"red": 1}
    with open_evening(db) as ev, pytest.raises(IllegalAction, match="redo"):
        ev.redo(EVENING)

    with open_evening(db) as ev:
        ev.undo(EVENING)
    give(db, "Bob", "Bea", "blue:1")  # a new command: the undone one can no longer come back
    with open_evening(db) as ev, pytest.raises(IllegalAction, match="right after undo"):
        ev.redo(EVENING)
    with open_evening(db, write=False) as ev:
        undone = ev.undone()
        assert verify(ev) == []
        assert dumped(EVENING, ev.state(EVENING)) == refold(ev)
    assert [u["text"] for u in undone] == [first.text, second.text, first.text]
    assert all(u["events"] and not u["redoable"] for u in undone)
    # Nothing deleted: every event ever committed is in the log or in the undone table.
    with open_evening(db, write=False) as ev:
        kept = len(list(ev.records()))
    assert kept + sum(len(u["events"]) for u in undone) == 3 + 3 + 2 + 1  # + redos, Bob's
    assert evening_state(db).chips["Ann"] == {}


def test_undo_of_a_command_older_than_another_tables_keeps_the_chain(
        tmp_path: Path, toy: str) -> None:
    db = tmp_path / "e.json"
    new_evening(db)
    give(db, "Ada", "Ann", "red:2")
    add(db, 5)
    with open_evening(db) as ev:
        assert ev.undo(EVENING).text == "chips give Ada Ann red:2"
    assert verify_file(db) == []
    with open_evening(db) as ev:
        ev.redo(EVENING)
        ev.undo("toy")
    assert verify_file(db) == []
    with open_evening(db, write=False) as ev:
        assert ev.state(toy) == {"n": 0}
        assert ev.state(EVENING).chips["Ann"] == {"red": 2}


def test_cli_undo_after_a_side_table_command_keeps_the_chain(tmp_path: Path) -> None:
    db = tmp_path / "e.json"
    runner = CliRunner()

    def ok(*args: str) -> None:
        result = runner.invoke(app, ["--db", str(db), *args])
        assert result.exit_code == 0, result.output

    ok("new", "--fool", "Fool", *[w for s in SEATS for w in ("--seat", s)])
    ok("rise", "Ada")
    ok("scum", "new", "Ann", "Bea", "Cid", "Dan", "--seed", "3")
    ok("undo")  # the evening's last command, older than the scum match
    ok("verify")
    assert evening_state(db).seat("Ada").seated


def test_a_failed_commit_does_not_poison_the_snapshot(
        tmp_path: Path, toy: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store, "SEGMENT_SIZE", 2)
    db = tmp_path / "e.json"
    with open_evening(db) as ev:
        ev.commit(toy, [{"kind": "add", "n": 5}], "add 5")
        with pytest.raises(InvariantViolation):
            ev.commit(toy, [{"kind": "add", "n": 1}, {"kind": "add", "n": -100}], "bad")
        assert ev.state(toy) == {"n": 5}
        ev.commit(toy, [{"kind": "add", "n": 2}], "add 2")  # two events live: sealed on flush
    with open_evening(db, write=False) as ev:
        assert ev.meta["segments"] == 1
        assert ev.state(toy) == {"n": 7}
        assert verify(ev) == []


# -- the lock and read-only opens ---------------------------------------------------------------


def test_a_second_writer_is_told_the_evening_is_busy(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store, "LOCK_TIMEOUT", 0.3)
    db = tmp_path / "e.json"
    new_evening(db)
    with open_evening(db) as ev:
        ev.commit(EVENING, commands.give_chips(ev.state(EVENING), "Ada", "Ann", "red:1"), "a")
        start = time.monotonic()
        with pytest.raises(StoreError, match="busy"):
            with open_evening(db):
                pytest.fail("two writers held the lock at once")
        waited = time.monotonic() - start
        assert 0.25 <= waited < 3.0, waited
        with open_evening(db, write=False) as reader:  # readers need no lock
            assert reader.state(EVENING).chips["Ann"] == {}
    give(db, "Ada", "Ann", "red:1")  # free again once the holder is done
    assert evening_state(db).chips["Ann"] == {"red": 2}


def test_a_waiting_writer_gets_the_lock_when_it_is_released(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    db = tmp_path / "e.json"
    new_evening(db)
    lock = store.EveningLock(tmp_path / "e.json.lock")
    assert lock.acquire(0.1)
    threading.Timer(0.2, lock.release).start()
    start = time.monotonic()
    give(db, "Ada", "Ann", "red:1")  # waits for the release, well within LOCK_TIMEOUT
    assert 0.15 <= time.monotonic() - start < store.LOCK_TIMEOUT
    assert evening_state(db).chips["Ann"] == {"red": 1}


def test_read_only_open_of_a_missing_file_gives_the_empty_state(tmp_path: Path) -> None:
    db = tmp_path / "none" / "e.json"
    with open_evening(db, write=False) as ev:
        assert not ev.exists
        assert dumped(EVENING, ev.state(EVENING)) == dumped(EVENING, State())
        assert list(ev.records()) == [] and ev.commands() == [] and verify(ev) == []
        assert ev.last_command() is None
    assert not (tmp_path / "none").exists()
    result = CliRunner().invoke(app, ["--db", str(db), "status", "--json"])
    assert result.exit_code == 2 and "no evening" in result.stderr
    assert not (tmp_path / "none").exists()


@pytest.mark.skipif(not getattr(__import__("os"), "O_NOATIME", 0), reason="no O_NOATIME here")
def test_a_command_reads_the_evening_without_touching_access_times(tmp_path: Path) -> None:
    """E98: the reads of a command (the file, the names in its folder) are no metadata writes
    for the next fsync to carry; the file's and the folder's access times stay as they were."""
    import os

    db = tmp_path / "e.json"
    new_evening(db)
    give(db, "Ada", "Ann", "red:1")
    old = 1_000_000_000_000_000_000  # 2001: older than any change, so a read would move it
    for path in (db, tmp_path):
        os.utime(path, ns=(old, os.stat(path).st_mtime_ns))
    with open_evening(db, write=False) as ev:
        ev.state("evening")
    assert os.stat(db).st_atime_ns == old
    give(db, "Ann", "Ada", "red:1")  # lists the folder for a killed writer's temps, writes
    assert os.stat(tmp_path).st_atime_ns == old


# -- E99: a write holds the evening and the new file once --------------------------------------


def _large_live_file(tmp_path: Path) -> Path:
    """An evening whose live file is some megabytes: the live events' texts are long."""
    db = tmp_path / "e.json"
    seats = [commands.parse_seat(s) for s in SEATS]
    pad = "x" * 20_000
    with open_evening(db) as ev:
        ev.commit(EVENING, commands.new_evening(ev.state(EVENING), "Fool", seats, now=0.0,
                                                force=False), "new")
        ev.commit(EVENING, commands.rise(ev.state(EVENING), "Ada"), "rise Ada")
        for i in range(store.SEGMENT_SIZE - 10):
            src, dst = ("Ada", "Ann") if i % 2 == 0 else ("Ann", "Ada")
            ev.commit(EVENING, commands.give_chips(ev.state(EVENING), src, dst, "red:1"),
                      f"chips give {src} {dst} red:1 # {i} {pad}")
    assert db.stat().st_size > 7_000_000
    return db


def test_e99_a_write_on_a_large_live_file_stays_within_twice_its_size(tmp_path: Path) -> None:
    """A write on a 59 MB live file peaked at 2.8 times the file: the new file's text, its
    bytes and their checked frame, each whole, beside the evening's records. Measured here by
    the allocations themselves (tracemalloc), on a live file of some megabytes."""
    import tracemalloc

    from referee.storage import files

    db = _large_live_file(tmp_path)
    size = db.stat().st_size
    tracemalloc.start()
    try:
        commit(db, lambda s: commands.give_chips(s, "Ada", "Ann", "red:1"), "chips give")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert files.read_checked(db)[1] is True
    assert peak <= 2 * size + 2_000_000, f"{peak / size:.2f} times the live file"


def test_e99_verify_on_a_large_live_file_stays_within_twice_its_size(tmp_path: Path) -> None:
    """verify held the evening as the store read it while TinyDB read the file again (E161):
    3.9 times the live file. The store's reading is let go before TinyDB's now."""
    import tracemalloc

    db = _large_live_file(tmp_path)
    size = db.stat().st_size
    runner = CliRunner()
    assert runner.invoke(app, ["--db", str(db), "verify"]).exit_code == 0  # imports done
    tracemalloc.start()
    try:
        result = runner.invoke(app, ["--db", str(db), "verify"])
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert result.exit_code == 0 and "sound" in result.output, result.output
    assert peak <= 2 * size + 2_000_000, f"{peak / size:.2f} times the live file"


_JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False,
                                                                        allow_infinity=False)
                     | st.text(max_size=8),
                     lambda inner: st.lists(inner, max_size=3)
                     | st.dictionaries(st.text(max_size=5), inner, max_size=3), max_leaves=8)


@given(st.dictionaries(st.sampled_from(["meta", "snapshot", "events", "undone"]),
                       st.dictionaries(st.text(max_size=4), _JSON, max_size=4), max_size=4),
       st.none() | st.just("0" * 32 + "a" * 32), st.integers(0, 300))
def test_e99_the_file_row_by_row_is_the_file_at_once(tables: dict[str, Any], answer: str | None,
                                                     size: int) -> None:
    """The bytes a large evening is written as, row by row, are those of the whole at once."""
    from referee.storage import files

    assert files.frame_tables(tables, answer, size) == files.encode_checked(tables, answer)
