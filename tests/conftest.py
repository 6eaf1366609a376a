"""Shared fixtures: a pinned terminal width, no colour, and a temp evening file per test."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest
import typer.testing
from hypothesis import settings
from typer.testing import CliRunner

# The machines here are shared and noisy: a property is about correctness, never about time.
settings.register_profile("referee", deadline=None)
settings.load_profile("referee")

# Typer converts the whole command tree (evaluating every annotation) on each invoke; the tree
# never changes during a test run, so build each app's command once.
typer.testing._get_command = functools.lru_cache(maxsize=None)(typer.testing._get_command)


@pytest.fixture(autouse=True)
def _plain_terminal(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("COLUMNS", "120")
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("TERM", "dumb")
    # Never touch the real user data dir from a test.
    monkeypatch.setenv("REFEREE_DB", str(tmp_path / "default-evening.json"))
    # `rules last` remembers refusals outside the evening's folder, never in the user's cache.
    monkeypatch.setenv("REFEREE_CACHE_DIR", str(tmp_path.parent / f"{tmp_path.name}-cache"))
    import referee.cli.aloud as aloud
    import referee.cli.common as common

    monkeypatch.setattr(common, "_console", None)
    monkeypatch.setattr(aloud, "memory", None)  # each test starts as a fresh process would
    monkeypatch.setattr(aloud, "on_disk", True)


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """A fresh evening file path (not yet created)."""
    return tmp_path / "evening.json"
