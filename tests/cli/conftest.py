"""A GM at the console: runs commands on one evening file and checks what a mistake leaves."""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from referee.cli.main import app

#: The evenings ``GM.played`` made, by key and file name.
_PLAYED: dict[tuple[str, str], Path] = {}


class GM:
    """Types commands at the console, as the Fool would."""

    def __init__(self, runner: CliRunner, db: Path) -> None:
        self.runner = runner
        self.db = db

    def played(self, key: str, build: Callable[[GM], object]) -> None:
        """Leave this GM's evening as ``build`` leaves a new one: played once in each test
        process (under ``key``, on a file of the same name in a folder of its own) and copied
        byte for byte after that, with its backups, segments and lock file. For the table many
        tests of a module start from; what the tests themselves type still runs every time."""
        made = _PLAYED.get((key, self.db.name))
        if made is None:
            made = Path(tempfile.mkdtemp(prefix="played-")) / self.db.name
            build(GM(self.runner, made))
            _PLAYED[(key, self.db.name)] = made
        self.db.parent.mkdir(parents=True, exist_ok=True)
        for part in sorted(made.parent.iterdir()):
            if part.name.startswith(made.name):
                shutil.copyfile(part, self.db.parent / part.name)

    def invoke(self, *args: str) -> Result:
        return self.runner.invoke(app, ["--db", str(self.db), *args])

    def __call__(self, *args: str) -> Result:
        result = self.invoke(*args)
        assert result.exit_code == 0, result.output
        return result

    def fails(self, *args: str) -> str:
        """A user mistake: exit 2, one line, no traceback, the file byte-for-byte unchanged."""
        before = self.db.read_bytes() if self.db.exists() else None
        result = self.invoke(*args)
        assert result.exit_code == 2, result.output
        assert "Traceback" not in result.output
        after = self.db.read_bytes() if self.db.exists() else None
        assert before == after, "a rejected command changed the evening file"
        lines = [ln for ln in result.output.splitlines() if ln.strip()]
        assert len(lines) == 1, result.output
        return lines[0]

    def json(self, *args: str) -> Any:
        return json.loads(self(*args, "--json").stdout)

    def status(self) -> dict[str, Any]:
        data: dict[str, Any] = self.json("status")
        return data

    def check_around(self, hands: dict[str, str]) -> None:
        """Plays the hand's rounds out from where it stands: each round's up cards as dealt
        (cards 3-6 of a stakeholder's seven, the Fool's first 4, 6, 7; R9) in one `hand show`,
        then `check` for the player to act until the round ends."""
        fool_name = self.status()["fool"]
        while (hand := self.status()["hand"]) and not hand["betting_over"]:
            street = hand["street"]
            up = []
            for name in hand["missing_up"]:
                cards = hands[name].split()
                want = cards[:hand["up_due"][name]] if name == fool_name else cards[2:6][
                    :hand["up_due"][name]]
                new = [c for c in want if c not in hand["showing"].get(name, [])]
                up.append(f"{name}: +{' '.join(new)}")
            if up:
                self("hand", "show", *up)
            while (hand := self.status()["hand"]) and hand["to_act"] and hand["street"] == street:
                assert "checks" in self("check").output

    def chips(self, name: str) -> dict[str, int]:
        held: dict[str, int] = self.status()["chips"].get(name, {})
        return held


@pytest.fixture
def gm(runner: CliRunner, db: Path) -> GM:
    return GM(runner, db)
