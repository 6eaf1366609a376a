"""`hand history` tells a hand as it happened (E135): every step where the log has it, a move
taken back shown so with its chips, a raise read as the `raise` command reads its amount, and
a split pot with each share. A GM settles a dispute with it.

The hand: open phase, seats from the Fool's left Cy (III), Ed (VII), Ada (XVI), the Fool Max
holding no chips. Cy bets 2; Ed slides XX for Second Thoughts and Cy's bet goes back; Cy checks,
Ed bets 1, Ada folds, Cy raises 3 (to 4), Ed calls. In round 2 Ed's 7W is corrected to 8C. Cy and
Ed both hold Kings, Page, 9, 8: the main pot of 11 is split, the odd chip to Cy (R11).
"""

from __future__ import annotations

from pathlib import Path

from referee.serve.frame import build_frame
from tests.cli.conftest import GM

SEATS = ["--seat", "Ada:XVI:red:Ben:IX", "--seat", "Cy:III:blue:Di:II",
         "--seat", "Ed:VII:green:Flo:XVII"]
GUESSES = [("Di", "cobalt", "Houdini", "I"), ("Flo", "amber", "Catherine the Great", "III"),
           ("Ben", "green", "Thoreau", "IX")]


def _play(gm: GM) -> None:
    gm("new", "--fool", "Max", *SEATS)
    for helper, soul, name, arcanum in GUESSES:
        gm("soul", "guess", helper, soul, "--name", name, "--arcanum", arcanum)
    gm("open-phase")
    gm("hand", "start")
    gm("hand", "show", "Cy: KC KW", "Ed: KS KP", "Ada: 5P 7C", "Max: AC 6W 7S QP")
    gm("bet", "Cy", "2")
    gm("power", "use", "Ed", "second thoughts", "--access", "XX")
    gm("check", "Cy")
    gm("bet", "Ed", "1")
    gm("fold", "Ada")
    gm("raise", "Cy", "3")
    gm("call", "Ed")
    gm("hand", "show", "Cy: +6S 8S", "Ed: +6C 7W", "Max: +QW 10S")
    gm("hand", "fix", "Ed", "7W", "8C")
    gm("check", "Cy")
    gm("check", "Ed")
    gm("hand", "show", "Max: +2P")
    gm("check", "Cy")
    gm("check", "Ed")
    gm("hand", "showdown", "Cy: 3C 9C PC", "Ed: 9S PS")


def _told(gm: GM) -> list[str]:
    gm.played("history", _play)
    return [line.rstrip() for line in gm("hand", "history").output.splitlines()]


def test_e135_a_power_is_told_where_it_was_used(gm: GM) -> None:
    lines = _told(gm)
    start = lines.index("Round 1: Cy KC KW; Ed KS KP; Ada 5P 7C; Max AC 6W 7S QP")
    end = next(i for i, line in enumerate(lines) if line.startswith("Round 2"))
    first = lines[start + 1:end]
    assert [line.split(":")[0].split(";")[0] for line in first] == [
        "  Cy bets 2", "  Ed slides XX to the Fool for Second Thoughts",
        "  Ed uses Second Thoughts on Cy", "  Cy checks", "  Ed bets 1", "  Ada folds",
        "  Cy raises 3, to 4", "  Ed calls 3"]
    told = gm.json("hand", "history")
    steps = [s for r in told["rounds"] for s in r["steps"]]
    assert [(s["cmd"], s["at"]) for s in steps] == sorted((s["cmd"], s["at"]) for s in steps)


def test_e135_a_fix_is_told_in_the_round_it_was_made(gm: GM) -> None:
    lines = _told(gm)
    at = next(i for i, line in enumerate(lines) if "fixed:" in line)
    assert lines[at - 1].startswith("Round 2: ") and lines[at + 1] == "  Cy checks"
    assert lines[at] == "  fixed: Ed's up card 7W is 8C (showing KS KP 6C 8C)"
    assert gm.json("hand", "history")["rounds"][1]["up"]["Ed"] == ["KS", "KP", "6C", "8C"]


def test_e135_s15_a_move_taken_back_is_told_so_with_its_chips(gm: GM) -> None:
    lines = _told(gm)
    assert "  Cy bets 2; taken back by Second Thoughts, 2 chips back to Cy" in lines
    move = gm.json("hand", "history")["rounds"][0]["steps"][4]  # four shown, then the bet
    assert (move["name"], move["action"], move["chips"], move["taken_back"]) == \
        ("Cy", "bet", 2, "Second Thoughts")


def test_e135_r13_a_raise_reads_as_the_raise_command_reads_it(gm: GM) -> None:
    lines = _told(gm)
    raised = next(c for c in gm.json("log")["commands"] if c["text"].startswith("raise"))
    assert raised["text"] == "raise Cy 3"
    assert "  Cy raises 3, to 4" in lines and "  Cy raises 4" not in lines
    move = next(s for r in gm.json("hand", "history")["rounds"] for s in r["steps"]
                if s["kind"] == "action" and s["action"] == "raise")
    assert (move["by"], move["to"], move["chips"]) == (3, 4, 4)


def test_e135_r11_a_split_pot_is_told_with_each_share(gm: GM) -> None:
    lines = _told(gm)
    assert lines[-1] == "main pot 11: Cy 6, Ed 5"
    pot = gm.json("hand", "history")["showdown"]["pots"][0]
    assert pot["shares"] == {"Cy": 6, "Ed": 5} and pot["winners"] == ["Cy", "Ed"]


def test_e136_the_wall_tells_no_card_slid_and_no_power_account(gm: GM, db: Path) -> None:
    lines = _told(gm)
    assert any("slides XX" in line for line in lines)
    gm("room", "replay", "1")
    replay = build_frame(db)["replay"]
    assert replay is not None
    wall = replay["lines"]
    assert not any("slides" in line for line in wall)
    assert "  Ed uses Second Thoughts on Cy" in wall  # what it did is told by the moves
    assert "  Cy bets 2; taken back by Second Thoughts, 2 chips back to Cy" in wall


def test_e135_s15_a_power_cancelled_is_told_so_where_it_was_used(gm: GM) -> None:
    gm("new", "--fool", "Max", *SEATS)
    for helper, soul, name, arcanum in GUESSES:
        gm("soul", "guess", helper, soul, "--name", name, "--arcanum", arcanum)
    gm("open-phase")
    gm("hand", "start")
    gm("hand", "show", "Cy: KC KW", "Ed: KS KP", "Ada: 5P 7C", "Max: AC 6W 7S QP")
    gm("power", "use", "Ada", "compulsion", "--access", "I", "--action", "bet 4")
    gm("power", "use", "Cy", "mistrial", "--access", "XI")
    gm("bet", "Cy", "3")  # Compulsion took no effect
    gm("fold", "Ed")
    gm("fold", "Ada")
    gm("hand", "showdown", "Cy: 6C 8C 9S PS", "Max: QW 10S 2P")
    lines = gm("hand", "history").output.splitlines()
    first = lines.index("Round 1: Cy KC KW; Ed KS KP; Ada 5P 7C; Max AC 6W 7S QP")
    assert lines[first + 1:first + 6] == [
        "  Ada slides I to the Fool for Compulsion",
        "  Ada uses Compulsion on Cy: Cy must bet 4 on this turn; cancelled by Mistrial before "
        "it took effect",
        "  Cy slides XI to the Fool for Mistrial",
        "  Cy uses Mistrial on Ada: Compulsion of Ada is cancelled before it takes effect; it is "
        "spent and its 2 Charges are lost",
        "  Cy bets 3"]
