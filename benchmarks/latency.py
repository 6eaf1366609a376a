"""Console latency against the import floor, at 100 and at 100,000 logged events.

Builds two evenings (through the store, the way commands write them), runs ``verify`` once
on each (as the GM would have during the night), then times in one interleaved loop, medians
over ROUNDS runs each (CPU time, user + system, of a fresh process):

- floor:    python -c "import typer, rich, tinydb"
- status:   referee status --json             (a read)
- status-h: referee status                    (the human table)
- give:     referee chips give A B red:1       (a write: lock, validate, append, fsync)
- verify:   referee verify                    (only what was not verified before)
- last:     referee log --last 20
- log-json: referee log --json                 (every command, streamed)

Prints each as a ratio of the floor, against the bars of issue 15: status --json and give
at most 0.9x, human status 1.3x, verify 3x (at the large size), log --last 20 1.5x. Also the
peak memory of ``log --json`` and of a full ``verify --all`` at the large size.

Measure an installed package, not the checkout:

    python3 -m venv /tmp/bench-venv && /tmp/bench-venv/bin/pip install -q .
    /tmp/bench-venv/bin/python benchmarks/latency.py [--events 100000] [--rounds 15]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def build(path: Path, events: int) -> None:
    """An evening with about ``events`` events: setup, then chips passed back and forth
    between two assistants away from the table (one event per command)."""
    from referee.evening import commands
    from referee.storage.store import open_evening

    seats = [commands.parse_seat(s) for s in ("Ada:XVI:red:Ben:IX", "Cy:III:blue:Di:II")]
    with open_evening(path) as ev:
        state = ev.state("evening")
        ev.commit("evening", commands.new_evening(state, "Fool", seats, now=time.time(),
                                                  force=False), "new")
        ev.commit("evening", commands.rise(ev.state("evening"), "Ada"), "rise Ada")
        ev.commit("evening", commands.give_chips(ev.state("evening"), "Ada", "Ben", "red:5"),
                  "setup")
    done = 2
    batch = 200
    while done < events:
        with open_evening(path) as ev:
            for _ in range(min(batch, events - done)):
                state = ev.state("evening")
                src, dst = ("Ben", "Di") if done % 2 else ("Di", "Ben")
                if not state.holding(src).get("red"):
                    src, dst = dst, src
                ev.commit("evening", commands.give_chips(state, src, dst, "red:1"), "give")
                done += 1
                if len(ev._live) >= 399:  # let the store seal a segment, as a night would
                    break
        # reopen so every flush seals exactly as a real run of commands would


def timed(cmd: list[str], env: dict[str, str]) -> float:
    """CPU seconds (user + system) of one run of ``cmd``: on a shared machine far steadier
    than wall time, which counts the time other processes held the cores."""
    return measure(cmd, env)[0]


def measure(cmd: list[str], env: dict[str, str]) -> tuple[float, float]:
    """CPU seconds and peak resident memory (MiB) of one run of ``cmd``."""
    child = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode:
        raise SystemExit(f"{' '.join(cmd)} exited {child.returncode}")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


# (label, arguments, bar as a ratio of the floor or None, bar applies at 100 events too)
COMMANDS: list[tuple[str, list[str], float | None, bool]] = [
    ("status", ["status", "--json"], 0.9, True),
    ("status-h", ["status"], 1.3, True),
    ("give", ["chips", "give", "Ben", "Di", "red:1"], 0.9, True),
    ("verify", ["verify"], 3.0, False),
    ("last", ["log", "--last", "20"], 1.5, False),
    ("log-json", ["log", "--json"], None, False),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--dir", type=Path, default=None,
                        help="Keep the evenings here (built once, reused by later runs).")
    args = parser.parse_args()
    # An installed package has its bytecode compiled by pip; an editable checkout run with
    # PYTHONDONTWRITEBYTECODE would recompile every module on every command. Compile once.
    import referee

    subprocess.run([sys.executable, "-m", "compileall", "-q", str(Path(referee.__file__).parent)],
                   check=True, stdout=subprocess.DEVNULL)
    script = Path(sys.executable).with_name("referee")
    console = [str(script)] if script.exists() else [sys.executable, "-m", "referee"]
    print(f"timing {' '.join(console)} (package at {Path(referee.__file__).parent})")
    tmp = args.dir or Path(tempfile.mkdtemp(prefix="referee-bench-"))
    tmp.mkdir(parents=True, exist_ok=True)
    small, large = tmp / "small.json", tmp / f"large-{args.events}.json"
    if not (small.exists() and large.exists()):
        print(f"building evenings of 100 and {args.events} events in {tmp} ...", flush=True)
        started = time.perf_counter()
        for path, events in ((small, 100), (large, args.events)):
            if not path.exists():
                build(path, events)
        print(f"built in {time.perf_counter() - started:.0f} s", flush=True)
    env = {k: v for k, v in os.environ.items() if k != "REFEREE_DB"}
    env["NO_COLOR"] = "1"
    env["COLUMNS"] = "100"
    sizes = (("100", small), ("large", large))
    full = {}
    for label, db in sizes:  # the first verify of the night checks everything
        full[label] = measure([*console, "--db", str(db), "verify", "--all"], env)
    time.sleep(2.5)  # verify remembers only segment files a few seconds old
    for _label, db in sizes:
        subprocess.run([*console, "--db", str(db), "verify"], env=env, check=True,
                       stdout=subprocess.DEVNULL)
    floor = [sys.executable, "-c", "import typer, rich, tinydb"]
    samples: dict[str, list[float]] = {}
    for _ in range(args.rounds):
        # Interleaved so that machine noise hits every measurement alike.
        samples.setdefault("floor", []).append(timed(floor, env))
        for size, db in sizes:
            for label, argv, _bar, _small in COMMANDS:
                samples.setdefault(f"{label}@{size}", []).append(
                    timed([*console, "--db", str(db), *argv], env))
                if label == "give":
                    subprocess.run([*console, "--db", str(db), "undo"], env=env, check=True,
                                   stdout=subprocess.DEVNULL)
    med = {k: statistics.median(v) for k, v in samples.items()}
    f = med["floor"]
    print(f"floor  python -c 'import typer, rich, tinydb': {f * 1000:6.1f} ms")
    for label, argv, bar, at_small in COMMANDS:
        small_t, large_t = med[f"{label}@100"], med[f"{label}@large"]
        verdict = ""
        if bar is not None:
            worst = max(small_t, large_t) if at_small else large_t
            verdict = f"  bar {bar}x: " + ("meets it" if worst / f <= bar else "ABOVE it")
        print(f"{' '.join(argv)[:26]:26} @100: {small_t * 1000:6.1f} ms ({small_t / f:4.2f}x)"
              f"   @{args.events}: {large_t * 1000:6.1f} ms ({large_t / f:4.2f}x){verdict}")
    seconds, mib = measure([*console, "--db", str(large), "log", "--json"], env)
    small_mib = measure([*console, "--db", str(small), "log", "--json"], env)[1]
    print(f"log --json @{args.events}: {seconds * 1000:.0f} ms, peak {mib:.0f} MiB "
          f"(@100: {small_mib:.0f} MiB)")
    for label, (seconds, mib) in full.items():
        where = "100" if label == "100" else str(args.events)
        print(f"verify --all @{where}: {seconds * 1000:.0f} ms ({seconds / f:.1f}x the floor), "
              f"peak {mib:.0f} MiB")
    if args.dir is None:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
