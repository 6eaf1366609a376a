"""A phone asks over HTTP (R46, E215-E217): `POST /a/TOKEN/ask` only with an assistant's own
link, from this server's page (its Origin), as bounded JSON; queued, never recorded; each phone
sees its own requests and clues and nothing of another's; the push tells of the queue."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.serve import asks
from tests.cli.conftest import GM
from tests.cli.serving import Served, served
from tests.cli.test_push import Events

SEATS = ["Ada:XVI:red:Ben:IX", "Cara:III:blue:Dan:V", "Eve:VII:green:Finn:XI"]
CLUE = "Walking. Hours and hours of walking"  # Ben's first clue of the green bottle


@pytest.fixture
def gm(tmp_path: Path) -> GM:
    gm = GM(CliRunner(), tmp_path / "night" / "e.json")
    gm.played("serve-asks", lambda g: g("new", "--fool", "Fiona",
                                        *[a for s in SEATS for a in ("--seat", s)]))
    return gm


@pytest.fixture
def server(gm: GM) -> Iterator[Served]:
    with served(gm.db) as s:
        yield s


def post(server: Served, who: str, body: object, *, origin: str | None = "own",
         kind: str = "application/json", raw: bytes | None = None) -> tuple[int, str]:
    headers = {"Content-Type": kind}
    if origin is not None:
        headers["Origin"] = f"http://127.0.0.1:{server.port}" if origin == "own" else origin
    data = raw if raw is not None else json.dumps(body).encode()
    status, _, answer = server.request("POST", f"/a/{server.access.assistants[who]}/ask",
                                       data, headers)
    text = answer.decode()
    try:
        return status, str(json.loads(text)["line"])
    except ValueError:
        return status, text.strip()


def page(server: Served, who: str) -> str:
    status, _, body = server.get(f"/a/{server.access.assistants[who]}")
    assert status == 200
    return body.decode()


def test_r46_a_phone_asks_and_nothing_is_recorded(server: Served, gm: GM) -> None:
    before = gm.db.read_bytes()
    status, line = post(server, "Ben", {"kind": "study", "soul": "green"})
    assert status == 200, line
    assert line == ("Sent to the GM as request 1 (study the cracked green bottle); nothing is "
                    "recorded until the GM accepts it.")
    assert gm.db.read_bytes() == before
    assert asks.load_queue(gm.db).find(1)["assistant"] == "Ben"
    assert "study the cracked green bottle &#8212; <b>waiting for the GM</b>" in page(server, "Ben")


def test_e217_who_may_post_and_what(server: Served, gm: GM) -> None:
    question = {"kind": "question", "text": "A break soon?"}
    assert post(server, "Ben", question, origin=None)[0] == 403
    assert post(server, "Ben", question, origin="http://evil.example")[0] == 403
    assert post(server, "Ben", question, origin=f"http://localhost:{server.port}")[0] == 403
    assert post(server, "Ben", question, kind="text/plain")[0] == 415
    assert post(server, "Ben", None, raw=b"x" * (5 * 1024))[0] == 413
    assert post(server, "Ben", None, raw=b"x" * (40 * 1024))[0] == 413
    assert post(server, "Ben", None, raw=b"[1, 2]")[0] == 400
    status, line = post(server, "Ben", {"kind": "study", "soul": "amber"})
    assert status == 409 and "only a soul their side holds" in line  # R23 at the phone
    headers = {"Origin": f"http://127.0.0.1:{server.port}", "Content-Type": "application/json"}
    body = json.dumps(question).encode()
    for token in (server.access.station, "A" * 32):  # the GM's key is no phone's link
        assert server.request("POST", f"/a/{token}/ask", body, headers)[0] == 404
    assert server.get(f"/a/{server.access.assistants['Ben']}/ask")[0] == 405
    assert not asks.asks_path(gm.db).exists()  # nothing of it was queued


def test_e211_the_bounds_over_http(server: Served) -> None:
    assert post(server, "Ben", {"kind": "study", "soul": "green"})[0] == 200
    status, line = post(server, "Ben", {"kind": "study", "soul": "green"})
    assert status == 409 and "one at a time" in line
    for n in range(3):
        post(server, "Ben", {"kind": "question", "text": f"q{n}"})
        asks.decline(server.evening, n + 2, "no")
    status, line = post(server, "Ben", {"kind": "question", "text": "again"})
    assert status == 429 and "in the last minute" in line


def test_r46_the_clue_and_the_answers_reach_that_phone_only(server: Served, gm: GM) -> None:
    post(server, "Ben", {"kind": "study", "soul": "green"})
    post(server, "Ben", {"kind": "guess", "soul": "amber", "name": "Nero"})
    post(server, "Dan", {"kind": "question", "text": "Who holds the cobalt phial?"})
    gm("requests", "accept", "1")
    gm("requests", "decline", "2", "the amber bottle is not yours to guess yet")
    gm("requests", "accept", "3", "Dan does")
    ben, dan, finn = page(server, "Ben"), page(server, "Dan"), page(server, "Finn")
    assert CLUE in ben and "accepted by the GM: your clue is above" in ben
    assert "declined by the GM: the amber bottle is not yours to guess yet" in ben
    assert "the GM answers: Dan does" in dan
    for other in (dan, finn):
        assert CLUE not in other and "not yours to guess" not in other
    assert "Dan does" not in ben + finn
    for path in ("/", "/frame.json"):
        seen = server.get(path)[2].decode()
        assert CLUE not in seen and "not yours to guess" not in seen and "Dan does" not in seen


def test_e69_the_phones_page_runs_only_its_own_sealed_scripts(server: Served) -> None:
    status, headers, body = server.get(f"/a/{server.access.assistants['Ben']}")
    nonce = re.search(r"'nonce-([^']+)'", headers["content-security-policy"])
    assert nonce is not None and "form-action 'none'" in headers["content-security-policy"]
    text = body.decode()
    assert text.count("<script") == text.count(f'<script nonce="{nonce.group(1)}">') == 2
    assert text.count("<style") == text.count(f'<style nonce="{nonce.group(1)}">') == 2
    assert not re.search(r"<[^>]+\son[a-z]+=", text)  # no inline handler anywhere


def test_e216_names_in_the_panel_are_data(tmp_path: Path) -> None:
    gm = GM(CliRunner(), tmp_path / "odd.json")
    gm("new", "--fool", "Fiona", "--seat", "Ada:XVI:red:<b>Bo</b>:IX",
       "--seat", "Cara:III:blue:Dan:V")
    with served(gm.db) as s:
        status, _ = post(s, "<b>Bo</b>", {"kind": "question", "text": "<script>x</script>"})
        assert status == 200
        text = page(s, "<b>Bo</b>")
        assert "<script>x</script>" not in text and "&lt;script&gt;x&lt;/script&gt;" in text


def test_e215_the_push_tells_of_the_queue_and_nothing_of_it(server: Served) -> None:
    events = Events(server.port)
    try:
        events.next("frame")
        post(server, "Ben", {"kind": "question", "text": "Secret plan?"})
        assert json.loads(events.next("asks", timeout=2)) == {"waiting": 1}
    finally:
        events.close()


def test_e212_a_station_answers_a_phone(server: Served, gm: GM) -> None:
    from referee.cli.room.station import RemoteShell

    post(server, "Ben", {"kind": "study", "soul": "green"})
    post(server, "Dan", {"kind": "question", "text": "Break?"})
    status, reply = server.station(["requests"], server.access.station)
    assert status == 200 and "1: Ben (Ada's side) study" in reply["stdout"]
    remote = RemoteShell(f"http://127.0.0.1:{server.port}", server.access.station)
    assert remote.run_line("ok 1") == 0
    assert remote.run_line("no 2 after the hand") == 0
    assert [a["status"] for a in asks.load_queue(gm.db).asks] == ["accepted", "declined"]
    assert CLUE in page(server, "Ben")
