"""The GM's remote over HTTP (E220-E223): ``GET /gm`` holds no secret and runs only its own
scripts; a tap is the station's command line with an id, answered once and applied once
however often it is sent; a refusal is one line; an assistant's token taps nothing."""

from __future__ import annotations

import asyncio
import json
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from referee.serve import remote
from tests.cli.conftest import GM
from tests.cli.serving import Served, served

SEATS = ["Ada:XVI:red:Ben:IX", "Cy:III:blue:Di:II"]


@pytest.fixture
def gm(tmp_path: Path) -> GM:
    gm = GM(CliRunner(), tmp_path / "night" / "e.json")
    gm.played("remote", lambda g: (g("new", "--fool", "Fool",
                                     *[a for s in SEATS for a in ("--seat", s)]),
                                   g("hand", "start")))
    return gm


@pytest.fixture
def server(gm: GM) -> Iterator[Served]:
    with served(gm.db) as s:
        yield s


def tap(server: Served, args: list[str], tap_id: Any, token: str | None = None
        ) -> tuple[int, dict[str, str], bytes]:
    return server.request("POST", "/station", json.dumps(
        {"args": args, "tap": tap_id}).encode(), {
            "Content-Type": "application/json",
            "Authorization": f"Bearer {token or server.access.station}"})


def texts(gm: GM) -> list[str]:
    return [c["text"] for c in json.loads(gm("log", "--json").output)["commands"]]


def test_e220_the_page_holds_no_secret_and_runs_only_its_own_scripts(server: Served) -> None:
    status, headers, body = server.get("/gm")
    page = body.decode()
    assert status == 200 and headers["content-type"].startswith("text/html")
    nonce = re.search(r"'nonce-([A-Za-z0-9_-]+)'", headers["content-security-policy"])
    assert nonce is not None and "unsafe-inline" not in headers["content-security-policy"]
    assert page.count(f'nonce="{nonce.group(1)}"') == 2  # its one style and one script
    assert server.access.station not in page
    assert not any(t in page for t in server.access.assistants.values())
    assert "Ada" not in page  # no data: it reads the evening with the token it holds
    assert not re.search(r"(src|href)=\"?https?:", page)  # nothing from the network
    assert server.get("/gm")[2] != body  # a nonce of its own each time (E69)
    assert server.request("HEAD", "/gm")[0] == 200
    status, headers, _ = server.request("POST", "/gm", b"{}")
    assert status == 405 and headers["allow"] == "GET, HEAD"


def test_e220_no_remote_where_no_station(gm: GM) -> None:
    with served(gm.db, station=False) as server:
        assert server.get("/gm")[0] == 404


def test_e222_a_tap_sent_again_is_answered_once_and_applied_once(gm: GM,
                                                                  server: Served) -> None:
    args = ["hand", "show", "Cy", "+KC", "5W"]
    first = tap(server, args, "tap-0001")
    again = tap(server, args, "tap-0001")
    assert first[0] == again[0] == 200
    assert first[1]["x-tap"] == "new" and again[1]["x-tap"] == "again"
    assert first[2] == again[2]  # the very answer given the first time
    said = json.loads(again[2])
    assert said["exit"] == 0 and said["stdout"].startswith("Cy shows King of Cups")
    assert texts(gm).count("hand show Cy +KC 5W") == 1
    # A new tap of the same line is a new command: refused now, the cards already showing.
    other = json.loads(tap(server, args, "tap-0002")[2])
    assert other["exit"] == 2 and texts(gm).count("hand show Cy +KC 5W") == 1


def test_e222_a_tap_sent_twice_at_once_is_applied_once(gm: GM, server: Served) -> None:
    args = ["hand", "show", "Ada", "+4C", "8W"]
    answers: list[tuple[int, dict[str, str], bytes]] = []
    threads = [threading.Thread(target=lambda: answers.append(tap(server, args, "both-at-once")))
               for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert len({a[2] for a in answers}) == 1 and len(answers) == 4
    assert sorted(a[1]["x-tap"] for a in answers) == ["again"] * 3 + ["new"]
    assert texts(gm).count("hand show Ada +4C 8W") == 1


def test_e222_an_id_is_one_command_line_and_well_formed(gm: GM, server: Served) -> None:
    before = gm.db.read_bytes()
    assert tap(server, ["undo"], "x-1")[0] == 400  # too short
    assert tap(server, ["undo"], 12345678)[0] == 400
    assert tap(server, ["undo"], "a/b.c:d;e")[0] == 400
    assert gm.db.read_bytes() == before
    assert tap(server, ["hand", "show", "Cy", "+KC"], "same-id-9")[0] == 200
    status, _, body = tap(server, ["undo"], "same-id-9")
    assert status == 409 and body.decode().count("\n") == 1 and "E222" in body.decode()
    assert texts(gm)[-1] == "hand show Cy +KC"  # the undo never ran


def test_e221_a_refusal_is_one_line_and_records_nothing(gm: GM, server: Served) -> None:
    before = gm.db.read_bytes()
    said = json.loads(tap(server, ["check", "Ada"], "refused-1")[2])
    assert said["exit"] == 2 and said["stdout"] == ""
    assert len(said["stderr"].strip().splitlines()) == 1
    assert "round 1's up cards are not all given" in said["stderr"]
    assert "Traceback" not in said["stderr"]
    assert gm.db.read_bytes() == before


def test_e221_an_assistants_token_taps_nothing(gm: GM, server: Served) -> None:
    before = gm.db.read_bytes()
    for token in [*server.access.assistants.values(), "x" * 32]:
        status, _, body = tap(server, ["hand", "show", "Cy", "+KC"], "by-a-phone", token)
        assert status == 403 and body.decode().count("\n") == 1
    assert gm.db.read_bytes() == before
    # Nor was the id taken: the GM's own tap with it runs.
    assert json.loads(tap(server, ["hand", "show", "Cy", "+KC"], "by-a-phone")[2])["exit"] == 0


def test_e222_a_station_line_without_an_id_runs_as_ever(gm: GM, server: Served) -> None:
    status, said = server.station(["status", "--json"], server.access.station)
    assert status == 200 and json.loads(said["stdout"])["hand"]["no"] == 1


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(0, 40), min_size=1, max_size=120), st.integers(1, 12))
def test_e222_every_id_kept_runs_once_and_at_most_kept_are_kept(ids: list[int],
                                                                kept: int) -> None:
    """Whatever the order of taps and resends: an id within the last ``kept`` new ones is
    never run again, and no more than ``kept`` are remembered."""
    async def play() -> None:
        taps = remote.Taps(kept)
        runs: list[int] = []
        fresh: list[int] = []  # the ids in the order they were first run
        for n in ids:
            remembered = n in fresh[-kept:]

            async def run(n: int = n) -> bytes:
                runs.append(n)
                return str(n).encode()

            answer, again = await taps.once(f"id-{n:06d}", ["x"], run)
            assert answer == str(n).encode() and again == remembered
            if not remembered:
                fresh.append(n)
            assert len(taps) <= kept
        assert len(runs) == len(fresh)

    asyncio.run(play())
