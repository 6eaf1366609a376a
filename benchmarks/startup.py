"""Start-up time: ``referee --help`` against ``python -c "import typer, rich"``.
Figures in docs/development.md (Speed).

Both commands run as fresh processes, alternating in the same loop so that the machine's
state affects them alike; the medians of the runs and their ratio are printed. The bar
for ``referee --help`` is 1.3x the bare imports. Run: ``python benchmarks/startup.py``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path


def _time(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--bar", type=float, default=1.3)
    args = parser.parse_args()

    script = Path(sys.executable).with_name("referee")
    referee = [str(script)] if script.exists() else [shutil.which("referee") or "referee"]
    baseline = [sys.executable, "-c", "import typer, rich"]
    os.environ.setdefault("REFEREE_DB", os.devnull)
    # An installed package has its bytecode compiled by pip; an editable checkout run with
    # PYTHONDONTWRITEBYTECODE would recompile every module on every start. Compile once.
    import referee as package

    subprocess.run([sys.executable, "-m", "compileall", "-q", str(Path(package.__file__).parent)],
                   check=True, stdout=subprocess.DEVNULL)

    for command in (referee + ["--help"], baseline):  # warm the file cache first
        _time(command)
    ours, theirs = [], []
    for _ in range(args.runs):
        ours.append(_time(referee + ["--help"]))
        theirs.append(_time(baseline))
    a, b = statistics.median(ours), statistics.median(theirs)
    verdict = "meets the bar" if a / b <= args.bar else "ABOVE the bar"
    print(f"referee --help            median {a * 1000:7.1f} ms over {args.runs} runs")
    print(f"python -c 'import typer, rich' median {b * 1000:7.1f} ms")
    print(f"ratio {a / b:.2f} ({verdict} of {args.bar}x)")


if __name__ == "__main__":
    main()
