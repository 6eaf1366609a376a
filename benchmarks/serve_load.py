"""Load on `referee serve --station`, loopback only: the wall and the phones on push, two
stations, pollers and a thousand silent sockets at once.

A real `referee serve --station --port 0` process serves a copy of the demo evening. For
``--seconds`` (30): ``--idle`` (1,000) sockets that send nothing are held open from this one
address (one the server closes after its 15 s of silence, E68, is opened again);
``--phones`` (30) follow ``/events`` as a phone's sheet does (each change: a HEAD of its
sheet); ``--pollers`` (0) poll ``/frame.json`` with their ETag as a page whose push is down
does; two stations send ``--commands`` (200) commands between them, paced over the run;
``--asks`` (100) phone requests (R46) are posted in turn from each assistant's phone, each
one queued declined at once by a third station.
Every command moves one red chip between the assistants Ben and Flo (away from the table,
R16), in pairs that cancel out, so a lost or doubled update shows in the end state, and on
the wall (a Charge would not: it is no one's business but its side's, R39).

The wall is the table page in headless Chromium (when installed): a third station moves a
chip between Di and Hal ``--probes`` (60) times, one at a time, and the push latency is
the time from the command's answer reaching the station to the wall's page showing Hal's
new stack (a MutationObserver in the page notes when its seats change).

Prints request and command counts, failures and latency percentiles, the push latency
p50/p95, and the lost updates: commands missing from the log, chips not back where they
began, phones and pollers whose last frame is not the final one a second after the last
command. Exits 1 on any failure.

    PYTHONPATH=. python benchmarks/serve_load.py [--seconds 30] [--phones 30] [--idle 1000]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import select
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def referee(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "referee", *args], env=ENV,
                          capture_output=True, text=True, check=True, timeout=300)


def helpers(status: dict[str, Any]) -> dict[str, int]:
    """Ben's and Flo's chips, from `status --json`."""
    return {name: sum(status["chips"].get(name, {}).values()) for name in ("Ben", "Flo")}


def frame_helpers(frame: dict[str, Any]) -> dict[str, int]:
    """Ben's and Flo's chips, as the wall shows them."""
    return {s["assistant"]["name"]: s["assistant"]["stack"] for s in frame["seats"]
            if s["assistant"] and s["assistant"]["name"] in ("Ben", "Flo")}


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def start_server(db: Path) -> tuple[subprocess.Popen[str], str, str, dict[str, str]]:
    proc = subprocess.Popen([sys.executable, "-m", "referee", "--db", str(db), "serve",
                             "--port", "0", "--station", "--links"], env=ENV, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert proc.stdout is not None
    text = ""
    while "--token" not in text:
        line = proc.stdout.readline()
        if not line:
            raise SystemExit("serve did not start")
        text += line
    url = re.search(r"table page\s+http://127\.0\.0\.1:(\d+)/", text)
    token = re.search(r"--token (\S+)", text)
    sheets = dict(re.findall(r"^\s+(\S+)\s+http://\S+(/a/\S+)$", text, re.M))
    assert url and token and sheets, text
    return proc, url.group(1), token.group(1), sheets


class Tally:
    """What every client of the run saw, under one lock."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.failures: list[str] = []
        self.times: dict[str, list[float]] = {}
        self.codes: dict[int, int] = {}

    def fail(self, text: str) -> None:
        with self.lock:
            self.failures.append(text)

    def took(self, what: str, seconds: float, code: int | None = None) -> None:
        with self.lock:
            self.times.setdefault(what, []).append(seconds)
            if code is not None:
                self.codes[code] = self.codes.get(code, 0) + 1

    def line(self, what: str) -> str:
        t = self.times.get(what, [])
        return (f"{len(t)}, p50 {percentile(t, .5) * 1000:.1f} ms, "
                f"p95 {percentile(t, .95) * 1000:.1f} ms")


def idle_sockets(port: int, n: int, stop: threading.Event, tally: Tally) -> None:
    """``n`` sockets that send nothing, held until ``stop``; one the server closes (its idle
    timeout, E68) is opened again."""
    held: list[socket.socket] = []
    for _ in range(n):
        try:
            held.append(socket.create_connection(("127.0.0.1", port), timeout=10))
        except OSError as exc:
            tally.fail(f"idle socket: {exc!r}")
            return
    reopened = 0
    while not stop.wait(0.5):
        watch = select.poll()  # not select(): its descriptors stop at 1,024
        for sock in held:
            watch.register(sock, select.POLLIN | select.POLLHUP)
        ready = {fd for fd, _ in watch.poll(0)}
        for k, sock in enumerate(held):
            if sock.fileno() in ready:
                data = b"x"
                try:
                    data = sock.recv(1)
                except OSError:
                    data = b""
                if data:
                    tally.fail(f"idle socket answered: {data!r}")
                sock.close()
                held[k] = socket.create_connection(("127.0.0.1", port), timeout=10)
                reopened += 1
    tally.took("idle reopened", float(reopened))
    tally.took("idle held", float(len(held)))
    for sock in held:
        sock.close()


def phone(port: int, sheet: str, stop: threading.Event, tally: Tally,
          last: list[dict[str, Any] | None], k: int) -> None:
    """A phone's sheet on push: the stream of ``/events``; 0.1-0.5 s after a change (once
    for a burst of them), a HEAD of its sheet, as the sheet's script does."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", "/events")
    answer = conn.getresponse()
    if answer.status != 200:
        tally.fail(f"phone {k}: events HTTP {answer.status}")
        return
    look = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    pending: list[threading.Timer] = []
    lock = threading.Lock()

    def ask() -> None:
        nonlocal look
        with lock:
            pending.clear()
            t0 = time.perf_counter()
            try:
                look.request("HEAD", sheet)
                got = look.getresponse()
                got.read()
            except (OSError, http.client.HTTPException) as exc:
                tally.fail(f"phone {k} look: {exc!r}")
                look.close()
                look = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                return
            tally.took("phone look", time.perf_counter() - t0, got.status)
            if got.status != 200:
                tally.fail(f"phone {k} look: HTTP {got.status}")

    event = ""
    while not stop.is_set():
        try:
            line = answer.fp.readline().decode()
        except OSError as exc:
            tally.fail(f"phone {k}: {exc!r}")
            return
        if not line:
            tally.fail(f"phone {k}: the stream ended")
            return
        if line.startswith("event: "):
            event = line[7:].strip()
        elif line.startswith("data: ") and event == "frame":
            last[k] = json.loads(line[6:])["frame"]
        elif line.startswith("data: ") and event == "change" and not pending:
            timer = threading.Timer(0.1 + random.random() * 0.4, ask)
            pending.append(timer)
            timer.start()
    for timer in list(pending):
        timer.cancel()
    conn.close()
    with lock:
        look.close()


def poller(port: int, interval: float, stop: threading.Event, tally: Tally,
           last: list[dict[str, Any] | None], k: int) -> None:
    """A page whose push is down: ``/frame.json`` with its ETag every ``interval``."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    etag = ""
    while not stop.is_set():
        t0 = time.perf_counter()
        try:
            conn.request("GET", "/frame.json", headers={"If-None-Match": etag})
            answer = conn.getresponse()
            body = answer.read()
        except (OSError, http.client.HTTPException) as exc:
            tally.fail(f"poller {k}: {exc!r}")
            conn.close()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            continue
        tally.took("poll", time.perf_counter() - t0, answer.status)
        if answer.status == 200:
            etag = answer.getheader("ETag") or ""
            last[k] = json.loads(body)
        elif answer.status != 304:
            tally.fail(f"poller {k}: HTTP {answer.status}")
        time.sleep(interval)
    conn.close()


def wall_asks(port: int, stop: threading.Event, tally: Tally) -> None:
    """A wall whose push is down, twice a second on a new connection under it all: the
    connection, the request and the whole frame, timed."""
    while not stop.wait(0.5):
        t0 = time.perf_counter()
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
                sock.sendall(b"GET /frame.json HTTP/1.1\r\nHost: x\r\nConnection: close"
                             b"\r\n\r\n")
                out = b""
                while chunk := sock.recv(65536):
                    out += chunk
        except OSError as exc:
            tally.fail(f"wall: {exc!r}")
            continue
        tally.took("wall asks", time.perf_counter() - t0)
        if not out.startswith(b"HTTP/1.1 200"):
            tally.fail(f"wall: {out[:40]!r}")


def station(port: int, token: str, moves: list[tuple[str, str]], pace: float,
            tally: Tally) -> None:
    from referee.cli.room.station import StationError, send

    url = f"http://127.0.0.1:{port}"
    for source, target in moves:
        t0 = time.perf_counter()
        try:
            code, _, err = send(url, token, ["chips", "give", source, target, "red:1"])
        except StationError as exc:
            code, err = -1, str(exc)
        tally.took("command", time.perf_counter() - t0)
        if code != 0:
            tally.fail(f"command {source}->{target}: {code} {err.strip()}")
        time.sleep(max(0.0, pace - (time.perf_counter() - t0)))


def asker(port: int, token: str, sheets: dict[str, str], n: int, pace: float, tally: Tally,
          queued: list[int]) -> None:
    """The phones' requests (R46): ``n`` questions, each assistant's phone in turn, each one
    the queue takes declined at once by the GM through the station (`requests decline`), so
    that side may ask again; a refusal by the bounds (one open per kind per side, four a
    minute per side, E211) is an answer, not a failure."""
    from referee.cli.room.station import StationError, send

    url = f"http://127.0.0.1:{port}"
    names = sorted(sheets)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    for k in range(n):
        t0 = time.perf_counter()
        body = json.dumps({"kind": "question", "text": f"question {k}"}).encode()
        try:
            conn.request("POST", sheets[names[k % len(names)]] + "/ask", body, {
                "Origin": url, "Content-Type": "application/json"})
            got = conn.getresponse()
            reply = json.loads(got.read())
        except (OSError, ValueError, http.client.HTTPException) as exc:
            tally.fail(f"ask {k}: {exc!r}")
            conn.close()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            continue
        tally.took("ask", time.perf_counter() - t0)
        if got.status == 200:
            queued.append(int(reply["no"]))
            try:
                code, _, err = send(url, token, ["requests", "decline", str(reply["no"]),
                                                 "busy"])
            except StationError as exc:
                code, err = -1, str(exc)
            if code != 0:
                tally.fail(f"decline {reply['no']}: {code} {err.strip()}")
        elif got.status not in (409, 429):
            tally.fail(f"ask {k}: HTTP {got.status} {reply.get('line')}")
        time.sleep(max(0.0, pace - (time.perf_counter() - t0)))
    conn.close()


#: Put in the wall's page: each time Hal's stack on the wall changes, when (ms since epoch).
OBSERVER = """window.seen = []; (function () {
  function hal() { var s = (frame.seats || []).filter(function (x) {
    return x.assistant && x.assistant.name === "Hal"; })[0]; return s ? s.assistant.stack : null; }
  var last = hal();
  new MutationObserver(function () { var h = hal(); if (h !== last) {
    last = h; window.seen.push([Date.now(), h]); } }).observe(document.body,
    {childList: true, subtree: true, characterData: true});
})();"""


def start_browser() -> Any:
    """Headless Chromium, or None (started before the idle sockets: its pipes are read with
    select(), whose descriptors stop at 1,024)."""
    sys.path.insert(0, str(ROOT))
    from tests.browser import Browser, chromium

    binary = chromium()
    return Browser(binary) if binary is not None else None


def probe_wall(browser: Any, port: int, token: str, probes: int, tally: Tally) -> str:
    """The push latency on the wall in headless Chromium: ``probes`` moves between Di and
    Hal, one at a time, each timed from its answer to the wall showing Hal's new stack."""
    from referee.cli.room.station import send

    if browser is None:
        return "no Chromium: the push latency on the wall is not measured"
    try:
        browser.open(f"http://127.0.0.1:{port}/", 1280, 720)
        browser.wait_for("typeof frame === 'object' && frame.seats !== undefined")
        time.sleep(1.0)  # the stream is open
        browser.evaluate(OBSERVER)
        hal = 0
        url = f"http://127.0.0.1:{port}"
        for k in range(probes):
            forth = (k // 3) % 2 == 0  # Di gives Hal three, Hal gives them back, and again
            source, target = ("Di", "Hal") if forth else ("Hal", "Di")
            hal += 1 if forth else -1
            code, _, err = send(url, token, ["chips", "give", source, target, "blue:1"])
            acked = time.time() * 1000
            if code != 0:
                tally.fail(f"probe {source}->{target}: {code} {err.strip()}")
                continue
            try:
                browser.wait_for(f"window.seen.some(function (s) {{ return s[0] >= {acked - 1000}"
                                 f" && s[1] === {hal}; }})", timeout=5)
            except TimeoutError:
                tally.fail(f"probe {k}: the wall did not show Hal's {hal} within 5 s")
                continue
            shown = browser.evaluate(f"window.seen.filter(function (s) {{ return s[1] === {hal}"
                                     f"; }}).pop()[0]")
            tally.took("push", max(0.0, shown - acked) / 1000)
            time.sleep(0.15)
    finally:
        browser.close()
    return ""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--phones", type=int, default=30)
    parser.add_argument("--idle", type=int, default=1000)
    parser.add_argument("--pollers", type=int, default=0)
    parser.add_argument("--commands", type=int, default=200)
    parser.add_argument("--probes", type=int, default=60)
    parser.add_argument("--asks", type=int, default=100, help="phone requests (R46)")
    parser.add_argument("--interval", type=float, default=0.4,
                        help="seconds between one poller's requests (the page's own)")
    opts = parser.parse_args()
    pairs = max(1, opts.commands // 4)  # each station sends pairs of moves that cancel out

    folder = Path(tempfile.mkdtemp(prefix="referee-load-"))
    db = folder / "demo.json"
    referee("demo", "--db", str(db), "--quiet")
    referee("--db", str(db), "rise", "Ada")  # three red chips each to the assistants (R16)
    referee("--db", str(db), "chips", "give", "Ada", "Ben", "red:3")
    referee("--db", str(db), "chips", "give", "Ada", "Flo", "red:3")
    referee("--db", str(db), "chips", "give", "Ada", "Di", "blue:3")  # the wall's probes
    referee("--db", str(db), "sit", "Ada")
    before = helpers(json.loads(referee("--db", str(db), "status", "--json").stdout))
    proc, port_text, token, sheets = start_server(db)
    port = int(port_text)
    stop = threading.Event()
    tally = Tally()
    last: list[dict[str, Any] | None] = [None] * (opts.phones + opts.pollers)
    names = sorted(sheets)
    browser = start_browser() if opts.probes else None
    idle = threading.Thread(target=idle_sockets, args=(port, opts.idle, stop, tally))
    idle.start()
    clients = [threading.Thread(target=phone, args=(port, sheets[names[k % len(names)]], stop,
                                                    tally, last, k))
               for k in range(opts.phones)]
    clients += [threading.Thread(target=poller, args=(port, opts.interval, stop, tally, last,
                                                      opts.phones + k))
                for k in range(opts.pollers)]
    moves_a = [("Ben", "Flo"), ("Flo", "Ben")] * pairs
    moves_b = [("Flo", "Ben"), ("Ben", "Flo")] * pairs
    pace = opts.seconds / max(1, len(moves_a))
    stations = [threading.Thread(target=station, args=(port, token, moves, pace, tally))
                for moves in (moves_a, moves_b)]
    clients.append(threading.Thread(target=wall_asks, args=(port, stop, tally)))
    queued: list[int] = []
    stations.append(threading.Thread(target=asker, args=(
        port, token, sheets, opts.asks, opts.seconds / max(1, opts.asks), tally, queued)))
    time.sleep(1.0)  # the idle sockets are in
    started = time.perf_counter()
    for t in clients + stations:
        t.start()
    note = probe_wall(browser, port, token, opts.probes, tally) if opts.probes else "no probes"
    for t in stations:
        t.join()
    time.sleep(max(1.0, opts.seconds - (time.perf_counter() - started)))
    stop.set()
    for t in stations:
        t.join()
    idle.join()
    # the phones' streams are read until their next event: a sign of life within 2 s
    for t in clients:
        t.join(timeout=10)
    elapsed = time.perf_counter() - started
    proc.send_signal(signal.SIGINT)
    proc.wait(timeout=30)

    after = helpers(json.loads(referee("--db", str(db), "status", "--json").stdout))
    log = json.loads(referee("--db", str(db), "log", "--json").stdout)["commands"]
    sent = len(moves_a) + len(moves_b)
    logged = sum(c["text"].startswith("chips give") and "red:1" in c["text"] for c in log)
    stale = sum(1 for f in last if f is None or frame_helpers(f) != after)
    from referee.serve.asks import load_queue

    kept = {a["no"]: a["status"] for a in load_queue(db).asks}
    asks_lost = sum(1 for no in queued if kept.get(no) != "declined")
    lost = (sent - logged) + (after != before) + stale + asks_lost
    held = tally.times.get("idle held", [0])[0]
    print(f"serve_load: {elapsed:.1f} s, loopback only: {opts.idle} silent sockets from one "
          f"address ({held:.0f} held at the end, "
          f"{tally.times.get('idle reopened', [0])[0]:.0f} opened again after the server's "
          f"15 s), {opts.phones} phones on push, {opts.pollers} pollers, {sent} commands "
          f"from 2 stations, the wall in Chromium")
    print(f"the wall's frame on a new connection under it all: {tally.line('wall asks')}")
    print(f"push to the wall (command answered -> shown): {tally.line('push')}"
          + (f" ({note})" if note else ""))
    print(f"phones' looks: {tally.line('phone look')}; polls: {tally.line('poll')}; "
          f"answers {', '.join(f'{c}: {n}' for c, n in sorted(tally.codes.items()))}")
    print(f"phone requests: {tally.line('ask')}; {len(queued)} queued and declined by the "
          f"station, {len(tally.times.get('ask', [])) - len(queued)} refused by the bounds "
          f"(E211), {asks_lost} lost")
    print(f"commands: {tally.line('command')}, mean "
          f"{statistics.fmean(tally.times.get('command', [0])) * 1000:.1f} ms")
    print(f"failed: {len(tally.failures)}; lost updates: {lost} (log holds {logged}/{sent} "
          f"commands; chips {'back where they began' if after == before else 'CHANGED'}; "
          f"{stale} of {len(last)} phones and pollers not on the final frame)")
    for line in tally.failures[:10]:
        print("  " + line)
    return 1 if tally.failures or lost else 0


if __name__ == "__main__":
    sys.exit(main())
