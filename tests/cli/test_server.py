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
    (b"GET /nowhere HTTP/1.1\r\nConnection: close\r\n\r\n", 404),
    (b"GET /a/" + b"x" * 32 + b" HTTP/1.1\r\nConnection: close\r\n\r\n", 404),
    (b"DELETE / HTTP/1.1\r\nConnection: close\r\n\r\n", 405),
    (b"FROB / HTTP/1.1\r\n\r\n", 501),                     # no such method
    (b"GET / HTTP/2.0\r\n\r\n", 505),                      # no such version
    (b"GET / HTTP/x.y\r\n\r\n", 400),                      # a broken version
    (b"nonsense\r\n\r\n", 400),                            # no request line at all
    (b"GET /" + b"a" * 70000 + b" HTTP/1.1\r\n\r\n", 414),  # a line too long
    (b"GET / HTTP/1.1\r\n" + b"X-A: b\r\n" * 120 + b"\r\n", 431),  # too many headers
    (b"POST /station HTTP/1.1\r\nContent-Length: 20000\r\n\r\n" + b"x" * 20000, 413),
    (b"POST /station HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", 411),
    (b"POST /station HTTP/1.1\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}", 401),
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


def test_e68_connections_are_capped_and_the_rest_told_so(
        server: Served, monkeypatch: pytest.MonkeyPatch) -> None:
    from referee.serve import server as http

    monkeypatch.setattr(http, "MAX_CONNECTIONS", 4)
    held = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(4)]
    try:
        assert _wait(lambda: server.server.open == 4)
        answer = raw(server.port, b"GET / HTTP/1.1\r\n\r\n")
        assert assert_guarded(answer).split()[1] == "503"
        assert b"Retry-After: 5" in answer and server.server.refused == 1
    finally:
        for sock in held:
            sock.close()
    assert _wait(lambda: server.server.open == 0)  # every slot is given back
    assert assert_guarded(raw(server.port, b"GET / HTTP/1.0\r\n\r\n")).split()[1] == "200"


def test_e68_one_address_holds_at_most_its_share(server: Served,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    from referee.serve import server as http

    monkeypatch.setattr(http, "MAX_PER_ADDRESS", 3)
    monkeypatch.setattr(http, "_is_local", lambda host: False)  # as if from the room's network
    held = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(3)]
    try:
        assert _wait(lambda: server.server.open == 3)
        assert assert_guarded(raw(server.port, b"GET / HTTP/1.0\r\n\r\n")).split()[1] == "503"
    finally:
        for sock in held:
            sock.close()


def test_e68_a_silent_connection_is_closed(server: Served,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    from referee.serve import server as http

    monkeypatch.setattr(http.Handler, "timeout", 0.5)
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        start = time.monotonic()
        assert sock.recv(100) == b""  # the server hung up
        assert time.monotonic() - start < 5
    assert _wait(lambda: server.server.open == 0)


def test_e68_a_dripping_request_is_cut(server: Served, monkeypatch: pytest.MonkeyPatch) -> None:
    """A byte every 0.2 s never trips a per-read timeout: the whole request has a deadline."""
    from referee.serve import server as http

    monkeypatch.setattr(http, "REQUEST_TIME", 1.0)
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
    from referee.cli import station
    from referee.serve import server as http

    monkeypatch.setattr(http, "REQUEST_TIME", 0.3)
    real = station.run_remote

    def slow(*args: object, **kwargs: object) -> tuple[int, str, str]:
        time.sleep(1.0)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(station, "run_remote", slow)
    status, there = server.station(["status", "--json"], server.access.station)
    assert status == 200 and there["exit"] == 0


def test_e68_answers_leave_without_nagle_delay(demo_db: Path, tmp_path: Path) -> None:
    from referee.cli.wall import server_bug
    from referee.serve.server import make_server

    srv = make_server(copy_evening(demo_db, tmp_path / "n"), "127.0.0.1", 0, station=None,
                      bug=server_bug)
    try:
        client = socket.create_connection(srv.server_address)
        sock, _ = srv.get_request()
        assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) != 0
        sock.close()
        client.close()
    finally:
        srv.server_close()


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
    from tests.browser import Browser, chromium

    binary = chromium()
    if binary is None:
        pytest.skip("headless Chromium is not installed (apt-get install chromium)")
    b = Browser(binary)
    try:
        yield b
    finally:
        b.close()


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
