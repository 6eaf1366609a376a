"""Copies the console keeps carry their sealed segments (S51): the old evening `new --force`
replaces and an earlier demo `demo --force` replaces open and verify on their own, a disk that
refuses leaves no partial copy (E40, E97), and backups share the live evening's segments."""

from __future__ import annotations

import errno
import os
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from referee.cli.main import app
from referee.storage import files, seals, store
from referee.storage.keep import segment_names
from tests.cli.conftest import GM

SEATS = ("--seat", "Ada:I:red:Ann:II", "--seat", "Bob:III:blue:Bea:IV")


@pytest.fixture(autouse=True)
def _small_segments(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store, "SEGMENT_SIZE", 4)


def every_file(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def play_on(gm: GM, transfers: int) -> None:
    """Ada rises and trades chips with Ann, back and forth."""
    gm("rise", "Ada")
    for i in range(transfers):
        gm("chips", "give", *(("Ada", "Ann") if i % 2 == 0 else ("Ann", "Ada")), "red:1")


def sealed(gm: GM) -> list[str]:
    """An evening long enough to seal several segments; its segment file names."""
    gm("new", "--fool", "Fool", *SEATS)
    play_on(gm, 12)
    names = segment_names(gm.db)
    assert len(names) >= 2
    return names


def kept_copies(folder: Path) -> list[Path]:
    """The kept evenings (not their backups, which an earlier demo's take along, E182)."""
    return sorted(p for p in folder.glob("*.replaced-*") if p.is_file() and ".bak." not in p.name)


def log_lines(gm: GM) -> list[str]:
    return [ln.split(None, 2)[-1] for ln in gm("log").output.splitlines() if ln.strip()]


def test_s51_new_force_keeps_the_old_evening_with_its_segments(gm: GM) -> None:
    names = sealed(gm)
    old_log = log_lines(gm)
    before = every_file(gm.db.parent)
    out = gm("new", "--fool", "Max", *SEATS, "--force").output
    (kept,) = kept_copies(gm.db.parent)
    assert f"backed up to {kept}" in " ".join(out.split())
    folder = seals.folder(kept)
    assert sorted(p.name for p in folder.iterdir()) == sorted(names)
    for name in names:  # the very bytes sealed, hard-linked where links work
        original = seals.folder(gm.db) / name
        assert (folder / name).read_bytes() == before[f"{gm.db.name}.segments/{name}"]
        assert os.path.samefile(folder / name, original)
    old = GM(gm.runner, kept)
    assert "sound" in old("verify").output
    assert log_lines(old) == old_log
    # The new evening seals into PATH.segments: the kept copy is untouched by it.
    play_on(gm, 10)
    assert segment_names(gm.db)
    assert "sound" in old("verify").output and log_lines(old) == old_log


def test_s51_without_hard_links_the_kept_evening_is_a_whole_copy(
        gm: GM, monkeypatch: Any) -> None:
    names = sealed(gm)

    def no_links(*_: Any, **__: Any) -> None:
        raise OSError(errno.EXDEV, "Invalid cross-device link")

    monkeypatch.setattr(os, "link", no_links)
    gm("new", "--fool", "Max", *SEATS, "--force")
    monkeypatch.undo()
    (kept,) = kept_copies(gm.db.parent)
    for name in names:
        assert not os.path.samefile(seals.folder(kept) / name, seals.folder(gm.db) / name)
    assert "sound" in GM(gm.runner, kept)("verify").output


@pytest.mark.parametrize("refused_at", [0, 1, -1])  # the first segment, the second, the file
def test_s51_a_disk_that_refuses_any_part_leaves_no_partial_copy(
        gm: GM, monkeypatch: Any, refused_at: int) -> None:
    names = sealed(gm)
    parts = [*names, gm.db.name]
    refused = parts[refused_at]

    def no_links(*_: Any, **__: Any) -> None:
        raise OSError(errno.EXDEV, "Invalid cross-device link")

    real = files.write_temp

    def full(path: Path, data: bytes | bytearray) -> str:
        kept_part = path.name if refused_at == -1 else path.parent.name
        if ".replaced-" in kept_part and (refused_at == -1 or path.name == refused):
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(path, data)

    monkeypatch.setattr(os, "link", no_links)
    monkeypatch.setattr(files, "write_temp", full)
    before = every_file(gm.db.parent)
    folders = sorted(p.name for p in gm.db.parent.iterdir() if p.is_dir())
    line = gm.fails("new", "--fool", "Max", *SEATS, "--force")
    assert "no space left" in line and "nothing was written" in line
    assert every_file(gm.db.parent) == before
    assert sorted(p.name for p in gm.db.parent.iterdir() if p.is_dir()) == folders


def test_s51_backups_share_the_segments_and_open_when_copied_back(
        gm: GM, monkeypatch: Any) -> None:
    real = time.strftime
    stamps = iter(["20260101-210000", "20260101-230000"])  # two replacements, hours apart
    monkeypatch.setattr(time, "strftime",
                        lambda form, *a: next(stamps) if form == "%Y%m%d-%H%M%S"
                        else real(form, *a))
    sealed(gm)
    old_log = log_lines(gm)
    gm("new", "--fool", "Max", *SEATS, "--force")
    play_on(gm, 10)  # the new evening seals too, beside the old evening's segments
    gm("new", "--fool", "Zed", *SEATS, "--force")
    first = min(kept_copies(gm.db.parent))
    backup = files.backup_path(gm.db, 1)  # the second evening, just before it was replaced
    second = log_lines(GM(gm.runner, max(kept_copies(gm.db.parent))))
    gm.db.write_bytes(backup.read_bytes())  # as the console advises when an evening is damaged
    assert "sound" in gm("verify").output
    assert log_lines(gm) == second
    assert log_lines(GM(gm.runner, first)) == old_log


def test_s51_demo_force_keeps_the_earlier_demo_with_its_segments(
        runner: CliRunner, tmp_path: Path) -> None:
    db = tmp_path / "demo.json"
    assert runner.invoke(app, ["demo", "--db", str(db), "--quiet"]).exit_code == 0
    gm = GM(runner, db)
    gm("fate", "char", "new", "Ivy")  # a GM played on in the demo evening
    earlier = log_lines(gm)
    assert segment_names(db)
    again = runner.invoke(app, ["demo", "--db", str(db), "--force"])
    assert again.exit_code == 0, again.output
    (kept,) = kept_copies(tmp_path)
    assert f"kept as {kept}" in " ".join(again.output.split())
    old = GM(runner, kept)
    assert "sound" in old("verify").output
    assert log_lines(old) == earlier
    assert "sound" in gm("verify").output and log_lines(gm) != earlier
    assert Path(f"{kept}.bak.1").is_file()  # its backups went with it (E182)


def test_s51_demo_season_force_keeps_no_pair_that_could_not_verify(
        runner: CliRunner, tmp_path: Path) -> None:
    first = tmp_path / "season-1.json"
    assert runner.invoke(app, ["demo", "--season", "--db", str(first), "--quiet"]).exit_code == 0
    again = runner.invoke(app, ["demo", "--season", "--db", str(first), "--force", "--quiet"])
    assert again.exit_code == 0, again.output
    assert kept_copies(tmp_path) == []
    assert "sound" in GM(runner, tmp_path / "season-2.json")("verify").output
