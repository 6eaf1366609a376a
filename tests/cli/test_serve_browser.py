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

from tests.browser import Browser, chromium
from tests.cli import tables
from tests.cli.conftest import GM
from tests.cli.serving import Served, copy_evening, demo_db, served

assert demo_db  # the shared demo evening, a fixture

BINARY = chromium()
pytestmark = [pytest.mark.system, pytest.mark.skipif(
    BINARY is None, reason="headless Chromium is not installed (apt-get install chromium)")]

ROOT = Path(__file__).resolve().parents[2]
HAND = [("hand", "start"), ("hand", "show", "Cy", "KC KW"), ("hand", "show", "Ed", "2S 3S"),
        ("hand", "show", "Ada", "9C 9W"), ("hand", "show", "Gus", "4P 5P"),
        ("hand", "show", "Fool", "AC 3C 5C 7C"), ("bet", "Cy", "2")]
TURN = "document.getElementById('turn').textContent"
SIZES = [(1280, 720), (1920, 1080), (3840, 2160)]
MOMENTS = ["mid", "between", "end"]
#: What the page measures of itself: the document's scroll size, each seat's name as shown
#: and whether it is on the screen, the boxes whose content spills, the turn line's lines.
MEASURE = """(function () {
  var d = document.documentElement, turn = document.getElementById('turn');
  var range = document.createRange();
  range.selectNodeContents(turn);
  var lines = 0, bottom = -1;  // rects that share no height start a new line
  Array.prototype.slice.call(range.getClientRects()).filter(function (r) { return r.width > 0; })
    .sort(function (a, b) { return a.top - b.top; }).forEach(function (r) {
      if (r.top >= bottom - 1) { lines += 1; bottom = r.bottom; }
      else bottom = Math.max(bottom, r.bottom);
    });
  var seats = Array.prototype.map.call(document.querySelectorAll('#app .seat'), function (s) {
    var who = s.querySelector('.who'), r = who.getBoundingClientRect();
    return {name: s.getAttribute('data-name'), shown: who.textContent,
            fool: s.classList.contains('fool'),
            inside: r.left >= 0 && r.top >= 0 && r.right <= innerWidth &&
                    r.bottom <= innerHeight && r.width > 10};
  });
  var spills = Array.prototype.filter.call(document.querySelectorAll('#app .box'), function (b) {
    return b.scrollHeight > b.clientHeight + 1 || b.scrollWidth > b.clientWidth + 1;
  }).map(function (b) { return b.getAttribute('data-name') || b.id; });
  var cut = Array.prototype.filter.call(document.querySelectorAll('#app .one'), function (e) {
    var r = document.createRange(), cs = getComputedStyle(e);
    r.selectNodeContents(e);
    var room = e.getBoundingClientRect().width - parseFloat(cs.paddingLeft) -
               parseFloat(cs.paddingRight);
    return !e.classList.contains('who') && r.getBoundingClientRect().width > room + 0.01;
  }).map(function (e) { return e.textContent; });
  return {width: d.scrollWidth, height: d.scrollHeight, seats: seats, spills: spills, cut: cut,
          turn_lines: lines, turn_fits: turn.scrollWidth <= turn.clientWidth,
          centre: document.getElementById('centre').textContent,
          page: document.getElementById('app').textContent};
})()"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    assert BINARY is not None
    b = Browser(BINARY)
    try:
        yield b
    finally:
        b.close()


@pytest.fixture(scope="module")
def evenings(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[int, str], Path]:
    """Evenings of 2, 4 and 6 seats, mid-hand, between hands and at the end (tests/cli/tables)."""
    out: dict[tuple[int, str], Path] = {}
    for n in (2, 4, 6):
        folder = tmp_path_factory.mktemp(f"table-{n}")
        db = folder / "between" / "evening.json"
        db.parent.mkdir()
        tables.between(tables.GM(db), n)
        out[n, "between"] = db
        for moment in ("mid", "end"):
            copy = copy_evening(db, folder / moment)
            tables.go_on(tables.GM(copy), moment)
            out[n, moment] = copy
    return out


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


# -- it fits the room (E85) ----------------------------------------------------------------------


@pytest.mark.parametrize("seats", [2, 4, 6])
@pytest.mark.parametrize("moment", MOMENTS)
def test_e85_the_table_fits_every_screen_with_every_seat_named(
        evenings: dict[tuple[int, str], Path], browser: Browser, tmp_path: Path, seats: int,
        moment: str) -> None:
    db = evenings[seats, moment]
    names = tables.names(seats)
    with served(db) as s:
        browser.open(f"http://127.0.0.1:{s.port}/", *SIZES[0])
        for width, height in SIZES:
            browser.resize(width, height)
            browser.wait_for(f"innerWidth === {width} && innerHeight === {height}")
            time.sleep(0.15)  # the page refits on the resize
            seen = browser.evaluate(MEASURE)
            where = f"{seats} seats, {moment}, {width}x{height}"
            # No scrolling, ever: the document is exactly the screen (E85).
            assert (seen["width"], seen["height"]) == (width, height), where
            assert seen["spills"] == [], where  # and nothing in it is cut off,
            assert seen["cut"] == [], where  # no line cut short but a long name (E85)
            shown = {p["name"]: p for p in seen["seats"]}
            assert sorted(shown) == sorted([*names, tables.FOOL]), where
            assert all(p["shown"] == p["name"] and p["inside"] for p in shown.values()), where
            assert [p["name"] for p in seen["seats"] if p["fool"]] == [tables.FOOL]
            assert seen["turn_lines"] == 1 and seen["turn_fits"], where
            if seats == 6 and moment == "mid":
                shot = browser.screenshot(tmp_path / f"table-{width}x{height}.png")
                assert len(shot) > 20_000  # a drawn table, not one flat colour
        if moment == "mid":  # side pots, powers in force, marked cards (E76-E79)
            assert "side pot 1" in seen["centre"]
            assert browser.evaluate("document.querySelectorAll('.card.dead').length") == 1
            first, second = {2: ("R", "L"), 4: ("TR", "BR"), 6: ("TR", "R")}[seats]
            assert "1 hooded" in browser.evaluate(
                f"document.querySelector('.seat.slot-{first} .card.back').textContent")
            assert browser.evaluate(
                f"document.querySelector('.seat.slot-{second} .badge').textContent"
            ) == "Cut Down: 2S is dead"
        elif moment == "between":  # the last hand's result (E81)
            assert "Hand 1" in seen["centre"]
            assert f"{tables.FOOL} with four of a kind" in seen["centre"]
        else:  # the final standings and the claims (E81), no turn to play
            assert "Final standings" in seen["centre"] and "Claims that would succeed" in \
                seen["centre"]
            assert seen["centre"].index(names[0]) < seen["centre"].index(names[1])
        assert "Charges" not in seen["page"]  # R39: the wall shows no Charges


def test_e85_on_a_phone_the_seats_run_in_seat_order_and_may_scroll(
        evenings: dict[tuple[int, str], Path], browser: Browser) -> None:
    db = evenings[6, "mid"]
    with served(db) as s:
        browser.open(f"http://127.0.0.1:{s.port}/", 390, 844)
        seen = browser.evaluate(MEASURE)
    order = [p["name"] for p in seen["seats"]]
    state = tables.GM(db).status()
    assert order == [*(seat["name"] for seat in state["seats"]), tables.FOOL]
    assert seen["width"] == 390 and seen["height"] > 844  # down the page, never sideways


def test_e85_seats_sit_clockwise_from_the_fools_left(
        evenings: dict[tuple[int, str], Path], browser: Browser) -> None:
    """Seat 1 at the Fool's left (the screen's right, the Fool facing the room), then round
    the table: right side down, the foot right to left, left side up (R9)."""
    db = evenings[6, "between"]
    with served(db) as s:
        browser.open(f"http://127.0.0.1:{s.port}/", 1920, 1080)
        boxes = browser.evaluate("""Array.prototype.map.call(
          document.querySelectorAll('#app .seat, #centre'), function (s) {
            var r = s.getBoundingClientRect();
            return [s.getAttribute('data-name') || s.id, r.left + r.width / 2,
                    r.top + r.height / 2]; })""")
    centre = {name: (x, y) for name, x, y in boxes}
    pot = centre.pop("centre")
    fool = centre.pop(tables.FOOL)
    seats = [seat["name"] for seat in tables.GM(db).status()["seats"]]
    import math

    def angle(name: str) -> float:  # clockwise from the Fool, round the pot, on the screen
        x, y = centre[name]
        return (math.degrees(math.atan2(x - pot[0], pot[1] - y)) + 360) % 360

    # The Fool at the head: in the top row, above the pot, in line with it.
    assert fool[1] <= min(y for _, y in centre.values()) and fool[1] < pot[1]
    assert abs(fool[0] - pot[0]) < 1
    assert sorted(seats, key=angle) == seats


def test_e83_every_chip_is_seen_and_labelled_in_both_themes(
        evenings: dict[tuple[int, str], Path], browser: Browser) -> None:
    db = evenings[6, "mid"]
    with served(db) as s:
        for theme in ("", "?theme=light"):
            browser.open(f"http://127.0.0.1:{s.port}/{theme}", 1280, 720)
            stacks = browser.evaluate("""Array.prototype.map.call(
              document.querySelectorAll('.stack'), function (s) {
                var chip = s.querySelector('.chip');
                return [s.title, s.querySelector('.n').textContent, chip.classList.contains('ring'),
                        getComputedStyle(chip).backgroundColor]; })""")
            background = browser.evaluate(
                "getComputedStyle(document.querySelector('.seat')).backgroundColor")
            assert browser.evaluate("document.documentElement.className") == (
                "light" if theme else "")
            for title, label, ring, colour in stacks:
                count, name = title.split(" ", 1)
                assert label == f"{count} {name}"  # every stack says its colour (E83)
                # A chip too close to the cloth in brightness is ringed in the text colour.
                if _contrast(colour, background) < 2.4:
                    assert ring, (theme, name, colour)
            assert any(t.endswith(" black") for t, *_ in stacks)


def _contrast(a: str, b: str) -> float:
    def lum(rgb: str) -> float:
        parts = [int(v) / 255 for v in rgb[rgb.index("(") + 1:rgb.index(")")].split(",")[:3]]
        lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in parts]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    high, low = sorted((lum(a), lum(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_e80_the_clock_stops_at_the_end(evenings: dict[tuple[int, str], Path],
                                        browser: Browser) -> None:
    with served(evenings[2, "end"]) as s:
        browser.open(f"http://127.0.0.1:{s.port}/", 1280, 720)
        first = browser.evaluate("document.getElementById('clock').textContent")
        time.sleep(1.6)
        assert browser.evaluate("document.getElementById('clock').textContent") == first
        assert browser.evaluate("document.getElementById('clock').className") == "stopped"


# -- it follows the evening, and says when it cannot -------------------------------------------


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
    gm("room", "break", "10")
    browser.wait_for(visible.format("pause"), timeout=2.0)
    assert browser.evaluate("document.getElementById('pausecount').textContent") in (
        "10:00", "9:59", "9:58")
    gm("room", "show")
    browser.wait_for("document.getElementById('pause').hidden && "
                     "document.getElementById('announce').hidden && "
                     "document.getElementById('blank').hidden", timeout=2.0)
    gm("room", "announce", "Two minutes", "--for", "1")
    browser.wait_for(visible.format("announce"), timeout=2.0)
    browser.wait_for("document.getElementById('announce').hidden", timeout=3.0)  # it ran out
    assert server.evening.read_bytes() == before  # the evening itself never changed


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


# -- the season between evenings (R40, R43, E111) ---------------------------------------------


@pytest.fixture(scope="module")
def season_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo season's second evening (closed), and a third begun from it."""
    from referee.cli.main import app

    first = tmp_path_factory.mktemp("season") / "season-1.json"
    result = CliRunner().invoke(app, ["demo", "--season", "--db", str(first), "--quiet"])
    assert result.exit_code == 0, result.output
    second = first.with_name("season-2.json")
    from tests.cli.test_season_cli import scenario

    GM(CliRunner(), second)("next", str(first.with_name("season-3.json")), "--scenario",
                            str(scenario(first.parent)))
    return second


@pytest.mark.parametrize("which", ["season-2.json", "season-3.json"])
def test_e111_the_season_on_the_wall_between_evenings_fits_every_screen(
        season_db: Path, browser: Browser, tmp_path: Path, which: str) -> None:
    with served(season_db.with_name(which), season=True) as s:
        browser.open(f"http://127.0.0.1:{s.port}/", *SIZES[0])
        for width, height in SIZES:
            browser.resize(width, height)
            browser.wait_for(f"innerWidth === {width} && innerHeight === {height}")
            time.sleep(0.15)
            seen = browser.evaluate(MEASURE)
            where = f"{which}, {width}x{height}"
            assert (seen["width"], seen["height"]) == (width, height), where
            assert seen["spills"] == [] and seen["cut"] == [], where
            centre = seen["centre"]
            # Cy +$500,000 heads the season (tests/cli/test_present.py counts it by hand).
            assert "The season: " in centre and "Cy$500,000" in centre, where
            if width == 1280:
                shot = browser.screenshot(tmp_path / f"season-{which}-{width}.png")
                assert len(shot) > 20_000
        if which == "season-2.json":  # over by the Fool's word, the ceremony closed (R40)
            assert "The evening is over" in centre and "0 Max \u00b7 III Flo" in centre
            assert "declared its end" in browser.evaluate(TURN)
            assert "3 evenings" not in centre and "2 evenings" in centre
        else:  # the next evening, before its first hand
            assert "The evening begins" in centre and "3 evenings" in centre
