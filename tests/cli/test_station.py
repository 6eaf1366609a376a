"""The real command line against a real `referee serve` process: the second station, the
shell at a station, the QR codes, and serve's own mistakes (E52, E54)."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.cli.serving import copy_evening, demo_db
from tests.profiles import examples

pytestmark = pytest.mark.system

assert demo_db  # the shared demo evening, a fixture

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "100"}


def referee(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "referee", *args], env=ENV, input=stdin,
                          capture_output=True, text=True, timeout=120)


class Serving:
    def __init__(self, proc: subprocess.Popen[str], url: str, token: str,
                 links: dict[str, str], db: Path) -> None:
        self.proc, self.url, self.token, self.links, self.db = proc, url, token, links, db


@pytest.fixture
def serving(demo_db: Path, tmp_path: Path) -> Iterator[Serving]:
    """A `referee serve --station` of its own, for a test that writes through it."""
    with _serving(copy_evening(demo_db, tmp_path / "night")) as s:
        yield s


@contextmanager
def _serving(db: Path) -> Iterator[Serving]:
    proc = subprocess.Popen([sys.executable, "-m", "referee", "--db", str(db), "serve",
                             "--port", "0", "--station", "--links"], env=ENV,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
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
        yield Serving(proc, url.group(1), token.group(1), links, db)
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=30)


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


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_e192_serve_stops_cleanly_while_pages_follow_it(demo_db: Path, tmp_path: Path,
                                                        signum: int) -> None:
    """Ctrl-C or `kill` while the wall and a phone hold their streams open: "Stopped." and
    nothing on stderr (the streams end; no traceback of a cancelled one)."""
    import http.client
    import re

    db = copy_evening(demo_db, tmp_path / "night")
    proc = subprocess.Popen([sys.executable, "-m", "referee", "--db", str(db), "serve",
                             "--port", "0"], env=ENV, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    proc.stdout.readline()
    found = re.search(r":(\d+)/", proc.stdout.readline())
    assert found
    streams = []
    for _ in range(2):
        conn = http.client.HTTPConnection("127.0.0.1", int(found.group(1)), timeout=30)
        conn.request("GET", "/events")
        answer = conn.getresponse()
        assert answer.status == 200 and answer.fp.readline()  # the stream is open
        streams.append(conn)
    proc.send_signal(signum)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0 and out.rstrip().endswith("Stopped.")
    assert err == ""
    for conn in streams:
        conn.close()


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
    """`handout` writes a file and talks to no server: typed in this process (no process of
    its own to start), through the same command line."""
    from typer.testing import CliRunner

    from referee.serve import access as serve_access
    from tests.cli.conftest import GM

    db = copy_evening(demo_db, tmp_path / "night")
    gm = GM(CliRunner(), db)
    page = tmp_path / "ben.html"
    gm("handout", "Ben", "--html", str(page), "--url", "http://192.168.1.20:8765")
    access = serve_access.load_access(db)
    assert access is not None
    html = page.read_text()
    assert f"http://192.168.1.20:8765/a/{access.assistants['Ben']}" in html
    assert '<svg' in html and 'class="segno"' in html
    for other in ("Di", "Flo", "Hal"):  # only Ben's own link
        assert access.assistants[other] not in html
    gm("handout", "Ben", "--html", str(page), "--force")  # exit 0, or it fails here
    assert access.assistants["Ben"] in page.read_text()  # the same link: tokens are kept


def test_serve_keeps_links_across_restarts_until_new_tokens(demo_db: Path,
                                                            tmp_path: Path) -> None:
    db = copy_evening(demo_db, tmp_path / "night")

    def links(*extra: str) -> set[str]:
        proc = subprocess.Popen([sys.executable, "-m", "referee", "--db", str(db), "serve",
                                 "--port", "0", "--links", *extra], env=ENV, stdout=subprocess.PIPE,
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


# -- the station reaches its own evening, and nothing else (E65) ------------------------------

#: Every root option of `referee` a station may not give, written out here (not read from the
#: code under test), in every spelling the parser takes: alone, `--opt VALUE`, `--opt=VALUE`.
REFUSED_ROOT = ["--db", "--debug", "--station", "--token", "--install-completion",
                "--show-completion"]


def _listing(folder: Path) -> dict[str, tuple[str, str]]:
    """Every file and folder under ``folder``: what it is and a digest of its bytes."""
    import hashlib

    out: dict[str, tuple[str, str]] = {}
    for path in sorted(folder.rglob("*")):
        rel = str(path.relative_to(folder))
        if path.is_symlink():
            out[rel] = ("link", os.readlink(path))
        elif path.is_dir():
            out[rel] = ("dir", "")
        else:
            out[rel] = ("file", hashlib.sha256(path.read_bytes()).hexdigest())
    return out


@pytest.fixture
def sealed_room(demo_db: Path, tmp_path: Path) -> Iterator[tuple[Any, Path, Path]]:
    """The demo evening served (in this process), another evening beside it (its Fool: Zeb)
    and a path whose folders do not exist yet."""
    from typer.testing import CliRunner

    from tests.cli.conftest import GM
    from tests.cli.serving import served

    evening = copy_evening(demo_db, tmp_path / "night")
    other = tmp_path / "other" / "other.json"
    other.parent.mkdir()
    GM(CliRunner(), other)("new", "--fool", "Zeb", "--seat", "Ada:XVI:red:Ben:IX",
                           "--seat", "Cy:III:blue:Di:II")
    with served(evening) as s:
        yield s, other, tmp_path / "elsewhere" / "new" / "x.json"


def _refused(s: Any, args: list[str], folder: Path) -> str:
    """``args`` sent by the GM's station: exit 2, one line, nothing changed under ``folder``."""
    before = _listing(folder)
    status, there = s.station(args, s.access.station)
    assert status == 200, there
    assert there["exit"] == 2, (args, there)
    assert there["stdout"] == "" and there["stderr"].count("\n") == 1, (args, there)
    assert "Zeb" not in there["stderr"]  # the other evening was never read
    assert _listing(folder) == before, args
    return str(there["stderr"])


@pytest.mark.parametrize("line", [
    "status --db {other}", "status --json --db={other}", "rise Cy --db {other}",
    "--db {other} rise Cy", "charge give Ben Flo 1 --db {other}",
    "new --fool F --seat A:I:red --seat B:II:blue --db {new}",
    "new --fool F --seat A:I:red --seat B:II:blue --force --db={new}",
    "log --last 2 --debug", "status --token T", "soul list --station http://x:1",
    "--token=T status", "status --install-completion", "status -- --db {other}",
])
def test_e65_a_stations_lines_reach_nothing_but_the_served_evening(
        sealed_room: tuple[Any, Path, Path], tmp_path: Path, line: str) -> None:
    s, other, new = sealed_room
    args = line.format(other=other, new=new).split()
    err = _refused(s, args, tmp_path)
    assert "E65" in err and err.startswith("error: --"), err
    assert not new.parent.parent.exists()


def test_e65_every_root_option_anywhere_in_every_spelling(
        sealed_room: tuple[Any, Path, Path], tmp_path: Path) -> None:
    """A property: any station line holding a root option, at any position (also after `--`)
    in any spelling, is refused and leaves every file under the folder as it was."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from referee.cli.room import station

    s, other, new = sealed_room
    lines = [["status"], ["status", "--json"], ["rise", "Cy"], ["charge", "give", "Ben", "Flo",
             "1"], ["log", "--last", "2"], ["soul", "list"], ["rules", "R16"],
             ["hand", "rank", "KC", "KW"], ["new", "--fool", "F", "--seat", "A:I:red",
             "--seat", "B:II:blue", "--force"], ["undo", "--yes"], []]
    # The hard-coded options, and whatever the root group holds (a root option added later
    # is covered without an edit here).
    names = sorted({*REFUSED_ROOT, *station.root_spellings()})
    values = st.sampled_from([str(other), str(new), "http://127.0.0.1:9", "T", "bash", ""])

    @st.composite
    def spelled(draw: st.DrawFn) -> list[str]:
        name = draw(st.sampled_from(names))
        form = draw(st.sampled_from(["alone", "value", "equals"]))
        value = draw(values)
        return {"alone": [name], "value": [name, value], "equals": [f"{name}={value}"]}[form]

    @settings(max_examples=examples(40), suppress_health_check=list(HealthCheck))
    @given(st.sampled_from(lines), spelled(), st.data())
    def check(line: list[str], option: list[str], data: st.DataObject) -> None:
        at = data.draw(st.integers(0, len(line)), label="position")
        args = [*line[:at], *option, *line[at:]]
        if data.draw(st.booleans(), label="after --"):
            cut = data.draw(st.integers(0, at), label="-- at")
            args = [*args[:cut], "--", *args[cut:]]
        assert "E65" in _refused(s, args, tmp_path)

    check()
    assert not new.parent.parent.exists()


@pytest.mark.parametrize("args", [["--explain", "bet", "Zed"], ["status", "--explain"],
                                  ["--version"], ["-V"], ["status", "-h"], ["--help"],
                                  ["--dry-run", "chips", "give", "Ben", "Di", "yellow:1"]])
def test_e65_harmless_root_options_still_run(sealed_room: tuple[Any, Path, Path],
                                             tmp_path: Path, args: list[str]) -> None:
    s, _, _ = sealed_room
    before = _listing(tmp_path)
    status, there = s.station(args, s.access.station)
    assert status == 200 and "E65" not in there["stderr"], there
    assert there["exit"] == (2 if "bet" in args else 0), there
    assert _listing(tmp_path) == before


def test_e65_every_root_option_is_judged(tmp_path: Path) -> None:
    """The root group's options are the ones this file knows: refused or harmless. A new root
    option fails here until it is judged (and is refused meanwhile)."""
    from referee.cli import runner
    from referee.cli.room import station

    options = {o for p in runner.root_command().params if p.param_type_name == "option"
               for o in (*p.opts, *p.secondary_opts)}
    harmless = {"--explain", "--version", "-V", "--dry-run"}  # E133: writes nothing
    assert options == {*REFUSED_ROOT, *harmless}
    assert set(station.root_spellings()) == set(REFUSED_ROOT)


# -- tokens at the serving terminal and at the station (E66, E67) ----------------------------


def _serve_lines(db: Path, *extra: str, until: str = "links") -> tuple[subprocess.Popen[str],
                                                                        str]:
    """Start `referee serve` on ``db`` and read its output up to a line starting ``until``."""
    proc = subprocess.Popen([sys.executable, "-m", "referee", "--db", str(db), "serve",
                             "--port", "0", *extra], env=ENV, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    text = ""
    while not any(ln.strip().startswith(until) for ln in text.splitlines()):
        line = proc.stdout.readline()
        assert line, text + (proc.stderr.read() if proc.stderr else "")
        text += line
    return proc, text


def _stop(proc: subprocess.Popen[str]) -> str:
    """Stop ``proc`` as Ctrl-C does: the rest of its stdout, then its stderr."""
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    return out + (err or "")


def test_e67_serve_prints_no_link_or_token_unless_asked(demo_db: Path, tmp_path: Path) -> None:
    from referee.serve import access as serve_access

    db = copy_evening(demo_db, tmp_path / "night")
    proc, text = _serve_lines(db, "--station")
    text += _stop(proc)
    access = serve_access.load_access(db)
    assert access is not None
    for token in (access.station, *access.assistants.values()):
        assert token not in text
    assert "/a/" not in text and "`referee links`" in text and "station token" in text
    proc, text = _serve_lines(db, "--station", "--links", until="station")
    text += _stop(proc)
    assert access.station in text and all(t in text for t in access.assistants.values())


def test_e67_lan_station_says_once_that_tokens_travel_unencrypted(demo_db: Path,
                                                                  tmp_path: Path) -> None:
    db = copy_evening(demo_db, tmp_path / "night")
    proc, text = _serve_lines(db, "--lan", "--station")
    text += _stop(proc)
    assert text.count("unencrypted") == 1 and "--tls CERT KEY" in text and "E67" in text
    proc, text = _serve_lines(db, "--lan")  # no station token on the network: no warning
    text += _stop(proc)
    assert "unencrypted" not in text


@pytest.fixture(scope="module")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 and its key, made by openssl."""
    import shutil

    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed")
    folder = tmp_path_factory.mktemp("tls")
    cert, key = folder / "cert.pem", folder / "key.pem"
    # An elliptic-curve key: made in no time, where an RSA key costs ~0.3 s of CPU.
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
                    "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
                    "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
    return cert, key


def test_e67_tls_serves_https_and_a_station_that_trusts_it(demo_db: Path, tmp_path: Path,
                                                           certificate: tuple[Path, Path]
                                                           ) -> None:
    import ssl
    import urllib.request

    cert, key = certificate
    db = copy_evening(demo_db, tmp_path / "night")
    proc, text = _serve_lines(db, "--lan", "--station", "--links", "--tls", str(cert),
                              str(key), until="station")
    try:
        assert "unencrypted" not in text
        local = re.search(r"on this machine also (https://127\.0\.0\.1:\d+)/", text)
        token = re.search(r"--token (\S+)", text)
        assert local and token, text
        url = local.group(1)
        trusted = ssl.create_default_context(cafile=str(cert))
        with urllib.request.urlopen(url + "/frame.json", context=trusted, timeout=30) as page:
            assert page.status == 200
        station = ["--station", url, "--token", token.group(1)]
        untrusted = referee(*station, "status", "--json")
        assert untrusted.returncode == 2 and "SSL_CERT_FILE" in untrusted.stderr
        assert len(untrusted.stderr.splitlines()) == 1
        env = {**ENV, "SSL_CERT_FILE": str(cert)}
        done = subprocess.run([sys.executable, "-m", "referee", *station, "status", "--json"],
                              env=env, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0 and json.loads(done.stdout)["fool"] == "Fool", done.stderr
        plain = url.replace("https://", "http://")  # plain HTTP at a TLS port: no answer,
        with pytest.raises(OSError):                 # and no traceback at the server
            urllib.request.urlopen(plain + "/", timeout=30)
    finally:
        out = _stop(proc)
    assert proc.returncode == 0 and "Stopped." in out
    assert "Traceback" not in out and "internal error" not in out


@pytest.mark.parametrize("files", ["missing", "swapped"])
def test_e67_tls_with_unusable_files_is_one_line(demo_db: Path, tmp_path: Path,
                                                 certificate: tuple[Path, Path],
                                                 files: str) -> None:
    cert, key = certificate
    args = [str(tmp_path / "none.pem"), str(key)] if files == "missing" else [str(key),
                                                                              str(cert)]
    db = copy_evening(demo_db, tmp_path / "night")
    result = referee("--db", str(db), "serve", "--port", "0", "--tls", *args)
    assert result.returncode == 2 and "--tls" in result.stderr and "E67" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr


def test_e66_a_station_shell_goes_on_after_new_force(serving: Serving, tmp_path: Path) -> None:
    lines = ("new --fool Max --seat Ada:XVI:red:Ben:IX --seat Cy:III:blue:Di:II --force\n"
             "status --json\n")
    result = referee("--station", serving.url, "--token", serving.token, "shell", stdin=lines)
    assert result.returncode == 0, result.stderr
    assert "this shell goes on with it" in result.stderr
    assert json.loads(result.stdout.strip().splitlines()[-1])["fool"] == "Max"


# -- one served evening for the tests that need a real station but no fresh evening ----------
# These run last: the module-scoped server lives until the module ends, and an idle `serve`
# still polls its evening file, so it should not idle through the rest of the module.


@pytest.fixture(scope="module")
def shared(demo_db: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Serving]:
    """One `referee serve --station --links` for the tests below (a start is ~0.4 s of CPU).
    Sound to share because none of them sees a write it does not account for: all but the last
    two write nothing and each checks that itself, so each finds the demo evening as served;
    then (file order) one gives a Charge, its first checks the chips the others left alone;
    and the last replaces the evening with `new --force`, whatever was in it."""
    with _serving(copy_evening(demo_db, tmp_path_factory.mktemp("night"))) as s:
        yield s


def test_station_with_an_assistants_token_writes_nothing(shared: Serving) -> None:
    db = shared.db
    before = db.read_bytes()
    token = shared.links["Ben"].rsplit("/", 1)[1]
    for bad in (token, "not-the-token-at-all", ""):
        args = ["--station", shared.url, "--token", bad] if bad else ["--station", shared.url]
        result = referee(*args, "charge", "give", "Ben", "Flo", "1")
        assert result.returncode == 2
        assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert db.read_bytes() == before


def test_links_printed_by_serve_open_the_sheets(shared: Serving) -> None:
    import urllib.request

    for name, link in shared.links.items():
        with urllib.request.urlopen(link, timeout=30) as page:
            assert f"Clue sheet: {name}" in page.read().decode()


def test_e65_the_real_command_line_at_a_station(shared: Serving, tmp_path: Path) -> None:
    """`referee --station URL --token T ... --db OTHER` through a real `referee serve`."""
    other = shared.db.parent / "other.json"  # beside the served evening
    new = tmp_path / "somewhere" / "new" / "x.json"
    before = _listing(tmp_path), _listing(shared.db.parent)
    station = ["--station", shared.url, "--token", shared.token]
    for line in (["status", "--db", str(other)], ["rise", "Cy", "--db", str(other)],
                 ["--db", str(other), "status"], ["new", "--fool", "F", "--seat", "A:I:red",
                                                  "--seat", "B:II:blue", "--db", str(new)]):
        result = referee(*station, *line)
        assert result.returncode == 2, result
        assert "E65" in result.stderr and len(result.stderr.splitlines()) == 1, result.stderr
        assert result.stdout == ""
    assert (_listing(tmp_path), _listing(shared.db.parent)) == before
    assert not (tmp_path / "somewhere").exists()


def test_station_command_runs_there_and_answers_here(shared: Serving, demo_db: Path,
                                                     tmp_path: Path) -> None:
    # It writes through `shared`: after those that write nothing, before the last test.
    there = referee("--station", shared.url, "--token", shared.token, "status", "--json")
    assert there.returncode == 0, there.stderr
    here = referee("--db", str(demo_db), "status", "--json")
    assert json.loads(there.stdout)["chips"] == json.loads(here.stdout)["chips"]
    wrong = referee("--station", shared.url, "--token", shared.token, "bet", "Zed")
    assert wrong.returncode == 2 and wrong.stdout == ""
    assert wrong.stderr == referee("--db", str(demo_db), "bet", "Zed").stderr
    done = referee("--station", shared.url, "--token", shared.token,
                   "charge", "give", "Ben", "Flo", "1")
    assert done.returncode == 0, done.stderr


def test_e66_token_rotation_after_new_force_through_the_station(shared: Serving) -> None:
    # After every other test on `shared`: `new --force` replaces whatever they left, and
    # no test after it could use the served tokens.
    from referee.serve import access as serve_access

    db = shared.db
    new = ["new", "--fool", "Max", "--seat", "Ada:XVI:red:Ben:IX", "--seat",
           "Cy:III:blue:Zoe:II", "--force"]
    station = ["--station", shared.url, "--token", shared.token]
    done = referee(*station, *new)
    assert done.returncode == 0, done.stderr
    access = serve_access.load_access(db)
    assert access is not None and access.station != shared.token
    assert f"--token {access.station}" in done.stderr and "E66" in done.stderr
    assert set(access.assistants) == {"Ben", "Zoe"}
    import urllib.error
    import urllib.request

    for name, link in shared.links.items():  # every old link opens nothing now
        with pytest.raises(urllib.error.HTTPError) as gone:
            urllib.request.urlopen(link, timeout=30)
        assert gone.value.code == 404, name
    zoe = f"{shared.url}/a/{access.assistants['Zoe']}"
    with urllib.request.urlopen(zoe, timeout=30) as page:  # a new assistant's, at once
        assert "Clue sheet: Zoe" in page.read().decode()
    stale = referee(*station, "status")
    assert stale.returncode == 2 and "new evening replaces it" in stale.stderr
    fresh = referee("--station", shared.url, "--token", access.station, "status", "--json")
    assert fresh.returncode == 0 and json.loads(fresh.stdout)["fool"] == "Max"
