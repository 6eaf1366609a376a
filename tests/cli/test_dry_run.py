"""`--dry-run` and `try LINE` (E133): what a command would record, its rulings and what it
changes, with every file left byte for byte as it was."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import event, given, settings
from hypothesis import strategies as st

from referee.cli import requests
from referee.cli.room import station
from referee.evening.change import changes
from referee.storage.store import open_evening
from tests.profiles import examples

SEATS = ["--seat", "Ada:XVI:red:Ben:IX", "--seat", "Cy:III:blue:Di:II", "--seat", "Ed:VII:green"]
UP = {"Cy": "KC KW", "Ed": "2S 7P", "Ada": "4C 9W", "Max": "AC 6W 7S QP"}


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def _state(db: Path) -> Any:
    with open_evening(db, write=False) as ev:
        return ev.state("evening")


def _run(db: Path, line: list[str]) -> tuple[int, str, str]:
    return requests.run_captured(line, db=db)


def _new(db: Path) -> None:
    assert _run(db, ["new", "--fool", "Max", *SEATS])[0] == 0


#: Commands a tired GM types, many of them refused at one moment or another.
MOVES = [
    ["hand", "start"], ["bet"], ["call"], ["check"], ["fold"], ["raise"],
    ["hand", "show", *(f"{n}: {c}" for n, c in UP.items())],
    ["hand", "show", "Cy: +6S 8S", "Ed: +10C 4W", "Ada: +AS 6C", "Max: +QW 10S"],
    ["hand", "show", "Max: +2P"],
    ["hand", "showdown", "Cy: KC KW 6S 8S 3C 9C PC", "Ed: 2S 7P 10C 4W 5S 3S 9P",
     "Ada: 4C 9W AS 6C 8C 2W QC", "Max: AC 6W 7S QP QW 10S 2P"],
    ["rise", "Ada"], ["sit", "Ada"], ["chips", "give", "Ada", "Ben", "red:1"],
    ["count", "Ada", "red:9", "pot:2"], ["bet", "Ada"], ["call", "Cy"], ["open-phase"],
]


#: Each round's up cards (R9: two, two more, and the Fool's seventh) and the seven cards.
UPS = {1: UP, 2: {"Cy": "+6S 8S", "Ed": "+10C 4W", "Ada": "+AS 6C", "Max": "+QW 10S"},
       3: {"Max": "+2P"}}
SEVEN = {"Cy": "KC KW 6S 8S 3C 9C PC", "Ed": "2S 7P 10C 4W 5S 3S 9P",
         "Ada": "4C 9W AS 6C 8C 2W QC", "Max": "AC 6W 7S QP QW 10S 2P"}
ASIDE = [["count", "Ada", "red:9", "pot:2"], ["chips", "give", "Ada", "Ben", "red:1"],
         ["rise", "Ada"], ["sit", "Ada"], ["bet", "Ed"], ["open-phase"]]


def _sensible(db: Path, data: st.DataObject) -> list[str]:
    """A command a GM might type now: mostly what the console says is allowed (the moves
    open to the player to act, the up cards due, the next hand), now and then another."""
    hand = json.loads(_run(db, ["status", "--json"])[1])["hand"]
    if hand is None:
        likely = [["hand", "start"]]
    elif hand["missing_up"]:
        street = UPS[hand["street"]]
        likely = [["hand", "show", *(f"{n}: {street[n]}" for n in hand["missing_up"]
                                     if n in street)]]
    elif hand["to_act"]:
        likely = [[move] for move in hand["moves"]]
    else:
        likely = [["hand", "showdown", *(f"{n}: {SEVEN[n]}" for n in hand["in"])]]
    return data.draw(st.sampled_from(likely) if data.draw(st.integers(0, 4)) else
                     st.sampled_from(ASIDE + likely))


@settings(max_examples=examples(25))
@given(st.integers(0, 14), st.data())
def test_e133_a_dry_run_prints_the_change_the_command_then_makes(
        steps: int, data: st.DataObject) -> None:
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "e.json"
        _new(db)
        for _ in range(steps):
            _run(db, _sensible(db, data))
        move = _sensible(db, data)
        files = _files(Path(folder))
        before = _state(db)
        code, out, _ = _run(db, ["--dry-run", *move, "--json"])
        assert _files(Path(folder)) == files  # byte for byte, every file beside it too
        real, _, _ = _run(db, [*move, "--json"])
        assert real == code
        event(f"{move[0]}: {'refused' if code else 'ran'}")
        if code:
            return
        dry = json.loads(out)
        assert dry["dry_run"] is True and dry["written"] is False
        after = _state(db)
        assert dry["changes"]["evening"] == changes(before, after)
        with open_evening(db, write=False) as ev:
            recorded = list(ev.last_commands(1, "evening")[0].events)
        strip = lambda es: [{k: v for k, v in e.items() if k != "time"} for e in es]  # noqa: E731
        assert strip(dry["events"]) == strip(recorded)


def test_e133_dry_run_names_events_rulings_and_changes(tmp_path: Path) -> None:
    db = tmp_path / "e.json"
    _new(db)
    for line in (["hand", "start"], MOVES[6], ["bet", "Cy"], ["raise", "Ed"]):
        assert _run(db, line)[0] == 0, line
    files = _files(tmp_path)
    code, out, err = _run(db, ["call", "Ada", "--dry-run"])
    assert code == 0, err
    assert _files(tmp_path) == files
    assert "`call Ada` would record 1 event; nothing was written (E133)" in out
    assert "action:" in out and "Rulings: R9, R11" in out
    assert "Ada: red -2" in out and "the pot: red +2" in out
    assert "Ada to act, owes 2 -> hand 1 round 1: Cy to act, owes 1" in out
    # A refused dry run is the command's own refusal: one line, exit 2.
    code, out, err = _run(db, ["bet", "Zed", "--dry-run"])
    assert code == 2 and "unknown player 'Zed'" in err and not out
    assert _files(tmp_path) == files


def test_e133_undo_and_the_wall_as_dry_runs(tmp_path: Path) -> None:
    db = tmp_path / "e.json"
    _new(db)
    assert _run(db, ["hand", "start"])[0] == 0
    files = _files(tmp_path)
    code, out, _ = _run(db, ["--dry-run", "undo"])
    assert code == 0 and "`undo` would take back 1 event" in out
    assert "between hands (0 played)" in out
    code, out, _ = _run(db, ["room", "blank", "--dry-run"])
    assert code == 0 and "would put on the wall blank" in out
    code, out, _ = _run(db, ["new", "--fool", "Max", "--seat", "Ada:XVI:red", "--seat",
                             "Cy:III:blue", "--force", "--dry-run"])
    assert code == 0 and "would record 1 event" in out
    assert _files(tmp_path) == files  # no backup, no new keys, no wall file


def test_e133_try_in_the_shell_and_through_a_station(tmp_path: Path) -> None:
    db = tmp_path / "e.json"
    _new(db)
    files = _files(tmp_path)
    code, out, _ = requests.run_captured("try hand start", db=db)
    assert code == 0 and "`hand start` would record" in out
    code, out, err = requests.run_captured("try", db=db)
    assert code == 2 and "give the line after it" in err and not out
    code, out, err = station.run_remote(["--dry-run", "hand", "start"], db)
    assert code == 0, err
    assert "`hand start` would record" in out and "hand 1 round 1" in out
    assert _files(tmp_path) == files


def test_e133_no_keys_are_written_in_a_dry_run(tmp_path: Path) -> None:
    """Keys drawn in a command's build (`new --force` renews them, E66) are never written
    under a dry run, whoever draws them: the dry run is the call's own (E230)."""
    from referee.serve.access import access_path, ensure_access, replace_access

    evening = tmp_path / "e.json"
    ensure_access(evening, ["Ben", "Di"], dry=True)
    assert not access_path(evening).exists()
    ensure_access(evening, ["Ben", "Di"])
    keys = access_path(evening).read_bytes()
    replace_access(evening, ["Ben", "Di"], dry=True)
    assert access_path(evening).read_bytes() == keys


def test_e133_a_dry_run_ends_with_its_command(gm: Any) -> None:
    """The next thing the process writes (a store write of a test, a shell's next line
    before its parse) is written: --dry-run never outlives the command that was given it."""
    gm("new", "--fool", "Max", "--seat", "Ada:XVI:red:Ben:IX", "--seat", "Cy:III:blue")
    before = gm.db.read_bytes()
    gm("--dry-run", "rise", "Ada")
    assert gm.db.read_bytes() == before
    gm("rise", "Ada")
    assert gm.db.read_bytes() != before


def test_r13_a_hand_start_in_the_open_phase_cites_the_antes(tmp_path: Path) -> None:
    db = tmp_path / "e.json"
    _new(db)
    assert _run(db, ["hand", "start", "--dry-run"])[1].count("Rulings: R9") == 1  # the deal
    assert _run(db, ["open-phase"])[0] == 0
    code, out, err = _run(db, ["hand", "start", "--dry-run"])
    assert code == 0, err
    assert "Rulings: R13" in out and "R9" not in out  # the antes (R13), no cards shown yet
