"""The GM's remote in a real headless Chromium at a phone's size (E220-E223): a whole hand
played by taps leaves the very log the same lines typed leave; a tap whose answer was lost
on the way is sent again and recorded once; a refusal reads as its one line.

Skips with the reason when Chromium is missing (`.ci/run` installs the distribution's).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli.requests import RUNNING
from tests.browser import Browser, browser, chromium
from tests.cli.conftest import GM
from tests.cli.serving import Served, served

assert browser  # headless Chromium, a fixture

BINARY = chromium()
pytestmark = [pytest.mark.system, pytest.mark.skipif(
    BINARY is None, reason="headless Chromium is not installed (apt-get install chromium)")]

SEATS = ["Ada:XVI:red:Ben:IX", "Cy:III:blue:Di:II"]
ANSWER = "document.getElementById('answer').textContent"
#: The hand, as the GM would type it at the shell: the remote's taps send these very lines.
TYPED = [
    ["hand", "start"],
    ["hand", "show", "Cy", "+KC", "5W"], ["hand", "show", "Ada", "+4C", "8W"],
    ["hand", "show", "Fool", "+AC", "6W", "7S", "QP"],
    ["bet", "Cy"], ["undo"], ["bet", "Cy"], ["call", "Ada"],
    ["hand", "show", "Cy", "+10C", "2C"], ["hand", "show", "Ada", "+PS", "KnP"],
    ["hand", "show", "Fool", "+5C", "8S"],
    ["check", "Cy"], ["check", "Ada"],
    ["hand", "show", "Fool", "+10S"],
    ["check", "Cy"], ["check", "Ada"],
    ["hand", "showdown", "Cy: 2S 7C 9C", "Ada: 4P 8C 9W"],
]


def new_evening(db: Path) -> GM:
    gm = GM(CliRunner(), db)
    gm.played("browser-remote", lambda g: g("new", "--fool", "Fool",
                                            *[a for s in SEATS for a in ("--seat", s)]))
    return gm


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Served]:
    with served(new_evening(tmp_path / "night" / "e.json").db) as s:
        yield s


def texts(db: Path) -> list[str]:
    log = GM(CliRunner(), db)("log", "--json").output
    return [c["text"] for c in json.loads(log)["commands"]]


def click(browser: Browser, text: str) -> None:
    """Tap the shown button whose words are ``text``, once it is there and nothing is
    being sent."""
    find = (f"Array.prototype.find.call(document.querySelectorAll('button'), function(b){{"
            f"return b.textContent === {json.dumps(text)} && b.offsetParent !== null "
            f"&& !b.disabled;}})")
    browser.wait_for(f"!document.body.classList.contains('busy') && !!{find}", timeout=15)
    browser.evaluate(f"{find}.click()")


def cards(browser: Browser, name: str, picked: list[str], *, button: str = "") -> None:
    """Tap the button that picks ``name``'s cards, ``picked`` in the picker, then Done."""
    click(browser, button or f"Pick {name}'s cards")
    browser.wait_for("!document.getElementById('picker').hidden")
    for card in picked:
        browser.evaluate(f"document.querySelector('#cards [data-card=\"{card}\"]').click()")
    click(browser, "Done")


def answered(browser: Browser, words: str) -> None:
    browser.wait_for(f"{ANSWER}.indexOf({json.dumps(words)}) >= 0 && "
                     "!document.body.classList.contains('busy')", timeout=15)


def lose_next_answer(browser: Browser) -> None:
    """The phone goes offline for a moment: its next tap reaches the server, but the answer
    never reaches the page, which sees a network error (as a dropped Wi-Fi gives)."""
    browser.evaluate("""(function(){var real=window.fetch;window.lost=0;window.fetch=
      function(url,opts){var p=real(url,opts);if(!window.lost&&opts&&opts.body&&
      opts.body.indexOf('"tap"')>=0){window.lost=1;return p.then(function(){
      throw new TypeError('Failed to fetch');});}return p;};})()""")


def test_e220_a_hand_played_by_taps_logs_what_typing_it_logs(server: Served, browser: Browser,
                                                              tmp_path: Path) -> None:
    browser.open(f"http://127.0.0.1:{server.port}/gm#{server.access.station}", 390, 844)
    click(browser, "Start a hand")
    answered(browser, "Hand 1 (limit phase) dealt to Cy, Ada, Fool")
    cards(browser, "Cy", ["KC", "5W"])
    answered(browser, "Cy shows King of Cups, Five of Wands")
    click(browser, "Pick Ada's cards")
    # The picker greys what is seen: Cy's up cards cannot be picked for Ada.
    browser.wait_for("!document.getElementById('picker').hidden")
    assert browser.evaluate("document.querySelector('#cards [data-card=\"KC\"]').disabled")
    assert browser.evaluate("document.querySelectorAll('#cards button[data-card]').length") == 78
    click(browser, "Cancel")
    cards(browser, "Ada", ["4C", "8W"])
    answered(browser, "Ada shows Four of Cups")
    cards(browser, "Fool", ["AC", "6W", "7S", "QP"])
    answered(browser, "Cy to act: check/bet")
    browser.wait_for("document.getElementById('turn').textContent === 'Cy to act'")
    click(browser, "Bet")
    answered(browser, "Cy bets 1")
    click(browser, "Undo")
    answered(browser, "Undone: bet Cy")
    click(browser, "Bet")
    answered(browser, "Cy bets 1")
    browser.wait_for("document.getElementById('owes').textContent === 'owes 1'")
    lose_next_answer(browser)
    click(browser, "Call 1")
    answered(browser, "Ada calls 1")  # sent again with its id, answered, applied once
    assert browser.evaluate("window.lost") == 1
    cards(browser, "Cy", ["10C", "2C"])
    cards(browser, "Ada", ["PS", "KnP"])
    cards(browser, "Fool", ["5C", "8S"])
    answered(browser, "Cy to act")
    click(browser, "Check")
    answered(browser, "Cy checks")
    click(browser, "Check")
    answered(browser, "Ada checks")
    cards(browser, "Fool", ["10S"])
    click(browser, "Check")
    answered(browser, "Cy checks")
    click(browser, "Check")
    answered(browser, "record the showdown")
    # The showdown asks only the cards nobody has seen (R44): three of each.
    gives = "document.getElementById('give-list').textContent"
    browser.wait_for(f"{gives}.indexOf('Cy gives 3') >= 0 && {gives}.indexOf('Ada gives 3') >= 0")
    assert "Fool gives" not in browser.evaluate(gives)
    cards(browser, "Cy", ["2S", "7C", "9C"], button="Pick")  # Cy's row is first
    cards(browser, "Ada", ["4P", "8C", "9W"], button="Pick")  # Cy's now says "Pick again"
    browser.screenshot(tmp_path / "remote-showdown.png")
    click(browser, "Showdown")
    answered(browser, "won by Cy")
    assert browser.evaluate("document.getElementById('answer').className") == "table"
    browser.screenshot(Path(os.environ.get("REMOTE_SHOT", tmp_path / "remote-won.png")))

    # The same hand typed in this process: the page's polls are station lines, run in the
    # server's threads with the process's streams taken for their answer, one at a time
    # (``requests.RUNNING``); held here, none of them takes the streams from under the typing.
    browser.blank()
    with RUNNING:
        typed = new_evening(tmp_path / "typed" / "e.json")
        for line in TYPED:
            typed(*line)
        assert texts(server.evening) == texts(typed.db)
        assert texts(server.evening).count("call Ada") == 1


def test_e221_a_refusal_reads_as_its_one_line_and_records_nothing(server: Served,
                                                                   browser: Browser) -> None:
    browser.open(f"http://127.0.0.1:{server.port}/gm#{server.access.station}", 390, 844)
    before = server.evening.read_bytes()
    click(browser, "Redo")
    answered(browser, "nothing to redo")
    said = browser.evaluate(ANSWER)
    assert said == "error: nothing to redo: redo works only right after undo"
    assert browser.evaluate("document.getElementById('answer').className") == "refused"
    assert server.evening.read_bytes() == before


def test_e220_an_assistants_token_opens_no_remote(server: Served, browser: Browser) -> None:
    token = server.access.assistants["Ben"]
    browser.open(f"http://127.0.0.1:{server.port}/gm#{token}", 390, 844)
    browser.wait_for(f"{ANSWER}.indexOf('cannot send commands') >= 0")
    assert browser.evaluate("document.querySelectorAll('#start-row button').length") == 0


def test_e253_the_remote_says_when_it_is_not_live(tmp_path: Path, browser: Browser) -> None:
    """E253: live, the remote shows no warning; the server gone, it says its updates are down
    and when what it shows was read, where it looked live before."""
    live = "document.getElementById('live')"
    with served(new_evening(tmp_path / "night" / "e.json").db) as s:
        browser.open(f"http://127.0.0.1:{s.port}/gm#{s.access.station}", 390, 844)
        browser.wait_for("document.getElementById('where').textContent === 'Between hands'")
        browser.wait_for(f"{live}.hidden")  # the push is open
        assert browser.evaluate(f"{live}.hidden")
    browser.wait_for(f"!{live}.hidden", timeout=15)
    said = browser.evaluate(f"{live}.textContent")
    assert said.startswith("Live updates are down: what shows was read at ")
    assert said.endswith("; reading again every 3 s.") and "no time yet" not in said
