"""Where a power meets the betting of the open phase (R13, R14, R15): a power that folds the
player whose bet stood, Sent on an Errand or The Reaper's Toll (E285, S16), or suspends the
last player able to bet (S19), and the pot the folded chips lie in (E286)."""

from __future__ import annotations

from tests.cli.conftest import GM

TABLE = ["--fool", "Fay", "--seat", "Abe:I:red:Ann:II", "--seat", "Bea:III:blue:Bob:IV",
         "--seat", "Cal:V:green:Cat:VI"]


#: Souls the assistants guess right, two Charges each for their side (R24).
CHARGES = {"Cal": ("Cat", "green", "thoreau"), "Abe": ("Ann", "amber", "catherine the great")}
DEALT = ("Abe: 2C 3W", "Bea: 4C 5W", "Cal: 6C 7W", "Fay: AC 8P 9S 10S")


def _open_hand(gm: GM, *charged: str, shown: tuple[str, ...] = DEALT) -> None:
    """The open phase at the table, the Fool without chips, a hand dealt and its round 1 up
    cards ``shown``; the sides of ``charged`` with two Charges each from a soul guessed."""
    gm("new", *TABLE)
    for side in charged:
        helper, soul, name = CHARGES[side]
        gm("soul", "guess", helper, soul, "--name", name)
    gm("open-phase")
    gm("hand", "start")
    gm("hand", "show", *shown)


def _errand_on_the_bettor(gm: GM) -> None:
    """Open phase, the Fool without chips: Cal checks, Abe bets 1, Bea folds, and Cal, with two
    Charges from a soul guessed, sends Abe on an Errand."""
    _open_hand(gm, "Cal")
    gm("check")
    gm("bet", "Abe", "1")
    gm("fold", "Bea")
    gm("power", "use", "Cal", "errand", "--target", "Abe", "--access", "0")


def test_e285_a_bet_folded_by_a_power_is_owed_by_nobody(gm: GM) -> None:
    """E285, R15: Abe's chip stays in the pot, but no live player made that bet: Cal owes
    nothing and is not offered a call of it."""
    _errand_on_the_bettor(gm)
    hand = gm.status()["hand"]
    assert hand["bet"] == 0 and hand.get("owes", 0) == 0
    assert hand["betting_over"] and hand["to_act"] is None  # R14: nobody left to bet against
    pots = gm.status()["hand"]["pots"]
    assert sum(p["size"] for p in pots) == 4  # three antes and Abe's chip: it stays in


def test_e286_the_folded_bettors_chips_go_to_the_pot_they_were_bet_into(gm: GM) -> None:
    """E286, R15: no live player matched Abe's chip, yet it is no pot of the Fool's alone: it
    lies in the pot Cal and the Fool play for, and Cal's two pair takes all four chips."""
    _errand_on_the_bettor(gm)
    pots = gm.status()["hand"]["pots"]
    assert [(p["size"], p["eligible"]) for p in pots] == [(4, ["Cal", "Fay"])]
    out = gm("hand", "showdown", "Cal: AS AW KS KP", "Fay: 2S 3S 4P").output
    assert "Side pot" not in out
    chips = gm.status()["chips"]
    assert chips["Cal"] == {"blue": 1, "green": 10, "red": 2} and chips["Fay"] == {}


def test_e285_a_bettor_who_folds_rather_than_pay_the_toll_is_owed_by_nobody(gm: GM) -> None:
    """E285, S16: The Reaper's Toll folds the bettor as Sent on an Errand does: Abe folds
    rather than pay, his three chips stay in the pot, and Cal owes nothing."""
    _open_hand(gm, "Cal")
    gm("check")
    gm("bet", "Abe", "3")
    gm("fold", "Bea")
    out = gm("power", "use", "Cal", "toll", "--fold", "Abe", "--access", "XIII").output
    assert "nobody pays; Abe folds" in out
    hand = gm.status()["hand"]
    assert hand["bet"] == 0 and hand.get("owes", 0) == 0 and hand["betting_over"]
    assert [(p["size"], p["eligible"]) for p in hand["pots"]] == [(6, ["Cal", "Fay"])]


def test_e285_a_bet_a_live_player_called_is_still_owed(gm: GM) -> None:
    """E285: Bea called Abe's three chips, so the bet is a live player's: folding Abe leaves
    Cal owing three, to call or fold, and the betting goes on."""
    _open_hand(gm, "Cal")
    gm("check")
    gm("bet", "Abe", "3")
    gm("call", "Bea")
    gm("power", "use", "Cal", "errand", "--target", "Abe", "--access", "0")
    hand = gm.status()["hand"]
    assert hand["bet"] == 3 and hand["owes"] == 3 and hand["to_act"] == "Cal"
    assert not hand["betting_over"]


def test_e286_a_suspended_player_does_not_win_the_folded_bet_made_after(gm: GM) -> None:
    """E286, S19: Bea, Suspended, plays for the pot as it stood; Abe bets three after, and Cal
    sends him on an Errand: Abe's chips are for Cal and the Fool, not for Bea's full house."""
    _open_hand(gm, "Cal", "Abe")
    gm("check")
    gm("power", "use", "Abe", "suspended", "--target", "Bea", "--access", "XII")
    gm("bet", "Abe", "3")
    gm("power", "use", "Cal", "errand", "--target", "Abe", "--access", "0")
    pots = gm.status()["hand"]["pots"]
    assert [(p["size"], p["eligible"]) for p in pots] == [
        (3, ["Bea", "Cal", "Fay"]), (3, ["Cal", "Fay"])]
    gm("hand", "showdown", "Bea: AS AW AP KS KP", "Cal: 2S 3S 5P 9W", "Fay: 2P 3P 4P")
    chips = gm.status()["chips"]
    assert chips["Bea"] == {"blue": 10, "green": 1, "red": 1} and chips["Fay"] == {"red": 3}


def test_e285_suspending_the_last_player_able_to_bet_ends_the_betting(gm: GM) -> None:
    """E285, R14, S19: Abe suspends Bea, the only other stakeholder; the Fool holds no chips.
    Nobody is left to bet against: the betting is over, Abe is not offered a bet."""
    gm("new", "--fool", "Fay", "--seat", "Abe:I:red:Ann:II", "--seat", "Bea:III:blue:Bob:IV")
    gm("soul", "guess", "Ann", "amber", "--name", "catherine the great")
    gm("open-phase")
    gm("hand", "start")
    gm("hand", "show", "Abe: KC KW", "Bea: 4C 5W", "Fay: 2C 8P 9S 10S")
    gm("power", "use", "Abe", "suspended", "--target", "Bea", "--access", "XII")
    hand = gm.status()["hand"]
    assert hand["betting_over"] and hand["to_act"] is None


def test_e290_a_forced_raise_all_is_met_by_its_chips_however_named(gm: GM) -> None:
    """E290, E163, R14: Cal holds 8 and owes 7, and Compulsion forces him to raise all: his
    `raise 1` puts in the very same eight chips and is that raise, not one of another size."""
    _open_hand(gm, "Abe")
    for _ in range(3):
        gm("fold")
    gm("hand", "start")
    gm("hand", "show", "Abe: 2C 3W", "Bea: KC KW", "Cal: 6C 7W", "Fay: QC QP 9S 10S")
    gm("bet", "Bea", "7")
    gm("power", "use", "Abe", "compulsion", "--action", "raise all", "--access", "I")
    out = gm("raise", "Cal", "1").output
    assert "Cal raises, putting in 8 and is all-in (R14)" in out
    hand = gm.status()["hand"]
    assert hand["bet"] == 8 and hand["to_act"] == "Abe"  # the Fool called his three
    chips = gm.status()["chips"]
    assert chips["Cal"] == {} and chips["Fay"] == {}
    assert sum(sum(c.values()) for c in chips.values()) == 30  # held and in the pot


def test_s17_compulsion_names_no_raise_to_a_stack_that_can_only_call(gm: GM) -> None:
    """S17, R14, E163: Cal holds 8 and owes 8, so the rules leave him call or fold: Compulsion
    naming a raise is refused saying so, each move offered once, and nothing is recorded."""
    _open_hand(gm, "Abe", shown=("Abe: 2C 3W", "Bea: KC KW", "Cal: 6C 7W", "Fay: AC 8P 9S 10S"))
    gm("bet", "Bea", "9")
    line = gm.fails("power", "use", "Abe", "compulsion", "--action", "raise all",
                    "--access", "I")
    assert "the rules leave no raise here; action open to Cal: call or fold" in line
    assert "(call/fold)" in gm.fails("power", "use", "Abe", "compulsion", "--access", "I")
    out = gm("power", "use", "Abe", "compulsion", "--action", "call", "--access", "I").output
    assert "Cal must call on this turn" in out
    assert "Cal calls 9 and is all-in (R14)" in gm("call", "Cal").output
