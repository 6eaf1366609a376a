"""Console latency against the import floor, at 100 and at 20,000 logged events.

Builds two evenings (through the store, the way commands write them), then times
in one interleaved shell loop, medians over ROUNDS runs each:

- floor:   python -c "import typer, rich, tinydb"
- status:  referee status --json           (a read)
- give:    referee chips give A B red:1      (a write: lock, validate, append, fsync)

Prints the ratios. Bars (issue 3): at 20,000 events each command is at most 1.5x the
floor, and no more than 10% slower than at 100 events.

    python benchmarks/latency.py [--events 20000] [--rounds 15]
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
    from referee.store import open_evening

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
    start = time.perf_counter()
    subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   check=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()
    # An installed package has its bytecode compiled by pip; an editable checkout run with
    # PYTHONDONTWRITEBYTECODE would recompile every module on every command. Compile once.
    import referee

    subprocess.run([sys.executable, "-m", "compileall", "-q", str(Path(referee.__file__).parent)],
                   check=True, stdout=subprocess.DEVNULL)
    exe = shutil.which("referee") or ""
    referee = [exe] if exe else [sys.executable, "-m", "referee"]
    tmp = Path(tempfile.mkdtemp(prefix="referee-bench-"))
    small, large = tmp / "small.json", tmp / "large.json"
    print(f"building evenings of 100 and {args.events} events in {tmp} ...", flush=True)
    build(small, 100)
    build(large, args.events)
    env = {k: v for k, v in os.environ.items() if k != "REFEREE_DB"}
    env["NO_COLOR"] = "1"
    floor = [sys.executable, "-c", "import typer, rich, tinydb"]
    samples: dict[str, list[float]] = {}
    for _ in range(args.rounds):
        # Interleaved so that machine noise hits every measurement alike.
        samples.setdefault("floor", []).append(timed(floor, env))
        for label, db in (("100", small), ("large", large)):
            samples.setdefault(f"status@{label}", []).append(
                timed([*referee, "--db", str(db), "status", "--json"], env))
            samples.setdefault(f"give@{label}", []).append(
                timed([*referee, "--db", str(db), "chips", "give", "Ben", "Di", "red:1"], env))
            subprocess.run([*referee, "--db", str(db), "undo"], env=env, check=True,
                           stdout=subprocess.DEVNULL)
    med = {k: statistics.median(v) for k, v in samples.items()}
    f = med["floor"]
    print(f"floor  python -c 'import typer, rich, tinydb': {f * 1000:6.1f} ms")
    for cmd in ("status", "give"):
        small_t, large_t = med[f"{cmd}@100"], med[f"{cmd}@large"]
        print(f"{cmd:6} @100: {small_t * 1000:6.1f} ms ({small_t / f:4.2f}x floor)   "
              f"@{args.events}: {large_t * 1000:6.1f} ms ({large_t / f:4.2f}x floor, "
              f"{(large_t / small_t - 1) * 100:+5.1f}% vs 100)")
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
