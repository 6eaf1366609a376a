"""`referee scum ...` through the real CLI: R29-R31, T1-T11, errors and undo."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from referee.cli.main import app

PLAYERS = ["Ann", "Bea", "Cid", "Dan"]


def scum(runner: CliRunner, db: Path, *args: str) -> Result:
    return runner.invoke(app, ["--db", str(db), "scum", *args])


def ok(runner: CliRunner, db: Path, *args: str) -> Result:
    result = scum(runner, db, *args)
    assert result.exit_code == 0, result.output
    return result


def as_json(runner: CliRunner, db: Path, *args: str) -> Any:
    return json.loads(ok(runner, db, *args, "--json").stdout)


def refused(runner: CliRunner, db: Path, *args: str) -> str:
    """Run a command that must fail as a user mistake: one line, exit 2, file untouched."""
    before = db.read_bytes() if db.exists() else None
    result = scum(runner, db, *args)
    assert result.exit_code == 2, result.output
    after = db.read_bytes() if db.exists() else None
    assert after == before, "the evening file changed"
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    return lines[0]


@pytest.mark.parametrize("command", ["new", "check", "finish", "standings", "deal", "undo",
                                     "redo"])
def test_every_command_has_help(runner: CliRunner, command: str) -> None:
    result = runner.invoke(app, ["scum", command, "--help"])
    assert result.exit_code == 0, result.output
    assert "Usage" in result.output


def test_r29_new_prints_roles_deal_sizes_and_passing(runner: CliRunner, db: Path) -> None:
    out = ok(runner, db, "new", *PLAYERS, "--seed", "7").stdout
    for text in ("0 The Fool", "I The Magician", "II The High Priestess", "III The Empress",
                 "20", "17", "19", "18", "one major", "his two highest minors",
                 "two minors of her choice", "leads the first series", "seed 7"):
        assert text in out
    assert db.exists()  # created on first use, no Fool's Errand evening needed


def test_r29_new_json(runner: CliRunner, db: Path) -> None:
    data = as_json(runner, db, "new", *PLAYERS, "--seed", "7")
    assert sorted(data["roles"]) == PLAYERS
    assert sorted(data["roles"].values()) == ["empress", "fool", "high_priestess", "magician"]
    sizes = {"fool": 20, "magician": 17, "high_priestess": 19, "empress": 18}
    assert data["deal"] == {name: sizes[role] for name, role in data["roles"].items()}
    by_role = {role: name for name, role in data["roles"].items()}
    assert data["leads"] == by_role["empress"]
    assert {"from": by_role["fool"], "to": by_role["magician"], "cards": "one major"} in (
        data["passing"])
    assert data["seed"] == 7 and data["hand"] == 1 and data["hands"] == 4


def test_t3_same_seed_same_roles(runner: CliRunner, tmp_path: Path) -> None:
    a = as_json(runner, tmp_path / "a.json", "new", *PLAYERS, "--seed", "42")
    b = as_json(runner, tmp_path / "b.json", "new", *PLAYERS, "--seed", "42")
    assert a["roles"] == b["roles"]


def test_r29_console_deal_uses_every_card_once(runner: CliRunner, db: Path) -> None:
    roles = as_json(runner, db, "new", *PLAYERS, "--seed", "3")["roles"]
    deal = as_json(runner, db, "deal")
    dealt = Counter(card for cards in deal["cards"].values() for card in cards)
    assert len(dealt) == 78 and set(dealt.values()) == {1}
    sizes = {"fool": 21, "magician": 18, "high_priestess": 20, "empress": 19}
    assert {n: len(c) for n, c in deal["cards"].items()} == {
        n: sizes[r] for n, r in roles.items()}
    role_card = {"fool": "0", "magician": "I", "high_priestess": "II", "empress": "III"}
    for name, role in roles.items():
        assert role_card[role] in deal["cards"][name]


@pytest.mark.parametrize(("previous", "play", "legal", "wins"), [
    ("-", "5C", True, False),
    ("5C 5S", "7C XVI", True, False),
    ("5C,5S,5W", "6C,6S,XX", True, False),
    ("5C 5S", "0 I", True, True),
    ("-", "0 I II", True, True),
    ("5C 5S", "pass", True, False),
    ("5C 5S", "5W 5P", False, False),
    ("5C 5S", "7C 7S 7W", False, False),
    ("-", "5C 5S XX XXI", False, False),
    ("0 I", "KC KS", False, False),
])
def test_r30_check(runner: CliRunner, db: Path, previous: str, play: str, legal: bool,
                   wins: bool) -> None:
    result = scum(runner, db, "check", previous, play, "--json")
    assert result.exit_code == (0 if legal else 2), result.output
    data = json.loads(result.stdout)
    assert data["legal"] is legal and data["wins_series"] is wins
    assert data["reason"]
    assert not db.exists()  # a ruling writes nothing


def test_r30_check_human(runner: CliRunner, db: Path) -> None:
    out = ok(runner, db, "check", "5c 5s", "7c xvi").stdout
    assert "legal" in out and "beats a pair of Fives" in out
    line = refused(runner, db, "check", "5C 5S", "7C 7S 7W")
    assert "not a legal follow" in line and "must be 2 cards" in line and "(R30)" in line
    assert "wins the series" in ok(runner, db, "check", "9C", "XXI").stdout


def test_r2_check_unknown_card_suggests(runner: CliRunner, db: Path) -> None:
    line = refused(runner, db, "check", "5C", "7X")
    assert "unknown card '7X'" in line and "did you mean" in line


def test_t7_check_card_on_both_sides(runner: CliRunner, db: Path) -> None:
    assert "in both" in refused(runner, db, "check", "5C", "5C")
    assert "appears twice" in refused(runner, db, "check", "-", "5C 5c")


def test_r31_finish_scores_by_role_and_place(runner: CliRunner, db: Path) -> None:
    roles = as_json(runner, db, "new", *PLAYERS, "--seed", "7")["roles"]
    data = as_json(runner, db, "finish", "bea", "ANN", "d", "cid")
    table = {"fool": [9, 7, 5, 3], "high_priestess": [8, 6, 4, 2], "magician": [7, 5, 3, 1],
             "empress": [6, 4, 2, 0]}
    order = ["Bea", "Ann", "Dan", "Cid"]
    assert data["order"] == order
    assert data["points"] == {n: table[roles[n]][i] for i, n in enumerate(order)}
    assert data["next"]["hand"] == 2
    assert as_json(runner, db, "standings") == dict(
        sorted(data["points"].items(), key=lambda kv: -kv[1]))


def test_r31_rotated_match_each_role_once_then_over(runner: CliRunner, db: Path) -> None:
    data = as_json(runner, db, "new", *PLAYERS, "--rotate", "--seed", "1")
    taken: dict[str, list[str]] = {n: [r] for n, r in data["roles"].items()}
    for hand in range(1, 5):
        result = as_json(runner, db, "finish", *PLAYERS)
        assert result["hand"] == hand
        if hand < 4:
            for name, role in result["next"]["roles"].items():
                taken[name].append(role)
        else:
            assert result["next"] is None
            assert result["winner"] == ["Ann"]  # first every hand, one role each: 9+8+7+6
    for roles in taken.values():
        assert sorted(roles) == ["empress", "fool", "high_priestess", "magician"]
    line = refused(runner, db, "finish", *PLAYERS)
    assert "match is over after 4 hands" in line and "(R31)" in line
    assert "Match over" in ok(runner, db, "standings").stdout


def test_finish_bad_input_changes_nothing(runner: CliRunner, db: Path) -> None:
    ok(runner, db, "new", *PLAYERS, "--seed", "7")
    assert "give all four" in refused(runner, db, "finish", "Ann", "Bea", "Cid")
    assert "Ann is named twice" in refused(runner, db, "finish", "Ann", "Bea", "Cid", "an")
    line = refused(runner, db, "finish", "Ann", "Bee", "Cid", "Dan")
    assert "unknown player 'Bee'" in line and "Bea" in line


def test_new_bad_input_creates_nothing(runner: CliRunner, db: Path) -> None:
    assert "four players; got 3" in refused(runner, db, "new", "Ann", "Bea", "Cid")
    assert "named twice" in refused(runner, db, "new", "Ann", "Bea", "Cid", "ANN")
    assert not db.exists()


def test_t9_new_over_an_unfinished_match(runner: CliRunner, db: Path) -> None:
    ok(runner, db, "new", *PLAYERS, "--seed", "7")
    assert "--abandon" in refused(runner, db, "new", "Eve", "Fay", "Gus", "Hal")
    ok(runner, db, "new", "Eve", "Fay", "Gus", "Hal", "--abandon")
    assert sorted(as_json(runner, db, "standings")) == ["Eve", "Fay", "Gus", "Hal"]


def test_no_match_yet(runner: CliRunner, db: Path) -> None:
    assert "scum new" in refused(runner, db, "standings")
    assert "scum new" in refused(runner, db, "finish", *PLAYERS)
    assert "nothing to undo" in refused(runner, db, "undo")
    assert not db.exists()


def test_undo_and_redo_whole_commands(runner: CliRunner, db: Path) -> None:
    ok(runner, db, "new", *PLAYERS, "--seed", "7")
    ok(runner, db, "finish", *PLAYERS)
    after_one = as_json(runner, db, "standings")
    assert "undone: scum finish" in ok(runner, db, "undo").stdout
    assert set(as_json(runner, db, "standings").values()) == {0}
    assert "redone" in ok(runner, db, "redo").stdout
    assert as_json(runner, db, "standings") == after_one
    ok(runner, db, "undo")
    ok(runner, db, "undo")
    assert "scum new" in refused(runner, db, "standings")


def test_scum_lives_beside_other_streams(runner: CliRunner, db: Path) -> None:
    ok(runner, db, "new", *PLAYERS, "--seed", "7")
    result = runner.invoke(app, ["--db", str(db), "wager", "new", "Eve", "Fay", "--seed", "1"])
    assert result.exit_code == 0, result.output
    ok(runner, db, "finish", *PLAYERS)
    assert "undone: scum finish" in ok(runner, db, "undo").stdout  # only the scum stream
    result = runner.invoke(app, ["--db", str(db), "wager", "status", "--json"])
    assert json.loads(result.stdout)["fool"] == "Eve"
