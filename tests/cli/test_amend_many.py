"""One amendment replacing several commands and dropping others (E140): a GM who typed a
wrong card can always fix it, whatever the later moves it unsettles."""

from __future__ import annotations

from pathlib import Path

from tests.cli.conftest import GM

FIX = ("--", "hand", "show", "Cy", "2C 3W")  # Cy's real up cards, for #3


def _evening(gm: GM) -> None:
    """Cy's kings typed by mistake (#3); with them Cy opened (#5) and Ed called (#6)."""
    gm("new", "--fool", "Max", "--seat", "Ada:XVI:red", "--seat", "Cy:III:blue",
       "--seat", "Ed:VII:green")
    gm("hand", "start")
    gm("hand", "show", "Cy", "KC KW")  # 3
    gm("hand", "show", "Ed: 2S 7P", "Ada: 4C 9W", "Max: AC 6W 7S QP")  # 4
    gm("bet", "Cy")  # 5
    gm("call", "Ed")  # 6


def test_e140_each_refusal_names_the_ways_on(gm: GM) -> None:
    _evening(gm)
    line = gm.fails("amend", "3", *FIX)
    assert "#5 `bet Cy` no longer applies: not Cy's turn: Ada is to act" in line
    assert "replace it too (`referee amend 3 -- hand show Cy '2C 3W' -- 5 -- COMMAND`)" in line
    assert "drop it (`referee amend 3 --drop 5 -- hand show Cy '2C 3W'`)" in line
    assert "`referee undo` 4 times and type again from #3" in line
    assert "E140" in line
    # The next one down is named the same way, with what was already given kept.
    line = gm.fails("amend", "3", "--drop", "5", *FIX)
    assert "#6 `call Ed` no longer applies" in line
    assert "`referee amend 3 --drop 5 --drop 6 -- hand show Cy '2C 3W'`" in line
    # A new command that does not apply is named as the new one, with its own ways on.
    line = gm.fails("amend", "3", *FIX, "--", "5", "--", "bet", "Cy")
    assert "the new command for #5, `bet Cy`, does not apply there" in line
    assert "give #5 another command, drop it (`referee amend 3 --drop 5 -- hand show Cy " \
        "'2C 3W'`)" in line


def test_e140_replace_several_at_once(gm: GM, db: Path) -> None:
    _evening(gm)
    before = db.read_bytes()
    out = gm("amend", "3", *FIX, "--", "5", "--", "bet", "Ada", "--", "6", "--",
             "call", "Cy").output
    assert ("Amending #3 `hand show Cy 'KC KW'` to `hand show Cy '2C 3W'`, #5 `bet Cy` to "
            "`bet Ada`, #6 `call Ed` to `call Cy`: 1 later command replayed") in out
    assert "opener of hand 1 round 1: Cy -> Ada" in out
    assert db.read_bytes() == before
    gm("amend", "3", *FIX, "--", "5", "--", "bet", "Ada", "--", "6", "--", "call", "Cy",
       "--yes")
    hand = gm.status()["hand"]
    assert hand["to_act"] == "Ed" and gm.chips("Ada") == {"red": 9}
    assert gm.chips("Cy") == {"blue": 9} and gm.chips("Ed") == {"green": 10}
    log = gm("log").output
    assert "(amended: now `bet Ada`)" in log and "(amended: now `call Cy`)" in log
    assert "sound" in gm("verify").output
    gm("undo")
    assert gm.status()["hand"]["to_act"] == "Ada" and gm.chips("Cy") == {"blue": 9}


def test_e140_drop_later_commands_and_retype(gm: GM) -> None:
    _evening(gm)
    out = gm("amend", "3", "--drop", "5", "--drop", "6", "--yes", *FIX).output
    assert "dropping #5 `bet Cy`, #6 `call Ed`: 1 later command replayed" in out
    assert gm.chips("Cy") == {"blue": 10} and gm.chips("Ed") == {"green": 10}
    assert gm.status()["hand"]["to_act"] == "Ada"
    log = gm("log").output
    assert "(dropped by the amendment of #3)" in log
    gm("bet", "Ada")  # and the GM goes on from the right place
    assert "sound" in gm("verify").output


def test_e140_drop_alone_and_at_the_end(gm: GM) -> None:
    _evening(gm)
    out = gm("amend", "--drop", "6").output
    assert out.startswith("Dropping #6 `call Ed`: 0 later commands replayed")
    assert "`referee amend --yes --drop 6` records it" in out
    gm("amend", "5", *FIX[1:1], "--", "check", "Cy", "--drop", "6", "--yes")  # at the end
    assert gm.chips("Cy") == {"blue": 10} and gm.chips("Ed") == {"green": 10}
    assert gm.status()["hand"]["to_act"] == "Ed"


def test_e140_what_an_amendment_line_refuses(gm: GM) -> None:
    _evening(gm)
    assert "named twice" in gm.fails("amend", "3", *FIX, "--", "3", "--", "bet")
    assert "named twice" in gm.fails("amend", "5", "--drop", "5", "--", "bet", "Cy")
    assert "dropped twice" in gm.fails("amend", "--drop", "5", "--drop", "5")
    assert "give the new command after `--`" in gm.fails("amend")
    assert "give the new command for #5" in gm.fails("amend", "3", *FIX, "--", "5", "--")
    assert "no evening command #9" in gm.fails("amend", "3", "--drop", "9", *FIX)
    assert "opened the evening" in gm.fails("amend", "--drop", "1")
    assert "cannot stand in" in gm.fails("amend", "3", *FIX, "--", "5", "--", "undo")
    assert "#4 is already `hand show 'Ed: 2S 7P' 'Ada: 4C 9W' 'Max: AC 6W 7S QP'`" in gm.fails(
        "amend", "4", "--", "hand", "show", "Ed: 2S 7P", "Ada: 4C 9W", "Max: AC 6W 7S QP")
    # The number forgotten, or a word where a number goes: said plainly (E140).
    assert "'bet' is no command number" in gm.fails("amend", "--", "bet", "Ada")
    assert "--drop 'x' is no command number" in gm.fails("amend", "3", "--drop", "x", *FIX)
    assert "'0' is no command number" in gm.fails("amend", "0", "--", "bet")


def test_e141_verify_replays_each_amendment(gm: GM) -> None:
    from referee.storage.store import event_hash, open_evening

    _evening(gm)
    gm("amend", "3", "--drop", "5", "--drop", "6", "--yes", *FIX)
    gm("bet", "Ada")
    gm("amend", "--drop", "8", "--yes")  # the bet again, a second amendment on the first
    assert "sound" in gm("verify").output
    # Someone edits the evening an amendment stored and rebuilds the hash chain and the
    # checksum: the chain is sound, but the log as amended does not reach that evening.
    with open_evening(gm.db) as ev:
        record = [r for r in ev._live if r["event"]["kind"] == "command_amended"][0]
        record["event"]["state"]["hand"]["showing"]["Cy"] = ["2C", "4W"]
        record["hash"] = event_hash(record["prev"], record)
        ev._rechain()
        ev._changed = True
    result = gm.invoke("verify")
    assert result.exit_code == 2
    assert "#7 `amend 3 --yes --drop 5 --drop 6 -- hand show Cy '2C 3W'`" in result.output
    assert "does not reach the evening the amendment stored" in result.output
    assert "E141" in result.output


def test_e140_the_past_as_it_stood_around_an_amendment(gm: GM) -> None:
    _evening(gm)
    gm("amend", "3", "--drop", "5", "--drop", "6", "--yes", *FIX)  # #7
    line = gm.fails("status", "--at", "5")
    assert "no evening command #5 (undone, dropped by an amendment, or at a side table)" in line
    assert "the nearest before it is #4" in line
    # After the amendment itself: the evening it left, Ada to act, the bets gone (E134).
    assert "Ada to act" in gm("status", "--at", "7").output
    # #4 as amended: Cy's real cards were shown at #3, so Ada opens there too (E138).
    assert "Ada to act" in gm("status", "--at", "4").output


def test_e180_an_option_or_help_for_the_new_command_is_refused_before_any_replay(
        gm: GM) -> None:
    """`amend 5 -- --foo` once said it recorded the scratch evening's write; nothing was."""
    _evening(gm)
    for words in (["--foo"], ["--help"], ["--json", "bet", "Cy"], ["bet", "Cy", "--help"]):
        line = gm.fails("amend", "5", "--", *words)
        assert "recorded" not in line and "E180" in line, line
    # A replacement the parser refuses past its first word: said as a refusal, never as a
    # command recorded whose answer could not be shown.
    line = gm.fails("amend", "5", "--", "hand", "show", "--bogus", "Cy", "2C 3W")
    assert "recorded" not in line and "No such option: --bogus" in line
