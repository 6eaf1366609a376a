"""A served demo evening for the tests: the server in a thread on 127.0.0.1, and a client."""

from __future__ import annotations

import http.client
import json
import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tests.cli.conftest import GM


def make_demo(folder: Path) -> Path:
    """The demo evening in ``folder`` (``demo.json``, its backups and lock): played once in
    each test process and copied from there after that (``GM.played``)."""
    db = folder / "demo.json"
    GM(CliRunner(), db).played("demo", _play_demo)
    return db


def _play_demo(gm: GM) -> None:
    assert "The evening's status" in gm("demo", "--quiet").output


@pytest.fixture(scope="session")
def demo_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo evening, played once for every test that serves it (copy it to write)."""
    return make_demo(tmp_path_factory.mktemp("served-demo"))


def copy_evening(source: Path, folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / source.name
    shutil.copyfile(source, target)
    return target


class Served:
    """A running ``referee serve`` (in this process) and a loopback client for it."""

    def __init__(self, evening: Path, *, station: bool = True, season: bool = False) -> None:
        from referee.serve import access, players
        from referee.serve.server import make_server

        state = players.load_state(evening)
        self.evening = evening
        self.access = access.ensure_access(evening, state.assistants)
        from referee.cli.room.serving import server_bug
        from referee.cli.room.station import run_remote

        self.server = make_server(evening, "127.0.0.1", 0, station=run_remote if station else None,
                                  bug=server_bug, season=season)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever,
                                       kwargs={"poll_interval": 0.005}, daemon=True)
        self.thread.start()

    def request(self, method: str, path: str, body: bytes | None = None,
                headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            conn.request(method, path, body=body, headers=headers or {})
            answer = conn.getresponse()
            return answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read()
        finally:
            conn.close()

    def get(self, path: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
        return self.request("GET", path, headers=headers)

    def station(self, args: list[str], token: str | None) -> tuple[int, dict[str, Any]]:
        headers = {"Content-Type": "application/json"}
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        status, _, body = self.request("POST", "/station", json.dumps({"args": args}).encode(),
                                       headers)
        try:
            data = json.loads(body)
        except ValueError:
            data = {"text": body.decode()}
        return status, data

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=10)


@contextmanager
def served(evening: Path, *, station: bool = True, season: bool = False) -> Iterator[Served]:
    s = Served(evening, station=station, season=season)
    try:
        yield s
    finally:
        s.close()
