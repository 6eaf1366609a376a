"""Whole hands replayed through the console, every stack checked by colour (R9-R18)."""

from __future__ import annotations

from tests.cli.conftest import GM

THREE = ["--seat", "Ada:XVI:red", "--seat", "Cy:III:blue:Di:II", "--seat", "Ed:VII:green"]


def _new(gm: GM, *seats: str) -> None:
    gm("new", "--fool", "Fool", *(seats or THREE))


def test_r9_seats_run_from_the_fools_left_in_arcanum_order(gm: GM) -> None:
    _new(gm)
    assert [s["name"] for s in gm.status()["seats"]] == ["Cy", "Ed", "Ada"]
    assert gm.chips("Ada") == {"red": 10}


def test_r15_fool_wins_a_pot_he_put_nothing_into(gm: GM) -> None:
    _new(gm)
    gm("hand", "start")
    gm("hand", "show", "Cy", "2C 5W")
    gm("hand", "show", "Ed", "3S 9P")
    gm("hand", "show", "Ada", "4C 8W")
    gm("hand", "show", "Fool", "KC KW KS QP")
    # The Fool shows the high hand but holds no chips: Ed (nine high) opens (R15, R9).
    assert gm.status()["hand"]["to_act"] == "Ed"
    assert "not Cy's turn: Ed is to act" in gm.fails("bet", "Cy")
    gm("bet", "Ed")
    gm("call", "Ada")
    gm("call", "Cy")
    hand = gm.status()["hand"]
    assert hand["street"] == 2 and hand["pot"] == 3
    for name, up in (("Cy", "2C 5W 6S 7P"), ("Ed", "3S 9P 10C 4W"), ("Ada", "4C 8W AS 6C")):
        gm("hand", "show", name, up)
    gm("hand", "show", "Fool", "KC KW KS QP QW 10S")
    for name in ("Ed", "Ada", "Cy"):
        gm("check", name)
    gm("hand", "show", "Fool", "KC KW KS QP QW 10S 2S")
    for name in ("Ed", "Ada", "Cy"):
        gm("check", name)
    assert gm.status()["hand"]["betting_over"]
    out = gm("hand", "showdown", "Cy: 2C 5W 6S 7P 3C 9C PC", "Ed: 3S 9P 10C 4W 5S 7S AC",
             "Ada: 4C 8W AS 6C 8C 2W QC", "Fool: KC KW KS QP QW 10S 2S").output
    assert "Fool" in out and "Full house" in out
    assert gm.chips("Fool") == {"blue": 1, "green": 1, "red": 1}
    assert gm.chips("Cy") == {"blue": 9}
    assert gm.status()["hand"] is None


def test_r15_fool_is_forced_to_call_and_goes_all_in(gm: GM) -> None:
    test_r15_fool_wins_a_pot_he_put_nothing_into(gm)  # the Fool now holds 3 chips
    gm("hand", "start")
    gm("hand", "show", "Cy", "KnC KnW")
    gm("hand", "show", "Ed", "2S 3S")
    gm("hand", "show", "Ada", "4S 5S")
    gm("hand", "show", "Fool", "2P 7C 9W PP")
    gm("bet", "Cy")
    gm("raise", "Ed")
    out = gm("call", "Ada").output
    assert "Fool calls 2" in out and "forced" in out  # R15: he must call while he has chips
    assert "console plays the Fool" in gm.fails("call", "Fool")
    gm("call", "Cy")
    assert gm.status()["chips"]["Fool"] == {"red": 1}  # paid own-colour-less: largest first
    for name, up in (("Cy", "KnC KnW 3P 4P"), ("Ed", "2S 3S 6W 7W"), ("Ada", "4S 5S 8P 9S")):
        gm("hand", "show", name, up)
    gm("hand", "show", "Fool", "2P 7C 9W PP 10W XIX")
    gm("bet", "Cy")
    gm("call", "Ed")
    out = gm("raise", "Ada").output
    assert "Fool calls 1" in out and "all-in" in out  # short: all-in for what he has (R14)
    gm("call", "Cy")
    gm("call", "Ed")
    status = gm.status()
    assert status["chips"]["Fool"] == {}
    assert status["hand"]["pot"] == 15  # 4 each from Cy, Ed, Ada and 3 from the Fool


def test_r15_the_fools_opening_bet_waits_for_the_up_cards_and_is_played_for_him(gm: GM) -> None:
    test_r15_fool_wins_a_pot_he_put_nothing_into(gm)  # the Fool now holds 3 chips
    gm("hand", "start")
    gm("hand", "show", "Fool", "KC KW KS QP")  # he shows the high hand, but not all are in
    assert gm.status()["hand"]["to_act"] is None  # R9, E4: the opener is not known yet
    assert "not the Fool's turn" in gm.fails("bet", "Fool")
    out = gm("hand", "show", "Cy: 2C 3W", "Ed: 4S 6P", "Ada: 5C 7W").output
    assert "Fool bets 1" in out and "forced" in out  # E4: at once, once all are in
    assert "not the Fool's turn" in gm.fails("call", "Fool")
    assert gm.status()["hand"]["to_act"] == "Cy"


def test_r14_all_ins_at_different_amounts_make_side_pots(gm: GM) -> None:
    _new(gm, "--seat", "Ada:XVI:red", "--seat", "Cy:III:blue:Di:II", "--seat", "Ed:VII:green",
         "--seat", "Flo:V:yellow")
    # Away from the table, Cy and Ed pass chips to Di, so the stacks differ (R16).
    gm("rise", "Cy")
    gm("rise", "Ed")
    gm("chips", "give", "Cy", "Di", "blue:7")
    gm("chips", "give", "Ed", "Di", "green:4")
    gm("sit", "Cy")
    gm("sit", "Ed")
    gm("open-phase")
    out = gm("hand", "start").output
    assert "Antes: 4 chips" in out  # R13: one chip from each stakeholder, none from the Fool
    gm("hand", "show", "Cy", "KC KW")
    gm("hand", "show", "Ed", "QC QW")
    gm("hand", "show", "Ada", "8C 8W")
    gm("hand", "show", "Flo", "9C 9W")
    gm("hand", "show", "Fool", "0 I II III")
    assert gm.status()["hand"]["to_act"] == "Cy"
    assert "holds 2 chips" in gm.fails("bet", "Cy", "10")  # E27: all-in is said
    assert "all-in" in gm("bet", "Cy", "all").output  # holds 2 after the ante (R14)
    gm("raise", "Flo", "4")    # to 6
    gm("call", "Ed")           # all-in for 5
    gm("raise", "Ada", "all")  # all-in for 9 (E27)
    gm("call", "Flo")          # all-in for the last 3
    assert gm.status()["hand"]["betting_over"]
    out = gm("hand", "showdown", "Cy: KC KW KS KP 2C 3C 4W", "Ed: QC QW QS 5W 6W 8S 9P",
             "Ada: 8C 8W 2W 3W 4P 6P PS", "Flo: 9C 9W 5C 5S AP 7W 3P",
             "Fool: 0 I II III IV V VI").output
    assert "Side pot 2" in out
    assert gm.chips("Cy") == {"blue": 3, "green": 3, "red": 3, "yellow": 3}  # main pot, 12
    assert gm.chips("Ed") == {"green": 3, "red": 3, "yellow": 3}             # side pot 1, 9
    assert gm.chips("Flo") == {"red": 4, "yellow": 4}                        # side pot 2, 8
    assert gm.chips("Ada") == {}
    assert gm.chips("Di") == {"blue": 7, "green": 4}


def test_r11_split_pot_odd_chip_to_the_seat_nearest_the_fools_left(gm: GM) -> None:
    _new(gm)
    gm("hand", "start")
    gm("hand", "show", "Cy", "AC 2C")
    gm("hand", "show", "Ed", "KP QP")
    gm("hand", "show", "Ada", "AW 2W")
    gm("hand", "show", "Fool", "2S 3C 4P 5W")
    gm("bet", "Ed")
    gm("call", "Ada")
    gm("call", "Cy")
    gm("hand", "show", "Cy", "AC 2C 3W 4W")
    gm("hand", "show", "Ed", "KP QP 7S 7W")
    gm("hand", "show", "Ada", "AW 2W 3S 4S")
    gm("hand", "show", "Fool", "2S 3C 4P 5W 7P 9C")
    for name in ("Ed", "Ada", "Cy"):
        gm("check", name)
    gm("hand", "show", "Fool", "2S 3C 4P 5W 7P 9C XXI")
    gm("check", "Ed")
    gm("bet", "Ada")
    gm("call", "Cy")
    gm("fold", "Ed")
    assert gm.status()["hand"]["pot"] == 5
    out = gm("hand", "showdown", "Cy: AC 2C 3W 4W 6S 8P 10C", "Ada: AW 2W 3S 4S 6P 8S 10P",
             "Fool: 2S 3C 4P 5W 7P 9C XXI").output
    assert "split" in out
    # Five chips: Cy (seat 1) gets the odd one. Each first takes back their own colour.
    assert gm.chips("Cy") == {"blue": 10, "green": 1}
    assert gm.chips("Ada") == {"red": 10}
    assert gm.chips("Ed") == {"green": 9}


def test_r12_limit_phase_rules(gm: GM) -> None:
    _new(gm)
    gm("hand", "start")
    gm("hand", "show", "Cy", "KC KW")
    assert "up cards are not all given (Ed has 0 of 2" in gm.fails("bet", "Cy")  # R9
    gm("hand", "show", "Ed: 2C 5W", "Ada: 3S 9P", "Fool: 4C 6C 8W 10P")
    assert "exactly 1 chip" in gm.fails("bet", "Cy", "2")
    assert "no bet to raise" in gm.fails("raise", "Cy")
    gm("bet", "Cy")
    assert "already a bet" in gm.fails("bet", "Ed")
    gm("raise", "Ed")
    gm("raise", "Ada")
    gm("raise", "Cy")
    assert "three raises" in gm.fails("raise", "Ed")
    assert "cannot check" in gm.fails("check", "Ed")
    gm("call", "Ed")
    gm("call", "Ada")
    assert gm.status()["hand"]["street"] == 2


def test_bad_input_is_one_line_and_changes_nothing(gm: GM) -> None:
    assert "no evening" in gm.fails("status")
    _new(gm)
    assert "already holds an evening" in gm.fails("new", "--fool", "X", *THREE)
    assert "no hand in progress" in gm.fails("bet", "Cy")
    gm("hand", "start")
    assert "unknown player 'Zed'" in gm.fails("bet", "Zed")
    assert "unknown card" in gm.fails("hand", "show", "Cy", "KX")
    gm("hand", "show", "Cy", "KC KW")
    assert "already showing for Cy" in gm.fails("hand", "show", "Ed", "KC 2S")
    assert "seated at the table" in gm.fails("chips", "give", "Cy", "Di", "blue:1")
    assert "hosts the table" in gm.fails("chips", "give", "Di", "Fool", "red:1")
    assert "betting is not over" in gm.fails("hand", "showdown", "Cy: KC KW 2C 3C 4C 5S 7S")
    assert "unknown chip colour 'purple'" in gm.fails("bet", "Cy", "--chips", "purple:1")


def test_r18_game_over_and_a_buyout_brings_a_side_back(gm: GM) -> None:
    gm("new", "--fool", "Max", "--seat", "Ada:XVI:red:Ben:IX", "--seat", "Cy:III:blue")
    gm("hand", "start", "--open")
    gm("hand", "show", "Cy: KC KW", "Ada: 5W 7P", "Max: 0 I II III")
    assert "all-in" in gm("bet", "Cy", "all").output
    gm("call", "Ada")
    out = gm("hand", "showdown", "Cy: KC KW KS KP 2C 3C 4C", "Ada: 2S 3S 5W 7P 9C 10W PW",
             "Max: 0 I II III IV V VI").output
    assert "The game is over (R18)" in out
    status = gm.status()
    assert status["over"] and status["winner"] == "Cy"
    assert "game is over" in gm.fails("hand", "start")
    # R17: Cy holds all ten red chips, so Ada may not resign before Cy is offered her soul.
    assert "must be offered Ada's soul first" in gm.fails("resign", "Ada")
    out = gm("soul", "buyout", "Cy", "Ada").output
    assert "the game goes on" in out
    status = gm.status()
    assert not status["over"] and status["chips"]["Ada"] == {"red": 10}
    gm("hand", "start")


def test_r11_the_referee_can_override_a_split_between_hands(gm: GM) -> None:
    _new(gm)
    gm("hand", "start")
    assert "in progress" in gm.fails("chips", "settle", "Cy", "Ada", "blue:1", "--why", "x")
    gm.check_around({"Cy": "2C 4W 6S 8P 10C QW KS", "Ed": "3C 5W 7S 9P PC KnW AS",
                      "Ada": "2W 4S 6P 8C 10W QS KP", "Fool": "3S 5P 7C 9W PW KnS AP"})
    gm("hand", "showdown", "Cy: 2C 4W KS", "Ed: 3C 5W AS", "Ada: 2W 4S KP")
    assert "say why" in gm.fails("chips", "settle", "Cy", "Ada", "blue:1", "--why", " ")
    assert "holds 10 blue" in gm.fails("chips", "settle", "Cy", "Ada", "blue:11", "--why", "x")
    out = gm("chips", "settle", "Cy", "Ada", "blue:1", "--why", "misdeal in hand 1").output
    assert "referee's ruling" in out and "misdeal in hand 1" in out
    assert gm.chips("Ada") == {"blue": 1, "red": 10}
    log = gm.json("log")["commands"][-1]
    assert log["events"][0]["ruling"] == "misdeal in hand 1"
