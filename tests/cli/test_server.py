"""The HTTP side of `referee serve` as an attacker meets it: headers on every answer, no
HTTP/0.9, the caps on connections, the idle and request timeouts, TCP_NODELAY, and a
Content-Security-Policy that covers exactly the inline scripts and styles served (E68,
E69)."""

from __future__ import annotations

import base64
import hashlib
import re
import select
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.cli.serving import Served, copy_evening, demo_db, served

assert demo_db  # the shared demo evening, a fixture

#: The headers every answer carries (E53, E68), written out here, not read from the server.
EVERY_ANSWER = {"x-frame-options": "DENY", "x-content-type-options": "nosniff",
                "referrer-policy": "no-referrer", "cross-origin-resource-policy": "same-origin"}


@pytest.fixture
def server(demo_db: Path, tmp_path: Path) -> Iterator[Served]:
    with served(copy_evening(demo_db, tmp_path / "night")) as s:
        yield s


def raw(port: int, data: bytes, *, wait: float = 10.0) -> bytes:
    """What the server writes back to ``data`` sent on a fresh connection, until it closes."""
    with socket.create_connection(("127.0.0.1", port), timeout=wait) as sock:
        sock.sendall(data)
        out = b""
        try:
            while chunk := sock.recv(65536):
                out += chunk
        except TimeoutError:
            pass
        return out


def head_of(answer: bytes) -> tuple[str, dict[str, str]]:
    """The status line and the headers of a raw HTTP answer."""
    head = answer.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")
    headers = {}
    for line in head[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return head[0], headers


def assert_guarded(answer: bytes) -> str:
    """An answer with a status line, every security header and a policy with nothing inline."""
    status, headers = head_of(answer)
    assert re.fullmatch(r"HTTP/1\.[01] \d{3} .*", status), answer[:200]
    for name, value in EVERY_ANSWER.items():
        assert headers.get(name) == value, (status, name)
    policy = headers["content-security-policy"]
    assert "frame-ancestors 'none'" in policy and "unsafe-inline" not in policy
    return status


# -- headers on every answer, error pages too (E68) -------------------------------------------


@pytest.mark.parametrize("request_bytes, code", [
    (b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 200),
    (b"GET /frame.json HTTP/1.0\r\n\r\n", 200),
    (b"GET /nowhere HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 404),
    (b"GET /a/" + b"x" * 32 + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 404),
    (b"DELETE / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 405),
    (b"FROB / HTTP/1.1\r\nHost: x\r\n\r\n", 501),                     # no such method
    (b"GET / HTTP/2.0\r\n\r\n", 505),                      # no such version
    (b"GET / HTTP/x.y\r\n\r\n", 400),                      # a broken version
    (b"nonsense\r\n\r\n", 400),                            # no request line at all
    (b"GET /" + b"a" * 70000 + b" HTTP/1.1\r\n\r\n", 414),  # a line too long
    (b"GET / HTTP/1.1\r\nHost: x\r\n" + b"X-A: b\r\n" * 120 + b"\r\n", 431),  # too many headers
    (b"POST /station HTTP/1.1\r\nHost: x\r\nContent-Length: 20000\r\n\r\n" + b"x" * 20000, 413),
    (b"POST /station HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n", 411),
    (b"POST /station HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}", 401),
])
def test_e68_every_answer_carries_the_security_headers(server: Served, request_bytes: bytes,
                                                       code: int) -> None:
    status = assert_guarded(raw(server.port, request_bytes))
    assert status.split()[1] == str(code), status


def test_e68_no_http09_answer(server: Served) -> None:
    """`GET /` without a version gets no bare body (HTTP/0.9 has no status line and no
    headers, so no protection): a refusal with every header instead."""
    answer = raw(server.port, b"GET /\r\n")
    status = assert_guarded(answer)
    assert status.split()[1] == "400" and b"HTTP/0.9" in answer
    assert b"<html" not in answer.lower() and b"Fool" not in answer


# -- limits (E68) ------------------------------------------------------------------------------


def _wait(predicate: object, timeout: float = 10.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():  # type: ignore[operator]
            return True
        time.sleep(0.02)
    return False


def _held(port: int, n: int, start: bytes = b"") -> list[socket.socket]:
    """``n`` connections to the server, each having sent ``start`` (nothing: silent)."""
    out = []
    for _ in range(n):
        sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        if start:
            sock.sendall(start)
        out.append(sock)
    return out


def _closed_by_server(sock: socket.socket) -> bool:
    sock.settimeout(5)
    try:
        return sock.recv(100) == b""
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


def test_e191_a_full_server_closes_its_longest_silent_connection(
        server: Served, monkeypatch: pytest.MonkeyPatch) -> None:
    """Silent connections never lock anyone out (the old server answered 503 to everyone
    while 128 sockets sent nothing): the one silent the longest makes room."""
    from referee.serve import connections

    monkeypatch.setattr(connections, "MAX_CONNECTIONS", 4)
    held = _held(server.port, 4)
    try:
        assert _wait(lambda: server.server.open == 4)
        answer = raw(server.port, b"GET / HTTP/1.0\r\n\r\n")
        assert assert_guarded(answer).split()[1] == "200"
        assert _closed_by_server(held[0]) and server.server.refused == 0
        assert server.server.limits.evicted >= 1
    finally:
        for sock in held:
            sock.close()
    assert _wait(lambda: server.server.open == 0)  # every slot is given back


def test_e68_busy_connections_are_capped_and_the_rest_told_so(
        server: Served, monkeypatch: pytest.MonkeyPatch) -> None:
    """When every connection is mid-request, a newcomer is told 503, with every header."""
    from referee.serve import connections

    monkeypatch.setattr(connections, "MAX_CONNECTIONS", 4)
    held = _held(server.port, 4, b"GET / HTTP/1.1\r\n")
    try:
        assert _wait(lambda: server.server.open == 4)
        time.sleep(0.1)
        answer = raw(server.port, b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        assert assert_guarded(answer).split()[1] == "503"
        assert b"Retry-After: 5" in answer and server.server.refused == 1
    finally:
        for sock in held:
            sock.close()
    assert _wait(lambda: server.server.open == 0)
    assert assert_guarded(raw(server.port, b"GET / HTTP/1.0\r\n\r\n")).split()[1] == "200"


def test_e68_one_address_holds_at_most_its_share(server: Served,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    from referee.serve import connections

    monkeypatch.setattr(connections, "MAX_PER_ADDRESS", 3)
    held = _held(server.port, 3, b"GET / HTTP/1.1\r\n")
    try:
        assert _wait(lambda: server.server.open == 3)
        time.sleep(0.1)
        assert assert_guarded(raw(server.port, b"GET / HTTP/1.0\r\n\r\n")).split()[1] == "503"
    finally:
        for sock in held:
            sock.close()
    held = _held(server.port, 3)  # silent ones make room for their own address
    try:
        assert _wait(lambda: server.server.open == 3)
        assert assert_guarded(raw(server.port, b"GET / HTTP/1.0\r\n\r\n")).split()[1] == "200"
        assert _closed_by_server(held[0])
    finally:
        for sock in held:
            sock.close()


def test_e191_many_silent_connections_from_one_address_and_the_wall_answers(
        server: Served) -> None:
    """300 sockets that send nothing (benchmarks/serve_load.py holds 1,000), then the wall's
    page and frame: answered, none refused (the old server answered 503 past 128)."""
    held = _held(server.port, 300)
    try:
        assert _wait(lambda: server.server.open >= 300)
        for path in ("/", "/frame.json"):
            status, _, _ = server.get(path)
            assert status == 200, path
        assert server.server.refused == 0 and server.server.limits.evicted == 0
        assert all(not _closed_by_server_now(s) for s in held[:10])  # all still held
    finally:
        for sock in held:
            sock.close()


def _closed_by_server_now(sock: socket.socket) -> bool:
    return bool(select.select([sock], [], [], 0)[0]) and sock.recv(1) == b""


@pytest.mark.parametrize("head, why", [
    (b"Content-Length: 2\r\nContent-Length: 2\r\n", "the same length twice"),
    (b"Content-Length: 2\r\nContent-Length: 3\r\n", "two lengths"),
    (b"Content-Length: 2, 2\r\n", "a list of lengths"),
    (b"Content-Length: abc\r\n", "no number"),
    (b"Content-Length: -2\r\n", "a negative number"),
])
def test_e191_a_malformed_or_duplicate_length_is_400(server: Served, head: bytes,
                                                     why: str) -> None:
    """The request-smuggling class: a length a server and a proxy could read two ways is
    refused (the old server used the first of two, and answered `abc` with 413)."""
    answer = raw(server.port, b"POST /station HTTP/1.1\r\nHost: x\r\n" + head
                 + b"Connection: close\r\n\r\n{}")
    assert assert_guarded(answer).split()[1] == "400", why
    assert b"{}" not in answer.split(b"\r\n\r\n", 1)[1]


def test_e191_a_huge_expect_is_413_without_100_continue(server: Served) -> None:
    """A client that waits for `100 Continue` before sending 9,999,999 bytes is told 413
    at once, and never invited to send (the old server said 100 Continue, waited 10 s,
    then hung up)."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(b"POST /station HTTP/1.1\r\nHost: x\r\nContent-Length: 9999999\r\n"
                     b"Expect: 100-continue\r\n\r\n")
        out = b""
        start = time.monotonic()
        while b"\r\n\r\n" not in out and time.monotonic() - start < 5:
            chunk = sock.recv(65536)
            if not chunk:
                break
            out += chunk
    assert not out.startswith(b"HTTP/1.1 100") and b"100 Continue" not in out
    assert assert_guarded(out).split()[1] == "413"


def test_e191_a_request_without_host_is_400(server: Served) -> None:
    """HTTP/1.1 asks every request for a Host; h11 refuses one without, in words."""
    answer = raw(server.port, b"GET / HTTP/1.1\r\n\r\n")
    assert assert_guarded(answer).split()[1] == "400" and b"Host" in answer


def test_e68_a_silent_connection_is_closed(server: Served,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    from referee.serve import connections

    monkeypatch.setattr(connections, "IDLE_TIMEOUT", 0.5)
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        start = time.monotonic()
        assert sock.recv(100) == b""  # the server hung up
        assert time.monotonic() - start < 5
    assert _wait(lambda: server.server.open == 0)


def test_e68_a_dripping_request_is_cut(server: Served, monkeypatch: pytest.MonkeyPatch) -> None:
    """A byte every 0.2 s never trips a per-read timeout: the whole request has a deadline."""
    from referee.serve import connections

    monkeypatch.setattr(connections, "REQUEST_TIME", 1.0)
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\n")
        start = time.monotonic()
        cut = False
        while not cut and time.monotonic() - start < 8:
            if select.select([sock], [], [], 0.2)[0]:
                cut = True  # the server hung up (or answered, then hung up)
                break
            try:
                sock.sendall(b"X")
            except OSError:
                cut = True
        assert cut and time.monotonic() - start < 5
    assert _wait(lambda: server.server.open == 0)


def test_e68_a_slow_station_command_is_not_cut(server: Served,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """The deadline is for sending the request; the command then takes as long as it needs."""
    from referee.cli.room import station
    from referee.serve import connections

    monkeypatch.setattr(connections, "REQUEST_TIME", 0.3)
    real = station.run_remote

    def slow(*args: object, **kwargs: object) -> tuple[int, str, str]:
        time.sleep(1.0)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(server.server, "station", slow)
    status, there = server.station(["status", "--json"], server.access.station)
    assert status == 200 and there["exit"] == 0


def test_e68_answers_leave_without_nagle_delay(server: Served) -> None:
    with socket.create_connection(("127.0.0.1", server.port), timeout=10):
        assert _wait(lambda: server.server.open == 1)
        conn = next(iter(server.server.limits.held))
        sock = conn.transport.get_extra_info("socket")
        assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) != 0


# -- the Content-Security-Policy (E69) ----------------------------------------------------------


def uncovered(page: str, policy: str) -> list[str]:
    """Every inline script or style of ``page`` that ``policy`` does not allow (by its nonce
    or its hash), and every inline handler or style attribute (which no policy here allows):
    read with a parser of this test's own, not the server's."""
    def allowed(directive: str) -> set[str]:
        for part in policy.split(";"):
            words = part.split()
            if words and words[0] == directive:
                return set(words[1:])
        return set()

    found = []
    text = page.replace("\r\n", "\n").replace("\r", "\n")
    for kind in ("script", "style"):
        sources = allowed(f"{kind}-src")
        assert "'unsafe-inline'" not in sources
        for attrs, body in re.findall(rf"<{kind}\b([^>]*)>(.*?)</{kind}\s*>", text, re.S | re.I):
            if kind == "script" and re.search(r"\bsrc\s*=", attrs):
                continue
            nonce = re.search(r'\bnonce="([^"]*)"', attrs)
            digest = base64.b64encode(hashlib.sha256(body.encode()).digest()).decode()
            if f"'sha256-{digest}'" not in sources and not (
                    nonce and nonce.group(1) and f"'nonce-{nonce.group(1)}'" in sources):
                found.append(f"<{kind}{attrs}> {body[:40]!r}")
    for tag in re.findall(r"<[a-zA-Z][^>]*>", text):
        if re.search(r"\s(on[a-z]+|style)\s*=", tag, re.I):
            found.append(tag[:60])
    return found


def _pages(server: Served) -> dict[str, tuple[str, str]]:
    out = {}
    for path in ["/", *(f"/a/{t}" for t in server.access.assistants.values())]:
        status, headers, body = server.get(path)
        assert status == 200, path
        out[path] = body.decode(), headers["content-security-policy"]
    return out


def test_e69_every_inline_script_and_style_served_is_in_the_policy(server: Served) -> None:
    pages = _pages(server)
    assert len(pages) == 5
    for path, (page, policy) in pages.items():
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
        assert "<script" in page and "<style" in page, path  # there is something to cover
        assert uncovered(page, policy) == [], path


def test_e69_a_planted_inline_script_or_handler_is_caught(server: Served) -> None:
    """The check above can fail: the same policy with a script, a style or an attribute
    added to the page."""
    page, policy = _pages(server)["/"]
    for planted in ("<script>alert(1)</script>", "<style>b{color:red}</style>",
                    '<b onclick="go()">x</b>', '<i style="color:red">x</i>',
                    '<script nonce="guessed">alert(1)</script>'):
        assert uncovered(page.replace("</body>", planted + "</body>"), policy), planted


def test_e69_each_answer_has_its_own_nonce(server: Served) -> None:
    nonces = set()
    for _ in range(3):
        for path, (_, policy) in _pages(server).items():
            found = re.findall(r"'nonce-([A-Za-z0-9_-]+)'", policy)
            assert len(set(found)) == 1 and len(found[0]) >= 22, (path, policy)
            nonces.add(found[0])
    assert len(nonces) == 15  # never two answers alike
    _, headers, _ = server.get("/frame.json")  # no page: nothing may run at all
    assert "nonce" not in headers["content-security-policy"]
    assert "default-src 'none'" in headers["content-security-policy"]


def test_e69_the_policy_follows_the_template_as_changed(server: Served,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A script or style added to the table page's template later is covered without an edit
    to the server."""
    from referee.serve import pages

    monkeypatch.setattr(pages, "_TEMPLATE", "<html><head><style>a{}</style><STYLE>b{}</STYLE>"
                        "</head><body><script>one()</script><script\ttype=module>two()"
                        "</script>{{TITLE}}</body></html>")
    _, headers, body = server.get("/")
    page = body.decode()
    assert "one()" in page and page.count("nonce=") == 4
    assert uncovered(page, headers["content-security-policy"]) == []


def test_e69_a_script_smuggled_in_through_the_data_would_not_run(
        server: Served, monkeypatch: pytest.MonkeyPatch) -> None:
    """Were the escaping of a name ever broken, what it brings into the page has no nonce:
    the nonce is given to the template before any name goes in."""
    from referee.serve import pages

    evil = "</script><script>window.pwned = 1</script><style>body{}</style>"
    monkeypatch.setattr(pages, "_inline_json", lambda data: "null" if data is not None and
                        not isinstance(data, str) else f'"{evil}"')
    monkeypatch.setattr(pages.html, "escape", lambda text, quote=True: evil)
    _, headers, body = server.get("/")
    page = body.decode()
    assert "window.pwned = 1" in page
    found = uncovered(page, headers["content-security-policy"])
    assert any("window.pwned" in f for f in found) and any("body{}" in f for f in found)


# -- in a real browser (skipped without Chromium) ------------------------------------------------

VIOLATIONS = ("window.violations = []; document.addEventListener('securitypolicyviolation', "
              "function (e) { window.violations.push(e.violatedDirective + ' ' + "
              "e.blockedURI); });")


@pytest.fixture
def browser() -> Iterator[object]:
    from tests.browser import chromium, shared

    if chromium() is None:
        pytest.skip("headless Chromium is not installed (apt-get install chromium)")
    b = shared()
    try:
        yield b
    finally:
        b.blank()


def _open_watching(browser: object, url: str, width: int, height: int) -> None:
    """Open ``url``, then load it again with a listener for CSP violations put in first."""
    from tests.browser import Browser

    assert isinstance(browser, Browser)
    browser.open(url, width, height)
    browser.page("Page.addScriptToEvaluateOnNewDocument", {"source": VIOLATIONS})
    browser.evaluate("window.loadedOnce = true")
    browser.page("Page.reload")
    browser.wait_for("window.violations !== undefined && !window.loadedOnce && "
                     "document.readyState === 'complete'")


@pytest.mark.system
def test_e69_served_pages_run_in_chromium_with_no_policy_violation(server: Served,
                                                                   browser: object) -> None:
    from tests.browser import Browser

    assert isinstance(browser, Browser)
    _open_watching(browser, f"http://127.0.0.1:{server.port}/", 1280, 720)
    # the script ran (it draws every seat), and the page's style applies (no browser gives
    # a body no margin of its own accord)
    browser.wait_for("['Cy', 'Ed', 'Ada', 'Gus'].every(function (n) { return "
                     "document.body.innerText.indexOf(n) >= 0; })")
    time.sleep(1.0)  # a poll or two under the policy
    assert browser.evaluate("window.violations") == []
    assert browser.evaluate("getComputedStyle(document.body).margin") == "0px"
    _open_watching(browser, f"http://127.0.0.1:{server.port}/a/"
                   f"{server.access.assistants['Ben']}", 390, 844)
    assert "Clue sheet: Ben" in browser.evaluate("document.body.textContent")
    assert browser.evaluate("window.violations") == []
    # and a script the policy does not list is blocked, and reported
    browser.evaluate("var s = document.createElement('script'); s.textContent = "
                     "'window.ran = 1'; document.body.appendChild(s);")
    assert browser.evaluate("window.ran") is None
    assert browser.evaluate("window.violations.length") == 1


@pytest.mark.system
def test_e66_a_phone_whose_link_was_replaced_says_so(server: Served, browser: object) -> None:
    from referee.serve import access
    from tests.browser import Browser

    assert isinstance(browser, Browser)
    browser.open(f"http://127.0.0.1:{server.port}/a/{server.access.assistants['Hal']}",
                 390, 844)
    body = "document.body.innerText"  # what the screen shows (no script text)
    assert "Clue sheet: Hal" in browser.evaluate(body)
    assert "opens no sheet" not in browser.evaluate(body)
    access.ensure_access(server.evening, ["Ben", "Di", "Flo", "Hal"], renew=True)
    seconds = browser.wait_for(f"{body}.indexOf('opens no sheet any more') >= 0", timeout=6)
    assert seconds < 6
    assert "Clue sheet" not in browser.evaluate(body)  # the old sheet is gone from the screen
    assert "ask the GM for your link" in browser.evaluate(body)


@pytest.mark.system
@pytest.mark.parametrize("words", [["links"], ["status"], ["room", "say", "Supper at nine"]])
def test_e191_only_serve_loads_the_server_stack(demo_db: Path, tmp_path: Path,
                                                words: list[str]) -> None:
    """uvicorn, h11 and asyncio are loaded by `serve` alone (one-shot commands start as
    fast as before), `links` and the wall's commands included."""
    import os
    import subprocess
    import sys

    evening = copy_evening(demo_db, tmp_path / "n")
    probe = ("import runpy, sys\n"
             "sys.argv = ['referee', '--db', sys.argv[1], *sys.argv[2:]]\n"
             "try:\n    runpy.run_module('referee', run_name='__main__')\n"
             "except SystemExit:\n    pass\n"
             "finally:\n"
             "    print(sorted(m for m in ('uvicorn', 'h11', 'asyncio', 'referee.serve.server')"
             " if m in sys.modules), file=sys.stderr)\n")
    done = subprocess.run([sys.executable, "-c", probe, str(evening), *words],
                          capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONIOENCODING": "utf-8"})
    assert done.stderr.strip().splitlines()[-1] == "[]", done.stderr
