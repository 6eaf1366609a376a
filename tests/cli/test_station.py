"""The real command line against a real `referee serve` process: the second station, the
shell at a station, the QR codes, and serve's own mistakes (issue 14; E52, E54)."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.cli.serving import copy_evening, demo_db

pytestmark = pytest.mark.system

assert demo_db  # the shared demo evening, a fixture

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "100"}


def referee(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "referee", *args], env=ENV, input=stdin,
                          capture_output=True, text=True, timeout=120)


class Serving:
    def __init__(self, proc: subprocess.Popen[str], url: str, token: str,
                 links: dict[str, str]) -> None:
        self.proc, self.url, self.token, self.links = proc, url, token, links


@pytest.fixture
def serving(demo_db: Path, tmp_path: Path) -> Iterator[Serving]:
    db = copy_evening(demo_db, tmp_path / "night")
    proc = subprocess.Popen([sys.executable, "-m", "referee", "--db", str(db), "serve",
                             "--port", "0", "--station"], env=ENV, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    lines: list[str] = []
    try:
        while not any(ln.lstrip().startswith("station") for ln in lines):
            line = proc.stdout.readline()
            assert line, proc.stderr.read() if proc.stderr else "serve exited"
            lines.append(line)
        text = "".join(lines)
        url = re.search(r"table page\s+(http://127\.0\.0\.1:\d+)/", text)
        token = re.search(r"--token (\S+)", text)
        assert url and token, text
        links = dict(re.findall(r"^\s+(Ben|Di|Flo|Hal)\s+(http\S+)$", text, re.M))
        yield Serving(proc, url.group(1), token.group(1), links)
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=30)


def test_station_command_runs_there_and_answers_here(serving: Serving, demo_db: Path,
                                                     tmp_path: Path) -> None:
    there = referee("--station", serving.url, "--token", serving.token, "status", "--json")
    assert there.returncode == 0, there.stderr
    here = referee("--db", str(demo_db), "status", "--json")
    assert json.loads(there.stdout)["chips"] == json.loads(here.stdout)["chips"]
    wrong = referee("--station", serving.url, "--token", serving.token, "bet", "Zed")
    assert wrong.returncode == 2 and wrong.stdout == ""
    assert wrong.stderr == referee("--db", str(demo_db), "bet", "Zed").stderr
    done = referee("--station", serving.url, "--token", serving.token,
                   "charge", "give", "Ben", "Flo", "1")
    assert done.returncode == 0, done.stderr


def test_station_with_an_assistants_token_writes_nothing(serving: Serving,
                                                         tmp_path: Path) -> None:
    db = tmp_path / "night" / "demo.json"
    before = db.read_bytes()
    token = serving.links["Ben"].rsplit("/", 1)[1]
    for bad in (token, "not-the-token-at-all", ""):
        args = ["--station", serving.url, "--token", bad] if bad else ["--station", serving.url]
        result = referee(*args, "charge", "give", "Ben", "Flo", "1")
        assert result.returncode == 2
        assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert db.read_bytes() == before


@pytest.mark.parametrize("where", ["root", "shell"])
def test_shell_at_a_station_runs_each_line_there(serving: Serving, where: str) -> None:
    lines = "charge give Ben Flo 1\nbet Zed\nstatus --json\nexit\ncharge give Ben Flo 1\n"
    station = ["--station", serving.url, "--token", serving.token]
    args = [*station, "shell"] if where == "root" else ["shell", *station]
    result = referee(*args, stdin=lines)
    assert result.returncode == 2  # the status of the line that failed, as the shell gives
    assert result.stderr.count("error:") == 1
    status = json.loads(result.stdout.strip().splitlines()[-1])
    assert status["charges"]["Ada"] == 1  # one Charge given; nothing after `exit` ran


def test_links_printed_by_serve_open_the_sheets(serving: Serving) -> None:
    import urllib.request

    for name, link in serving.links.items():
        with urllib.request.urlopen(link, timeout=30) as page:
            assert f"Clue sheet: {name}" in page.read().decode()


def test_station_that_is_not_there_is_one_line() -> None:
    result = referee("--station", "http://127.0.0.1:9", "--token", "x" * 32, "status")
    assert result.returncode == 2
    assert result.stderr.startswith("error: cannot reach the station")
    assert len(result.stderr.strip().splitlines()) == 1


def test_serve_without_an_evening_is_one_line(tmp_path: Path) -> None:
    result = referee("--db", str(tmp_path / "none.json"), "serve", "--port", "0")
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert not (tmp_path / "none.json").exists()


def test_serve_stops_on_sigterm_as_on_ctrl_c(demo_db: Path, tmp_path: Path) -> None:
    db = copy_evening(demo_db, tmp_path / "night")
    proc = subprocess.Popen([sys.executable, "-m", "referee", "--db", str(db), "serve",
                             "--port", "0"], env=ENV, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    assert proc.stdout.readline().startswith("Serving")
    assert "table page" in proc.stdout.readline()
    proc.send_signal(signal.SIGTERM)
    out = proc.communicate(timeout=30)[0]
    assert proc.returncode == 0 and out.rstrip().endswith("Stopped.")


def test_serve_on_a_taken_port_is_one_line(demo_db: Path, tmp_path: Path) -> None:
    import socket

    db = copy_evening(demo_db, tmp_path / "night")
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        port = sock.getsockname()[1]
        result = referee("--db", str(db), "serve", "--port", str(port))
    assert result.returncode == 2
    assert "--port" in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_serve_qr_prints_every_link_as_a_code(demo_db: Path, tmp_path: Path) -> None:
    db = copy_evening(demo_db, tmp_path / "night")
    proc = subprocess.Popen([sys.executable, "-m", "referee", "--db", str(db), "serve",
                             "--port", "0", "--qr"], env=ENV, stdout=subprocess.PIPE,
                            text=True)
    assert proc.stdout is not None
    out = ""
    try:
        while out.count("\n\n") < 4:  # a blank line ends each of the four codes
            line = proc.stdout.readline()
            assert line, out
            out += line
    finally:
        proc.send_signal(signal.SIGINT)
        out += proc.communicate(timeout=30)[0]
    assert proc.returncode == 0 and "Stopped." in out
    assert out.count("/a/") == 4
    assert "█" in out or "▀" in out


def test_handout_html_carries_the_link_as_a_qr_code(demo_db: Path, tmp_path: Path) -> None:
    from referee import serve

    db = copy_evening(demo_db, tmp_path / "night")
    page = tmp_path / "ben.html"
    result = referee("--db", str(db), "handout", "Ben", "--html", str(page),
                     "--url", "http://192.168.1.20:8765")
    assert result.returncode == 0, result.stderr
    access = serve.load_access(db)
    assert access is not None
    html = page.read_text()
    assert f"http://192.168.1.20:8765/a/{access.assistants['Ben']}" in html
    assert '<svg' in html and 'class="segno"' in html
    for other in ("Di", "Flo", "Hal"):  # only Ben's own link
        assert access.assistants[other] not in html
    again = referee("--db", str(db), "handout", "Ben", "--html", str(page), "--force")
    assert again.returncode == 0
    assert access.assistants["Ben"] in page.read_text()  # the same link: tokens are kept


def test_serve_keeps_links_across_restarts_until_new_tokens(demo_db: Path,
                                                            tmp_path: Path) -> None:
    db = copy_evening(demo_db, tmp_path / "night")

    def links(*extra: str) -> set[str]:
        proc = subprocess.Popen([sys.executable, "-m", "referee", "--db", str(db), "serve",
                                 "--port", "0", *extra], env=ENV, stdout=subprocess.PIPE,
                                text=True)
        assert proc.stdout is not None
        found: set[str] = set()
        try:
            while len(found) < 4:
                line = proc.stdout.readline()
                assert line, found
                found |= set(re.findall(r"/a/(\S+)", line))
        finally:
            proc.send_signal(signal.SIGINT)
            proc.communicate(timeout=30)
        return found

    first = links()
    assert links() == first  # printed handouts keep working (E52)
    renewed = links("--new-tokens")
    assert len(renewed) == 4 and not renewed & first
