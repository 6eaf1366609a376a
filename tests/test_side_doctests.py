"""The examples in the side tables' (and a few shared modules') docstrings run as written."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "referee.rules.scum.roles", "referee.rules.scum.plays", "referee.rules.wager.cards",
    "referee.rules.wager.hands", "referee.rules.fate.cards", "referee.names", "referee.streams",
    "referee.rules.scenario", "referee.cli.errors", "referee.said",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0
