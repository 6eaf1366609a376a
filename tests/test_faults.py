"""Nothing lost at the edges (E40-E46, E94, E97): writes the disk refuses, damaged files, a console
stopped before its answer, odd --html and --db paths, bounded input, filters, leftovers."""

from __future__ import annotations

import errno
import json
import os
import re
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from referee.storage import store
from referee.storage.store import GENESIS, event_hash
from tests.cli.conftest import GM

# Every write step here is a real one: the faults are injected into fsync too.
pytestmark = pytest.mark.durable

SEATS = ["--seat", "Ada:XVI:red:Ann:IX", "--seat", "Cy:III:blue:Di:II"]
GIVE = ("chips", "give", "Ada", "Ann", "red:1")


@pytest.fixture
def gm(runner: CliRunner, db: Path) -> GM:
    return GM(runner, db)


@pytest.fixture
def evening(gm: GM) -> GM:
    """Max and two seats; Ada has risen, so she and Ann may trade chips (R16); three backups
    (played once, ``GM.played``)."""
    gm.played("faults", _play_evening)
    return gm


def _play_evening(gm: GM) -> None:
    gm("new", "--fool", "Max", *SEATS)
    gm("rise", "Ada")
    gm(*GIVE)
    gm("chips", "give", "Ann", "Ada", "red:1")


def folder_bytes(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` and its bytes: the evening, backups, segments, the lock."""
    return {str(p.relative_to(folder)): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def one_line(text: str) -> str:
    lines = [ln for ln in text.splitlines() if ln.strip()]
    assert len(lines) == 1, text
    return lines[0]


# -- E40: writes the disk refuses ------------------------------------------------------------


class Faults:
    """Counts the write steps (os.write, fsync, os.replace, os.link) and fails the n-th."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, fail_at: int | None, code: int) -> None:
        self.calls = 0
        self.fail_at = fail_at
        self.code = code
        self.failed: str | None = None
        for name in ("write", "fsync", "replace", "link"):
            monkeypatch.setattr(os, name, self._wrap(name, getattr(os, name)))

    def _wrap(self, name: str, real: Callable[..., Any]) -> Callable[..., Any]:
        def step(*args: Any, **kwargs: Any) -> Any:
            self.calls += 1
            if self.calls == self.fail_at and self.failed is None:
                self.failed = name
                raise OSError(self.code, os.strerror(self.code))
            return real(*args, **kwargs)

        return step


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EACCES, errno.EROFS])
@pytest.mark.parametrize("seal", [False, True], ids=["plain", "sealing"])
def test_e40_a_refused_write_at_any_step_changes_nothing(
        evening: GM, db: Path, monkeypatch: pytest.MonkeyPatch, code: int, seal: bool) -> None:
    if seal:
        monkeypatch.setattr(store, "SEGMENT_SIZE", 2)  # this command also seals a segment
    folder = db.parent
    with monkeypatch.context() as m:  # a dry run counts the steps of one command
        counter = Faults(m, None, code)
        before = folder_bytes(folder)
        evening(*GIVE)
        steps = counter.calls
    assert steps >= 4
    committed = 0
    for k in range(1, steps + 1):
        for name in list(folder_bytes(folder)):  # back to the evening before the command
            (folder / name).unlink()
        for name, data in before.items():
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            (folder / name).write_bytes(data)
        with monkeypatch.context() as m:
            faults = Faults(m, k, code)
            result = evening.invoke(*GIVE)
        assert "Traceback" not in result.output and "internal error" not in result.output
        if result.exit_code == 2:
            line = one_line(result.output)
            assert "nothing was written" in line, (k, faults.failed, line)
            assert folder_bytes(folder) == before, f"step {k} ({faults.failed}) changed files"
        else:
            # Past the commit (the folder's fsync, the backups moving up): recorded, said so.
            assert result.exit_code == 0, result.output
            committed += 1
            assert faults.failed in ("fsync", "replace", "link"), faults.failed  # link: a copy
            if faults.failed == "replace":
                assert "could not be rotated" in result.stderr, (k, faults.failed)
            assert evening.chips("Ann")["red"] == 1, "the command is recorded"
    assert committed <= 6  # only folders' fsyncs (ignored) and the backups' renames


def test_e40_a_full_disk_keeps_every_backup(evening: GM, db: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Two failed gives on a full disk once left three equal backups: never again."""
    backups = {n: (db.parent / n).read_bytes() for n in ("evening.json.bak.1",
                                                         "evening.json.bak.2",
                                                         "evening.json.bak.3")}
    assert len(set(backups.values())) == 3
    real = os.write

    def full(fd: int, data: Any) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "write", full)
    for _ in range(2):
        line = evening.fails(*GIVE)
        assert line == (f"error: no space left on the disk that holds {db}; nothing was "
                        "written; free some space and type the command again")
    monkeypatch.setattr(os, "write", real)
    assert {n: (db.parent / n).read_bytes() for n in backups} == backups


@pytest.mark.skipif(not hasattr(os, "geteuid"), reason="POSIX permissions")
def test_e40_an_archived_read_only_evening_is_refused_even_for_root(evening: GM,
                                                                    db: Path) -> None:
    db.chmod(0o444)
    try:
        line = evening.fails(*GIVE)
        assert "is read-only" in line and "nothing was written" in line
        assert evening.chips("Ann").get("red", 0) == 0  # reading still works
    finally:
        db.chmod(0o644)


# -- E40: damaged and tampered files ---------------------------------------------------------


def _rechained(data: dict[str, Any], change: Callable[[dict[str, Any]], None]) -> str:
    """The evening JSON with ``change`` made to its last event, the chain recomputed (a forger
    who knows the hash), written without the checksum."""
    events = data["events"]
    change(events[max(events, key=int)])
    prev = data["meta"]["1"].get("sealed_head", GENESIS)
    for key in sorted(events, key=int):
        record = events[key]
        record["prev"] = prev
        record["hash"] = prev = event_hash(prev, record)
    data["meta"]["1"]["head"] = prev
    return json.dumps(data)


def _flip(text: str) -> str:
    at = text.rindex('"text":"chips give Ann Ada') + len('"text":"chips give A')
    return text[:at] + "x" + text[at + 1:]


def _unknown(data: dict[str, Any]) -> str:
    return _rechained(data, lambda r: r["event"].update(kind="chips_conjured"))


def _missing(data: dict[str, Any]) -> str:
    return _rechained(data, lambda r: r["event"].pop("to"))


def _snapshot(data: dict[str, Any]) -> str:
    data["snapshot"]["1"]["states"] = {"evening": "garbage"}
    return json.dumps(data)


def _first_key(key: str) -> Callable[[str], str]:
    """The first event's ``key`` misspelt by one byte (``"stream"`` -> ``"stseam"``)."""
    def damage(text: str) -> str:
        at = text.index('"events":{"1":{')
        at = text.index(f'"{key}"', at) + 3
        return text[:at] + "s" + text[at + 1:]

    return damage


DAMAGE: dict[str, tuple[Callable[[str], str], str]] = {
    "first event's stream key": (_first_key("stream"), "checksum does not match"),
    "first event's event key": (_first_key("event"), "checksum does not match"),
    "binary garbage": (lambda text: "\x00\xff\xfe" * 100, "not JSON"),
    "invalid UTF-8": (lambda text: "", "not text"),  # bytes written below
    "flipped byte in an event": (_flip, "checksum does not match"),
    "event edited by hand": (lambda t: json.dumps(_edit(t)), "hash does not match"),
    "unknown event kind": (lambda t: _unknown(json.loads(_strip(t))), "does not replay"),
    "missing field": (lambda t: _missing(json.loads(_strip(t))), "does not replay"),
    "garbage snapshot": (lambda t: _snapshot(json.loads(_strip(t))), "does not load"),
    "a number of 5,000 digits": (lambda t: t.replace('"next_seq":', '"next_seq":' + "1" * 5000
                                                     + ',"x":', 1), "more than 4,300 digits"),
}


def _strip(text: str) -> str:
    data = json.loads(text)
    data.pop("check")
    return json.dumps(data)


def _edit(text: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(_strip(text))
    last = data["events"][max(data["events"], key=int)]
    last["event"]["chips"] = {"red": 5}
    return data


@pytest.mark.parametrize("how", sorted(DAMAGE))
def test_e40_every_damage_is_one_line_naming_the_newest_good_backup(
        evening: GM, db: Path, how: str) -> None:
    damage, what = DAMAGE[how]
    if how == "invalid UTF-8":
        db.write_bytes(b'{"meta": "\xff\xfe"}')
    else:
        db.write_text(damage(db.read_text()))
    backup = re.escape(f"{db}.bak.1")
    for command in (("status",), GIVE, ("log",), ("report",)):
        line = evening.fails(*command)
        assert re.fullmatch(rf"error: {re.escape(str(db))} is damaged \(.*{what}.*\); the newest "
                            rf"good backup is {backup} .*", line), (how, command, line)
    # verify lists the damage and names the same way back, exit 2, never a bug (E93).
    result = evening.invoke("verify")
    assert result.exit_code == 2 and "internal error" not in result.output, result.output
    assert f"newest good backup is {db}.bak.1" in " ".join(result.output.split())


def test_e40_verify_checks_the_snapshot_against_the_fold(evening: GM, db: Path) -> None:
    data = json.loads(_strip(db.read_text()))
    data["snapshot"]["1"]["states"] = {"scum": {"match": None}}  # loads, but no event made it
    db.write_text(json.dumps(data))
    result = evening.invoke("verify")
    assert result.exit_code == 2 and "no event made" in result.output, result.output


def test_e40_a_copied_backup_opens_again(evening: GM, db: Path) -> None:
    db.write_text("junk")
    line = evening.fails("status")
    backup = Path(line.split("the newest good backup is ")[1].split(" ")[0])
    db.write_bytes(backup.read_bytes())
    assert evening("verify").exit_code == 0


# -- E41: a console stopped between its write and its answer ---------------------------------

KILLED = """
import os, signal, sys
import referee.cli.output.render as render
render.announce = lambda *a, **k: os.kill(os.getpid(), signal.SIGKILL)
sys.argv = ["referee", "--db", sys.argv[1], *sys.argv[2:]]
from referee.cli.main import run
run()
"""


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
@pytest.mark.system
def test_e41_a_command_killed_before_its_answer_is_told_once(evening: GM, db: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    child = subprocess.run([sys.executable, "-c", KILLED, str(db), *GIVE], env=env,
                           capture_output=True, text=True, timeout=60)
    assert child.returncode == -signal.SIGKILL, child.stderr
    line = evening.fails(*GIVE)  # the GM types it again: refused once, with why
    assert "was recorded, though its answer may not have been shown" in line and "E41" in line
    assert evening.chips("Ann")["red"] == 1  # recorded once, though never answered
    evening(*GIVE)  # typed once more, on purpose: it runs
    assert evening.chips("Ann")["red"] == 2
    assert "note:" not in evening("status").stderr


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
@pytest.mark.system
def test_e41_the_next_other_command_mentions_it_once(evening: GM, db: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    subprocess.run([sys.executable, "-c", KILLED, str(db), *GIVE], env=env,
                   capture_output=True, timeout=60)
    first = evening("status")
    assert "`chips give Ada Ann red:1` before this one was recorded" in first.stderr
    assert "note:" not in evening("status").stderr


def _in_another_process(db: Path, *args: str) -> None:
    """``referee --db DB ARGS`` typed at another console, which exits when it has answered."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    subprocess.run([sys.executable, "-m", "referee", "--db", str(db), *args], env=env,
                   check=True, capture_output=True, timeout=60)


@pytest.mark.system
def test_e41_an_evening_copied_without_its_lock_is_ordinary(evening: GM, db: Path,
                                                           tmp_path: Path) -> None:
    import shutil

    _in_another_process(db, *GIVE)  # answered, by a console that has exited since
    stick = tmp_path / "stick"
    stick.mkdir()
    shutil.copy(db, stick / db.name)  # a USB stick: the evening file alone, no lock
    assert not (stick / f"{db.name}.lock").exists()
    copy = GM(evening.runner, stick / db.name)
    result = copy(*GIVE)  # the very same command again, on purpose: it runs, no note
    assert "note:" not in result.stderr and "E41" not in result.output
    assert copy.chips("Ann")["red"] == 2


@pytest.mark.system
def test_e41_a_backup_restored_as_advised_is_ordinary(evening: GM, db: Path) -> None:
    _in_another_process(db, *GIVE)
    _in_another_process(db, "chips", "give", "Ann", "Ada", "red:1")
    db.with_name(f"{db.name}.lock").unlink()
    backup = db.with_name(f"{db.name}.bak.1")  # the evening before the last command
    db.write_bytes(backup.read_bytes())
    result = evening.invoke(*GIVE)
    assert result.exit_code == 0, result.output
    assert "note:" not in result.stderr
    assert evening.chips("Ann")["red"] == 2


@pytest.mark.system
@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_e41_the_note_travels_with_a_copy_of_the_file(evening: GM, db: Path,
                                                      tmp_path: Path) -> None:
    import shutil

    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    subprocess.run([sys.executable, "-c", KILLED, str(db), *GIVE], env=env,
                   capture_output=True, timeout=60)
    stick = tmp_path / "stick"
    stick.mkdir()
    shutil.copy(db, stick / db.name)
    copy = GM(evening.runner, stick / db.name)
    # The answer really was never shown: the copy says so once, as the original would.
    assert "`chips give Ada Ann red:1` before this one was recorded" in copy("status").stderr
    assert "note:" not in copy("status").stderr


def test_a_failure_after_the_commit_does_not_deny_the_write(
        evening: GM, monkeypatch: pytest.MonkeyPatch) -> None:
    from referee.cli.output import render

    def broken(*args: Any) -> None:
        raise ValueError("a renderer bug")

    monkeypatch.setattr(render, "announce", broken)
    result = evening.invoke(*GIVE)
    assert result.exit_code == 0, result.output
    assert "recorded: `chips give Ada Ann red:1`" in result.stderr
    assert "nothing was written" not in result.output
    assert evening.chips("Ann")["red"] == 1


# -- E45: --html, symlinks, bounded input ----------------------------------------------------


def test_e45_html_never_lands_on_the_evenings_own_files(evening: GM, db: Path) -> None:
    before = folder_bytes(db.parent)
    for target in (db, Path(f"{db}.bak.1"), Path(f"{db}.lock"), Path(f"{db}.bak.7"),
                   Path(f"{db}.replaced-20260101-120000"), Path(f"{db}.segments") / "x.html"):
        for command in (("report",), ("handout", "Ann")):
            line = evening.fails(*command, "--html", str(target), "--force")
            assert "evening's own file" in line, line
    assert folder_bytes(db.parent) == before


def test_e45_html_never_replaces_a_device_or_a_pipe(evening: GM, tmp_path: Path) -> None:
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    for command in (("report",), ("handout", "Ann")):
        assert "not a regular file" in evening.fails(*command, "--html", str(pipe), "--force")
    assert pipe.is_fifo()


def test_e45_html_needs_force_over_another_file_and_secrets_are_0600(
        evening: GM, tmp_path: Path) -> None:
    other = tmp_path / "notes.html"
    other.write_text("mine")
    assert "already exists" in evening.fails("report", "--html", str(other))
    assert other.read_text() == "mine"
    evening("report", "--html", str(other), "--force")
    assert other.read_text().startswith("<!DOCTYPE html>")
    assert other.stat().st_mode & 0o777 == 0o644
    for name, command in (("gm.html", ("report", "--reveal")), ("ann.html", ("handout", "Ann"))):
        evening(*command, "--html", str(tmp_path / name))
        assert (tmp_path / name).stat().st_mode & 0o777 == 0o600, name


def test_e45_a_symlinked_db_writes_its_target(runner: CliRunner, tmp_path: Path) -> None:
    real = tmp_path / "real.json"
    link = tmp_path / "link.json"
    gm = GM(runner, real)
    gm("new", "--fool", "Max", *SEATS)
    gm("rise", "Ada")
    link.symlink_to(real)
    via = GM(runner, link)
    via(*GIVE)
    assert link.is_symlink()
    assert gm.chips("Ann")["red"] == 1
    assert not (tmp_path / "link.json.lock").exists()
    assert not list(tmp_path.glob("link.json.bak.*"))


def test_e45_a_planted_symlink_lock_is_refused(evening: GM, db: Path, tmp_path: Path) -> None:
    lock = Path(f"{db}.lock")
    lock.unlink()
    lock.symlink_to(tmp_path / "elsewhere")
    assert "symbolic link" in evening.fails(*GIVE)
    assert not (tmp_path / "elsewhere").exists()


@pytest.mark.parametrize("args", [
    ("scenario", "check", "{zero}"), ("scenario", "show", "{zero}"),
    ("hand", "rank", "--from-file", "{zero}"), ("wager", "new", "A", "B", "--points", "{zero}"),
    ("scenario", "check", "{deep}"), ("wager", "new", "A", "B", "--points", "{deep}"),
    ("scenario", "check", "{binary}"), ("hand", "rank", "--from-file", "{binary}"),
    ("new", "--fool", "Max", *SEATS, "--scenario", "{zero}"),
    ("watch", "--interval", "nan"), ("watch", "--interval", "inf"),
    ("wager", "new", "A", "B", "--elixir-turns", "99999999999999999999"),
    ("log", "--hand", "-1"), ("log", "--hand", "99"),
    ("wager", "new", "A", "B", "--points", "\x00"),  # found by benchmarks/fuzz.py
    ("wager", "new", "A", "B", "--points", "{huge}"), ("scenario", "check", "{huge}"),  # E181
])
def test_e45_absurd_input_is_one_line(evening: GM, db: Path, tmp_path: Path,
                                      args: tuple[str, ...]) -> None:
    deep = tmp_path / "deep.toml"
    deep.write_text("a = " + "[" * 3000 + "]" * 3000 + "\n")
    binary = tmp_path / "binary.toml"
    binary.write_bytes(bytes(range(256)) * 8)
    huge = tmp_path / "huge.toml"
    huge.write_text("souls = 1" + "0" * 5000 + "\n")
    paths = {"zero": "/dev/zero", "deep": str(deep), "binary": str(binary), "huge": str(huge)}
    line = evening.fails(*(a.format(**paths) for a in args))
    assert "MemoryError" not in line and "Recursion" not in line and "internal" not in line
    assert "set_int_max_str_digits" not in line  # Python's advice is not the GM's


#: A number longer than Python reads (4,300 digits), in every kind of slot a number goes: an
#: amount, COLOUR:N, a count, a command's number, an Arcanum, a turn count, a Measure, a
#: static challenge, help, a weapon, a seat's Arcanum, an option click reads (E181).
HUGE = "9" * 5000
NUMBER_SLOTS = [
    ("bet", "Ada", HUGE), ("raise", "Ada", HUGE), ("chips", "give", "Ada", "Ann", f"red:{HUGE}"),
    ("count", "Ada", f"red:{HUGE}"), ("amend", HUGE, "--", "bet", "Ada"),
    ("amend", "--drop", HUGE), ("soul", "guess", "Ann", "amber", "--arcanum", HUGE),
    ("soul", "consume", "Ada", "amber", "--arcanum", HUGE), ("wager", "turn", HUGE),
    ("wager", "turn", "fool", HUGE), ("fate", "char", "edit", "Ada", f"fiery={HUGE}"),
    ("fate", "test", "--pool", "3", "--static", HUGE), ("fate", "test", "--pool", "3", "--aid",
                                                          HUGE),
    ("fate", "fight", "Ada", "Cy", "--a-weapon", HUGE),
    ("new", "--force", "--fool", "Max", "--seat", f"Ed:{HUGE}:red"),
    ("sit", "Ed", "--arcanum", HUGE), ("status", "--at", HUGE), ("log", "--last", HUGE),
    ("undo", "-" + HUGE), ("chips", "give", "Ada", "Ann", "red:1_" + "9_" * 2600 + "9"),
]


@pytest.mark.parametrize("args", NUMBER_SLOTS, ids=lambda a: " ".join(a)[:40])
def test_e181_a_number_of_thousands_of_digits_is_one_line_in_every_slot(
        evening: GM, args: tuple[str, ...]) -> None:
    line = evening.fails(*args)
    assert "E181" in line and "internal" not in line, line
    assert "5,000 digits" in line or "2,602 digits" in line


@pytest.mark.parametrize("args, hint", [
    (("log", "--table", "Zzyzx"), "known: evening, scum, wager, fate"),
    (("log", "--person", ""), "expected one of"),
    (("log", "--person", "Zed"), "unknown person"),
    (("log", "--soul", ""), "name a soul"),
    (("undo", "--table", ""), "expected one of"),
    (("redo", "--table", "nope"), "unknown table"),
    (("call", "Cy", "--chips", ""), "--chips is empty"),
])
def test_e46_filters_that_match_nothing_are_refused(evening: GM, args: tuple[str, ...],
                                                    hint: str) -> None:
    assert hint in evening.fails(*args)


def test_s40_scenario_check_lists_fifty_problems_then_how_many_more(
        gm: GM, tmp_path: Path) -> None:
    junk = tmp_path / "junk.toml"
    junk.write_text("".join(f"key{i} = {i}\n" for i in range(80)))
    result = gm.invoke("scenario", "check", str(junk))
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 51, result.stderr
    assert re.fullmatch(r"error: and \d+ more problems in .*junk\.toml; fix these first",
                        lines[-1])


# -- E42 names; a refused command leaves nothing behind --------------------------------------


@pytest.mark.parametrize("args, why", [
    (("new", "--fool", "", *SEATS), "empty"),
    (("new", "--fool", "   ", *SEATS), "empty"),
    (("new", "--fool", "Max\nMin", *SEATS), "control character"),
    (("new", "--fool", "Max\x1b[31m", *SEATS), "control character"),
    (("new", "--fool", "M" * 41, *SEATS), "at most 40"),
    (("new", "--fool", "Max", "--seat", ":XVI:red", "--seat", "Cy:III:blue"), "bad seat"),
    (("new", "--fool", "Max", "--seat", "Ada:XVI:red:B\x1bn:IX", "--seat", "Cy:III:blue"),
     "control character"),
    (("new", "--fool", "ada", *SEATS), "used twice"),
    (("scum", "new", "A", "B", "C", "D\x07"), "control character"),
    (("wager", "new", "Ann", "x" * 50), "at most 40"),
    (("fate", "char", "new", "Gus\x1b"), "control character"),
])
def test_e42_names_are_checked_where_they_enter(gm: GM, db: Path, args: tuple[str, ...],
                                                why: str) -> None:
    assert why in gm.fails(*args)
    assert not db.exists()


def test_e42_names_are_trimmed(gm: GM) -> None:
    gm("new", "--fool", "  Max  ", "--seat", " Ada :XVI:red", "--seat", "Cy:III:blue")
    assert gm.status()["fool"] == "Max"


def test_a_refused_command_leaves_no_folder_and_no_lock(gm: GM, tmp_path: Path,
                                                        runner: CliRunner) -> None:
    fresh = GM(runner, tmp_path / "new" / "deeper" / "e.json")
    fresh.fails("new", "--fool", "", *SEATS)
    fresh.fails(*GIVE)
    fresh.fails("undo")
    assert not (tmp_path / "new").exists()
    gm.fails("undo")
    gm.fails("chips", "give", "Ada", "Ann", "red:1")
    assert sorted(p.name for p in tmp_path.iterdir()) == []
    (tmp_path / "a-folder").mkdir()
    folder = GM(runner, tmp_path / "a-folder")  # `--db` naming a folder (or /dev/zero)
    for command in (("status",), GIVE):
        result = folder.invoke(*command)
        assert result.exit_code == 2 and "is not an evening file" in one_line(result.output)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-folder"]


@pytest.mark.parametrize("limit", [1000, 20000])
def test_e45_nested_too_deeply_whatever_the_recursion_limit(
        evening: GM, tmp_path: Path, limit: int) -> None:
    """A file nested 3,000 deep is refused in one line whether the parser gives up (the usual
    recursion limit) or parses it (a raised one, as some test libraries set for a while)."""
    deep = tmp_path / "deep.toml"
    deep.write_text("a = " + "[" * 3000 + "]" * 3000 + "\n")
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(limit)
    try:
        scenario = evening.fails("scenario", "check", str(deep))
        points = evening.fails("wager", "new", "A", "B", "--points", str(deep))
    finally:
        sys.setrecursionlimit(old)
    assert "nested too deeply" in scenario and "E45" in scenario
    assert "nested too deeply" in points


# -- E182: an evening file deleted beside its backups and segments ----------------------------


@pytest.mark.parametrize("sealed", [False, True], ids=["backups", "backups and segments"])
def test_e182_a_deleted_evening_is_said_with_its_newest_good_backup(
        evening: GM, db: Path, monkeypatch: pytest.MonkeyPatch, sealed: bool) -> None:
    if sealed:  # small segments: the last commands sealed some, as on a long night
        monkeypatch.setattr(store, "SEGMENT_SIZE", 2)
        for _ in range(3):
            evening(*GIVE)
            evening("chips", "give", "Ann", "Ada", "red:1")
        assert store.segments.folder(db).is_dir()
    db.unlink()
    Path(f"{db}.lock").unlink()  # a lock alone is no evening: a refusal removes one it made
    before = folder_bytes(db.parent)
    for command in (("status",), GIVE, ("log",), ("verify",), ("report",),
                    ("new", "--fool", "Max", *SEATS)):
        line = evening.fails(*command)
        assert f"{db} is missing" in line and "E182" in line, (command, line)
        assert f"the newest good backup is {db}.bak.1" in line, (command, line)
        assert "new --force" in line
        assert folder_bytes(db.parent) == before, command
    # The advice followed: the backup copied back is the evening, sound.
    restored = db.with_name("restored.json")
    restored.write_bytes(Path(f"{db}.bak.1").read_bytes())
    if sealed:
        os.symlink(store.segments.folder(db), store.segments.folder(restored))
    from referee.cli.main import app

    result = evening.runner.invoke(app, ["--db", str(restored), "verify"])
    assert result.exit_code == 0 and "sound" in result.output, result.output


def test_e182_new_force_keeps_the_deleted_evenings_backups_under_another_name(
        evening: GM, db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store, "SEGMENT_SIZE", 2)
    for _ in range(3):
        evening(*GIVE)
    old = {n: Path(f"{db}.bak.{n}").read_bytes() for n in (1, 2, 3)}
    db.unlink()
    out = evening("new", "--force", "--fool", "Max", *SEATS).output
    assert "E182" in out
    kept = next(db.parent.glob(f"{db.name}.replaced-*.bak.1")).name.removesuffix(".bak.1")
    assert {n: (db.parent / f"{kept}.bak.{n}").read_bytes() for n in (1, 2, 3)} == old
    assert not Path(f"{db}.bak.1").exists() and not store.segments.folder(db).exists()
    for _ in range(3):  # three writes on the new evening rotate nothing of the old one away
        evening("rise", "Ada")
        evening("sit", "Ada")
    assert {n: (db.parent / f"{kept}.bak.{n}").read_bytes() for n in (1, 2, 3)} == old
    # A kept backup copied to the kept name opens whole, its segments beside it.
    (db.parent / kept).write_bytes(old[1])
    from referee.cli.main import app

    result = evening.runner.invoke(app, ["--db", str(db.parent / kept), "verify"])
    assert result.exit_code == 0 and "sound" in result.output, result.output


# -- E183: no write past what a read takes back ------------------------------------------------


def test_e183_a_write_past_the_read_cap_is_refused(evening: GM, db: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A write that made a file bigger than any read accepts was acknowledged, and every later
    command called the evening damaged: refused now, with nothing written."""
    from referee.storage import files

    monkeypatch.setattr(files, "MAX_FILE_BYTES", len(db.read_bytes()) + 16)
    before = folder_bytes(db.parent)
    line = evening.fails(*GIVE)
    assert "E183" in line and "nothing was written" in line and "referee next" in line, line
    assert folder_bytes(db.parent) == before
    assert evening.chips("Ann").get("red", 0) == 0  # the evening still reads, as it was


@pytest.mark.parametrize("how", ["unknown event kind", "missing field", "event edited by hand"])
def test_e93_a_backup_edited_with_its_checksum_recomputed_is_never_named(
        evening: GM, db: Path, how: str) -> None:
    from referee.storage import files

    bak1 = Path(f"{db}.bak.1")
    damage, _ = DAMAGE[how]
    edited = json.loads(damage(bak1.read_text()))
    edited.pop("check", None)
    edited.pop("answer", None)
    bak1.write_bytes(files.encode_checked(edited))  # its checksum matches its new bytes
    db.write_text("junk")
    line = evening.fails("status")
    assert f"the newest good backup is {db}.bak.2 " in line, line
    result = evening.invoke("verify")
    assert f"newest good backup is {db}.bak.2 " in " ".join(result.output.split())


# -- E185: no control character where a name or a number goes ---------------------------------


@pytest.mark.parametrize("args", [
    ("sit", "\nAda"), ("sit", "Ada\t"), ("chips", "give", "Ada\r", "Ann", "red:1"),
    ("chips", "give", "Ada", "Ann", "red:1\n"), ("count", "Ada", "red:9\n"),
    ("count", "Ada", "red:\x0b9"), ("sit", "Ada\u2028"), ("chips", "give", "Ada", "Ann\x1f",
                                                           "red:1"),
], ids=repr)
def test_e185_a_spacing_control_character_is_refused_where_it_would_be_trimmed(
        evening: GM, args: tuple[str, ...]) -> None:
    """Each reader trims these away (Python's int too), so `sit $'\\nAda'` was recorded, and
    logged with the raw character."""
    line = evening.fails(*args)
    assert "control character" in line and "E185" in line, line
    assert "\n" not in line.strip() and "\t" not in line


def test_e185_a_trailing_backslash_at_the_shell_records_nothing(evening: GM, db: Path) -> None:
    from referee.cli.main import app

    before = db.read_bytes()
    result = evening.runner.invoke(app, ["--db", str(db), "shell"], input="count Ada red:9\\\n")
    assert "E185" in result.output and "(red:9\\n)" in result.output, result.output
    assert db.read_bytes() == before


@pytest.mark.parametrize("deleted", [False, True], ids=["replacing", "beside backups"])
def test_e97_new_force_refused_on_a_full_disk_keeps_no_copy(
        evening: GM, db: Path, monkeypatch: pytest.MonkeyPatch, deleted: bool) -> None:
    """The old evening was linked aside as `PATH.replaced-TIME` before the write the disk
    refused: the refusal said nothing was written, and the link stayed."""
    if deleted:  # E182: the deleted evening's backups are moved aside, and back
        db.unlink()
    Path(f"{db}.lock").unlink()
    before = folder_bytes(db.parent)

    def full(fd: int, data: Any) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "write", full)
    line = evening.fails("new", "--force", "--fool", "Zed", *SEATS)
    assert "no space left" in line and "nothing was written" in line, line
    assert not list(db.parent.glob("*.replaced-*"))
    after = folder_bytes(db.parent)
    after.pop(f"{db.name}.lock", None)  # an evening's lock stays beside it
    assert after == before


# -- E186: the tokens file is checked, never mended in silence ---------------------------------


def _emptied(data: bytes) -> bytes:
    return b""


def _garbled(data: bytes) -> bytes:
    return b"\x00\xff" + data[2:]


def _one_token_flipped(data: bytes) -> bytes:
    at = data.index(b'"Ann":"') + 10  # inside Ann's token: still JSON, one link changed
    return data[:at] + bytes([data[at] ^ 0x01]) + data[at + 1:]


def _deleted(data: bytes) -> bytes | None:
    return None


@pytest.mark.parametrize("damage", [_emptied, _garbled, _one_token_flipped, _deleted],
                         ids=lambda f: f.__name__.strip("_"))
def test_e186_a_damaged_tokens_file_is_said_not_mended(
        evening: GM, db: Path, tmp_path: Path, damage: Callable[[bytes], bytes | None]) -> None:
    from referee.serve import access

    links = evening.json("links")
    tokens = access.access_path(db)
    damaged = damage(tokens.read_bytes())
    if damaged is None:
        tokens.unlink()
    else:
        tokens.write_bytes(damaged)
    before = folder_bytes(db.parent)
    for command in (("links",), ("links", "Ann"),
                    ("handout", "Ann", "--html", str(tmp_path / "ann.html"))):
        line = evening.fails(*command)
        assert "tokens file" in line and "serve --new-tokens" in line and "E186" in line, line
        assert f"copy {tokens}.bak to {tokens.name}" in line  # the way back to the links
        assert folder_bytes(db.parent) == before, command
    assert not (tmp_path / "ann.html").exists()
    # The way back: the copy, and the links handed out open again.
    tokens.write_bytes(Path(f"{tokens}.bak").read_bytes())
    assert evening.json("links") == links
    tokens.unlink()
    # The explicit way on: every token anew, and checked from then on.
    access.ensure_access(db, ["Ann", "Di"], renew=True)
    again = evening.json("links")
    assert again["links"]["Ann"] != links["links"]["Ann"] and again["station"] != links["station"]
    assert evening.json("links") == again


def test_e186_a_tokens_file_of_an_earlier_release_gets_its_checksum(evening: GM,
                                                                  db: Path) -> None:
    from referee.serve import access

    links = evening.json("links")
    tokens = access.access_path(db)
    data = json.loads(tokens.read_bytes())
    data.pop("check")
    tokens.write_text(json.dumps(data, indent=1))  # as an earlier release wrote it
    assert evening.json("links") == links  # the same tokens, now under a checksum
    assert tokens.read_bytes().startswith(b'{"check":"')
