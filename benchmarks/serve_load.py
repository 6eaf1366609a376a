"""Load on `referee serve --station`, loopback only: pollers and two stations at once.

A real `referee serve --station --port 0` process serves a copy of the demo evening. For
``--seconds`` (30), ``--pollers`` (20) clients poll ``/frame.json`` with their ETag as the
table page does, while two stations send ``--commands`` (200) commands between them, paced
over the run. Every command moves one red chip between the assistants Ben and Flo (away
from the table, R16), in pairs that cancel out, so a lost or doubled update shows in the end
state, and on the wall (a Charge would not: it is no one's business but its side's, R39).

Prints request and command counts, failures and latency percentiles, and the lost updates:
commands missing from the log, chips not back where they began, pollers whose last frame
is not the final one a second after the last command. Exits 1 on any failure.

    PYTHONPATH=. python benchmarks/serve_load.py [--seconds 30] [--pollers 20] [--commands 200]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import signal
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


def start_server(db: Path) -> tuple[subprocess.Popen[str], str, str]:
    proc = subprocess.Popen([sys.executable, "-m", "referee", "--db", str(db), "serve",
                             "--port", "0", "--station"], env=ENV, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None
    text = ""
    while "--token" not in text:
        line = proc.stdout.readline()
        if not line:
            raise SystemExit(f"serve did not start: {proc.stderr.read() if proc.stderr else ''}")
        text += line
    url = re.search(r"table page\s+http://127\.0\.0\.1:(\d+)/", text)
    token = re.search(r"--token (\S+)", text)
    assert url and token, text
    return proc, url.group(1), token.group(1)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--pollers", type=int, default=20)
    parser.add_argument("--commands", type=int, default=200)
    parser.add_argument("--interval", type=float, default=0.1,
                        help="seconds between one poller's requests (the page waits 0.4)")
    opts = parser.parse_args()
    pairs = max(1, opts.commands // 4)  # each station sends pairs of moves that cancel out

    folder = Path(tempfile.mkdtemp(prefix="referee-load-"))
    db = folder / "demo.json"
    referee("demo", "--db", str(db), "--quiet")
    referee("--db", str(db), "rise", "Ada")  # three red chips each to the assistants (R16)
    referee("--db", str(db), "chips", "give", "Ada", "Ben", "red:3")
    referee("--db", str(db), "chips", "give", "Ada", "Flo", "red:3")
    referee("--db", str(db), "sit", "Ada")
    before = helpers(json.loads(referee("--db", str(db), "status", "--json").stdout))
    proc, port, token = start_server(db)
    stop = threading.Event()
    lock = threading.Lock()
    poll_times: list[float] = []
    command_times: list[float] = []
    failures: list[str] = []
    codes: dict[int, int] = {}
    last_frames: list[dict[str, Any] | None] = [None] * opts.pollers

    def poller(k: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", int(port), timeout=30)
        etag = ""
        while not stop.is_set():
            t0 = time.perf_counter()
            try:
                conn.request("GET", "/frame.json", headers={"If-None-Match": etag})
                answer = conn.getresponse()
                body = answer.read()
            except (OSError, http.client.HTTPException) as exc:
                with lock:
                    failures.append(f"poller {k}: {exc!r}")
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", int(port), timeout=30)
                continue
            elapsed = time.perf_counter() - t0
            with lock:
                poll_times.append(elapsed)
                codes[answer.status] = codes.get(answer.status, 0) + 1
            if answer.status == 200:
                etag = answer.getheader("ETag") or ""
                last_frames[k] = json.loads(body)
            elif answer.status != 304:
                with lock:
                    failures.append(f"poller {k}: HTTP {answer.status}")
            time.sleep(opts.interval)
        conn.close()

    def station(moves: list[tuple[str, str]], pace: float) -> None:
        from referee.cli.station import StationError, send

        url = f"http://127.0.0.1:{port}"
        for source, target in moves:
            t0 = time.perf_counter()
            try:
                code, _, err = send(url, token, ["chips", "give", source, target, "red:1"])
            except StationError as exc:
                code, err = -1, str(exc)
            with lock:
                command_times.append(time.perf_counter() - t0)
                if code != 0:
                    failures.append(f"command {source}->{target}: {code} {err.strip()}")
            time.sleep(max(0.0, pace - (time.perf_counter() - t0)))

    moves_a = [("Ben", "Flo"), ("Flo", "Ben")] * pairs
    moves_b = [("Flo", "Ben"), ("Ben", "Flo")] * pairs
    pace = opts.seconds / max(1, len(moves_a))
    threads = [threading.Thread(target=poller, args=(k,)) for k in range(opts.pollers)]
    stations = [threading.Thread(target=station, args=(moves_a, pace)),
                threading.Thread(target=station, args=(moves_b, pace))]
    started = time.perf_counter()
    for t in threads + stations:
        t.start()
    for t in stations:
        t.join()
    time.sleep(max(1.0, opts.seconds - (time.perf_counter() - started)))
    stop.set()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - started
    proc.send_signal(signal.SIGINT)
    proc.wait(timeout=30)

    after = helpers(json.loads(referee("--db", str(db), "status", "--json").stdout))
    log = json.loads(referee("--db", str(db), "log", "--json").stdout)["commands"]
    sent = len(moves_a) + len(moves_b)
    logged = sum(c["text"].startswith("chips give") and "red:1" in c["text"] for c in log)
    stale = sum(1 for f in last_frames if f is None or frame_helpers(f) != after)
    lost = (sent - logged) + (after != before) + stale
    requests = sum(codes.values())
    print(f"serve_load: {opts.pollers} pollers for {elapsed:.1f} s (one request per "
          f"{opts.interval:g} s each), {sent} commands from 2 stations, loopback only")
    print(f"requests: {requests} ({', '.join(f'{c}: {n}' for c, n in sorted(codes.items()))}),"
          f" failed {sum(1 for f in failures if f.startswith('poller'))}; "
          f"latency p50 {percentile(poll_times, .5) * 1000:.1f} ms, "
          f"p95 {percentile(poll_times, .95) * 1000:.1f} ms")
    print(f"commands: {len(command_times)}, failed "
          f"{sum(1 for f in failures if f.startswith('command'))}; latency p50 "
          f"{percentile(command_times, .5) * 1000:.1f} ms, "
          f"p95 {percentile(command_times, .95) * 1000:.1f} ms, "
          f"mean {statistics.fmean(command_times) * 1000 if command_times else 0:.1f} ms")
    print(f"lost updates: {lost} (log holds {logged}/{sent} commands; chips "
          f"{'back where they began' if after == before else 'CHANGED'}; {stale} of "
          f"{opts.pollers} pollers not on the final frame)")
    for line in failures[:10]:
        print("  " + line)
    return 1 if failures or lost else 0


if __name__ == "__main__":
    sys.exit(main())
