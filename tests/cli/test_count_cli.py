"""`referee count`: the chips on the table against the books (E130-E132)."""

from __future__ import annotations

from typing import Any

from referee.storage.store import open_evening
from tests.cli.conftest import GM

SEATS = ["--seat", "Ada:XVI:red:Ben:IX", "--seat", "Cy:III:blue:Di:II", "--seat", "Ed:VII:green"]


def _mid_hand(gm: GM) -> None:
    """Hand 1, round 1: Cy bets one, Ed raises (a blue and two greens in the pot)."""
    gm("new", "--fool", "Max", *SEATS)
    gm("hand", "start")
    gm("hand", "show", "Cy: KC KW", "Ed: 2S 7P", "Ada: 4C 9W", "Max: AC 6W 7S QP")
    gm("bet", "Cy")
    gm("raise", "Ed")


def _counts(gm: GM) -> list[dict[str, Any]]:
    with open_evening(gm.db, write=False) as ev:
        return [e for c in ev.commands("evening") for e in c.events
                if e["kind"] == "chips_counted"]


def test_e130_a_count_that_matches_changes_nothing_but_is_recorded(gm: GM) -> None:
    _mid_hand(gm)
    before = gm.status()
    out = gm("count", "Cy", "blue:9", "Ed", "green:8", "Ada", "red:10", "pot", "blue:1",
             "green:2").output
    assert "agrees with the books" in out
    after = gm.status()
    assert {k: v for k, v in after.items() if k != "clock"} == \
        {k: v for k, v in before.items() if k != "clock"}
    [event] = _counts(gm)
    assert event["differences"] == []
    assert event["books"]["pot"] == {"blue": 1, "green": 2}
    assert "count Cy blue:9" in gm("log").output


def test_e130_a_wrong_colour_is_named_with_the_moves_that_touched_it(gm: GM) -> None:
    _mid_hand(gm)
    out = gm("count", "Ed", "green:9", "red:1").output
    assert "Ed: 9 green counted, the books say 8" in out
    assert "`raise Ed`" in out  # the last move that touched Ed's greens (E131)
    assert "Ed: 1 red counted, the books say 0" in out
    assert "nothing was corrected" in out  # E132
    assert gm.chips("Ed") == {"green": 8}
    [event] = _counts(gm)
    assert [(d["holder"], d["colour"], d["counted"], d["books"]) for d in
            event["differences"]] == [("Ed", "green", 9, 8), ("Ed", "red", 1, 0)]
    green = event["differences"][0]
    assert green["moves"][-1] == "raise Ed"


def test_e130_the_pot_by_total_and_by_colour(gm: GM) -> None:
    _mid_hand(gm)
    data = gm.json("count", "pot:4")
    assert data["differences"] == [{"holder": "pot", "colour": None, "counted": 4, "books": 3,
                                    "moves": ["bet Cy", "raise Ed"]}]
    data = gm.json("count", "pot", "blue:2", "green:1")
    assert [(d["colour"], d["counted"], d["books"]) for d in data["differences"]] == \
        [("blue", 2, 1), ("green", 1, 2)]
    assert gm.json("count", "pot:3")["differences"] == []


def test_e130_bad_counts_are_one_line_and_write_nothing(gm: GM) -> None:
    _mid_hand(gm)
    assert "counts chips of no one" in gm.fails("count", "red:2")
    assert "whole number" in gm.fails("count", "Ada", "red:x")
    assert "counted twice" in gm.fails("count", "Ada", "red:10", "Ada", "red:10")
    assert "unknown person" in gm.fails("count", "Zed", "red:1")
    assert "Missing argument" in gm.fails("count")


def test_e130_verify_finds_a_count_edited_after_it_was_taken(gm: GM) -> None:
    _mid_hand(gm)
    gm("count", "Cy", "blue:9")
    assert "sound" in gm("verify").output
    # Someone edits the count in the file and rebuilds the hash chain and the checksum:
    # the count no longer agrees with the books at its moment, and verify says so.
    with open_evening(gm.db) as ev:
        record = next(r for r in ev._live if r["event"]["kind"] == "chips_counted")
        record["event"]["counted"]["Cy"] = {"blue": 8}
        ev._rechain()
        ev._changed = True
    result = gm.invoke("verify")
    assert result.exit_code != 0
    assert "E130" in result.output and "does not replay" in result.output
