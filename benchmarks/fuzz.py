"""The fuzz of tests/test_fuzz.py at full size: many more inputs, every misbehaviour counted.

Each input is one to three command lines (any command, odd names, cards, numbers, option
values and files) typed at a copy of an evening in play. With ``--raw`` (the default) the
second generator also mutates the values with raw bytes (not UTF-8), NUL, control and format
characters, and gives odd paths (a pipe, a symlink loop, a dangling link, names over 255
bytes) as files and as ``--db``. A command misbehaves when it exits other than 0 or 2, prints
a traceback or an internal error, or exits 2 and leaves the evening's folder changed; with
``--raw`` also when a refusal is more than one line, changes an odd file, or the evening's
chips no longer balance. Prints how many inputs and commands ran, and every misbehaviour.

    PYTHONPATH=. python benchmarks/fuzz.py [--examples 10000] [--seed N] [--no-raw]
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("COLUMNS", "120")
os.environ.setdefault("NO_COLOR", "1")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--raw", action=argparse.BooleanOptionalAction, default=True,
                        help="the second generator: raw bytes and odd paths (default on)")
    options = parser.parse_args()

    import functools

    import typer.testing

    # As tests/conftest.py does: typer would rebuild all ~90 commands on every invoke.
    typer.testing._get_command = functools.lru_cache(maxsize=None)(typer.testing._get_command)

    from hypothesis import HealthCheck, given, seed, settings
    from hypothesis import strategies as st

    from tests import test_fuzz as fz

    scratch = Path(tempfile.mkdtemp(prefix="referee-fuzz-"))
    base = scratch / "base"
    base.mkdir()
    os.environ["REFEREE_DB"] = str(scratch / "default.json")
    fz.setup_evening(base / "e.json")
    files = fz.Files(scratch)
    commands = fz.leaves()
    os.chdir(scratch)
    ran = {"inputs": 0, "commands": 0}
    bad: list[str] = []

    @settings(max_examples=options.examples, suppress_health_check=list(HealthCheck),
              deadline=None, database=None)
    @given(lines=st.lists(fz.command_lines(commands, files, raw=options.raw), min_size=1,
                          max_size=3))
    def run(lines: list[list[str]]) -> None:
        ran["inputs"] += 1
        if ran["inputs"] % 500 == 0:
            print(f"  {ran['inputs']} inputs, {len(bad)} misbehaved so far", flush=True)
        work = Path(tempfile.mkdtemp(dir=scratch))
        shutil.copytree(base, work, dirs_exist_ok=True)
        for args in lines:
            ran["commands"] += 1
            problem = fz.misbehaviour(work / "e.json", args, strict=options.raw, files=files)
            if problem is not None:
                bad.append(f"referee {args}: {problem}")
                print(f"  misbehaved: {bad[-1][:600]}", flush=True)
        shutil.rmtree(work, ignore_errors=True)

    if options.seed is not None:
        run = seed(options.seed)(run)
    start = time.monotonic()
    run()
    took = time.monotonic() - start
    shutil.rmtree(scratch, ignore_errors=True)
    import stat

    for device in ("/dev/zero", "/dev/null"):  # never replaced by a page again
        if not stat.S_ISCHR(os.stat(device).st_mode):
            bad.append(f"{device} is no longer a device")
    print(f"{ran['inputs']} inputs ({ran['commands']} commands over {len(commands)} commands "
          f"of every group{', raw bytes and odd paths' if options.raw else ''}) in {took:.0f} "
          f"s: {len(bad)} misbehaved")
    for line in bad[:50]:
        print("  " + line)
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
