"""`referee fate test` pools: aid with or without a character, one base, a sheet's values only
with the sheet, the opposition aided too, and a duel's pools in its JSON (F5, F25, E190)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.conftest import GM
from tests.cli.test_fate_cli import Host, _play_lord, said


@pytest.fixture
def host(gm: GM) -> Host:
    return Host(gm)


@pytest.fixture
def lord(host: Host) -> Host:
    """Lord Ashby (Calm 6, Sabre 3, Swordsman +2) and Bob (Calm 7, Pistol 4)."""
    host.gm.played("fate-lord", lambda gm: _play_lord(Host(gm)))
    return host


def test_e163_aid_adds_to_a_pool_of_a_number(host: Host, db: Path) -> None:
    data = host.json("test", "--pool", "3", "--aid", "2", "--static", "3", "--seed", "1")
    assert len(data["a"]["cards"]) == 5 and len(data["b"]["cards"]) == 3
    assert data["pools"]["a"]["parts"] == [["pool", 3], ["aid", 2]]
    text = said(host("test", "--pool", "3", "--aid", "2", "--static", "3", "--seed", "1"))
    assert "pool 5 = 3 pool + 2 aid" in text
    assert not db.exists()  # no character: a ruling, nothing written (F16)


def test_e163_aid_above_3_is_refused_with_or_without_a_character(lord: Host) -> None:
    line = lord.fails("test", "--pool", "3", "--aid", "4", "--static", "3")
    assert "aid 4: a helper adds 0 to +3 cards" in line
    line = lord.fails("test", "--char", "bob", "--measure", "calm", "--aid", "4", "--vs", "3")
    assert "a helper adds 0 to +3 cards" in line
    assert "aid Bob Calm" in said(lord("test", "--pool", "3", "--aid", "bob:calm",
                                       "--static", "3"))  # 7 Calm, +3 at most
    line = lord.fails("test", "--aid", "2", "--static", "3")
    assert "--aid adds to a pool: give --pool N or --char NAME" in line


@pytest.mark.parametrize(("given", "named"), [
    (["--rep", "Loved by Miss Atherton", "--vs", "3"], "--rep needs a character: give --char"),
    (["--trait", "Swordsman", "--vs", "3"], "--trait needs a character"),
    (["--item", "Sabre", "--vs", "3"], "--item needs a character"),
    (["--exp", "Crimea", "--vs", "3"], "--exp needs a character"),
    (["--measure", "fiery", "--vs", "3"], "--measure needs a character"),
    (["--trait", "Swordsman", "--rep", "Loved", "--vs", "3"], "--trait and --rep need a"),
    (["--vs", "3", "--vs-trait", "Pistol"], "--vs-trait needs a character: give --vs-char"),
    (["--vs", "3", "--vs-rep", "Regiment"], "--vs-rep needs a character"),
    (["--vs", "3", "--vs-measure", "calm"], "--vs-measure needs a character"),
])
def test_e163_a_sheets_values_without_the_character_are_refused(
        lord: Host, given: list[str], named: str) -> None:
    line = lord.fails("test", "--pool", "3", *given)
    assert named in line and "(F5, E190)" in line


def test_e163_a_pool_has_one_base_a_number_or_a_measure(lord: Host) -> None:
    line = lord.fails("test", "--char", "bob", "--measure", "calm", "--pool", "2",
                      "--static", "3")
    assert "give one base for the pool: --pool 2 or --measure calm, not both" in line
    # A character on a number alone is that number (F5), Traits added on top.
    data = lord.json("test", "--char", "ashby", "--pool", "2", "--trait", "sword",
                     "--static", "3", "--seed", "4")
    assert data["pools"]["a"]["parts"] == [["pool", 2], ["Swordsman", 2]]


def test_e163_the_opposition_is_aided_too(lord: Host) -> None:
    data = lord.json("test", "--char", "ashby", "--measure", "calm", "--vs-char", "bob",
                     "--vs-measure", "calm", "--vs-aid", "2", "--seed", "3")
    assert data["pools"]["b"]["parts"] == [["Calm", 7], ["aid", 2]]
    assert len(data["b"]["cards"]) == 9
    data = lord.json("test", "--pool", "2", "--vs", "3", "--vs-aid", "ashby:calm", "--seed", "3")
    assert data["pools"]["b"]["parts"] == [["opposition", 3], ["aid Lord Ashby Calm", 3]]
    line = lord.fails("test", "--char", "bob", "--measure", "calm", "--vs-char", "bob",
                      "--vs-measure", "calm", "--aid", "bob:calm")
    assert "Bob cannot aid their own test" in line
    assert "a static level is the whole opposition" in lord.fails(
        "test", "--pool", "3", "--static", "5", "--vs-aid", "1")
    assert "--vs-aid adds to a pool: give --vs N or --vs-char NAME" in lord.fails(
        "test", "--pool", "3", "--vs-aid", "1")


def test_f25_a_duels_json_gives_each_pool_as_its_lines_do(lord: Host) -> None:
    lord("drink", "bob", "--strength", "2", "--cof", "7H", "--a", "2S 3S 4S 5S 6S",
         "--b", "2H 3H")  # a loss: -1 on Bob's next draw (F12)
    start = lord.json("duel", "swords", "ashby", "bob", "--seed", "2")
    assert start["pools"]["b"] == {"char": "Bob", "size": 2, "parts": [["sword", 3],
                                                                       ["drink", -1]],
                                   "staked": []}
    assert start["pools"]["a"]["parts"] == [["Sabre", 3], ["Swordsman", 2]]
    fought = lord.json("duel", "round")
    assert fought["pools"]["b"]["parts"] == [["sword", 3], ["drink", -1]]
    assert len(fought["phase"]["fight"]["b"]["cards"]) == 2
