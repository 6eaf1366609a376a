"""Every caller makes its moves through the table's API (``referee.table.api.perform``) with a
typed request, never by handing command text to something that runs it: a phone's request
accepted, ``amend``'s replay, a line at the shell (read with and without the parser), a
station's line (the remote's taps are station lines) and the demo's script."""

from __future__ import annotations

import contextlib
import io
from collections.abc import Iterator
from pathlib import Path

import pytest

from referee.cli import runner
from referee.table import api
from tests.cli.conftest import GM
from tests.cli.test_requests_cli import SEATS, ev, log_texts, phone

assert ev  # the fixture, for the tests below


class Made:
    """The requests made through the API, by whom: the caller that read the line (``by_caller``)
    or the command itself (``by_command``)."""

    def __init__(self) -> None:
        self.by_caller: list[api.Request] = []
        self.by_command: list[api.Request] = []


@pytest.fixture
def made(monkeypatch: pytest.MonkeyPatch) -> Iterator[Made]:
    seen = Made()
    real = api.perform

    def spy(into: list[api.Request]) -> object:
        def perform(request: api.Request) -> object:
            into.append(request)
            return real(request)
        return perform

    for caller in ("referee.cli.requests.make", "referee.cli.room.phone_requests.perform",
                   "referee.cli.table.amend.perform"):
        monkeypatch.setattr(caller, spy(seen.by_caller))
    monkeypatch.setattr("referee.cli.transaction.perform_request", spy(seen.by_command))
    yield seen


def test_no_runner_is_left_to_hand_command_text_to() -> None:
    """What ran a line of text whole (``execute``, ``run_line``) is gone: a line is read by
    the parser into its request, which its caller makes (``referee.cli.requests``)."""
    assert not hasattr(runner, "execute") and not hasattr(runner, "run_line")


def test_a_phone_and_amend_make_typed_requests(ev: GM, made: Made,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    def no_words(*args: object, **kwargs: object) -> object:
        raise AssertionError(f"words were read for a typed request: {args!r}")

    ev("soul", "give", "Dan", "Finn", "cobalt")
    phone(ev, "Ben", "study", soul="green")
    with monkeypatch.context() as typed:  # the ask holds its move: no words are read for it
        typed.setattr("referee.cli.room.phone_requests.parse", no_words)
        ev("requests", "accept", "1")
    assert [(r.move, r.asked_by) for r in made.by_caller] == [
        ("soul study", "asked by Ben from their phone, request 1")]
    assert made.by_caller[0].args == {"who": "Ben", "soul_text": "the cracked green bottle"}
    first = next(i for i, t in enumerate(log_texts(ev), 1) if t.startswith("soul give"))
    made.by_caller.clear()
    ev("amend", str(first), "--yes", "--", "soul", "give", "Dan", "Ben", "cobalt")
    assert [r.move for r in made.by_caller] == ["soul give", "soul study"]
    study = [t for t in log_texts(ev) if t.startswith("soul study")]
    assert study and study[-1].endswith("request 1")


#: A hand begun at a prompt: lines read without the parser (the bets) and with it.
LINES = ["hand start", "hand show 'Ada: KC KW' 'Cara: 2C 3W' 'Eve: 4C 5W' 'Fiona: AC 8P 9S 10S'",
         "bet 1", "call", "fold", "status --json", "soul study Ben green"]


def test_the_shells_lines_are_made_by_the_shell(ev: GM, made: Made) -> None:
    from referee.cli.main import lazy_root
    from referee.cli.shell.shell import Shell

    shell = Shell(lazy_root(), ev.db, False)
    with contextlib.redirect_stdout(io.TextIOWrapper(io.BytesIO(), encoding="utf-8")):
        codes = [shell.run_line(line) for line in LINES]
    assert codes == [0] * len(LINES)
    assert made.by_command == []  # no command made its own request
    assert [r.move for r in made.by_caller] == [
        "hand start", "hand show", "bet", "call", "fold", "soul study"]
    assert log_texts(ev)[-6:-1] == ["hand start", LINES[1].replace("'", "'"), "bet 1", "call",
                                   "fold"]


def test_a_stations_lines_are_made_by_the_station(ev: GM, made: Made) -> None:
    from referee.cli.room.station import run_remote

    answers = [run_remote(runner.split(line), ev.db) for line in LINES]
    assert [code for code, _, _ in answers] == [0] * len(LINES), answers
    assert "Ada bets 1" in answers[2][1]  # each move answered as its command answers it
    assert made.by_command == []
    assert [r.move for r in made.by_caller] == [
        "hand start", "hand show", "bet", "call", "fold", "soul study"]


def test_the_demos_script_is_made_by_the_demo(tmp_path: Path, made: Made) -> None:
    from referee.cli.between.reports import run_lines

    new = "new --fool Fiona " + " ".join(f"--seat {s}" for s in SEATS)
    run_lines([new, *LINES[:5]], tmp_path / "demo.json", echo=False)
    assert made.by_command == []
    assert [r.move for r in made.by_caller] == ["hand start", "hand show", "bet", "call", "fold"]


@pytest.mark.parametrize("line", ["hand start", "bet 1"])  # with and without the parser
def test_ctrl_c_while_the_shell_makes_a_move_ends_that_line_only(
        ev: GM, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        line: str) -> None:
    from referee.cli.main import lazy_root
    from referee.cli.shell.shell import Shell

    def interrupted(request: api.Request) -> object:
        raise KeyboardInterrupt

    monkeypatch.setattr("referee.cli.requests.make", interrupted)
    shell = Shell(lazy_root(), ev.db, False)
    before = ev.db.read_bytes()
    assert shell.run_line(line) == 130
    assert "interrupted" in capsys.readouterr().err
    assert ev.db.read_bytes() == before
