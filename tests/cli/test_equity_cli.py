"""`referee hand equity` as the GM types it (H26-H30): read-only, one line for a mistake,
the figures at every round of a hand, exact at the end of a heads-up hand."""

from __future__ import annotations

from typing import Any

import pytest

from tests.cli.conftest import GM


@pytest.fixture
def evening(gm: GM) -> GM:
    gm("new", "--fool", "Max", "--seat", "Ada:I:red", "--seat", "Cy:III:blue",
       "--seat", "Ed:VII:green")
    return gm


def _sums_to_one(view: dict[str, Any]) -> None:
    assert sum(p["hand"] for p in view["players"]) == pytest.approx(1)
    for pot in view["pots"]:
        assert sum(pot["chances"].values()) == pytest.approx(1)


def test_h26_no_hand_in_progress_is_one_line_and_changes_nothing(evening: GM) -> None:
    line = evening.fails("hand", "equity")
    assert "no hand in progress" in line and "hand start" in line


def test_h26_reading_the_figures_writes_nothing(evening: GM) -> None:
    evening("hand", "start")
    evening("hand", "show", "Ada: 2C 3W", "Cy: 4C 5W", "Ed: 6S 7P", "Max: KC KW KS KP")
    before = evening.db.read_bytes()
    evening("hand", "equity")
    evening("hand", "equity", "--json")
    assert evening.db.read_bytes() == before


def test_h29_h30_a_hand_round_by_round(evening: GM) -> None:
    evening("hand", "start")
    evening("hand", "show", "Ada: 2C 3W", "Cy: 4C 5W", "Ed: 6S 7P", "Max: KC KW KS KP")
    first = evening.json("hand", "equity")
    assert first["method"] == "sampled" and first["street"] == 1
    assert [p["to_come"] for p in first["players"]] == [5, 5, 5, 3]
    assert first["unseen"] == 78 - 10 and first["notes"] == []
    _sums_to_one(first)
    fool = next(p for p in first["players"] if p["fool"])
    assert fool["name"] == "Max" and fool["hand"] > 0.5  # four Kings showing
    opener = evening.status()["hand"]["to_act"]
    evening("bet", opener)
    evening("fold")
    evening("call")
    second = evening.json("hand", "equity")
    assert len(second["players"]) == 3 and second["pots"][0]["size"] == 2
    folded = next(p for p in ["Ada", "Cy", "Ed"] if p not in
                  [q["name"] for q in second["players"]])
    assert folded not in second["pots"][0]["eligible"]
    _sums_to_one(second)
    assert 0 < second["error"] <= 0.005


def test_h27_up_cards_not_given_yet_are_named(evening: GM) -> None:
    evening("hand", "start")
    evening("hand", "show", "Ada: 2C 3W")
    out = " ".join(evening("hand", "equity").stdout.split())
    assert "not given yet" in out and "Cy 0 of 2" in out and "the Fool 0 of 4" in out


def test_h29_heads_up_after_the_deal_is_exact(gm: GM) -> None:
    gm("new", "--fool", "Max", "--seat", "Ada:I:red", "--seat", "Cy:III:blue")
    gm("hand", "start")
    gm("hand", "show", "Ada: 2C 3W", "Cy: 4C 5W", "Max: KC KW KS KP")
    gm("fold", "Cy")
    gm("check", "Ada")
    gm("hand", "show", "Ada: +6C 7W", "Max: +2S 3S 4S")
    view = gm.json("hand", "equity")
    assert view["method"] == "exact" and view["deals"] == 43_680 and view["error"] == 0
    assert [p["name"] for p in view["players"]] == ["Ada", "Max"]
    assert all(p["exact"] for p in view["players"])
    out = " ".join(gm("hand", "equity").stdout.split())
    assert "Exact: every one of the 43,680 deals of the 65 unseen cards" in out


def test_h29_the_human_table_says_how_far_to_trust_it(evening: GM) -> None:
    evening("hand", "start")
    evening("hand", "show", "Ada: 2C 3W", "Cy: 4C 5W", "Ed: 6S 7P", "Max: KC KW KS KP")
    out = " ".join(evening("hand", "equity").stdout.split())
    assert "Hand 1, round 1: who is ahead on what is showing" in out
    assert "Sampled:" in out and "95 times in 100" in out
    for name in ("Ada", "Cy", "Ed", "Max (Fool)"):
        assert name in out


@pytest.mark.system
def test_h29_numpy_is_loaded_by_hand_equity_only() -> None:
    import subprocess
    import sys

    code = ("import sys, referee.cli.main, referee.evening.views, referee.serve.players; "
            "from referee.cli.main import app; "
            "print('numpy' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "False"


def test_h29_only_a_count_of_every_deal_says_zero_or_certain() -> None:
    from referee.cli.table.equity import _percent

    assert [_percent(x, exact=True) for x in (0, 1, 0.4123)] == ["0%", "100%", "41.2%"]
    assert [_percent(x, exact=False) for x in (0, 1, 0.0004, 0.9996)] == [
        "<0.1%", ">99.9%", "<0.1%", ">99.9%"]
