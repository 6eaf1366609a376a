"""The README, typed as a GM types it: every `referee` line of its shell blocks runs, in order,
on one fresh evening (the table page's `serve` as a process of its own); every command named in
its prose is a command of the console; its two install commands are the ones `.ci/run` runs;
and what it left for developers is in `docs/development.md`."""

from __future__ import annotations

import json
import os
import re
import shlex
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli.main import app

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
INSTALL = "python3 -m venv .venv && .venv/bin/pip install -q . && .venv/bin/referee demo"
TESTS = ("python3 -m venv .venv && .venv/bin/pip install -q '.[test]' && "
         ".venv/bin/python -m pytest -q -n auto --dist loadscope")


def blocks() -> list[str]:
    return re.findall(r"```bash\n(.*?)```", README, re.S)


def lines(block: str) -> list[str]:
    """A block's command lines: continuations joined, comments cut."""
    out, current = [], ""
    for raw in block.splitlines():
        line = raw.split("  #", 1)[0].rstrip()
        if line.lstrip().startswith("#"):
            continue
        current = f"{current} {line.strip()}" if current else line.strip()
        if current.endswith("\\"):
            current = current[:-1].rstrip()
            continue
        if current:
            out.append(current)
        current = ""
    return out


def test_the_readme_is_the_gms_and_short() -> None:
    assert len(README.encode("utf-8")) <= 15 * 1024
    for developer in ("benchmarks/", "pytest-xdist", "TinyDB", "fsync", "cProfile"):
        assert developer not in README, developer


def test_the_two_commands_come_first_and_ci_runs_the_second() -> None:
    first, second = (lines(b) for b in blocks()[:2])
    assert first == [INSTALL] and second == [TESTS]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    venv = next(ln for ln in ci if ln.startswith("python3 -m venv"))
    pytest_line = next(ln for ln in ci if ln.startswith(".venv/bin/python -m pytest"))
    assert f"{venv} && {pytest_line}" == TESTS  # .ci/run runs exactly the README's command


def test_every_readme_line_runs_on_a_fresh_evening(
        runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("REFEREE_DB", raising=False)
    ran = []
    for block in blocks()[2:]:
        for line in lines(block):
            words = shlex.split(line)
            if words[0] == "export":
                name, _, value = words[1].partition("=")
                path = Path(os.path.expanduser(value))
                path.parent.mkdir(parents=True, exist_ok=True)
                monkeypatch.setenv(name, str(path))
                continue
            assert words[0] == "referee", line
            if words[1] == "serve":
                continue  # runs until Ctrl-C: `test_the_readme_serve_line_serves`
            result = runner.invoke(app, words[1:])
            assert result.exit_code == 0, (line, result.output)
            ran.append(line)
    db = home / "evenings" / "friday.json"
    for page in ("card.html", "ada.html", "ben.html", "friday.html"):
        assert (tmp_path / page).exists(), page
    assert db.exists()
    assert len(ran) > 40
    # The walk-through's claims: Cy took hand 1, Ed the main pot of hand 2, Cy its side pot.
    status = runner.invoke(app, ["--db", str(db), "status", "--json"])
    chips = {name: sum(held.values()) for name, held in
             json.loads(status.stdout)["chips"].items()}
    assert (chips["Cy"], chips["Ed"], chips.get("Ada", 0)) == (12, 18, 0)


def test_every_command_in_the_prose_is_one_the_console_has(runner: CliRunner) -> None:
    prose = re.sub(r"```.*?```", "", README, flags=re.S)
    named = re.findall(r"`(referee [^`]+)`", prose)
    assert len(named) >= 5
    for command in named:
        path = []
        for word in shlex.split(command)[1:]:
            if not re.fullmatch(r"[a-z][a-z-]*", word):
                break
            path.append(word)
        result = runner.invoke(app, [*path, "--help"])
        assert result.exit_code == 0, (command, result.output)


@pytest.mark.system
def test_the_readme_serve_line_serves(runner: CliRunner, tmp_path: Path) -> None:
    serve = next(ln for b in blocks() for ln in lines(b) if ln.startswith("referee serve"))
    new = next(ln for b in blocks() for ln in lines(b) if ln.startswith("referee new"))
    db = tmp_path / "friday.json"
    assert runner.invoke(app, ["--db", str(db), *shlex.split(new)[1:]]).exit_code == 0
    proc = subprocess.Popen(
        [sys.executable, "-m", "referee", "--db", str(db), *shlex.split(serve)[1:],
         "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()
        assert first.startswith(f"Serving {db}"), first
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, (out, err)


def test_what_moved_to_development_is_there() -> None:
    dev = (ROOT / "docs" / "development.md").read_text(encoding="utf-8")
    for heading in ("Running the tests", "Storage", "Speed", "Imports", "The shape of a bet",
                    "What the tests prove about the store", "Dependencies, and why", "Layout",
                    "HTTP limits"):
        assert f"\n## {heading}\n" in dev, heading
    for script in sorted((ROOT / "benchmarks").glob("*.py")):
        if script.name != "__init__.py" and not script.name.startswith("_"):
            assert f"benchmarks/{script.name}" in dev, script.name  # its figures, reproducible
    guide = (ROOT / "docs" / "guide.md").read_text(encoding="utf-8")
    for link in ("docs/guide.md", "docs/rules.md", "docs/cli.md", "docs/development.md",
                 "docs/card.png"):
        assert f"]({link})" in README and (ROOT / link).exists(), link
    assert "](table-page.png)" in guide
