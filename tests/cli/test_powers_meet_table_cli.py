"""Where a power meets a rule of the table (R15, R26, R44, R45): each case a power's effect
read by a rule whose code once did not ask it."""

from __future__ import annotations

from typing import Any

from tests.cli.conftest import GM

FORTUNE = ["--fool", "Fay", "--seat", "Abe:I:red:Ann:II", "--seat", "Bea:III:blue:Bob:IV",
           "--seat", "Cal:V:green:Cat:VI"]


def _fortune_reversed_round(gm: GM, abe: str = "+9C 10W") -> None:
    """Hand 2 of the issue's table: Cal holds two Charges, everyone called the Fool's bet in
    round 1, and Cal moves round 2's opener to the lowest hand with Fortune Reversed; Abe's
    round-2 up cards are ``abe``."""
    gm("new", *FORTUNE)
    gm("soul", "guess", "Cat", "green", "--name", "thoreau")
    gm("open-phase")
    gm("hand", "start")
    gm("hand", "show", "Abe: 2C 3W", "Bea: 4C 5W", "Cal: 6C 7W", "Fay: AC 8P 9S 10S")
    for _ in range(3):
        gm("fold")
    gm("hand", "start")
    gm("hand", "show", "Abe: 2C 3W", "Bea: 4C 5W", "Cal: 6C 7W", "Fay: KC KW 8S 9S")
    for _ in range(3):
        gm("call")
    gm("power", "use", "Cal", "fortune reversed", "--access", "X")
    gm("hand", "show", f"Abe: {abe}", "Bea: +PC KnW", "Cal: +2S 4S", "Fay: +AC 3P")


def test_r45_the_fool_bets_the_high_hand_after_a_moved_opener(gm: GM) -> None:
    """R45, R15: Fortune Reversed gives round 2 to Cal, the lowest hand; when the turn reaches
    the Fool with nothing bet, his pair of Kings the high hand and chips in hand, he bets."""
    _fortune_reversed_round(gm)
    assert gm.status()["hand"]["to_act"] == "Cal"  # S20: the lowest hand opens
    out = gm("check", "Cal").output
    assert "Fay bets 1" in out and "the Fool shows the high hand and must bet (R15)" in out
    assert "Fay checks" not in out
    hand = gm.status()["hand"]
    assert hand["bet"] == 1 and hand["to_act"] == "Abe" and hand["owes"] == 1


def test_r45_the_fool_checks_when_another_shows_the_high_hand(gm: GM) -> None:
    """R15: with nothing bet, the Fool whose hand is not the high one checks, as before: Abe
    now shows three Threes, above the Fool's pair of Kings."""
    _fortune_reversed_round(gm, abe="+3C 3S")
    out = gm("check", "Cal").output
    assert "Fay checks - forced: nothing to call (R15)" in out


HOOD = ["--fool", "Fay", "--seat", "Cy:I:red:Ann:II", "--seat", "Bea:III:blue:Bob:IV"]


#: Souls the assistants guess right, two Charges each for their side (R24).
CHARGES = {"Bea": ("Bob", "cobalt", "houdini"), "Cy": ("Ann", "amber", "catherine the great")}


def _round_two(gm: GM, *charged: str) -> None:
    """The hood table at round 2, Cy to act: round 1 checked round, the sides of ``charged``
    with two Charges each from a soul guessed."""
    gm("new", *HOOD)
    for side in charged:
        helper, soul, name = CHARGES[side]
        gm("soul", "guess", helper, soul, "--name", name)
    gm("hand", "start")
    gm("hand", "show", "Cy: KC KW", "Bea: 4C 5W", "Fay: AC 8P 9S 10S")
    gm("check")
    gm("check")
    gm("hand", "show", "Cy: +10C 2C", "Bea: +6C 7W", "Fay: +2P 3P")


def _to_the_showdown(gm: GM) -> None:
    """Bea checks round 2 out; round 3 is checked round (the Fool's last card up first)."""
    gm("check")
    gm("hand", "show", "Fay: +4P")
    gm("check")
    gm("check")


def _hooded(gm: GM) -> None:
    """Cy turns KW face down with Hood the Lantern (slid IX for it): known as Cy's (R44)."""
    _round_two(gm)
    gm("power", "use", "Cy", "hood", "--card", "KW", "--access", "IX")
    gm("check")
    _to_the_showdown(gm)


def _showdown(result: Any) -> dict[str, Any]:
    event: dict[str, Any] = next(e for e in result["events"] if e["kind"] == "showdown")
    return event


def test_r44_the_showdown_keeps_a_hooded_card(gm: GM) -> None:
    """R44: Cy's hooded KW is a down card the console recorded; the GM gives only the two
    cards nobody has seen and Cy plays his pair of Kings."""
    _hooded(gm)
    line = gm.fails("hand", "showdown", "Cy: 3S 4S 8W", "Bea: 2S 3W 9W")
    assert line == ("error: Cy holds 6 cards (one went for a power): 4 are known (KC 10C 2C up, "
                    "KW hooded), so give the other 2, not 3 (3S 4S 8W) (R44)")
    line = gm.fails("hand", "showdown", "Cy: KC 10C 2C 3S 4S 8W", "Bea: 2S 3W 9W")
    assert line == ("error: Cy's hand holds KW (KC 10C 2C up, KW hooded), and the cards given "
                    "do not; give only the down cards nobody has seen, or all 6 cards (R44)")
    line = gm.fails("hand", "showdown", "Cy: 3S 7W", "Bea: 2S 3W 9W")
    assert line == "error: 7W is Bea's (showing); it cannot be in Cy's hand (R44; --magic if a " \
        "power changed the cards)"
    event = _showdown(gm.json("hand", "showdown", "Cy: 3S 4S", "Bea: 2S 3W 9W"))
    assert sorted(event["hands"]["Cy"]) == sorted("KC 10C 2C KW 3S 4S".split())
    assert event["best"]["Cy"]["category"] == "pair"
    assert set(event["best"]["Cy"]["cards"][:2]) == {"KC", "KW"}


def test_r44_a_hooded_card_given_again_is_the_same_card(gm: GM) -> None:
    """R44: giving the hooded card with the unseen ones, or the whole hand, is the same hand."""
    _hooded(gm)
    event = _showdown(gm.json("hand", "showdown", "Cy: KW 3S 4S", "Bea: 2S 3W 9W"))
    assert sorted(event["hands"]["Cy"]) == sorted("KC 10C 2C KW 3S 4S".split())
    gm("undo", "--yes")
    event = _showdown(gm.json("hand", "showdown", "Cy: KC 10C 2C KW 3S 4S", "Bea: 2S 3W 9W"))
    assert sorted(event["hands"]["Cy"]) == sorted("KC 10C 2C KW 3S 4S".split())


def test_r44_the_showdown_prompt_counts_the_cards_still_to_give(gm: GM) -> None:
    """R44: the prompt names how many cards each hand still asks for; the Fool, all up, none."""
    _hooded(gm)
    out = gm("status").output
    assert "cards nobody has seen (Cy 2, Bea 3;" in " ".join(out.split())
    assert gm.status()["hand"]["to_give"] == {"Cy": 2, "Bea": 3, "Fay": 0}
    line = gm.fails("call")
    assert "cards nobody has seen (Cy 2, Bea 3;" in line and "Fay" not in line.split("(")[1]


def test_r44_a_hand_of_known_cards_needs_no_typing(gm: GM) -> None:
    """R44: every card of every hand known, `hand showdown` alone records it."""
    gm("new", *HOOD)
    gm("hand", "start")
    gm("hand", "show", "Cy: KC KW", "Bea: 4C 5W", "Fay: AC 8P 9S 10S")
    gm("fold", "Cy")
    gm("check", "Bea")  # nobody else can bet: no more betting (R14)
    assert gm.status()["hand"]["betting_over"]
    line = gm.fails("hand", "showdown")
    assert "Bea's cards are missing (showing: 4C 5W; give the 5 down cards" in line
    line = gm.fails("hand", "showdown", "Bea: 2S 3S 4S 5S 6S")
    assert line == ("error: the showdown needs every hand still in: the Fool's cards are all "
                    "up, and 3 cards of his seven are not shown (showing: AC 8P 9S 10S); give "
                    "them as \"Fay: CARDS\"")
    gm("hand", "show", "Bea: +6C 7W", "Fay: +2P 3P 4P")
    event = _showdown(gm.json("hand", "showdown", "Bea: 2S 3S 4S"))
    assert sorted(event["hands"]["Fay"]) == sorted("AC 8P 9S 10S 2P 3P 4P".split())


def _every_down_card_known(gm: GM) -> None:
    """Cy's hand after the last round: KW hooded, IX and XII slid for powers, so of his three
    face-down cards two are left, KW and one nobody has seen; betting over."""
    _hooded(gm)
    gm("power", "access", "Cy", "XII", "upright")


def test_r44_a_power_names_the_users_own_hooded_card(gm: GM) -> None:
    """E56, R44: Cy's hooded KW is his own down card, so a power may name it (it was refused
    as "Cy's (turned face down by a power)" when another player showed cards last)."""
    _every_down_card_known(gm)
    out = gm("power", "use", "Cy", "waxing", "--card", "KW", "--as", "AW", "--access",
             "XVIII").output
    assert "Cy's KW counts as AW" in out


def test_r44_a_power_cannot_name_a_down_card_when_every_one_is_known(gm: GM) -> None:
    """R44: sliding XVIII leaves Cy one face-down card, the hooded KW; naming 3S as his is
    refused, and the showdown is never left asking for "the 0 down cards"."""
    _every_down_card_known(gm)
    line = gm.fails("power", "use", "Cy", "waxing", "--card", "3S", "--as", "4S", "--access",
                    "XVIII")
    assert line == ("error: Waxing and Waning: Cy's face-down cards are all known (KW): 3S is "
                    "not one of them (R44)")
    assert gm.status()["hand"]["to_give"]["Cy"] == 1


def test_s22_a_power_without_as_says_what_the_card_may_count_as(gm: GM) -> None:
    """S22: `--as` left out, the line says what the card may become, not a sentence cut off."""
    _every_down_card_known(gm)
    line = gm.fails("power", "use", "Cy", "waxing", "--card", "KC", "--access", "XVIII")
    assert line == ("error: Waxing and Waning needs --as CARD: the card KC may count as the "
                    "next rank up or down in the same suit, around the Rota")


def test_r26_depletion_is_announced_when_power_use_takes_the_second_side(gm: GM) -> None:
    """R26: the access inside `power use --access` that takes a card's second power is
    announced as the plain `power access` announces it: once, on the path that took it."""
    gm("new", "--fool", "Fay", "--seat", "Rosa:I:red:Ann:II", "--seat", "Bea:III:blue:Bob:IV")
    gm("hand", "start")
    gm("hand", "show", "Rosa: 2C 3W", "Bea: 4C 5W", "Fay: AC 8P 9S 10S")
    out = gm("power", "access", "Bea", "XIX", "upright").output
    assert "depleted" not in out
    gm("fold", "Bea")
    gm("fold", "Rosa")
    gm("hand", "start")
    gm("hand", "show", "Rosa: 2C 3W", "Bea: 4C 5W", "Fay: AC 8P 9S 10S")
    gm("check")
    gm("check")
    out = gm("power", "use", "Rosa", "eclipse", "--access", "XIX", "--target", "Bea").output
    assert out.count("The Fool announces: The Sun is depleted.") == 1, out
    assert "XIX" in gm.json("power", "list")["depleted"]


def test_r44_a_showdown_of_more_known_cards_than_held_says_how_to_go_on(gm: GM) -> None:
    """R44: an evening recorded before the check above can name more cards as a player's than
    the player holds; the showdown says so and names the way on (``--magic`` with the whole
    hand), never "give the 0 down cards"."""
    from referee.errors import BadInput
    from referee.evening.showdown import showdown
    from referee.storage.store import open_evening

    _every_down_card_known(gm)
    gm("power", "access", "Cy", "XVIII", "upright")  # KW is the one face-down card left
    with open_evening(gm.db, write=False) as ev:
        state = ev.state("evening")
    assert state.hand is not None
    state.hand.effects.append({"kind": "counts_as", "scope": "hand", "target": "Cy",
                               "power": "Waxing and Waning", "by": "Cy", "card": "3S",
                               "counts": "4S"})
    try:
        showdown(state, [("Bea", "2S 3W 9W")], magic=False, now=0.0)
    except BadInput as refused:
        line = str(refused)
    else:
        raise AssertionError("a showdown with an impossible hand was taken")
    assert line == ("the console knows 5 cards as Cy's (KC 10C 2C up, KW hooded, 3S named by "
                    "Waxing and Waning), and Cy holds 4: give Cy's whole hand as \"Cy: CARDS\" "
                    "with --magic (R44)")
    assert "0 down cards" not in line
    hands: list[tuple[str | None, str]] = [("Cy", "KC 10C 2C KW 3S"), ("Bea", "2S 3W 9W")]
    event = showdown(state, hands, magic=True, now=0.0)[0]
    assert event["kind"] == "showdown"
    assert sorted(event["hands"]["Cy"]) == sorted("KC 10C 2C KW 3S".split())


def _hooded_count(gm: GM, name: str) -> int:
    """How many of ``name``'s down cards the console knows as turned face down (E77)."""
    player = next(p for p in gm.status()["hand"]["players"] if p["name"] == name)
    return int(player["hooded"])


def _wheel(gm: GM) -> None:
    """Cy turns KW face down (Hood the Lantern); Bea, with Charges, is to act in round 2."""
    _round_two(gm, "Bea")
    gm("power", "use", "Cy", "hood", "--card", "KW", "--access", "IX")
    gm("check")


def test_e251_a_hooded_card_moved_unseen_is_known_as_nobodys(gm: GM) -> None:
    """E251: after Turn of the Wheel, Cy's hooded KW may be in Bea's hand: the showdown asks
    Cy for it with his unseen cards, and takes it in Bea's hand, where it was refused as
    still Cy's."""
    _wheel(gm)
    assert _hooded_count(gm, "Cy") == 1
    out = " ".join(gm("power", "use", "Bea", "turn of the wheel", "--access", "X").output.split())
    assert ("the cards turned face down (KW of Cy) may have moved unseen, so the showdown asks "
            "for them with the cards nobody has seen (E251)") in out
    assert _hooded_count(gm, "Cy") == 0
    _to_the_showdown(gm)
    event = _showdown(gm.json("hand", "showdown", "Cy: 3S 4S 9C", "Bea: KW 3W"))
    assert "KW" in event["hands"]["Bea"] and "KW" not in event["hands"]["Cy"]


def test_e251_only_the_users_own_hooded_cards_are_forgotten_by_their_own_exchange(
        gm: GM) -> None:
    """E251: Behind the Veil moves the user's own down card: Bea's exchange leaves Cy's
    hooded KW known as his; the refusal names how it is known."""
    _wheel(gm)
    out = gm("power", "use", "Bea", "behind the veil", "--access", "II").output
    assert "E251" not in out and _hooded_count(gm, "Cy") == 1
    _to_the_showdown(gm)
    line = gm.fails("hand", "showdown", "Cy: 3S 4S", "Bea: KW 3W")
    assert line == ("error: KW is Cy's (turned face down by a power); it cannot be in Bea's hand "
                    "(R44; --magic if a power changed the cards)")


def _decreed(gm: GM) -> None:
    """Cy's up 2C counts as KC by Royal Decree; Bea, with Charges, is to act in round 2."""
    _round_two(gm, "Bea", "Cy")
    gm("power", "use", "Cy", "royal decree", "--card", "2C", "--access", "IV")
    gm("check")


def test_e252_a_magic_card_goes_with_its_chip(gm: GM) -> None:
    """E252: Bea takes Cy's decreed 2C by Exchange of Vows: it counts as KC in her hand, and
    Cy's showdown no longer asks for it (both showdowns, plain and --magic, were refused)."""
    _decreed(gm)
    out = " ".join(gm("power", "use", "Bea", "exchange of vows", "--card", "6C", "--target",
                      "Cy", "--new", "2C", "--access", "VI").output.split())
    assert "2C keeps the magic, the chip going with the card (E252)" in out
    assert "In force: Bea's 2C counts as KC: Royal Decree" in out
    _to_the_showdown(gm)
    event = _showdown(gm.json("hand", "showdown", "Cy: 3S 4S", "Bea: 3W 9W"))
    assert "2C" in event["hands"]["Bea"] and "2C" not in event["hands"]["Cy"]
    assert "KC" in event["best"]["Bea"]["cards"]  # the King of Cups it counts as


def test_e252_a_magic_card_cut_down_takes_its_magic_with_it(gm: GM) -> None:
    """E252: Cut Down turns the decreed 2C sideways: dead, it counts for nothing, and the
    showdown no longer asks Cy's hand to count it as KC (it was refused either way)."""
    _decreed(gm)
    out = " ".join(gm("power", "use", "Bea", "cut down", "--card", "2C", "--target", "Cy",
                      "--access", "XIII").output.split())
    assert "dead, it counts for nothing; its magic ends with it (E252)" in out
    _to_the_showdown(gm)
    event = _showdown(gm.json("hand", "showdown", "Cy: 3S 4S", "Bea: 3W 9W"))
    assert event["best"]["Cy"]["category"] == "pair"  # KC KW; a 2C counted as KC: three Kings


def test_r44_a_power_turns_up_only_a_down_card_that_can_be_there(gm: GM) -> None:
    """R44: Cy's one face-down card is the hooded KW (IX and XII slid), so Daylight turns up
    KW and nothing else: 3S is refused, naming the card known."""
    _round_two(gm)
    gm("power", "use", "Cy", "hood", "--card", "KW", "--access", "IX")
    gm("power", "access", "Cy", "XII", "upright")
    gm("check")
    line = gm.fails("power", "use", "Bea", "daylight", "--target", "Cy", "--card", "3S",
                    "--access", "XIX")
    assert line == ("error: Daylight: Cy's face-down cards are all known (KW): 3S is not one "
                    "of them (R44)")
    out = gm("power", "use", "Bea", "daylight", "--target", "Cy", "--card", "KW", "--access",
             "XIX").output
    assert "Cy turns KW face up" in out
    assert _hooded_count(gm, "Cy") == 0


def _toll_after_suspended(gm: GM) -> None:
    """Everyone calls Abe's bet in round 1 (a pot of 3); in round 2 Abe makes Cal play as if
    all-in (Suspended) and checks, and Bea takes The Reaper's Toll: Abe pays it, Cal is passed
    over (S16). Round 3 is checked through."""
    gm("new", *FORTUNE)
    gm("soul", "guess", "Ann", "cobalt", "--name", "houdini")  # +2 for Abe
    gm("soul", "guess", "Bob", "amber", "--name", "catherine the great")  # +2 for Bea
    gm("hand", "start")
    gm("hand", "show", "Abe: KC KW", "Bea: 4C 5W", "Cal: 6C 7W", "Fay: AC 8P 9S 10S")
    gm("bet")
    gm("call")
    gm("call")
    gm("hand", "show", "Abe: +2C 3W", "Bea: +PC KnW", "Cal: +2S 4S", "Fay: +AS 3P")
    gm("power", "use", "Abe", "suspended", "--target", "Cal", "--access", "XII")
    gm("check")
    out = gm("power", "use", "Bea", "toll", "--access", "XIII").output
    assert "Abe pays" in out
    gm("check")
    gm("hand", "show", "Fay: +4P")
    gm("check")
    gm("check")


def test_e262_a_toll_paid_after_a_suspension_is_not_the_suspended_players(gm: GM) -> None:
    """E262, S19, R14: Cal, Suspended at a pot of 3, plays only for the pot as it stood; the
    chip Abe paid for the toll after it lies in a pot Cal cannot win (Cal's pair of Kings took
    all 4)."""
    _toll_after_suspended(gm)
    pots = gm.status()["hand"]["pots"]
    assert [(p["size"], p["eligible"]) for p in pots] == [
        (3, ["Abe", "Bea", "Cal", "Fay"]), (1, ["Abe", "Bea", "Fay"])]
    event = _showdown(gm.json("hand", "showdown", "Abe: 5C 6W", "Bea: 6S 7S",
                              "Cal: KS KP QS"))
    won = {p["name"]: (sum(p["chips"].values()), p["winners"]) for p in event["pots"]}
    assert won == {"main pot": (3, ["Cal"]), "side pot 1": (1, ["Abe"])}


def test_e264_a_hooded_major_was_dealt_face_up_and_gives_no_power(gm: GM) -> None:
    """E264, R26: powers come from a major dealt face down; Cy's XIX was dealt face up and
    only turned down by Hood the Lantern, so it cannot be slid for a power (it was taken,
    and granted Daylight, for a card hooded at no cost)."""
    gm("new", *HOOD)
    gm("hand", "start")
    gm("hand", "show", "Cy: KC XIX", "Bea: 4C 5W", "Fay: AC 8P 9S 10S")
    gm("power", "use", "Cy", "hood", "--card", "XIX", "--access", "IX")
    line = gm.fails("power", "access", "Cy", "XIX", "upright")
    assert line == ("error: The Sun was dealt face up to Cy and turned face down by a power "
                    "(hooded); powers come from cards dealt face down (R26, E264)")
    gm.fails("power", "use", "Cy", "daylight", "--target", "Bea", "--card", "2W", "--access",
             "XIX")
    sun = {p["key"]: p for p in gm.json("power", "list")["powers"]}["XIX-upright"]
    assert sun["holder"] is None and sun["available"]
    assert _hooded_count(gm, "Cy") == 1  # still Cy's down card, known (R44)


def test_e266_a_card_showing_counts_as_what_magic_made_it_for_the_opener(gm: GM) -> None:
    """E266, R9, S22: Abe's up 2C counts as KC by Royal Decree until the hand ends, the chip on
    it for all to see: his showing hand is King high, above Bea's Queen, so he opens (Bea
    opened, the 2C ranked as a Two)."""
    gm("new", *FORTUNE)
    gm("soul", "guess", "Ann", "cobalt", "--name", "houdini")  # +2 for Abe
    gm("hand", "start")
    gm("hand", "show", "Abe: 2C 3W", "Bea: QC 5W", "Cal: 6C 7W", "Fay: AC 8P 9S 10S")
    assert gm.status()["hand"]["to_act"] == "Bea"
    gm("power", "use", "Abe", "royal decree", "--card", "2C", "--access", "IV")
    assert gm.status()["hand"]["to_act"] == "Abe"


def test_e266_the_fool_need_not_bet_when_magic_showing_beats_him(gm: GM) -> None:
    """E266, R15, R45: after Fortune Reversed, Abe's up 2C waxes to 3C: his showing 3C 3W 3C
    is three Threes, above the Fool's pair of Kings, so the Fool, his turn come with nothing
    bet, checks (he bet, the 2C ranked as a Two)."""
    _fortune_reversed_round(gm, abe="+3C 10W")
    gm("power", "use", "Abe", "waxing", "--card", "2C", "--as", "3C", "--access", "XVIII")
    out = gm("check", "Cal").output
    assert "Fay checks - forced: nothing to call (R15)" in out


def test_e267_the_dance_may_discard_the_card_it_just_dealt(gm: GM) -> None:
    """E267, R44: Cy's one face-down card is the hooded KW (IX and XXI slid); The Dance deals
    him the top card face down, then he discards "any one of [his] cards": the new one,
    unseen. It was refused as no card of his ("face-down cards are all known ()")."""
    _round_two(gm)
    gm("power", "use", "Cy", "hood", "--card", "KW", "--access", "IX")
    out = gm("power", "use", "Cy", "dance", "--card", "5S", "--access", "XXI").output
    assert "Cy takes the top card of the deck face down and discards 5S" in out
    assert _hooded_count(gm, "Cy") == 1  # KW is still his, known (R44)
    gm("check")
    _to_the_showdown(gm)
    assert gm.status()["hand"]["to_give"]["Cy"] == 1  # 5 cards: KC 10C 2C up, KW hooded
    line = gm.fails("hand", "showdown", "Cy: 5S", "Bea: 2S 3W 9W")
    assert "5S" in line and "discarded" in line


def test_r38_a_power_nobody_holds_names_the_way_to_it(gm: GM) -> None:
    """R26, R38: a power used before its card was slid is refused with the move that slides the
    card for it in the same act, which then records both."""
    _round_two(gm)
    line = gm.fails("power", "use", "Cy", "hood", "--card", "KW")
    assert line == ("error: Cy does not hold Hood the Lantern (IX-upright), and nobody does yet: "
                    "slide its card for it in the same act, `referee power use Cy \"Hood the "
                    "Lantern\" --access IX` (R26, R38)")
    out = gm("power", "use", "Cy", "Hood the Lantern", "--access", "IX", "--card", "KW").output
    assert "Cy turns KW face down" in out
