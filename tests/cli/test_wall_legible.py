"""The wall read from the back of the room: names written right to left kept apart from
the cards beside them (E194)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.browser import Browser, browser
from tests.cli.serving import Served, copy_evening, demo_db, served

assert demo_db and browser  # the shared demo evening and headless Chromium, fixtures

pytestmark = pytest.mark.system

HEBREW = "\u05d3\u05e0\u05d4"  # Dana


@pytest.fixture(scope="module")
def server(demo_db: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    with served(copy_evening(demo_db, tmp_path_factory.mktemp("legible"))) as s:
        yield s


def _left_to_right(browser: Browser, element: str, text: str) -> bool:
    """Whether the characters of ``text`` in ``element`` stand left to right on the screen."""
    return bool(browser.evaluate(f"""(function () {{
      var root = document.getElementById({json.dumps(element)}), want = {json.dumps(text)};
      var walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT), node;
      while ((node = walk.nextNode())) {{
        var at = node.data.indexOf(want);
        if (at < 0) continue;
        var xs = [];
        for (var i = 0; i < want.length; i++) {{
          var r = document.createRange(); r.setStart(node, at + i); r.setEnd(node, at + i + 1);
          xs.push(r.getBoundingClientRect().left);
        }}
        return xs.every(function (x, i) {{ return i === 0 || x > xs[i - 1]; }});
      }}
      return null;
    }})()"""))


def test_e194_a_right_to_left_name_never_splits_a_card(server: Served,
                                                      browser: Browser) -> None:
    browser.open(f"http://127.0.0.1:{server.port}/", 1280, 720)
    browser.wait_for("typeof frame === 'object' && frame.seats !== undefined && pushed")
    time.sleep(0.3)  # the stream's first frame is in: nothing else comes to draw over ours
    browser.evaluate(f"""(function () {{
      var f = JSON.parse(JSON.stringify(frame)), name = {json.dumps(HEBREW)};
      f.seats[0].name = name;
      f.replay = {{hand: 99, at: serverNow() - 60, lines: ["Hand 99",
                   "Round 1: Cy KC 5W; " + name + " 4W 10C; Ada 4C 8W", "  Ed bets 1"]}};
      render(f);
    }})()""")
    lines = browser.evaluate("document.getElementById('replaylines').textContent")
    assert f"\u2068{HEBREW}\u2069 4W 10C" in lines
    assert _left_to_right(browser, "replaylines", "4W 10C")
    assert _left_to_right(browser, "replaylines", " 4W")


@pytest.mark.parametrize("seats", [4, 6])
def test_e195_the_chart_stays_on_the_screen_with_the_odds_on(seats: int, browser: Browser,
                                                            tmp_path: Path) -> None:
    """`room odds on` mid-hand with 4 and 6 seats at 1280x720: the side panel's boxes shrink
    together so that the chart, its last box, ends on the screen (its bottom stood at 802 px
    of 720 with six seats)."""
    from tests.cli import tables

    db = tmp_path / "evening.json"
    gm = tables.GM(db)
    tables.between(gm, seats)
    tables.go_on(gm, "mid")
    gm("room", "odds", "on")
    with served(db) as s:
        browser.open(f"http://127.0.0.1:{s.port}/", 1280, 720)
        browser.wait_for("!document.getElementById('oddsbox').hidden")
        box = browser.evaluate("(function () { var c = document.getElementById('chartbox')"
                               ".getBoundingClientRect(), p = document.getElementById('panel');"
                               " return {bottom: c.bottom, height: c.height, spill: "
                               "p.scrollHeight - p.clientHeight, page: document."
                               "documentElement.scrollHeight}; })()")
    assert box["bottom"] <= 720 and box["page"] <= 720, box
    assert box["height"] >= 90 and box["spill"] <= 1, box  # a chart to read, nothing hidden


@pytest.fixture(scope="module")
def mid_hand(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """Six seats mid-hand (tests/cli/tables), served."""
    from tests.cli import tables

    db = tmp_path_factory.mktemp("mid6") / "evening.json"
    gm = tables.GM(db)
    tables.between(gm, 6)
    tables.go_on(gm, "mid")
    with served(db) as s:
        yield s


@pytest.mark.parametrize("name", ["W" * 30, "Lady Evangeline Ashcombe-Smyth"])
@pytest.mark.parametrize("width, height", [(1280, 720), (1920, 1080)])
def test_e196_the_turn_line_is_never_under_a_25th_of_the_screen(
        mid_hand: Served, browser: Browser, name: str, width: int, height: int) -> None:
    """A 30-character name to act in the limit phase, the longest moves: the turn line at
    1/25 of the screen's height or more (30 W's drew it at 1/33), the page still fits."""
    browser.open(f"http://127.0.0.1:{mid_hand.port}/", width, height)
    browser.wait_for("typeof frame === 'object' && frame.hand && frame.hand.to_act && pushed")
    time.sleep(0.3)
    got = browser.evaluate(f"""(function () {{
      var f = JSON.parse(JSON.stringify(frame));
      f.hand.to_act = {json.dumps(name)}; f.hand.owes = 12; f.hand.bet = 12;
      f.hand.moves = ["call", "raise", "fold"]; f.hand.phase = "limit"; f.hand.raises = 2;
      render(f);
      var turn = document.getElementById('turn'), main = turn.querySelector('span');
      return {{size: parseFloat(getComputedStyle(main).fontSize), text: turn.textContent,
              wide: turn.scrollWidth - turn.clientWidth,
              page: document.documentElement.scrollHeight}};
    }})()""")
    assert got["size"] >= height / 25 - 0.01, got
    assert name in got["text"] and got["wide"] <= 1 and got["page"] <= height, got


def test_e197_chart_end_labels_are_moved_apart_and_kept_inside(mid_hand: Served,
                                                              browser: Browser) -> None:
    """Every line of the chart ending at 0: their names are 14 units apart or more, and all
    inside the chart (pushed down one under the other, the last ones fell off its foot)."""
    browser.open(f"http://127.0.0.1:{mid_hand.port}/", 1280, 720)
    browser.wait_for("typeof frame === 'object' && frame.chart && frame.chart.series.length")
    got = browser.evaluate("""(function () {
      var f = JSON.parse(JSON.stringify(frame));
      f.chart.series.forEach(function (s) { s.chips[s.chips.length - 1] = 0; });
      var svg = chart(f), names = f.chart.series.map(function (s) {
        return s.name.length > 9 ? s.name.slice(0, 8) + "\\u2026" : s.name; });
      var ys = Array.prototype.filter.call(svg.querySelectorAll('text'), function (t) {
        return names.indexOf(t.textContent) >= 0; }).map(function (t) {
        return Number(t.getAttribute('y')); });
      return {ys: ys.sort(function (a, b) { return a - b; }), height: 250, n: names.length};
    })()""")
    ys = got["ys"]
    assert len(ys) == got["n"] >= 6
    assert all(b - a >= 14 for a, b in zip(ys, ys[1:], strict=False)), ys
    assert ys[0] >= 13 and ys[-1] <= got["height"], ys  # the whole name inside the chart
