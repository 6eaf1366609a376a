"""Console latency against the import floor, at 100 and at 20,000 logged events.

Builds two evenings (through the store, the way commands write them), runs ``verify`` once
on each (as the GM would have during the night), then times in one interleaved loop, medians
over ROUNDS runs each (CPU time, user + system, of a fresh process):

- floor:    python -c "import typer, rich, tinydb"
- status:   referee status --json             (a read)
- status-h: referee status                    (the human table)
- give:     referee chips give A B red:1       (a write: lock, validate, append, fsync)
- verify:   referee verify                    (only what was not verified before)
- last:     referee log --last 20

Prints each as a ratio of the floor, against these bars: status --json at most
1.15x, a write 1.25x, human status 1.5x, at both sizes. Then, inside one ``referee shell``
at each size, a write typed at the prompt against a bare fsynced rewrite of the same file
(temp file, fsync, rename, fsync of the folder: what any durable write of it costs), wall
time, interleaved, each after a pause of ``PAUSE`` so that neither is timed beside the
other's disk work: the bar is 2x. ``--shell-only`` times only that last part.

Measure an installed package (a regular ``pip install .``), not the checkout:

    python3 -m venv /tmp/bench-venv && /tmp/bench-venv/bin/pip install -q .
    /tmp/bench-venv/bin/python benchmarks/latency.py [--events 20000] [--rounds 15] [--shell-only]
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


# (label, arguments, bar as a ratio of the floor or None)
COMMANDS: list[tuple[str, list[str], float | None]] = [
    ("status", ["status", "--json"], 1.15),
    ("give", ["chips", "give", "Ben", "Di", "red:1"], 1.25),
    ("status-h", ["status"], 1.5),
    ("verify", ["verify"], None),
    ("last", ["log", "--last", "20"], None),
]


def bare_rewrite(path: Path) -> float:
    """Wall seconds of one durable rewrite of ``path``'s bytes beside it: temp file, fsync,
    rename, fsync of the folder (the floor of any write that survives a power cut)."""
    data = path.read_bytes()
    target = path.with_name(f"{path.name}.bare")
    started = time.perf_counter()
    tmp = target.with_name(f".{target.name}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, target)
    folder = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(folder)
    finally:
        os.close(folder)
    return time.perf_counter() - started


#: Seconds between a shell's answer and the bare rewrite, and between that and the next line.
PAUSE = 0.02


def shell_writes(console: list[str], db: Path, env: dict[str, str], rounds: int
                 ) -> tuple[float, float]:
    """Median wall seconds of a write typed into one ``referee shell`` (from the line sent
    to its answer read back) and of a bare rewrite of the same file, in turn."""
    shell = subprocess.Popen([*console, "--db", str(db), "shell"], env=env, text=True,
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, bufsize=1)
    assert shell.stdin is not None and shell.stdout is not None
    writes: list[float] = []
    bare: list[float] = []
    try:
        for n in range(rounds + 2):
            src, dst = ("Ben", "Di") if n % 2 == 0 else ("Di", "Ben")
            started = time.perf_counter()
            shell.stdin.write(f"chips give {src} {dst} red:1\n")
            shell.stdin.flush()
            answer = shell.stdout.readline()
            took = time.perf_counter() - started
            if "gives" not in answer:
                raise SystemExit(f"the shell answered {answer!r}")
            if n >= 2:  # the first lines build the command tree
                writes.append(took)
                # Each timed alone: a pause lets the shell finish what it does after its answer
                # (the mark that it was shown, E41) and the disk settle after the bare rewrite,
                # as the seconds between two lines of a GM would; back to back, each was timed
                # beside the other's journal commit.
                time.sleep(PAUSE)
                bare.append(bare_rewrite(db))
                time.sleep(PAUSE)
    finally:
        shell.stdin.close()
        shell.wait(timeout=30)
        db.with_name(f"{db.name}.bare").unlink(missing_ok=True)
    if rounds % 2:  # leave the chips where they were
        subprocess.run([*console, "--db", str(db), "chips", "give", "Di", "Ben", "red:1"],
                       env=env, check=True, stdout=subprocess.DEVNULL)
    return statistics.median(writes), statistics.median(bare)


def warm_verify(console: list[str], sizes: tuple[tuple[str, Path], ...],
                env: dict[str, str]) -> None:
    """Verify each evening once whole, then once more, as the GM would have during the night:
    the timed ``verify`` checks only what was not verified before."""
    for _label, db in sizes:  # the night's first verify checks everything
        subprocess.run([*console, "--db", str(db), "verify", "--all"], env=env, check=True,
                       stdout=subprocess.DEVNULL)
    time.sleep(2.5)  # verify remembers only segment files a few seconds old
    for _label, db in sizes:
        subprocess.run([*console, "--db", str(db), "verify"], env=env, check=True,
                       stdout=subprocess.DEVNULL)


def one_shot(console: list[str], sizes: tuple[tuple[str, Path], ...], env: dict[str, str],
             rounds: int) -> None:
    """Time each command of ``COMMANDS`` in a fresh process at each size against the floor,
    interleaved, and print the medians as ratios of it."""
    floor = [sys.executable, "-c", "import typer, rich, tinydb"]
    samples: dict[str, list[float]] = {}
    for _ in range(rounds):
        # Interleaved so that machine noise hits every measurement alike.
        samples.setdefault("floor", []).append(timed(floor, env))
        for size, db in sizes:
            for label, argv, _bar in COMMANDS:
                samples.setdefault(f"{label}@{size}", []).append(
                    timed([*console, "--db", str(db), *argv], env))
                if label == "give":
                    subprocess.run([*console, "--db", str(db), "undo"], env=env, check=True,
                                   stdout=subprocess.DEVNULL)
    med = {k: statistics.median(v) for k, v in samples.items()}
    f = med["floor"]
    print(f"floor  python -c 'import typer, rich, tinydb': {f * 1000:6.1f} ms CPU "
          f"(median of {rounds})")
    for label, argv, bar in COMMANDS:
        cells = []
        worst = 0.0
        for size, _db in sizes:
            ratio = med[f"{label}@{size}"] / f
            worst = max(worst, ratio)
            cells.append(f"@{size}: {med[f'{label}@{size}'] * 1000:6.1f} ms ({ratio:4.2f}x)")
        verdict = "" if bar is None else f"  bar {bar}x: " + (
            "meets it" if worst <= bar else "ABOVE it")
        print(f"{' '.join(argv)[:24]:24} {'   '.join(cells)}{verdict}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--dir", type=Path, default=None,
                        help="Keep the evenings here (built once, reused by later runs).")
    parser.add_argument("--shell-only", action="store_true",
                        help="Time only the writes inside `referee shell` (the last part).")
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
    sizes = (("100", small), (str(args.events), large))
    if not args.shell_only:
        warm_verify(console, sizes, env)
        one_shot(console, sizes, env, args.rounds)
    for size, db in sizes:
        write, bare = shell_writes(console, db, env, args.rounds)
        ratio = write / bare
        print(f"shell write @{size}: {write * 1000:5.2f} ms against a bare fsynced rewrite "
              f"{bare * 1000:5.2f} ms ({ratio:4.2f}x)  bar 2x: "
              + ("meets it" if ratio <= 2 else "ABOVE it"))
    if args.dir is None:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
