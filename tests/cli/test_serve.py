"""`referee serve`: routes, headers, tokens, the leak test, the station (E52-E54)."""

from __future__ import annotations

import json
import os
import re
import stat
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.cli.serving import Served, copy_evening, demo_db, served
from tests.profiles import examples

assert demo_db  # the shared demo evening, a fixture

READ_ROUTES = ["/", "/frame.json"]
UP = ".." + "/"  # built from pieces: no file of the repository names a parent folder


@pytest.fixture
def evening(demo_db: Path, tmp_path: Path) -> Path:
    return copy_evening(demo_db, tmp_path / "night")


@pytest.fixture
def server(evening: Path) -> Iterator[Served]:
    with served(evening) as s:
        yield s


def _secrets(evening: Path) -> dict[str, Any]:
    """What no page may show: identities, aliases, clues, the cards played face down."""
    from referee.rules.cards import parse_card
    from referee.storage.store import open_evening

    with open_evening(evening, write=False) as ev:
        state = ev.state("evening")
        played = {card for c in ev.commands() for e in c.events if e["kind"] == "showdown"
                  for cards in e["hands"].values() for card in cards}
    souls = {s.key: [s.identity, *s.aliases] for s in state.souls if s.kind == "bottled"}
    clues = {(seat, clue) for sheet in state.scenario["clues"].values()
             for seat, lines in sheet.items() for clue in lines}
    minors = {parse_card(c).name for c in played if not parse_card(c).is_major}
    return {"state": state, "souls": souls, "clues": clues, "played": played, "minors": minors}


def _assert_public(text: str, secrets: dict[str, Any]) -> None:
    low = text.lower()
    for names in secrets["souls"].values():
        for name in names:
            assert name.lower() not in low, name
    for _, clue in secrets["clues"]:
        assert clue[:40] not in text, clue
    first = re.search(r'<script id="first" type="application/json"[^>]*>(.*?)</script>', text,
                      re.S)
    data = first.group(1) if first else text  # the page's inline frame, or frame.json
    for card in secrets["played"]:  # nothing is showing between hands: no card at all
        assert f'"{card}"' not in data, card
    for name in secrets["minors"]:
        assert name not in text, name


# -- the read routes ------------------------------------------------------------------------------


def test_table_page_is_standalone_with_security_headers(server: Served) -> None:
    status, headers, body = server.get("/")
    assert status == 200 and headers["content-type"].startswith("text/html")
    page = body.decode()
    assert not re.search(r"(src|href)=[\"']?(https?:)?//", page)  # no network (E53)
    assert "<style" in page and "<script" in page
    assert headers["x-frame-options"] == "DENY"
    assert "frame-ancestors 'none'" in headers["content-security-policy"]
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "no-referrer"
    assert "cache-control" in headers


def test_frame_json_has_an_etag_and_answers_304_until_the_file_changes(
        server: Served, evening: Path) -> None:
    from tests.cli.conftest import GM

    status, headers, body = server.get("/frame.json")
    assert status == 200
    frame = json.loads(body)
    assert frame["seats"][0]["name"] == "Cy" and frame["hand"] is None
    etag = headers["etag"]
    status, again, body = server.get("/frame.json", **{"If-None-Match": etag})
    assert status == 304 and body == b"" and again["etag"] == etag
    from typer.testing import CliRunner

    gm = GM(CliRunner(), evening)
    gm("charge", "give", "Ben", "Flo", "1")  # R39: no Charge is on the wall, so no change
    assert server.get("/frame.json", **{"If-None-Match": etag})[0] == 304
    gm("chips", "give", "Ben", "Flo", "yellow:1")
    status, headers, body = server.get("/frame.json", **{"If-None-Match": etag})
    assert status == 200 and headers["etag"] != etag

    def helper(view: dict[str, Any], seat: str) -> int:
        return int(next(s for s in view["seats"] if s["name"] == seat)["assistant"]["stack"])

    assert helper(json.loads(body), "Ada") == helper(frame, "Ada") - 1
    assert helper(json.loads(body), "Ed") == helper(frame, "Ed") + 1


def test_e50_frame_recomputed_once_per_change_not_per_request(server: Served,
                                                              evening: Path) -> None:
    for _ in range(20):
        assert server.get("/frame.json")[0] == 200
        assert server.get("/")[0] == 200
    assert server.server.source.computed == 1
    from typer.testing import CliRunner

    from tests.cli.conftest import GM

    GM(CliRunner(), evening)("charge", "give", "Ben", "Flo", "1")
    server.get("/frame.json")
    # The change is seen: the write, and the answer marked shown in place (E41) if the push's
    # watcher looked between the two on a busy machine, each once.
    changed = server.server.source.computed
    assert changed in (2, 3)
    for _ in range(10):
        server.get("/frame.json")
    assert server.server.source.computed == changed  # and not once per request


def test_frame_carries_the_chart_and_side_tables(evening: Path) -> None:
    from typer.testing import CliRunner

    from tests.cli.conftest import GM

    gm = GM(CliRunner(), evening)
    gm("wager", "new", "Ada", "Cy", "--seed", "3")
    with served(evening) as s:
        frame = json.loads(s.get("/frame.json")[2])
    chart = frame["chart"]
    assert chart["labels"][:4] == ["start", "1", "2", "3"]
    assert {line["name"] for line in chart["series"]} == {"Cy", "Ed", "Ada", "Gus"}
    assert all(line["chips"][0] == 10 for line in chart["series"])  # ten chips each (R10)
    assert frame["side_tables"]["wager"]["fool"] == "Ada"
    assert "scum" not in frame["side_tables"]


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH"])
@pytest.mark.parametrize("path", READ_ROUTES)
def test_e53_read_routes_take_only_get_and_head(server: Served, method: str,
                                                path: str) -> None:
    status, headers, _ = server.request(method, path, b"{}")
    assert status == 405
    assert headers["allow"] == "GET, HEAD"


def test_e53_head_answers_without_a_body(server: Served) -> None:
    status, headers, body = server.request("HEAD", "/frame.json")
    assert status == 200 and body == b"" and int(headers["content-length"]) > 100


@pytest.mark.parametrize("path", [
    f"/a/{UP}{UP}etc/passwd", "/..%2f..%2fetc%2fpasswd", "/etc/passwd", f"/frame.json/{UP}..",
    "//etc/passwd", "/a/", "/a/%2e%2e%2fdemo.json", "/demo.json", "/demo.json.access",
    f"/static/{UP}demo.json", f"/a/x/{UP}{UP}demo.json",
])
def test_e53_no_path_reaches_the_file_system(server: Served, path: str) -> None:
    status, _, body = server.get(path)
    assert status == 404, path
    assert b"Fool" not in body and b"station" not in body


def test_e53_oversized_body_is_refused_unread(server: Served, evening: Path) -> None:
    before = evening.read_bytes()
    status, _, _ = server.request("POST", "/station", b"x" * (64 * 1024),
                                  {"Authorization": f"Bearer {server.access.station}"})
    assert status == 413
    assert evening.read_bytes() == before


# -- tokens ----------------------------------------------------------------------------------------


def test_e52_tokens_are_long_random_and_kept_in_a_0600_file(evening: Path) -> None:
    from referee.serve import access as serve_access

    access = serve_access.ensure_access(evening, ["Ben", "Di"])
    tokens = [access.station, *access.assistants.values()]
    assert len(set(tokens)) == len(tokens)
    assert all(len(t) >= 22 for t in tokens)  # >= 128 bits as urlsafe base64
    mode = stat.S_IMODE(os.stat(serve_access.access_path(evening)).st_mode)
    assert mode == 0o600
    assert serve_access.ensure_access(evening, ["Ben", "Di"]) == access  # kept across restarts
    renewed = serve_access.ensure_access(evening, ["Ben", "Di"], renew=True)
    assert renewed.station != access.station
    assert not set(renewed.assistants.values()) & set(access.assistants.values())


def test_e52_each_assistant_reads_only_their_sheet(server: Served) -> None:
    for name, token in server.access.assistants.items():
        status, headers, body = server.get(f"/a/{token}")
        assert status == 200, name
        assert f"Clue sheet: {name}" in body.decode()
        assert headers["cache-control"] == "no-store"
        assert headers["referrer-policy"] == "no-referrer"


def test_e52_another_assistants_token_opens_their_sheet_never_yours(server: Served,
                                                                  evening: Path) -> None:
    secrets = _secrets(evening)
    state = secrets["state"]
    ben_seat = [s.name for s in state.seats].index("Ada") + 1  # Ben assists Ada
    ben_clues = [c for seat, c in secrets["clues"] if seat == str(ben_seat)]
    for name in ("Di", "Flo", "Hal"):
        text = server.get(f"/a/{server.access.assistants[name]}")[2].decode()
        assert "Clue sheet: Ben" not in text and f"Clue sheet: {name}" in text
        assert not any(clue[:40] in text for clue in ben_clues), name
    ben = server.get(f"/a/{server.access.assistants['Ben']}")[2].decode()
    assert any(clue[:40] in ben for clue in ben_clues)  # the check above can fail


@pytest.mark.parametrize("token", ["x" * 32, "A" * 16, "wrongtokenwrongtoken"])
def test_e52_unknown_token_is_404(server: Served, token: str) -> None:
    assert server.get(f"/a/{token}")[0] == 404


def test_e52_station_token_and_near_misses_open_no_sheet(server: Served) -> None:
    assert server.get(f"/a/{server.access.station}")[0] == 404
    ben = server.access.assistants["Ben"]
    assert server.get(f"/a/{ben[:-1]}")[0] == 404
    assert server.get(f"/a/{ben}x")[0] == 404


def test_e52_old_links_die_with_new_tokens(server: Served, evening: Path) -> None:
    from referee.serve import access

    old = server.access.assistants["Ben"]
    assert server.get(f"/a/{old}")[0] == 200
    new = access.ensure_access(evening, ["Ben", "Di", "Flo", "Hal"], renew=True)
    assert server.get(f"/a/{old}")[0] == 404
    assert server.get(f"/a/{new.assistants['Ben']}")[0] == 200


def test_e52_station_refuses_no_token_and_assistant_tokens(server: Served,
                                                           evening: Path) -> None:
    before = evening.read_bytes()
    status, data = server.station(["charge", "give", "Ben", "Flo", "1"], None)
    assert status == 401
    for token in [*server.access.assistants.values(), "nonsense-token-nonsense"]:
        status, data = server.station(["charge", "give", "Ben", "Flo", "1"], token)
        assert status == 403, data
    assert "assistant" in server.station(["status"], server.access.assistants["Di"])[1]["text"]
    assert evening.read_bytes() == before


def test_e53_station_route_absent_without_station_flag(evening: Path) -> None:
    with served(evening, station=False) as s:
        before = evening.read_bytes()
        status, _ = s.station(["charge", "give", "Ben", "Flo", "1"], s.access.station)
        assert status == 404
        assert evening.read_bytes() == before


# -- the leak test ---------------------------------------------------------------------------------


def test_leak_every_route_for_every_token_and_none(server: Served, evening: Path) -> None:
    secrets = _secrets(evening)
    state = secrets["state"]
    before = evening.read_bytes()
    tokens: list[str | None] = [None, *server.access.assistants.values(), server.access.station]
    for token in tokens:
        for route in READ_ROUTES:
            status, _, body = server.get(route + (f"?token={token}" if token else ""))
            assert status == 200
            _assert_public(body.decode(), secrets)
        status, data = server.station(["soul", "study", "Ben", "green"], token)
        if token != server.access.station:
            assert status in (401, 403)
            assert evening.read_bytes() == before
    for name, token in server.access.assistants.items():
        _, _, body = server.get(f"/a/{token}")
        text = body.decode()
        found = {g["soul"] for g in state.guesses
                 if g["assistant"] == name and g["result"]["name"] == "correct"}
        for soul, names in secrets["souls"].items():
            if soul not in found:
                for secret in names:
                    assert secret.lower() not in text.lower(), (name, secret)
        seat = [s.name for s in state.seats].index(state.side_of(name) or "") + 1
        for sheet_seat, clue in secrets["clues"]:
            if sheet_seat != str(seat):
                assert clue[:40] not in text, (name, "sees another side's clue")
        for minor in secrets["minors"]:
            assert minor not in text, (name, minor)


# -- the station ----------------------------------------------------------------------------------


def test_station_answers_exactly_as_the_command_there(server: Served, evening: Path) -> None:
    from typer.testing import CliRunner

    from referee.cli.main import app

    token = server.access.station
    status, there = server.station(["status", "--json"], token)
    assert status == 200 and there["exit"] == 0
    here = CliRunner().invoke(app, ["--db", str(evening), "status", "--json"])
    assert json.loads(there["stdout"])["chips"] == json.loads(here.stdout)["chips"]
    status, there = server.station(["bet", "Zed"], token)
    assert there["exit"] == 2 and there["stdout"] == ""
    assert there["stderr"].startswith("error: ") and there["stderr"].count("\n") == 1
    status, there = server.station(["charge", "give", "Ben", "Flo", "1"], token)
    assert there["exit"] == 0, there
    log = json.loads(CliRunner().invoke(app, ["--db", str(evening), "log", "--json"]).stdout)
    assert log["commands"][-1]["text"] == "charge give Ben Flo 1"


@pytest.mark.parametrize("args", [
    ["--db", "/tmp/other.json", "status"], ["report", "--html", "/tmp/x.html"],
    ["report", "--html=/tmp/x.html"], ["serve"], ["shell"], ["demo"], ["watch"],
    ["new", "--fool", "F", "--seat", "A:I:red", "--seat", "B:II:blue", "--scenario", "/etc/x"],
    ["scenario", "show", "/etc/passwd"], ["scenario", "check", "/etc/passwd", "--powers"],
    ["wager", "new", "Ada", "Cy", "--points", "/etc/x.toml"], ["--debug", "--db=/x", "status"],
    ["hand", "rank", "--from-file", "/etc/passwd"], ["handout", "Ben", "--html=/tmp/x.html"],
])
def test_e54_station_refuses_paths_and_endless_commands(server: Served, evening: Path,
                                                        args: list[str]) -> None:
    before = evening.read_bytes()
    status, there = server.station(args, server.access.station)
    assert status == 200 and there["exit"] == 2
    assert there["stderr"].count("\n") == 1
    assert ("E65" if args[0].startswith("--") else "E54") in there["stderr"]
    assert evening.read_bytes() == before
    assert not Path("/tmp/x.html").exists() or "x.html" not in args[-1]


@pytest.mark.parametrize("args", [
    ["scenario", "show"], ["status", "--json"], ["soul", "list"], ["hand", "rank", "KC", "KW"],
    ["soul", "sell", "Ben", "green", "Gus", "--promise", "--html"],
])
def test_e54_station_runs_what_names_no_file(args: list[str]) -> None:
    from referee.cli.room.station import refusal

    assert refusal(args) is None


def test_station_bad_request_bodies(server: Served) -> None:
    auth = {"Authorization": f"Bearer {server.access.station}"}
    for body in (b"not json", b"{}", b'{"args": "status"}', b'{"args": [1, 2]}'):
        assert server.request("POST", "/station", body, auth)[0] == 400


def test_load_short_pollers_and_two_stations_lose_nothing(server: Served,
                                                          evening: Path) -> None:
    """The short form of benchmarks/serve_load.py: 4 pollers, 2 stations, 20 commands, each a
    chip between two assistants (a Charge would not show on the wall, R39)."""
    import http.client

    from typer.testing import CliRunner

    from tests.cli.conftest import GM

    gm = GM(CliRunner(), evening)
    gm("rise", "Ada")
    gm("chips", "give", "Ada", "Ben", "red:3")
    gm("chips", "give", "Ada", "Flo", "red:3")
    gm("sit", "Ada")

    def helpers(frame: dict[str, Any]) -> dict[str, int]:
        return {s["assistant"]["name"]: s["assistant"]["stack"] for s in frame["seats"]
                if s["assistant"] and s["assistant"]["name"] in ("Ben", "Flo")}

    time.sleep(0.05)
    before = helpers(json.loads(server.get("/frame.json")[2]))
    stop = threading.Event()
    failures: list[str] = []
    seen: list[dict[str, Any]] = []

    def poll() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        etag = ""
        while not stop.is_set():
            conn.request("GET", "/frame.json", headers={"If-None-Match": etag})
            answer = conn.getresponse()
            body = answer.read()
            if answer.status == 200:
                etag = answer.getheader("ETag") or ""
                seen.append(json.loads(body))
            elif answer.status != 304:
                failures.append(f"poll {answer.status}")
            time.sleep(0.02)
        conn.close()

    def station(pairs: list[tuple[str, str]]) -> None:
        for source, target in pairs * 5:
            status, there = server.station(["chips", "give", source, target, "red:1"],
                                           server.access.station)
            if status != 200 or there["exit"] != 0:
                failures.append(f"command {status} {there}")

    pollers = [threading.Thread(target=poll) for _ in range(4)]
    stations = [threading.Thread(target=station, args=([("Ben", "Flo"), ("Flo", "Ben")],)),
                threading.Thread(target=station, args=([("Flo", "Ben"), ("Ben", "Flo")],))]
    for t in pollers + stations:
        t.start()
    for t in stations:
        t.join()
    time.sleep(1.0)  # within a second every poller sees the last change
    stop.set()
    for t in pollers:
        t.join()
    assert failures == []
    final = helpers(json.loads(server.get("/frame.json")[2]))
    assert final == before  # 20 moves that cancel out: none lost, none doubled
    from referee.cli.main import app

    log = json.loads(CliRunner().invoke(app, ["--db", str(evening), "log", "--json"]).stdout)
    assert sum(c["text"].endswith("red:1") for c in log["commands"]) == 20
    assert seen and helpers(seen[-1]) == final


def test_e53_any_address_is_a_page_or_not_found(demo_db: Path, tmp_path: Path) -> None:
    from urllib.parse import quote, urlsplit

    from hypothesis import given, settings
    from hypothesis import strategies as st

    evening = copy_evening(demo_db, tmp_path / "fuzz")
    with served(evening) as s:
        stored = evening.read_bytes()
        sheets = {f"/a/{t}" for t in s.access.assistants.values()}

        @settings(max_examples=examples(60))
        @given(st.text(st.characters(min_codepoint=32, max_codepoint=0x2FF), max_size=60),
               st.sampled_from(["GET", "HEAD", "POST", "PUT", "DELETE"]))
        def check(path: str, method: str) -> None:
            target = "/" + quote(path, safe="/%?&=.")
            status, _, body = s.request(method, target, b"" if method != "GET" else None)
            # http.server reads a leading "//" as "/" (no host can be smuggled in)
            route = urlsplit("/" + target.lstrip("/")).path
            if route in ("/", "/frame.json") or route in sheets:
                assert status in (200, 405)
            elif route == "/station":
                assert status in (400, 401, 405)
            else:
                assert status == 404, (target, status)
            assert stored[:200] not in body  # never the evening file itself
            assert evening.read_bytes() == stored

        check()


def test_corrupt_evening_keeps_the_last_good_frame_and_says_why(server: Served,
                                                                evening: Path) -> None:
    good = json.loads(server.get("/frame.json")[2])
    evening.write_text("{ not json")
    status, _, body = server.get("/frame.json")
    frame = json.loads(body)
    assert status == 200 and frame["seats"] == good["seats"]
    assert "corrupt" in frame["problem"]


def test_a_bug_in_a_route_is_a_500_line_not_a_hang_up(server: Served,
                                                      capfd: pytest.CaptureFixture[str],
                                                      evening: Path) -> None:
    def broken(path: Path) -> dict[str, Any]:
        raise RuntimeError("boom")

    server.server.source.build = broken
    evening.write_text(evening.read_text() + " ")  # a change: the frame is rebuilt
    status, _, body = server.get("/frame.json")
    assert status == 500 and body.decode().startswith("internal error")
    err = ""
    for _ in range(100):  # the traceback is printed just after the answer is sent
        err += capfd.readouterr().err
        if "RuntimeError: boom" in err:
            break
        time.sleep(0.05)
    assert "RuntimeError: boom" in err


# -- tokens: a new evening, new keys; links only when asked (E66, E67) -----------------------


NEW_FORCE = ["new", "--fool", "Max", "--seat", "Ada:XVI:red:Ben:IX", "--seat",
             "Cy:III:blue:Zoe:II", "--force"]


@pytest.mark.parametrize("scheme", ["Bearer", "bearer", "BEARER", "bEaReR"])
def test_e66_the_bearer_scheme_is_read_in_any_case(server: Served, scheme: str) -> None:
    status, _, body = server.request(
        "POST", "/station", json.dumps({"args": ["status", "--json"]}).encode(),
        {"Authorization": f"{scheme}  {server.access.station} "})
    assert status == 200 and json.loads(body)["exit"] == 0
    status, _, _ = server.request("POST", "/station", b'{"args": ["status"]}',
                                  {"Authorization": f"Basic {server.access.station}"})
    assert status == 401


def test_e66_new_force_replaces_every_token_and_new_assistants_have_theirs(
        server: Served, evening: Path) -> None:
    from typer.testing import CliRunner

    from referee.serve import access
    from tests.cli.conftest import GM

    old = server.access
    out = GM(CliRunner(), evening)(*NEW_FORCE).output
    assert "Every link and the station token are new" in out and "E66" in out
    new = access.load_access(evening)
    assert new is not None and set(new.assistants) == {"Ben", "Zoe"}  # Zoe's, at once
    assert new.station != old.station and new.url == old.url
    assert not {new.station, *new.assistants.values()} & {old.station, *old.assistants.values()}
    for token in old.assistants.values():  # old links open nothing, and say why
        status, _, body = server.get(f"/a/{token}")
        assert status == 404 and b"replaced" in body and b"Clue sheet" not in body
    for name, token in new.assistants.items():  # the running server knows the new ones
        status, _, body = server.get(f"/a/{token}")
        assert status == 200 and f"Clue sheet: {name}" in body.decode()
    assert server.station(["status"], old.station)[0] == 403
    assert server.station(["status"], new.station)[0] == 200


def test_e66_a_refused_new_keeps_every_token(server: Served, evening: Path) -> None:
    from typer.testing import CliRunner

    from referee.serve import access
    from tests.cli.conftest import GM

    text = access.access_path(evening).read_bytes()
    GM(CliRunner(), evening).fails(*NEW_FORCE[:-1])  # no --force: refused (the evening stands)
    GM(CliRunner(), evening).fails("new", "--fool", "Max", "--seat", "Ada:XVI:red:Ben:IX",
                                   "--seat", "Cy:XVI:blue", "--force")  # two share XVI
    assert access.access_path(evening).read_bytes() == text


def test_e66_new_without_links_handed_out_makes_no_access_file(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from referee.serve import access
    from tests.cli.conftest import GM

    db = tmp_path / "fresh.json"
    out = GM(CliRunner(), db)(*NEW_FORCE[:-1]).output
    assert "station token" not in out and not access.access_path(db).exists()


def test_e66_the_station_that_ran_new_force_gets_the_new_token(server: Served,
                                                               evening: Path) -> None:
    from referee.serve import access

    old = server.access.station
    status, there = server.station(NEW_FORCE, old)
    assert status == 200 and there["exit"] == 0, there
    new = access.load_access(evening)
    assert new is not None and there["token"] == new.station != old
    status, there = server.station(["status", "--json"], new.station)
    assert status == 200 and "token" not in there  # said once, when it changed


def test_e67_links_prints_every_link_and_the_station_token(evening: Path) -> None:
    from typer.testing import CliRunner

    from referee.serve import access as serve_access
    from tests.cli.conftest import GM

    gm = GM(CliRunner(), evening)
    out = gm("links").output
    access = serve_access.load_access(evening)
    assert access is not None
    for name, token in access.assistants.items():
        assert re.search(rf"^  {name} +http://127\.0\.0\.1:8765/a/{token}$", out, re.M), name
    assert f"--token {access.station}" in out
    assert "only this machine opens" in out and "E70" in out  # a phone cannot open them
    one = gm("links", "di").output  # a name as everywhere: any case, a unique prefix
    assert access.assistants["Di"] in one and access.assistants["Ben"] not in one
    assert access.station not in one
    # E220: and the GM's remote, the station token in its fragment
    assert re.search(rf"^  remote +http://127\.0\.0\.1:8765/gm#{access.station} ", out, re.M)
    assert gm("links", "--url", "http://192.168.1.20:8765").output.count("192.168.1.20") == 6
    data = gm.json("links")
    assert data["station"] == access.station and len(data["links"]) == 4
    assert "only this machine" not in gm("links", "--url", "http://10.0.0.5:8765").output
    assert gm("links").output == out  # the same links every time (E52)
    assert "Zed" in gm.fails("links", "Zed")
    assert "--url" in gm.fails("links", "--url", "192.168.1.20")


# -- QR codes in the terminal scan on light and dark terminals (E70) --------------------------

LINK = "http://192.168.1.20:8765/a/" + "Q" * 32
ANSI = re.compile(r"\x1b\[(\d+)(?:;(\d+))?m|(.)", re.S)


def _screen(text: str, theme: str) -> list[list[int]]:
    """The QR code as a terminal of ``theme`` shows it: a grey level (0 black, 255 white) per
    module, two modules per character (the upper half block in the text colour, the lower half
    in the ground colour), the terminal's own colours wherever none is set."""
    default_fg, default_bg = (255, 0) if theme == "dark" else (0, 255)
    levels = {"30": 0, "97": 255, "37": 200, "40": 0, "107": 255, "47": 200}
    rows: list[list[int]] = []
    for line in text.rstrip("\n").split("\n"):
        fg, bg = default_fg, default_bg
        top: list[int] = []
        bottom: list[int] = []
        for m in ANSI.finditer(line):
            if m.group(3) is None:
                for code in filter(None, m.groups()[:2]):
                    if code == "0":
                        fg, bg = default_fg, default_bg
                    elif code.startswith(("3", "9")):
                        fg = levels[code]
                    else:
                        bg = levels[code]
                continue
            ch = m.group(3)
            up = {"▀": fg, "▄": bg, "█": fg, " ": bg}[ch]
            down = {"▀": bg, "▄": fg, "█": fg, " ": bg}[ch]
            top.append(up)
            bottom.append(down)
        rows += [top, bottom]
    return rows


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_e70_terminal_qr_is_the_code_black_on_white_on_any_terminal(theme: str) -> None:
    import segno

    from referee.cli.room.serving import qr_text

    want = [[0 if dark else 255 for dark in row]
            for row in segno.make(LINK, error="m").matrix_iter(scale=1, border=4)]
    shown = _screen(qr_text(LINK), theme)
    assert shown[:len(want)] == want  # every module, the quiet zone white, on either theme
    assert all(v == 255 for row in shown[len(want):] for v in row)  # the half row below


def test_e70_the_check_sees_a_code_drawn_in_the_terminals_own_colours() -> None:
    """Without colours (as segno draws it, and as NO_COLOR asks) a light terminal shows the
    code inverted (segno draws the light modules in the text colour): the check above would
    fail on it."""
    import segno

    from referee.cli.room.serving import qr_text

    want = [[0 if dark else 255 for dark in row]
            for row in segno.make(LINK, error="m").matrix_iter(scale=1, border=4)]
    plain = qr_text(LINK, colour=False)
    assert "\x1b" not in plain
    assert _screen(plain, "light")[:len(want)] != want
    assert _screen(plain, "dark")[:len(want)] == want


@pytest.mark.system
@pytest.mark.parametrize("words", [["links", "--qr"], ["links", "Di", "--qr"]])
def test_e70_a_code_printed_into_a_pipe_is_drawn_in_characters(demo_db: Path, tmp_path: Path,
                                                               words: list[str]) -> None:
    """Into a pipe (and so through a station, whose answer is captured) the colours are
    stripped: the code is drawn in the characters themselves, module for module (it was a
    solid block of upper halves)."""
    import os
    import subprocess
    import sys

    import segno

    evening = copy_evening(demo_db, tmp_path / "pipe")
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    done = subprocess.run([sys.executable, "-m", "referee", "--db", str(evening), *words],
                          capture_output=True, text=True, timeout=60,
                          env={**env, "PYTHONIOENCODING": "utf-8"})
    assert done.returncode == 0, done.stderr
    link = re.search(r"(http://\S+/a/\S+)", done.stdout)
    assert link
    lines = [ln for ln in done.stdout.splitlines() if set(ln) <= set("▀▄█ ") and ln.strip()]
    want = [[0 if dark else 255 for dark in row]
            for row in segno.make(link.group(1), error="m").matrix_iter(scale=1, border=4)]
    width = len(want[0])
    code = [ln.ljust(width) for ln in lines[: (len(want) + 1) // 2]]
    shown = _screen("\n".join(code), "dark")
    assert "\x1b" not in done.stdout and shown[4:len(want) - 4] == want[4:len(want) - 4]


def _scan(rows: list[list[int]], image: Path) -> str:
    """What zbarimg reads off the picture of ``rows`` (six pixels a module)."""
    import subprocess

    scale = 6
    width = len(rows[0]) * scale
    pixels = bytearray()
    for row in rows:
        pixels += bytes(v for v in row for _ in range(scale)) * scale
    image.write_bytes(f"P5 {width} {len(rows) * scale} 255\n".encode() + bytes(pixels))
    done = subprocess.run(["zbarimg", "--quiet", "--raw", str(image)], capture_output=True,
                          text=True, timeout=60)
    return done.stdout.strip()


@pytest.mark.system
@pytest.mark.parametrize("theme", ["light", "dark"])
def test_e70_terminal_qr_scans(theme: str, tmp_path: Path) -> None:
    """The terminal's picture, read by a real QR decoder (zbarimg), gives the link back; the
    code in the terminal's own colours does not scan on a light terminal."""
    import shutil

    from referee.cli.room.serving import qr_text

    if shutil.which("zbarimg") is None:
        pytest.skip("zbarimg is not installed (apt-get install zbar-tools)")
    assert _scan(_screen(qr_text(LINK), theme), tmp_path / "code.pgm") == LINK
    plain = _scan(_screen(qr_text(LINK, colour=False), theme), tmp_path / "plain.pgm")
    assert (plain == LINK) == (theme == "dark")


def test_e66_a_token_replaced_by_another_hand_is_never_handed_out(server: Served,
                                                                 evening: Path,
                                                                 monkeypatch: pytest.MonkeyPatch
                                                                 ) -> None:
    """Tokens taken back while a station's line runs (`serve --new-tokens` at the serving
    machine) are not given to that station in its answer."""
    from referee.cli.room import station
    from referee.serve import access

    real = station.run_remote

    def meanwhile(*args: Any, **kwargs: Any) -> tuple[int, str, str]:
        access.ensure_access(evening, [], renew=True)
        return real(*args, **kwargs)

    monkeypatch.setattr(station, "run_remote", meanwhile)
    status, there = server.station(["status", "--json"], server.access.station)
    assert status == 200 and there["exit"] == 0 and "token" not in there


def test_a_frame_s_etag_ignores_its_running_clock_and_nothing_else() -> None:
    from referee.serve.frame import frame_etag

    frame = {"clock": 59, "seats": [{"name": "Ada", "stack": 4}], "limit_reached": False}
    assert frame_etag(frame) == frame_etag({**frame, "clock": 61})
    assert frame_etag(frame) != frame_etag({**frame, "limit_reached": True})
    assert frame_etag(frame) != frame_etag({**frame, "seats": [{"name": "Ada", "stack": 5}]})
