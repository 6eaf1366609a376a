"""`referee scum ...` through the real CLI: R29-R31, T1-T11, errors and undo."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from referee.cli.main import app
from tests.cli.conftest import GM

PLAYERS = ["Ann", "Bea", "Cid", "Dan"]










@pytest.mark.parametrize("command", ["new", "check", "finish", "standings", "deal", "undo",
                                     "redo"])
def test_every_command_has_help(runner: CliRunner, command: str) -> None:
    result = runner.invoke(app, ["scum", command, "--help"])
    assert result.exit_code == 0, result.output
    assert "Usage" in result.output


def test_r29_new_prints_roles_deal_sizes_and_passing(gm: GM) -> None:
    out = gm("scum", "new", *PLAYERS, "--seed", "7").stdout
    for text in ("0 The Fool", "I The Magician", "II The High Priestess", "III The Empress",
                 "20", "17", "19", "18", "one major", "his two highest minors",
                 "two minors of her choice", "leads the first series", "seed 7"):
        assert text in out
    assert gm.db.exists()  # created on first use, no Fool's Errand evening needed


def test_r29_new_json(gm: GM) -> None:
    data = gm.json("scum", "new", *PLAYERS, "--seed", "7")
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
    a = GM(runner, tmp_path / "a.json").json("scum", "new", *PLAYERS, "--seed", "42")
    b = GM(runner, tmp_path / "b.json").json("scum", "new", *PLAYERS, "--seed", "42")
    assert a["roles"] == b["roles"]


def test_r29_console_deal_uses_every_card_once(gm: GM) -> None:
    roles = gm.json("scum", "new", *PLAYERS, "--seed", "3")["roles"]
    deal = gm.json("scum", "deal")
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
def test_r30_check(gm: GM, previous: str, play: str, legal: bool,
                   wins: bool) -> None:
    result = gm.invoke("scum", "check", previous, play, "--json")
    assert result.exit_code == (0 if legal else 2), result.output
    data = json.loads(result.stdout)
    assert data["legal"] is legal and data["wins_series"] is wins
    assert data["reason"]
    assert not gm.db.exists()  # a ruling writes nothing


def test_r30_check_human(gm: GM) -> None:
    out = gm("scum", "check", "5c 5s", "7c xvi").stdout
    assert "legal" in out and "beats a pair of Fives" in out
    line = gm.fails("scum", "check", "5C 5S", "7C 7S 7W")
    assert "not a legal follow" in line and "must be 2 cards" in line and "(R30)" in line
    assert "wins the series" in gm("scum", "check", "9C", "XXI").stdout


def test_r2_check_unknown_card_suggests(gm: GM) -> None:
    line = gm.fails("scum", "check", "5C", "7X")
    assert "unknown card '7X'" in line and "did you mean" in line


def test_t7_check_card_on_both_sides(gm: GM) -> None:
    assert "in both" in gm.fails("scum", "check", "5C", "5C")
    assert "appears twice" in gm.fails("scum", "check", "-", "5C 5c")


def test_r31_finish_scores_by_role_and_place(gm: GM) -> None:
    roles = gm.json("scum", "new", *PLAYERS, "--seed", "7")["roles"]
    data = gm.json("scum", "finish", "bea", "ANN", "d", "cid")
    table = {"fool": [9, 7, 5, 3], "high_priestess": [8, 6, 4, 2], "magician": [7, 5, 3, 1],
             "empress": [6, 4, 2, 0]}
    order = ["Bea", "Ann", "Dan", "Cid"]
    assert data["order"] == order
    assert data["points"] == {n: table[roles[n]][i] for i, n in enumerate(order)}
    assert data["next"]["hand"] == 2
    assert gm.json("scum", "standings")["standings"] == dict(
        sorted(data["points"].items(), key=lambda kv: -kv[1]))


def test_r31_rotated_match_each_role_once_then_over(gm: GM) -> None:
    data = gm.json("scum", "new", *PLAYERS, "--rotate", "--seed", "1")
    taken: dict[str, list[str]] = {n: [r] for n, r in data["roles"].items()}
    for hand in range(1, 5):
        result = gm.json("scum", "finish", *PLAYERS)
        assert result["hand"] == hand
        if hand < 4:
            for name, role in result["next"]["roles"].items():
                taken[name].append(role)
        else:
            assert result["next"] is None
            assert result["winner"] == ["Ann"]  # first every hand, one role each: 9+8+7+6
    for roles in taken.values():
        assert sorted(roles) == ["empress", "fool", "high_priestess", "magician"]
    line = gm.fails("scum", "finish", *PLAYERS)
    assert "match is over after 4 hands" in line and "(R31)" in line
    assert "Match over" in gm("scum", "standings").stdout


def test_finish_bad_input_changes_nothing(gm: GM) -> None:
    gm("scum", "new", *PLAYERS, "--seed", "7")
    assert "give all four" in gm.fails("scum", "finish", "Ann", "Bea", "Cid")
    assert "Ann is named twice" in gm.fails("scum", "finish", "Ann", "Bea", "Cid", "an")
    line = gm.fails("scum", "finish", "Ann", "Bee", "Cid", "Dan")
    assert "unknown player 'Bee'" in line and "Bea" in line


def test_new_bad_input_creates_nothing(gm: GM) -> None:
    assert "four players; got 3" in gm.fails("scum", "new", "Ann", "Bea", "Cid")
    assert "named twice" in gm.fails("scum", "new", "Ann", "Bea", "Cid", "ANN")
    assert not gm.db.exists()


def test_t9_new_over_an_unfinished_match(gm: GM) -> None:
    gm("scum", "new", *PLAYERS, "--seed", "7")
    assert "--abandon" in gm.fails("scum", "new", "Eve", "Fay", "Gus", "Hal")
    gm("scum", "new", "Eve", "Fay", "Gus", "Hal", "--abandon")
    assert sorted(gm.json("scum", "standings")["standings"]) == ["Eve", "Fay", "Gus", "Hal"]


def test_no_match_yet(gm: GM) -> None:
    assert "scum new" in gm.fails("scum", "standings")
    assert "scum new" in gm.fails("scum", "finish", *PLAYERS)
    assert "nothing to undo" in gm.fails("scum", "undo")
    assert not gm.db.exists()


def test_undo_and_redo_whole_commands(gm: GM) -> None:
    gm("scum", "new", *PLAYERS, "--seed", "7")
    gm("scum", "finish", *PLAYERS)
    after_one = gm.json("scum", "standings")["standings"]
    assert "undone: scum finish" in gm("scum", "undo").stdout
    assert set(gm.json("scum", "standings")["standings"].values()) == {0}
    assert "redone" in gm("scum", "redo").stdout
    assert gm.json("scum", "standings")["standings"] == after_one
    gm("scum", "undo")
    gm("scum", "undo")
    assert "scum new" in gm.fails("scum", "standings")


def test_scum_lives_beside_other_streams(gm: GM) -> None:
    gm("scum", "new", *PLAYERS, "--seed", "7")
    gm("wager", "new", "Eve", "Fay", "--seed", "1")
    gm("scum", "finish", *PLAYERS)
    assert "undone: scum finish" in gm("scum", "undo").stdout  # only the scum stream
    assert gm.json("wager", "status")["fool"] == "Eve"


# -- move by move (issue: side tables refereed play by play) -----------------------------------


def _dealt(gm: GM, seed: str = "4") -> dict[str, Any]:
    gm("scum", "new", *PLAYERS, "--seed", seed)
    return gm.json("scum", "deal")


def _pass_cards(gm: GM) -> None:
    from referee.rules import scum as rules
    from referee.store import open_evening
    from tests.scum.bot import passing

    with open_evening(gm.db, write=False) as ev:
        table = rules.require_match(ev.state("scum")).current()
    major, high, low = passing(table)
    gm("scum", "pass-cards", "--to-magician", major[0].short,
       "--to-empress", " ".join(c.short for c in high), "--to-fool", " ".join(c.short for c in low))


def test_r31_rotation_is_the_default_and_draw_an_option(gm: GM, runner: CliRunner,
                                                        tmp_path: Path) -> None:
    data = gm.json("scum", "new", *PLAYERS, "--seed", "1")
    assert data["rotate"] is True
    drawn = GM(runner, tmp_path / "d.json").json("scum", "new", *PLAYERS, "--draw", "--seed", "1")
    assert drawn["rotate"] is False
    assert "contradict" in gm.fails("scum", "new", *PLAYERS, "--draw", "--rotate", "--abandon")
    assert "scum new Ann Bea Cid Dan --seed 1" in gm("scum", "log").stdout


def test_r29_pass_cards_through_the_cli(gm: GM) -> None:
    _dealt(gm)
    line = gm.fails("scum", "pass-cards", "--to-magician", "5C", "--to-empress", "KC KnW",
                    "--to-fool", "3S 4P")
    assert "one major" in line and "(R29)" in line
    assert "not PP" in gm.fails("scum", "pass-cards", "--to-magician", "XXI", "--to-empress",
                                "KC PP", "--to-fool", "3S 4P")
    assert "record the passing first" in gm.fails("scum", "play", "5C")
    _pass_cards(gm)
    assert "already recorded" in gm.fails("scum", "pass-cards", "--to-magician", "XXI",
                                          "--to-empress", "KC KnW", "--to-fool", "3S 4P")


def test_r30_plays_out_of_turn_and_cards_not_held_are_refused(gm: GM) -> None:
    deal = _dealt(gm)
    _pass_cards(gm)
    table = gm.json("scum", "standings")["table"]
    leader = table["to_act"]
    other = next(p for p in PLAYERS if p != leader)
    held = gm.json("scum", "hand", leader)["cards"]
    single = next(c for c in held if not c[0].isupper() or c[0].isdigit() or c[0] in "AKPQ")
    assert f"{leader} leads, not {other}" in gm.fails("scum", "play", other, held[0])
    foreign = next(c for c in deal["cards"][other] if c not in held and c[-1] in "CSWP")
    assert f"does not hold {foreign}" in gm.fails("scum", "play", foreign)
    assert "cannot pass" in gm.fails("scum", "pass")
    out = gm("scum", "play", single).stdout
    assert f"{leader} plays" in out and "to play: beat" in out
    assert f"Hand 1 under way: {gm.json('scum', 'standings')['table']['to_act']} to play" in (
        gm("scum", "standings").stdout)
    nxt = gm.json("scum", "standings")["table"]["to_act"]
    third = next(p for p in PLAYERS if p not in (leader, nxt))
    assert f"it is {nxt}'s turn, not {third}'s" in gm.fails("scum", "pass", third)
    gm("scum", "pass")
    assert f"{nxt} passed in this series" in gm.fails("scum", "pass", nxt)
    assert "already played" in gm.fails("scum", "play", single)


def test_t12_a_lead_with_two_wilds_is_refused_as_a_lead(gm: GM) -> None:
    line = gm.fails("scum", "check", "-", "5C 5S XX XXI")
    assert line.startswith("error: not a legal lead") and "at most one wild" in line
    assert "not a legal follow" in gm.fails("scum", "check", "4C", "5C 5S")


def test_t16_scum_hand_needs_a_console_deal(gm: GM) -> None:
    gm("scum", "new", *PLAYERS, "--seed", "4")
    assert "did not deal" in gm.fails("scum", "hand", "ann")
    gm("scum", "deal")
    data = gm.json("scum", "hand", "an")
    assert data["player"] == "Ann" and len(data["cards"]) == 21


def test_t21_a_name_with_a_space_is_quoted_in_the_suggestion(gm: GM) -> None:
    gm("scum", "new", "Lord Ashby", "Bea", "Cid", "Dan", "--seed", "4")
    gm("scum", "deal")
    data = gm.json("scum", "standings")
    ashby_role = data["roles"]["Lord Ashby"]
    leader = data["table"]["to_act"]
    if leader != "Lord Ashby":
        line = gm.fails("scum", "hand", "zed")
        assert "unknown player" in line
    assert ashby_role in ("fool", "magician", "high_priestess", "empress")
    _pass_cards(gm)
    held = gm.json("scum", "hand", "ashby")["cards"]
    foreign = "5C" if "5C" not in held else "6C"
    line = gm.invoke("scum", "play", "Lord Ashby", foreign)
    assert line.exit_code == 2
    if leader == "Lord Ashby":
        assert 'scum hand "Lord Ashby"' in line.output


def test_a_scripted_hand_move_by_move_equals_scum_finish(gm: GM, runner: CliRunner,
                                                         tmp_path: Path) -> None:
    from referee.rules import scum as rules
    from tests.scum.bot import play_hand

    # the same seeded hand, played by the bot in the core, gives the script of moves
    state = rules.ScumState()
    for event in rules.new_match(state, PLAYERS, seed=9):
        rules.apply(state, event)
    moves = play_hand(state, lambda opts: len(opts) - 1 if len(opts) % 2 else 0)
    expected = rules.require_match(state).results[-1]
    _dealt(gm, "9")
    _pass_cards(gm)
    for who, move in moves:
        if move is None:
            gm("scum", "pass", who.lower()[:2])
        else:
            gm("scum", "play", *[c.short for c in move])
    data = gm.json("scum", "standings")
    assert data["hands"][0]["order"] == expected.order
    assert data["hands"][0]["points"] == expected.points
    typed = GM(runner, tmp_path / "typed.json")
    typed("scum", "new", *PLAYERS, "--seed", "9")
    typed("scum", "finish", *expected.order)
    hand = typed.json("scum", "standings")["hands"][0]
    assert (hand["order"], hand["points"], hand["roles"]) == (
        data["hands"][0]["order"], data["hands"][0]["points"], data["hands"][0]["roles"])
    assert data["hands"][0]["places"] == {n: i for i, n in enumerate(expected.order, start=1)}
    log = gm("scum", "log").stdout
    assert "plays" in log and "passes" in log and "hand 1:" in log
    assert data["hand"] == 2 and data["table"]["out"] == []


def test_names_are_printed_literally(gm: GM) -> None:
    out = gm("scum", "new", "[red]Ann", "Bea", "Cid", "Dan", "--seed", "4").stdout
    assert "[red]Ann" in out
    assert "[red]Ann (The Fool" in gm("scum", "deal").stdout
