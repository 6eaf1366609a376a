"""The table page in a real headless Chromium: it fits the room, it follows the evening, it
says when it is stale, and the GM's wall commands show on it (E76-E86, R15, R39).

One Chromium serves the whole module. Skips with the reason when Chromium is missing
(`.ci/run` installs the distribution's).
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tests.browser import Browser, browser, chromium
from tests.cli.conftest import GM
from tests.cli.serving import Served, copy_evening, demo_db, served

assert demo_db and browser  # the shared demo evening and headless Chromium, fixtures

BINARY = chromium()
pytestmark = [pytest.mark.system, pytest.mark.skipif(
    BINARY is None, reason="headless Chromium is not installed (apt-get install chromium)")]

ROOT = Path(__file__).resolve().parents[2]
HAND = [("hand", "start"), ("hand", "show", "Cy", "KC KW"), ("hand", "show", "Ed", "2S 3S"),
        ("hand", "show", "Ada", "9C 9W"), ("hand", "show", "Gus", "4P 5P"),
        ("hand", "show", "Fool", "AC 3C 5C 7C"), ("bet", "Cy", "2")]
TURN = "document.getElementById('turn').textContent"

@pytest.fixture(scope="module")
def mid_hand(demo_db: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo evening, then a fourth hand under way: Ed to act, owing 2."""
    db = copy_evening(demo_db, tmp_path_factory.mktemp("browser-demo"))
    gm = GM(CliRunner(), db)
    for line in HAND:
        gm(*line)
    return db


@pytest.fixture
def server(mid_hand: Path, tmp_path: Path) -> Iterator[Served]:
    with served(copy_evening(mid_hand, tmp_path / "night")) as s:
        yield s


def test_page_follows_a_command_from_another_process_within_two_seconds(
        server: Served, browser: Browser) -> None:
    browser.open(f"http://127.0.0.1:{server.port}/", 1280, 720)
    assert "Ed to act" in browser.evaluate(TURN)
    browser.evaluate("window.notReloaded = true")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "referee", "--db", str(server.evening),
                           "call", "Ed"], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    # The bar: the room sees the change within 2 s (the page polls every 0.4 s).
    browser.wait_for(f"{TURN}.indexOf('Ada to act') >= 0", timeout=2.0)
    assert browser.evaluate("window.notReloaded") is True  # updated in place, by the poll
    assert "Ed" not in browser.evaluate(TURN)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def test_e86_a_page_whose_server_died_says_so_within_six_seconds(
        mid_hand: Path, browser: Browser, tmp_path: Path) -> None:
    db = copy_evening(mid_hand, tmp_path / "dies")
    port = _free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "referee", "--db", str(db), "serve",
                             "--port", str(port)], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "serve did not start"
                time.sleep(0.1)
        browser.open(f"http://127.0.0.1:{port}/", 1280, 720)
        stale = "!document.getElementById('stale').hidden"
        assert browser.evaluate(stale) is False
        time.sleep(1.0)
        assert browser.evaluate(stale) is False  # heard every 0.4 s: not stale
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
        killed = time.monotonic()
        browser.wait_for(stale, timeout=6.0)
        assert time.monotonic() - killed <= 6.0
        banner = browser.evaluate("document.getElementById('stale').textContent")
        assert banner.startswith("No word from the console for ")
        clock = "document.getElementById('clock').textContent"
        first = browser.evaluate(clock)
        time.sleep(1.2)
        assert browser.evaluate(clock) == first  # the clock stops with the news
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)


# -- names are data, whatever they look like (E84) ---------------------------------------------


def test_e84_names_made_of_every_placeholder_are_only_names(
        browser: Browser, tmp_path: Path) -> None:
    from referee.content.scenario import data_file

    template = data_file("table.html").read_text(encoding="utf-8")
    import re

    used = sorted(set(re.findall(r"\{\{[A-Z_]+\}\}", template)))
    assert used  # the page's own placeholders, read from it: none is missed
    # And the ones the page once had, in case one comes back.
    wanted = sorted(set(used) | {"{{FRAME}}", "{{ETAG}}", "{{NOW}}"})
    db = tmp_path / "curly.json"
    gm = GM(CliRunner(), db)
    seats = [f"{name}:{arc}:{colour}" for name, arc, colour in
             zip(wanted[1:], ["III", "VII", "X", "XI", "XVI"],
                 ["red", "blue", "green", "black", "white"], strict=False)]
    gm("new", "--fool", wanted[0], *(w for s in seats for w in ("--seat", s)))
    gm("hand", "start")
    with served(db) as s:
        browser.open(f"http://127.0.0.1:{s.port}/", 1280, 720)
        shown = browser.evaluate(
            "Array.prototype.map.call(document.querySelectorAll('.seat .who'), "
            "function (w) { return w.textContent; })")
        turn = browser.evaluate(TURN)
    assert sorted(shown) == wanted
    assert turn.startswith("Up cards first:")  # the page read its data: not "Waiting for..."
    assert all(name in turn for name in wanted)


# -- the opener, said (E88) ----------------------------------------------------------------------


def test_r15_the_page_says_why_the_high_hand_does_not_open(browser: Browser,
                                                           tmp_path: Path) -> None:
    db = tmp_path / "opener.json"
    gm = GM(CliRunner(), db)
    gm("new", "--fool", "Max", "--seat", "Ada:XVI:red", "--seat", "Cy:III:blue")
    gm("hand", "start")
    gm("hand", "show", "Cy: 2C 5W", "Ada: KC 9W", "Max: AC AW AS 4P")
    with served(db) as s:
        browser.open(f"http://127.0.0.1:{s.port}/", 1280, 720)
        why = browser.evaluate("document.getElementById('why').textContent")
        hidden = browser.evaluate("document.getElementById('why').hidden")
    assert why == "Max shows the high hand but has no chips: Ada opens (R15)"
    assert hidden is False


# -- the wall (E82) ------------------------------------------------------------------------------


def test_e82_the_gm_blanks_announces_breaks_and_shows_the_table(
        server: Served, browser: Browser) -> None:
    browser.open(f"http://127.0.0.1:{server.port}/", 1280, 720)
    gm = GM(CliRunner(), server.evening)
    before = server.evening.read_bytes()
    visible = "!document.getElementById('{}').hidden"
    gm("room", "blank")
    browser.wait_for(visible.format("blank"), timeout=2.0)
    gm("room", "announce", "Dinner is served", "--for", "0")
    browser.wait_for(visible.format("announce") + " && document.getElementById('blank').hidden",
                     timeout=2.0)  # an announcement lights the wall again
    assert browser.evaluate("document.getElementById('announce').textContent") == \
        "Dinner is served"
    gm("room", "show")
    browser.wait_for("document.getElementById('announce').hidden && "
                     "document.getElementById('blank').hidden", timeout=2.0)
    gm("room", "announce", "Two minutes", "--for", "1")
    browser.wait_for(visible.format("announce"), timeout=2.0)
    browser.wait_for("document.getElementById('announce').hidden", timeout=3.0)  # it ran out
    assert server.evening.read_bytes() == before  # the evening itself never changed


CLOCK = "document.getElementById('clock')"


def test_r47_a_break_and_a_pause_stand_the_walls_clock_still(
        server: Served, browser: Browser) -> None:
    browser.open(f"http://127.0.0.1:{server.port}/", 1280, 720)
    gm = GM(CliRunner(), server.evening)
    gm("room", "break", "10")  # the evening's (R47): its clock stands, the wall counts down
    browser.wait_for("!document.getElementById('pause').hidden", timeout=2.0)
    assert browser.evaluate("document.getElementById('pausecount').textContent") in (
        "10:00", "9:59", "9:58")
    browser.wait_for(f"{CLOCK}.textContent.indexOf('break until') > 0", timeout=2.0)
    assert browser.evaluate(f"{CLOCK}.className") == "stopped"
    gm("room", "show")  # ends the break: the clock runs again
    browser.wait_for("document.getElementById('pause').hidden && "
                     f"{CLOCK}.textContent.indexOf('break') < 0", timeout=2.0)
    assert browser.evaluate(f"{CLOCK}.className") == ""
    gm("room", "pause")
    browser.wait_for(f"/ \u00b7 paused$/.test({CLOCK}.textContent)", timeout=2.0)
    played = gm.status()["clock"]
    shown = browser.evaluate(f"{CLOCK}.textContent.split(' ')[0]")
    hms = [int(n) for n in shown.split(":")]
    assert hms[0] * 3600 + hms[1] * 60 + hms[2] == played  # the page's clock, as status
    assert browser.evaluate("document.getElementById('pause').hidden") is True  # no break


# -- the phones keep what is theirs (R39) -------------------------------------------------------


def test_r39_the_phone_shows_its_sides_charges_and_the_wall_none(
        server: Served, browser: Browser) -> None:
    data = json.loads(server.get("/frame.json")[2])
    assert "charges" not in _keys(data)
    charges = GM(CliRunner(), server.evening).status()["charges"]
    link = f"http://127.0.0.1:{server.port}/a/{server.access.assistants['Hal']}"
    browser.open(link, 390, 844)
    assert f"Charges of the side: {charges['Gus']}." in browser.evaluate(
        "document.body.textContent")


def _keys(obj: Any) -> set[str]:
    if isinstance(obj, dict):
        return set(obj) | {k for v in obj.values() for k in _keys(v)}
    if isinstance(obj, list):
        return {k for v in obj for k in _keys(v)}
    return set()


def test_assistants_phone_follows_their_sheet(server: Served, browser: Browser) -> None:
    link = f"http://127.0.0.1:{server.port}/a/{server.access.assistants['Hal']}"
    browser.open(link, 390, 844)
    body = "document.body.textContent"
    assert "Clue sheet: Hal" in browser.evaluate(body)
    assert "white pigeon" not in browser.evaluate(body)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "referee", "--db", str(server.evening),
                           "soul", "study", "Hal", "black"], env=env, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "white pigeon" in done.stdout
    browser.wait_for(f"{body}.indexOf('white pigeon') >= 0", timeout=10.0)
    assert browser.evaluate("document.documentElement.scrollWidth") <= 390


def test_e201_the_wall_chimes_at_the_hour_and_a_hands_end_and_says_the_turn(
        tmp_path: Path, browser: Browser) -> None:
    gm = GM(CliRunner(), tmp_path / "e.json")
    gm("new", "--fool", "Max", "--seat", "Ada:XVI:red", "--seat", "Cy:III:blue")
    gm("hand", "start")  # the clock starts (R13)
    with served(gm.db) as s:
        browser.open(f"http://127.0.0.1:{s.port}/", 1280, 720)
        browser.evaluate("window.refused = []; document.addEventListener("
                         "'securitypolicyviolation', function (e) { "
                         "refused.push(e.violatedDirective); }); 0")
        assert browser.evaluate("document.getElementById('hush').hidden") is True
        gm("room", "sound", "on")
        gm("room", "voice", "on")
        # A browser plays nothing before a click on the page: the wall asks for one.
        browser.wait_for("!document.getElementById('hush').hidden", timeout=2.0)
        gm("hand", "show", "Cy: 2C 3C", "Ada: 4C 5C", "Max: 6C 7C 8C 9C")
        browser.wait_for("said.indexOf('Ada to act') >= 0", timeout=2.0)
        gm("bet", "Ada")
        browser.wait_for("said.indexOf('Cy to act, owes one') >= 0", timeout=2.0)
        assert browser.evaluate("said.indexOf('chime:hour')") == -1
        browser.evaluate("offset += 3600; tick(); 0")  # an hour of play on this page's clock
        hours = "said.filter(function (x) { return x === 'chime:hour'; }).length"
        assert browser.evaluate(hours) == 1
        browser.evaluate("tick(); 0")
        assert browser.evaluate(hours) == 1  # once, as the hour comes
        gm("fold", "Cy")
        gm("hand", "show", "Max: +10C KC")
        gm("hand", "show", "Max: +QC")
        assert browser.evaluate("said.indexOf('chime:hand')") == -1
        gm("hand", "showdown", "Ada: 4W 5W 2W 3W 6W")  # the hand is over
        browser.wait_for("said.indexOf('chime:hand') >= 0", timeout=2.0)
        gm("room", "sound", "off")
        gm("room", "voice", "off")
        browser.wait_for("document.getElementById('hush').hidden", timeout=2.0)
        assert browser.evaluate("refused") == []  # the CSP let all of it through (E69)
        loaded = browser.evaluate("performance.getEntriesByType('resource').map("
                                  "function (r) { return r.name; })")
        # the polls, and the icon the browser asks for of itself: nothing else
        assert {url.split("/", 3)[3] for url in loaded} <= {"frame.json", "favicon.ico"}
