"""What the console says against what it then holds: what each player paid, as it was paid
(E280, S16); the rulings a dry run names (E133); the cards on the table once the betting is
over (E281); what an amendment recorded (E138)."""

from __future__ import annotations

from tests.cli.conftest import GM
from tests.cli.test_powers_meet_rules_cli import TABLE, _dealt


def _players(gm: GM) -> dict[str, dict[str, object]]:
    return {p["name"]: p for p in gm.status()["hand"]["players"]}


def test_e280_a_toll_is_told_as_a_toll_never_as_an_ante(gm: GM) -> None:
    """E280, S16, R12: in the limit phase nobody antes; Bea's Reaper's Toll takes a chip from
    Abe and Cal. `status --json` said each had paid an ante of 1."""
    _dealt(gm)
    gm("check")
    out = gm("power", "use", "Bea", "reaper's toll", "--access", "XIII").output
    assert "toll of 1 chip into the pot, no bet: Abe, Cal pay" in out
    players = _players(gm)
    assert players["Abe"]["ante"] == 0, "no ante in the limit phase (R12)"
    assert {n: (p["ante"], p["toll"], p["hand"]) for n, p in players.items()} == {
        "Abe": (0, 1, 1), "Bea": (0, 0, 0), "Cal": (0, 1, 1), "Fay": (0, 0, 0)}


def test_e280_an_ante_and_a_toll_are_told_apart(gm: GM) -> None:
    """E280, R13, S16: in the open phase Abe antes 1 and pays Bea's toll of 1: two dead chips,
    one of them an ante."""
    gm("new", "--fool", "Fay", "--seat", "Abe:I:red:Ann:II", "--seat", "Bea:III:blue:Bob:IV",
       "--seat", "Cal:V:green:Cat:VI")
    gm("soul", "guess", "Bob", "amber", "--name", "catherine the great")
    gm("open-phase")
    gm("hand", "start")
    gm("hand", "show", "Abe: KC KW", "Bea: 4C 5W", "Cal: 6C 7W", "Fay: AC 8P 9S 10S")
    gm("check")
    gm("power", "use", "Bea", "reaper's toll", "--access", "XIII")
    players = _players(gm)
    assert {n: (p["ante"], p["toll"], p["hand"]) for n, p in players.items()} == {
        "Abe": (1, 1, 2), "Bea": (1, 0, 1), "Cal": (1, 1, 2), "Fay": (0, 0, 0)}
    gm("undo")
    assert {p["toll"] for p in _players(gm).values()} == {0}


def test_e133_a_dry_run_bet_in_the_open_phase_names_r13_not_r12(gm: GM) -> None:
    """E133, R12, R13: a dry run names the rulings its move applies; a bet of 3 in the open
    phase is R13's bet at will. It named R12, the limit phase's one chip."""
    gm("new", "--fool", "Fay", "--seat", "Abe:I:red:Ann:II", "--seat", "Bea:III:blue:Bob:IV")
    gm("open-phase")
    gm("hand", "start")
    gm("hand", "show", "Abe: KC KW", "Bea: 4C 5W", "Fay: AC 8P 9S 10S")
    assert gm.json("--dry-run", "bet", "3")["rulings"] == ["R9", "R13", "R11"]
    assert "Rulings: R9, R13, R11" in gm("--dry-run", "bet", "3").output


def test_e281_betting_over_after_round_1_is_told_after_four_cards(gm: GM) -> None:
    """E281, R14: Bea and Cal all-in and Abe folded in round 1: betting is over with four
    cards each on the table. It was told "after six cards" (street 2) before any was dealt."""
    gm("new", *TABLE)
    gm("open-phase")
    gm("hand", "start")
    gm("hand", "show", "Abe: KC KW", "Bea: 4C 5W", "Cal: 6C 7W", "Fay: AC 8P 9S 10S")
    gm("bet", "5")
    gm("raise", "all")
    gm("call")
    out = gm("fold").output
    assert "Hand 1, after four cards: bet 0. Betting is over" in out
    assert gm.status()["hand"]["street"] == 1
    out = gm("hand", "show", "Fay: +2W 3W").output
    assert "Hand 1, after six cards: bet 0. Betting is over" in out
    assert gm.status()["hand"]["street"] == 2


def test_s16_a_toll_no_one_can_pay_says_so_and_names_who_was_passed(gm: GM) -> None:
    """S16, E262: Abe and Bea are all-in and Cal folded; Dee's toll takes nothing and passes
    both over. It said "toll of 1 chip into the pot, no bet: nobody pay", naming no one."""
    gm("new", *TABLE, "--seat", "Dee:VII:white:Dan:VIII")
    gm("soul", "guess", "Dan", "green", "--name", "thoreau")
    gm("open-phase")
    gm("hand", "start")
    gm("hand", "show", "Abe: KC KW", "Bea: 4C 5W", "Cal: 6C 7W", "Dee: 2C 2W",
       "Fay: AC 8P 9S 10S")
    gm("bet", "9")
    gm("call")
    gm("fold")
    before = gm.status()["chips"]
    out = gm("power", "use", "Dee", "reaper's toll", "--access", "XIII").output
    assert ("toll of 1 chip into the pot, no bet: nobody pays; Abe, Bea passed over, all-in "
            "or Suspended (S16)") in out
    assert gm.status()["chips"] == before
    assert {p["toll"] for p in _players(gm).values()} == {0}


def test_e138_an_amendment_recorded_names_what_it_amended_and_what_it_dropped(gm: GM) -> None:
    """E138, E140: #9 (Bea's call) amended to a fold and #8 (a guess) dropped: the answer said
    "#8 is amended", the first command it reached, and nothing of #9."""
    _dealt(gm)  # commands #1-#6
    gm("bet")  # 7
    gm("soul", "guess", "Bob", "cobalt", "--arcanum", "XXI")  # 8
    gm("call")  # 9
    out = gm("amend", "9", "--drop", "8", "--yes", "--", "fold").output
    assert "Recorded: #9 is amended, #8 is dropped;" in out
    assert gm.status()["hand"]["folded"] == ["Bea"]
