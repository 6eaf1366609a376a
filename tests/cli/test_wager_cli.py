"""`referee wager ...` through the real CLI: R32-R34, W1-W10, errors and undo."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from referee.cli.main import app
from referee.rules.wager import RULES, TARGET, Elixir


def wager(runner: CliRunner, db: Path, *args: str) -> Result:
    return runner.invoke(app, ["--db", str(db), "wager", *args])


def ok(runner: CliRunner, db: Path, *args: str) -> Result:
    result = wager(runner, db, *args)
    assert result.exit_code == 0, result.output
    return result


def as_json(runner: CliRunner, db: Path, *args: str) -> Any:
    return json.loads(ok(runner, db, *args, "--json").stdout)


def refused(runner: CliRunner, db: Path, *args: str) -> str:
    """Run a command that must fail as a user mistake: one line, exit 2, file untouched."""
    before = db.read_bytes() if db.exists() else None
    result = wager(runner, db, *args)
    assert result.exit_code == 2, result.output
    after = db.read_bytes() if db.exists() else None
    assert after == before, "the evening file changed"
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    return lines[0]


def start(runner: CliRunner, db: Path, *extra: str) -> Any:
    return as_json(runner, db, "new", "Ann", "Bea", "--seed", "5", *extra)


@pytest.mark.parametrize("command", ["rank", "new", "score", "turn", "elixir", "status",
                                     "undo", "redo"])
def test_every_command_has_help(runner: CliRunner, command: str) -> None:
    result = runner.invoke(app, ["wager", command, "--help"])
    assert result.exit_code == 0, result.output
    assert "Usage" in result.output


@pytest.mark.parametrize(("top", "bottom", "elixir", "kind", "quality", "points"), [
    ("5C", "6C", "Relax", "run", "true", 100),
    ("5C", "6C", "calm", "run", "true", 150),          # Cups to Arcana favours all-Cups
    ("~6C", "5C", "Heal", "run", "mixed", 125),
    ("~5C", "~6C", "Rest", "none", None, 0),           # wrong direction
    ("Prince", "~Prince", "Soothe", "mirror", "true", 150),
    ("~Prince", "Prince", "Relief", "mirror", "false", 50),
    ("Relax", "the fool", "Relax", "set", "true", 350),
    ("Repose", "~Thoth", "Repose", "set", "mixed", 250),
    ("Relax", "KC", "Relax", "poison", None, -150),
    ("0~", "0", "Relief", "mirror", "false", 50),      # a trailing ~ is a mirror too (W9)
])
def test_r33_r34_rank(runner: CliRunner, db: Path, top: str, bottom: str, elixir: str,
                      kind: str, quality: str | None, points: int) -> None:
    data = as_json(runner, db, "rank", top, bottom, "--elixir", elixir)
    assert (data["kind"], data["quality"], data["points"]) == (kind, quality, points)
    assert not db.exists()  # a ruling writes nothing


def test_rank_human(runner: CliRunner, db: Path) -> None:
    out = ok(runner, db, "rank", "5c", "6c", "--elixir", "calm").stdout
    assert "true ascending run" in out and "+150" in out and "favoured" in out


@pytest.mark.parametrize(("args", "message"), [
    (("5S", "6C", "--elixir", "Relax"), "not in the Weir's Wager deck"),
    (("prnce", "6C", "--elixir", "Relax"), "did you mean Prince"),
    (("5C", "6C", "--elixir", "Relx"), "unknown Elixir 'Relx'; did you mean Relax"),
    (("5C", "6C", "--elixir", "re"), "ambiguous"),
    (("5C", "6C"), "give --elixir"),
    (("Calm", "II", "--elixir", "Relax"), "the Elixir on the table is Relax"),
    (("5C", "5C", "--elixir", "Relax"), "both top and bottom"),
    (("~Relax", "0", "--elixir", "Relax"), "no mirror image"),
])
def test_rank_bad_input(runner: CliRunner, db: Path, args: tuple[str, ...], message: str) -> None:
    assert message in refused(runner, db, "rank", *args)


def test_r34_option_custom_points_table(runner: CliRunner, db: Path, tmp_path: Path) -> None:
    from referee.scenario import data_file

    text = data_file("wager_points.toml").read_text(encoding="utf-8")
    custom = tmp_path / "mine.toml"
    custom.write_text(text.replace("true = 100\nmixed = 75", "true = 10\nmixed = 75"),
                      encoding="utf-8")
    data = as_json(runner, db, "rank", "5C", "6C", "--elixir", "Relax", "--points", str(custom))
    assert data["points"] == 10
    broken = tmp_path / "broken.toml"
    broken.write_text(text.replace("cost = 150", "cost = 0"), encoding="utf-8")
    line = refused(runner, db, "rank", "5C", "6C", "--elixir", "Relax", "--points", str(broken))
    assert "poisoning costs points" in line and "(R34)" in line
    assert "cannot read" in refused(runner, db, "new", "Ann", "Bea", "--points",
                                    str(tmp_path / "nope.toml"))
    # a game keeps the table it started with
    start(runner, db, "--points", str(custom), "--elixir", "Relax")
    assert as_json(runner, db, "score", "Ann", "5C", "6C")["hand"]["points"] == 10
    assert as_json(runner, db, "status")["points_table"] == "mine.toml"


def test_new_game_json(runner: CliRunner, db: Path) -> None:
    data = start(runner, db)
    assert data["fool"] == "Ann" and data["mistress"] == "Bea"
    assert data["scores"] == {"Ann": 0, "Bea": 0}
    assert data["elixir"] in [e.value for e in Elixir]
    assert data["elixir_turns"] == 10 and data["target"] == TARGET == 999
    assert db.exists()  # created on first use, no Fool's Errand evening needed


def test_new_game_bad_input(runner: CliRunner, db: Path) -> None:
    assert "both the Fool and the Mistress" in refused(runner, db, "new", "Ann", "ann")
    assert "--elixir-turns" in refused(runner, db, "new", "Ann", "Bea", "--elixir-turns", "0")
    assert not db.exists()
    start(runner, db)
    assert "--abandon" in refused(runner, db, "new", "Cid", "Dan")
    ok(runner, db, "new", "Cid", "Dan", "--abandon")
    assert as_json(runner, db, "status")["fool"] == "Cid"


def test_r34_score_set_changes_the_elixir(runner: CliRunner, db: Path) -> None:
    start(runner, db, "--elixir", "Rest")
    data = as_json(runner, db, "score", "mistress", "Rest", "~Hermit")
    assert data["hand"]["kind"] == "set" and data["hand"]["quality"] == "mixed"
    assert data["scores"] == {"Ann": 0, "Bea": 300}  # Rest is Arcana to Cups: +50 bonus
    assert data["elixir_changed"]["from"] == "Rest" and data["elixir_changed"]["reason"] == "set"
    assert data["elixir"] != "Rest"


def test_r34_poison_costs_points_and_keeps_the_elixir(runner: CliRunner, db: Path) -> None:
    start(runner, db, "--elixir", "Calm")
    data = as_json(runner, db, "score", "a", "Calm", "5C")
    assert data["hand"]["kind"] == "poison" and data["scores"]["Ann"] == -150
    assert data["elixir"] == "Calm" and data["elixir_changed"] is None


def test_r34_elixir_changes_after_the_configured_turns(runner: CliRunner, db: Path) -> None:
    start(runner, db, "--elixir", "Relief", "--elixir-turns", "3")
    assert as_json(runner, db, "score", "Ann", "5C", "6C")["turns"] == 1  # no hand still a turn
    data = as_json(runner, db, "turn", "2")
    assert data["elixir"] != "Relief" and data["turns"] == 0
    assert len(data["elixir_changed"]) == 1
    out = ok(runner, db, "turn").stdout
    assert "turn 1 of 3" in out


def test_r34_race_to_999(runner: CliRunner, db: Path) -> None:
    start(runner, db, "--elixir", "Relax")
    for _ in range(20):
        status = as_json(runner, db, "status")
        if status["winner"]:
            break
        elixir = Elixir(status["elixir"])
        ok(runner, db, "score", "Bea", elixir.value, RULES[elixir].partner)
    status = as_json(runner, db, "status")
    assert status["winner"] == "Bea" and status["scores"]["Bea"] >= 999
    assert "Bea has won" in ok(runner, db, "status").stdout
    assert "game is over: Bea won" in refused(runner, db, "score", "Ann", "5C", "6C")


def test_score_bad_input_changes_nothing(runner: CliRunner, db: Path) -> None:
    assert "wager new" in refused(runner, db, "score", "Ann", "5C", "6C")
    start(runner, db, "--elixir", "Relax")
    line = refused(runner, db, "score", "Cid", "5C", "6C")
    assert "unknown player 'Cid'" in line
    assert "unknown Weir's Wager card" in refused(runner, db, "score", "Ann", "5X", "6C")
    assert "the Elixir on the table is Relax" in refused(runner, db, "score", "Ann", "Heal", "XII")
    assert "unknown Elixir" in refused(runner, db, "elixir", "Hael")
    assert "already the Elixir" in refused(runner, db, "elixir", "relax")
    assert "1 to 100" in refused(runner, db, "turn", "0")


def test_w6_set_the_elixir_from_the_table(runner: CliRunner, db: Path) -> None:
    start(runner, db, "--elixir", "Relax")
    ok(runner, db, "turn", "4")
    assert "Relax → Heal" in ok(runner, db, "elixir", "heal").stdout
    status = as_json(runner, db, "status")
    assert status["elixir"] == "Heal" and status["turns"] == 0
    # rank uses the game's Elixir when none is given
    assert as_json(runner, db, "rank", "6C", "5C")["elixir"] == "Heal"


def test_undo_and_redo_whole_commands(runner: CliRunner, db: Path) -> None:
    start(runner, db, "--elixir", "Relax")
    ok(runner, db, "score", "Ann", "Relax", "0")
    changed = as_json(runner, db, "status")
    assert changed["elixir"] != "Relax"
    assert "undone: wager score Ann Relax 0" in ok(runner, db, "undo").stdout
    status = as_json(runner, db, "status")
    assert status["elixir"] == "Relax" and status["scores"]["Ann"] == 0
    ok(runner, db, "redo")
    assert as_json(runner, db, "status") == changed


def test_score_human(runner: CliRunner, db: Path) -> None:
    start(runner, db, "--elixir", "Relax")
    out = ok(runner, db, "score", "fool", "Relax", "0").stdout
    assert "Ann (Fool)" in out and "true set" in out and "New Elixir" in out
    assert "Ann 350, Bea 0" in out
