"""`referee room ...` (referee.cli.room.room): the GM's hand on the wall, never on the evening
(E82)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.serve import room
from tests.cli.conftest import GM
from tests.cli.serving import copy_evening, demo_db, served

assert demo_db  # the shared demo evening, a fixture


@pytest.fixture
def table(gm: GM) -> GM:
    gm("new", "--fool", "Max", "--seat", "Ada:XVI:red", "--seat", "Cy:III:blue")
    gm("hand", "start")
    gm("hand", "show", "Cy: KC KW", "Ada: 2C 3W", "Max: 4P 5P 6P 7S")
    return gm


def _log(gm: GM) -> list[str]:
    return [c["text"] for c in gm.json("log")["commands"]]


def test_e82_no_wall_command_touches_the_evening_or_its_log(table: GM, db: Path) -> None:
    # The clock's commands (`room break`, `pause`, `resume`) are the evening's (R47, E200):
    # tests/cli/test_room_clock.py.
    before, log = db.read_bytes(), _log(table)
    steps = [
        (("room", "blank"), "The wall is blank", {"blank": True}),
        (("room", "announce", "  Dinner   is served "), "On the wall for 60 s: Dinner is served",
         {"blank": False}),
        (("room", "show"), "The wall shows the table (it showed the announcement ", {
            "blank": False, "announce": None, "break": None}),
    ]
    for args, said, wall in steps:
        out = table(*args).output
        assert said in " ".join(out.split()), out
        now = table.json("room", "status")
        assert {k: now[k] for k in wall} == wall, (args, now)
        assert db.read_bytes() == before  # byte for byte, mid-hand
    assert _log(table) == log
    assert table("undo").output.startswith("Undone: hand show")  # the wall is no command


def test_e82_an_announcement_lasts_its_time_or_until_show(table: GM) -> None:
    import time

    table("room", "announce", "Back in five", "--for", "90")
    wall = table.json("room", "status")
    assert wall["announce"]["text"] == "Back in five"
    assert 80 < wall["announce"]["until"] - time.time() <= 90
    table("room", "announce", "For good", "--for", "0")  # a new one replaces the last
    wall = table.json("room", "status")
    assert wall["announce"] == {"text": "For good", "until": None}
    assert "until `referee room show`" in table("room", "status").output


def test_e82_a_break_counts_down_from_its_minutes(table: GM) -> None:
    import time

    table("room", "break", "15")
    wall = table.json("room", "status")
    assert wall["break"]["minutes"] == 15
    assert 15 * 60 - 10 < wall["break"]["until"] - time.time() <= 15 * 60
    assert "a break, 1" in table("room", "status").output  # 14:5x to go


@pytest.mark.parametrize(("args", "says"), [
    (("room", "announce", ""), "the announcement is empty"),
    (("room", "announce", "a\u202eb"), "U+202E"),
    (("room", "announce", "x" * 201), "at most 200"),
    (("room", "announce", "Hi", "--for", "-1"), "--for"),
    (("room", "break", "0"), "from 1 to 180"),
    (("room", "break", "181"), "from 1 to 180"),
    (("room", "break", "ten"), "minutes ten: give a whole number"),
])
def test_e82_a_wall_command_the_gm_mistypes_is_one_line_and_changes_nothing(
        table: GM, db: Path, args: tuple[str, ...], says: str) -> None:
    table("room", "blank")
    wall = room.room_path(db).read_bytes()
    line = table.fails(*args)
    assert says in line
    assert room.room_path(db).read_bytes() == wall


def test_e82_the_wall_belongs_to_an_evening(gm: GM, db: Path) -> None:
    assert "no evening file at" in gm.fails("room", "blank")
    assert not room.room_path(db).exists()
    assert "no evening file at" in gm.fails("room", "status")


def test_e82_the_gm_controls_the_wall_through_a_station(demo_db: Path, tmp_path: Path) -> None:
    db = copy_evening(demo_db, tmp_path / "served")
    before = db.read_bytes()
    with served(db) as s:
        status, there = s.station(["room", "announce", "Last hand", "--for", "0"],
                                  s.access.station)
        assert status == 200 and there["exit"] == 0, there
        frame = json.loads(s.get("/frame.json")[2])
        assert frame["room"]["announce"] == {"text": "Last hand", "until": None}
        status, there = s.station(["room", "show"], s.access.station)
        assert there["exit"] == 0 and json.loads(s.get("/frame.json")[2])["room"][
            "announce"] is None
    assert db.read_bytes() == before
    runner = CliRunner()
    assert "The wall shows the table" in GM(runner, db)("room", "status").output


def test_e201_sound_and_voice_on_the_wall_only_when_asked(table: GM, db: Path) -> None:
    from referee.serve.frame import build_frame

    before = db.read_bytes()
    frame = build_frame(db)
    assert frame["sound"] is False and frame["voice"] is False  # silent unless asked
    assert "The wall chimes when the hour of play is up" in table("room", "sound", "on").output
    assert "The wall says each turn aloud" in table("room", "voice", "on").output
    wall = table.json("room", "status")
    assert wall["sound"] is True and wall["voice"] is True
    assert "chimes (E201); turns said aloud (E201)" in table("room", "status").output
    frame = build_frame(db)
    assert frame["sound"] is True and frame["voice"] is True
    assert "room sound 'loud': give on or off (E201)" in table.fails("room", "sound", "loud")
    assert "room voice 'yes': give on or off (E201)" in table.fails("room", "voice", "yes")
    assert "The wall is silent" in table("room", "sound", "off").output
    assert "says no turn aloud" in table("room", "voice", "off").output
    assert build_frame(db)["sound"] is False
    assert db.read_bytes() == before  # the wall's file only (E82)
