"""The one in-process runner: run_line answers exactly as `referee LINE` in a terminal would."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

import referee.cli.main  # noqa: F401  (gives the runner its app)
from referee.cli import requests, runner

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
    code, out, err = requests.run_captured(line, db=db, columns=120)
    want = _cli(twin, line)
    if line.startswith("log"):  # the times differ; the commands are the same
        import json

        assert code == want[0] == 0
        assert [c["text"] for c in json.loads(out)["commands"]] == \
            [c["text"] for c in json.loads(want[1])["commands"]]
        return
    assert (code, out, err.replace(str(db), str(twin))) == want


def test_run_line_reads_a_broken_line_as_a_mistake(db: Path) -> None:
    code, out, err = requests.run_captured('hand show Cy "KC KW', db=db)
    assert code == 2 and out == ""
    assert err == "error: cannot read the line: No closing quotation; close the quote\n"


def test_run_line_leaves_the_process_as_it_was(db: Path) -> None:
    from referee.cli import context

    saved_out, saved_err, outside = sys.stdout, sys.stderr, context.current()
    requests.run_captured(NEW, db=db, columns=77)
    requests.run_captured("bet Zed", db=db)
    assert (sys.stdout, sys.stderr, context.current()) == (saved_out, saved_err, outside)
    assert outside.options() == context.Context().options()  # no run left its options behind
    assert os.environ.get("COLUMNS") == "120"  # the tests' pinned width is back


# -- what reaches the parser from a line (E65) --------------------------------------------------


@pytest.mark.parametrize("words, front", [
    (["status", "--db", "X"], ["--db", "X"]),
    (["status", "--db=X", "--json"], ["--db=X"]),
    (["charge", "give", "--debug", "Ben", "Di", "1"], ["--debug"]),
    (["rise", "Cy", "--explain"], ["--explain"]),
    (["status", "--", "--db", "X"], []),  # after `--` a word is an argument, never lifted
])
def test_e65_the_runner_lifts_root_options_from_anywhere_on_a_line(
        words: list[str], front: list[str], tmp_path: Path) -> None:
    served = str(tmp_path / "served.json")
    args = runner.root_args(words, tmp_path / "served.json", False)
    names_one = any(w.startswith("--db") for w in front)
    # the served evening is put in front only when the line names none itself: why a
    # station's line must be refused before it reaches the runner
    assert (args[:2] == ["--db", served]) == (not names_one)
    lifted = args if names_one else args[2:]
    assert lifted[:len(front)] == front
    assert sorted(lifted) == sorted(words)  # moved, never dropped


@pytest.mark.parametrize("line", ["--d {x} status", "status --d {x}", "--db_ {x} status",
                                  "status -- --db {x}", "--DB {x} status"])
def test_e65_the_parser_takes_no_prefix_or_other_spelling_of_a_root_option(
        db: Path, tmp_path: Path, line: str) -> None:
    assert requests.run_captured(NEW, db=db)[0] == 0
    x = tmp_path / "folder" / "x.json"
    code, out, err = requests.run_captured(line.format(x=x), db=db)
    assert code == 2 and out == ""
    assert "No such option" in err or "unexpected extra argument" in err, err
    assert not x.parent.exists()


def test_e65_a_sealed_line_reaches_only_its_evening(db: Path, tmp_path: Path) -> None:
    """Behind the station's refusal: the root callback itself refuses a sealed line that the
    parser read another --db or --debug from."""
    other = tmp_path / "other.json"
    assert requests.run_captured(NEW, db=db)[0] == 0
    assert requests.run_captured(NEW, db=other)[0] == 0
    before = other.read_bytes(), db.read_bytes()
    for line in (f"status --db {other}", f"charge give Ben Di 1 --db={other}",
                 "--debug status", f"--db {tmp_path / 'new' / 'x.json'} status"):
        code, out, err = requests.run_captured(line, db=db, sealed=True)
        assert code == 2 and out == "" and "E65" in err, (line, err)
        assert err.count("\n") == 1
    assert (other.read_bytes(), db.read_bytes()) == before
    assert not (tmp_path / "new").exists()
    assert requests.run_captured("status --json", db=db, sealed=True)[0] == 0  # its own
    assert requests.run_captured(f"status --db {other}", db=db)[0] == 0  # the shell may
