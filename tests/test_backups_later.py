"""The backups move up after the answer (E291): a move of the table's API keeps the evening
before it aside (the staging link, synced with the new file), the console answers, and only
then do the backups move up. A staging left by a console that stopped in between is moved in
by the next command; one that is the evening file itself, or no whole evening, is removed."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.evening import commands
from referee.storage import files, lock
from referee.storage.store import newest_good_backup, open_evening
from referee.table import api
from tests.test_store import give, new_evening


def backups(db: Path) -> list[bytes | None]:
    return [b.read_bytes() if (b := files.backup_path(db, n)).exists() else None
            for n in range(1, files.BACKUPS + 1)]


def staging(db: Path) -> Path:
    return Path(files.staging_path(db))


def _move(db: Path) -> api.Outcome:
    """A chip given through the table's API, as the shell makes it (no answer yet)."""
    return api.perform(api.Request("chips give", {"source": "Ada", "target": "Ann",
                                                  "chips_text": "red:1"}, db,
                                   "chips give Ada Ann red:1"))


@pytest.fixture
def db(tmp_path: Path) -> Path:
    db = tmp_path / "e.json"
    new_evening(db)
    give(db, "Ada", "Ann", "red:1")
    give(db, "Ann", "Ada", "red:1")
    return db


def test_e291_a_move_keeps_the_evening_before_it_aside_until_the_answer_is_out(db: Path) -> None:
    before, older = db.read_bytes(), backups(db)
    _move(db)
    # Recorded and synced; the backups as they were, the evening before the move beside them.
    assert db.read_bytes() != before
    assert staging(db).read_bytes() == before and backups(db) == older
    assert os.fspath(db) in files.PENDING
    lock.settle(os.fspath(db))  # what the console does once the answer is out
    assert not staging(db).exists() and os.fspath(db) not in files.PENDING
    assert backups(db) == [before, *older[:-1]]


def test_e291_the_console_answers_before_the_backups_move(db: Path, monkeypatch:
                                                           pytest.MonkeyPatch) -> None:
    from referee.cli.main import app

    seen: list[bool] = []
    real = lock.settle

    def settle(path: str) -> None:
        seen.append(staging(db).exists())  # the answer is out; the staging still there
        real(path)

    monkeypatch.setattr(lock, "settle", settle)
    before = db.read_bytes()
    result = CliRunner().invoke(app, ["--db", str(db), "chips", "give", "Ada", "Ann", "red:1"])
    assert result.exit_code == 0 and "gives" in result.output, result.output
    assert seen == [True]
    assert backups(db)[0] == before and not staging(db).exists()


def test_e291_the_next_command_moves_in_what_a_stopped_console_kept_aside(db: Path) -> None:
    before, older = db.read_bytes(), backups(db)
    _move(db)
    files.PENDING.clear()  # the console stopped after its answer, before the backups moved
    after = db.read_bytes()
    assert newest_good_backup(db) == staging(db)  # meanwhile, the newest good backup
    give(db, "Ann", "Ada", "red:1")  # the next command, any process
    assert not staging(db).exists()
    assert backups(db) == [after, before, *older[:-2]]


@pytest.mark.parametrize("left", ["the evening itself", "a copy cut short", "another file"])
def test_e291_a_staging_that_is_no_backup_is_removed_and_the_backups_stay(
        db: Path, left: str) -> None:
    older = backups(db)
    if left == "the evening itself":  # its writer died between the link and the rename
        os.link(db, staging(db))
    elif left == "a copy cut short":  # a file system without hard links, a kill mid-copy
        staging(db).write_bytes(db.read_bytes()[:200])
    else:
        staging(db).write_text("half a file")
    before = db.read_bytes()
    give(db, "Ada", "Ann", "red:1")
    assert not staging(db).exists()
    assert backups(db) == [before, *older[:-1]]  # the usual rotation, nothing pushed out


@pytest.mark.parametrize("done", [0, 1, 2])
def test_e291_a_rotation_a_cut_stopped_half_way_is_finished_not_redone(
        db: Path, done: int) -> None:
    before, older = db.read_bytes(), backups(db)
    give(db, "Ada", "Ann", "red:1")  # one more generation: bak.1 .. bak.3 all there
    after, full = db.read_bytes(), backups(db)
    assert full == [before, *older[:-1]] and None not in full
    later = files.ROTATE_LATER.set(True)  # a move of the API: its backups after the answer
    try:
        with open_evening(db) as ev:
            ev.commit("evening", commands.give_chips(ev.state("evening"), "Ann", "Ada",
                                                     "red:1"), "chips give Ann Ada red:1")
    finally:
        files.ROTATE_LATER.reset(later)
    moved = db.read_bytes()
    files.PENDING.clear()  # the answer out, then the power went mid-rotation
    names = [files.backup_path(db, n) for n in range(1, files.BACKUPS + 1)]
    for n in range(files.BACKUPS - 1, files.BACKUPS - 1 - done, -1):  # bak.2->3, then 1->2
        os.replace(names[n - 1], names[n])
    give(db, "Ada", "Ann", "red:1")  # the next command finishes the rotation, then its own
    assert backups(db) == [moved, after, before]
