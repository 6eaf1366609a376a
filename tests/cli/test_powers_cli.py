"""Every power of the default set at work in a real hand, through the console (R26, S11-S30).

The table: seats from the Fool's left Cy (III), Ed (VII), Ada (XVI); ten chips each, and three
Charges per side from their assistants' first correct guesses (R24). Up cards of round 1:
Cy 2C 5W, Ed 3S 9P, Ada 4C 8W, the Fool KC KW KS QP. The Fool holds no chips and never acts, so
Ed (nine high) opens (R9, R15) and the turn goes Ed, Ada, Cy. Each test works out by hand what
the power's text says the books, the turn, the showing hands and the pots are after it.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.cli.conftest import GM

SEATS = ["--seat", "Ada:XVI:red:Ben:IX", "--seat", "Cy:III:blue:Di:II",
         "--seat", "Ed:VII:green:Flo:XVII"]
# Bottled souls in seat order: the cobalt phial to Di, the amber bottle to Flo, the cracked
# green bottle to Ben (E14).
GUESSES = [("Di", "cobalt", "Houdini", "I"), ("Flo", "amber", "Catherine the Great", "III"),
           ("Ben", "green", "Thoreau", "IX")]
UP = {1: {"Cy": "2C 5W", "Ed": "3S 9P", "Ada": "4C 8W", "Fool": "KC KW KS QP"},
      2: {"Cy": "6S 7P", "Ed": "10C 4W", "Ada": "AS 6C", "Fool": "QW 10S"},
      3: {"Fool": "2S"}}
DOWN = {"Cy": "3C 9C PC", "Ed": "5S 7S AC", "Ada": "8C 2W QC", "Fool": ""}


# -- the table ----------------------------------------------------------------------------------


def table(gm: GM) -> None:
    """The table above, round 1 dealt (played once, ``GM.played``)."""
    gm.played("powers", _play_table)
    gm.forfeits = {}  # type: ignore[attr-defined]


def _play_table(gm: GM) -> None:
    gm("new", "--fool", "Fool", *SEATS)
    for helper, soul, name, arcanum in GUESSES:
        gm("soul", "guess", helper, soul, "--name", name, "--arcanum", arcanum)
    gm("hand", "start")
    for name, cards in UP[1].items():
        add_up(gm, name, cards)


def hand(gm: GM) -> dict[str, Any]:
    data: dict[str, Any] = gm.status()["hand"]
    return data


def add_up(gm: GM, name: str, cards: str) -> None:
    """The next up cards dealt to ``name`` (the console takes every up card so far)."""
    now = (gm.status()["hand"] or {}).get("showing", {}).get(name, [])
    gm("hand", "show", name, " ".join([*now, *cards.split()]))


def grant(gm: GM, who: str, power: str) -> dict[str, Any]:
    """``who`` slides the power's major face down to the Fool (R26)."""
    spec: dict[str, Any] = next(p for p in gm.json("power", "list")["powers"]
                                if p["name"] == power)
    gm("power", "access", who, spec["card"], spec["orientation"])
    gm.forfeits[who] = gm.forfeits.get(who, 0) + 1  # type: ignore[attr-defined]
    return spec


def use(gm: GM, who: str, power: str, *args: str) -> str:
    return str(gm("power", "use", who, power, *args).output)


def deal(gm: GM) -> None:
    """The cards of the next round for everyone still in who has not had them."""
    h = hand(gm)
    for name in h["missing_up"]:
        add_up(gm, name, UP[h["street"]].get(name, ""))


def check_round(gm: GM) -> None:
    """Everyone checks (or calls) until the round is over."""
    street = hand(gm)["street"]
    while (h := hand(gm)) and not h["betting_over"] and h["street"] == street:
        gm("call" if h["owes"] else "check", h["to_act"])


def finish(gm: GM) -> None:
    """Check or call the hand down to its showdown."""
    while (h := gm.status()["hand"]) is not None and not h["betting_over"]:
        if h["missing_up"]:
            deal(gm)
        else:
            gm("call" if h["owes"] else "check", h["to_act"])


def showdown(gm: GM, **cards: str) -> dict[str, Any]:
    """Every hand still in: its up and down cards (less the down cards given for powers),
    unless given."""
    finish(gm)
    h = hand(gm)
    shown = []
    for name in h["in"]:
        if name in cards:
            text = cards[name]
        else:
            down = DOWN[name].split()
            down = down[:len(down) - gm.forfeits.get(name, 0)]  # type: ignore[attr-defined]
            text = " ".join([*h["showing"][name], *down])
        shown.append(f"{name}: {text}")
    data = gm.json("hand", "showdown", *shown)
    event: dict[str, Any] = next(e for e in data["events"] if e["kind"] == "showdown")
    return event


def charges(gm: GM) -> dict[str, int]:
    data: dict[str, int] = gm.status()["charges"]
    return data


def used(gm: GM, power: str) -> bool:
    return bool(next(p for p in gm.json("power", "list")["powers"] if p["name"] == power)["used"])


# -- reversed powers: the players ---------------------------------------------------------------


def test_a_use_is_said_in_one_line_and_explain_reads_the_text(gm: GM) -> None:
    table(gm)
    text = grant(gm, "Ed", "Sent on an Errand")["text"]  # read aloud when it was granted
    out = use(gm, "Ed", "Sent on an Errand", "--target", "Ada")
    said, turn = [ln for ln in out.splitlines() if ln.strip()]  # the use, then the turn
    assert said.startswith("Ed uses Sent on an Errand on Ada, paying 2 Charges (R26)")
    assert turn.startswith("Hand 1, ") and "must fold at once" not in out
    gm("undo")
    out = gm("--explain", "power", "use", "Ed", "Sent on an Errand", "--target", "Ada").output
    assert out.splitlines()[0] == said and text in " ".join(out.split())


def test_s11_sent_on_an_errand_folds_the_target_at_once(gm: GM) -> None:
    table(gm)
    grant(gm, "Ed", "Sent on an Errand")
    assert "Ada folds at once" in use(gm, "Ed", "Sent on an Errand", "--target", "Ada")
    h = hand(gm)
    assert h["folded"] == ["Ada"] and h["to_act"] == "Ed" and h["moves"] == ["check", "bet"]
    assert charges(gm)["Ed"] == 1  # 3 - 2
    gm("bet", "Ed")
    h = hand(gm)
    assert h["to_act"] == "Cy" and h["pot"] == 1  # Ada is out; the Fool holds no chips
    assert "folded" in gm.fails("check", "Ada")


def test_s13_compulsion_names_the_move_of_the_player_to_act(gm: GM) -> None:
    table(gm)
    grant(gm, "Ada", "Compulsion")
    use(gm, "Ada", "Compulsion", "--action", "bet")
    h = hand(gm)
    assert h["to_act"] == "Ed" and h["moves"] == ["bet"]
    assert h["effects"] == ["Ed must bet: Compulsion"]
    line = gm.fails("check", "Ed")
    assert "Compulsion" in line and "S17" in line
    gm("bet", "Ed")
    h = hand(gm)
    assert h["pot"] == 1 and h["to_act"] == "Ada" and h["effects"] == []
    assert charges(gm)["Ada"] == 1


PRIVATE = [("Behind the Veil", ()), ("Open Book", ("--target", "Cy")),
           ("Confession", ("--target", "Ada")), ("Tryst", ("--target", "Cy")),
           ("Turn of the Wheel", ()), ("Wish Upon a Star", ()),
           ("Moonlit Glimpse", ("--target", "Ada"))]


@pytest.mark.parametrize(("power", "args"), PRIVATE)
def test_s28_private_powers_are_recorded_and_tell_the_gm(gm: GM, power: str,
                                                        args: tuple[str, ...]) -> None:
    table(gm)
    spec = grant(gm, "Ed", power)
    before = gm.status()
    out = use(gm, "Ed", power, *args)
    assert "privately" in out and "nothing changes in the books" in out
    after = gm.status()
    assert after["chips"] == before["chips"]
    assert after["hand"]["showing"] == before["hand"]["showing"]
    assert after["hand"]["to_act"] == "Ed" and after["hand"]["effects"] == []
    assert after["charges"]["Ed"] == 3 - spec["charges"]
    assert used(gm, power)
    log = gm.json("log")
    assert any(e.get("title") == power and e.get("target") == (args[1] if args else None)
               for c in log["commands"] for e in c["events"])


def test_s26_neglect_bars_the_assistant_to_the_end_of_the_next_hand(gm: GM) -> None:
    table(gm)
    grant(gm, "Cy", "Neglect")
    use(gm, "Cy", "Neglect", "--target", "Ada")
    line = gm.fails("soul", "study", "Ben", "green")
    assert "Neglect" in line and "S26" in line
    showdown(gm)
    assert "Neglect" in gm.fails("soul", "guess", "Ben", "green", "--arcanum", "X")
    gm("hand", "start")
    for name, cards in UP[1].items():
        add_up(gm, name, cards)
    gm.forfeits = {}  # type: ignore[attr-defined]
    assert "Neglect" in gm.fails("soul", "study", "Ben", "green")
    showdown(gm)
    assert "clue" in gm("soul", "study", "Ben", "green").output.lower()


def test_s17_iron_rule_comes_with_the_bet_and_stops_raises_this_round(gm: GM) -> None:
    table(gm)
    grant(gm, "Ed", "Iron Rule")
    use(gm, "Ed", "Iron Rule", "--action", "bet")
    h = hand(gm)
    assert h["pot"] == 1 and h["to_act"] == "Ada" and h["moves"] == ["call", "fold"]
    assert "no more raises this round: Iron Rule" in h["effects"]
    assert "Iron Rule" in gm.fails("raise", "Ada")
    gm("call", "Ada")
    gm("call", "Cy")
    assert gm.chips("Ed") == {"green": 9} and hand(gm)["pot"] == 3
    deal(gm)
    gm("bet", "Ed")  # round 2: Ed opens (ten high) and raising is allowed again
    assert hand(gm)["moves"] == ["call", "raise", "fold"] and hand(gm)["effects"] == []


def test_s21_exchange_of_vows_swaps_up_cards_and_the_turn_stays(gm: GM) -> None:
    table(gm)
    grant(gm, "Ed", "Exchange of Vows")
    use(gm, "Ed", "Exchange of Vows", "--card", "9P", "--target", "Ada", "--new", "8W")
    h = hand(gm)
    assert h["showing"]["Ed"] == ["3S", "8W"] and h["showing"]["Ada"] == ["4C", "9P"]
    assert h["to_act"] == "Ed"  # Ada now shows the nine, but Ed's turn had begun (S11, E3)
    check_round(gm)
    deal(gm)
    assert hand(gm)["to_act"] == "Ed"  # 3S 8W 10C 4W: ten high beats Ada's nine


def test_s21_onward_replaces_an_up_card_from_the_deck(gm: GM) -> None:
    table(gm)
    grant(gm, "Ed", "Onward")
    use(gm, "Ed", "Onward", "--card", "3S", "--new", "KnC")
    assert hand(gm)["showing"]["Ed"] == ["KnC", "9P"]
    line = gm.fails("hand", "fix", "Cy", "5W", "3S")
    assert "discarded" in line and "S21" in line
    result = showdown(gm, Ed="KnC 9P 10C 4W 5S 7S")
    assert result["best"]["Ed"]["cards"][0] == "KnC"


def test_s20_take_the_reins_opens_the_next_round(gm: GM) -> None:
    table(gm)
    grant(gm, "Cy", "Take the Reins")
    assert "S14" in gm.fails("power", "use", "Cy", "Take the Reins")  # round 1 is not over
    check_round(gm)
    use(gm, "Cy", "Take the Reins")
    deal(gm)
    h = hand(gm)
    assert h["to_act"] == "Cy"  # not Ed, whose ten is the highest showing
    assert "Cy opens this round: Take the Reins" in h["effects"]


def test_s23_hold_fast_keeps_cards_from_other_powers(gm: GM) -> None:
    table(gm)
    grant(gm, "Ada", "Hold Fast")
    use(gm, "Ada", "Hold Fast", "--card", "4C", "--card", "8W")
    grant(gm, "Ed", "Exchange of Vows")
    line = gm.fails("power", "use", "Ed", "Exchange of Vows", "--card", "9P", "--target",
                    "Ada", "--new", "8W")
    assert "Hold Fast" in line and "S23" in line
    assert not used(gm, "Exchange of Vows")


def test_s17_cowed_call_or_fold_without_raising(gm: GM) -> None:
    table(gm)
    gm("bet", "Ed")
    grant(gm, "Cy", "Cowed")
    use(gm, "Cy", "Cowed")  # on Ada, the stakeholder to act (S13)
    h = hand(gm)
    assert h["to_act"] == "Ada" and h["moves"] == ["call", "fold"]
    assert h["effects"] == ["Ada must call or fold (bet one chip or fold if no bet): Cowed"]
    assert "Cowed" in gm.fails("raise", "Ada")
    gm("call", "Ada")
    assert hand(gm)["effects"] == [] and hand(gm)["pot"] == 2 and charges(gm)["Cy"] == 2


def test_s17_cowed_with_no_bet_bets_one_chip_or_folds(gm: GM) -> None:
    table(gm)
    grant(gm, "Cy", "Cowed")
    use(gm, "Cy", "Cowed", "--target", "Ed")
    assert hand(gm)["moves"] == ["bet", "fold"]
    assert "Cowed" in gm.fails("check", "Ed")
    gm("bet", "Ed")
    assert hand(gm)["pot"] == 1 and gm.chips("Ed") == {"green": 9}


def test_s21_hood_the_lantern_turns_an_up_card_down(gm: GM) -> None:
    table(gm)
    grant(gm, "Ed", "Hood the Lantern")
    use(gm, "Ed", "Hood the Lantern", "--card", "9P")
    h = hand(gm)
    assert h["showing"]["Ed"] == ["3S"] and h["to_act"] == "Ed"
    assert charges(gm)["Ed"] == 3  # a free power
    check_round(gm)
    assert gm.fails("hand", "show", "Ed", "3S 10C 4W 5S")  # one of his four is face down
    gm("hand", "show", "Ed", "3S 10C 4W")
    assert "Ed" not in hand(gm)["missing_up"]


def test_s27_exile_rises_at_the_end_of_the_hand_and_sits_one_out(gm: GM) -> None:
    table(gm)
    grant(gm, "Ada", "Exile")
    use(gm, "Ada", "Exile", "--target", "Cy")
    assert "Cy rises when this hand ends: Exile" in [f["text"] for f in gm.status()["in_force"]]
    showdown(gm)
    seats = {s["name"]: s for s in gm.status()["seats"]}
    assert seats["Cy"]["seated"] is False
    line = gm.fails("sit", "Cy")
    assert "Exile" in line and "S27" in line
    gm("hand", "start")
    assert hand(gm)["in"] == ["Ed", "Ada", "Fool"]
    for name in ("Ed", "Ada", "Fool"):
        add_up(gm, name, UP[1][name])
    gm.forfeits = {}  # type: ignore[attr-defined]
    showdown(gm)
    gm("sit", "Cy")


def test_s20_fortune_reversed_opens_with_the_lowest_hand(gm: GM) -> None:
    table(gm)
    grant(gm, "Ada", "Fortune Reversed")
    check_round(gm)
    use(gm, "Ada", "Fortune Reversed")
    deal(gm)
    # Showing: Cy 2C 5W 6S 7P (seven high), Ed ten high, Ada eight high: Cy is lowest.
    assert hand(gm)["to_act"] == "Cy"


def test_s21_weighed_in_the_balance_turns_a_down_card_up_each(gm: GM) -> None:
    table(gm)
    grant(gm, "Ed", "Weighed in the Balance")
    use(gm, "Ed", "Weighed in the Balance", "--target", "Ada", "--card", "8C", "--new", "5S")
    h = hand(gm)
    assert h["showing"]["Ada"] == ["4C", "8W", "8C"] and h["showing"]["Ed"] == ["3S", "9P", "5S"]
    check_round(gm)
    deal(gm)
    assert hand(gm)["to_act"] == "Ada"  # her pair of eights shows highest


def test_s15_mistrial_cancels_a_power_and_its_charges_are_lost(gm: GM) -> None:
    table(gm)
    grant(gm, "Ed", "Sent on an Errand")
    grant(gm, "Ada", "Mistrial")
    use(gm, "Ed", "Sent on an Errand", "--target", "Ada")
    out = use(gm, "Ada", "Mistrial")
    assert "cancelled" in out
    h = hand(gm)
    assert h["folded"] == [] and h["to_act"] == "Ed"
    assert charges(gm) == {"Cy": 3, "Ed": 1, "Ada": 2}
    assert used(gm, "Sent on an Errand") and used(gm, "Mistrial")


def test_s15_mistrial_answers_only_at_once(gm: GM) -> None:
    table(gm)
    grant(gm, "Ed", "Behind the Veil")
    grant(gm, "Ada", "Mistrial")
    use(gm, "Ed", "Behind the Veil")
    gm("check", "Ed")
    assert "S15" in gm.fails("power", "use", "Ada", "Mistrial")


def test_s19_suspended_plays_as_if_all_in_with_side_pots(gm: GM) -> None:
    table(gm)
    gm("bet", "Ed")
    gm("call", "Ada")
    gm("call", "Cy")
    deal(gm)
    grant(gm, "Ed", "Suspended")
    use(gm, "Ed", "Suspended", "--target", "Cy")
    gm("bet", "Ed")
    gm("call", "Ada")  # Cy takes no action: the round is over
    h = hand(gm)
    assert h["street"] == 3 and h["all_in"] == ["Cy"]
    assert h["pots"] == [{"name": "main pot", "size": 3, "eligible": ["Cy", "Ed", "Ada", "Fool"]},
                         {"name": "side pot 1", "size": 2, "eligible": ["Ed", "Ada", "Fool"]}]
    assert gm.chips("Cy") == {"blue": 9} and gm.chips("Ed") == {"green": 8}


def test_s21_cut_down_kills_an_up_card(gm: GM) -> None:
    table(gm)
    grant(gm, "Ed", "Cut Down")
    use(gm, "Ed", "Cut Down", "--target", "Ada", "--card", "8W")
    assert "Ada's 8W is dead: Cut Down" in hand(gm)["effects"]
    result = showdown(gm)
    # 4C 8W AS 6C 8C 2W QC would pair the eights; without 8W it is queen high.
    assert result["best"]["Ada"]["category"] == "high_card"


def test_s16_the_reapers_toll_is_no_bet(gm: GM) -> None:
    table(gm)
    grant(gm, "Ed", "The Reaper's Toll")
    use(gm, "Ed", "The Reaper's Toll", "--fold", "Cy")
    h = hand(gm)
    assert h["folded"] == ["Cy"] and h["pot"] == 1 and h["bet"] == 0
    assert gm.chips("Ada") == {"red": 9} and h["to_act"] == "Ed"
    # Dead money, like an ante (R15): every player still in may win it, and it never goes
    # back as an uncalled bet.
    assert h["pots"] == [{"name": "main pot", "size": 1, "eligible": ["Ed", "Ada", "Fool"]}]
    assert h["uncalled"] == {}
    gm("check", "Ed")
    gm("check", "Ada")  # the toll counts towards no call: Ada owes nothing
    assert hand(gm)["street"] == 2
    result = showdown(gm)
    assert result["returned"] == {} and result["pots"][0]["winners"] == ["Fool"]
    assert gm.chips("Fool") == {"red": 1}


def test_s17_excess_must_raise(gm: GM) -> None:
    table(gm)
    gm("bet", "Ed")
    grant(gm, "Cy", "Excess")
    use(gm, "Cy", "Excess")
    assert hand(gm)["moves"] == ["raise"]
    assert "Excess" in gm.fails("call", "Ada")
    assert "Excess" in gm.fails("fold", "Ada")
    gm("raise", "Ada")
    assert hand(gm)["pot"] == 3 and gm.chips("Ada") == {"red": 8}


def test_s17_chained_may_not_fold_this_round(gm: GM) -> None:
    table(gm)
    grant(gm, "Ed", "Chained")
    use(gm, "Ed", "Chained", "--target", "Ada")
    gm("bet", "Ed")
    assert hand(gm)["moves"] == ["call", "raise"]
    assert "Chained" in gm.fails("fold", "Ada")
    gm("call", "Ada")
    gm("call", "Cy")
    deal(gm)
    gm("bet", "Ed")
    gm("fold", "Ada")  # a new round: Ada may fold again
    assert hand(gm)["folded"] == ["Ada"]


def test_s21_lightning_strike_replaces_the_highest_up_card(gm: GM) -> None:
    table(gm)
    grant(gm, "Ed", "Lightning Strike")
    use(gm, "Ed", "Lightning Strike", "--target", "Ada", "--new", "KnS")
    assert hand(gm)["showing"]["Ada"] == ["4C", "KnS"]  # the eight was her highest
    assert "discarded" in gm.fails("hand", "fix", "Cy", "5W", "8W")


def test_s24_downfall_loses_a_random_unused_power_reproducibly(gm: GM) -> None:
    table(gm)
    grant(gm, "Ada", "Hold Fast")   # VIII-upright
    grant(gm, "Ada", "Eclipse")     # XIX-reversed
    grant(gm, "Cy", "Downfall")
    out = use(gm, "Cy", "Downfall", "--target", "Ada", "--seed", "7")
    # Seed 7 draws index 1 of Ada's unused powers in key order: VIII-upright, XIX-reversed,
    # named by its name and card (E57).
    assert "Ada loses Eclipse (XIX reversed), drawn at random (seed 7)" in out
    assert "XIX-reversed" not in out
    assert used(gm, "Eclipse") and not used(gm, "Hold Fast")
    assert gm.fails("power", "use", "Ada", "Eclipse", "--target", "Cy") == (
        "error: Eclipse was already lost to Downfall; a power is used once (R26, E57); "
        "`referee power list` shows what is left")
    assert charges(gm)["Cy"] == 2


def test_s25_ill_star_makes_the_next_power_dearer(gm: GM) -> None:
    table(gm)
    grant(gm, "Ada", "Ill Star")
    use(gm, "Ada", "Ill Star", "--target", "Ed")
    assert "Ed's next power costs 1 Charge more: Ill Star" in [
        f["text"] for f in gm.status()["in_force"]]
    grant(gm, "Ed", "Behind the Veil")
    use(gm, "Ed", "Behind the Veil")
    assert charges(gm) == {"Cy": 3, "Ed": 1, "Ada": 3}  # 1 + 1 from Ed, Ill Star is free
    assert gm.status()["in_force"] == []


def test_s21_daylight_turns_a_down_card_up(gm: GM) -> None:
    table(gm)
    grant(gm, "Ed", "Daylight")
    use(gm, "Ed", "Daylight", "--target", "Ada", "--card", "8C")
    assert hand(gm)["showing"]["Ada"] == ["4C", "8W", "8C"]
    check_round(gm)
    deal(gm)  # Ada now shows five up cards: two dealt, one turned, two dealt
    assert hand(gm)["showing"]["Ada"] == ["4C", "8W", "8C", "AS", "6C"]
    assert hand(gm)["to_act"] == "Ada"


def test_s14_eclipse_forbids_bets_in_the_next_round(gm: GM) -> None:
    table(gm)
    grant(gm, "Cy", "Eclipse")
    check_round(gm)
    use(gm, "Cy", "Eclipse", "--target", "Ed")
    deal(gm)
    h = hand(gm)
    assert h["to_act"] == "Ed" and h["moves"] == ["check", "fold"]
    assert "Eclipse" in gm.fails("bet", "Ed")
    gm("check", "Ed")
    gm("bet", "Ada")
    gm("call", "Cy")
    assert hand(gm)["moves"] == ["call", "fold"]
    gm("call", "Ed")
    deal(gm)
    gm("bet", "Ed")  # round 3: Ed may bet again


def test_s21_the_last_trumpet_turns_a_card_up_for_everyone(gm: GM) -> None:
    table(gm)
    grant(gm, "Ed", "The Last Trumpet")
    assert "each of" in gm.fails("power", "use", "Ed", "The Last Trumpet", "--card", "Ed:5S")
    use(gm, "Ed", "The Last Trumpet", "--card", "Ed:5S", "--card", "Ada:8C", "--card", "Cy:3C")
    showing = hand(gm)["showing"]
    assert (showing["Ed"], showing["Ada"], showing["Cy"]) == (
        ["3S", "9P", "5S"], ["4C", "8W", "8C"], ["2C", "5W", "3C"])
    assert showing["Fool"] == ["KC", "KW", "KS", "QP"]  # never the Fool's hand (S7)


def test_s15_second_thoughts_takes_the_bet_back(gm: GM) -> None:
    table(gm)
    grant(gm, "Ada", "Second Thoughts")
    gm("bet", "Ed")
    use(gm, "Ada", "Second Thoughts")
    h = hand(gm)
    assert h["pot"] == 0 and gm.chips("Ed") == {"green": 10}
    assert h["to_act"] == "Ed" and h["moves"] == ["check", "fold"]
    assert "Second Thoughts" in gm.fails("bet", "Ed")
    gm("check", "Ed")
    assert hand(gm)["to_act"] == "Ada"


def test_s21_the_dance_discards_an_up_card(gm: GM) -> None:
    table(gm)
    grant(gm, "Ed", "The Dance")
    use(gm, "Ed", "The Dance", "--card", "3S")
    assert hand(gm)["showing"]["Ed"] == ["9P"]
    assert "discarded" in gm.fails("hand", "fix", "Cy", "5W", "3S")


def test_s18_standstill_with_nothing_owed_checks(gm: GM) -> None:
    table(gm)
    grant(gm, "Cy", "Standstill")
    out = use(gm, "Cy", "Standstill")
    assert "Ed checks" in out
    assert hand(gm)["to_act"] == "Ada"


def test_s18_standstill_owing_passes_and_comes_back(gm: GM) -> None:
    table(gm)
    gm("bet", "Ed")
    grant(gm, "Cy", "Standstill")
    use(gm, "Cy", "Standstill")
    assert hand(gm)["to_act"] == "Cy"  # the action passes Ada (the Fool holds no chips)
    gm("call", "Cy")
    h = hand(gm)
    assert h["to_act"] == "Ada" and h["moves"] == ["call", "fold"]
    assert "Standstill" in gm.fails("raise", "Ada")
    gm("call", "Ada")
    assert hand(gm)["street"] == 2 and hand(gm)["pot"] == 3


# -- upright powers: magic at the showdown (R8, S22) --------------------------------------------


MAGIC = [
    # power, its arguments, Ada's six cards (one down card went for the power), what she plays
    ("The Leap", ("--card", "2W", "--as", "8S"), "4C 8W AS 6C 8C 2W", "three_of_a_kind"),
    ("As Above, So Below", ("--card", "2W", "--as", "8W"), "4C 8W AS 6C 8C 2W",
     "three_of_a_kind"),
    ("Abundance", ("--card", "2W", "--as", "8C"), "4C 8W AS 6C 8C 2W", "three_of_a_kind"),
    ("Royal Decree", ("--card", "2W"), "4C 8W AS 6C 8C 2W", "pair"),
    ("Conversion", ("--card", "XX", "--as", "8S"), "4C 8W AS 6C 8C XX", "three_of_a_kind"),
    ("Upside Down", ("--card", "2W"), "4C 8W AS 6C 8C 2W", "pair"),
    ("Mingling the Waters", ("--card", "8W", "--as", "8C"), "4C 8W AS 6C 8C QC", "flush"),
    ("Counterfeit", ("--card", "2W", "--target", "Ed", "--as", "9P"), "4C 8W AS 6C 8C 2W",
     "pair"),
    ("Waxing and Waning", ("--card", "2W", "--as", "3W"), "4C 8W AS 6C 8C 2W", "pair"),
]
COUNTED = {"Royal Decree": "KW", "Upside Down": "QW", "Counterfeit": "9P",
           "Waxing and Waning": "3W"}


@pytest.mark.parametrize(("power", "args", "cards", "category"), MAGIC)
def test_s22_magic_counts_at_the_showdown(gm: GM, power: str, args: tuple[str, ...],
                                          cards: str, category: str) -> None:
    table(gm)
    grant(gm, "Ada", power)
    finish(gm)  # every card dealt: the cards it names are in Ada's hand (E56)
    use(gm, "Ada", power, *args)
    assert any(power in t for t in hand(gm)["effects"])
    result = showdown(gm, Ada=cards)
    best = result["best"]["Ada"]
    assert best["category"] == category  # without the power: a pair of eights (or a pair)
    if power in COUNTED:
        assert COUNTED[power] in best["cards"]


BAD_MAGIC = [
    ("As Above, So Below", ("--card", "2W", "--as", "8C")),       # another suit
    ("Royal Decree", ("--card", "XX")),                           # a major
    ("Conversion", ("--card", "2W", "--as", "8S")),                # a minor
    ("Mingling the Waters", ("--card", "8W", "--as", "9C")),      # another rank
    ("Counterfeit", ("--card", "2W", "--target", "Ed", "--as", "5S")),   # not Ed's up card
    ("Waxing and Waning", ("--card", "2W", "--as", "5W")),        # not next to it
    ("The Leap", ("--card", "KC", "--as", "8S")),                 # the Fool's up card
]


@pytest.mark.parametrize(("power", "args"), BAD_MAGIC)
def test_s22_magic_outside_the_powers_text_is_refused(gm: GM, power: str,
                                                      args: tuple[str, ...]) -> None:
    table(gm)
    grant(gm, "Ada", power)
    gm.fails("power", "use", "Ada", power, *args)
    assert not used(gm, power)


def test_s22_the_magic_card_must_be_in_the_showdown_hand(gm: GM) -> None:
    table(gm)
    grant(gm, "Ada", "Royal Decree")
    use(gm, "Ada", "Royal Decree", "--card", "2W")
    finish(gm)
    line = gm.fails("hand", "showdown", "Cy: 2C 5W 6S 7P 3C 9C PC", "Ed: 3S 9P 10C 4W 5S 7S AC",
                    "Ada: 4C 8W AS 6C 8C QC", "Fool: KC KW KS QP QW 10S 2S")
    assert "Ada's hand holds 2W" in line and "named by Royal Decree" in line and "R44" in line
    line = gm.fails("hand", "showdown", "Cy: 2C 5W 6S 7P 3C 9C PC", "Ed: 3S 9P 10C 4W 5S 7S AC",
                    "Ada: 4C 8W AS 6C 8C QC", "Fool: KC KW KS QP QW 10S 2S", "--magic")
    assert "S22" in line and "lacks 2W" in line


# -- timing (S11-S15) ---------------------------------------------------------------------------


def test_s11_own_turn_refused_off_turn_and_after_the_betting(gm: GM) -> None:
    table(gm)
    grant(gm, "Ada", "Sent on an Errand")
    line = gm.fails("power", "use", "Ada", "Sent on an Errand", "--target", "Cy")
    assert "Ed is to act" in line and "S11" in line
    finish(gm)
    assert "over" in gm.fails("power", "use", "Ada", "Sent on an Errand", "--target", "Cy")


def test_s13_before_turn_refused_on_ones_own_turn_and_on_another(gm: GM) -> None:
    table(gm)
    grant(gm, "Ed", "Cowed")
    grant(gm, "Cy", "Standstill")
    assert "S13" in gm.fails("power", "use", "Ed", "Cowed")
    assert "S13" in gm.fails("power", "use", "Cy", "Standstill", "--target", "Ada")


def test_s14_round_end_refused_in_the_first_round_and_once_a_round_opened(gm: GM) -> None:
    table(gm)
    grant(gm, "Ada", "Fortune Reversed")
    assert "S14" in gm.fails("power", "use", "Ada", "Fortune Reversed")
    check_round(gm)
    deal(gm)
    gm("check", "Ed")
    assert "S14" in gm.fails("power", "use", "Ada", "Fortune Reversed")


def test_s29_any_time_and_before_showdown_refused_between_hands(gm: GM) -> None:
    table(gm)
    grant(gm, "Ada", "Ill Star")
    grant(gm, "Ada", "Upside Down")
    showdown(gm)
    assert "S29" in gm.fails("power", "use", "Ada", "Ill Star", "--target", "Ed")
    assert "S29" in gm.fails("power", "use", "Ada", "Upside Down", "--card", "2W")


def test_s15_answers_refused_with_nothing_to_answer(gm: GM) -> None:
    table(gm)
    grant(gm, "Ada", "Second Thoughts")
    grant(gm, "Ada", "Mistrial")
    gm("check", "Ed")
    assert "S15" in gm.fails("power", "use", "Ada", "Second Thoughts")
    assert "S15" in gm.fails("power", "use", "Ada", "Mistrial")
    gm("bet", "Ada")
    assert "S15" in gm.fails("power", "use", "Ada", "Second Thoughts")  # her own bet


def test_s12_a_power_refuses_what_it_does_not_ask_for(gm: GM) -> None:
    table(gm)
    grant(gm, "Ed", "Onward")
    assert "takes no --target" in gm.fails("power", "use", "Ed", "Onward", "--card", "3S",
                                           "--new", "KnC", "--target", "Ada")
    assert "needs --new" in gm.fails("power", "use", "Ed", "Onward", "--card", "3S")


def test_s7_powers_never_touch_the_fool(gm: GM) -> None:
    table(gm)
    grant(gm, "Ed", "Cut Down")
    assert "S7" in gm.fails("power", "use", "Ed", "Cut Down", "--target", "Fool", "--card", "KC")


# -- undo, log, status ---------------------------------------------------------------------------


def test_e13_undo_of_a_power_restores_everything(gm: GM) -> None:
    table(gm)
    grant(gm, "Ada", "Second Thoughts")
    gm("bet", "Ed")
    before = gm.status()
    use(gm, "Ada", "Second Thoughts")
    assert gm.status() != before
    gm("undo")
    assert gm.status() == before


def test_s17_log_and_status_show_the_power_its_target_and_effect(gm: GM) -> None:
    table(gm)
    grant(gm, "Ed", "Chained")
    use(gm, "Ed", "Chained", "--target", "Ada")
    out = gm("log").output
    assert "Chained" in out and "Ada may not fold this round" in out
    assert "Ada may not fold this round: Chained" in gm("status").output


def test_s17_watch_shows_what_binds_the_next_actions(gm: GM) -> None:
    table(gm)
    grant(gm, "Ed", "Iron Rule")
    use(gm, "Ed", "Iron Rule", "--action", "bet")
    grant(gm, "Cy", "Cowed")
    use(gm, "Cy", "Cowed")
    out = gm("watch", "--once").output
    assert "In force: no more raises this round: Iron Rule" in out
    assert "Ada must call or fold" in out and "Cowed" in out
    assert gm.status()["hand"]["moves"] == ["call", "fold"]


def test_s15_mistrial_of_iron_rule_leaves_the_bet_and_lifts_the_cap(gm: GM) -> None:
    table(gm)
    grant(gm, "Ed", "Iron Rule")
    grant(gm, "Ada", "Mistrial")
    use(gm, "Ed", "Iron Rule", "--action", "bet")
    use(gm, "Ada", "Mistrial")
    h = hand(gm)
    assert h["pot"] == 1 and h["to_act"] == "Ada"  # the bet was Ed's own action: it stands
    assert h["moves"] == ["call", "raise", "fold"] and h["effects"] == []
    assert charges(gm) == {"Cy": 3, "Ed": 1, "Ada": 2}


def test_s15_mistrial_of_standstill_gives_the_turn_back(gm: GM) -> None:
    table(gm)
    grant(gm, "Cy", "Standstill")
    grant(gm, "Ada", "Mistrial")
    use(gm, "Cy", "Standstill")  # Ed's check is played for him
    assert hand(gm)["to_act"] == "Ada"
    use(gm, "Ada", "Mistrial")
    h = hand(gm)
    assert h["to_act"] == "Ed" and h["moves"] == ["check", "bet"]
    assert used(gm, "Standstill") and used(gm, "Mistrial")
