"""A power cut at every moment of every kind of write (E98): each ``os`` call a command makes is
recorded (``tests/powercut.py``), and for every prefix of them the disk a power cut would leave
(unsynced bytes dropped, unsynced renames, links and new names undone) is built and opened. The
evening must open, verify sound, and hold the state before the command or the state after it;
after it, once the command's answer could have been printed."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from referee.storage import files, store
from referee.storage.audit import verify
from referee.storage.store import open_evening
from tests.cli.conftest import GM
from tests.powercut import Disk, Recorder, disks

pytestmark = pytest.mark.durable

SEATS = ("--seat", "Ada:I:red:Ann:II", "--seat", "Bob:III:blue:Bea:IV")

#: Figures for docs/development.md: prefixes tried and evenings opened sound, per write kind.
TRIED: dict[str, tuple[int, int]] = {}


def opened(db: Path) -> tuple[Any, ...]:
    """What tells the evening's states apart: the head of its chain, its next command, what
    was undone, its sealed segments. Raises if it does not open or does not verify."""
    with open_evening(db, write=False) as ev:  # as every command opens it
        pass
    with open_evening(db, write=False, audit=True) as ev:
        problems = verify(ev)
        assert problems == [], problems
        return (ev.meta["head"], ev.meta["next_cmd"], len(ev.undone()), ev.meta["segments"])


def generations(db: Path) -> list[bytes | None]:
    """The backups ``PATH.bak.1`` .. ``PATH.bak.3`` of ``db``, newest first (None: not there)."""
    return [b.read_bytes() if (b := files.backup_path(db, n)).exists() else None
            for n in range(1, files.BACKUPS + 1)]


def live_events(db: Path) -> int:
    return len(json.loads(db.read_bytes()).get("events", {}))


def evening(gm: GM) -> None:
    gm("new", "--fool", "Fool", *SEATS)
    gm("rise", "Ada")
    for i in range(4):  # every backup there, so the next write rotates all three
        gm("chips", "give", *(("Ada", "Ann") if i % 2 == 0 else ("Ann", "Ada")), "red:1")


def sealed(gm: GM, monkeypatch: pytest.MonkeyPatch) -> None:
    """An evening whose last command sealed every live event into a segment."""
    evening(gm)
    monkeypatch.setattr(store, "SEGMENT_SIZE", live_events(gm.db) + 1)
    gm("rise", "Bob")
    assert live_events(gm.db) == 0


def to_seal(gm: GM, monkeypatch: pytest.MonkeyPatch) -> None:
    evening(gm)
    monkeypatch.setattr(store, "SEGMENT_SIZE", live_events(gm.db) + 1)


def bare(gm: GM, monkeypatch: pytest.MonkeyPatch) -> None:
    evening(gm)


def in_a_hand(gm: GM, monkeypatch: pytest.MonkeyPatch) -> None:
    evening(gm)
    gm("sit", "Ada")
    gm("hand", "start")
    gm("hand", "show", "Ada: KC KW", "Bob: 2S 7P", "Fool: AC 6W 7S QP")


#: Each kind of write: how the evening is set up, then the command whose power cut is tried.
KINDS: dict[str, tuple[Callable[[GM, pytest.MonkeyPatch], None], tuple[str, ...]]] = {
    "a bet": (in_a_hand, ("bet",)),
    "a chip transfer (backups rotated)": (bare, ("chips", "give", "Ada", "Ann", "red:1")),
    "a seal": (to_seal, ("rise", "Bob")),
    "undo": (bare, ("undo", "--yes")),
    "undo across a seal": (sealed, ("undo", "--yes")),
    "redo": (bare, ("redo",)),
    "new --force": (bare, ("new", "--fool", "Max", *SEATS, "--force")),
    "a side table (scum new)": (bare, ("scum", "new", "Ann", "Bea", "Cid", "Dan", "--seed", "7")),
    "a side table (fate char new)": (bare, ("fate", "char", "new", "Ivy", "--trait", "Luck=2")),
    "the first command (new)": (lambda gm, mp: None, ("new", "--fool", "Fool", *SEATS)),
}


@pytest.mark.parametrize("kind", list(KINDS))
def test_e98_a_power_cut_at_any_moment_leaves_the_state_before_or_after(
        kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "disk"
    folder.mkdir()
    gm = GM(CliRunner(), folder / "e.json")
    setup, command = KINDS[kind]
    setup(gm, monkeypatch)
    if kind == "redo":
        gm("undo", "--yes")
    before = opened(gm.db) if gm.db.exists() else None
    # Once the answer is out, the evening before the command is the newest backup and the
    # others moved up one: no generation lost to the cut (E98).
    rotated = [gm.db.read_bytes(), *generations(gm.db)[:-1]] if before is not None else None
    disk = Disk.of(folder)
    rec = Recorder(folder)
    flush = store.Evening.flush

    def flush_then_answer(self: store.Evening) -> None:
        flush(self)
        rec.mark("answered")  # from here on the console may print the answer

    monkeypatch.setattr(store.Evening, "flush", flush_then_answer)
    assert files.DURABLE
    with rec.recording(monkeypatch):
        gm(*command)
    after = opened(gm.db)
    assert after != before
    syncs = sum(op[0] == "fsync" for op in rec.ops)
    assert syncs >= 2, rec.ops  # the shim saw the command's writes
    tried = sound = 0
    seen = set()
    for n, crashed, answered in disks(disk, rec.ops):
        scratch = tmp_path / f"cut-{n}"
        scratch.mkdir()
        crashed.build(scratch)
        db = scratch / "e.json"
        tried += 1
        if before is None and not db.exists():
            assert not answered, f"{kind}: cut after {n} ops: no evening, answer given"
            sound += 1
            continue
        state = opened(db)
        seen.add(state)
        assert state in (before, after), f"{kind}: cut after {n} ops: neither before nor after"
        if answered:
            assert state == after, f"{kind}: cut after {n} ops lost an answered command"
            assert rotated is None or generations(db) == rotated, \
                f"{kind}: cut after {n} ops, the answer given, lost a backup generation"
        sound += 1
        shutil.rmtree(scratch)
    assert tried == len(rec.ops) + 1 == sound
    assert after in seen and (before is None or before in seen)  # the cut fell on both sides
    TRIED[kind] = (tried, sound)
    print(f"power cut, {kind}: {tried} prefixes tried, {sound} opened sound")


def test_e98_the_shim_sees_a_lost_write(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The simulation can fail: a write renamed into place without an fsync of its bytes is
    lost by a power cut right after the rename, and the rebuilt disk shows it."""
    folder = tmp_path / "disk"
    folder.mkdir()
    (folder / "f").write_bytes(b"old")
    disk = Disk.of(folder)
    rec = Recorder(folder)
    with rec.recording(monkeypatch):
        import os

        fd = os.open(folder / "t", os.O_WRONLY | os.O_CREAT)
        os.write(fd, b"new")
        os.close(fd)
        os.replace(folder / "t", folder / "f")
        dfd = os.open(folder, os.O_RDONLY)
        os.fsync(dfd)
        os.close(dfd)
    images = []
    for n, crashed, _ in disks(disk, rec.ops):
        into = tmp_path / f"cut-{n}"
        into.mkdir()
        crashed.build(into)
        images.append((into / "f").read_bytes() if (into / "f").exists() else None)
    assert images[0] == b"old" and images[-1] == b""  # renamed in, its bytes never synced
