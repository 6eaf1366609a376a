"""Card of Fate core tests: a fresh stream holds the shipped tables, as the CLI's first command
copies them in (F19)."""

from __future__ import annotations

from referee.content.side_tables import fate_tables
from referee.rules import fate
from referee.rules.fate.tables import FateData, parse_data

DATA: FateData = parse_data(fate_tables())


def fresh() -> fate.State:
    """An empty ``fate`` stream with the shipped tables."""
    return fate.started(fate_tables())
