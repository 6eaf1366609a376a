"""The table page in a real headless Chromium: it draws, it scales, it follows the evening.

Skips with the reason when Chromium is missing (`.ci/run` installs the distribution's).
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.browser import Browser, chromium
from tests.cli.conftest import GM
from tests.cli.serving import Served, copy_evening, demo_db, served

assert demo_db  # the shared demo evening, a fixture

BINARY = chromium()
pytestmark = [pytest.mark.system, pytest.mark.skipif(
    BINARY is None, reason="headless Chromium is not installed (apt-get install chromium)")]

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


@pytest.fixture
def browser() -> Iterator[Browser]:
    assert BINARY is not None
    b = Browser(BINARY)
    try:
        yield b
    finally:
        b.close()


@pytest.mark.parametrize("size", [(1280, 720), (390, 844)])
def test_table_page_draws_the_turn_line(server: Served, browser: Browser, tmp_path: Path,
                                        size: tuple[int, int]) -> None:
    width, height = size
    browser.open(f"http://127.0.0.1:{server.port}/", width, height)
    assert browser.evaluate(TURN).startswith("▶ Ed to act — owes 2")
    # Nothing wider than the window: the page scales down to a phone.
    assert browser.evaluate("document.documentElement.scrollWidth") <= width
    seats = browser.evaluate("document.querySelectorAll('#seats .seat').length")
    assert seats == 5  # four stakeholders and the Fool
    chips = browser.evaluate("document.querySelectorAll('.chip').length")
    assert chips >= 30  # the stacks are drawn chip by chip
    assert browser.evaluate("document.querySelectorAll('#chart polyline').length") == 4
    shot = browser.screenshot(tmp_path / f"table-{width}x{height}.png")
    assert shot[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(shot) > 20_000, len(shot)  # one flat colour compresses to almost nothing


def test_page_follows_a_command_from_another_process_within_two_seconds(
        server: Served, browser: Browser) -> None:
    browser.open(f"http://127.0.0.1:{server.port}/", 1280, 720)
    assert "Ed to act" in browser.evaluate(TURN)
    browser.evaluate("window.notReloaded = true")
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    done = subprocess.run([sys.executable, "-m", "referee", "--db", str(server.evening),
                           "call", "Ed"], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    # The bar: the room sees the change within 2 s (the page polls every 0.4 s).
    browser.wait_for(f"{TURN}.indexOf('Ada to act') >= 0", timeout=2.0)
    assert browser.evaluate("window.notReloaded") is True  # updated in place, by the poll
    assert "Ed" not in browser.evaluate(TURN)


def test_assistants_phone_follows_their_sheet(server: Served, browser: Browser) -> None:
    link = f"http://127.0.0.1:{server.port}/a/{server.access.assistants['Hal']}"
    browser.open(link, 390, 844)
    body = "document.body.textContent"
    assert "Clue sheet: Hal" in browser.evaluate(body)
    assert "white pigeon" not in browser.evaluate(body)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    done = subprocess.run([sys.executable, "-m", "referee", "--db", str(server.evening),
                           "soul", "study", "Hal", "black"], env=env, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "white pigeon" in done.stdout
    browser.wait_for(f"{body}.indexOf('white pigeon') >= 0", timeout=10.0)
    assert browser.evaluate("document.documentElement.scrollWidth") <= 390
