"""The demo evening and the README's evening replayed by a tired GM (E58): before each line, the
mistakes a GM makes there (the next line typed too early, the last one typed again, a betting
word for the wrong player) are typed on a copy of the evening. Each is refused in one line that
suggests at least one command, and every command it suggests is accepted at that very moment:
as written, or, where it holds a placeholder (``NAME``, ``CARDS``) and the line due is that
command, as the script types it (a placeholder command the script types only later must at
least be a command of the console).
"""

from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from referee.cli.main import app
from referee.content.scenario import data_file

ROOT = Path(__file__).resolve().parents[2]
BETTING = ("bet", "raise", "call", "check", "fold")
PLACEHOLDER = re.compile(r"\b(NAME|CARDS?|SOUL|SELLER|BUYER|COLOUR|TEXT|ARCANUM|OLD|NEW|DOWN)\b"
                         r"|\.\.\.")


def demo_lines() -> list[str]:
    text = data_file("demo.txt").read_text(encoding="utf-8")
    return [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.startswith("#")]


def readme_lines(tmp: Path) -> list[str]:
    """The README's evening: its `referee new`, then every `referee ...` line of its hand walked
    round by round, continuations joined, comments cut; its page written under ``tmp``."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    before = text.split("## Before the evening", 1)[1].split("\n## ", 1)[0]
    hand = text.split("## One hand, round by round", 1)[1].split("\n## ", 1)[0]
    lines = [next(ln for ln in _walk(before) if ln.startswith("new ")), *_walk(hand)]
    return [ln.replace("friday.html", str(tmp / "friday.html")) for ln in lines]


def _walk(section: str) -> list[str]:
    return [ln for block in re.findall(r"```bash\n(.*?)```", section, re.S)
            for ln in _lines(block)]


def _lines(block: str) -> list[str]:
    """A shell block's `referee` lines without `referee`: continuations joined, comments cut."""
    lines, current = [], ""
    for raw in block.splitlines():
        line = raw.split("  #", 1)[0].rstrip()
        if line.lstrip().startswith("#"):
            continue
        current += " " + line.strip() if current else line.strip()
        if current.endswith("\\"):
            current = current[:-1].rstrip()
            continue
        if current.startswith("referee "):
            lines.append(current[len("referee "):])
        current = ""
    return lines


class Replay:
    """Runs a script line by line on one evening, probing mistakes on copies of it."""

    def __init__(self, runner: CliRunner, folder: Path) -> None:
        self.runner, self.folder = runner, folder
        self.db = folder / "evening" / "e.json"
        self.db.parent.mkdir()
        self.probes = 0

    def run(self, db: Path, line: str) -> Result:
        words = shlex.split(line)
        if words and words[0] == "referee":
            words = words[1:]
        # each line as a fresh process whose output is piped (plain): a context of its own
        return self.runner.invoke(app, ["--db", str(db), *words])

    def copy(self) -> Path:
        self.probes += 1
        target = self.folder / f"probe{self.probes}" / "e.json"
        if self.db.parent.exists():
            shutil.copytree(self.db.parent, target.parent)
        else:
            target.parent.mkdir()
        return target

    def check_refusal(self, line: str, rest: list[str]) -> None:
        """``line`` typed now, on a copy: refused in one line suggesting commands that work
        now; or accepted (then it was no mistake here)."""
        result = self.run(self.copy(), line)
        assert result.exit_code in (0, 2), (line, result.output)
        if result.exit_code == 0:
            return
        said = [ln for ln in result.output.splitlines() if ln.strip()]
        assert len(said) == 1, result.output
        suggested = re.findall(r"`([^`]+)`", said[0])
        assert suggested, f"`{line}` is refused with no command suggested: {said[0]}"
        for command in suggested:
            self.check_suggestion(command, rest, said[0])

    def check_suggestion(self, command: str, rest: list[str], refusal: str) -> None:
        words = shlex.split(command)
        if words and words[0] == "referee":
            words = words[1:]
        if PLACEHOLDER.search(command):
            path = []
            for word in words:
                if not re.fullmatch(r"[a-z][a-z-]*", word):
                    break
                path.append(word)
            if not rest or shlex.split(rest[0])[:len(path)] != path:
                # Filled later by the script: the command is at least one the console has.
                helped = self.run(self.db, " ".join([*path, "--help"]))
                assert helped.exit_code == 0, f"{refusal!r} suggests no command: {command}"
                return
            command = rest[0]  # the line due now, as the script types it
        result = self.run(self.copy(), command)
        assert result.exit_code == 0, (f"the refusal {refusal!r} suggests `{command}`, which "
                                       f"is refused: {result.output}")

    def replay(self, lines: list[str]) -> None:
        first = shlex.split(lines[0])
        players = [first[k + 1].split(":")[0] for k, w in enumerate(first) if w == "--seat"]
        for i, line in enumerate(lines):
            mistakes = []
            if i + 1 < len(lines):
                mistakes.append(lines[i + 1])   # typed too early
            if i > 0:
                mistakes.append(lines[i - 1])   # typed twice
            words = line.split()
            if words and words[0] in BETTING and len(words) > 1 and not words[1].isdigit():
                mistakes += [f"{words[0]} {who}" for who in players if who != words[1]]
            for mistake in mistakes:
                if "--html" not in mistake:  # a page written by a probe would block the line
                    self.check_refusal(mistake, lines[i:])
            result = self.run(self.db, line)
            assert result.exit_code == 0, (line, result.output)
            assert "\\[" not in result.output, result.output  # plain output: no markup escape


def test_e58_every_refusal_in_the_demo_suggests_a_command_that_works(
        runner: CliRunner, tmp_path: Path) -> None:
    replay = Replay(runner, tmp_path)
    replay.replay(demo_lines())
    assert replay.probes > 100


def test_e58_the_readme_evening_replays_and_its_refusals_suggest_what_works(
        runner: CliRunner, tmp_path: Path) -> None:
    lines = readme_lines(tmp_path)
    assert lines[0].startswith("new --fool Max") and any("showdown" in ln for ln in lines)
    assert any(ln.startswith("power use") for ln in lines) and "open-phase" in lines
    replay = Replay(runner, tmp_path)
    replay.replay(lines)
    assert (tmp_path / "friday.html").exists()


@pytest.mark.parametrize("mistake", ["check Ed", "check Cy", "bet Ada 3", "bet Ed", "rise Cy",
                                     'hand showdown "Cy: 2S 7C 9C"', "hand start",
                                     "hand show Fool +10S 9S"])
def test_e58_a_refusal_mid_round_names_the_moves_to_type(runner: CliRunner, tmp_path: Path,
                                                         mistake: str) -> None:
    """Mid-round: Cy bet, Ed to act owing 1. Whatever is typed out of turn, the refusal says
    what Ed may type, and those commands are accepted."""
    replay = Replay(runner, tmp_path)
    for line in ("new --fool Fool --seat Ada:XVI:red --seat Cy:III:blue --seat Ed:VII:green",
                 "hand start", 'hand show "Cy: KC KW" "Ed: 2S 3S" "Ada: 4C 5C" "Fool: 6P 7P 8P 9P"',
                 "bet Cy"):
        assert replay.run(replay.db, line).exit_code == 0
    result = replay.run(replay.copy(), mistake)
    assert result.exit_code == 2, result.output
    assert re.findall(r"`([^`]+)`", result.output) == [
        "referee call Ed", "referee raise Ed", "referee fold Ed"], result.output
    replay.check_refusal(mistake, [])
