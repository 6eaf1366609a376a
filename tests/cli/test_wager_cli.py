"""`referee wager ...` through the real CLI: R32-R34, W1-W10, errors and undo."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from referee.cli.main import app
from referee.rules.wager import RULES, TARGET, Elixir
from tests.cli.conftest import GM


def start(gm: GM, *extra: str) -> Any:
    return gm.json("wager", "new", "Ann", "Bea", "--seed", "5", *extra)


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
def test_r33_r34_rank(gm: GM, top: str, bottom: str, elixir: str,
                      kind: str, quality: str | None, points: int) -> None:
    data = gm.json("wager", "rank", top, bottom, "--elixir", elixir)
    assert (data["kind"], data["quality"], data["points"]) == (kind, quality, points)
    assert not gm.db.exists()  # a ruling writes nothing


def test_rank_human(gm: GM) -> None:
    out = gm("wager", "rank", "5c", "6c", "--elixir", "calm").stdout
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
def test_rank_bad_input(gm: GM, args: tuple[str, ...], message: str) -> None:
    assert message in gm.fails("wager", "rank", *args)


def test_r34_option_custom_points_table(gm: GM, tmp_path: Path) -> None:
    from referee.content.scenario import data_file

    text = data_file("wager_points.toml").read_text(encoding="utf-8")
    custom = tmp_path / "mine.toml"
    custom.write_text(text.replace("true = 100\nmixed = 75", "true = 10\nmixed = 75"),
                      encoding="utf-8")
    data = gm.json("wager", "rank", "5C", "6C", "--elixir", "Relax", "--points", str(custom))
    assert data["points"] == 10
    broken = tmp_path / "broken.toml"
    broken.write_text(text.replace("cost = 150", "cost = 0"), encoding="utf-8")
    line = gm.fails("wager", "rank", "5C", "6C", "--elixir", "Relax", "--points", str(broken))
    assert "poisoning costs points" in line and "(R34)" in line
    assert "cannot read" in gm.fails("wager", "new", "Ann", "Bea", "--points",
                                    str(tmp_path / "nope.toml"))
    # a game keeps the table it started with
    start(gm, "--points", str(custom), "--elixir", "Relax")
    assert gm.json("wager", "score", "Ann", "5C", "6C")["hand"]["points"] == 10
    assert gm.json("wager", "status")["points_table"] == "mine.toml"


def test_new_game_json(gm: GM) -> None:
    data = start(gm)
    assert data["fool"] == "Ann" and data["mistress"] == "Bea"
    assert data["scores"] == {"Ann": 0, "Bea": 0}
    assert data["elixir"] in [e.value for e in Elixir]
    assert data["elixir_turns"] == 10 and data["target"] == TARGET == 999
    assert gm.db.exists()  # created on first use, no Fool's Errand evening needed


def test_new_game_bad_input(gm: GM) -> None:
    assert "both the Fool and the Mistress" in gm.fails("wager", "new", "Ann", "ann")
    assert "--elixir-turns" in gm.fails("wager", "new", "Ann", "Bea", "--elixir-turns", "0")
    assert not gm.db.exists()
    start(gm)
    assert "--abandon" in gm.fails("wager", "new", "Cid", "Dan")
    gm("wager", "new", "Cid", "Dan", "--abandon")
    assert gm.json("wager", "status")["fool"] == "Cid"


def test_r34_score_set_changes_the_elixir(gm: GM) -> None:
    start(gm, "--elixir", "Rest")
    data = gm.json("wager", "score", "mistress", "Rest", "~Hermit")
    assert data["hand"]["kind"] == "set" and data["hand"]["quality"] == "mixed"
    assert data["scores"] == {"Ann": 0, "Bea": 300}  # Rest is Arcana to Cups: +50 bonus
    assert data["elixir_changed"]["from"] == "Rest" and data["elixir_changed"]["reason"] == "set"
    assert data["elixir"] != "Rest"


def test_r34_poison_costs_points_and_keeps_the_elixir(gm: GM) -> None:
    start(gm, "--elixir", "Calm")
    data = gm.json("wager", "score", "a", "Calm", "5C")
    assert data["hand"]["kind"] == "poison" and data["scores"]["Ann"] == -150
    assert data["elixir"] == "Calm" and data["elixir_changed"] is None


def test_r34_elixir_changes_after_the_configured_turns(gm: GM) -> None:
    start(gm, "--elixir", "Relief", "--elixir-turns", "3")
    assert gm.json("wager", "score", "Ann", "5C", "6C")["turns"] == 1  # no hand still a turn
    data = gm.json("wager", "turn", "2")
    assert data["elixir"] != "Relief" and data["turns"] == 0
    assert len(data["elixir_changed"]) == 1
    out = gm("wager", "turn").stdout
    assert "turn 1 of 3" in out


def test_r34_race_to_999(gm: GM) -> None:
    start(gm, "--elixir", "Relax")
    for _ in range(20):
        status = gm.json("wager", "status")
        if status["winner"]:
            break
        elixir = Elixir(status["elixir"])
        gm("wager", "score", "Bea", elixir.value, RULES[elixir].partner)
        if not gm.json("wager", "status")["winner"]:
            gm("wager", "turn", "ann")  # turns alternate (W12)
    status = gm.json("wager", "status")
    assert status["winner"] == "Bea" and status["scores"]["Bea"] >= 999
    assert "Bea has won" in gm("wager", "status").stdout
    assert "game is over: Bea won" in gm.fails("wager", "score", "Ann", "5C", "6C")


def test_score_bad_input_changes_nothing(gm: GM) -> None:
    assert "wager new" in gm.fails("wager", "score", "Ann", "5C", "6C")
    start(gm, "--elixir", "Relax")
    line = gm.fails("wager", "score", "Cid", "5C", "6C")
    assert "unknown player 'Cid'" in line
    assert "unknown Weir's Wager card" in gm.fails("wager", "score", "Ann", "5X", "6C")
    assert "the Elixir on the table is Relax" in gm.fails("wager", "score", "Ann", "Heal", "XII")
    assert "unknown Elixir" in gm.fails("wager", "elixir", "Hael")
    assert "already the Elixir" in gm.fails("wager", "elixir", "relax")
    assert "1 to 100" in gm.fails("wager", "turn", "0")


def test_w6_set_the_elixir_from_the_table(gm: GM) -> None:
    start(gm, "--elixir", "Relax")
    gm("wager", "turn", "4")
    assert "Relax → Heal" in gm("wager", "elixir", "heal").stdout
    status = gm.json("wager", "status")
    assert status["elixir"] == "Heal" and status["turns"] == 0
    # rank uses the game's Elixir when none is given
    assert gm.json("wager", "rank", "6C", "5C")["elixir"] == "Heal"


def test_undo_and_redo_whole_commands(gm: GM) -> None:
    start(gm, "--elixir", "Relax")
    gm("wager", "score", "Ann", "Relax", "0")
    changed = gm.json("wager", "status")
    assert changed["elixir"] != "Relax"
    assert "undone: wager score Ann Relax 0" in gm("wager", "undo").stdout
    status = gm.json("wager", "status")
    assert status["elixir"] == "Relax" and status["scores"]["Ann"] == 0
    gm("wager", "redo")
    assert gm.json("wager", "status") == changed


def test_score_human(gm: GM) -> None:
    start(gm, "--elixir", "Relax")
    out = gm("wager", "score", "fool", "Relax", "0").stdout
    assert "Ann (Fool)" in out and "true set" in out and "New Elixir" in out
    assert "Ann 350, Bea 0" in out


# -- W12-W14: turns, mirror names, the log -----------------------------------------------------


def test_w12_a_score_by_the_player_who_just_moved_is_refused(gm: GM) -> None:
    start(gm, "--elixir", "Relief")
    gm("wager", "score", "Ann", "5C", "6C")
    line = gm.fails("wager", "score", "ann", "5C", "7C")
    assert "Ann (Fool) has just moved; it is Bea's turn" in line and "(W12)" in line
    assert "has just moved" in gm.fails("wager", "turn", "fool")
    out = gm("wager", "turn").stdout
    assert "Bea: 1 turn without a hand; Ann to move (W12)" in out
    assert gm.json("wager", "turn", "ann")["turns"] == 3
    assert gm.json("wager", "status")["to_move"] == "Bea"
    assert "To move: Bea (W12)" in gm("wager", "status").stdout


def test_w12_turn_counts_alternate_and_the_log_says_who(gm: GM) -> None:
    start(gm, "--elixir", "Relief", "--elixir-turns", "3")
    data = gm.json("wager", "turn", "bea", "2")
    assert data["turns"] == 2
    log = gm("wager", "log").stdout
    assert "wager turn Bea 2" in log and "2 turns without a hand from Bea" in log
    assert "wager turn" in gm("wager", "undo").stdout
    assert gm.json("wager", "status")["turns"] == 0


def test_the_words_of_a_wager_move_say_what_was_matched_and_drawn(gm: GM) -> None:
    """A move of the table's API (``referee.table.api.MOVES``) logs the words as before: the
    names and cards as matched, the Elixir and seed the console drew, a count read from the
    first word said as a count, a count of 1 said when typed and not when left out."""
    gm("wager", "new", " ann ", "bea", "--elixir-turns", "50")
    gm("wager", "turn", "3")
    gm("wager", "turn")
    gm("wager", "turn", "1")
    gm("wager", "score", "be", "5c", "6c")
    gm("wager", "elixir", "calm" if gm.json("wager", "status")["elixir"] != "Calm" else "rest")
    lines = [line.split(None, 1)[1] for line in gm("wager", "log").stdout.splitlines()
             if line.split(None, 1)[1:2] and line.split(None, 1)[1].startswith("wager ")]
    assert lines[0].startswith("wager new ann bea --elixir ")
    assert " --elixir-turns 50 --seed " in lines[0]
    assert lines[1:5] == ["wager turn ann 3", "wager turn bea", "wager turn ann 1",
                          "wager score bea 5C 6C"]
    assert lines[-1] in ("wager elixir Calm", "wager elixir Rest")


@pytest.mark.parametrize(("top", "bottom", "kind", "quality"), [
    ("Prince", "Prince the", "mirror", "true"),
    ("Cups of Five", "Five of Cups", "mirror", "false"),
    ("~5C", "5C", "mirror", "false"),
])
def test_w12_mirror_names_through_the_cli(gm: GM, top: str, bottom: str, kind: str,
                                          quality: str) -> None:
    data = gm.json("wager", "rank", top, bottom, "--elixir", "Relief")
    assert (data["kind"], data["quality"]) == (kind, quality)


@pytest.mark.parametrize("card", ["~~5C", "~5C~"])
def test_w12_extra_tildes_are_refused_through_the_cli(gm: GM, card: str) -> None:
    line = gm.fails("wager", "rank", card, "6C", "--elixir", "Relax")
    assert "one ~ marks a mirror image" in line and "(W12)" in line


def test_w12_doubled_card_hint_names_the_right_mirror(gm: GM) -> None:
    assert "its mirror image is written 5C" in gm.fails("wager", "rank", "~5C", "~5C",
                                                          "--elixir", "Relief")


def test_w13_a_replayed_game_keeps_its_points_table(gm: GM, tmp_path: Path) -> None:
    from referee.storage.store import open_evening

    start(gm, "--elixir", "Relax")
    with open_evening(gm.db, write=False) as ev:
        first = ev.commands("wager")[0].events[0]
    assert first["points"]["run"]["true"] == 100 and first["points_source"] == "default"


def test_names_are_printed_literally(gm: GM) -> None:
    gm("wager", "new", "[b]Eve", "Fay", "--seed", "2", "--elixir", "Relax")
    assert "[b]Eve: 1 turn without a hand" in gm("wager", "turn").stdout
    assert "from [b]Eve" in gm("wager", "log").stdout


# -- W15-W18: turns at once, rounds, names like role words, ambiguous prefixes -------------------


def test_w15_twelve_turns_are_six_each(gm: GM) -> None:
    start(gm, "--elixir", "Relief", "--elixir-turns", "10")
    out = gm("wager", "turn", "12").stdout
    # by hand: Ann moves first (the Fool, nobody has moved), then Bea, ... twelve in all; the
    # Elixir's ten run out on the tenth, so two are on the new one; Ann is next again
    assert "12 turns without a hand, six each (Ann first, turns alternate); Ann to move" in out
    status = gm.json("wager", "status")
    assert (status["to_move"], status["turns"], status["elixir"] != "Relief") == ("Ann", 2, True)
    out = gm("wager", "turn", "3").stdout
    assert ("3 turns without a hand: two by Ann, one by Bea (Ann first, turns alternate); Bea to "
            "move") in out
    assert gm.json("wager", "status")["to_move"] == "Bea"
    out = gm("wager", "turn", "bea", "5").stdout
    assert "5 turns without a hand: three by Bea, two by Ann" in out
    assert "`referee wager turn 100`" in gm.fails("wager", "turn", "150")


def test_w16_status_numbers_the_rounds_and_shows_all_hands(gm: GM) -> None:
    start(gm, "--elixir", "Relief")
    # by hand, under Relief (mirror pairs): Ann no hand (round 1 goes on), Bea a true pair
    # (ends round 1), then six no-hand turns in round 2
    gm("wager", "score", "Ann", "5C", "6C")
    gm("wager", "score", "Bea", "Prince", "~Prince")
    for who in ("Ann", "Bea", "Ann", "Bea", "Ann", "Bea"):
        gm("wager", "score", who, "5C", "7C")
    data = gm.json("wager", "status")
    assert data["round"] == 2 and data["rounds"] == 1
    assert [h["round"] for h in data["hands"]] == [1, 1, 2, 2, 2, 2, 2, 2]
    assert [h["player"] for h in data["hands"]][:2] == ["Ann", "Bea"]
    out = gm("wager", "status").stdout
    assert "Round 2 in play (W16)" in out
    assert "Hands, round by round, the last 5 of 8; --all shows every one:" in out
    assert out.count("  Round 2: ") == 5 and "Round 1:" not in out
    every = gm("wager", "status", "--all").stdout
    assert every.count("  Round 1: ") == 2 and every.count("  Round 2: ") == 6
    assert "  Round 1: Ann: 5C over 6C under Relief: no hand, 0\n" in every
    assert "  Round 1: Bea: Prince over ~Prince under Relief: true mirror, +100\n" in every


def test_w17_a_player_named_fool_is_warned_about(gm: GM) -> None:
    result = gm("wager", "new", "Ann", "Fool", "--seed", "5", "--elixir", "Relief")
    assert result.stderr.strip() == (
        "note: 'fool' is the name of Fool, who plays the Mistress: it names Fool; type 'Ann' "
        "for the Fool (W17)")
    assert "Fool (Mistress): 5C over 6C" in gm("wager", "score", "fool", "5C", "6C").stdout
    assert "Ann (Fool): 5C over 7C" in gm("wager", "score", "the fool", "5C", "7C").stdout
    quiet = gm("wager", "new", "Ann", "Bea", "--seed", "5", "--abandon")
    assert quiet.stderr == ""
    prefix = gm("wager", "new", "Ann", "Foolish", "--seed", "5", "--abandon")
    assert "'fool' fits Foolish's name as well as naming the Fool, so it is refused as " \
        "ambiguous; type 'Ann' for the Fool (W17)" in prefix.stderr


def test_w18_an_ambiguous_prefix_says_so_and_lists_the_matches(gm: GM) -> None:
    gm("wager", "new", "Mia", "Mick", "--seed", "5", "--elixir", "Relief")
    line = gm.fails("wager", "score", "mi", "5C", "6C")
    assert line == ("error: player 'mi' is ambiguous: Mia (the Fool), Mick (the Mistress); type "
                    "more of the name (W18)")
    assert "Mick (Mistress)" in gm("wager", "score", "mis", "5C", "6C").stdout  # only a role
    gm("wager", "new", "Ann", "Fox", "--seed", "5", "--elixir", "Relief", "--abandon")
    line = gm.fails("wager", "score", "fo", "5C", "6C")
    assert "'fo' is ambiguous: Fox (the Mistress), Ann (the Fool, by role)" in line
    assert "Fox (Mistress)" in gm("wager", "score", "fox", "5C", "6C").stdout


def test_w15_t25_every_refusal_of_a_game_suggests_commands_the_console_accepts(
        gm: GM, tmp_path: Path) -> None:
    from tests.cli.side_suggestions import accepted

    scratch = tmp_path / "copies"
    scratch.mkdir()
    names = {"FOOL": "Ann", "MISTRESS": "Bea", "TOP": "5C", "BOTTOM": "6C"}

    def fill(words: list[str]) -> list[str]:
        return [names.get(w, w) for w in words]

    def check(*args: str) -> None:
        accepted(gm, gm.fails(*args), fill, scratch)

    check("wager", "status")  # no game yet
    start(gm, "--elixir", "Relief")
    check("wager", "new", "Cid", "Dan")  # a game is going (W10)
    gm("wager", "score", "Ann", "5C", "6C")
    check("wager", "score", "Ann", "5C", "7C")  # Ann has just moved (W12)
    check("wager", "turn", "ann")
    check("wager", "elixir", "Relief")  # already out (W6)
    check("wager", "turn", "101")  # (W15)
    for _ in range(20):
        status = gm.json("wager", "status")
        if status["winner"]:
            break
        elixir = Elixir(status["elixir"])
        if status["to_move"] == "Ann":
            gm("wager", "turn", "ann")
        gm("wager", "score", "Bea", elixir.value, RULES[elixir].partner)
    check("wager", "score", "Ann", "5C", "6C")  # the game is over (R34)
    check("wager", "turn")
