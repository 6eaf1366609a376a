"""The wall read from the back of the room: no text meant for the room under 1/50 of the
screen's height, at 1280x720, 1920x1080 and 3840x2160, with 2 to 6 seats, long names and
the odds on, while the whole table still fits the screen (E250). Less detail gives way when
there is no room (the assistants' chip labels, the season's lower rows, the chart's labels),
never the type."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.browser import Browser, browser, chromium
from tests.cli import tables
from tests.cli.serving import Served, copy_evening, served

assert browser  # the shared headless Chromium of the module, a fixture

pytestmark = [pytest.mark.system, pytest.mark.skipif(
    chromium() is None, reason="headless Chromium is not installed (apt-get install chromium)")]

SIZES = [(1280, 720), (1920, 1080), (3840, 2160)]
#: Every short name of tests/cli/tables made long: seats, assistants and the Fool.
LONG = {"Ivy": "Ivy Montgomery-Blackwood", "Ada": "Adalberta Fitzwilliam",
        "Cy": "Cyprian Wolstenholme", "Ed": "Edmund Throckmorton", "Gus": "Gustavus Pemberton",
        "Jo": "Josephine Featherstonehaugh", "Ben": "Benedict Cholmondeley",
        "Di": "Dionysia Worthington", "Lu": "Lucasta Marjoribanks", "Flo": "Florentyna Aldous",
        "Hal": "Halcyon Beauchamp-Proby", "Max": "Maximilian Ravenscroft"}
#: Every visible text of the page whose type is under ``innerHeight / 50``: an HTML text at
#: its computed size, a text of the chart at its size times the chart's scale on the screen.
SMALL = """(function () {
  var least = innerHeight / 50, small = [], count = 0, node;
  var walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while ((node = walk.nextNode())) {
    var e = node.parentElement;
    if (!node.data.trim() || e.closest('script, style')) continue;
    var r = document.createRange();
    r.selectNodeContents(node);
    var box = r.getBoundingClientRect();
    if (!e.getClientRects().length || box.width === 0 || box.height === 0) continue;
    var size = parseFloat(getComputedStyle(e).fontSize);
    if (e instanceof SVGElement) size *= e.getScreenCTM().d;
    count += 1;
    if (size < least - 0.01) small.push(node.data.slice(0, 30) + " " + size.toFixed(1));
  }
  var d = document.documentElement, chart = document.getElementById('chartbox')
    .getBoundingClientRect(), panel = document.getElementById('panel').getBoundingClientRect();
  var spills = Array.prototype.filter.call(document.querySelectorAll('#app .box'),
    function (b) { return b.scrollHeight > b.clientHeight + 1 ||
                          b.scrollWidth > b.clientWidth + 1; })
    .map(function (b) { return b.getAttribute('data-name') || b.id; });
  return {small: small, count: count, page: [d.scrollWidth, d.scrollHeight],
          chart: chart.bottom, below: panel.bottom - chart.bottom, spills: spills};
})()"""
LENGTHEN = """(function (long) {
  if (!window.shortFrame) window.shortFrame = frame;  // the names made long once
  var text = JSON.stringify(window.shortFrame);
  Object.keys(long).forEach(function (k) {
    text = text.replace(new RegExp("\\\\b" + k + "\\\\b", "g"), long[k]); });
  render(JSON.parse(text));
})(%s)"""


def _measure(browser: Browser, width: int, height: int) -> dict[str, object]:
    browser.resize(width, height)  # back once the page has refitted (its resize event)
    browser.wait_for(f"innerWidth === {width} && innerHeight === {height}")
    browser.evaluate(LENGTHEN % json.dumps(LONG))
    seen: dict[str, object] = browser.evaluate(SMALL)
    return seen


def _check(seen: dict[str, object], width: int, height: int, where: str) -> None:
    assert seen["small"] == [], where  # nothing meant for the room under 1/50 (E250)
    assert int(str(seen["count"])) > 20, where  # the texts were found and measured
    assert seen["page"] == [width, height], where  # and still no scrolling (E85)
    assert seen["spills"] == [], where
    assert float(str(seen["chart"])) <= height, where  # the chart on the screen (E195),
    assert float(str(seen["below"])) <= 1, where  # down to the panel's foot (E250)


@pytest.fixture(scope="module")
def odds_on(tmp_path_factory: pytest.TempPathFactory) -> dict[int, Path]:
    """Evenings of 2, 4 and 6 seats mid-hand with `room odds on` (tests/cli/tables)."""
    out = {}
    for n in (2, 4, 6):
        db = tmp_path_factory.mktemp(f"odds-{n}") / "evening.json"
        gm = tables.GM(db)
        tables.between(gm, n)
        tables.go_on(gm, "mid")
        gm("room", "odds", "on")
        out[n] = db
    return out


@pytest.mark.parametrize("seats", [2, 4, 6])
def test_e250_no_text_under_a_50th_of_the_screen_mid_hand_with_the_odds_on(
        odds_on: dict[int, Path], browser: Browser, seats: int) -> None:
    with served(odds_on[seats]) as s:
        browser.open(f"http://127.0.0.1:{s.port}/", *SIZES[0])
        browser.wait_for("typeof frame === 'object' && frame.odds && pushed")
        time.sleep(0.3)  # the stream's first frame is in: nothing comes to draw over ours
        for width, height in SIZES:
            _check(_measure(browser, width, height), width, height,
                   f"{seats} seats, odds on, {width}x{height}")


@pytest.fixture(scope="module")
def ended(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """Six seats at the end of the game (final standings, claims), served."""
    folder = tmp_path_factory.mktemp("ended")
    db = folder / "between" / "evening.json"
    db.parent.mkdir()
    tables.between(tables.GM(db), 6)
    copy = copy_evening(db, folder / "end")
    tables.go_on(tables.GM(copy), "end")
    with served(copy) as s:
        yield s


@pytest.mark.parametrize("width, height", SIZES)
def test_e250_no_text_under_a_50th_of_the_screen_at_the_end(
        ended: Served, browser: Browser, width: int, height: int) -> None:
    browser.open(f"http://127.0.0.1:{ended.port}/", width, height)
    browser.wait_for("typeof frame === 'object' && frame.standings && pushed")
    time.sleep(0.3)
    _check(_measure(browser, width, height), width, height, f"the end, {width}x{height}")


@pytest.mark.parametrize("width, height", SIZES)
def test_e250_a_long_season_gives_up_rows_never_its_type(
        ended: Served, browser: Browser, width: int, height: int) -> None:
    """Twenty people in the season's standings between evenings: the table keeps its type
    and shows the first rows it has room for and how many more there are."""
    browser.open(f"http://127.0.0.1:{ended.port}/", width, height)
    browser.wait_for("typeof frame === 'object' && frame.standings && pushed")
    time.sleep(0.3)
    browser.evaluate("""(function () {
      var f = JSON.parse(JSON.stringify(frame)), rows = [];
      for (var i = 1; i <= 20; i++) rows.push({rank: i, name: "Season Player Number " + i,
        money: 1000000 - i * 40000, arcanum: i % 3 ? "XIV" : null, evenings: 3});
      f.season = {evenings: 3, standings: rows};
      render(f);
    })()""")
    seen = browser.evaluate(SMALL)
    _check(seen, width, height, f"a long season, {width}x{height}")
    centre = browser.evaluate("document.getElementById('centre').innerText")
    assert "Season Player Number 1\t" in centre  # the leader is always shown
    shown = sum(f"Season Player Number {i}\t" in centre for i in range(1, 21))
    if shown < 20:
        assert f"+{20 - shown} more" in centre, centre
