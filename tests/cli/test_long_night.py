"""The long night: verify checks only what it has not checked before, log streams and tails."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.storage import audit, store
from referee.storage.store import open_evening
from tests.cli.conftest import GM
from tests.profiles import examples

SEATS = ("Ada:I:red:Ann:II", "Bob:III:blue:Bea:IV")


def evening(gm: GM, transfers: int) -> None:
    """Two seats; Ada rises, then ``transfers`` chip transfers between Ada and Ann."""
    gm("new", "--fool", "Fool", *[arg for seat in SEATS for arg in ("--seat", seat)])
    gm("rise", "Ada")
    for i in range(transfers):
        src, dst = ("Ada", "Ann") if i % 2 == 0 else ("Ann", "Ada")
        gm("chips", "give", src, dst, "red:1")


def segments(db: Path) -> list[Path]:
    return sorted(db.with_name(db.name + ".segments").glob("*.json"))


def age(db: Path, seconds: float = 60) -> None:
    """Make the sealed segment files look old (verify remembers only settled files)."""
    for path in segments(db):
        stat = path.stat()
        os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns - int(seconds * 1e9)))


def verified(gm: GM, *args: str) -> dict[str, Any]:
    data: dict[str, Any] = gm.json("verify", *args)
    return data


@pytest.fixture
def small_segments(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store, "SEGMENT_SIZE", 5)


def test_verify_checks_only_what_it_has_not_checked_before(gm: GM, small_segments: None) -> None:
    evening(gm, 18)
    assert len(segments(gm.db)) >= 3
    first = verified(gm)
    assert first["ok"] and first["checked"] == first["events"]  # nothing replayed before
    again = verified(gm)  # E90: the segments' bytes are hashed again, not replayed
    assert again["ok"] and again["events"] == first["events"]
    assert again["checked"] < 5  # only the live events
    everything = verified(gm, "--all")
    assert everything["checked"] == everything["events"] == first["events"]
    text = gm("verify").output
    assert "sound" in text and "verified before and are unchanged" in text


def test_a_changed_segment_is_checked_again(gm: GM, small_segments: None) -> None:
    evening(gm, 18)
    age(gm.db)
    verified(gm)
    assert verified(gm)["checked"] < 5
    first = segments(gm.db)[0]
    before = first.stat()
    data = json.loads(first.read_text())
    data["events"][0]["text"] = "edited by hand"
    first.write_text(json.dumps(data))
    os.utime(first, ns=(before.st_atime_ns, before.st_mtime_ns))  # its time kept
    result = gm.invoke("verify", "--json")
    assert result.exit_code == 2  # E93
    found = json.loads(result.stdout)
    assert not found["ok"] and any("sealed segment 1" in p for p in found["problems"])


def test_a_state_changed_at_a_seal_after_the_last_verify_is_found(
    gm: GM, small_segments: None
) -> None:
    evening(gm, 8)
    age(gm.db)
    verified(gm)
    evening_more = segments(gm.db)
    for i in range(10):  # until the next segment is sealed
        gm("chips", "give", *(("Ann", "Ada") if i % 2 else ("Ada", "Ann")), "red:1")
        newest = [p for p in segments(gm.db) if p not in evening_more]
        if newest:
            break
    data = json.loads(newest[0].read_text())
    data["base"]["evening"]["tampered"] = True  # no longer the state verified before
    newest[0].write_text(json.dumps(data))
    problems = gm.invoke("verify", "--json")
    assert problems.exit_code == 2
    assert any("sealed segment" in p  # E90: by its bytes, before any replay
               for p in json.loads(problems.stdout)["problems"])


def test_verify_never_writes_the_evening_and_a_problem_is_not_remembered(
    gm: GM, small_segments: None
) -> None:
    evening(gm, 12)
    age(gm.db)
    before = gm.db.read_bytes()
    sidecar = audit.sidecar_path(gm.db)
    gm.db.with_name(gm.db.name + ".segments").joinpath("000001.json").write_text("{}")
    assert gm.invoke("verify").exit_code == 2
    assert not sidecar.exists() and gm.db.read_bytes() == before


def test_a_refused_verify_writes_nothing(gm: GM, tmp_path: Path) -> None:
    line = gm.fails("verify")  # no evening yet
    assert "no evening file" in line
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("garbage", ["not json", '{"format": 1, "segments": 7}', "[]",
                                     '{"format": 1, "segments": [{"name": 3}]}'])
def test_a_damaged_sidecar_means_checking_everything(
    gm: GM, small_segments: None, garbage: str
) -> None:
    evening(gm, 12)
    age(gm.db)
    verified(gm)
    audit.sidecar_path(gm.db).write_text(garbage)
    found = verified(gm)
    assert found["ok"] and found["checked"] == found["events"]


def test_undo_into_a_sealed_segment_after_verify(gm: GM, small_segments: None) -> None:
    evening(gm, 8)
    age(gm.db)
    verified(gm)
    for _ in range(4):
        gm("undo")
    gm("chips", "give", "Ada", "Ann", "red:2")
    for i in range(6):
        gm("chips", "give", *(("Ada", "Ann") if i % 2 else ("Ann", "Ada")), "red:1")
    found = verified(gm)
    assert found["ok"], found
    assert found == verified(gm, "--all") | {"checked": found["checked"]}


def test_progress_is_reported_per_segment_when_long(
    gm: GM, small_segments: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    evening(gm, 18)
    monkeypatch.setattr(audit, "PROGRESS_FROM", 2)
    seen: list[tuple[int, int]] = []
    with open_evening(gm.db, write=False) as ev:
        assert audit.audit(ev, progress=lambda done, total: seen.append((done, total))).problems \
            == []
        total = ev.meta["segments"]
    assert seen == [(n, total) for n in range(1, total + 1)]


@settings(max_examples=examples(10))
@given(st.integers(0, 30), st.integers(2, 9))
def test_incremental_verify_finds_what_a_full_one_finds(
    tmp_path_factory: pytest.TempPathFactory, transfers: int, size: int
) -> None:
    from typer.testing import CliRunner

    db = tmp_path_factory.mktemp("night") / "evening.json"
    gm = GM(CliRunner(), db)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(store, "SEGMENT_SIZE", size)
        evening(gm, transfers)
        age(db)
        verified(gm)
        gm("chips", "give", "Ada", "Ann", "red:1")
        quick, full = verified(gm), verified(gm, "--all")
    assert quick["ok"] and full["ok"] and quick["events"] == full["events"]
    assert quick["checked"] <= full["checked"] == full["events"]


# ---------------------------------------------------------------- log


def log_json(gm: GM, *args: str) -> dict[str, Any]:
    data: dict[str, Any] = gm.json("log", *args)
    return data


@pytest.mark.parametrize("last", [1, 3, 7, 40])
def test_log_last_is_the_tail_of_the_whole_log(gm: GM, small_segments: None, last: int) -> None:
    evening(gm, 14)
    gm("undo")
    whole = log_json(gm)["commands"]
    tail = log_json(gm, "--last", str(last))
    assert tail["commands"] == whole[-last:]
    assert tail["undone"] == log_json(gm)["undone"] != []
    assert log_json(gm, "--last", str(last), "--person", "Ada")["commands"] == [
        c for c in whole if "Ada" in c["text"] or "Ada" in json.dumps(c["events"])][-last:]


def test_log_json_streams_what_one_json_document_would_say(gm: GM, small_segments: None) -> None:
    evening(gm, 9)
    out = gm("log", "--json").stdout
    assert out == json.dumps(json.loads(out), ensure_ascii=False) + "\n"
    assert [c["cmd"] for c in json.loads(out)["commands"]] == list(range(1, 12))


def test_log_last_text_shows_the_newest(gm: GM, small_segments: None) -> None:
    evening(gm, 9)
    out = gm("log", "--last", "2").output
    assert "chips give Ann Ada red:1" not in out.split("\n")[0]
    assert out.count("chips give") == 2


@pytest.mark.parametrize("n", ["0", "-3"])
def test_log_last_needs_a_positive_count(gm: GM, n: str) -> None:
    evening(gm, 1)
    assert "--last" in gm.fails("log", "--last", n)


def test_log_json_with_a_segment_missing_is_one_line_and_no_half_document(
    gm: GM, small_segments: None
) -> None:
    evening(gm, 12)
    segments(gm.db)[1].unlink()
    result = gm.invoke("log", "--json")
    assert result.exit_code == 2 and result.stdout == ""
    assert "missing" in result.output and result.output.count("\n") == 1
