"""The hand at the table through the console: strict about up cards, right about antes, short to
type (R9, R13-R15, R20, R21, R24, E25-E28). Every refusal: one line, exit 2, the file unchanged
(``gm.fails``)."""

from __future__ import annotations

from tests.cli.conftest import GM

TWO = ["--seat", "Ada:I:red:Ben:II", "--seat", "Cy:III:blue"]
THREE = ["--seat", "Ada:XVI:red:Ben:IX", "--seat", "Cy:III:blue:Di:II", "--seat", "Ed:VII:green"]


def _limit_hand_one(gm: GM) -> None:
    """The limit-phase hand: the Fool's four Kings win Cy's bet and Ada's call."""
    gm("new", "--fool", "Max", *TWO)
    gm("hand", "start")
    gm("hand", "show", "Ada", "2C 3W")
    gm("hand", "show", "Cy", "4C 5W")
    gm("hand", "show", "Max", "KC KW KS KP")
    gm("bet", "Cy")
    gm("call", "Ada")
    gm("hand", "show", "Ada", "2C 3W 6C 7W")
    gm("hand", "show", "Cy", "4C 5W 8C 9W")
    gm("hand", "show", "Max", "KC KW KS KP 2S 3S")
    gm("check", "Cy")
    gm("check", "Ada")
    gm("hand", "show", "Max", "KC KW KS KP 2S 3S 4S")
    gm("check", "Cy")
    gm("check", "Ada")
    gm("hand", "showdown", "Ada: 2C 3W 6C 7W 10C PC XX", "Cy: 4C 5W 8C 9W 10W PW XXI",
       "Max: KC KW KS KP 2S 3S 4S")
    assert gm.chips("Max") == {"blue": 1, "red": 1}


def _fool_wins_six(gm: GM) -> None:
    """A limit hand with two raises that the Fool wins: he then holds 3 red and 3 blue."""
    gm("new", "--fool", "Max", *TWO)
    gm("hand", "start")
    gm("hand", "show", "Ada: 2C 3W", "Cy: 4C 5W", "Max: KC KW KS KP")
    for move in ("bet", "raise", "raise", "call"):  # Cy opens (Five high), Ada, Cy, Ada
        gm(move)
    gm.check_around({"Ada": "8S 9S 2C 3W 6C 7W 10C", "Cy": "8P 9P 4C 5W 8C 9W 10W",
                     "Max": "KC KW KS KP 2S 3S 4S"})
    gm("hand", "showdown", "Ada: 8S 9S 10C", "Cy: 8P 9P 10W")
    assert gm.chips("Max") == {"blue": 3, "red": 3}


# -- 1. antes are dead money (R13, R15) ---------------------------------------------------------


def test_r15_an_ante_is_never_returned_as_uncalled(gm: GM) -> None:
    _limit_hand_one(gm)
    gm("hand", "start", "--open")  # hand 2, open: antes
    gm("hand", "show", "Ada", "2C 3W")
    gm("hand", "show", "Cy", "KC KW")
    gm("hand", "show", "Max", "6C 7W 8S 9P")
    gm("bet", "Cy", "1")
    gm("fold", "Ada")
    gm("hand", "show", "Cy", "KC KW 2S 3S")
    gm("hand", "show", "Max", "6C 7W 8S 9P 2P 4W")
    gm("check", "Cy")
    gm("hand", "show", "Max", "6C 7W 8S 9P 2P 4W 10C")
    gm("call", "Cy")
    out = gm("hand", "showdown", "Cy: KC KW 2S 3S 10S PS XX",
             "Max: 6C 7W 8S 9P 2P 4W 10C").output
    assert "Uncalled" not in out
    assert "Main pot (6 chips" in out and "won by Max" in out
    # Cy: 10, less 1 lost in hand 1, the ante, the bet and the call.
    assert gm.chips("Cy") == {"blue": 6}
    assert sum(gm.chips("Max").values()) == 6


def test_r15_all_in_on_the_ante_contests_the_antes_but_not_the_fools_bet(gm: GM) -> None:
    _limit_hand_one(gm)  # Max holds red 1, blue 1; Ada 9 red, Cy 9 blue
    gm("rise", "Ada")
    gm("chips", "give", "Ada", "Ben", "red:8")  # away from the table (R16): Ada keeps one
    gm("sit", "Ada")
    gm("hand", "start", "--open")  # Ada's ante is her last chip: all-in on it (R14)
    out = gm("hand", "show", "Ada: 9C 9W", "Cy: 2C 3W", "Max: KC KW 2S 3S").output
    assert "Max bets 1" in out and "forced" in out  # he shows the high hand (R15)
    gm("fold")  # Cy, the player to act, folds to the Fool's chip
    hand = gm.status()["hand"]
    assert hand["betting_over"]
    assert [(p["size"], p["eligible"]) for p in hand["pots"]] == [(2, ["Ada", "Max"])]
    assert hand["uncalled"] == {"Max": 1}  # no bet matched the Fool's chip
    out = gm("hand", "showdown", "Ada: 9S 9P 2P 3P 4P", "Max: 5P 7P 10P").output
    assert "Uncalled chips go back to Max" in out
    assert gm.chips("Ada") == {"blue": 1, "red": 1}  # the two antes, nothing of the Fool's
    assert sum(gm.chips("Max").values()) == 2


# -- 2. up-card counts are the deal's (R9) --------------------------------------------------


def test_r9_more_up_cards_than_the_round_has_dealt_are_refused(gm: GM) -> None:
    gm("new", "--fool", "Max", *THREE)
    gm("hand", "start")
    line = gm.fails("hand", "show", "Cy", "4C 5W 9S 9W")
    assert "4 up cards for Cy, but 2 are dealt face up by round 1" in line and "R9" in line
    assert "the Fool, but 4 are dealt" in gm.fails("hand", "show", "Max", "KC KW KS KP 2S")
    gm("hand", "show", "Cy: 4C 5W", "Ed: 2S 3S", "Ada: 9C 9W", "Max: AC 6W 7S QP")
    assert gm.status()["hand"]["to_act"] == "Ada"  # the pair of nines that was dealt
    for _ in range(3):
        gm("check")
    assert "5 up cards for Cy, but 4" in gm.fails("hand", "show", "Cy", "+6C 7C 8C")
    gm("hand", "show", "Cy", "+6C 7C")
    assert gm.status()["hand"]["showing"]["Cy"] == ["4C", "5W", "6C", "7C"]


# -- 3. no betting before the round's up cards (R9, E4) ---------------------------------------


def test_r9_no_bet_before_every_live_players_up_cards_are_given(gm: GM) -> None:
    gm("new", "--fool", "Max", *THREE)
    gm("hand", "start")
    line = gm.fails("bet", "Ada")
    assert "up cards are not all given (Cy has 0 of 2, Ed 0 of 2, Ada 0 of 2, Max 0 of 4)" in line
    gm("hand", "show", "Cy", "KC KW")
    assert "Ed has 0 of 2" in gm.fails("check", "Cy")
    assert gm.status()["hand"]["to_act"] is None
    gm("hand", "show", "Ed: 2S 3P", "Ada: 4P 5C", "Max: 2W 6W 8S 7P")
    assert gm.status()["hand"]["to_act"] == "Cy"


def test_e4_the_fools_opening_bet_waits_for_the_new_up_cards(gm: GM) -> None:
    _fool_wins_six(gm)
    gm("hand", "start")
    out = gm("hand", "show", "Ada: 2C 3W", "Cy: 4C 4W", "Max: KC KW QS QP").output
    assert "Max bets 1" in out  # two pair showing: he must bet (R15)
    gm("raise", "Ada")
    out = gm("call", "Cy").output
    assert "Max calls 1" in out  # his forced call closes round one...
    hand = gm.status()["hand"]
    assert hand["street"] == 2 and hand["bet"] == 0 and hand["to_act"] is None
    assert sum(gm.chips("Max").values()) == 4  # ... and no opening bet on the old up cards
    gm("hand", "show", "Ada: +6C 7W", "Cy: +4S 9P", "Max: +2S 3S")
    hand = gm.status()["hand"]
    assert hand["to_act"] == "Cy" and hand["bet"] == 0  # three fours open, not the Fool
    assert "Cy" in gm("check").output


# -- 4. up cards never change silently (E25) --------------------------------------------------


def test_e25_a_later_show_keeps_the_cards_already_up(gm: GM) -> None:
    gm("new", "--fool", "Max", *THREE)
    gm("hand", "start")
    gm("hand", "show", "Ada", "2C 3W")
    line = gm.fails("hand", "show", "Ada", "9C 9W KC KW")
    assert "Ada already shows 2C 3W" in line and "hand fix Ada OLD NEW" in line
    line = gm.fails("hand", "show", "Ada", "2C 9W")
    assert "this would drop 3W" in line and "hand fix Ada OLD NEW" in line
    assert "already shows 2C" in gm.fails("hand", "show", "Ada", "+2C")
    assert gm.status()["hand"]["showing"]["Ada"] == ["2C", "3W"]


def test_e25_hand_fix_corrects_and_says_when_an_opener_would_have_changed(gm: GM) -> None:
    gm("new", "--fool", "Max", *THREE)
    gm("hand", "start")
    gm("hand", "show", "Cy: QC 3W", "Ed: 2S 4P", "Ada: KC 2W", "Max: 5C 6W 8S 9P")
    assert gm.status()["hand"]["to_act"] == "Ada"  # King high
    for _ in range(3):
        gm("check")
    assert "not among Ada's up cards" in gm.fails("hand", "fix", "Ada", "QC", "4C")
    assert "already showing for Cy" in gm.fails("hand", "fix", "Ada", "KC", "QC")
    out = gm("hand", "fix", "Ada", "KC", "4C").output
    assert "Ada's up card KC is 4C" in out
    assert "Had it shown in round 1, Cy would have opened, not Ada; the betting stands" in out
    assert gm.status()["hand"]["showing"]["Ada"] == ["4C", "2W"]
    undone = gm("undo").output
    assert "hand fix Ada KC 4C" in undone


# -- 5. a bet is what was said (E27) ----------------------------------------------------------


def test_e27_a_bet_above_the_stack_is_refused_and_all_in_is_said(gm: GM) -> None:
    gm("new", "--fool", "Max", *THREE)
    gm("rise", "Cy")
    gm("chips", "give", "Cy", "Di", "blue:3")  # Cy keeps 7
    gm("sit", "Cy")
    gm("open-phase")
    gm("hand", "start")  # antes: Cy holds 6
    gm("hand", "show", "Cy: KC KW", "Ed: 2S 3P", "Ada: 4P 5C", "Max: 2W 6W 8S 7P")
    line = gm.fails("bet", "Cy", "50")
    assert "Cy holds 6 chips; bet at most 6" in line and "bet Cy all" in line
    assert "bad amount" in gm.fails("bet", "Cy", "lots")
    gm("bet", "Cy", "2")
    line = gm.fails("raise", "Ed", "9")
    assert "Ed holds 9 chips: 2 to call and at most 7 more" in line
    out = gm("raise", "all").output  # Ed, the player to act
    assert "Ed raises, putting in 9" in out and "all-in" in out


# -- 6, 7. the auction (R20, R21) ---------------------------------------------------------------


def test_r21_force_trade_only_ends_an_auction_of_ones_own_soul(gm: GM) -> None:
    gm("new", "--fool", "Max", *THREE)
    gm("rise", "Ada")
    gm("chips", "give", "Ada", "Di", "red:3")
    line = gm.fails("soul", "force-trade", "Ada")
    assert "announce it first with `soul auction Ada Ada`" in line and "R21" in line
    gm("soul", "auction", "Ada", "Ada")
    assert "is auctioning" in gm.fails("soul", "auction", "Ben", "green")
    gm("soul", "bid", "Ed", "--promise", "safe passage")
    assert "seller's side" in gm.fails("soul", "bid", "Ben", "--promise", "x")
    out = gm("soul", "force-trade", "Ada").output
    assert "Ada forces a trade of Ada's soul: it goes to Cy" in out
    assert gm.json("status")["chips"]["Ada"] == {"red": 10}
    assert "no auction is open" in gm.fails("soul", "bid", "Ed", "green:1")


def test_r20_an_auction_closed_with_the_accepted_bid(gm: GM) -> None:
    gm("new", "--fool", "Max", *THREE)
    assert "no auction is open" in gm.fails("soul", "bid", "Ed", "green:1")
    gm("soul", "auction", "Ben", "green")
    gm("soul", "bid", "Ed", "green:2")
    gm("soul", "bid", "Di", "--promise", "a secret")
    assert "holds 0 blue" in gm.fails("soul", "bid", "Di", "blue:1")
    assert "made no bid" in gm.fails("soul", "sell", "Ben", "green", "Cy")
    out = gm("soul", "sell", "Ben", "green", "Ed").output  # Ed's last bid is accepted
    assert "sells the cracked green bottle to Ed for green 2" in out
    assert gm.status()["chips"]["Ben"] == {"green": 2}
    gm("soul", "auction", "Di", "cobalt")
    out = gm("soul", "auction", "Di", "--withdraw").output
    assert "the auction ends unsold" in out
    assert "no auction open to withdraw" in gm.fails("soul", "auction", "Di", "--withdraw")


def test_r21_a_stakeholder_sells_a_soul_his_assistant_holds_for_him(gm: GM) -> None:
    gm("new", "--fool", "Max", *THREE)  # Ben, Ada's assistant, holds the green bottle
    out = gm("soul", "sell", "Ada", "green", "Ed", "--chips", "green:2").output
    assert "Ada sells the cracked green bottle to Ed" in out
    status = gm.status()
    assert status["chips"]["Ada"] == {"green": 2, "red": 10}  # the price goes to Ada
    assert status["chips"].get("Ben", {}) == {}
    holders = {s["soul"]: s["holder"] for s in gm.json("soul", "list")}
    assert holders["the cracked green bottle"] == "Ed"
    assert "does not hold" in gm.fails("soul", "sell", "Cy", "amber", "Ed", "--chips",
                                       "green:1")


# -- 8. an empty guess burns nothing (R24) ------------------------------------------------------


def test_r24_a_whitespace_guess_is_refused_and_burns_no_guess(gm: GM) -> None:
    gm("new", "--fool", "Max", *THREE)
    assert "a guess names the soul" in gm.fails("soul", "guess", "Ben", "green", "--name", "  ")
    out = gm("soul", "guess", "Ben", "green", "--name", "Nobody").output
    assert "2 guess(es) left" in out


# -- 9. one-line messages that say the right thing ----------------------------------------------


def test_messages_say_the_right_thing(gm: GM) -> None:
    assert "six stakeholders at most" in gm.fails(
        "new", "--fool", "Max", *[a for i in range(7) for a in ("--seat", f"P{i}:{i + 1}:c{i}")])
    gm("new", "--fool", "Max", *THREE)
    assert "Max is the Fool" in gm.fails("rise", "Max") and "never rises" in gm.fails(
        "rise", "Max")
    line = gm.fails("undo", "--table", "foo")
    assert "unknown table 'foo'" in line and "evening" in line
    assert "empty table" in gm.fails("undo", "--table", "")
    assert "?." not in gm.fails("hand", "strat")


def test_round_end_and_betting_over_are_never_both_said(gm: GM) -> None:
    _limit_hand_one(gm)
    gm("hand", "start", "--open")
    gm("hand", "show", "Ada: 2C 3W", "Cy: KC KW", "Max: 6C 7W 8S 9P")
    out = gm("bet", "Cy", "all").output
    out += gm("call").output  # Ada all-in: nobody left to bet against Cy
    assert "No more betting in this hand" in out
    assert "Deal the next cards" not in out


def test_a_showdown_with_an_empty_pot_still_names_the_best_hand(gm: GM) -> None:
    gm("new", "--fool", "Max", *THREE)
    gm("hand", "start")
    gm.check_around({"Cy": "2C 4W 6S 8P 10C QW KS", "Ed": "3C 5W 7S 9P PC KnW AS",
                     "Ada": "2W 4S 6P 8C 10W QS KP", "Max": "3S 5P 7C 9W PW KnS AP"})
    out = gm("hand", "showdown", "Cy: 2C 4W KS", "Ed: 3C 5W AS", "Ada: 2W 4S KP").output
    assert "Cy and Ada share the best hand (high card)" in out and "nothing to award" in out


def test_once_the_game_is_over_nothing_invites_another_hand(gm: GM) -> None:
    gm("new", "--fool", "Max", "--seat", "Ada:XVI:red:Ben:IX", "--seat", "Cy:III:blue")
    gm("hand", "start", "--open")
    gm("hand", "show", "Cy: KC KW", "Ada: 5W 7P", "Max: 0 I II III")
    gm("bet", "all")
    gm("call")
    out = gm("hand", "showdown", "Cy: KS KP 2C 3C 4C", "Ada: 2S 3S 9C 10W PW",
             "Max: IV V VI").output
    assert "The game is over (R18)" in out and "hand start" not in out
    assert "hand start" not in gm("status").output
    from referee.cli.shell.shell import Vocabulary

    toolbar = Vocabulary(gm.db).refresh().line
    assert "game is over" in toolbar and "hand start" not in toolbar


# -- half the typing ------------------------------------------------------------------------------


def test_several_players_in_one_show_all_or_nothing(gm: GM) -> None:
    gm("new", "--fool", "Max", *THREE)
    gm("hand", "start")
    assert "unknown card" in gm.fails("hand", "show", "Cy: KC KW", "Ed: 2S 3P", "Ada: 4P ZZ")
    assert gm.status()["hand"]["showing"] == {}
    assert "already showing for Cy" in gm.fails("hand", "show", "Cy: KC KW", "Ed: KC 3P")
    gm("hand", "show", "Cy: KC KW", "Ed: 2S 3P", "Ada: 4P 5C", "Max: 2W 6W 8S 7P")
    assert gm.status()["hand"]["showing"]["Ada"] == ["4P", "5C"]


def test_the_name_is_optional_and_the_reply_names_the_player(gm: GM) -> None:
    gm("new", "--fool", "Max", *THREE)
    gm("hand", "start")
    assert "up cards are not all given" in gm.fails("call")
    gm("hand", "show", "Cy: KC KW", "Ed: 2S 3P", "Ada: 4P 5C", "Max: 2W 6W 8S 7P")
    assert "Cy bets 1" in gm("bet").output
    assert "Ed calls 1" in gm("call").output
    assert "not Cy's turn: Ada is to act" in gm.fails("raise", "Cy")
    assert "Ada raises" in gm("raise").output


def test_e26_the_showdown_takes_the_down_cards_and_checks_a_whole_hand(gm: GM) -> None:
    gm("new", "--fool", "Max", *THREE)
    gm("hand", "start")
    gm.check_around({"Cy": "2C 4W 6S 8P 10C QW KS", "Ed": "3C 5W 7S 9P PC KnW AS",
                     "Ada": "2W 4S 6P 8C 10W QS KP", "Max": "3S 5P 7C 9W PW KnS AP"})
    line = gm.fails("hand", "showdown", "Cy: 2C 4W 6S 8P 10C QW KS", "Ed: 3C 5W AS 2S 3S 4S "
                    "5S", "Ada: 2W 4S KP")
    assert "Ed holds 7 cards, not 11: 4 are showing, so give the other 3, or all 7" in line
    line = gm.fails("hand", "showdown", "Cy: 2C 4W 6S 8P 9S QW KS", "Ed: 3C 5W AS",
                    "Ada: 2W 4S KP")
    assert "hold the up cards 6S 8P QW but not 10C" in line
    assert "missing" in gm.fails("hand", "showdown", "Cy: 2C 4W KS", "Ed: 3C 5W AS")
    result = gm.json("hand", "showdown", "Cy: 2C 4W 6S 8P 10C QW KS", "Ed: 3C 5W AS",
                     "Ada: 2W 4S KP")
    hands = next(e for e in result["events"] if e["kind"] == "showdown")["hands"]
    assert sorted(hands["Ed"]) == sorted("3C 5W 7S 9P PC KnW AS".split())
    assert sorted(hands["Max"]) == sorted("3S 5P 7C 9W PW KnS AP".split())


# -- mid-hand status --------------------------------------------------------------------------


def test_status_mid_hand_shows_each_player_and_every_pot(gm: GM) -> None:
    gm("new", "--fool", "Max", *THREE)
    gm("rise", "Cy")
    gm("chips", "give", "Cy", "Di", "blue:8")  # Cy keeps 2
    gm("sit", "Cy")
    gm("open-phase")
    gm("hand", "start")
    gm("hand", "show", "Cy: KC KW", "Ed: 2S 3P", "Ada: 4P 5C", "Max: 2W 6W 8S 7P")
    gm("bet", "all")   # Cy: all-in for 1 after the ante
    gm("raise", "3")   # Ed: 1 to call and 3 more
    hand = gm.status()["hand"]
    players = {p["name"]: p for p in hand["players"]}
    assert players["Cy"] == {"name": "Cy", "up": ["KC", "KW"], "round": 1, "hand": 2,
                             "ante": 1, "toll": 0, "stack": 0, "folded": False,
                             "all_in": True, "suspended": False, "to_act": False, "down": 2,
                             "hooded": 0,
                             "cards": [{"card": c, "dead": False, "counts_as": None,
                                        "held": False} for c in ("KC", "KW")]}
    assert players["Ed"]["round"] == 4 and players["Ed"]["hand"] == 5
    assert players["Ada"]["to_act"] and hand["owes"] == 4
    assert [p["eligible"] for p in hand["pots"]] == [["Cy", "Ed", "Ada", "Max"]]
    assert hand["uncalled"] == {"Ed": 3}
    out = gm("status").output
    assert "Ada" in out and "to act" in out and "owes 4" in out


def test_watch_at_80_by_24_puts_the_turn_and_the_pots_first_and_goes_compact(gm: GM) -> None:
    import io

    from rich.console import Console

    from referee.cli.room.watch import render_frame
    from referee.serve import players as frames

    gm("new", "--fool", "Max", "--seat", "Ada:I:red:Ben:II", "--seat", "Cy:III:blue:Di:IV",
       "--seat", "Ed:V:green:Flo:VI", "--seat", "Gus:VII:yellow:Hal:VIII", "--seat",
       "Ivy:IX:white:Jo:X", "--seat", "Kit:XI:black:Lu:XII")
    gm("hand", "start")
    gm("hand", "show", "Ada: KC KW", "Cy: 2S 3P", "Ed: 4P 5C", "Gus: 6S 7W", "Ivy: 8S 9W",
       "Kit: 10S 2W", "Max: 2C 6W 8C 7P")
    gm("bet")
    view = frames.frame(frames.load_state(gm.db))
    out = io.StringIO()
    Console(file=out, width=80, height=24, color_system=None).print(
        render_frame(view, 80, 24))
    lines = out.getvalue().splitlines()
    assert len(lines) <= 24, "\n".join(lines)
    assert "Cy to act" in lines[1] and "Pot 1 chip" in lines[2]
    # At 80 columns the stacks are counts (the cards keep their room), so all 13 rows fit 24
    # lines; 18 lines cannot hold them: compact, no assistants' rows.
    short = io.StringIO()
    Console(file=short, width=80, height=18, color_system=None).print(
        render_frame(view, 80, 18))
    assert len(short.getvalue().splitlines()) <= 18, short.getvalue()
    assert "(assistant)" not in short.getvalue()
    tall = io.StringIO()
    Console(file=tall, width=80, height=60, color_system=None).print(render_frame(view, 80, 60))
    assert "(assistant)" in tall.getvalue()


def test_r9_a_showdown_asks_the_fool_for_no_down_card(gm: GM) -> None:
    """Betting ends before the Fool's seventh card is given: it is an up card still to
    come (R9), never "the 1 down card"."""
    gm("new", "--fool", "Max", *THREE)
    gm("hand", "start")
    gm("hand", "show", "Cy: 2C 3C", "Ed: 9S 9P", "Ada: 4C 5C", "Max: 6C 7C 8C 9C")
    gm("fold", "Ed")
    gm("fold", "Ada")
    gm("check", "Cy")
    gm("hand", "show", "Cy: +4W 5W", "Max: +10C KC")
    prompt = " ".join(gm("status").output.split())
    assert "Betting is over" in prompt and "(Cy 3, Max 1 still to come, all up;" in prompt
    line = gm.fails("hand", "showdown", "Cy: 2W 3W 6W")
    assert "the Fool's cards are all up, and 1 card of his seven is not shown" in line
    assert "down card" not in line
    gm("hand", "showdown", "Cy: 2W 3W 6W", "Max: QC")  # the one card he still lacked
