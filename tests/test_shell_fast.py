"""`referee shell` runs the lines the console reads without typer (E160) without click, and
they answer exactly as through the parser: the same output, exit status and files."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from referee.cli import rulings, runner
from referee.cli.shell import shell as prompt
from referee.storage import memo
from tests.cli.conftest import GM

DATA = Path(__file__).parent / "data"

#: A night at the table through the prompt: transfers, moves, reads, and refusals of each.
LINES = [
    "status", "status --json", "chips give Ada Gus red:1", "chips give Ada Gus red:1 --json",
    "chips give --json Ada Gus red:1,blue:1", "chips give Ada Zed red:1",
    "chips give Ada Gus red:999", "log --last 3", "log --last 2 --json", "hand start",
    "bet", 'hand show "Cy: KC KW" "Ed: 2S 7P" "Fool: AC 6W 7S QP"', "bet Zed", "check Ed",
    "bet 1 --chips green:1", "raise 2", "call --json", "fold Cy", "status",
    "log --json --last 20", "call", "status --json",
]


@pytest.fixture
def keeping() -> Iterator[None]:
    memo.keep()  # as `referee shell` runs its lines
    try:
        yield
    finally:
        memo.keep(False)


def _night(folder: Path, parser: bool, capsys: pytest.CaptureFixture[str],
           monkeypatch: pytest.MonkeyPatch) -> tuple[list[tuple[int, str, str]], int]:
    """Each line's (status, stdout, stderr), the folder's paths made alike; and how many lines
    ran without the parser."""
    folder.mkdir()
    db = folder / "evening.json"
    shutil.copyfile(DATA / "release-evening.json", db)
    gm = GM(CliRunner(), db)
    gm("rise", "Ada")
    gm("rise", "Gus")
    sh = prompt.Shell(prompt.full_command(), db, debug=False)
    bypassed = 0
    original = prompt.Shell.without_parser

    def counted(self: prompt.Shell, words: list[str]) -> int | None:
        nonlocal bypassed
        if parser:
            return None
        code = original(self, words)
        bypassed += code is not None
        return code

    monkeypatch.setattr(prompt.Shell, "without_parser", counted)
    found = []
    capsys.readouterr()
    for line in LINES:
        code = sh.run_line(line)
        out, err = capsys.readouterr()
        files = {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}
        found.append((code, out.replace(str(folder), "FOLDER"),
                      err.replace(str(folder), "FOLDER"), files))
    return found, bypassed


def test_lines_without_the_parser_answer_as_through_it(
        tmp_path: Path, keeping: None, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    runs = []
    for parser in (True, False):
        with monkeypatch.context() as m:
            m.setattr("time.time", lambda: 1_800_000_000.0)
            m.setattr("referee.storage.store.new_token", lambda: "0" * 32)
            m.setattr(rulings, "memory", None)
            runs.append(_night(tmp_path / ("parser" if parser else "fast"), parser, capsys, m))
    (through, none), (fast, bypassed) = runs
    assert none == 0 and bypassed >= len(LINES) - 3  # `hand start`, `hand show` and ...
    for line, a, b in zip(LINES, through, fast, strict=True):
        assert a == b, line
    assert sum(code == 2 for code, *_ in fast) >= 3  # the refusals were refused


@given(st.text(alphabet=" \t\r\n\x0b\x0c\x1c\x1f\"'\\#ab-:é", max_size=12))
def test_a_line_of_plain_words_is_split_as_the_runner_splits_it(text: str) -> None:
    """Without shlex only where shlex would read the same words (quotes, escapes, comments
    and the whitespace a shell does not split on go to the runner's split)."""
    words = runner.plain_words(text)
    if words is not None:
        assert words == runner.split(text)
