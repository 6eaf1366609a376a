"""`referee fate`: the Card of Fate at the console, as a tired Host types it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from referee.cli.main import app
from tests.cli.conftest import GM


class Host:
    """The shared GM at the ``fate`` commands."""

    def __init__(self, gm: GM) -> None:
        self.gm, self.runner, self.db = gm, gm.runner, gm.db

    def __call__(self, *args: str) -> Result:
        return self.gm("fate", *args)

    def json(self, *args: str) -> Any:
        return self.gm.json("fate", *args)

    def fails(self, *args: str) -> str:
        """Exit 2, one line, and the evening file byte-for-byte unchanged."""
        return self.gm.fails("fate", *args)


@pytest.fixture
def host(gm: GM) -> Host:
    return Host(gm)


@pytest.fixture
def cast(host: Host) -> Host:
    host("char", "new", "Alice", "-m", "fiery=7", "-t", "Swordsman=2",
         "-r", "Loved by Miss Atherton=2", "-e", "Crimea:fiery", "-i", "Sabre=3",
         "--player", "The Empress")
    host("char", "new", "Bob", "-m", "calm=7", "-i", "Pistol=4",
         "-r", "Respected by the Regiment=3")
    return host


def _commands(group: Any, path: list[str]) -> list[list[str]]:
    from typer.main import get_command

    cmd = get_command(group) if not hasattr(group, "commands") else group
    out = []
    for name, sub in cmd.commands.items():
        if hasattr(sub, "commands"):
            out += _commands(sub, [*path, name])
        else:
            out.append([*path, name])
    return out


def test_every_fate_command_has_help(runner: CliRunner) -> None:
    from referee.cli.fate import app as fate_app

    commands = _commands(fate_app, [])
    assert ["duel", "phase"] in commands and ["char", "new"] in commands
    for path in commands:
        result = runner.invoke(app, ["fate", *path, "--help"])
        assert result.exit_code == 0, (path, result.output)
        assert "Usage" in result.output


@pytest.mark.system
def test_cli_module_imports_light() -> None:
    code = ("import sys, referee.cli.fate; "
            "bad = [m for m in sys.modules if m.startswith(('referee.rules.fate', 'rich', "
            "'tinydb', 'referee.store'))]; assert not bad, bad")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_char_new_and_show_json(cast: Host) -> None:
    alice = cast.json("char", "show", "ali")
    assert alice["measures"]["Fiery"] == 7 and alice["measures"]["Calm"] == 3
    assert alice["player"] == "The Empress"
    assert alice["areas"]["Loved by Miss Atherton"] == "healthy"
    assert [c["name"] for c in cast.json("char", "list")] == ["Alice", "Bob"]
    out = cast("char", "show", "bob").output
    assert "Fiery / Calm" in out and "3 / 7" in out


@pytest.mark.parametrize(("args", "says"), [
    (["char", "new", "Cy", "-m", "fiery/calm=7/4"], "sums to 11"),
    (["char", "new", "Cy", "-m", "fiery=7", "-m", "calm=4"], "always sum to 10"),
    (["char", "new", "Cy", "-m", "fiery=9", "-m", "noble=8"], "budget is 5"),
    (["char", "new", "alice"], "already exists"),
    (["char", "show", "Alcie"], "did you mean Alice"),
    (["test", "--cof", "7H", "--a", "AH 7X", "--b", "KC"], "'7X'"),
    (["test", "--cof", "7H", "--a", "AH 7S", "--b", "7s"], "7S drawn twice"),
    (["test", "--cof", "7H", "--a", "AH 7S", "--b", "7H"], "7H drawn twice"),
    (["test", "--cof", "JOKER", "--a", "AH", "--b", "KC"], "Joker cannot be the Card of Fate"),
    (["test", "--pool", "-1", "--vs", "3"], "below 0"),
    (["test", "--pool", "3", "--vs", "3", "--static", "heroic"], "one opposition"),
    (["test", "--pool", "3", "--static", "easy"], "static level"),
    (["test", "--char", "Zed", "--measure", "fiery", "--vs", "2"], "unknown character"),
    (["test", "--char", "ali", "--measure", "f", "--vs", "2"], "ambiguous"),
    (["test", "--char", "ali", "--measure", "fiery", "--cof", "7H", "--a", "2H", "--b", ""],
     "1 card typed but the pool is 7"),
    (["test", "--char", "ali", "--measure", "fiery", "--aid", "4", "--vs", "3"], "+3"),
    (["test", "--char", "ali", "--vs", "2"], "which Measure does ali test"),
    (["test", "--char", "ali", "--measure", "fiery", "--vs-char", "bob"], "--vs-measure"),
    (["fight", "alice", "alice"], "themself"),
    (["fight", "alice", "bob", "--a-weapon", "musket"], "unknown item"),
    (["drink", "bob", "--strength", "-2"], "below 0"),
    (["heal", "bob", "--area", "health", "--measure", "calm"], "nothing to heal"),
    (["grow", "bob", "calm"], "checks"),
    (["compel", "bob", "calm"], "only 8-9"),
    (["duel", "phase", "fire", "fire"], "no duel under way"),
    (["deck", "poker"], "unknown deck"),
])
def test_bad_input_one_line_exit_2_nothing_written(cast: Host, args: list[str], says: str,
                                                   ) -> None:
    assert says in cast.fails(*args)


def test_pure_test_writes_no_file(host: Host, db: Path) -> None:
    data = host.json("test", "--cof", "7H", "--a", "AH 7S 2H", "--b", "KC QD")
    assert set(data) >= {"cof", "a", "b", "winner", "why"}
    assert data["a"] == {"cards": ["AH", "7S", "2H"], "perfect": 0, "critical": 1,
                         "ordinary": 2}
    assert data["winner"] == "a"
    assert not db.exists()


def test_seeded_test_is_reproducible(host: Host) -> None:
    one = host.json("test", "--pool", "5", "--static", "damned-hard", "--seed", "77")
    two = host.json("test", "--pool", "5", "--static", "damned", "--seed", "77")
    assert one == two and len(one["a"]["cards"]) == 5 and len(one["b"]["cards"]) == 7
    text = host("test", "--pool", "5", "--static", "damned-hard", "--seed", "77").output
    assert f"Card of Fate: {one['cof']}" in text


def test_character_test_is_recorded_with_its_seed(cast: Host) -> None:
    data = cast.json("test", "--char", "ali", "--measure", "fiery", "--rep", "loved",
                     "--static", "heroic")
    seed = data["seed"]
    assert isinstance(seed, int)
    log = cast("log").output
    assert f"--seed {seed}" in log and "fate test --char ali" in log


def test_fight_duel_and_undo(cast: Host) -> None:
    line = cast.fails("fight", "alice", "bob", "--a-weapon", "sabre", "--b-weapon", "pistol",
                      "--cof", "7H", "--a", "2H 3S 4S", "--b", "7S 5C 6C 8C")
    assert "type it too, --complication CARD" in line  # typed cards: the console asks (F20)
    cast("fight", "alice", "bob", "--a-weapon", "sabre", "--b-weapon", "pistol", "--cof", "7H",
         "--a", "2H 3S 4S", "--b", "7S 5C 6C 8C", "--complication", "4H")
    assert any("(4H)" in n for n in cast.json("char", "show", "alice")["notes"])
    assert cast.json("char", "show", "bob")["areas"]["health"] == "injured"
    assert cast.json("char", "show", "alice")["areas"]["health"] == "maimed"
    assert "undone: fate fight alice bob" in cast("undo").output
    assert cast.json("char", "show", "alice")["areas"]["health"] == "healthy"
    cast("redo")
    assert cast.json("char", "show", "alice")["areas"]["health"] == "maimed"


def test_pistol_duel_runs_to_its_end(cast: Host) -> None:
    cast("duel", "pistols", "alice", "bob", "--b-weapon", "pistol", "--seed", "3")
    for choices in (("a", "s"), ("s", "a"), ("f", "m"), ("s", "f"), ("m", "m")):
        view = cast.json("duel", "show")["duel"]
        if view["over"]:
            break
        cast("duel", "phase", *choices)
    duel = cast.json("duel", "show")["duel"]
    assert duel["over"] and duel["result"]
    assert len(duel["log"]) <= 4


def test_sword_duel_rounds_and_surrender(cast: Host) -> None:
    cast("duel", "swords", "alice", "bob", "--to", "surrender", "--a-weapon", "sabre",
         "--seed", "5")
    out = cast("duel", "round").output
    assert "Round 1" in out
    data = cast.json("duel", "show")
    if not data["duel"]["over"]:
        cast("duel", "surrender", "bob")
        assert cast.json("duel", "show")["duel"]["winner"] == "Alice"
    assert "sword duel" in cast.fails("duel", "phase", "f", "f") or \
        "no duel" in cast.fails("duel", "phase", "f", "f")


def test_drink_heal_check_grow(cast: Host) -> None:
    data = cast.json("drink", "bob", "--strength", "2", "--cof", "7H",
                     "--a", "2S 3S 4S 5S 6S", "--b", "2H 3H")
    assert data["drink"] == {"outcome": "lose", "modifier": -1, "next_test": -1}
    assert cast.json("char", "show", "bob")["next_mod"] == -1
    cast("check", "bob", "calm")
    assert cast.json("check", "bob", "calm")["can_grow"]
    grown = cast.json("grow", "bob", "calm", "--cof", "7H", "--cards", "2S 3S 4S 5S 6S 8S 9S")
    assert grown["to"] == 8
    assert cast.json("char", "show", "bob")["measures"]["Calm"] == 8
    # Bob's -1 from the drink is used up by this fight: one card instead of two.
    cast("fight", "alice", "bob", "--cof", "7H", "--a", "7S 2D", "--b", "2C",
         "--complication", "5S")
    assert cast.json("char", "show", "bob")["next_mod"] == 0
    healed = cast.json("heal", "bob", "--area", "health", "--measure", "calm", "--cof", "7H",
                       "--cards", " ".join(["2S", "3S", "4S", "5S", "6S", "8S", "9S", "10S"]))
    assert healed["from"] == "maimed" and not healed["passed"] and healed["next_bonus"] == 1
    # The 5S complication's extra month (F9) is charged on this try only (F23).
    assert healed["time"] == "2 months and an extra month bed-ridden"
    again = cast.json("heal", "bob", "--area", "health", "--measure", "calm", "--cof", "7H",
                      "--cards", " ".join(["2S", "3S", "4S", "5S", "6S", "8S", "9S", "10S",
                                           "JS"]))
    assert again["time"] == "2 months"


def test_tarot_deck_setting(cast: Host) -> None:
    assert "tarot notation" in cast.fails("test", "--cof", "KnC", "--a", "2C", "--b", "PC")
    cast("deck", "tarot")
    assert cast.json("deck")["deck"] == "tarot"
    data = cast.json("test", "--cof", "KnC", "--a", "2C 0", "--b", "PC")
    assert data["a"]["perfect"] == 1 and data["b"]["ordinary"] == 1
    assert "only the Fool" in cast.fails("test", "--cof", "KnC", "--a", "XVI", "--b", "")


# -- play by play: typed cards, usual weapons, the log (F19-F24) --------------------------------


@pytest.fixture
def lord(host: Host) -> Host:
    host("char", "new", "Lord Ashby", "-m", "calm=6", "-i", "Sabre=3", "-t", "Swordsman=2",
         "--weapon", "sabre", "--fight-trait", "sword")
    host("char", "new", "Bob", "-m", "calm=7", "-i", "Pistol=4")
    return host


def test_f19_the_first_command_copies_the_tables_into_the_stream(lord: Host) -> None:
    from referee.content.side_tables import fate_tables
    from referee.store import open_evening

    with open_evening(lord.db, write=False) as ev:
        commands = ev.commands("fate")
    assert commands[0].events[0] == {"kind": "tables_set", "tables": fate_tables()}
    assert all(e["kind"] != "tables_set" for c in commands[1:] for e in c.events)


def test_f21_fate_log_shows_each_result(lord: Host) -> None:
    lord("fight", "ashby", "bob", "--seed", "4")
    out = lord("log").stdout
    assert "fate fight ashby bob --seed 4" in out
    assert "Card of Fate:" in out and ("Winner" in out or "Tie" in out)
    data = lord.json("log")
    assert data[-1]["result"] and data[-1]["result"][0].startswith("Card of Fate")


def test_f24_fight_uses_the_usual_weapon_unless_overridden(lord: Host) -> None:
    parts = lord.json("fight", "ashby", "bob", "--seed", "4")["pools"]["a"]["parts"]
    assert ["Sabre", 3] in parts and ["Swordsman", 2] in parts
    lord("undo")
    parts = lord.json("fight", "ashby", "bob", "--a-weapon", "2", "--seed", "4")["pools"]["a"]
    assert parts["parts"][0] == ["weapon", 2]
    assert "item of Bob" in lord.fails("char", "edit", "bob", "--weapon", "musket")
    shown = lord("char", "show", "ashby").stdout
    assert "Usual weapon: Sabre; fights with Swordsman (F24)" in shown


def test_f20_typed_fight_asks_for_the_complication_and_a_typed_duel(lord: Host) -> None:
    line = lord.fails("fight", "ashby", "bob", "--cof", "7H", "--a", "7S 7C 2D 3D 4D",
                      "--b", "2C 3C")
    assert "--complication CARD" in line and "(F9, F20)" in line
    lord("fight", "ashby", "bob", "--cof", "7H", "--a", "7S 7C 2D 3D 4D", "--b", "2C 3C",
         "--complication", "9S")
    assert lord.json("char", "show", "bob")["infection"] is True
    lord("undo")
    lord("duel", "pistols", "ashby", "bob", "--seed", "1")
    assert "--calm" in lord.fails("duel", "phase", "aim", "fire", "--cof", "7H",
                                  "--a", "2D 3D 4D 5D 6D", "--b", "2C 3C 4C")
    data = lord.json("duel", "phase", "bob=fire", "ashby=aim", "--cof", "7H",
                     "--a", "2D 3D 4D 5D 6D", "--b", "2C 3C 4C",
                     "--calm", "7H 2H 3S 4S 5S 6S 8S")
    assert data["phase"]["acted"] == {"a": "aim", "b": "fire"}
    assert data["phase"]["fire"]["cof"] == "7H"


def test_f22_pool_size_refusal_says_where_the_count_comes_from(lord: Host) -> None:
    line = lord.fails("fight", "ashby", "bob", "--cof", "7H", "--a", "2C", "--b", "3C 4C")
    assert "the pool is 5 = 3 Sabre + 2 Swordsman" in line and "(F5)" in line
    line = lord.fails("test", "--char", "bob", "--measure", "calm", "--vs-char", "ashby",
                      "--vs-measure", "calm", "--cof", "7H", "--a", "2H 3H 4H 5H 6H 8H 9H",
                      "--b", "2S")
    assert "--b: 1 card typed but the pool is 6 = 6 Calm" in line


def test_f17_suggested_commands_work_as_shown(lord: Host) -> None:
    import shlex

    lord("check", "ashby", "calm")
    out = lord("check", "ashby", "calm").stdout
    shown = next(ln for ln in out.splitlines() if "fate grow" in ln).split(": ", 1)[1]
    assert shown == 'fate grow "Lord Ashby" calm'
    words = shlex.split(shown)
    lord(*words[1:], "--seed", "3")
    lord("duel", "swords", "lord", "bob", "--to", "surrender", "--seed", "2")
    lord("duel", "round", "--cof", "7H", "--a", "2C 3C 4C", "--b", "2D 3D 4D")
    assert "Lord Ashby surrenders" in lord("duel", "surrender", "ashby").stdout
