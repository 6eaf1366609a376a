"""How soon the GM hears of a phone's request (R46, E215), loopback only.

A real `referee serve` process serves a new evening of six seats, each with an assistant.
This process watches the queue as `referee shell` does at its prompt
(``referee.cli.shell.request_alerts``, a look at the queue's file every 50 ms) and follows
``GET /events`` as the GM's remote would (the ``asks`` event). Each assistant's phone posts
``--rounds`` (4) questions, one side after another; each request is declined once both have
seen it, so the next can come (one open per kind per side, four a minute per side, E211).

Prints, for the shell's line and for the push, the time from the phone's answer (the request
queued) to the GM's side hearing of it: p50, p95, max, and any request never heard of.
Exits 1 on one missed.

    PYTHONPATH=. python benchmarks/phone_asks.py [--rounds 4]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from referee.cli.shell.request_alerts import Bell
from referee.serve import asks

SEATS = ["Ada:XVI:red:Ben:IX", "Cy:III:blue:Di:II", "Ed:VII:green:Flo:XVII",
         "Gus:I:yellow:Hal:IV", "Ivy:V:white:Jo:VI", "Kim:X:black:Lu:XI"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=4)
    opts = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="phone-asks-"))
    db = folder / "e.json"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    referee = [sys.executable, "-m", "referee", "--db", str(db)]
    seats = [a for s in SEATS for a in ("--seat", s)]
    subprocess.run([*referee, "new", "--fool", "Max", *seats], env=env, check=True,
                   capture_output=True)
    links = json.loads(subprocess.run([*referee, "links", "--json"], env=env, check=True,
                                      capture_output=True, text=True).stdout)
    port = free_port()
    server = subprocess.Popen([*referee, "serve", "--port", str(port)], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    heard_shell: dict[int, float] = {}
    heard_push: list[float] = []
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise SystemExit("serve did not start") from None
                time.sleep(0.1)

        seen = [0]

        def news() -> list[str]:
            now = time.perf_counter()
            for ask in asks.load_queue(db).asks:
                if ask["no"] > seen[0]:
                    heard_shell.setdefault(ask["no"], now)
            seen[0] = max([seen[0], *heard_shell])
            return []

        bell = Bell(db, news)
        bell.start()

        def follow() -> None:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            conn.request("GET", "/events")
            answer = conn.getresponse()
            event = ""
            while True:
                line = answer.fp.readline().decode().rstrip("\n")
                if not line and event == "stop":
                    return
                if line.startswith("event: "):
                    event = line[7:]
                elif line.startswith("data: ") and event == "asks":
                    if json.loads(line[6:])["waiting"]:
                        heard_push.append(time.perf_counter())

        threading.Thread(target=follow, daemon=True).start()
        time.sleep(1.0)
        sent: dict[int, float] = {}
        push_lag: list[float] = []
        for _ in range(opts.rounds):
            for name, link in links["links"].items():
                token = link.rsplit("/", 1)[1]
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                body = json.dumps({"kind": "question", "text": "a break soon?"}).encode()
                pushes = len(heard_push)
                conn.request("POST", f"/a/{token}/ask", body, {
                    "Origin": f"http://127.0.0.1:{port}", "Content-Type": "application/json"})
                answer = conn.getresponse()
                done = time.perf_counter()
                reply = json.loads(answer.read())
                conn.close()
                if answer.status != 200:
                    raise SystemExit(f"{name}: {answer.status} {reply['line']}")
                sent[reply["no"]] = done
                end = time.monotonic() + 2
                while time.monotonic() < end and (reply["no"] not in heard_shell
                                                  or len(heard_push) <= pushes):
                    time.sleep(0.002)
                if len(heard_push) > pushes:
                    push_lag.append(max(0.0, heard_push[pushes] - done))
                asks.decline(db, reply["no"], "not now")
        bell.stop()
    finally:
        server.terminate()
        server.wait(timeout=10)
    shell_lag = [max(0.0, heard_shell[n] - t) for n, t in sent.items() if n in heard_shell]
    missed = len(sent) - len(shell_lag)

    def figures(name: str, lags: list[float]) -> None:
        ms = sorted(x * 1000 for x in lags)
        if not ms:
            print(f"{name}: none heard")
            return
        p95 = ms[min(len(ms) - 1, int(round(0.95 * (len(ms) - 1))))]
        print(f"{name}: {len(ms)} heard of {len(sent)}, p50 {statistics.median(ms):.1f} ms, "
              f"p95 {p95:.1f} ms, max {ms[-1]:.1f} ms")

    figures("shell's line (a look every 50 ms)", shell_lag)
    figures("push's asks event", push_lag)
    return 1 if missed or len(push_lag) < len(sent) else 0


if __name__ == "__main__":
    raise SystemExit(main())
