"""One shape for a power (S12): every kind of effect declared once in
``referee.evening.powers.kinds`` with its builder and its fold, the power set's data naming only
declared kinds, and the rulebook naming, for each power of the default set, the function that
decides it."""

from __future__ import annotations

import inspect
from pathlib import Path

from referee.content.scenario import load_powers
from referee.evening.powers import kinds
from referee.rules.cards import to_roman
from referee.rules.power_vocab import EFFECTS

BOOK = Path(__file__).resolve().parents[1] / "docs" / "rules.md"
HEAD = "| Card | Power | When | Charges | Kind | Decided in |\n|---|---|---|---:|---|---|\n"


def test_s12_every_kind_of_the_vocabulary_is_declared_once_with_a_builder_and_a_fold() -> None:
    assert set(kinds.KINDS) == set(EFFECTS)
    for name, kind in kinds.KINDS.items():
        assert kind.name == name
        assert inspect.getmodule(kind.build) is kinds, name  # declared where it is found
        assert inspect.getmodule(kind.fold) is kinds, name


def table() -> str:
    """The rulebook's table of the default power set: each power, its moment, its cost, its
    kind and the builder that decides it."""
    rows = []
    for spec in load_powers():
        kind = str(spec.effect["kind"])
        build = kinds.KINDS[kind].build.__name__
        rows.append(f"| {to_roman(spec.card)} {spec.orientation} | {spec.name} | "
                    f"{spec.when} | {spec.charges} | `{kind}` | "
                    f"`referee.evening.powers.kinds.{build}` |")
    return HEAD + "\n".join(rows) + "\n"


def test_s12_the_rulebook_names_where_each_power_is_decided() -> None:
    expected = table()
    assert expected in BOOK.read_text(encoding="utf-8"), (
        "docs/rules.md's table of the powers is out of date; it should read:\n" + expected)
