"""`referee scum ...` through the real CLI: R29-R31, T1-T11, errors and undo."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from referee.cli.main import app
from tests.cli.conftest import GM
from tests.cli.side_suggestions import accepted

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


# -- move by move (side tables refereed play by play) ------------------------------------------


def _dealt(gm: GM, seed: str = "4") -> dict[str, Any]:
    gm("scum", "new", *PLAYERS, "--seed", seed)
    return gm.json("scum", "deal")


def _pass_cards(gm: GM) -> None:
    from referee.rules import scum as rules
    from referee.storage.store import open_evening
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


def test_the_words_of_a_scum_move_say_what_was_matched_and_drawn(gm: GM) -> None:
    """A move of the table's API (``referee.table.api.MOVES``) logs the words as before: the
    names as written and matched, the seed the console drew, the player who played or passed
    in full, never the default --rotate (T1, T21)."""
    gm("scum", "new", " Ann ", *PLAYERS[1:], "--rotate")
    gm("scum", "new", *PLAYERS, "--seed", "13", "--abandon")
    gm("scum", "play", "5C")
    gm("scum", "play", "da", "6C")
    gm("scum", "pass")
    gm("scum", "finish", "c", "d", "a", "b")
    lines = [line.split(None, 1)[1] for line in gm("scum", "log").stdout.splitlines()
             if line.split(None, 1)[1:2] and line.split(None, 1)[1].startswith("scum ")]
    assert lines[0].startswith("scum new Ann Bea Cid Dan --seed ")
    assert "--rotate" not in lines[0]
    assert lines[1:] == ["scum new Ann Bea Cid Dan --seed 13 --abandon", "scum play Cid 5C",
                         "scum play Dan 6C", "scum pass Ann", "scum finish Cid Dan Ann Bea"]


def test_r29_pass_cards_through_the_cli(gm: GM) -> None:
    _dealt(gm)
    line = gm.fails("scum", "pass-cards", "--to-magician", "5C", "--to-empress", "KC KnW",
                    "--to-fool", "3S 4P")
    assert "one major" in line and "(R29)" in line
    assert "not KC PP (R30a)" in gm.fails("scum", "pass-cards", "--to-magician", "XXI",
                                          "--to-empress", "KC PP", "--to-fool", "3S 4P")
    assert "record the passing before the first play" in gm.fails("scum", "play", "5C")
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
    assert f"Hand 1 of 4 in play: {gm.json('scum', 'standings')['table']['to_act']} to play" in (
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


# -- R30a, the passing without a deal, standings in play, refusals (T23-T27) -------------------

# Seed 13 seats Ann as the Fool, Bea the Magician, Cid the Empress and Dan the High Priestess;
# Cid leads and the turn goes Cid, Dan, Ann, Bea (T15, T18).
ROLES_13 = {"Ann": "fool", "Bea": "magician", "Cid": "empress", "Dan": "high_priestess"}


def _table(gm: GM) -> Any:
    from referee.rules import scum as rules
    from referee.storage.store import open_evening

    with open_evening(gm.db, write=False) as ev:
        return rules.require_match(ev.state("scum")).current()


def test_r30a_the_fool_with_one_king_and_two_knights_passes_the_king_and_a_knight(gm: GM) -> None:
    deal = _dealt(gm, "69")  # the Fool of this deal holds KP, KnW and KnP
    fool = next(n for n, r in gm.json("scum", "standings")["roles"].items() if r == "fool")
    court = sorted(c for c in deal["cards"][fool] if c[0] in "KQ")
    assert court == ["KP", "KnP", "KnW"]  # one King, two Knights, no Queen
    table = _table(gm)
    major = next(c.short for c in table.holdings[fool] if c.is_major)
    empress = next(n for n, r in gm.json("scum", "standings")["roles"].items() if r == "empress")
    low = " ".join([c.short for c in table.holdings[empress] if not c.is_major][:2])
    line = gm.fails("scum", "pass-cards", "--to-magician", major, "--to-empress", "KnW KnP",
                    "--to-fool", low)
    assert line == (f"error: {fool} gives the Empress his two highest minors, a King and a "
                    "Knight (KP with KnW or KnP), not KnW KnP (R30a)")
    out = gm("scum", "pass-cards", "--to-magician", major, "--to-empress", "KP KnP",
             "--to-fool", low).stdout
    assert "Passing recorded (R29)" in out and "Not checked" not in out
    held = gm.json("scum", "hand", fool)["cards"]
    assert "KnW" in held and "KP" not in held and "KnP" not in held
    assert {"KP", "KnP"} <= set(gm.json("scum", "hand", empress)["cards"])


def test_r30a_bea_the_magician_cannot_play_iii_the_empresss_card(gm: GM) -> None:
    assert gm.json("scum", "new", *PLAYERS, "--seed", "13")["roles"] == ROLES_13
    gm("scum", "play", "Cid", "5C")
    gm("scum", "play", "Dan", "6C")
    gm("scum", "play", "Ann", "7C")
    line = gm.fails("scum", "play", "Bea", "III")
    assert line == ("error: Bea cannot play III: it is Cid's role card (The Empress), dealt face "
                    "up (R30a); `referee scum play Bea CARDS` or `referee scum pass Bea` (T23)")
    assert "Dan's role card (The High Priestess)" in gm.fails("scum", "play", "Bea", "II")
    # not hers comes before "a follow must be 1 card": the card is the first thing wrong
    assert "Cid's role card" in gm.fails("scum", "play", "Bea", "III", "XX")
    assert "Bea plays a single Eight" in gm("scum", "play", "Bea", "8C").stdout
    out = gm("scum", "play", "Cid", "III").stdout  # her own: an all-wild single wins (R30)
    assert "Cid wins the series; Cid leads the next." in out


def test_r30a_t23_the_fools_0_by_the_magician_only_once_the_passing_allows_it(gm: GM) -> None:
    gm("scum", "new", *PLAYERS, "--seed", "13")
    gm("scum", "pass-cards", "--to-magician", "0", "--to-empress", "KC KS", "--to-fool", "2C 3C")
    gm("scum", "play", "Cid", "5C")
    gm("scum", "play", "Dan", "6C")
    line = gm.fails("scum", "play", "Ann", "0")
    assert "Ann cannot play 0: it went from Ann to Bea (The Magician) in the passing" in line
    gm("scum", "play", "Ann", "7C")
    assert "Bea plays an all-wild play of one: 0." in gm("scum", "play", "Bea", "0").stdout
    assert "went from Cid to Ann" in gm.fails("scum", "play", "Bea", "2C")  # T24: Ann's now


def test_t27_a_passing_without_a_deal_says_what_could_not_be_checked(gm: GM) -> None:
    gm("scum", "new", *PLAYERS, "--seed", "13")
    line = gm.fails("scum", "pass-cards", "--to-magician", "III", "--to-empress", "KC KS",
                    "--to-fool", "2C 3C")
    assert "III The Empress is Cid's role card, dealt face up" in line and "(R30a" in line
    out = gm("scum", "pass-cards", "--to-magician", "XX", "--to-empress", "KnC 2S",
             "--to-fool", "2C 3C").stdout
    assert ("Not checked: the console did not deal this hand, so it cannot tell whether these "
            "cards were the givers' or the Fool's two highest minors") in out
    assert gm.json("scum", "standings")["table"]["cards_passed"] is True
    dealt = GM(gm.runner, gm.db.with_name("dealt.json"))
    dealt("scum", "new", *PLAYERS, "--seed", "13")
    dealt("scum", "deal")
    major, high, low = _passing_words(dealt)
    data = dealt.json("scum", "pass-cards", "--to-magician", major, "--to-empress", high,
                      "--to-fool", low)
    assert data["checked"] is True
    assert "Not checked" not in dealt("scum", "undo").stdout


def _passing_words(gm: GM) -> tuple[str, str, str]:
    from tests.scum.bot import passing

    major, high, low = passing(_table(gm))
    return major[0].short, " ".join(c.short for c in high), " ".join(c.short for c in low)


def test_t26_standings_say_the_hand_is_in_play_with_each_players_cards_left(gm: GM) -> None:
    gm("scum", "new", *PLAYERS, "--seed", "13")
    out = gm("scum", "standings").stdout
    assert "Hand 1 of 4 in play: Cid leads (The Empress, R29)" in out
    # as dealt: the Fool 21, the Magician 18, the High Priestess 20, the Empress 19 (R29)
    assert gm.json("scum", "standings")["table"]["left"] == {
        "Ann": 21, "Bea": 18, "Cid": 19, "Dan": 20}
    gm("scum", "play", "Cid", "5C", "5S")
    gm("scum", "play", "Dan", "9C", "XX")
    gm("scum", "pass", "Ann")
    out = gm("scum", "standings").stdout
    assert "Hand 1 of 4 in play: Bea to play, beat a pair of Nines (one wild) of Dan" in out
    # after R29's passing (T17): the Fool 20, the Magician 19, less what each has played
    assert gm.json("scum", "standings")["table"]["left"] == {
        "Ann": 20, "Bea": 19, "Cid": 17, "Dan": 18}
    rows = {line.split()[1]: line.split()[-2] for line in out.splitlines()
            if line.startswith("│")}
    assert rows == {"Ann": "20", "Bea": "19", "Cid": "17", "Dan": "18"}
    assert "Cards left" in out and "Hand 1 of 4 next" not in out


def test_t26_standings_name_who_is_out_and_where(gm: GM, runner: CliRunner) -> None:
    from referee.rules import scum as rules
    from tests.scum.bot import play_hand

    state = rules.ScumState()
    for event in rules.new_match(state, PLAYERS, seed=9):
        rules.apply(state, event)
    moves = play_hand(state, lambda opts: len(opts) - 1 if len(opts) % 2 else 0)
    _dealt(gm, "9")
    _pass_cards(gm)
    for who, move in moves:
        gm(*(["scum", "pass", who] if move is None else
             ["scum", "play", who, *[c.short for c in move]]))
        table = gm.json("scum", "standings")["table"]
        if table and table["out"]:
            break
    first = table["out"][0]
    out = gm("scum", "standings").stdout
    assert f"out: {first} 1st" in out and "out 1st" in out
    line = gm.fails("scum", "play", first, "5C")
    assert f"{first} went out 1st and plays no more this hand; {table['to_act']} is to play" in line


def _fill(gm: GM) -> Callable[[list[str]], list[str]]:
    """Fills a suggestion's capitals as the table would: a legal play for the player to act
    (from the deal, or wilds never seen), the passing a bot makes, four names."""
    from referee.rules.cards import DECK
    from referee.rules.scum import ROLES
    from tests.scum.bot import candidates, passing

    def fill(words: list[str]) -> list[str]:
        if words.count("NAME") == 4:
            return [w for w in words if w != "NAME"] + PLAYERS
        table = _table(gm)
        out: list[str] = []
        minors = iter(passing(table)[1:]) if table.holdings is not None else iter(())
        for word in words:
            if word == "CARDS":
                if table.holdings is not None:
                    move = next(m for m in candidates(table, table.to_act) if m is not None)
                else:
                    seen = table.played | {r.card for r in ROLES}
                    wilds = [c for c in DECK if c.is_major and c not in seen]
                    move = wilds[:1 if table.best is None else table.best.count]
                out += [c.short for c in move]
            elif word == "MAJOR":
                out.append(passing(table)[0][0].short)
            elif word == "MINOR MINOR":
                out.append(" ".join(c.short for c in next(minors)))
            else:
                out.append(word)
        return out

    return fill


def test_t25_every_refusal_of_a_match_suggests_commands_the_console_accepts(
        gm: GM, tmp_path: Path) -> None:
    scratch = tmp_path / "copies"
    scratch.mkdir()
    fill = _fill(gm)

    def check(*args: str) -> None:
        accepted(gm, gm.fails(*args), fill, scratch)

    check("scum", "standings")  # no match yet
    gm("scum", "new", *PLAYERS, "--seed", "13")
    check("scum", "new", "Eve", "Fay", "Gus", "Hal")  # unfinished (T9)
    check("scum", "hand", "Ann")  # not dealt, but it still may be (T16)
    check("scum", "play", "Ann", "5C")  # Cid leads (R29)
    check("scum", "pass")  # the leader cannot pass (T6)
    gm("scum", "play", "Cid", "5C")
    check("scum", "hand", "Ann")  # too late to deal (T16, T17)
    check("scum", "deal")
    check("scum", "pass", "Ann")  # Dan's turn (T18)
    check("scum", "play", "Dan", "4C")  # lower (R30)
    check("scum", "play", "Dan")  # which cards? (T21)
    gm("scum", "play", "Dan", "6C")
    gm("scum", "play", "Ann", "7C")
    check("scum", "play", "Bea", "III")  # the Empress's role card (R30a, T23)
    gm("scum", "pass", "Bea")
    check("scum", "play", "Bea", "9C")  # passed in this series (R30)

    gm("scum", "new", *PLAYERS, "--seed", "13", "--abandon")
    gm("scum", "deal")
    check("scum", "play", "Cid", "5C")  # the passing first (T14)
    major, high, low = _passing_words(gm)
    gm("scum", "pass-cards", "--to-magician", major, "--to-empress", high, "--to-fool", low)
    check("scum", "pass-cards", "--to-magician", major, "--to-empress", high, "--to-fool", low)
    held = gm.json("scum", "hand", "Cid")["cards"]
    foreign = next(c for c in gm.json("scum", "hand", "Dan")["cards"] if c not in held)
    check("scum", "play", "Cid", foreign)  # not hers (T16)

    gm("scum", "new", *PLAYERS, "--seed", "13", "--abandon")
    for _ in range(4):
        gm("scum", "finish", *PLAYERS)
    check("scum", "finish", *PLAYERS)  # the match is over (R31)
    check("scum", "play", "5C")


def test_t25_a_refusal_names_its_commands_in_backquotes() -> None:
    from tests.cli.side_suggestions import suggested

    line = ("it is Lord Ashby's turn: `referee scum play \"Lord Ashby\" CARDS` or "
            "`referee scum pass \"Lord Ashby\"` (T18)")
    assert suggested(line) == [["scum", "play", "Lord Ashby", "CARDS"],
                               ["scum", "pass", "Lord Ashby"]]
    assert suggested("the passing is recorded (R29)") == []
