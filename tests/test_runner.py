"""The one in-process runner: run_line answers exactly as `referee LINE` in a terminal would."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from referee.cli import runner

ROOT = Path(__file__).resolve().parents[1]
NEW = "new --fool Max --seat Ada:XVI:red:Ben:IX --seat Cy:III:blue:Di:II"


def _cli(db: Path, line: str) -> tuple[int, str, str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "120"}
    done = subprocess.run([sys.executable, "-m", "referee", "--db", str(db),
                           *shlex.split(line)], env=env, capture_output=True, text=True,
                          timeout=120)
    return done.returncode, done.stdout, done.stderr


@pytest.fixture(scope="module")
def opened(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An evening just opened (by the command line), copied for each test."""
    db = tmp_path_factory.mktemp("runner") / "opened.json"
    assert _cli(db, NEW)[0] == 0
    return db


@pytest.mark.parametrize("line", [
    "status --json",
    "status",
    "bet Zed",                      # a mistake: one line, exit 2
    "bet",                          # a usage error: one line, exit 2
    "frobnicate",                   # no such command
    "bet Ada --chips",              # an option without its value
    "charge give Ben Di 1",         # a write
    "log --json",
    "hand rank KnC KnW 3S 3P 0 XXI 9C",
])
@pytest.mark.system
def test_run_line_answers_as_the_command_line(opened: Path, db: Path, line: str) -> None:
    import shutil

    shutil.copyfile(opened, db)
    twin = db.with_name("twin.json")
    shutil.copyfile(opened, twin)
    code, out, err = runner.run_line(line, db=db, columns=120)
    want = _cli(twin, line)
    if line.startswith("log"):  # the times differ; the commands are the same
        import json

        assert code == want[0] == 0
        assert [c["text"] for c in json.loads(out)["commands"]] == \
            [c["text"] for c in json.loads(want[1])["commands"]]
        return
    assert (code, out, err.replace(str(db), str(twin))) == want


def test_run_line_reads_a_broken_line_as_a_mistake(db: Path) -> None:
    code, out, err = runner.run_line('hand show Cy "KC KW', db=db)
    assert code == 2 and out == ""
    assert err == "error: cannot read the line: No closing quotation; close the quote\n"


def test_run_line_leaves_the_process_as_it_was(db: Path) -> None:
    from referee.cli import common

    saved_out, saved_err, settings = sys.stdout, sys.stderr, common.SETTINGS
    runner.run_line(NEW, db=db, columns=77)
    runner.run_line("bet Zed", db=db)
    assert (sys.stdout, sys.stderr, common.SETTINGS) == (saved_out, saved_err, settings)
    assert os.environ.get("COLUMNS") == "120"  # the tests' pinned width is back
