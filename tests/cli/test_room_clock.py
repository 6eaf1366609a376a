"""`referee room pause|resume|break` (referee.cli.room.room): the room's clock is the evening's
(R47, E200): kept in its log, shown by `status`, `watch` and the wall as standing still. The
time is set by hand (``time.time`` replaced): nothing here sleeps."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from referee.serve.frame import build_frame
from tests.cli.conftest import GM

T0 = 1_800_000_000.0


class Clock:
    """The machine's time, moved on by the test."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.now = T0
        monkeypatch.setattr(time, "time", lambda: self.now)

    def on(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def room(gm: GM, monkeypatch: pytest.MonkeyPatch) -> tuple[GM, Clock]:
    at = Clock(monkeypatch)
    gm("new", "--fool", "Max", "--seat", "Ada:XVI:red", "--seat", "Cy:III:blue")
    gm("hand", "start")  # the clock starts at T0 (R13)
    return gm, at


def test_r47_a_pause_stands_the_clock_still_in_status_and_watch(
        room: tuple[GM, Clock]) -> None:
    gm, at = room
    at.on(125)
    out = gm("room", "pause").output
    assert "The clock is paused at 0:02:05 of play" in out and "room resume" in out
    at.on(3 * 3600)  # three hours of pause
    data = gm.status()
    assert data["clock"] == 125 and data["clock_paused"]["why"] == "pause"
    assert not data["open_phase_due"]  # R13 waits: an hour of play, not of the room
    assert "clock 0:02 (paused)" in " ".join(gm("status").output.split())
    assert "clock 0:02:05 (paused)" in gm("watch", "--once").output
    assert gm.json("watch")["clock_paused"]["since"] == T0 + 125
    out = gm("room", "resume").output
    assert "The clock runs again at 0:02:05 of play, after a pause of 3:00:00" in out
    at.on(60)
    assert gm.status()["clock"] == 185 and gm.status()["clock_paused"] is None


def test_r47_the_pause_is_in_the_log_and_undone(room: tuple[GM, Clock]) -> None:
    gm, at = room
    at.on(10)
    gm("room", "pause")
    assert [c["text"] for c in gm.json("log")["commands"]][-1] == "room pause"
    assert gm("undo").output.startswith("Undone: room pause")
    at.on(100)
    assert gm.status()["clock"] == 110  # the pause taken back: the clock ran all along


def test_r47_a_refused_resume_is_one_line_exit_2(room: tuple[GM, Clock]) -> None:
    gm, at = room
    line = gm.fails("room", "resume")  # exit 2, one line, the evening byte for byte
    assert "the clock is running, not paused" in line and "R47" in line
    gm("room", "pause")
    assert "already paused" in gm.fails("room", "pause")
    gm("room", "break", "5")  # a break replaces the pause
    at.on(5 * 60 + 1)
    assert "the break ended by itself" in gm.fails("room", "resume")


def test_r47_a_break_ends_by_itself_on_the_wall_and_in_status(
        room: tuple[GM, Clock], db: Path) -> None:
    gm, at = room
    at.on(60)
    out = " ".join(gm("room", "break", "10").output.split())
    assert "A break of 10 minutes, back at" in out and "stands still at 0:01:00" in out
    at.on(120)
    wall = build_frame(db, at.now)
    assert wall["clock"] == 60 and wall["clock_paused"] is not None
    assert wall["clock_stand"] == {"why": "break", "since": T0 + 60, "until": T0 + 660,
                                   "minutes": 10}
    assert wall["clock_origin"] == T0
    assert wall["room"]["break"] == {"minutes": 10, "until": T0 + 660}  # counted down
    assert "a break, 8:00 to go" in gm("room", "status").output
    at.on(600)  # the break is over, nothing typed
    assert gm.status()["clock"] == 180 and gm.status()["clock_paused"] is None  # 60 + 120
    wall = build_frame(db, at.now)
    assert wall["room"]["break"] is None and wall["clock_paused"] is None


def test_r47_the_wall_frame_shows_the_paused_clock(room: tuple[GM, Clock], db: Path) -> None:
    gm, at = room
    at.on(30)
    gm("room", "pause")
    at.on(500)
    gm("room", "resume")  # 500 s stood still: the page's clock starts 500 s later
    at.on(20)
    gm("room", "pause")
    at.on(40)
    wall = build_frame(db, at.now)
    assert wall["clock"] == 50
    assert wall["clock_origin"] == T0 + 500
    assert wall["clock_paused"] == {"why": "pause", "since": T0 + 550, "until": None,
                                    "minutes": None}
    assert wall["clock_stand"] == wall["clock_paused"]
    assert wall["room"]["break"] is None  # a pause is no break on the wall


def test_e200_dealing_ends_the_break_and_room_show_ends_it_too(
        room: tuple[GM, Clock]) -> None:
    gm, at = room
    gm("hand", "show", "Cy: 2C 3C", "Ada: 4C 5C", "Max: 6C 7C 8C 9C")
    gm("fold", "Ada")  # Cy alone against the Fool: the hand plays to its end
    gm("check", "Cy")
    gm("hand", "show", "Cy: +4W 5W", "Max: +10C KC")
    gm("hand", "show", "Max: +QC")
    gm("hand", "showdown", "Cy: 2C 3C 4W 5W 2W 3W 6W", "Max: 6C 7C 8C 9C 10C KC QC")
    at.on(100)
    gm("room", "break", "20")
    at.on(300)
    out = gm("hand", "start").output
    assert "The clock runs again with this deal (R47, E200)." in out
    assert gm.status()["clock_paused"] is None and gm.status()["clock"] == 100
    gm("room", "break", "20")
    at.on(60)
    out = " ".join(gm("room", "show").output.split())
    assert "(it showed a break, 19:00 to go); the clock runs again at 0:01:40 of play" in out
    assert gm.status()["clock_paused"] is None
    assert "the clock is running" in gm.fails("room", "resume")
