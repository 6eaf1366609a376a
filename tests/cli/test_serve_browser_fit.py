"""The table page in headless Chromium at every screen it is put on: every seat named and on
the screen, nothing cut or spilling, the chips told apart, the clock, the season between
evenings (E80, E83, E85, E111). Beside ``test_serve_browser`` (the page following the
evening), so that the two run side by side.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.browser import Browser, browser, chromium
from tests.cli import tables
from tests.cli.conftest import GM
from tests.cli.serving import copy_evening, served

assert browser  # the shared headless Chromium of the module, a fixture

BINARY = chromium()
pytestmark = [pytest.mark.system, pytest.mark.skipif(
    BINARY is None, reason="headless Chromium is not installed (apt-get install chromium)")]

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
            browser.resize(width, height)  # back once the page has refitted (its resize event)
            browser.wait_for(f"innerWidth === {width} && innerHeight === {height}")
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
            browser.resize(width, height)  # back once the page has refitted
            browser.wait_for(f"innerWidth === {width} && innerHeight === {height}")
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
