"""The table's tools as a GM meets them (docs/guide.md, The table's tools): a dry run against the
same command written, `count`, `status --at`, `hand history`, and an `amend` that replays a
whole demo evening, each against ``python -c "import typer, rich, tinydb"`` (the floor every
command pays) in the same loop.

Every command runs as a fresh process, alternating with the floor so that the machine's state
affects both alike; medians of CPU time (user + sys of the child) and their ratios are
printed. Run from an installed copy: ``python benchmarks/table_tools.py``.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path


def _cpu(command: list[str], env: dict[str, str]) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()

    script = Path(sys.executable).with_name("referee")
    referee = [str(script)] if script.exists() else [shutil.which("referee") or "referee"]
    floor = [sys.executable, "-c", "import typer, rich, tinydb"]
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "demo.json"
        env = {**os.environ, "REFEREE_DB": str(db)}
        subprocess.run([*referee, "demo", "--db", str(db), "--quiet"], check=True,
                       stdout=subprocess.DEVNULL, env=env)
        give = ["chips", "give", "Ben", "Di", "yellow:1"]
        back = ["chips", "give", "Di", "Ben", "yellow:1"]  # the write goes there and back
        commands = {
            "chips give (a write)": [give, back],
            "the same, --dry-run": [["--dry-run", *give]],
            "count Ada red:1": [["count", "Ada", "red:1"]],
            "status --at 30": [["status", "--at", "30", "--json"]],
            "hand history 2": [["hand", "history", "2", "--json"]],
            "amend 4 (63 replayed)": [["amend", "4", "--", "soul", "study", "Flo",
                                        "amber bottle"]],
        }
        for choices in commands.values():  # warm the file cache; check each runs
            for words in choices:
                _cpu([*referee, *words], env)
        _cpu(floor, env)
        times: dict[str, list[float]] = {name: [] for name in commands}
        base: list[float] = []
        for run in range(args.runs * 2):
            for name, choices in commands.items():
                times[name].append(_cpu([*referee, *choices[run % len(choices)]], env))
                base.append(_cpu(floor, env))
    b = statistics.median(base)
    print(f"floor (import typer, rich, tinydb): median {b * 1000:6.1f} ms CPU")
    for name, found in times.items():
        a = statistics.median(found)
        print(f"{name:<24} median {a * 1000:7.1f} ms CPU  {a / b:5.2f}x the floor")


if __name__ == "__main__":
    main()
