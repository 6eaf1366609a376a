"""`referee hand rank|compare|first|categories|odds`: JSON contracts, words, files, bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli.main import app


def run(runner: CliRunner, *args: str, input: str | None = None) -> tuple[int, str]:
    result = runner.invoke(app, ["hand", *args], input=input)
    return result.exit_code, result.output


def ok_json(runner: CliRunner, *args: str, input: str | None = None) -> object:
    code, out = run(runner, *args, input=input)
    assert code == 0, out
    return json.loads(out)


def json_lines(runner: CliRunner, *args: str, input: str | None = None) -> list[object]:
    code, out = run(runner, *args, input=input)
    assert code == 0, out
    return [json.loads(line) for line in out.splitlines()]


# ---------------------------------------------------------------- rank


def test_rank_json_contract(runner: CliRunner) -> None:
    assert ok_json(runner, "rank", "--json", "KnC", "KnW", "3S", "3P", "0", "XXI", "9C") == {
        "category": "three_pair",
        "cards": ["KnC", "KnW", "3S", "3P", "0", "XXI"],
    }


def test_rank_accepts_one_quoted_argument_and_long_names(runner: CliRunner) -> None:
    assert ok_json(runner, "rank", "--json", "king of cups, kw ks, the fool, m1") == {
        "category": "full_house_duet",
        "cards": ["KC", "KW", "KS", "0", "I"],
    }


def test_rank_human_names_category_and_long_cards(runner: CliRunner) -> None:
    code, out = run(runner, "rank", "KC", "AW", "2S", "3P", "4C", "9W")
    assert code == 0, out
    assert "Straight, King to Four" in out
    assert "King of Cups" in out and "Four of Cups" in out
    assert "Nine of Wands (not used)" in out


def test_r8_rank_magic(runner: CliRunner) -> None:
    data = ok_json(runner, "rank", "--magic", "--json", "5C 5W 5S 5P 5P")
    assert data == {"category": "five_of_a_kind", "cards": ["5C", "5W", "5S", "5P", "5P"]}


# ---------------------------------------------------------------- compare


def test_compare_json_contract(runner: CliRunner) -> None:
    hands = ("ann: KC KW 2S 2P 9C", "bo: 0 I 9W 9S 4C", "cy: KS KP 2W 2C 9P")
    data = ok_json(runner, "compare", "--json", *hands)
    assert data == {
        "ranking": [["ann", "cy"], ["bo"]],
        "hands": {
            "ann": {"category": "two_pair", "cards": ["KC", "KW", "2S", "2P", "9C"]},
            "bo": {"category": "two_pair_duet", "cards": ["9W", "9S", "0", "I", "4C"]},
            "cy": {"category": "two_pair", "cards": ["KS", "KP", "2C", "2W", "9P"]},  # H4
        },
    }


def test_compare_unnamed_hands_are_numbered(runner: CliRunner) -> None:
    data = ok_json(runner, "compare", "--json", "KC KW", "QC QW", "0 I")
    assert isinstance(data, dict)
    assert data["ranking"] == [["1"], ["2"], ["3"]]


def test_compare_unquoted_named_hands(runner: CliRunner) -> None:
    data = ok_json(runner, "compare", "--json", "ann:", "KC", "KW", "bo:", "QC", "QW")
    assert isinstance(data, dict)
    assert data["ranking"] == [["ann"], ["bo"]]


def test_compare_human_says_why(runner: CliRunner) -> None:
    code, out = run(runner, "compare", "ann: KC KW KS 2C 2W", "bo: KP QP 9P 5P 2P")
    assert code == 0, out
    assert "Full house, Kings over Twos" in out
    assert "Flush of Pentacles, King high" in out
    assert "ann beats bo: Full house beats flush" in out


def test_r7_compare_human_says_split(runner: CliRunner) -> None:
    code, out = run(runner, "compare", "ann: KC 9W", "bo: KS 9P", "cy: 2C 3W")
    assert code == 0, out
    assert "ann and bo split" in out
    assert "=1" in out


def test_r7_compare_kicker_in_words(runner: CliRunner) -> None:
    code, out = run(runner, "compare", "ann: 2C 2W KnC", "bo: 2S 2P 10S")
    assert code == 0, out
    assert "kicker Knight of Cups beats Ten of Swords" in out


# ---------------------------------------------------------------- first


def test_first_json_contract(runner: CliRunner) -> None:
    data = ok_json(runner, "first", "--json", "ann: KC 2S", "bo: 9W 9P", "fool: 0 I 5C 3S")
    assert data == {
        "first": "bo",
        "hands": {
            "ann": {"category": "high_card", "cards": ["KC", "2S"]},
            "bo": {"category": "pair", "cards": ["9W", "9P"]},
            "fool": {"category": "duet", "cards": ["0", "I", "5C", "3S"]},
        },
    }


def test_r9_first_tie_goes_to_the_earliest_seat(runner: CliRunner) -> None:
    data = ok_json(runner, "first", "--json", "ann: KC 2S", "bo: KW 2P")
    assert isinstance(data, dict) and data["first"] == "ann"
    code, out = run(runner, "first", "ann: KC 2S", "bo: KW 2P")
    assert code == 0 and "nearer the Fool's left" in out


def test_r15_first_fool_opens_with_chips(runner: CliRunner) -> None:
    code, out = run(runner, "first", "ann: KC 2S", "Fool: QC QW QS 3S")
    assert code == 0, out
    assert "Fool bets first and must bet" in out


def test_r15_first_fool_broke(runner: CliRunner) -> None:
    args = ("first", "--json", "--fool-broke", "ann: KC 2S", "bo: 9W 9P", "fool: QC QW QS 3S")
    data = ok_json(runner, *args)
    assert isinstance(data, dict) and data["first"] == "bo"
    code, out = run(runner, *[a for a in args if a != "--json"])
    assert code == 0 and "holds no chips" in out and "R15" in out


# ---------------------------------------------------------------- categories


def test_categories_json(runner: CliRunner) -> None:
    data = ok_json(runner, "categories", "--json")
    assert isinstance(data, list) and len(data) == 16
    assert data[0]["category"] == "seven_of_a_kind" and data[-1]["category"] == "high_card"
    assert all(row["example"] and row["title"] for row in data)


def test_categories_human(runner: CliRunner) -> None:
    code, out = run(runner, "categories")
    assert code == 0, out
    for words in ("Full house with a Duet", "Three pair", "KnC KnW 3S 3P 0 XXI", "Duet"):
        assert words in out


# ---------------------------------------------------------------- --from-file


def test_from_file_rank(runner: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "rulings.txt"
    path.write_text("# a stack of rulings\nKC KW 2S\n\n0 I 9C\n", encoding="utf-8")
    assert json_lines(runner, "rank", "--from-file", str(path)) == [
        {"category": "pair", "cards": ["KC", "KW", "2S"]},
        {"category": "duet", "cards": ["0", "I", "9C"]},
    ]


def test_from_file_compare_stdin(runner: CliRunner) -> None:
    lines = json_lines(
        runner, "compare", "--from-file", "-", input="ann: KC KW | bo: QC QW\nKC | QS 2W\n"
    )
    assert lines[0] == {
        "ranking": [["ann"], ["bo"]],
        "hands": {
            "ann": {"category": "pair", "cards": ["KC", "KW"]},
            "bo": {"category": "pair", "cards": ["QC", "QW"]},
        },
    }
    assert isinstance(lines[1], dict) and lines[1]["ranking"] == [["1"], ["2"]]


def test_from_file_first_stdin(runner: CliRunner) -> None:
    lines = json_lines(
        runner, "first", "--from-file", "-",
        input="ann: KC 2S | bo: 9W 9P | fool: 0 I 5C 3S\nann: KC 2S | bo: KW 2P\n",
    )
    assert [line["first"] for line in lines if isinstance(line, dict)] == ["bo", "ann"]


def test_h8_from_file_bad_line_fails_the_run(runner: CliRunner) -> None:
    code, out = run(runner, "compare", "--from-file", "-", input="KC | QC\nKC | KX\n")
    assert code == 2
    assert out.count("\n") == 1 and "stdin line 2" in out and "'KX'" in out
    assert "{" not in out  # nothing half-printed


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("rank", "KX", "QC"), "'KX'"),
        (("rank", "KC", "KC"), "KC (King of Cups) appears twice"),
        (("rank", "AC 2C 3C 4C 5C 6C 7C 8C"), "at most seven"),
        (("rank",), "give 1-7 cards"),
        (("rank", ","), "empty hand"),
        (("rank", "--from-file", "/no/such/file"), "cannot read"),
        (("rank", "KC", "--from-file", "-"), "not both"),
        (("compare", "a: KC", "A: QC"), "two hands are named"),
        (("compare", "a: KC QC", "b: KC 2S"), "in hands a and b"),
        (("compare", "a: KC QC", "2S 3S"), "has no name"),
        (("compare", "a:", "b: 2C"), "hand a is empty"),
        (("compare", "KC"), "two or more hands"),
        (("compare", "alice KC", "QC"), "to name a hand write"),
        (("compare", "a: 2C 3C 4C 5C 6C 7C 8C 9C", "b: KC"), "hand a: 8 cards"),
        (("first", "a: KC QC JC", "fool: 0 I II III"), "'JC'"),
        (("first", "a: KC QC 9C 10C 2S", "fool: 0 I II III"), "shows 5 up cards"),
        (("first", "a: KC", "fool: 0 I"), "the Fool shows all his cards"),
        (("first", "a: KC", "b: KC"), "appears twice"),
    ],
)
def test_bad_input_is_one_line_exit_2(runner: CliRunner, args: tuple[str, ...], words: str) -> None:
    code, out = run(runner, *args, input="")
    assert code == 2, out
    assert "Traceback" not in out
    assert out.startswith("error: ") and out.count("\n") == 1, out
    assert words in out


def test_every_hand_command_has_help(runner: CliRunner) -> None:
    for command in ("rank", "compare", "first", "categories", "odds"):
        code, out = run(runner, command, "--help")
        assert code == 0, out
        assert "Usage" in out


# ---------------------------------------------------------------- odds (H20)


def test_r4_odds_of_the_full_deck_json(runner: CliRunner) -> None:
    data = ok_json(runner, "odds", "--json")
    assert isinstance(data, dict)
    assert data["known"] == [] and data["draw"] == 7 and data["hands"] == 2_641_902_120
    rows = {row["category"]: row for row in data["categories"]}
    assert list(rows)[0] == "seven_of_a_kind" and len(rows) == 16
    assert rows["straight_flush"]["count"] == 143_136
    assert rows["seven_of_a_kind"]["probability"] == "0"
    assert sum(row["count"] for row in rows.values()) == data["hands"]


def test_h20_odds_of_six_known_cards_text(runner: CliRunner) -> None:
    code, out = run(runner, "odds", "KC", "QC", "KnC", "PC", "0", "XXI")
    assert code == 0, out
    assert "72 ways (H20)" in " ".join(out.split())
    assert "Straight flush" in out and "2.7778%" in out and "36.0" in out
    assert "Impossible here:" in out and "Three pair" in out.split("Impossible here:")[1]


def test_h20_odds_known_cards_json_fraction(runner: CliRunner) -> None:
    data = ok_json(runner, "odds", "--json", "KC QC KnC PC 0 XXI")
    assert isinstance(data, dict)
    rows = {row["category"]: row for row in data["categories"]}
    assert data["known"] == ["KC", "QC", "KnC", "PC", "0", "XXI"] and data["hands"] == 72
    assert rows["flush"]["probability"] == "1/9" and rows["flush"]["count"] == 8


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("KC", "QC"), "2 known cards: give 3 to 6"),
        (("KC", "QC", "KnC", "PC", "10C", "0", "XXI"), "7 known cards"),
        (("KC", "QC", "KC"), "appears twice"),
        (("KC", "QC", "KX"), "unknown card 'KX'"),
    ],
)
def test_h20_odds_bad_input_is_one_line_exit_2(
    runner: CliRunner, args: tuple[str, ...], words: str
) -> None:
    code, out = run(runner, "odds", *args)
    assert code == 2, out
    assert out.startswith("error: ") and out.count("\n") == 1 and words in out, out
