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
    """Alice and Bob (played once, ``GM.played``)."""
    host.gm.played("fate-cast", lambda gm: _play_cast(Host(gm)))
    return host


def _play_cast(host: Host) -> Host:
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
    from referee.cli.side.fate import app as fate_app

    commands = _commands(fate_app, [])
    assert ["duel", "phase"] in commands and ["char", "new"] in commands
    for path in commands:
        result = runner.invoke(app, ["fate", *path, "--help"])
        assert result.exit_code == 0, (path, result.output)
        assert "Usage" in result.output


@pytest.mark.system
def test_cli_module_imports_light() -> None:
    code = ("import sys, referee.cli.side.fate; "
            "bad = [m for m in sys.modules if m.startswith(('referee.rules.fate', 'rich', "
            "'tinydb', 'referee.storage.store'))]; assert not bad, bad")
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
    """Lord Ashby and Bob (played once, ``GM.played``)."""
    host.gm.played("fate-lord", lambda gm: _play_lord(Host(gm)))
    return host


def _play_lord(host: Host) -> Host:
    host("char", "new", "Lord Ashby", "-m", "calm=6", "-i", "Sabre=3", "-t", "Swordsman=2",
         "--weapon", "sabre", "--fight-trait", "sword")
    host("char", "new", "Bob", "-m", "calm=7", "-i", "Pistol=4")
    return host


def test_f19_the_first_command_copies_the_tables_into_the_stream(lord: Host) -> None:
    from referee.content.side_tables import fate_tables
    from referee.storage.store import open_evening

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
    lord("duel", "round", "--cof", "7H", "--a", "2C 3C 4C 5C 6C", "--b", "2D 3D 4D")
    assert "Lord Ashby surrenders" in lord("duel", "surrender", "ashby").stdout


# -- the Card of Fate, worked out by hand (F1, F6, F11-F13, F20-F31) ----------------------------
#
# `lord`: Lord Ashby (Calm 6, so Fiery 4; Sabre 3, Swordsman +2, his usual weapon and fighting
# Trait) and Bob (Calm 7, so Fiery 3; Pistol 4, no usual weapon). Against a 7H Card of Fate a
# heart is an ordinary success, a seven a critical and a Joker a perfect (R36).


def said(result: Result) -> str:
    """What the console printed, with rich's line wrapping undone."""
    return " ".join(result.stdout.split())


def health(host: Host, name: str) -> str:
    return str(host.json("char", "show", name)["areas"]["health"])


def help_text(runner: CliRunner, *command: str) -> str:
    result = runner.invoke(app, [*command, "--help"])
    assert result.exit_code == 0, result.output
    return " ".join(result.output.split())


def test_f20_a_lone_shot_by_b_takes_her_cards_in_b_and_names_her_b(lord: Host,
                                                                    runner: CliRunner) -> None:
    lord("char", "new", "Lady Vane", "-m", "calm=7", "--npc")
    lord("duel", "pistols", "ashby", "vane", "--seed", "1")
    # Ashby stands and passes his Calm 6 (the 2H): Lady Vane fires alone at -1, 2 cards, at a
    # static challenge of 5 (F10). Her shot is hers, in --b; the static side's in --a (F20).
    phase = ("duel", "phase", "stand", "fire", "--cof", "7H", "--calm", "7H 2H 3S 4S 5S 6S 8S")
    swapped = lord.fails(*phase, "--a", "JOKER 2D", "--b", "2C 3C 4C 5C 6C")
    assert "--a: 2 cards typed but the pool is 5 = 5 static challenging" in swapped
    out = said(lord(*phase, "--a", "2C 3C 4C 5C 6C", "--b", "JOKER 2D"))
    assert "static challenge (a): 2C 3C 4C 5C 6C -> 0 perfect, 0 critical, 0 ordinary" in out
    assert "Lady Vane (b): JOKER 2D -> 1 perfect, 0 critical, 0 ordinary" in out
    assert "pool 2 = 3 pistol - 1 the other stood firm" in out
    assert "Winner: Lady Vane (b), best result perfect: b has more perfect successes" in out
    assert "Lord Ashby: Health Healthy -> Dead (R37)" in out
    fired = lord.json("duel", "show")["duel"]["log"][0]["fire"]
    assert (fired["winner"], fired["shooters"], fired["b"]["cards"]) == ("b", ["b"],
                                                                         ["JOKER", "2D"])
    # The help says the same thing the console does.
    assert "b fires alone: --b her shot, --a the static side" in help_text(
        runner, "fate", "duel", "phase")


def test_f20_a_lone_shot_by_a_keeps_the_static_side_in_b(lord: Host) -> None:
    lord("duel", "pistols", "ashby", "bob", "--seed", "1")
    # Bob shows mercy; Ashby fires alone, 3 cards, at a static 5 (in --b): the 2H hits.
    out = said(lord("duel", "phase", "fire", "mercy", "--cof", "7H", "--a", "2H 3D 4D",
                    "--b", "2C 3C 4C 5C 6C"))
    assert "Lord Ashby (a): 2H 3D 4D -> 0 perfect, 0 critical, 1 ordinary" in out
    assert "static challenge (b): 2C 3C 4C 5C 6C" in out
    assert "Bob: Health Healthy -> Injured (R37)" in out


def test_f25_a_drink_counts_in_the_next_shot_not_in_the_calm_tests(lord: Host) -> None:
    # Bohemian 5 against a drink of 2: the Joker is a perfect, a win with a Perfect: +1 (F12).
    drink = lord.json("drink", "ashby", "--strength", "2", "--cof", "7H",
                      "--a", "JOKER 2S 3S 4S 5S", "--b", "2C 3C")
    assert drink["drink"] == {"outcome": "perfect", "modifier": 1, "next_test": 1}
    start = said(lord("duel", "pistols", "ashby", "bob", "--seed", "1"))
    assert "Lord Ashby (a): 4 = 3 pistol + 1 drink" in start and "Bob (b): 3 = 3 pistol" in start
    # Phase 1, both aim. Calm tests are tests against a single Card of Fate: the drink neither
    # adds to them nor is spent by them (F25), so Ashby's Calm test is his 6 cards.
    aims = ("duel", "phase", "aim", "aim", "--calm")
    too_many = lord.fails(*aims, "7H 2H 3S 4S 5S 6S 8S 9S", "--calm", "7H 2H 3S 4S 5S 6S 8S 9S")
    assert "--calm: 7 cards typed but the pool is 6 = 6 Calm (Lord Ashby)" in too_many
    lord(*aims, "7H 2H 3S 4S 5S 6S 8S", "--calm", "7H 2H 3S 4S 5S 6S 8S 9S")
    assert lord.json("char", "show", "ashby")["next_mod"] == 1
    # Phase 2: Ashby fires alone (Bob shows mercy): 3 pistol + 1 aimed + 1 drink = 5 cards.
    shot = ("duel", "phase", "fire", "mercy", "--cof", "7H", "--b", "2C 3C 4C 5C 6C")
    short = lord.fails(*shot, "--a", "2H 3D 4D 5D")
    assert "the pool is 5 = 3 pistol + 1 aimed 1 phase + 1 drink" in short
    out = said(lord(*shot, "--a", "2H 3D 4D 5D 6D"))
    assert "Bob: Health Healthy -> Injured (R37)" in out
    assert lord.json("char", "show", "ashby")["next_mod"] == 0  # spent by the shot


def test_f25_a_drink_counts_in_the_next_sword_round_then_is_spent(lord: Host) -> None:
    # Bohemian 5, no success, against a drink of 2 with two hearts: a loss, -1 (F12).
    lord("drink", "bob", "--strength", "2", "--cof", "7H", "--a", "2S 3S 4S 5S 6S",
         "--b", "2H 3H")
    start = said(lord("duel", "swords", "ashby", "bob"))
    assert "Bob (b): 2 = 3 sword - 1 drink" in start
    round_ = ("duel", "round", "--cof", "7H", "--a", "2C 3C 4C 5C 6C")
    assert "--b: 3 cards typed but the pool is 2 = 3 sword - 1 drink" in lord.fails(
        *round_, "--b", "2D 3D 4D")
    lord(*round_, "--b", "2D 3D")  # no success anywhere: no blood, the duel goes on
    assert lord.json("char", "show", "bob")["next_mod"] == 0
    assert "Bob (b): 2D 3D 4D" in said(lord(*round_, "--b", "2D 3D 4D"))  # 3 cards again


def test_f1_the_tarot_duel_decks_second_joker_is_typed_as_it_is_dealt(lord: Host) -> None:
    lord("deck", "tarot")
    assert "the Magician, I" in lord.fails("test", "--cof", "7C", "--a", "I", "--b", "")
    assert "two Jokers (0 and I)" in said(lord("duel", "pistols", "ashby", "bob", "--seed", "9"))
    fire = ("duel", "phase", "fire", "fire", "--cof", "7C", "--b", "4P 5P 6P")
    twice = lord.fails(*fire, "--a", "JOKER JOKER 2P")
    assert "card 0 drawn twice" in twice and "this deck's other Joker is I (F1)" in twice
    # Seven of Cups: the Magician is a perfect; Pentacles (diamonds) miss Cups (hearts) (R35).
    out = said(lord(*fire, "--a", "I 2P 3P"))
    assert "Lord Ashby (a): I 2P 3P -> 1 perfect, 0 critical, 0 ordinary" in out
    assert "Bob: Health Healthy -> Dead (R37)" in out


def test_f26_the_complication_card_is_fresh(lord: Host) -> None:
    # Ashby's 7S is a critical: Bob is Maimed and a card is turned for the complication (F9).
    fight = ("fight", "ashby", "bob", "--cof", "7H", "--a", "7S 2D 3D 4D 5D", "--b", "2C 3C")
    for card, where in (("7H", "(--cof)"), ("3D", "(--a)"), ("2c", "(--b)")):
        line = lord.fails(*fight, "--complication", card)
        assert f"--complication {card.upper()}: that card is already on the table" in line
        assert where in line and "(F26)" in line
    out = said(lord(*fight, "--complication", "9H"))
    assert "Bob: Maimed complication (9H): a notable, ugly scar" in out
    assert lord.json("char", "show", "bob")["traits"]["Scarred"]["bonus"] == 1


def test_f11_no_surrender_before_the_first_round(lord: Host) -> None:
    lord("duel", "swords", "ashby", "bob", "--to", "surrender")
    line = lord.fails("duel", "surrender", "bob")
    assert "Bob cannot surrender yet" in line and "fate duel round" in line and "F11" in line
    lord("duel", "round", "--cof", "7H", "--a", "2C 3C 4C 5C 6C", "--b", "2D 3D 4D")
    assert "Bob surrenders. Lord Ashby wins the duel." in said(lord("duel", "surrender", "bob"))


def test_f27_a_sword_duel_uses_the_usual_weapon_and_fighting_trait(lord: Host) -> None:
    start = said(lord("duel", "swords", "ashby", "bob"))
    assert "Lord Ashby (a): 5 = 3 Sabre + 2 Swordsman" in start and "Bob (b): 3 = 3 sword" in start
    lord("undo")
    start = said(lord("duel", "swords", "ashby", "bob", "--a-weapon", "2", "--a-trait", ""))
    assert "Lord Ashby (a): 2 = 2 weapon" in start
    lord("undo")
    # Pistols are the pair the seconds loaded, whatever Ashby usually carries.
    assert "Lord Ashby (a): 3 = 3 pistol" in said(lord("duel", "pistols", "ashby", "bob"))


def test_f21_the_log_keeps_an_option_set_to_0_and_replays(lord: Host) -> None:
    import shlex

    first = lord.json("drink", "bob", "--strength", "0", "--seed", "5")
    line = lord.json("log")[-1]["text"]
    assert line == "fate drink bob --strength 0 --seed 5"
    lord("undo")
    assert lord.json(*shlex.split(line)[1:]) == first


def test_f22_the_heal_pool_refusal_names_its_parts(lord: Host) -> None:
    # A heart against the 7H: one ordinary, Bob is Injured (R37).
    lord("fight", "ashby", "bob", "--cof", "7H", "--a", "2H 3D 4D 5D 6D", "--b", "2C 3C")
    heal = ("heal", "bob", "--area", "health", "--measure", "calm", "--cof", "7H")
    assert "--cards: 2 cards typed but the pool is 7 = 7 Calm" in lord.fails(*heal, "--cards",
                                                                                "2S 3S")
    lord(*heal, "--cards", "2S 3S 4S 5S 6S 8S 9S")  # no heart, no seven: failed
    line = lord.fails(*heal, "--cards", "2S 3S")
    assert "the pool is 8 = 7 Calm + 1 earlier failed convalescence" in line


def test_f15_char_edit_says_when_a_shift_stops_at_9(lord: Host) -> None:
    out = said(lord("char", "edit", "bob", "--shift", "calm+4"))
    assert "Bob's Calm would be 11 by --shift calm+4: it stops at 9 (Calm 9 / Fiery 1" in out
    assert lord.json("char", "show", "bob")["measures"]["Calm"] == 9
    out = said(lord("char", "edit", "bob", "--exp", "Prison:calm"))
    assert "Bob's Calm would be 10 by the Experience 'Prison': it stops at 9" in out
    assert "would be" not in said(lord("char", "edit", "bob", "--shift", "calm-2"))


def _maim_both(lord: Host) -> None:
    """Ashby maims Bob (a seven: critical); then Bob, past his Fiery test (the 2H against
    3 cards), maims Ashby with his pistol at -3: one card, the 7C."""
    lord("fight", "ashby", "bob", "--cof", "7H", "--a", "7S 2D 3D 4D 5D", "--b", "2C 3C",
         "--complication", "9H")
    lord("fight", "ashby", "bob", "--b-weapon", "pistol", "--cof", "7H",
         "--a", "2D 3D 4D 5D 6D", "--b", "7C", "--gate", "7H 2H 3S 4S", "--complication", "10D")
    assert (health(lord, "ashby"), health(lord, "bob")) == ("maimed", "maimed")


def test_f6_gates_for_both_fighters_a_before_b_and_named(lord: Host, runner: CliRunner) -> None:
    _maim_both(lord)
    fight = ("fight", "ashby", "bob", "--b-weapon", "pistol", "--cof", "7H",
             "--a", "2D 3D", "--b", "3C")
    line = lord.fails(*fight)
    assert "Lord Ashby's Health is Maimed: type Lord Ashby's Fiery test too (4 cards)" in line
    line = lord.fails(*fight, "--gate", "7H 2H 3S 4S 5S")
    assert "Bob's Health is Maimed: type Bob's Fiery test too (3 cards)" in line
    assert "side a's before side b's" in line
    line = lord.fails(*fight, "--gate", "7H 2H 3S 4S", "--gate", "8H 2S 3S 4S 5S")
    assert "--gate: 3 cards typed but the pool is 4 = 4 Fiery (Lord Ashby)" in line
    # Both pass (a heart each): Ashby fights at 5 - 3 = 2, Bob at 4 - 3 = 1; no success.
    out = said(lord(*fight, "--gate", "7H 2H 3S 4S 5S", "--gate", "8H 2S 3H 4S"))
    assert "pool 2 = 3 Sabre + 2 Swordsman - 3 Health Maimed" in out
    assert "pool 1 = 4 Pistol - 3 Health Maimed" in out
    assert "side a's before side b's" in help_text(runner, "fate", "fight")


def test_f13_heal_messages_say_what_happened_both_ways(lord: Host) -> None:
    # The 9S turned for Bob's Maimed Health: a black number, an infection (F9).
    lord("fight", "ashby", "bob", "--cof", "7H", "--a", "7S 2D 3D 4D 5D", "--b", "2C 3C",
         "--complication", "9S")
    heal = ("heal", "bob", "--area", "health", "--measure", "calm", "--cof", "7H", "--cards")
    out = said(lord(*heal, "2H 3S 4S 5S 6S 8S 9S"))  # a heart: healed, infection and all
    assert "Bob: Health Maimed -> Injured." in out
    assert "extra month is served with this convalescence and the wound is healed" in out
    assert "next try" not in out
    out = said(lord(*heal, "2S 3S 4S 5S 6S 8S 9S"))  # Injured, no success: failed
    assert "Bob: Health stays Injured." in out and "+1 card on the next try" in out
    assert "infection" not in out


def test_f28_static_by_its_number(lord: Host) -> None:
    nine = " ".join(["2C", "3C", "4C", "5C", "6C", "8C", "9C", "10C", "JC"])
    data = lord.json("test", "--pool", "1", "--static", "9", "--cof", "7H", "--a", "2H",
                     "--b", nine)
    assert data["pools"]["b"]["parts"] == [["static heroic", 9]] and data["winner"] == "a"
    data = lord.json("test", "--pool", "1", "--static", "6", "--seed", "3")
    assert data["pools"]["b"]["parts"] == [["static", 6]] and len(data["b"]["cards"]) == 6
    assert "cannot be below 0 cards" in lord.fails("test", "--pool", "1", "--static", "-1")
    lord("fight", "ashby", "bob", "--static", "9", "--cof", "7H", "--a", "2D 3D 4D 5D 6D",
         "--b", nine)
    assert health(lord, "bob") == "healthy"  # the static side cannot hit back (F8)


def test_f29_the_loser_of_a_fight_deals_damage_too(lord: Host) -> None:
    # Ashby: two sevens, two criticals; Bob: a heart, one ordinary. Ashby wins and maims Bob;
    # Bob loses and still delivers his ordinary: Ashby is Injured (F29).
    out = said(lord("fight", "ashby", "bob", "--cof", "7H", "--a", "7S 7C 2D 3D 4D",
                    "--b", "2H 3C", "--complication", "9D"))
    assert "Winner: Lord Ashby (a), best result critical" in out
    assert "Lord Ashby: Health Healthy -> Injured (R37)" in out
    assert "Bob: Health Healthy -> Maimed (R37)" in out
    assert (health(lord, "ashby"), health(lord, "bob")) == ("injured", "maimed")


def test_f29_in_a_first_blood_round_both_bleed_and_the_worse_wound_loses(lord: Host) -> None:
    lord("duel", "swords", "ashby", "bob")
    # Ashby's 7S (critical) maims Bob; Bob's 2H (ordinary) injures Ashby, though he lost.
    out = said(lord("duel", "round", "--cof", "7H", "--a", "7S 2D 3D 4D 5D",
                    "--b", "2H 3C 4C", "--complication", "9D"))
    assert "Lord Ashby: Health Healthy -> Injured" in out and "Bob: Health Healthy -> Maimed" in out
    duel = lord.json("duel", "show")["duel"]
    assert duel["winner"] == "Lord Ashby" and "Bob has the worse wound" in duel["result"]


def test_f30_a_heal_takes_no_penalty_for_the_wound(lord: Host) -> None:
    lord("fight", "ashby", "bob", "--cof", "7H", "--a", "2H 3D 4D 5D 6D", "--b", "2C 3C")
    assert health(lord, "bob") == "injured"
    heal = ("heal", "bob", "--area", "health", "--measure", "calm", "--cof", "7H", "--cards")
    # Calm 7, and no -1 for the Injured Health being healed: seven cards, not six.
    assert "the pool is 7 = 7 Calm" in lord.fails(*heal, "2S 3S 4S 5S 6S 8S")
    assert lord.json(*heal, "2S 3S 4S 5S 6S 8S 2H")["to"] == "healthy"
    # A Maimed area: no Measure test first (no --gate asked) and no -3.
    lord("fight", "ashby", "bob", "--cof", "7H", "--a", "7S 2D 3D 4D 5D", "--b", "2C 3C",
         "--complication", "9H")
    healed = lord.json(*heal, "2S 3S 4S 5S 6S 8S 2H")
    assert (healed["from"], healed["to"], len(healed["cards"])) == ("maimed", "injured", 7)
    assert "gates" not in healed


def test_f31_poisoning_at_the_wager_is_no_drink_and_leaves_the_elixir(gm: GM, lord: Host) -> None:
    lord("char", "new", "Ann", "--npc")
    gm("wager", "new", "Ann", "Bea", "--seed", "5", "--elixir", "Calm")
    data = gm.json("wager", "score", "Ann", "Calm", "5C")  # Calm over no partner: poison
    assert data["hand"]["kind"] == "poison" and data["scores"]["Ann"] == -150
    assert gm.json("wager", "status")["elixir"] == "Calm"  # the Elixir stays (W7)
    assert lord.json("char", "show", "ann")["next_mod"] == 0  # no drink modifier
    assert [c["text"].split()[1] for c in lord.json("log")] == ["char", "char", "char"]
