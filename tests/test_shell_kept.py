"""E155 in `referee shell`: a line takes the evening as the shell last wrote it only while the
file is still those bytes; a write from another terminal between two lines is seen."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli.main import app
from referee.cli.shell import shell as prompt
from referee.storage import memo

NEW = "new --fool Fool --seat Ada:XVI:red:Ann:IX --seat Cy:III:blue:Di:II"


@pytest.fixture
def evening(runner: CliRunner, db: Path) -> Path:
    for line in (NEW, "rise Ada"):
        result = runner.invoke(app, ["--db", str(db), *line.split()])
        assert result.exit_code == 0, result.output
    return db


@pytest.fixture
def shell(evening: Path) -> Iterator[prompt.Shell]:
    """The shell in this process, keeping what it writes as `referee shell` does."""
    memo.keep()
    try:
        yield prompt.Shell(prompt.full_command(), evening, debug=False)
    finally:
        memo.keep(False)


def _elsewhere(runner: CliRunner, db: Path, line: str) -> None:
    """``line`` run by another terminal: a process that keeps nothing, the shell's memory
    left as it was."""
    saved = dict(memo._files), dict(memo._kept)
    memo.keep(False)
    try:
        result = runner.invoke(app, ["--db", str(db), *line.split()])
        assert result.exit_code == 0, result.output
    finally:
        memo.keep()
        memo._files.update(saved[0])
        memo._kept.update(saved[1])


def _holding(capsys: pytest.CaptureFixture[str], sh: prompt.Shell, who: str) -> int:
    capsys.readouterr()
    assert sh.run_line("status --json") == 0
    chips = json.loads(capsys.readouterr().out)["chips"].get(who, {})
    return int(chips.get("red", 0))


def test_a_write_from_another_terminal_between_two_lines_is_seen(
        shell: prompt.Shell, runner: CliRunner, evening: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    assert shell.run_line("chips give Ada Ann red:1") == 0
    assert memo.written(evening) is not None
    _elsewhere(runner, evening, "chips give Ada Ann red:2")
    assert _holding(capsys, shell, "Ann") == 3
    assert shell.run_line("chips give Ann Ada red:1") == 0
    assert _holding(capsys, shell, "Ann") == 2
    result = runner.invoke(app, ["--db", str(evening), "verify"])
    assert result.exit_code == 0 and "sound" in result.output, result.output
    log = runner.invoke(app, ["--db", str(evening), "log", "--json"])
    texts = [c["text"] for c in json.loads(log.output)["commands"]]
    assert texts[-3:] == ["chips give Ada Ann red:1", "chips give Ada Ann red:2",
                          "chips give Ann Ada red:1"]


def test_a_refused_line_changes_nothing(shell: prompt.Shell, evening: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    assert shell.run_line("chips give Ada Ann red:1") == 0
    before = evening.read_bytes()
    kept = memo.written(evening)
    assert shell.run_line("chips give Ada Ann red:999") == 2  # more than Ada holds
    assert shell.run_line("redo") == 2  # nothing to redo
    assert evening.read_bytes() == before
    assert memo.written(evening) is kept
    assert _holding(capsys, shell, "Ann") == 1


@pytest.mark.system
def test_a_second_process_between_two_lines_of_a_shell_process(evening: Path) -> None:
    """Two processes for real: the shell, and a one-shot command run while it waits for its
    next line."""
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "NO_COLOR": "1"}
    console = [sys.executable, "-m", "referee", "--db", str(evening)]
    sh = subprocess.Popen([*console, "shell"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, env=env, bufsize=1)
    assert sh.stdin is not None and sh.stdout is not None
    try:
        sh.stdin.write("chips give Ada Ann red:1\n")
        sh.stdin.flush()
        assert "gives" in sh.stdout.readline()
        done = subprocess.run([*console, "chips", "give", "Ada", "Ann", "red:2"], env=env,
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        out, err = sh.communicate("status --json\nchips give Ann Ada red:1\n", timeout=60)
    finally:
        if sh.poll() is None:
            sh.kill()
    assert sh.returncode == 0, err
    status, answer = out.strip().rsplit("\n", 1)
    assert json.loads(status)["chips"]["Ann"]["red"] == 3
    assert "gives" in answer
    verified = subprocess.run([*console, "verify"], env=env, capture_output=True, text=True,
                              timeout=60)
    assert verified.returncode == 0 and "sound" in verified.stdout, verified.stdout
    final = subprocess.run([*console, "status", "--json"], env=env, capture_output=True,
                           text=True, timeout=60)
    assert json.loads(final.stdout)["chips"]["Ann"]["red"] == 2


def _sealed(shell: prompt.Shell, evening: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Gives in the shell until a segment is sealed; that segment's file."""
    from referee.storage import segments, store

    monkeypatch.setattr(store, "SEGMENT_SIZE", 4)
    for i in range(12):
        pair = "Ada Ann" if i % 2 == 0 else "Ann Ada"
        assert shell.run_line(f"chips give {pair} red:1") == 0
    header = json.loads(evening.read_bytes())["meta"]["1"]
    assert header["segments"] >= 2
    return segments.folder(evening) / header["segment_files"][0]


@pytest.mark.parametrize("how", ["cut by one byte", "a byte added", "deleted"])
def test_a_segment_changed_behind_the_shells_back_is_refused_before_the_next_write(
        shell: prompt.Shell, evening: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], how: str) -> None:
    """E90 in the shell: every line looks at every sealed segment, whatever the shell saw of
    it before; a segment cut, grown or deleted (its time and its folder's time kept) is
    damage, and the line writes nothing."""
    segment = _sealed(shell, evening, monkeypatch)
    folder = segment.parent
    kept, data = os.stat(folder), segment.read_bytes()
    st = os.stat(segment)
    if how == "deleted":
        segment.unlink()
    else:
        segment.write_bytes(data[:-1] if how == "cut by one byte" else data + b" ")
        os.utime(segment, ns=(st.st_atime_ns, st.st_mtime_ns))
    os.utime(folder, ns=(kept.st_atime_ns, kept.st_mtime_ns))
    before = evening.read_bytes()
    capsys.readouterr()
    assert shell.run_line("chips give Ada Ann red:1") == 2
    err = capsys.readouterr().err
    assert "is damaged" in err and segment.name in err, err
    assert evening.read_bytes() == before
    segment.write_bytes(data)  # put back as sealed: the shell goes on
    assert shell.run_line("chips give Ada Ann red:1") == 0
