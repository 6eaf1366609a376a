"""Odd paths and bytes at the door (E94-E96): a pipe, a device, a folder or a symlink loop as
``--db``; bytes that are not UTF-8, and digits that are not 0-9, in an argument; control and
format characters in Card of Fate free text; a command group typed alone."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli.main import app
from tests.cli.conftest import GM

SEATS = ("--seat", "Ada:I:red:Ann:II", "--seat", "Bob:III:blue:Bea:IV")
READS = (("status",), ("log",), ("verify",), ("watch", "--once"), ("report",), ("points",),
         ("room", "show"))
WRITES = (("rise", "Ada"), ("new", "--fool", "Max", *SEATS), ("room", "blank"))


@pytest.fixture
def no_hang() -> Iterator[None]:
    """A read that blocks (a pipe opened for reading waits for a writer) fails the test in
    five seconds instead of hanging the suite."""
    def hung(*_: object) -> None:
        raise AssertionError("the command blocked on the path")

    old = signal.signal(signal.SIGALRM, hung)
    signal.alarm(5)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, old)


def odd_paths(tmp_path: Path) -> dict[str, Path]:
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    (tmp_path / "loop1").symlink_to(tmp_path / "loop2")
    (tmp_path / "loop2").symlink_to(tmp_path / "loop1")
    folder = tmp_path / "folder.json"
    folder.mkdir()
    return {"pipe": fifo, "symbolic link": tmp_path / "loop1", "folder": folder,
            "device": Path("/dev/null")}


def refused(runner: CliRunner, db: Path, *args: str) -> str:
    result = runner.invoke(app, ["--db", str(db), *args])
    assert result.exit_code == 2, (args, result.output)
    lines = [ln for ln in result.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and "Traceback" not in result.output, (args, result.output)
    return lines[0]


def test_e94_a_pipe_device_folder_or_symlink_loop_as_db_is_one_line(
        runner: CliRunner, tmp_path: Path, no_hang: None) -> None:
    paths = odd_paths(tmp_path)
    before = sorted(p.name for p in tmp_path.iterdir())
    for what, db in paths.items():
        for command in READS + WRITES:
            line = refused(runner, db, *command)
            assert "E94" in line and (what.split()[-1] in line or what == "symbolic link"
                                      and "loop of symbolic links" in line), (command, line)
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # no lock, no folder left


def test_e94_bytes_that_are_not_utf8_are_refused_where_arguments_enter(gm: GM) -> None:
    gm("new", "--fool", "Fool", *SEATS)
    before = gm.db.read_bytes()
    bad = b"Max\xff\xfe".decode("utf-8", "surrogateescape")  # as Python hands them on
    for args in (("new", "--fool", bad, *SEATS, "--force"),
                 ("soul", "bid", "Ann", "red:1", "--promise", bad),
                 ("fate", "char", "new", bad),
                 ("rules", bad)):
        line = gm.fails(*args)
        assert "not UTF-8" in line and "Max\\xff\\xfe" in line and "E94" in line, line
    result = CliRunner().invoke(app, ["--db", str(gm.db.parent / bad), "status"])
    assert result.exit_code == 2 and "not UTF-8" in result.output
    assert gm.db.read_bytes() == before
    gm("log")


@pytest.mark.parametrize("amount", ["²", "٣", "１"])
def test_e94_an_amount_is_written_with_the_digits_0_to_9(gm: GM, amount: str) -> None:
    gm("new", "--fool", "Fool", *SEATS)
    gm("hand", "start")
    for action in ("bet", "raise"):
        assert "whole number of chips" in gm.fails(action, "Bob", amount)


@pytest.mark.parametrize("option, text", [
    ("--trait", "Sword\x1b[31m=2"), ("--trait", "Second\nsight=once"), ("--rep", "Rich\x07=2"),
    ("--item", "Sabre\u202e=2"), ("--exp", "Crimean\u200bWar:fiery"),
    ("--exp", "War\x9b:fiery")])
def test_e96_control_characters_in_card_of_fate_free_text_are_refused(
        gm: GM, option: str, text: str) -> None:
    gm("new", "--fool", "Fool", *SEATS)
    # A newline is refused where the arguments enter (E185), any other where the text does.
    rulings = ("E42", "E75", "E185")
    line = gm.fails("fate", "char", "new", "Ivy", option, text)
    assert any(r in line for r in rulings), line
    gm("fate", "char", "new", "Ivy", "--trait", "Sword=2")
    if option != "--exp":
        edit = gm.fails("fate", "char", "edit", "Ivy", option, text)
        assert any(r in edit for r in rulings), edit
    assert "\x1b" not in gm("fate", "char", "show", "Ivy").output


def test_e96_scenario_check_prints_paths_and_file_text_as_data(
        runner: CliRunner, tmp_path: Path) -> None:
    file = tmp_path / "sc\x1b[31m.toml"
    file.write_text('name = "x\x1b[2J"\n', encoding="utf-8")
    for target in (file, tmp_path / "no\x1b]0;title\x07.toml"):
        result = runner.invoke(app, ["scenario", "check", str(target)])
        assert result.exit_code == 2
        assert "\x1b" not in result.output and "\x07" not in result.output
        assert "\\x1b" in result.output


@pytest.mark.parametrize("group", [["fate"], ["hand"], ["fate", "char"], ["fate", "duel"],
                                   ["scum"], ["wager"], ["soul"], ["room"], ["chips"],
                                   ["power"], ["scenario"]])
def test_e95_a_group_typed_alone_prints_one_line_of_usage_and_the_way_to_help(
        runner: CliRunner, group: list[str]) -> None:
    result = runner.invoke(app, group, prog_name="referee")
    assert result.exit_code == 2
    lines = [ln for ln in result.output.splitlines() if ln.strip()]
    path = " ".join(["referee", *group])
    assert lines == [f"error: {path} needs a command. Usage: {path} [OPTIONS] COMMAND "
                     f"[ARGS]... (`{path} --help` lists them)"]
    assert runner.invoke(app, [*group, "--help"]).exit_code == 0


def test_e94_a_pipe_given_as_an_input_file_is_refused_not_waited_on(
        gm: GM, tmp_path: Path, no_hang: None, monkeypatch: pytest.MonkeyPatch) -> None:
    from referee.storage import inputs

    monkeypatch.setattr(inputs, "PIPE_WAIT", 0.1)
    pipe = tmp_path / "pipe.toml"
    os.mkfifo(pipe)
    result = CliRunner().invoke(app, ["scenario", "check", str(pipe)])
    assert result.exit_code == 2 and "a named pipe that nothing writes to" in result.output
    line = gm.fails("new", "--fool", "Fool", *SEATS, "--scenario", str(pipe))
    assert "a named pipe that nothing writes to" in line
    assert not gm.db.exists()


@pytest.mark.parametrize("command", [("status",), ("next", "x.json", "--fool", "Max"),
                                     ("season",), ("rise", "Ada"), ("rules", "R1")])
def test_e94_a_db_name_longer_than_the_file_system_holds_is_one_line(
        runner: CliRunner, tmp_path: Path, command: tuple[str, ...]) -> None:
    line = refused(runner, tmp_path / ("n" * 300 + ".json"), *command)
    assert "longer than the file system allows" in line
    assert list(tmp_path.iterdir()) == []


def test_e94_next_to_a_name_longer_than_the_file_system_holds_is_one_line(gm: GM) -> None:
    gm("new", "--fool", "Fool", *SEATS)
    gm("end")
    line = gm.fails("next", str(gm.db.parent / ("n" * 300 + ".json")))
    assert "longer than the file system allows" in line


def test_e96_an_unknown_option_with_a_line_separator_is_one_line(runner: CliRunner) -> None:
    result = runner.invoke(app, ["fate", "deck", "-\u20280"])
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [result.stderr.rstrip("\n")]
    assert "\\u2028" in result.stderr


def test_e95_a_group_alone_through_the_in_process_runner_is_one_line_too(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from referee.cli import requests

    assert requests.run(["fate", "char"], db=tmp_path / "e.json") == 2
    err = capsys.readouterr().err
    assert [ln for ln in err.splitlines() if ln.strip()] == [
        "error: referee fate char needs a command. Usage: referee fate char [OPTIONS] COMMAND "
        "[ARGS]... (`referee fate char --help` lists them)"]


@pytest.mark.parametrize(("args", "said"), [
    (("status", "--at", "0"), "--at 0: give a number of 1 or more."),
    (("hand", "history", "0"), "N 0: give a number of 1 or more."),
    (("room", "break", "181"), "minutes 181: give a number from 1 to 180."),
    (("serve", "--port", "70000"), "--port 70000: give a number from 0 to 65535."),
    (("watch", "--interval", "9"), "--interval 9.0: give a number from 0.05 to 5.0."),
    (("status", "--at", "abc"), "--at abc: give a whole number."),
    (("watch", "--interval", "fast"), "--interval fast: give a number."),
    (("charge", "give", "Ada", "Bob", "many"), "n many: give a whole number."),
])
def test_e162_a_number_out_of_its_range_is_told_in_words(gm: GM, args: tuple[str, ...],
                                                        said: str) -> None:
    """click's "0 is not in the range x>=1" and "'abc' is not a valid int range", said as what
    to give, with the usage after it."""
    gm("new", "--fool", "Max", *SEATS)
    line = gm.fails(*args)
    assert line.startswith(f"error: {said} Usage: ") and "range" not in line
    assert "valid int" not in line
