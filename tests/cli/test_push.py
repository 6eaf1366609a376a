"""The push (E192): `GET /events` sends the wall's frame at once and then each change; the
table page and a phone's sheet follow it and poll only while it is down."""

from __future__ import annotations

import http.client
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tests.browser import Browser, browser
from tests.cli.conftest import GM
from tests.cli.serving import Served, copy_evening, demo_db, served

assert demo_db and browser  # the shared demo evening and headless Chromium, fixtures


@pytest.fixture
def evening(demo_db: Path, tmp_path: Path) -> Path:
    return copy_evening(demo_db, tmp_path / "night")


@pytest.fixture
def server(evening: Path) -> Iterator[Served]:
    with served(evening) as s:
        yield s


class Events:
    """A client of ``/events``: the events as they come, (kind, data)."""

    def __init__(self, port: int) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        self.conn.request("GET", "/events")
        self.answer = self.conn.getresponse()

    def next(self, kind: str, timeout: float = 10.0) -> str:
        end = time.monotonic() + timeout
        event, data = "", ""
        while time.monotonic() < end:
            line = self.answer.fp.readline().decode().rstrip("\n")
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: "):
                data = line[6:]
            elif not line and event:
                if event == kind:
                    return data
                event, data = "", ""
        raise AssertionError(f"no {kind} event in {timeout} s")

    def close(self) -> None:
        self.conn.close()


def _helper(frame: dict[str, Any], seat: str) -> int:
    return int(next(s for s in frame["seats"] if s["name"] == seat)["assistant"]["stack"])


def test_e192_events_send_the_frame_then_each_change(server: Served, evening: Path) -> None:
    events = Events(server.port)
    try:
        assert events.answer.status == 200
        assert events.answer.getheader("Content-Type", "").startswith("text/event-stream")
        assert events.answer.getheader("X-Frame-Options") == "DENY"  # every header (E68)
        first = json.loads(events.next("frame"))
        _, _, body = server.get("/frame.json")
        assert first["frame"] == json.loads(body) and first["etag"] == \
            server.get("/frame.json")[1]["etag"]
        GM(CliRunner(), evening)("chips", "give", "Ben", "Flo", "yellow:1")  # another process
        pushed = json.loads(events.next("frame"))
        assert _helper(pushed["frame"], "Ada") == _helper(first["frame"], "Ada") - 1
        assert pushed["etag"] != first["etag"]
        # a Charge shows nothing on the wall (R39): a bare change, no frame
        GM(CliRunner(), evening)("charge", "give", "Ben", "Flo", "1")
        while int(events.next("change")) < 2:  # the first change's count came with its frame
            pass
    finally:
        events.close()


def test_e192_a_station_command_is_pushed(server: Served) -> None:
    events = Events(server.port)
    try:
        first = json.loads(events.next("frame"))
        status, there = server.station(["chips", "give", "Ben", "Flo", "yellow:1"],
                                       server.access.station)
        assert status == 200 and there["exit"] == 0
        pushed = json.loads(events.next("frame", timeout=2))
        assert _helper(pushed["frame"], "Ada") == _helper(first["frame"], "Ada") - 1
    finally:
        events.close()


def test_e192_streams_are_bounded(server: Served, monkeypatch: pytest.MonkeyPatch) -> None:
    from referee.serve import push

    monkeypatch.setattr(push, "MAX_STREAMS_PER_ADDRESS", 2)
    held = [Events(server.port) for _ in range(2)]
    try:
        for e in held:
            e.next("frame")
        status, headers, body = server.get("/events")
        assert status == 503 and b"poll /frame.json" in body
        assert headers["x-frame-options"] == "DENY"
    finally:
        for e in held:
            e.close()


@pytest.mark.system
def test_e192_the_wall_follows_the_push_and_does_not_poll(server: Served, evening: Path,
                                                          browser: Browser) -> None:
    browser.open(f"http://127.0.0.1:{server.port}/", 1280, 720)
    browser.wait_for("document.body.innerText.indexOf('Ada') >= 0")
    time.sleep(1.5)  # the old page polled every 0.4 s
    text = "document.body.innerText"
    before = browser.evaluate(text)
    GM(CliRunner(), evening)("chips", "give", "Ben", "Flo", "yellow:1")
    browser.wait_for(f"{text} !== {json.dumps(before)}", timeout=5)
    polls = browser.evaluate("performance.getEntriesByType('resource').filter(function (r) "
                             "{ return r.name.indexOf('/frame.json') >= 0; }).length")
    assert polls == 0
    assert browser.evaluate("document.getElementById('stale').hidden") is True


@pytest.mark.system
def test_e192_a_phone_reloads_on_a_pushed_change(server: Served, evening: Path,
                                                 browser: Browser) -> None:
    browser.open(f"http://127.0.0.1:{server.port}/a/{server.access.assistants['Ben']}",
                 390, 844)
    browser.wait_for("document.body.innerText.indexOf('Clue sheet: Ben') >= 0")
    browser.evaluate("window.notReloaded = true")
    time.sleep(4.5)  # the old sheet asked every 2 s
    looks = ("performance.getEntriesByType('resource').filter(function (r) { return "
             "r.initiatorType === 'fetch'; }).length")
    assert browser.evaluate(looks) <= 1  # one look when its stream opened, no poll
    GM(CliRunner(), evening)("charge", "give", "Ben", "Flo", "1")  # on Ben's sheet (R39)
    browser.wait_for("window.notReloaded === undefined", timeout=5)


@pytest.mark.system
def test_e86_the_stale_clock_stops_where_it_stood_never_back(evening: Path,
                                                             browser: Browser) -> None:
    """The server stops: within 5 s the page says so and stops its clock, at the second it
    showed then (the old page set it back to the last answer's time, 5 s earlier)."""
    s = served(evening)
    server = s.__enter__()
    try:
        browser.open(f"http://127.0.0.1:{server.port}/", 1280, 720)
        browser.wait_for("/^\\d+:\\d\\d:\\d\\d$/.test(document.getElementById('clock')"
                         ".textContent)")
        browser.evaluate("window.clocks = []; setInterval(function () { window.clocks.push("
                         "document.getElementById('clock').textContent); }, 100);")
    finally:
        s.__exit__(None, None, None)  # the server stops
    browser.wait_for("!document.getElementById('stale').hidden", timeout=15)
    time.sleep(1.5)
    seconds = [sum(int(p) * 60 ** (2 - i) for i, p in enumerate(c.split(":")))
               for c in browser.evaluate("window.clocks")]
    assert len(seconds) > 40 and seconds[-1] > seconds[0]
    assert all(b >= a for a, b in zip(seconds, seconds[1:], strict=False)), seconds
    assert len(set(seconds[-10:])) == 1  # stopped
