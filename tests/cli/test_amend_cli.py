"""`referee amend SEQ -- NEW COMMAND` (E138, E139): a past command replaced, the rest replayed."""

from __future__ import annotations

from pathlib import Path

from tests.cli.conftest import GM

ROUND_ONE = ("Cy: KC KW", "Ada: 4C 9W", "Max: AC 6W 7S QP")
FIXED = ("Cy: 2C 3W", "Ada: 4C 9W", "Max: AC 6W 7S QP")  # Cy's real up cards


def _hand(gm: GM) -> None:
    """Cy and Ada against the Fool; every move typed without a name (the player to act), and
    the showdown with the down cards only, as a GM types them."""
    gm("new", "--fool", "Max", "--seat", "Ada:XVI:red:Ben:IX", "--seat", "Cy:III:blue:Di:II")
    gm("hand", "start")
    gm("hand", "show", *ROUND_ONE)  # command #3
    gm("bet")
    gm("call")
    gm("hand", "show", "Cy: +6S 8S", "Ada: +AS 6C", "Max: +QW 10S")
    gm("check")
    gm("check")
    gm("hand", "show", "Max: +2P")
    gm("check")
    gm("check")
    gm("hand", "showdown", "Cy: 3C 9C PC", "Ada: 8C 2W QC", "Max: AC 6W 7S QP QW 10S 2P")


def _ripple(gm: GM, *args: str) -> list[tuple[str, object, object]]:
    data = gm.json("amend", *args)
    return [(r["what"], r["before"], r["after"]) for r in data["ripple"]]


def test_e138_a_card_fixed_in_round_one_changes_opener_pot_and_winner(gm: GM, db: Path) -> None:
    _hand(gm)
    assert gm.chips("Cy") == {"blue": 10, "red": 1}  # Cy's kings won the pot
    before = db.read_bytes()
    ripple = _ripple(gm, "3", "--", "hand", "show", *FIXED)
    # Exactly these: Ada opens every round instead of Cy, and the Fool's queens take the pot.
    assert ripple == [
        ("opener of hand 1 round 1", "Cy", "Ada"),
        ("opener of hand 1 round 2", "Cy", "Ada"),
        ("opener of hand 1 round 3", "Cy", "Ada"),
        ("pots of hand 1", ["main pot 2 to Cy"], ["main pot 2 to Max"]),
    ]
    assert db.read_bytes() == before  # without --yes nothing is written
    out = gm("amend", "3", "--yes", "--", "hand", "show", *FIXED).output
    assert "Recorded: #3 is amended" in out
    assert gm.chips("Cy") == {"blue": 9} and gm.chips("Max") == {"blue": 1, "red": 1}
    assert gm.json("hand", "history")["showdown"]["pots"][0]["winners"] == ["Max"]


def test_e138_the_chain_verifies_and_the_log_keeps_both_versions(gm: GM) -> None:
    _hand(gm)
    gm("amend", "3", "--yes", "--", "hand", "show", *FIXED)
    assert "sound" in gm("verify").output
    log = gm("log").output
    assert "hand show 'Cy: KC KW'" in log  # the old version stays where it was
    assert "amended: now `hand show 'Cy: 2C 3W'" in log
    assert "replayed after the amendment of #3" in log
    assert "amend 3 --yes -- hand show 'Cy: 2C 3W'" in log
    rows = gm("log", "--format", "csv").stdout
    assert "amended: now" in rows
    gm("undo")  # takes the amendment back
    assert gm.chips("Cy") == {"blue": 10, "red": 1}
    assert "sound" in gm("verify").output


def test_e138_a_later_command_that_no_longer_applies_is_named(gm: GM) -> None:
    gm("new", "--fool", "Max", "--seat", "Ada:XVI:red", "--seat", "Cy:III:blue",
       "--seat", "Ed:VII:green")
    gm("hand", "start")
    gm("hand", "show", "Cy: KC KW", "Ed: 2S 7P", "Ada: 4C 9W", "Max: AC 6W 7S QP")  # #3
    gm("bet")
    gm("raise")
    gm("fold")  # Ada folds, as it was
    gm("call")
    gm("hand", "show", "Cy: +6S 8S", "Ed: +10C 4W", "Max: +QW 10S")  # #8
    # With Cy's real cards Ada opens, and the `fold` is Ed's: Ed's cards no longer come.
    line = gm.fails("amend", "3", "--yes", "--", "hand", "show", "Cy: 2C 3W", "Ed: 2S 7P",
                    "Ada: 4C 9W", "Max: AC 6W 7S QP")
    assert "#8 `hand show 'Cy: +6S 8S' 'Ed: +10C 4W' 'Max: +QW 10S'` no longer applies" in line
    assert "E140" in line and "--drop 8" in line  # the ways on are named (E140)


def test_e138_dry_run_shows_the_ripple_only(gm: GM, db: Path) -> None:
    _hand(gm)
    files = {p.name: p.read_bytes() for p in db.parent.iterdir() if p.is_file()}
    out = gm("--dry-run", "amend", "3", "--yes", "--", "hand", "show", *FIXED).output
    assert "opener of hand 1 round 1: Cy -> Ada" in out and "Dry run: nothing was written" in out
    assert {p.name: p.read_bytes() for p in db.parent.iterdir() if p.is_file()} == files


def test_e139_what_is_not_amended(gm: GM) -> None:
    _hand(gm)
    assert "opened the evening" in gm.fails("amend", "1", "--", "bet")
    assert "no evening command #99" in gm.fails("amend", "99", "--", "bet")
    assert "cannot stand in" in gm.fails("amend", "4", "--", "undo")
    assert "give the new command for #4" in gm.fails("amend", "4", "--")
    assert "give the new command" in gm.fails("amend", "4", "--", "--yes")
    assert "does not apply there" in gm.fails("amend", "4", "--", "bet", "Zed")
    # Its command runs on a scratch copy of the evening, and reaches nothing else (E65).
    other = gm.db.with_name("other.json")
    assert "--db cannot be sent" in gm.fails("amend", "4", "--", "--db", str(other), "bet")
    assert "names a file" in gm.fails("amend", "4", "--", "hand", "showdown", "--from-file",
                                      str(other))
    assert not other.exists()


def test_e138_a_later_amendment_amends_the_timeline_as_it_stands(gm: GM) -> None:
    _hand(gm)
    gm("amend", "3", "--yes", "--", "hand", "show", *FIXED)
    # #6 as replayed is amended again: Ada's round-two cards.
    gm("amend", "6", "--yes", "--", "hand", "show", "Cy: +6S 8S", "Ada: +AS 6P",
       "Max: +QW 10S")
    told = gm.json("hand", "history")
    assert told["rounds"][1]["up"]["Ada"] == ["4C", "9W", "AS", "6P"]
    assert told["rounds"][0]["up"]["Cy"] == ["2C", "3W"]  # the first amendment stands
    assert "sound" in gm("verify").output
