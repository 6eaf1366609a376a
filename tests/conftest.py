"""Shared fixtures: a pinned terminal width, no colour, and a temp evening file per test."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner


@pytest.fixture(autouse=True)
def _plain_terminal(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("COLUMNS", "120")
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("TERM", "dumb")
    # Never touch the real user data dir from a test.
    monkeypatch.setenv("REFEREE_DB", str(tmp_path / "default-evening.json"))
    import referee.cli.common as common

    monkeypatch.setattr(common, "_console", None)


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """A fresh evening file path (not yet created)."""
    return tmp_path / "evening.json"
