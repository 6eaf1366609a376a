"""Evenings in a chain (``referee.storage.links``; R43, E114): the link the next evening's
first event records, followed back while the files are beside each other."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli.main import app
from referee.storage import links
from referee.storage.store import open_evening

SEATS = ["--seat", "Ada:XVI:red:Ben:IX", "--seat", "Cy:III:blue:Di:II",
         "--seat", "Ed:VII:green:Flo:XVII"]


def run(db: Path, *args: str) -> None:
    result = CliRunner().invoke(app, ["--db", str(db), *args])
    assert result.exit_code == 0, result.output


@pytest.fixture
def chain(tmp_path: Path) -> list[Path]:
    """one.json and two.json, the second carried on from the first."""
    one, two = tmp_path / "one.json", tmp_path / "two.json"
    run(one, "new", "--fool", "Max", *SEATS)
    run(one, "end")
    run(one, "ceremony", "close")
    run(one, "next", str(two))
    return [one, two]


def test_r43_the_first_event_records_the_last_final_digest(chain: list[Path]) -> None:
    one, two = chain
    with open_evening(one, write=False) as ev:
        described = links.describe(ev)
        assert links.link(ev) is None  # a first evening links to nothing
    with open_evening(two, write=False) as ev:
        found = links.link(ev)
        assert links.check(ev) == []
    assert found == described and found["file"] == "one.json" and len(found["digest"]) == 64
    assert links.chain_back(two) == [one.resolve(), two.resolve()]
    assert links.chain_back(one) == [one.resolve()]


def test_e114_a_chain_that_runs_in_a_circle_is_reported_and_followed_once(
        chain: list[Path]) -> None:
    one, two = chain
    shutil.copy(two, one)  # one.json now links to one.json itself
    assert links.chain_back(two) == [one.resolve(), two.resolve()]
    with open_evening(two, write=False) as ev:
        problems = links.check(ev)
    assert any("runs in a circle at one.json" in p for p in problems), problems


def test_e114_a_last_evening_not_beside_is_not_checked(chain: list[Path],
                                                       tmp_path: Path) -> None:
    one, two = chain
    one.rename(tmp_path / "moved.json")
    with open_evening(two, write=False) as ev:
        assert links.check(ev) == []
    assert links.chain_back(two) == [two.resolve()]
