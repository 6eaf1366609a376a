"""SIGKILL a process writing to the evening at random moments: the file always opens, verifies,
and holds a prefix of the commands, each command whole (E98)."""

from __future__ import annotations

import copy
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from referee.evening import commands
from referee.evening.state import CHIPS_PER_COLOUR, State
from referee.storage.audit import verify
from referee.storage.store import open_evening
from referee.streams import Event, spec
from tests.profiles import examples

pytestmark = [pytest.mark.system,
              pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")]

SEATS = ["Ada:I:red:Ann:II", "Bob:III:blue:Bea:IV", "Cy:V:green"]
SETUP = 3  # commands: new, rise Ada, rise Bob
#: Writers killed: 30 in the ``ci`` profile (each a fresh process), 600 in ``nightly``.
KILLS = examples(30)
#: Console loops killed in the CLI test.
CLI_KILLS = examples(10)

#: The writer: commits two-event commands back to back, sealing a segment every few commands
#: (SEGMENT_SIZE 7), so kills land in event writes, backup rotation and seals alike. Each writer
#: is a fresh process forked by one parent that has imported the store once (``fork FIFO`` on
#: its stdin: it answers the writer's pid; ``wait PID``: how it ended, as a return code), so
#: that 30 writers do not each pay an interpreter's start and the imports. The writer says
#: ``ready``, then ``step`` after each commit, on the FIFO.
WRITER = """
import os, sys
from referee.storage import store
from referee.storage.store import open_evening

store.SEGMENT_SIZE = 7
path = sys.argv[1]

def step(state):
    back = bool(state.chips["Ann"].get("red"))
    a, b, c, d = ("Ann", "Ada", "Bea", "Bob") if back else ("Ada", "Ann", "Bob", "Bea")
    return [{"kind": "chips_given", "from": a, "to": b, "chips": {"red": 1}},
            {"kind": "chips_given", "from": c, "to": d, "chips": {"blue": 1}}]

def write(fifo):
    out = open(fifo, "w")
    with open_evening(path, write=False) as ev:
        ev.state("evening")  # the evening read before the parent starts the clock
    print("ready", file=out, flush=True)
    while True:
        with open_evening(path) as ev:
            ev.commit("evening", step(ev.state("evening")), "step")
        print("step", file=out, flush=True)  # acknowledged: the commit returned

for line in sys.stdin:
    word, arg = line.split()
    if word == "fork":
        pid = os.fork()
        if pid == 0:
            try:
                write(arg)
            finally:
                os._exit(1)  # only a kill may end a writer; anything else is a failure
        print(pid, flush=True)
    else:
        print(os.waitstatus_to_exitcode(os.waitpid(int(arg), 0)[1]), flush=True)
"""


def expected_step(k: int) -> list[Event]:
    """The k-th command of the writer (0-based): out on even steps, back on odd ones."""
    a, b, c, d = ("Ann", "Ada", "Bea", "Bob") if k % 2 else ("Ada", "Ann", "Bob", "Bea")
    return [{"kind": "chips_given", "from": a, "to": b, "chips": {"red": 1}},
            {"kind": "chips_given", "from": c, "to": d, "chips": {"blue": 1}}]


def new_evening(path: Path) -> None:
    seats = [commands.parse_seat(s) for s in SEATS]
    steps = [lambda s: commands.new_evening(s, "Fool", seats, now=0.0, force=False),
             lambda s: commands.rise(s, "Ada"), lambda s: commands.rise(s, "Bob")]
    for build in steps:
        with open_evening(path) as ev:
            ev.commit("evening", build(ev.state("evening")), "setup")


def assert_conserved(state: State) -> None:
    totals: dict[str, int] = {}
    for holding in state.chips.values():
        for colour, n in holding.items():
            assert n >= 0
            totals[colour] = totals.get(colour, 0) + n
    assert totals == dict.fromkeys(state.colours(), CHIPS_PER_COLOUR)


def check_sound(path: Path, events_per_command: int | None) -> list[tuple[Event, ...]]:
    """The file opens (no StoreError), verifies, holds contiguous whole commands; returns them."""
    with open_evening(path, write=False) as ev:
        problems = verify(ev)
        records = list(ev.records())
        cmds = ev.commands()
        state = ev.state("evening")
    assert problems == []
    assert [r["seq"] for r in records] == list(range(1, len(records) + 1))
    assert [c.cmd for c in cmds] == list(range(1, len(cmds) + 1))
    if events_per_command is not None:
        assert all(len(c.events) == events_per_command for c in cmds[SETUP:])
    sp = spec("evening")
    fresh = sp.empty()
    for record in records:
        fresh = sp.apply(fresh, copy.deepcopy(record["event"]))
    assert json.dumps(sp.dump(fresh), sort_keys=True) == json.dumps(sp.dump(state),
                                                                   sort_keys=True)
    assert_conserved(state)
    return [c.events for c in cmds[SETUP:]]


def check_backups_restore(path: Path, scratch: Path) -> None:
    """Every backup, copied over the evening file (as the GM is told to), opens and verifies."""
    for backup in sorted(path.parent.glob(f"{path.name}.bak.*")):
        shutil.rmtree(scratch, ignore_errors=True)
        scratch.mkdir()
        restored = scratch / path.name
        shutil.copy(backup, restored)
        segments = path.with_name(f"{path.name}.segments")
        if segments.exists():
            shutil.copytree(segments, scratch / segments.name)
        with open_evening(restored, write=False) as ev:
            assert verify(ev) == [], backup.name
    shutil.rmtree(scratch, ignore_errors=True)  # a killed writer's temp copied with it


def temp_files(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*") if p.name.endswith(".tmp")]


def test_sigkill_during_commits_always_leaves_a_sound_prefix(tmp_path: Path) -> None:
    seed = random.randrange(1 << 30)
    rng = random.Random(seed)
    db = tmp_path / "e.json"
    new_evening(db)
    done = 0
    forks = subprocess.Popen([sys.executable, "-c", WRITER, str(db)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert forks.stdin is not None and forks.stdout is not None
    fifo = tmp_path / "writer.out"
    live = None  # a writer not yet reaped, killed if a check fails while it runs

    def ask(line: str) -> int:
        assert forks.stdin is not None and forks.stdout is not None
        forks.stdin.write(line + "\n")
        forks.stdin.flush()
        answer = forks.stdout.readline()
        assert answer, forks.communicate()[1]
        return int(answer)

    try:
        for kill in range(KILLS):
            os.mkfifo(fifo)
            pid = live = ask(f"fork {fifo}")
            with open(fifo) as out:
                assert out.readline() == "ready\n", f"writer {kill} did not start"
                acknowledged = 0
                if kill % 2:  # every other writer is killed in full stride, however loaded
                    assert out.readline() == "step\n", f"writer {kill} wrote nothing"
                    acknowledged = 1
                time.sleep(rng.uniform(0.0, 0.04))
                os.kill(pid, signal.SIGKILL)
                acknowledged += out.read().count("step\n")  # up to the writer's end
            fifo.unlink()
            ended, live = ask(f"wait {pid}"), None
            assert ended == -signal.SIGKILL, f"writer died by itself (seed {seed}): {ended}"
            steps = check_sound(db, events_per_command=2)
            assert [list(s) for s in steps] == [expected_step(k) for k in range(len(steps))], seed
            assert len(steps) >= done + acknowledged, (
                f"kill {kill} lost acknowledged commands (seed {seed})")
            done = len(steps)
    finally:
        if live is not None:
            os.kill(live, signal.SIGKILL)
        errors = forks.communicate(timeout=60)[1]  # its stdin closed: it ends
    assert forks.returncode == 0, errors
    assert done >= KILLS // 4, f"only {done} commands in {KILLS} runs: kills hit no writes?"
    check_backups_restore(db, tmp_path / "restore")
    # Temp files of killed writers go with the next command; none stays behind.
    with open_evening(db) as ev:
        ev.commit("evening", expected_step(done), "after the kills")
    assert temp_files(tmp_path) == []
    assert len(check_sound(db, events_per_command=2)) == done + 1


CLI_LOOP = """
while true; do
  "$PY" -m referee --db "$DB" chips give Ada Ann red:1 >/dev/null 2>&1
  "$PY" -m referee --db "$DB" chips give Ann Ada red:1 >/dev/null 2>&1
done
"""


def test_sigkill_of_the_cli_console_at_random_moments(tmp_path: Path) -> None:
    rng = random.Random()
    db = tmp_path / "e.json"
    new_evening(db)
    env = {**os.environ, "PY": sys.executable, "DB": str(db)}
    # The kills land across a few commands' time, as long as a command takes on this machine
    # now (a loaded shared machine is several times slower than a quiet one).
    started = time.monotonic()
    subprocess.run([sys.executable, "-m", "referee", "--db", str(db), "status", "--json"],
                   env=env, capture_output=True, check=True)
    one = time.monotonic() - started
    done = 0
    for _ in range(CLI_KILLS):
        loop = subprocess.Popen(["bash", "-c", CLI_LOOP], env=env, start_new_session=True)
        time.sleep(rng.uniform(0.3 * one, 3.0 * one))
        os.killpg(loop.pid, signal.SIGKILL)  # the shell and the `referee` it is running
        loop.wait()
        steps = check_sound(db, events_per_command=1)
        assert len(steps) >= done
        done = len(steps)
    assert done > 0
