"""`status` and the console's answers (referee.cli.output.render): changed cards marked, down cards
counted, Suspended said, and why the high hand does not open (E76-E78, E88, S19)."""

from __future__ import annotations

import re

import pytest

from tests.cli import tables
from tests.cli.conftest import GM


def _row(out: str, name: str) -> str:
    """The hand table's row of ``name`` (the one with the Round and Hand columns)."""
    rows = [ln for ln in out.splitlines() if re.match(rf"\s*{name}\s", ln)]
    return rows[-1]


def test_e88_the_console_says_why_the_high_hand_does_not_open(gm: GM) -> None:
    tables.marked_hand(gm, powers=False)
    said = "Fool shows the high hand but has no chips: Ed opens (R15)"
    out = gm("status").output
    assert said in " ".join(out.split())
    # The answer to the `hand show` that completed the round says it too.
    gm("undo")
    answer = gm("hand", "show", *tables.MARKED_UP).output
    assert said in " ".join(answer.split())
    gm("check", "Ed")  # the round is under way: the opening is no news any more
    assert "shows the high hand" not in gm("status").output


def test_e76_status_marks_dead_counted_and_held_cards_and_names_the_hooded(gm: GM) -> None:
    tables.marked_hand(gm)
    out = gm("status").output
    assert "4C(as KC) 8W(dead)" in _row(out, "Ada")
    assert "2C 5W(held)" in _row(out, "Cy")
    assert "hooded 9P" in _row(out, "Ed")  # E77: the GM's view names the hooded card


def test_e78_status_counts_each_live_players_down_cards(gm: GM) -> None:
    tables.marked_hand(gm)
    out = gm("status").output
    assert re.search(r"In hand\s+Up cards\s+Down\s+Round\s+Hand", out)
    # Four cards dealt each: Ada gave IV and XII for powers and shows two, so holds no down
    # card; Ed gave XIII and IX and hooded 9P: one; Cy gave VIII: one; the Fool's are all up.
    down = {}
    for name in ("Cy", "Ed", "Ada", "Fool"):
        row = re.match(r"\s*\w+\s+.*?\s(\d+)\s+\d+\s+\d+(\s|$)", _row(out, name))
        assert row is not None, _row(out, name)
        down[name] = int(row.group(1))
    assert down == {"Cy": 1, "Ed": 1, "Ada": 0, "Fool": 0}
    data = gm.status()["hand"]
    assert {p["name"]: p["down"] for p in data["players"]} == down


def test_s19_a_suspended_player_is_suspended_not_all_in(gm: GM) -> None:
    tables.marked_hand(gm)
    out = gm("status").output
    assert "suspended" in _row(out, "Cy") and "all-in" not in _row(out, "Cy")
    seat = next(ln for ln in out.splitlines() if re.match(r"\s*\d+ Cy\b", ln))
    assert "suspended" in seat and "all-in" not in seat
    data = gm.status()["hand"]
    assert data["suspended"] == ["Cy"]
    assert next(p for p in data["players"] if p["name"] == "Cy")["suspended"] is True


def test_a_narrow_status_table_writes_grey_whole_and_apart_from_green(
        gm: GM, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "66")  # six colours at 66 columns: the short heads
    out = gm("new", "--fool", "Max", "--seat", "Ada:XVI:grey", "--seat", "Cy:III:blue",
             "--seat", "Bo:II:green", "--seat", "Di:V:red", "--seat", "Ed:VI:purple",
             "--seat", "Fa:VII:orange").output
    head = next(ln for ln in out.splitlines() if ln.strip().startswith("Seat"))
    assert head.split()[2:8] == ["gree", "blue", "red", "pur", "ora", "grey"], head


FIVE = ("new", "--fool", "Max", "--seat", "Ada:XVI:red:Ben:IX", "--seat", "Cy:III:blue:Di:II",
        "--seat", "Ed:VII:green:Flo:XVII", "--seat", "Gus:V:purple", "--seat", "Ivy:X:yellow:Jo:I")


def _head(out: str) -> list[str]:
    """The status table's head: its words, from `Seat` on."""
    line = next(ln for ln in out.splitlines() if ln.lstrip().startswith("Seat"))
    return line.split()


@pytest.mark.parametrize("mid_hand", [False, True])
@pytest.mark.parametrize("columns", [80, 90, 105])
def test_e172_status_keeps_whole_colours_and_dollars_down_to_80_columns(
        gm: GM, monkeypatch: pytest.MonkeyPatch, columns: int, mid_hand: bool) -> None:
    gm(*FIVE)
    gm("hand", "start")
    if mid_hand:  # a player to act: the widest row has the turn's mark
        gm("hand", "show", "Cy: KC KW", "Gus: 2S 3S", "Ed: 4C 5C", "Ivy: 6P 7P", "Ada: 8S 9S",
           "Max: 2C 3C 4S 6S")
        gm("bet")
    monkeypatch.setenv("COLUMNS", str(columns))
    out = gm("status").output
    if mid_hand:
        mark = next(ln for ln in out.splitlines() if ln.lstrip().startswith("2 Gus"))
        assert mark.rstrip().endswith("< to act" if columns > 80 else "<"), out
    assert _head(out) == ["Seat", "Arc", "blue", "purple", "green", "yellow", "red", "Chips",
                          "Side", "Ch"], out
    assert "$1.0M" in out
    assert max(len(ln.rstrip()) for ln in out.splitlines()[:20]) <= columns


def test_e172_narrower_the_dollars_go_first_and_the_colours_are_cut_last(
        gm: GM, monkeypatch: pytest.MonkeyPatch) -> None:
    gm(*FIVE)
    widths = {}
    for columns in range(80, 55, -1):
        monkeypatch.setenv("COLUMNS", str(columns))
        widths[columns] = _head(gm("status").output)
    kinds = [("Side" in head, "purple" in head) for head in widths.values()]
    # whole colours and dollars, then whole colours alone, then three letters: never back
    assert kinds == sorted(kinds, reverse=True) and kinds[0] == (True, True)
    assert (False, True) in kinds and kinds[-1] == (False, False)
    assert widths[56][2:7] == ["blue", "pur", "gre", "yel", "red"]
