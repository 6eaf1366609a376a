"""The command lines read without typer (E160) answer exactly as the typer app does.

Each line runs twice on copies of one evening file, once through the console's entry point
(``referee.cli.entry.main``: the reader, or the typer app for a line it does not read) and once
through the typer app alone (``referee.cli.main.run``), with the clock and the writer's token
held still: stdout, stderr, the exit status, every file left in the folder and the refusal
remembered for `rules last` must be the same bytes.
"""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.cli import entry, main, rulings
from tests.cli.conftest import GM
from tests.profiles import examples

DATA = Path(__file__).parent.parent / "data"

#: The first up cards of the hand played on from the release evening: a betting round open.
SHOW = ("hand", "show", "Cy: KC KW", "Ed: 2S 7P", "Ada: 4C 9W", "Gus: 3C 3W",
        "Fool: AC 6W 7S QP")


@pytest.fixture(scope="module")
def evenings(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Two evenings: between hands with two players away from the table (a transfer can
    go through), and in a hand with its first betting round open."""
    from typer.testing import CliRunner

    folder = tmp_path_factory.mktemp("fast-evenings")
    away = folder / "away.json"
    shutil.copyfile(DATA / "release-evening.json", away)
    gm = GM(CliRunner(), away)
    gm("rise", "Ada")
    gm("rise", "Gus")
    betting = folder / "betting.json"
    shutil.copyfile(DATA / "release-evening.json", betting)
    gm = GM(CliRunner(), betting)
    gm("hand", "start")
    gm(*SHOW)
    return {"away": away, "betting": betting}


@contextlib.contextmanager
def _still(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The clock and the writer's token held still, for both runs of a line."""
    with monkeypatch.context() as m:
        m.setattr("time.time", lambda: 1_800_000_000.0)
        m.setattr("referee.storage.store.new_token", lambda: "0" * 32)
        yield


def _run(entry: Callable[[], None], argv: list[str]) -> tuple[bytes, bytes, int]:
    """stdout, stderr and the exit status of ``entry`` run on ``argv``."""
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    err = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    saved = sys.argv
    sys.argv = ["referee", *argv]
    code = 0
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                entry()
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    finally:
        sys.argv = saved
    out.flush()
    err.flush()
    return out.buffer.getvalue(), err.buffer.getvalue(), code  # type: ignore[attr-defined]


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def both(evening: Path, where: Path, words: list[str],
         monkeypatch: pytest.MonkeyPatch) -> tuple[tuple[object, ...], tuple[object, ...]]:
    """What the line leaves through the entry point and through the typer app alone, each on
    its own copy of ``evening`` (``--db`` given first; the folders differ only in name)."""
    results = []
    for name, entry_point in (("fast", entry.main), ("typer", main.run)):
        folder = where / name
        if folder.exists():
            shutil.rmtree(folder)
        folder.mkdir(parents=True)
        db = folder / "evening.json"
        shutil.copyfile(evening, db)
        rulings.memory = None
        with _still(monkeypatch):
            out, err, code = _run(entry_point, ["--db", str(db), *words])
        shown = str(folder)
        results.append((out.replace(shown.encode(), b"FOLDER"),
                        err.replace(shown.encode(), b"FOLDER"), code, _files(folder),
                        str(rulings.memory).replace(shown, "FOLDER")))
    return results[0], results[1]


#: Every form the reader takes (E160), each on the evening where it goes through.
FORMS: list[tuple[str, list[str]]] = [
    ("away", ["status"]),
    ("away", ["status", "--json"]),
    ("betting", ["status", "--json"]),
    ("betting", ["status"]),
    ("away", ["chips", "give", "Ada", "Gus", "red:1"]),
    ("away", ["chips", "give", "Ada", "Gus", "red:1", "--json"]),
    ("away", ["chips", "give", "--json", "Ada", "Gus", "red:1,blue:1"]),
    ("betting", ["bet"]),
    ("betting", ["bet", "2"]),
    ("betting", ["bet", "--json"]),
    ("betting", ["check"]),
    ("betting", ["check", "Cy", "--json"]),
    ("betting", ["fold"]),
    ("betting", ["bet", "all"]),
    ("betting", ["bet", "1", "--chips", "green:1"]),
    ("away", ["log", "--last", "3"]),
    ("away", ["log", "--last", "2", "--json"]),
    ("betting", ["log", "--json", "--last", "20"]),
]


@pytest.mark.parametrize(("evening", "words"), FORMS)
def test_e160_each_form_is_read_without_typer_and_answers_as_typer(
        evening: str, words: list[str], evenings: dict[str, Path], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    line = entry.read(["--db", "x.json", *words])
    assert line is not None, f"the reader should take {words}"
    fast_side, typer_side = both(evenings[evening], tmp_path, words, monkeypatch)
    assert fast_side == typer_side
    assert fast_side[2] == 0, fast_side[1]


def test_e160_a_refusal_is_one_line_exit_2_and_the_file_unchanged(
        evenings: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    before = evenings["away"].read_bytes()
    fast_side, typer_side = both(evenings["away"], tmp_path,
                                 ["chips", "give", "Ada", "Zed", "red:1"], monkeypatch)
    assert fast_side == typer_side
    out, err, code, files, _ = fast_side
    assert code == 2 and out == b"" and err.count(b"\n") == 1 and err.startswith(b"error: ")
    assert isinstance(files, dict) and files["evening.json"] == before


@pytest.mark.parametrize("words", [
    ["--help"], ["status", "--help"], ["--explain", "status"], ["--dry-run", "bet"],
    ["--debug", "status"], ["status", "--at", "3"], ["bet", "-1"], ["call", "Ada", "2"],
    ["chips", "give", "Ada", "Gus"], ["chips", "settle", "Ada", "Gus", "red:1"],
    ["log"], ["log", "--last", "+3"], ["log", "--last", "3", "--last", "4"],
    ["status", "--json", "--json"], ["status", "extra"], ["bet", "--", "Ada"],
    ["check", "Ada", "1"], ["--db=x.json", "status"], ["verify"],
])
def test_e160_what_the_reader_does_not_know_goes_to_typer(words: list[str]) -> None:
    from referee.cli.guard import hoist_root_options

    assert entry.read(hoist_root_options(["--db", "x.json", *words])) is None


WORDS = st.sampled_from([
    "Ada", "Gus", "Cy", "Ed", "Fool", "Zed", "ada", "", "1", "2", "3", "all", "0", "-1", "x",
    "²", "007", "99999999999999999999", "red:1", "blue:2", "mauve:1", "red:0", "red",
    "red:1,red:1", "--json", "--chips", "--last", "--help", "-h", "--explain", "--dry-run",
    "--", "give", "20", "Ada Gus", "[bold]x[/]", "\x1b[31m"])
COMMANDS = st.sampled_from([["status"], ["bet"], ["raise"], ["call"], ["check"], ["fold"],
                            ["chips", "give"], ["chips"], ["log"], ["log", "--last"],
                            ["stat"]])


@settings(max_examples=examples(60), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(evening=st.sampled_from(["away", "betting"]), command=COMMANDS,
       words=st.lists(WORDS, max_size=5))
def test_e160_any_line_answers_the_same_either_way(
        evening: str, command: list[str], words: list[str], evenings: dict[str, Path],
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fast_side, typer_side = both(evenings[evening], tmp_path, [*command, *words], monkeypatch)
    assert fast_side == typer_side


@pytest.mark.system
def test_e160_status_json_does_not_import_typer(tmp_path: Path) -> None:
    db = tmp_path / "evening.json"
    shutil.copyfile(DATA / "release-evening.json", db)
    probe = ("import runpy, sys\n"
             "sys.argv = ['referee', '--db', sys.argv[1], 'status', '--json']\n"
             "try:\n    runpy.run_module('referee', run_name='__main__')\n"
             "finally:\n"
             "    print('typer' in sys.modules, 'rich' in sys.modules, file=sys.stderr)\n")
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    done = subprocess.run([sys.executable, "-c", probe, str(db)], capture_output=True,
                          text=True, env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    assert '"hands_played": 3' in done.stdout
    assert done.stderr.strip() == "False False"
    # and a line it does not read still loads the parser, which answers it
    probe_help = probe.replace("'status', '--json'", "'status', '--help'")
    done = subprocess.run([sys.executable, "-c", probe_help, str(db)], capture_output=True,
                          text=True, env=env, timeout=60)
    assert done.returncode == 0 and "Usage:" in done.stdout
    assert done.stderr.strip().startswith("True")
