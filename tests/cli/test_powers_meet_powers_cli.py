"""Where a power meets another power in force (S17, S23, S30): each case two
powers on one player or one card, read together by the rule whose code once asked only one."""

from __future__ import annotations

from tests.cli.conftest import GM

TABLE = ["--fool", "Fay", "--seat", "Abe:I:red:Ann:II", "--seat", "Bea:III:blue:Bob:IV",
         "--seat", "Cal:V:green:Cat:VI"]
ROUND_1 = ("Abe: KC KW", "Bea: 4C 5W", "Cal: 6C 7W", "Fay: AC 8P 9S 10S")


def _dealt(gm: GM) -> None:
    """Every side holds Charges from a soul named (R24); hand 1's first up cards are given,
    Abe (the pair of Kings) to act."""
    gm("new", *TABLE)
    gm("soul", "guess", "Ann", "cobalt", "--name", "houdini")  # +2 for Abe
    gm("soul", "guess", "Bob", "amber", "--name", "catherine the great")  # +2 for Bea
    gm("soul", "guess", "Cat", "green", "--name", "thoreau")  # +2 for Cal
    gm("hand", "start")
    gm("hand", "show", *ROUND_1)


def test_s30_compulsion_cannot_force_a_chained_player_to_fold(gm: GM) -> None:
    """S30: Chained forbids any fold this round, one a power would force included: Compulsion
    naming a fold is refused, and Bea stays Chained (the fold was accepted, and the two powers
    together gave way to the rules' moves, a fold among them)."""
    _dealt(gm)
    gm("power", "use", "Abe", "chained", "--target", "Bea", "--access", "XV")
    gm("bet")
    line = gm.fails("power", "use", "Cal", "compulsion", "--action", "fold", "--access", "I")
    assert line == "error: Compulsion: Bea may not fold this round: Chained (S30)"
    out = gm("power", "use", "Cal", "compulsion", "--action", "call", "--access", "I").output
    assert "Bea must call on this turn" in out
    line = gm.fails("fold", "Bea")
    assert "Bea may not fold now" in line
    assert gm.status()["hand"]["to_act"] == "Bea"


def test_s17_compulsion_cannot_force_a_fold_excess_forbids(gm: GM) -> None:
    """S17: Excess leaves Bea a raise and nothing else; Compulsion cannot then name a fold."""
    _dealt(gm)
    gm("bet")
    gm("power", "use", "Abe", "excess", "--access", "XIV")
    line = gm.fails("power", "use", "Cal", "compulsion", "--action", "fold", "--access", "I")
    assert line == "error: Compulsion: Bea may not fold on this turn: raise only (Excess) (S17)"


def test_e260_the_last_trumpet_passes_a_player_whose_down_cards_are_all_held_fast(
        gm: GM) -> None:
    """E260, S23: Abe slid VIII for Hold Fast and holds his one face-down card, 3S, fast: no
    power turns it, so The Last Trumpet turns one card of each other stakeholder and none of
    Abe's (it was refused whichever way it was given: the GM had no way to record it)."""
    _dealt(gm)
    gm("power", "use", "Abe", "hold fast", "--card", "3S", "--access", "VIII")
    gm("check")
    line = gm.fails("power", "use", "Bea", "last trumpet", "--card", "Bea:2P", "--card",
                    "Abe:3S", "--card", "Cal:2S", "--access", "XX")
    assert line == ("error: The Last Trumpet: one --card NAME:CARD for each of Bea, Cal; Abe's "
                    "face-down cards are all held fast, so Abe turns none (S23, E260)")
    out = gm("power", "use", "Bea", "last trumpet", "--card", "Bea:2P", "--card", "Cal:2S",
             "--access", "XX").output
    assert "Bea turns 2P face up; Cal turns 2S face up" in out
    players = {p["name"]: p for p in gm.status()["hand"]["players"]}
    assert players["Abe"]["up"] == ["KC", "KW"]
    assert "3S" not in players["Abe"]["up"]


def test_e261_second_thoughts_after_a_forced_bet_leaves_check_call_or_fold(gm: GM) -> None:
    """E261: Bea's Compulsion made Abe bet; Cal's Second Thoughts takes the bet back, and Abe
    acts again only as Second Thoughts says: check or fold. The Compulsion put back with the
    bet and the Second Thoughts together left no move, so the console gave way to the rules'
    moves and let Abe bet again."""
    _dealt(gm)
    gm("power", "use", "Bea", "compulsion", "--action", "bet", "--access", "I")
    gm("bet")
    out = gm("power", "use", "Cal", "second thoughts", "--access", "XX").output
    assert "Abe acts again and may only check, call or fold" in out
    hand = gm.status()["hand"]
    assert hand["to_act"] == "Abe" and hand["bet"] == 0
    line = gm.fails("bet", "Abe")
    assert line.startswith("error: Abe may not bet now: Abe must check or fold (Second Thoughts")
    gm("check", "Abe")
    assert gm.status()["hand"]["to_act"] == "Bea"


def test_e261_second_thoughts_after_a_cowed_bet_lets_the_player_check(gm: GM) -> None:
    """E261: Cowed with nothing bet, Abe bet one chip as it says; Second Thoughts takes it
    back, and Abe may check (Cowed, spent by the bet, no longer leaves him a fold alone)."""
    _dealt(gm)
    gm("power", "use", "Bea", "cowed", "--access", "VIII")
    gm("bet")
    gm("power", "use", "Cal", "second thoughts", "--access", "XX")
    gm("check", "Abe")
    assert gm.status()["hand"]["to_act"] == "Bea"


def _cut_down(gm: GM) -> None:
    """Bea cuts down Abe's KC in round 1 (dead, S21); in round 2 Abe is to act."""
    _dealt(gm)
    gm("check")
    gm("power", "use", "Bea", "cut down", "--target", "Abe", "--card", "KC", "--access",
       "XIII")
    gm("check")
    gm("check")
    gm("hand", "show", "Abe: +2C 3W", "Bea: +PC KnW", "Cal: +2S 4S", "Fay: +AS 3P")
    assert gm.status()["hand"]["to_act"] == "Abe"


def test_e263_onward_discards_a_dead_up_card(gm: GM) -> None:
    """E263, S21: Abe's KC, cut down, still lies on the table as one of his up cards: Onward
    may discard it and take the top card in its place, which counts (it was refused as dead,
    and no other move records it)."""
    _cut_down(gm)
    out = gm("power", "use", "Abe", "onward", "--card", "KC", "--new", "QC", "--access",
             "VII").output
    assert "Abe discards KC face up and takes QC face up in its place" in out
    abe = next(p for p in gm.status()["hand"]["players"] if p["name"] == "Abe")
    assert abe["up"] == ["QC", "KW", "2C", "3W"]
    assert "QC(dead)" not in gm("status").output
    for _ in range(3):
        gm("check")
    gm("hand", "show", "Fay: +4P")
    for _ in range(3):
        gm("check")
    event = gm.json("hand", "showdown", "Abe: QS 6W", "Bea: 6S 7S", "Cal: KS KP QP")
    showdown = next(e for e in event["events"] if e["kind"] == "showdown")
    assert showdown["best"]["Abe"]["category"] == "pair"  # QC QS: the new card counts


def test_e263_the_dance_discards_a_dead_up_card(gm: GM) -> None:
    """E263: The Dance discards "any one of your cards, up card or down card": the dead KC."""
    _cut_down(gm)
    out = gm("power", "use", "Abe", "dance", "--card", "KC", "--access", "XXI").output
    assert "discards KC (an up card)" in out
    abe = next(p for p in gm.status()["hand"]["players"] if p["name"] == "Abe")
    assert abe["up"] == ["KW", "2C", "3W"]


def test_s15_history_a_bet_second_thoughts_took_back_stands_when_mistrial_cancels_it(
        gm: GM) -> None:
    """S15, E135: Cal's Second Thoughts on Abe's bet is cancelled by Bea's Mistrial, so the bet
    stands (Bea and Cal call it); `hand history` told it as taken back, chips and all."""
    _dealt(gm)
    gm("bet")
    gm("power", "use", "Cal", "second thoughts", "--access", "XX")
    gm("power", "use", "Bea", "mistrial", "--access", "XI")
    assert gm.status()["hand"]["bet"] == 1
    gm("call")
    gm("call")
    gm("hand", "show", "Abe: +2C 3W", "Bea: +PC KnW", "Cal: +2S 4S", "Fay: +AS 3P")
    for _ in range(3):
        gm("check")
    gm("hand", "show", "Fay: +4P")
    for _ in range(3):
        gm("check")
    gm("hand", "showdown", "Abe: 5C 6W 7P", "Bea: 6S 7S", "Cal: KS KP")
    steps = gm.json("hand", "history")["rounds"][0]["steps"]
    bet = next(s for s in steps if s["kind"] == "action" and s["name"] == "Abe")
    assert bet["action"] == "bet" and "taken_back" not in bet
    second = next(s for s in steps if s["kind"] == "power_used" and s["name"] == "Cal")
    assert second["cancelled"] == "Mistrial"
    lines = gm("hand", "history").output.splitlines()
    assert "  Abe bets 1" in lines
    assert not any("taken back by Second Thoughts" in line for line in lines)
