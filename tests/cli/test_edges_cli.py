"""Odd inputs at the edges (E97): each refused in one line with nothing changed."""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from referee.cli.main import app
from referee.storage import files, lock
from tests.cli.conftest import GM

SEATS = ("--seat", "Ada:I:red:Ann:II", "--seat", "Bob:III:blue:Bea:IV")


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}


@pytest.fixture
def evening(gm: GM) -> GM:
    gm("new", "--fool", "Fool", *SEATS)
    return gm


def test_e97_an_html_name_over_255_bytes_is_one_line(evening: GM) -> None:
    before = snapshot(evening.db.parent)
    for name in ("x" * 300 + ".html", "é" * 130 + ".html"):
        for command in (("report", "--html", name), ("handout", "Ann", "--html", name)):
            assert "at most 255" in evening.fails(*command)
    assert snapshot(evening.db.parent) == before


@pytest.mark.parametrize("suffix", [".access", ".room", ".verified", ".bak.1", ".lock",
                                    ".replaced-20260101-000000", ".segments/000001.json",
                                    ".replaced-20260101-000000.segments/000001.json"])  # S51
def test_e97_report_never_writes_over_a_file_of_the_evening(evening: GM, suffix: str) -> None:
    evening("handout", "Ann", "--html", str(evening.db.parent / "ann.html"))  # tokens made
    before = snapshot(evening.db.parent)
    target = str(evening.db) + suffix
    line = evening.fails("report", "--html", target, "--force")
    assert "evening's own files" in line
    assert snapshot(evening.db.parent) == before


def test_e97_a_refused_handout_hands_out_no_token(evening: GM, monkeypatch: Any) -> None:
    real = files.write_temp

    def full(path: Path, data: bytes) -> str:
        if path.suffix == ".html":
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(path, data)

    monkeypatch.setattr(files, "write_temp", full)
    before = snapshot(evening.db.parent)
    assert "cannot write" in evening.fails("handout", "Ann", "--html", "ann.html")
    assert snapshot(evening.db.parent) == before  # no PATH.access left behind
    monkeypatch.setattr(files, "write_temp", real)
    evening("handout", "Ann", "--html", str(evening.db.parent / "ann.html"))
    tokens = evening.db.with_name(evening.db.name + ".access").read_bytes()
    monkeypatch.setattr(files, "write_temp", full)
    evening.fails("handout", "Bea", "--html", "bea.html")
    assert evening.db.with_name(evening.db.name + ".access").read_bytes() == tokens


def test_e97_new_force_on_a_full_disk_is_one_line_and_no_partial_copy(
        evening: GM, monkeypatch: Any) -> None:
    def no_links(*_: Any) -> None:
        raise OSError(errno.EXDEV, "Invalid cross-device link")

    def full(path: Path, data: bytes) -> str:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "link", no_links)
    monkeypatch.setattr(files, "write_temp", full)
    before = snapshot(evening.db.parent)
    line = evening.fails("new", "--fool", "Max", *SEATS, "--force")
    assert "no space left" in line and "nothing was written" in line
    assert snapshot(evening.db.parent) == before


def test_e97_demo_force_never_replaces_a_real_evening(evening: GM, runner: CliRunner) -> None:
    before = snapshot(evening.db.parent)
    for args in (["demo", "--db", str(evening.db), "--force", "--quiet"],
                 ["demo", "--season", "--db", str(evening.db), "--force", "--quiet"]):
        result = runner.invoke(app, args)
        assert result.exit_code == 2 and "not a demo's evening" in result.output
        assert len(result.output.strip().splitlines()) == 1
    assert snapshot(evening.db.parent) == before


def test_e97_demo_force_replaces_an_earlier_demo(runner: CliRunner, tmp_path: Path) -> None:
    db = tmp_path / "demo.json"
    assert runner.invoke(app, ["demo", "--db", str(db), "--quiet"]).exit_code == 0
    again = runner.invoke(app, ["demo", "--db", str(db), "--force", "--quiet"])
    assert again.exit_code == 0, again.output


@pytest.mark.parametrize("content", [b"my notes\n", b"", b"{}", b"\xff\xfe"])
def test_e97_a_refused_command_leaves_no_lock_beside_a_file_that_is_no_evening(
        runner: CliRunner, tmp_path: Path, content: bytes) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_bytes(content)
    gm = GM(runner, notes)
    for command in (("rise", "Ada"), ("undo",), ("status",), ("fate", "char", "new", "Ivy")):
        result = gm.invoke(*command)
        assert result.exit_code == 2 and "Traceback" not in result.output, result.output
        assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"], command
    assert notes.read_bytes() == content


UP = os.pardir  # a path that climbs back out of a folder it had to make


@pytest.mark.parametrize("where", [f"missing/{UP}/x.json", f"a/b/{UP}/{UP}/c/x.json",
                                   "m/sub/x.json", "./q/./r/x.json", f"s/{UP}/s/{UP}/t/x.json"])
@pytest.mark.parametrize("command", [("bet", "3"),
                                     ("new", "--fool", "Fool", "--seat", "Ada:I:red")])
def test_e97_a_refused_command_leaves_no_folder_it_made(
        runner: CliRunner, tmp_path: Path, monkeypatch: Any, where: str,
        command: tuple[str, ...]) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "here.txt").write_text("kept")
    gm = GM(runner, Path(where))
    assert gm.fails(*command)
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["here.txt"]


def test_e97_parents_made_for_an_evening_stay_with_it(
        runner: CliRunner, tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.chdir(tmp_path)
    GM(runner, Path("n", UP, "ok", "x.json"))("new", "--fool", "Fool", *SEATS)
    assert (tmp_path / "ok" / "x.json").is_file()
    assert lock.make_parents(Path("n", UP)) == []  # `n` is there now; nothing new is made
    made = lock.make_parents(Path("p", UP, "p2", "deep"))
    assert made == [Path("p", UP, "p2", "deep"), Path("p", UP, "p2"), Path("p")]
    lock.remove_dirs(made)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["n", "ok"]


def test_e170_help_is_a_command_word(runner: CliRunner, monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    from referee.cli import main
    from referee.cli.help.table_of_contents import table_of_contents

    for words, same in ((["help", "hand"], ["hand", "--help"]),
                        (["help", "hand", "rank"], ["hand", "rank", "--help"]),
                        (["--db", "x.json", "help", "soul", "study"],
                         ["soul", "study", "--help"])):
        said = runner.invoke(app, words)
        assert said.exit_code == 0, said.output
        assert said.output == runner.invoke(app, same).output
    monkeypatch.setattr("sys.argv", ["referee", "help"])  # the console script's own path
    main.run()
    assert capsys.readouterr().out == table_of_contents() + "\n"
    assert "`referee help COMMAND`" in table_of_contents()
    wrong = runner.invoke(app, ["help", "nosuch"])
    assert wrong.exit_code == 2 and "No such command 'nosuch'" in wrong.output


def test_e171_no_evening_names_the_file(gm: GM, tmp_path: Path) -> None:
    from referee.errors import IllegalAction
    from referee.evening.state import State, require_evening

    # the core's words, which the refusal completes with the file (referee.cli.guard)
    with pytest.raises(IllegalAction, match="^no evening in this file yet;"):
        require_evening(State())
    for line in (("status",), ("bet", "Ada"), ("soul", "list")):
        said = gm.fails(*line)
        assert said == (f"error: no evening in {gm.db} yet; start one with `referee new "
                        "--fool NAME --seat NAME:ARCANUM:COLOUR ...`"), said
    assert not gm.db.exists()
