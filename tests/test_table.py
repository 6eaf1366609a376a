"""The table, the evening's front door (E230): a typed move in, the events written and the
states before and after out; a dry run the move's own, never a flag of the process (E133)."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.errors import DryRunDone, RefereeError
from referee.evening import commands
from referee.evening.state import State
from referee.storage.store import open_evening
from referee.table import Move, Outcome, run

SEATS = ("Ada:XVI:red:Ben:IX", "Cy:III:blue:Di:II")


def _new(path: Path) -> None:
    seats = [commands.parse_seat(s) for s in SEATS]
    run(Move(path, "evening", "new --fool Max"),
        lambda s: commands.new_evening(s, "Max", seats, now=time.time(), force=False))


def _log(path: Path) -> list[str]:
    with open_evening(path, write=False) as ev:
        return [c.text for c in ev.iter_commands("evening")]


def test_e230_a_move_in_the_events_and_states_out(tmp_path: Path) -> None:
    db = tmp_path / "e.json"
    _new(db)
    out = run(Move(db, "evening", "rise Ada", asked_by="asked by Di from their phone"),
              lambda s: commands.rise(s, "Ada"))
    assert isinstance(out, Outcome)
    assert out.events == [{"kind": "seat_changed", "name": "Ada", "seated": False}]
    assert out.before.seat("Ada").seated and not out.after.seat("Ada").seated
    assert _log(db)[-1] == "rise Ada  # asked by Di from their phone"  # E214


def test_e230_the_line_is_asked_after_the_core_built(tmp_path: Path) -> None:
    """The log's words may name what the core chose: they are asked for after ``build``."""
    db = tmp_path / "e.json"
    _new(db)
    chosen: dict[str, str] = {}

    def build(state: State) -> list[Any]:
        chosen["who"] = "Ada"
        return commands.rise(state, "Ada")

    run(Move(db, "evening", lambda: f"rise {chosen['who']}"), build)
    assert _log(db)[-1] == "rise Ada"


def test_e230_a_refused_move_writes_nothing(tmp_path: Path) -> None:
    db = tmp_path / "e.json"
    _new(db)
    before = db.read_bytes()
    with pytest.raises(RefereeError):
        run(Move(db, "evening", "rise Zed"), lambda s: commands.rise(s, "Zed"))
    assert db.read_bytes() == before


def test_e230_a_dry_move_stops_short_and_the_next_one_writes(tmp_path: Path) -> None:
    db = tmp_path / "e.json"
    _new(db)
    before = db.read_bytes()
    with pytest.raises(DryRunDone) as dry:
        run(Move(db, "evening", "rise Ada", dry=True), lambda s: commands.rise(s, "Ada"))
    assert dry.value.text == "rise Ada" and db.read_bytes() == before
    run(Move(db, "evening", "rise Ada"), lambda s: commands.rise(s, "Ada"))
    assert _log(db)[-1] == "rise Ada"


def test_e230_a_dry_run_is_no_flag_of_the_process(tmp_path: Path) -> None:
    """A dry run held open in one thread does not stop another evening's write in another
    (a station's line beside the shell): the flag is the move's, not the process's."""
    dry_db, real_db = tmp_path / "dry.json", tmp_path / "real.json"
    _new(dry_db)
    _new(real_db)
    inside, done = threading.Event(), threading.Event()

    def hold(state: State) -> list[Any]:
        inside.set()
        assert done.wait(10)
        return commands.rise(state, "Ada")

    def dry_move() -> None:
        with pytest.raises(DryRunDone):
            run(Move(dry_db, "evening", "rise Ada", dry=True), hold)

    worker = threading.Thread(target=dry_move)
    worker.start()
    try:
        assert inside.wait(10)
        run(Move(real_db, "evening", "rise Cy"), lambda s: commands.rise(s, "Cy"))
    finally:
        done.set()
        worker.join()
    assert _log(real_db)[-1] == "rise Cy" and _log(dry_db)[-1] == "new --fool Max"


def test_e230_no_module_keeps_a_dry_run_flag() -> None:
    """``--dry-run`` is a parameter wherever it is read: no module of the package keeps it."""
    package = Path(__file__).resolve().parent.parent / "referee"
    found = [str(p.relative_to(package)) for p in package.rglob("*.py")
             if "DRY_RUN" in p.read_text(encoding="utf-8")]
    assert found == []


@settings(max_examples=20, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(moves=st.lists(st.tuples(st.sampled_from(["Ada", "Cy", "Zed"]), st.booleans()),
                      max_size=6))
def test_e230_only_sound_moves_not_dry_change_the_file(tmp_path: Path,
                                                        moves: list[tuple[str, bool]]) -> None:
    """Whatever is tried, dry or refused moves leave the file byte for byte; each sound one
    that is not dry adds exactly its own line to the log."""
    db = tmp_path / f"e{time.monotonic_ns()}.json"
    _new(db)
    expected = _log(db)
    for who, dry in moves:
        before = db.read_bytes()
        try:
            run(Move(db, "evening", f"rise {who}", dry=dry), lambda s, w=who: commands.rise(s, w))
        except (DryRunDone, RefereeError):
            assert db.read_bytes() == before
            continue
        expected.append(f"rise {who}")
    assert _log(db) == expected
    json.loads(db.read_text(encoding="utf-8"))  # still one whole JSON document
