"""The fuzz of tests/test_fuzz.py at full size: many more inputs, every misbehaviour counted.

Each input is one to three command lines (any command, odd names, cards, numbers, option
values and files) typed at a copy of an evening in play. With ``--raw`` (the default) the
second generator also mutates the values with raw bytes (not UTF-8), NUL, control and format
characters, and gives odd paths (a pipe, a symlink loop, a dangling link, names over 255
bytes) as files and as ``--db``. Then (``--huge``, the default) every argument and option of
every command is given a number of 5,000 digits in each form a number takes (``N``,
``-N``, ``red:N``, ``fiery=N``, ``Ed:N:red``), and megabyte lines are piped into `referee
shell`: each must be one line and exit 2 with the evening's folder unchanged (E181, E184).
A command misbehaves when it exits other than 0 or 2, prints
a traceback or an internal error, or exits 2 and leaves the evening's folder changed; with
``--raw`` also when a refusal is more than one line, changes an odd file, or the evening's
chips no longer balance. Prints how many inputs and commands ran, and every misbehaviour.

    PYTHONPATH=. python benchmarks/fuzz.py [--examples 10000] [--seed N] [--no-raw] [--no-huge]
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("COLUMNS", "120")
os.environ.setdefault("NO_COLOR", "1")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--raw", action=argparse.BooleanOptionalAction, default=True,
                        help="the second generator: raw bytes and odd paths (default on)")
    parser.add_argument("--huge", action=argparse.BooleanOptionalAction, default=True,
                        help="5,000-digit numbers in every slot, megabyte shell lines")
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
    if options.huge:
        huge_numbers(fz, commands, base, scratch, bad)
        megabyte_lines(base, scratch, bad)
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


#: A number longer than Python's ``int`` reads (4,300 digits), in each form a number takes.
DIGITS = "9" * 5000
HUGE = [DIGITS, f"-{DIGITS}", f"red:{DIGITS}", f"fiery={DIGITS}", f"Ed:{DIGITS}:red"]


def huge_numbers(fz: Any, commands: list[tuple[tuple[str, ...], Any]], base: Path,
                 scratch: Path, bad: list[str]) -> None:
    """Every argument and value-taking option of every command given each of ``HUGE``, the
    others a plain name: each line must be refused in one line, exit 2, nothing changed."""
    work = scratch / "huge"
    shutil.copytree(base, work)
    runs = 0
    start = time.monotonic()
    for path, cmd in commands:
        slots = [p for p in cmd.params if p.param_type_name == "argument"
                 or (not p.is_flag and not getattr(p, "count", False))]
        for target in slots:
            for value in HUGE:
                args = list(path)
                for param in cmd.params:
                    if param.param_type_name == "argument":
                        args += [value if param is target else "Ada"] * max(param.nargs, 1)
                    elif param is target:
                        args += [param.opts[0], value]
                runs += 1
                problem = fz.misbehaviour(work / "e.json", args, strict=True)
                if problem is None and fz.CliRunner().invoke(
                        fz._app(), ["--db", str(work / "e.json"), *args]).exit_code != 2:
                    problem = "a 5,000-digit number was taken"
                if problem is not None:
                    bad.append(f"referee {' '.join(a[:20] for a in args)}: {problem}")
    print(f"5,000-digit numbers: {runs} command lines over {len(commands)} commands in "
          f"{time.monotonic() - start:.0f} s")


def megabyte_lines(base: Path, scratch: Path, bad: list[str]) -> None:
    """Lines of one and three megabytes piped into `referee shell`: each refused at once in
    one line, the evening unchanged, the shell going on to the next line."""
    from typer.testing import CliRunner

    from referee.cli.main import app
    from tests import test_fuzz as fz

    work = scratch / "lines"
    shutil.copytree(base, work)
    db = work / "e.json"
    mb = 1 << 20
    lines = ["bet Ada " + "A" * mb, 'bet Ada "' + "A" * mb + '"', "bet Ada " + "9" * mb,
             "chips give Ada Ann 'red:1 " + "x" * mb + "'", "fate char new " + "G" * (3 * mb),
             "log --person " + "é" * mb, "# " + "c" * mb, "'" + "q" * mb]
    before = fz.folder_bytes(work)
    slowest = 0.0
    for line in lines:
        start = time.monotonic()
        result = CliRunner().invoke(app, ["--db", str(db), "shell"], input=line + "\nstatus\n")
        took = time.monotonic() - start
        slowest = max(slowest, took)
        errors = [ln for ln in result.stderr.splitlines() if ln.strip()]
        if result.exit_code != 2 or len(errors) != 1 or "E184" not in errors[0]:
            bad.append(f"shell line of {len(line):,} characters: exit {result.exit_code}, "
                       f"{[e[:120] for e in errors]}")
        if "Fool's Errand" not in result.stdout:
            bad.append(f"shell line of {len(line):,} characters: the next line did not run")
        if fz.folder_bytes(work) != before:
            bad.append(f"shell line of {len(line):,} characters changed the evening's folder")
    print(f"megabyte shell lines: {len(lines)} lines of 1-3 MB, the slowest {slowest:.2f} s")


if __name__ == "__main__":
    raise SystemExit(main())
