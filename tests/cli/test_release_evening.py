"""An evening written by the previous release opens, verifies and plays on, whatever changes in
how events are built and read.

``tests/data/release-evening.json`` is the demo evening as the release before typed event
records wrote it (87 events, a snapshot, the answer slot); only the scenario's source, the
path it was read from, was made relative, and the chain and checksum written again as that
release writes them. Its stored JSON is the format: a
change to how events are built or read must still open it, verify its chain, fold it to the
same status, and play a hand on from it. ``release-evening-after.json`` is what that release's
console said of the evening after the same commands, recorded when the file was written.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import GM

DATA = Path(__file__).parent.parent / "data"

#: A hand played on from the release evening: up cards, a raised round, the next up cards,
#: a checked round, and the last cards to a showdown.
PLAY_ON: list[tuple[str, ...]] = [
    ("hand", "start"),
    ("hand", "show", "Cy: KC KW", "Ed: 2S 7P", "Ada: 4C 9W", "Gus: 3C 3W", "Fool: AC 6W 7S QP"),
    ("bet",), ("call",), ("raise",), ("call",), ("call",),
    ("hand", "show", "Cy: +5C", "Ed: +8S", "Ada: +10W", "Gus: +3S", "Fool: +5W 8P"),
    ("hand", "show", "Cy: +6C", "Ed: +9S", "Ada: +QW", "Gus: +4P"),
    ("check",), ("check",), ("check",),
    ("hand", "show", "Fool: +9C"),
    ("check",), ("check",), ("check",),
    ("hand", "showdown", "Cy: 2C 3P KC KW 5C 6C 7C", "Ed: 4S 5S 2S 7P 8S 9S 10S",
     "Ada: 5P 6P 4C 9W 10W QW KnW", "Gus: 8C 8W 3C 3W 3S 4P 4W",
     "Fool: AC 6W 7S QP 5W 8P 9C"),
]


def _steady(status: dict[str, Any]) -> dict[str, Any]:
    """The status without its running clock."""
    return {key: value for key, value in status.items() if key != "clock"}


@pytest.fixture
def release(gm: GM, db: Path) -> GM:
    shutil.copyfile(DATA / "release-evening.json", db)
    return gm


def test_release_evening_opens_and_verifies(release: GM) -> None:
    assert "sound. 87 events" in release("verify").output
    status = release.status()
    assert status["hands_played"] == 3 and status["hand"] is None
    assert status["chips"]["Ada"] == {"blue": 4, "green": 2, "red": 7, "yellow": 1}
    assert status["charges"] == {"Cy": 1, "Ed": 3, "Ada": 2, "Gus": 0}


def test_release_evening_plays_on_as_it_did(release: GM) -> None:
    expected = json.loads((DATA / "release-evening-after.json").read_text())
    said = [release(*step).output for step in PLAY_ON]
    assert said == expected["said"]
    status = _steady(release.status())
    assert status.pop("clock_paused") is None  # R47: added since, the clock never stopped
    assert status == expected["status"]
    assert "sound." in release("verify").output


def test_release_evening_amends_through_the_tables_api(release: GM) -> None:
    """The previous release's words, read again by today's parser into requests and made
    through the table's API on the scratch evening: a bet of hand 3 made smaller, the eleven
    commands after it replayed as typed, the pot it won smaller by as much."""
    said = release("amend", "56", "--yes", "--", "bet", "Ada", "1").output
    assert "11 later commands replayed as typed" in said
    assert "main pot 10 to Ada -> main pot 7 to Ada" in said
    assert "sound." in release("verify").output
    assert release.status()["hands_played"] == 3
