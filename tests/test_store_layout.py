"""E161: `verify` reads the evening file through TinyDB itself, and a file TinyDB reads
otherwise than the store is a problem, named, with exit status 2."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from referee.cli.main import app
from referee.storage import layout
from referee.storage.files import encode_checked

runner = CliRunner()


def _evening(tmp_path: Path) -> Path:
    db = tmp_path / "e.json"
    for args in (["new", "--fool", "Max", "--seat", "Ada:I:red", "--seat", "Cy:II:blue"],
                 ["rise", "Ada"], ["rise", "Cy"], ["chips", "give", "Ada", "Cy", "red:1"]):
        result = runner.invoke(app, ["--db", str(db), *args])
        assert result.exit_code == 0, result.output
    return db


def _rewrite(db: Path, change: dict[str, str]) -> None:
    """The file with some events' row ids written otherwise, its checksum made anew."""
    data = json.loads(db.read_bytes())
    answer, _ = data.pop("answer"), data.pop("check")
    data["events"] = {change.get(k, k): v for k, v in data["events"].items()}
    db.write_bytes(bytes(encode_checked(data, answer)))


def test_e161_a_sound_evening_reads_the_same_through_tinydb(tmp_path: Path) -> None:
    db = _evening(tmp_path)
    tables = {name: json.loads(db.read_bytes()).get(name, {}) for name in layout.TABLES}
    assert tables["events"] and layout.differences(db, tables) == []
    result = runner.invoke(app, ["--db", str(db), "verify"])
    assert result.exit_code == 0, result.output


def test_e161_a_row_id_tinydb_reads_otherwise_fails_verify(tmp_path: Path) -> None:
    db = _evening(tmp_path)
    _rewrite(db, {"1": "01"})
    assert runner.invoke(app, ["--db", str(db), "status"]).exit_code == 0  # the store reads it
    before = db.read_bytes()
    result = runner.invoke(app, ["--db", str(db), "verify"])
    assert result.exit_code == 2, result.output
    assert "TinyDB reads the events table with row ids 1 where the store reads 01" in \
        result.output
    assert "(E161)" in result.output and db.read_bytes() == before


def test_e161_a_row_tinydb_reads_otherwise_is_named(tmp_path: Path) -> None:
    db = _evening(tmp_path)
    tables = {name: json.loads(db.read_bytes()).get(name, {}) for name in layout.TABLES}
    row = next(iter(tables["events"]))
    tables["events"] = {**tables["events"], row: {"changed": True}}
    assert layout.differences(db, tables) == [
        f"TinyDB reads the events table with row {row} otherwise than the store: the file is "
        "not in TinyDB's layout (E161)"]
