"""A phone asks in a real headless Chromium (R46): an assistant taps "Study", the GM accepts at
the shell's prompt, and the clue appears on that phone and nowhere else; a guess declined with
a reason shows the reason on the phone.

Skips with the reason when Chromium is missing (`.ci/run` installs the distribution's).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.browser import Browser, browser, chromium
from tests.cli.conftest import GM
from tests.cli.serving import Served, served

assert browser  # headless Chromium, a fixture

BINARY = chromium()
pytestmark = [pytest.mark.system, pytest.mark.skipif(
    BINARY is None, reason="headless Chromium is not installed (apt-get install chromium)")]

ROOT = Path(__file__).resolve().parents[2]
SEATS = ["Ada:XVI:red:Ben:IX", "Cara:III:blue:Dan:V", "Eve:VII:green:Finn:XI"]
CLUE = "Walking. Hours and hours of walking"  # Ben's first clue of the green bottle
BODY = "document.body.textContent"
SAID = "document.getElementById('ask-said').textContent"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Served]:
    gm = GM(CliRunner(), tmp_path / "night" / "e.json")
    gm.played("browser-asks", lambda g: g("new", "--fool", "Fiona",
                                          *[a for s in SEATS for a in ("--seat", s)]))
    with served(gm.db) as s:
        yield s


def at_the_shell(evening: Path, *lines: str) -> str:
    """The GM types ``lines`` at `referee shell` in a process of its own."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "referee", "--db", str(evening), "shell"],
                          input="\n".join(lines) + "\n", env=env, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


def phone(server: Served, browser: Browser, who: str) -> None:
    browser.open(f"http://127.0.0.1:{server.port}/a/{server.access.assistants[who]}", 390, 844)


def tap(browser: Browser, kind: str, **fields: str) -> None:
    for name, value in fields.items():
        browser.evaluate(f"document.querySelector('form[data-kind={kind}] [name={name}]')"
                         f".value = {json.dumps(value)}")
    browser.evaluate(f"document.querySelector('form[data-kind={kind}] button').click()")


def test_r46_a_study_tapped_accepted_at_the_shell_shows_on_that_phone_only(
        server: Served, browser: Browser) -> None:
    phone(server, browser, "Ben")
    assert CLUE not in browser.evaluate(BODY)
    tap(browser, "study")
    browser.wait_for(f"{BODY}.indexOf('study the cracked green bottle \u2014 waiting for the "
                     "GM') >= 0", timeout=10)
    # The page follows the queue: the request, and the minute of study counted on the phone.
    browser.wait_for("document.querySelector('li.ask-open .minute') && document.querySelector("
                     "'li.ask-open .minute').textContent.indexOf('s left') > 0", timeout=10)
    assert CLUE not in browser.evaluate(BODY)  # nothing before the GM accepts
    out = at_the_shell(server.evening, "ok 1")
    assert "Ben studies the cracked green bottle (clue 1 of 3)" in out
    browser.wait_for(f"{BODY}.indexOf({json.dumps(CLUE)}) >= 0", timeout=10)
    assert "accepted by the GM" in browser.evaluate(BODY)
    for other in ("Dan", "Finn"):
        phone(server, browser, other)
        assert CLUE not in browser.evaluate(BODY)
    for path in ("/", "/frame.json"):
        browser.open(f"http://127.0.0.1:{server.port}{path}", 1280, 720)
        assert CLUE not in browser.evaluate("document.documentElement.outerHTML")


def test_r46_a_guess_declined_shows_the_reason_on_the_phone(server: Served,
                                                             browser: Browser) -> None:
    phone(server, browser, "Ben")
    tap(browser, "guess", soul="the amber bottle", name="Catherine the Great")
    browser.wait_for(f"{BODY}.indexOf('waiting for the GM') >= 0", timeout=10)
    at_the_shell(server.evening, "no 1 wait until the hand is over")
    browser.wait_for(f"{BODY}.indexOf('declined by the GM: wait until the hand is over') >= 0",
                     timeout=10)
    assert "3 guesses left" in browser.evaluate(BODY)  # nothing was recorded


def test_r23_a_refused_request_is_one_line_on_the_phone(server: Served,
                                                       browser: Browser) -> None:
    phone(server, browser, "Ben")
    tap(browser, "question", text="May I study the amber bottle?")
    browser.wait_for(f"{BODY}.indexOf('waiting for the GM') >= 0", timeout=10)
    tap(browser, "question", text="And now?")
    browser.wait_for(f"{SAID}.indexOf('is still with the GM; one at a time (E211)') > 0",
                     timeout=10)
