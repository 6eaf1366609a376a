"""`referee scenario check|show` through the CLI and its error boundary."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from referee.cli.between import scenario as scenario_cli
from referee.cli.errors import RefereeGroup
from referee.content.scenario import data_file, load_scenario


def _root() -> typer.Typer:
    """The real root once main.py registers `scenario`, else a tiny one with the same boundary."""
    from referee.cli import main

    if any(group.name == "scenario" for group in main.app.registered_groups):
        return main.app
    root = typer.Typer(cls=RefereeGroup)

    @root.callback()
    def _callback() -> None:
        """Test root."""

    root.add_typer(scenario_cli.app, name="scenario")
    return root


@pytest.fixture
def app() -> typer.Typer:
    return _root()


def _bad(tmp_path: Path, old: str, new: str) -> Path:
    text = data_file("scenario.toml").read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "bad.toml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def test_every_command_has_help(runner: CliRunner, app: typer.Typer) -> None:
    for args in (["scenario", "--help"], ["scenario", "check", "--help"],
                 ["scenario", "show", "--help"]):
        result = runner.invoke(app, args)
        assert result.exit_code == 0, result.output
        assert "Usage" in result.output


def test_check_default_is_ok(runner: CliRunner, app: typer.Typer) -> None:
    result = runner.invoke(app, ["scenario", "check", str(data_file("scenario.toml"))])
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == "ok: 6 souls, 44 powers"


def test_check_json(runner: CliRunner, app: typer.Typer) -> None:
    result = runner.invoke(app, ["scenario", "check", str(data_file("scenario.toml")), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {"file": str(data_file("scenario.toml")), "ok": True,
                                         "souls": 6, "powers": 44, "problems": []}


def test_check_power_set(runner: CliRunner, app: typer.Typer) -> None:
    result = runner.invoke(app, ["scenario", "check", str(data_file("powers.toml")), "--powers"])
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == "ok: 44 powers"


def test_check_missing_arcanum_is_one_line_exit_2(
    runner: CliRunner, app: typer.Typer, tmp_path: Path
) -> None:
    path = _bad(tmp_path, 'arcanum = "IX"\n', "")
    result = runner.invoke(app, ["scenario", "check", str(path)])
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(f"error: {path}: souls[3].arcanum: missing")
    assert "Traceback" not in result.output


def test_check_duplicate_label_is_one_line_exit_2(
    runner: CliRunner, app: typer.Typer, tmp_path: Path
) -> None:
    path = _bad(tmp_path, 'label = "the amber bottle"', 'label = "The Cobalt Phial"')
    result = runner.invoke(app, ["scenario", "check", str(path)])
    assert result.exit_code == 2
    (line,) = result.stderr.splitlines()
    assert "souls[2].label: 'The Cobalt Phial' is also the label of souls[1]" in line


def test_check_json_lists_problems_and_exits_2(
    runner: CliRunner, app: typer.Typer, tmp_path: Path
) -> None:
    path = _bad(tmp_path, 'arcanum = "XVI"', 'arcanum = "XXII"')
    result = runner.invoke(app, ["scenario", "check", str(path), "--json"])
    assert result.exit_code == 2
    data = json.loads(result.stdout)
    assert data["ok"] is False and len(data["problems"]) == 1
    assert "souls[4].arcanum: 'XXII' is not a Major Arcanum" in data["problems"][0]


def test_check_lists_every_problem(runner: CliRunner, app: typer.Typer, tmp_path: Path) -> None:
    path = _bad(tmp_path, 'arcanum = "XVI"', 'arcanum = "I"\nlable = "x"')
    result = runner.invoke(app, ["scenario", "check", str(path)])
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 2 and all(line.startswith("error: ") for line in lines)


def test_check_syntax_error_and_missing_file(
    runner: CliRunner, app: typer.Typer, tmp_path: Path
) -> None:
    broken = tmp_path / "broken.toml"
    broken.write_text("[[souls]\n", encoding="utf-8")
    result = runner.invoke(app, ["scenario", "check", str(broken)])
    assert result.exit_code == 2 and "invalid TOML" in result.stderr and "line 1" in result.stderr
    result = runner.invoke(app, ["scenario", "check", str(tmp_path / "nope.toml")])
    assert result.exit_code == 2 and "no such file" in result.stderr


def test_show_hides_secrets(runner: CliRunner, app: typer.Typer) -> None:
    scenario = load_scenario()
    for args in (["scenario", "show"], ["scenario", "show", "--json"]):
        result = runner.invoke(app, args)
        assert result.exit_code == 0, result.output
        for soul in scenario.souls:
            assert soul.label in result.stdout
            for name in soul.names:
                assert name not in result.stdout, name
        assert "The Leap" in result.stdout  # powers are public
    data = json.loads(runner.invoke(app, ["scenario", "show", "--json"]).stdout)
    assert set(data["souls"][0]) == {"soul"}
    assert len(data["powers"]) == 44
    assert data["powers"][0] == {
        "key": "0-upright", "card": "0", "orientation": "upright", "name": "The Leap",
        "charges": 2, "when": "at the showdown, before hands are compared",
        "text": scenario.powers.get(0, "upright").text, "magic": True,
    }


def test_show_reveal(runner: CliRunner, app: typer.Typer) -> None:
    scenario = load_scenario()
    result = runner.invoke(app, ["scenario", "show", "--reveal"])
    assert result.exit_code == 0, result.output
    for soul in scenario.souls:
        assert soul.name in result.stdout
    data = json.loads(runner.invoke(app, ["scenario", "show", "--reveal", "--json"]).stdout)
    first = data["souls"][0]
    assert first["identity"] == scenario.souls[0].name
    assert first["arcanum"] == "I"
    assert first["clue_counts"] == {str(seat): 3 for seat in range(1, 7)}


def test_show_bad_file_is_one_line_exit_2(
    runner: CliRunner, app: typer.Typer, tmp_path: Path
) -> None:
    path = _bad(tmp_path, 'arcanum = "IX"\n', "")
    result = runner.invoke(app, ["scenario", "show", str(path)])
    assert result.exit_code == 2
    (line,) = result.stderr.splitlines()
    assert line.startswith("error: ") and "souls[3].arcanum: missing" in line
    assert "Traceback" not in result.output
