"""The past on demand: `status --at`, `hand history`, `log --format`, `room replay` and
`room odds` on the wall (E134-E137, H31)."""

from __future__ import annotations

import csv
import io
import json
import time
from pathlib import Path

import pytest

from referee.serve.frame import build_frame
from referee.serve.room import room_path
from tests.cli.conftest import GM

SEATS = ["--seat", "Ada:XVI:red:Ben:IX", "--seat", "Cy:III:blue:Di:II", "--seat", "Ed:VII:green"]
HANDS = ("Cy: KC KW 6S 8S 3C 9C PC", "Ed: 2S 7P 10C 4W 5S 3S 9P", "Ada: 4C 9W AS 6C 8C 2W QC",
         "Max: AC 6W 7S QP QW 10S 2P")


def _one_hand(gm: GM) -> None:
    """Hand 1: Cy bets, Ed raises, Ada folds, Cy calls; then checks to a showdown."""
    gm("new", "--fool", "Max", *SEATS)
    gm("hand", "start")
    gm("hand", "show", "Cy: KC KW", "Ed: 2S 7P", "Ada: 4C 9W", "Max: AC 6W 7S QP")
    gm("bet", "Cy")
    gm("raise", "Ed")
    gm("fold", "Ada")
    gm("call", "Cy")
    gm.check_around({"Cy": "3C 9C KC KW 6S 8S PC", "Ed": "5S 3S 2S 7P 10C 4W 9P",
                     "Max": "AC 6W 7S QP QW 10S 2P"})  # two down, four up, one down (R9)
    gm("hand", "showdown", HANDS[0], HANDS[1], HANDS[3])


def _cmd(gm: GM, text: str) -> int:
    return next(int(c["cmd"]) for c in gm.json("log")["commands"] if c["text"] == text)


def test_e134_status_at_a_command_is_the_evening_as_it_stood(gm: GM) -> None:
    _one_hand(gm)
    at = gm.json("status", "--at", str(_cmd(gm, "raise Ed")))
    assert at["hand"]["to_act"] == "Ada" and at["hand"]["pot"] == 3
    assert at["chips"]["Ed"] == {"green": 8}
    assert gm.status()["hand"] is None  # the evening itself is where it is
    assert "As it stood after command #" in gm("status", "--at", "1").output
    last = gm.json("log")["commands"][-1]["cmd"]
    assert "ends at command" in gm.fails("status", "--at", str(last + 5))


def test_e134_the_clock_as_it_stood(gm: GM, monkeypatch: pytest.MonkeyPatch) -> None:
    now = [1_800_000_000.0]

    def tick() -> float:
        now[0] += 60  # a minute between any two looks at the clock
        return now[0]

    monkeypatch.setattr(time, "time", tick)
    _one_hand(gm)
    log = {c["text"]: c["time"] for c in gm.json("log")["commands"]}
    at = gm.json("status", "--at", str(_cmd(gm, "raise Ed")))["clock"]
    assert abs(at - (log["raise Ed"] - log["hand start"])) <= 60  # not the clock of now
    assert gm.json("status")["clock"] > at + 600


def test_e135_hand_history_tells_the_hand_move_by_move(gm: GM) -> None:
    _one_hand(gm)
    told = gm.json("hand", "history", "1")
    first = told["rounds"][0]
    assert first["up"]["Cy"] == ["KC", "KW"]
    assert [(m["name"], m["action"], m["chips"]) for m in first["moves"]] == \
        [("Cy", "bet", 1), ("Ed", "raise", 2), ("Ada", "fold", 0), ("Cy", "call", 1)]
    assert [r["street"] for r in told["rounds"]] == [1, 2, 3]
    assert told["showdown"]["pots"][0]["winners"] == gm.json("log")["commands"][-1][
        "events"][0]["pots"][0]["winners"]
    out = gm("hand", "history").output  # the last finished hand
    assert out.startswith("Hand 1 (limit phase)") and "Ed raises 2" in out
    assert "Showdown: Cy KC KW 6S 8S 3C 9C PC" in out
    assert "hand 2 has not been played to its end; hand 1 has (E135)" in \
        gm.fails("hand", "history", "2")


def test_e137_log_as_jsonl_and_csv(gm: GM) -> None:
    _one_hand(gm)
    gm("rise", "Ada")
    lines = gm("log", "--format", "jsonl").stdout.splitlines()
    rows = [json.loads(line) for line in lines]
    assert [r["text"] for r in rows] == [c["text"] for c in gm.json("log")["commands"]]
    table = list(csv.reader(io.StringIO(gm("log", "--format", "csv").stdout)))
    assert table[0] == ["cmd", "time", "table", "command", "events", "kinds", "amended"]
    assert table[-1][3] == "rise Ada" and table[-1][5] == "seat_changed"
    assert len(table) == len(rows) + 1
    assert "give jsonl or csv" in gm.fails("log", "--format", "xls")
    assert "not both" in gm.fails("log", "--format", "csv", "--json")


def test_e137_a_name_a_spreadsheet_would_run_is_written_as_text(gm: GM) -> None:
    gm("new", "--fool", "Max", "--seat", "=SUM(A1):XVI:red", "--seat", "Cy:III:blue")
    table = list(csv.reader(io.StringIO(gm("log", "--format", "csv").stdout)))
    assert all(not row[3].startswith("=") for row in table[1:])


def test_e136_h31_replay_and_odds_on_the_wall_only_when_asked(gm: GM, db: Path) -> None:
    _one_hand(gm)
    evening = db.read_bytes()
    assert "has not been played" in gm.fails("room", "replay", "4")
    gm("room", "replay", "1")
    frame = build_frame(db)
    assert frame["replay"]["hand"] == 1 and frame["replay"]["lines"][0].startswith("Hand 1")
    assert "  Ed raises 2" in frame["replay"]["lines"]
    assert frame["odds"] is None  # never by default (H31)
    assert "it showed the replay of hand 1" in gm("room", "show").output
    assert build_frame(db)["replay"] is None
    gm("room", "odds", "on")
    assert build_frame(db)["odds"] is None  # between hands: nothing to show
    gm("hand", "start")
    gm("hand", "show", "Cy: KC KW", "Ed: 2S 7P", "Ada: 4C 9W", "Max: AC 6W 7S QP")
    before_room = db.read_bytes()
    gm("room", "odds", "off")
    assert db.read_bytes() == before_room  # the wall's file only (E82)
    assert build_frame(db)["odds"] is None
    gm("room", "odds", "on")
    odds = build_frame(db)["odds"]
    assert {p["name"] for p in odds["players"]} == {"Cy", "Ed", "Ada", "Max"}
    assert abs(sum(p["chance"] for p in odds["players"]) - 1) < 1e-6
    assert json.loads(room_path(db).read_text())["odds"] is True
    assert "give on or off" in gm.fails("room", "odds", "maybe")
    assert evening != db.read_bytes()  # the hand started; the room commands wrote none of it


def test_e135_no_finished_hand_yet_says_where_to_look(gm: GM) -> None:
    gm("new", "--fool", "Max", "--seat", "Ada:XVI:red", "--seat", "Cy:III:blue")
    line = gm.fails("hand", "history")
    assert "no hand has been played to its end yet; `status` tells the one under way" in line
    assert "none has" not in line
    assert "hand 3 has not been played to its end; no hand has yet" in gm.fails(
        "hand", "history", "3")


def test_e134_a_number_between_commands_is_not_told_the_log_ends(gm: GM) -> None:
    gm("new", "--fool", "Max", "--seat", "Ada:XVI:red", "--seat", "Cy:III:blue")
    gm("count", "Ada", "red:10")  # 2
    gm("count", "Cy", "blue:10")  # 3, undone
    gm("undo")
    gm("count", "Ada", "red:10")  # 4
    line = gm.fails("status", "--at", "3")
    assert "no evening command #3" in line and "the nearest before it is #2" in line
    assert "ends at" not in line
    assert "the evening's log ends at command #4" in gm.fails("status", "--at", "9")


def test_e13_the_log_footer_counts_only_what_is_still_undone(gm: GM) -> None:
    gm("new", "--fool", "Max", *SEATS)
    gm("hand", "start")
    gm("undo")
    assert "1 command undone and kept: hand start" in gm("log").output
    gm("redo")  # brought back: it is in the log again, not undone
    assert "undone" not in gm("log").output
    gm("undo")
    assert "1 command undone and kept: hand start" in gm("log").output
