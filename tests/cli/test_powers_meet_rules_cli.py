"""Where a power meets a rule it once did not ask (S19-S22, E266): who can open a round, which
up card is the highest, what a card copied is, which card may be slid for a power."""

from __future__ import annotations

from tests.cli.conftest import GM

TABLE = ["--fool", "Fay", "--seat", "Abe:I:red:Ann:II", "--seat", "Bea:III:blue:Bob:IV",
         "--seat", "Cal:V:green:Cat:VI"]
ROUND_1 = ("Abe: KC KW", "Bea: 4C 5W", "Cal: 6C 7W", "Fay: AC 8P 9S 10S")


def _dealt(gm: GM) -> None:
    """Every side holds two Charges from a soul named (R24); hand 1's first up cards are
    given, Abe (the pair of Kings) to act."""
    gm("new", *TABLE)
    gm("soul", "guess", "Ann", "cobalt", "--name", "houdini")
    gm("soul", "guess", "Bob", "amber", "--name", "catherine the great")
    gm("soul", "guess", "Cat", "green", "--name", "thoreau")
    gm("hand", "start")
    gm("hand", "show", *ROUND_1)


def test_e270_take_the_reins_is_refused_to_a_suspended_player(gm: GM) -> None:
    """E270, S19, S20: Cal, Suspended by Bea, takes no further action this hand and cannot
    open round 2; Take the Reins was accepted, its Charge paid, and the usual opener opened."""
    _dealt(gm)
    gm("check")
    gm("power", "use", "Bea", "suspended", "--target", "Cal", "--access", "XII")
    gm("check")
    line = gm.fails("power", "use", "Cal", "take the reins", "--access", "VII")
    assert line == ("error: Take the Reins: Cal is Suspended and takes no further action this "
                    "hand (S19), so cannot open round 2 (E270)")
    gm("power", "access", "Cal", "VII", "reversed")
    line = gm.fails("power", "use", "Cal", "take the reins")
    assert "cannot open round 2 (E270)" in line
    assert gm.status()["charges"]["Cal"] == 2
    reins = next(p for p in gm.json("power", "list")["powers"] if p["key"] == "VII-reversed")
    assert reins["holder"] == "Cal" and reins["spent"] == "unused"


def _decreed(gm: GM) -> None:
    """Bea's 4C counts as KC by Royal Decree (S22), marked with a chip (S6); Cal to act."""
    _dealt(gm)
    gm("check")
    gm("power", "use", "Bea", "royal decree", "--card", "4C", "--access", "IV")
    gm("check")


def test_e271_lightning_strike_takes_the_highest_up_card_as_it_counts(gm: GM) -> None:
    """E271, E266: Bea's 4C counts as the King of Cups until the hand ends, so it is her
    highest up card, above 5W; Lightning Strike discarded 5W, the card as dealt."""
    _decreed(gm)
    line = gm.fails("power", "use", "Cal", "lightning strike", "--target", "Bea", "--new", "2S",
                    "--card", "5W", "--access", "XVI")
    assert line == "error: Lightning Strike: Bea's highest up card is 4C (counts as KC), not 5W " \
        "(E271)"
    out = gm("power", "use", "Cal", "lightning strike", "--target", "Bea", "--new", "2S",
             "--access", "XVI").output
    assert "Bea discards 4C face up and takes 2S face up in its place; its magic ends" in out
    players = {p["name"]: p for p in gm.status()["hand"]["players"]}
    assert players["Bea"]["up"] == ["2S", "5W"]


def test_e272_counterfeit_copies_an_up_card_as_it_counts(gm: GM) -> None:
    """E272, E266: Bea's 4C counts as KC; Cal's Counterfeit of it makes his 6C a King of Cups
    too, named by the card (4C) or by what it counts as (KC). It made 6C a Four, as dealt."""
    _decreed(gm)
    result = gm.json("power", "use", "Cal", "counterfeit", "--card", "6C", "--target", "Bea",
                     "--as", "4C", "--access", "XV")
    used = next(e for e in result["events"] if e["kind"] == "power_used")
    assert used["as"] == "KC"
    assert "Cal's 6C counts as KC: Counterfeit" in gm("status").output
    gm("undo")
    result = gm.json("power", "use", "Cal", "counterfeit", "--card", "6C", "--target", "Bea",
                     "--as", "KC", "--access", "XV")
    assert next(e for e in result["events"] if e["kind"] == "power_used")["as"] == "KC"


def test_e273_a_card_turned_up_by_daylight_may_still_be_slid(gm: GM) -> None:
    """E273, R26: Bea's XIII was dealt face down; Daylight turned it up, and it may still be
    slid for a power (it was refused as 'one of Bea's up cards; powers come from cards dealt
    face down'). Slid, it is out of her up cards, and her hand holds six cards."""
    gm("new", *TABLE)
    gm("hand", "start")
    gm("hand", "show", *ROUND_1)
    gm("power", "use", "Abe", "daylight", "--target", "Bea", "--card", "XIII", "--access", "XIX")
    out = gm("power", "access", "Bea", "XIII", "reversed").output
    assert "XIII Death is out of Bea's hand for this hand (R26)" in out
    players = {p["name"]: p for p in gm.status()["hand"]["players"]}
    assert players["Bea"]["up"] == ["4C", "5W"]
    gm.check_around({"Abe": "5S 6S KC KW 2C 3W 7S", "Bea": "XIII 8W 4C 5W PC KnW 9W",
                     "Cal": "3S 8C 6C 7W 2S 4S 9C", "Fay": "AC 8P 9S 10S 3C 3P 4P"})
    assert gm.status()["hand"]["to_give"]["Bea"] == 2
    event = next(e for e in gm.json("hand", "showdown", "Abe: 5S 6S", "Bea: 8W 9W",
                                    "Cal: 3S 8C 9C")["events"] if e["kind"] == "showdown")
    assert sorted(event["hands"]["Bea"]) == sorted("4C 5W PC KnW 8W 9W".split())


def test_e274_mistrial_answers_the_downfall_that_drew_it(gm: GM) -> None:
    """E274, S15: Downfall drew Abe's unused Mistrial; Mistrial cancels Downfall "before it
    takes effect", so Abe still holds it to answer with (it was refused as lost to Downfall)."""
    _dealt(gm)
    gm("power", "access", "Abe", "XI", "reversed")
    out = gm("power", "use", "Bea", "downfall", "--target", "Abe", "--seed", "1",
             "--access", "XVI").output
    assert "Abe loses Mistrial (XI reversed)" in out
    out = gm("power", "use", "Abe", "mistrial").output
    assert "Downfall of Bea is cancelled before it takes effect" in out
    spent = {p["name"]: p["spent"] for p in gm.json("power", "list")["powers"] if p["holder"]}
    assert spent == {"Mistrial": "used", "Downfall": "cancelled by Mistrial"}
    assert gm.status()["charges"] == {"Abe": 1, "Bea": 1, "Cal": 2}


def test_e274_mistrial_of_ill_star_costs_no_more(gm: GM) -> None:
    """E274, S25: Mistrial cancels Bea's Ill Star on Abe before it takes effect, so the Ill
    Star does not make that Mistrial dearer: one Charge, not two; nothing is left owing."""
    _dealt(gm)
    gm("power", "use", "Bea", "ill star", "--target", "Abe", "--access", "XVII")
    out = gm("power", "use", "Abe", "mistrial", "--access", "XI").output
    assert "Abe uses Mistrial on Bea, paying 1 Charge" in out
    status = gm.status()
    assert status["charges"]["Abe"] == 1
    assert not [f for f in status["in_force"] if f["kind"] == "surcharge"]


def test_e275_abundance_copies_a_card_as_it_counts(gm: GM) -> None:
    """E275, S22: Bea's 4C waxes to count as 5C (Waxing and Waning); Abundance makes her 5W
    a second copy of it, so 5W counts as 5C, the card as it counts. It counted as 4C."""
    _dealt(gm)
    gm("check")
    gm("power", "use", "Bea", "waxing", "--card", "4C", "--as", "5C", "--access", "XVIII")
    result = gm.json("power", "use", "Bea", "abundance", "--card", "5W", "--as", "4C",
                     "--access", "III")
    used = next(e for e in result["events"] if e["kind"] == "power_used")
    assert used["as"] == "5C" and used["needs"] == ["4C"]
    assert "Bea's 5W counts as 5C: Abundance" in gm("status").output


def test_e273_mistrial_from_the_card_daylight_turned_up(gm: GM) -> None:
    """E273, R38: Daylight turned up Bea's XI; she slides it at once for Mistrial and cancels
    the Daylight (refused before as an up card): XI is out of her hand, her other down card
    still down."""
    _dealt(gm)
    gm("power", "use", "Abe", "daylight", "--target", "Bea", "--card", "XI", "--access", "XIX")
    out = gm("power", "use", "Bea", "mistrial", "--access", "XI").output
    assert "Daylight of Abe is cancelled before it takes effect" in out
    players = {p["name"]: p for p in gm.status()["hand"]["players"]}
    assert players["Bea"]["up"] == ["4C", "5W"]
    assert "sound" in gm("verify").output


def test_e276_no_power_is_used_on_the_dead(gm: GM) -> None:
    """E276, R22, R17: Cal sold his soul to Bea, who smashed it away from the table: Cal is
    dead and out of the game. Exile, Neglect and Ill Star, which reach past the hand, were
    accepted on him (Abe's Charge spent, Cal 'rises' and 'sits out' a hand); refused now."""
    gm("new", *TABLE)
    gm("soul", "guess", "Ann", "cobalt", "--name", "houdini")
    gm("soul", "auction", "Cal", "Cal's soul")
    gm("soul", "bid", "Bea", "blue:1")
    gm("soul", "sell", "Cal", "Cal's soul", "Bea")
    gm("rise", "Cal")
    gm("rise", "Bea")
    gm("soul", "smash", "Bea", "Cal's soul")
    gm("sit", "Bea")
    gm("hand", "start")
    gm("hand", "show", "Abe: KC KW", "Bea: 4C 5W", "Fay: AC 8P 9S 10S")
    for power, card in (("exile", "IX"), ("neglect", "III"), ("ill star", "XVII")):
        line = gm.fails("power", "use", "Abe", power, "--target", "Cal", "--access", card)
        assert line.endswith(": Cal is out of the game (dead); a power is used on a "
                             "stakeholder still in the game (E276)"), line
    assert gm.status()["charges"]["Abe"] == 2 and not gm.status()["in_force"]


def test_e273_a_hooded_card_turned_up_again_gives_no_power(gm: GM) -> None:
    """E273, E264: Bea's XIII was dealt face up; hooded, then turned up again by Daylight, it
    was never dealt face down, and sliding it is still refused."""
    gm("new", *TABLE)
    gm("hand", "start")
    gm("hand", "show", "Abe: KC KW", "Bea: 4C XIII", "Cal: 2C 3W", "Fay: AC 8P 9S 10S")
    gm("check")
    gm("power", "use", "Bea", "hood", "--card", "XIII", "--access", "IX")
    gm("check")
    gm("power", "use", "Cal", "daylight", "--target", "Bea", "--card", "XIII", "--access", "XIX")
    line = gm.fails("power", "access", "Bea", "XIII", "reversed")
    assert "powers come from cards dealt face down (R26)" in line


def test_s21_a_card_the_dance_discarded_is_not_slid(gm: GM) -> None:
    """S21, R26, E22: Bea discards her face-down XIII with The Dance: it is out of the hand, and
    sliding it for a power is refused (it was taken from the discards and its power granted,
    and Bea was counted as holding no face-down card)."""
    gm("new", *TABLE)
    gm("hand", "start")
    gm("hand", "show", *ROUND_1)
    gm("check")
    gm("power", "use", "Bea", "the dance", "--card", "XIII", "--access", "XXI")
    line = gm.fails("power", "access", "Bea", "XIII", "reversed")
    assert line == ("error: Death was discarded by a power (Bea's); it is out of this hand, and "
                    "only a card held is slid (R26, S21)")
    assert not [p for p in gm.json("power", "list")["powers"] if p["key"].startswith("XIII")
                and p["holder"]]
