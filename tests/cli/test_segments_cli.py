"""Sealed segments are part of the evening (E90-E93): their digests are recorded in the live
file, every command checks their presence and size, every read checks their bytes, plain
``verify`` hashes them all, and ``undo`` never brings a damaged segment back to life."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from referee.storage import backups, files, segments, store
from referee.version import __version__
from tests.cli.conftest import GM

SEATS = ("Ada:I:red:Ann:II", "Bob:III:blue:Bea:IV")


@pytest.fixture(autouse=True)
def _small_segments(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store, "SEGMENT_SIZE", 5)


def give(gm: GM, i: int) -> None:
    gm("chips", "give", *(("Ada", "Ann") if i % 2 == 0 else ("Ann", "Ada")), "red:1")


def tables(db: Path) -> dict[str, dict[str, dict[str, object]]]:
    raw = db.read_bytes()
    data: dict[str, dict[str, dict[str, object]]] = json.loads(raw)
    return data


def sealed_evening(gm: GM) -> Path:
    """Two seats, transfers until a command has just sealed a second segment (no live events
    left, so `undo` reaches into the newest segment). Returns that segment."""
    gm("new", "--fool", "Fool", *[arg for seat in SEATS for arg in ("--seat", seat)])
    gm("rise", "Ada")
    for i in range(40):
        give(gm, i)
        if tables(gm.db)["meta"]["1"]["segments"] == 2 and not tables(gm.db).get("events"):
            break
    else:
        raise AssertionError("no seal left the live events empty")
    folder = segments.folder(gm.db)
    return folder / str(tables(gm.db)["meta"]["1"]["segment_files"][-1])  # type: ignore[index]


def _flip(at: float) -> Callable[[bytes], bytes]:
    def damage(data: bytes) -> bytes:
        i = int((len(data) - 1) * at)
        return data[:i] + bytes([data[i] ^ 0x04]) + data[i + 1:]
    return damage


def _swap(old: bytes, new: bytes) -> Callable[[bytes], bytes]:
    assert len(old) == len(new)

    def damage(data: bytes) -> bytes:
        assert old in data, old
        return data.replace(old, new, 1)
    return damage


#: Thirteen damages to a sealed segment; all but the last four keep its size.
DAMAGES: dict[str, Callable[[bytes], bytes] | None] = {
    "bit flip at the start": _flip(0.0),
    "bit flip in the middle": _flip(0.5),
    "bit flip at the end": _flip(1.0),
    "a command's text edited": _swap(b"Ada Ann red:1", b"Ada Ann red:9"),
    "a transfer reversed": _swap(b'"from":"Ada","to":"Ann"', b'"from":"Ann","to":"Ada"'),
    "the Fool's name in the base state": _swap(b'"fool":"Fool"', b'"fool":"Foom"'),
    "a hash digit": _swap(b'"hash":"', b'"hash":"'[:-1] + b"'"),
    "zeros over it": lambda data: bytes(len(data)),
    "a time edited": lambda data: data.replace(b'"time":1', b'"time":2', 1),
    "cut by one byte": lambda data: data[:-1],
    "cut to nothing": lambda data: b"",
    "a byte added": lambda data: data + b" ",
    "deleted": None,
}


def damage(segment: Path, how: str) -> None:
    """Damage ``segment`` as ``how`` says, keeping its modification time."""
    st = segment.stat()
    change = DAMAGES[how]
    if change is None:
        segment.unlink()
        return
    segment.write_bytes(change(segment.read_bytes()))
    os.utime(segment, ns=(st.st_atime_ns, st.st_mtime_ns))


def test_e90_every_seal_records_its_digest_in_the_live_file(gm: GM) -> None:
    sealed_evening(gm)
    meta = tables(gm.db)["meta"]["1"]
    sums = meta[segments.SUMS]
    assert isinstance(sums, list) and len(sums) == meta["segments"] == 2
    for n, entry in enumerate(sums, start=1):
        data = segments.segment_path(gm.db, meta, n).read_bytes()
        assert entry == segments.seal_sum(data)


@pytest.mark.parametrize("how", list(DAMAGES))
def test_e90_a_damaged_segment_is_caught_by_verify_log_and_undo(
        gm: GM, how: str) -> None:
    segment = sealed_evening(gm)
    gm("verify")
    damage(segment, how)
    verify = gm.invoke("verify", "--json")
    assert verify.exit_code == 2, verify.output  # E93
    found = json.loads(verify.stdout)
    assert not found["ok"] and any("sealed segment 2" in p for p in found["problems"])
    for command in (("log",), ("log", "--json"), ("log", "--last", "3"), ("undo", "--yes")):
        line = gm.fails(*command)
        assert "is damaged" in line and "sealed segment 2" in line, (command, line)
    if DAMAGES[how] is None or len(segment.read_bytes()) != tables(gm.db)["meta"]["1"][
            segments.SUMS][1]["size"]:  # type: ignore[index]
        for command in (("status",), ("chips", "give", "Ada", "Ann", "red:1")):
            assert "sealed segment 2" in gm.fails(*command)


def test_e90_undo_never_unseals_a_damaged_segment(gm: GM) -> None:
    segment = sealed_evening(gm)
    damage(segment, "a command's text edited")
    before = gm.db.read_bytes()
    gm.fails("undo", "--yes")
    assert gm.db.read_bytes() == before and tables(gm.db)["meta"]["1"]["segments"] == 2


def test_e90_undo_across_a_sound_seal_still_works(gm: GM) -> None:
    sealed_evening(gm)
    assert "undone" in gm("undo", "--yes").output.lower()
    assert tables(gm.db)["meta"]["1"]["segments"] == 1
    assert len(tables(gm.db)["meta"]["1"][segments.SUMS]) == 1  # type: ignore[arg-type]
    gm("verify")


def _as_previous_release(db: Path) -> None:
    """Rewrite the live file as the previous release wrote it: no segment digests."""
    data = backups.read_json(db)
    assert data is not None
    meta = data["meta"]["1"]
    meta.pop(segments.SUMS)
    meta.pop("writer", None)
    db.write_bytes(files.encode_checked(data))


def test_e91_an_evening_of_the_previous_release_opens_and_gets_its_digests(gm: GM) -> None:
    sealed_evening(gm)
    _as_previous_release(gm.db)
    gm("status")
    gm("verify")
    assert segments.SUMS not in tables(gm.db)["meta"]["1"]  # reading records nothing
    gm("rise", "Bob")
    meta = tables(gm.db)["meta"]["1"]
    assert [e["sha256"] for e in meta[segments.SUMS]] == [  # type: ignore[attr-defined]
        segments.seal_sum(segments.segment_path(gm.db, meta, n).read_bytes())["sha256"]
        for n in (1, 2)]


def test_e91_a_damaged_segment_of_the_previous_release_is_never_taken_in(gm: GM) -> None:
    segment = sealed_evening(gm)
    _as_previous_release(gm.db)
    damage(segment, "a command's text edited")
    assert "sealed segment 2" in gm.fails("undo", "--yes")
    assert "sealed segment 2" in gm.fails("rise", "Bob")
    assert gm.invoke("verify").exit_code == 2


def test_e92_a_file_of_a_newer_release_says_so(gm: GM) -> None:
    gm("new", "--fool", "Fool", *[arg for seat in SEATS for arg in ("--seat", seat)])
    data = backups.read_json(gm.db)
    assert data is not None
    data["meta"]["1"].update(format=store.FORMAT + 1, writer="9.1.0")
    gm.db.write_bytes(files.encode_checked(data))
    for command in (("status",), ("log",), ("rise", "Ada")):
        line = gm.fails(*command)
        assert "written by referee 9.1.0" in line and f"this is referee {__version__}" in line
        assert "upgrade" in line and "damaged" not in line


def test_e93_the_newest_good_backup_is_one_of_this_evening(gm: GM, tmp_path: Path) -> None:
    gm("new", "--fool", "Fool", *[arg for seat in SEATS for arg in ("--seat", seat)])
    gm("rise", "Ada")
    give(gm, 0)
    other = GM(gm.runner, tmp_path / "other.json")
    other("new", "--fool", "Max", "--seat", "Cy:V:green", "--seat", "Di:VI:purple")
    ours = [files.backup_path(gm.db, n) for n in (1, 2)]
    os.replace(other.db, ours[0])  # another evening's file sits where bak.1 would be
    raw = bytearray(gm.db.read_bytes())
    raw[-5] ^= 1
    gm.db.write_bytes(bytes(raw))
    verify = gm.invoke("verify", "--json")
    assert verify.exit_code == 2
    assert json.loads(verify.stdout)["backup"] == str(ours[1])
    assert f"the newest good backup is {ours[1]}" in gm.fails("status")
    gm.db.write_bytes(b"\x00" * 40)  # nothing of it legible: its id is unknown
    assert "no good backup was found" in gm.fails("status")  # two evenings' backups there
    ours[0].unlink()
    assert f"the newest good backup is {ours[1]}" in gm.fails("status")  # one evening's
