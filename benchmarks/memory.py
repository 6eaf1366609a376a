"""Memory of a command on a long evening: peak RSS against the live file's size.
Figures in docs/development.md (What the tests prove about the store).

Builds an evening of ``--events`` chip transfers (sealed into segments of 400 as the night
goes), then runs each command as a fresh process and reads its peak resident memory. The
reference run is ``referee --version`` in the same loop (the interpreter and the imports):
what a command adds beyond it is compared with the size of the live evening file and with the
whole evening (live file and segments). The bar: a command adds at most twice the live file
plus a constant (``--constant`` MB), whatever the length of the night. Run:
``python benchmarks/memory.py [--events 100000]``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

COMMANDS = (("status",), ("log", "--json"), ("log", "--last", "20"), ("verify",),
            ("verify", "--all"), ("report",), ("undo", "--yes"), ("chips", "give", "Ada", "Ann",
                                                                    "red:1"))


def build(db: Path, events: int) -> None:
    """An evening of ``events`` chip transfers, written through the store as commands are."""
    from referee.evening import commands
    from referee.storage import files
    from referee.storage.store import SEGMENT_SIZE, open_evening

    files.DURABLE = False  # building the night, not measuring it
    seats = [commands.parse_seat(s) for s in ("Ada:I:red:Ann:II", "Bob:III:blue:Bea:IV")]
    with open_evening(db) as ev:
        ev.commit("evening", commands.new_evening(ev.state("evening"), "Fool", seats, now=0.0,
                                                  force=False), "new")
        ev.commit("evening", commands.rise(ev.state("evening"), "Ada"), "rise Ada")
    done = 2
    while done < events:
        with open_evening(db) as ev:
            for _ in range(min(SEGMENT_SIZE, events - done)):
                src, dst = ("Ada", "Ann") if done % 2 == 0 else ("Ann", "Ada")
                ev.commit("evening", commands.give_chips(ev.state("evening"), src, dst,
                                                         "red:1"), f"chips give {src} {dst} red:1")
                done += 1


def peak_kb(command: list[str]) -> tuple[int, int]:
    """The peak RSS of one run of ``command`` (a fresh process), in kB, and its exit status.

    Measured by a small parent of its own, so that no other child of this script counts.
    """
    code = (
        "import resource, subprocess, sys\n"
        "rc = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL,\n"
        "                    stderr=subprocess.DEVNULL).returncode\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, rc)\n"
    )
    out = subprocess.run([sys.executable, "-c", code, *command], capture_output=True,
                         text=True, check=True).stdout.split()
    return int(out[-2]), int(out[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--constant", type=float, default=16.0,
                        help="MB a command may add beyond twice the live file")
    args = parser.parse_args()
    script = Path(sys.executable).with_name("referee")
    referee = [str(script)] if script.exists() else [shutil.which("referee") or "referee"]
    folder = Path(tempfile.mkdtemp(prefix="referee-memory-"))
    db = folder / "night.json"
    start = time.perf_counter()
    build(db, args.events)
    live = db.stat().st_size
    segs = sum(p.stat().st_size for p in db.with_name(db.name + ".segments").glob("*.json"))
    print(f"evening: {args.events} events, live file {live / 1e6:.2f} MB, segments "
          f"{segs / 1e6:.1f} MB, built in {time.perf_counter() - start:.0f} s")
    env = {**os.environ, "REFEREE_DB": str(db)}
    os.environ.update(env)
    base = min(peak_kb(referee + ["--version"])[0] for _ in range(3))
    print(f"reference `referee --version`: {base / 1024:.1f} MB peak")
    worst = 0.0
    for command in COMMANDS:
        peak, rc = peak_kb(referee + list(command))
        if rc != 0:
            print(f"{' '.join(command)}: exit {rc}")
        added = (peak - base) * 1024
        ratio = added / live
        allowed = 2 * live + args.constant * 1e6
        worst = max(worst, added / allowed)
        print(f"{' '.join(command):<28} peak {peak / 1024:7.1f} MB, +{added / 1e6:6.1f} MB = "
              f"{ratio:5.2f}x the live file, {added / (live + segs):5.2f}x the evening "
              f"({'within' if added <= allowed else 'ABOVE'} 2x + {args.constant:.0f} MB)")
    print(f"worst: {worst:.2f} of the bar (1.00 = at the bar)")
    shutil.rmtree(folder)


if __name__ == "__main__":
    main()
