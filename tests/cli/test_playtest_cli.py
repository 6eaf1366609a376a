"""What three playtests caught at a live Fool's Errand table, through the console, with the
books, the turn and the messages worked out by hand.

The table: the Fool Max; seats from his left Cy (III, blue), Kit (XIII, green), Ada (XVI, red),
ten chips each. The bottles go out in seat order (E14): the cobalt phial (Houdini, I) to Di,
the amber bottle (Catherine the Great, III) to Flo, the cracked green bottle (Thoreau, IX) to
Ben. Each assistant names their side's bottle and its Arcanum at once: 3 Charges a side (R24).
Max holds no chips, so he never bets (R15) and the best-showing stakeholder opens.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.cli.conftest import GM

SEATS = ["--seat", "Cy:III:blue:Di:II", "--seat", "Kit:XIII:green:Flo:XVII",
         "--seat", "Ada:XVI:red:Ben:IX"]
GUESSES = [("Di", "cobalt", "Houdini", "I"), ("Flo", "amber", "Catherine the Great", "III"),
           ("Ben", "green", "Thoreau", "IX")]


def table(gm: GM, *, guesses: bool = True) -> None:
    gm("new", "--fool", "Max", *SEATS)
    if guesses:
        for helper, soul, name, arcanum in GUESSES:
            gm("soul", "guess", helper, soul, "--name", name, "--arcanum", arcanum)
    gm("hand", "start")


def hand(gm: GM) -> dict[str, Any]:
    data: dict[str, Any] = gm.status()["hand"]
    return data


def deal(gm: GM, cards: dict[str, str]) -> None:
    """Seven cards a player, dealt down, down, up, up, up, up, down (the Fool's all up)."""
    gm.check_around(cards)


def up(gm: GM, cards: dict[str, str], street: int) -> None:
    """The up cards of ``street`` for everyone who has not had them."""
    h = hand(gm)
    given = []
    for name in h["missing_up"]:
        seven = cards[name].split()
        want = seven[:h["up_due"][name]] if name == "Max" else seven[2:2 + h["up_due"][name]]
        new = [c for c in want if c not in h["showing"].get(name, [])]
        given.append(f"{name}: +{' '.join(new)}")
    if given:
        gm("hand", "show", *given)
    assert hand(gm)["street"] == street


def charges(gm: GM) -> dict[str, int]:
    data: dict[str, int] = gm.status()["charges"]
    return data


def powers(gm: GM) -> dict[str, dict[str, Any]]:
    return {p["name"]: p for p in gm.json("power", "list")["powers"]}


# -- 1. "Choose two cards in your hand" (E56) ----------------------------------------------------

#: Ada holds 5C 6C 7C 8C and no Nine of Cups: with Abundance copying a 9C she does not have,
#: her 2W would make a straight flush and beat Cy's four Kings.
ABUNDANCE = {"Ada": "III 5C 6C 7C 8C 3S 2W", "Cy": "KC KW KS 4P KP 9S AP",
             "Kit": "2S 10W 3P 4W 9P 10P QS", "Max": "4C 10C PS KnS QW 6P 7P"}


def test_e56_abundance_copies_only_a_card_the_player_holds(gm: GM) -> None:
    table(gm)
    up(gm, ABUNDANCE, 1)  # showing: Cy KS 4P, Kit 3P 4W, Ada 6C 7C: Cy's King opens
    gm("power", "access", "Ada", "III", "upright")  # Abundance, slid face down (R26)
    # Round 1: Ada holds one face-down card (5C): two named down cards cannot both be hers.
    line = gm.fails("power", "use", "Ada", "Abundance", "--card", "2W", "--as", "9C")
    assert line == ("error: Abundance: Ada holds 1 face-down card now (up: 6C 7C), so 2W and "
                    "9C cannot both be in Ada's hand (E56)")
    line = gm.fails("power", "use", "Ada", "Abundance", "--card", "6C", "--as", "KS")
    assert line == "error: Abundance: KS is showing for Cy, not in Ada's hand (E56)"
    line = gm.fails("power", "use", "Ada", "Abundance", "--card", "6C", "--as", "III")
    assert "III is out of this hand (given up or discarded by Ada)" in line
    gm("bet", "Cy")
    gm("call", "Kit")
    gm("call", "Ada")  # the pot: blue 1, green 1, red 1
    deal(gm, ABUNDANCE)  # rounds 2 and 3 checked around; every card dealt
    # Now Ada holds two face-down cards (5C, 2W): the console cannot see that 9C is no
    # card of hers, so the use is accepted, for 2 Charges...
    gm("power", "use", "Ada", "Abundance", "--card", "2W", "--as", "9C")
    assert charges(gm)["Ada"] == 1
    # ... and the showdown of her true hand is refused: the console knows all six of her
    # cards (R44), and 5C is none of them.
    hands = ["Cy: KC KW AP", "Kit: 2S 10W QS", "Ada: 5C 2W"]
    line = gm.fails("hand", "showdown", *hands)
    assert line == ("error: Ada holds 6 cards (one went for a power): 6 are known (6C 7C 8C 3S "
                    "up, 2W 9C named by Abundance), so give none, not 1 (5C) (R44)")
    # Her whole true hand, even ruled --magic, still lacks the card Abundance named (E56).
    line = gm.fails("hand", "showdown", "Cy: KC KW AP", "Kit: 2S 10W QS",
                    "Ada: 6C 7C 8C 3S 5C 2W", "--magic")
    assert line == ("error: Abundance named 2W and 9C as Ada's cards, so Ada's showdown hand "
                    "must hold them; it lacks 9C (S22, E56)")
    gm("undo")  # the power was misused: taken back, the Charges with it
    assert charges(gm)["Ada"] == 3
    result = gm.json("hand", "showdown", *hands)
    pot = next(e for e in result["events"] if e["kind"] == "showdown")["pots"][0]
    assert pot["winners"] == ["Cy"] and "Four of a kind" in pot["why"]
    assert gm.chips("Cy") == {"blue": 10, "green": 1, "red": 1}
    assert gm.chips("Ada") == {"red": 9}


DEAD = {"Ada": "III 5C 6C 7C 8C 3S 2W", "Cy": "KC KW KS 4P KP 9S AP",
        "Kit": "XIII 2S 3P 4W 9P 10P QS", "Max": "4C 10C PS KnS QW 6P 7P"}


def test_e56_a_dead_card_and_a_card_held_fast_stay_the_players_own(gm: GM) -> None:
    table(gm)
    up(gm, DEAD, 1)
    gm("power", "access", "Ada", "III", "upright")
    gm("power", "access", "Kit", "XIII", "upright")  # Cut Down
    gm("check", "Cy")
    gm("power", "use", "Kit", "Cut Down", "--target", "Ada", "--card", "7C")
    line = gm.fails("power", "use", "Ada", "Abundance", "--card", "6C", "--as", "7C")
    assert line == "error: Abundance: Ada's 7C is dead and counts for nothing in Ada's hand (E56)"
    assert charges(gm)["Ada"] == 3 and not powers(gm)["Abundance"]["used"]


HOLD = {"Ada": "VIII 5C 6C 7C 8C 3S 2W", "Cy": "KC KW KS 4P KP 9S AP",
        "Kit": "2S 10W 3P 4W 9P 10P QS", "Max": "4C 10C PS KnS QW 6P 7P"}


def test_e56_hold_fast_names_cards_the_showdown_must_hold(gm: GM) -> None:
    table(gm)
    up(gm, HOLD, 1)
    gm("power", "access", "Ada", "VIII", "upright")
    gm("power", "use", "Ada", "Hold Fast", "--card", "6C", "--card", "5C")
    deal(gm, HOLD)
    # R44: 5C, held fast face down, is known as Ada's: the GM gives only her unseen card.
    line = gm.fails("hand", "showdown", "Cy: KC KW AP", "Kit: 2S 10W QS", "Ada: 9C 2W")
    assert line == ("error: Ada holds 6 cards (one went for a power): 5 are known (6C 7C 8C 3S "
                    "up, 5C named by Hold Fast), so give the other 1, not 2 (9C 2W) (R44)")
    line = gm.fails("hand", "showdown", "Cy: KC KW AP", "Kit: 2S 10W QS",
                    "Ada: 6C 7C 8C 3S 9C 2W")
    assert line == ("error: Ada's hand holds 5C (6C 7C 8C 3S up, 5C named by Hold Fast), and "
                    "the cards given do not; give only the down cards nobody has seen, or all 6 "
                    "cards (R44)")
    result = gm.json("hand", "showdown", "Cy: KC KW AP", "Kit: 2S 10W QS", "Ada: 2W")
    shown = next(e for e in result["events"] if e["kind"] == "showdown")["hands"]
    assert sorted(shown["Ada"]) == sorted("6C 7C 8C 3S 5C 2W".split())


def test_e56_a_down_card_held_fast_is_the_holders_for_the_rest_of_the_hand(gm: GM) -> None:
    """Ada named 5C, face down, as hers (Hold Fast): it shows for no one else and no power
    names it as another's (R8); `--magic` still passes a card a power moved."""
    table(gm)
    up(gm, HOLD, 1)
    gm("power", "access", "Ada", "VIII", "upright")
    gm("power", "use", "Ada", "Hold Fast", "--card", "6C", "--card", "5C")
    while (h := hand(gm))["street"] == 1:
        gm("check", h["to_act"])
    line = gm.fails("hand", "show", "Cy: +5C")
    assert line == ("error: 5C (Five of Cups) is Ada's: Hold Fast named it as one of Ada's "
                    "cards; a deck holds each card once (R8, E56; --magic if a power changed "
                    "the cards)")
    gm("power", "access", "Kit", "III", "upright")   # Abundance
    line = gm.fails("power", "use", "Kit", "Abundance", "--card", "5C", "--as", "2S")
    assert line == ("error: Abundance: 5C is Ada's (Hold Fast named it as one of Ada's cards); "
                    "it cannot be in Kit's hand (E56)")
    gm("hand", "show", "Cy: +5C", "--magic")
    assert hand(gm)["showing"]["Cy"] == ["KS", "4P", "5C"]


# -- 2. An answer taken at its moment (R38) -------------------------------------------------------

#: Ada's pair of Kings showing opens; Cy holds XX (Second Thoughts) face down, Kit XI.
ANSWER = {"Ada": "5C 2W KS KP 8C 3S 9W", "Cy": "XX KW 4P 9S 2C 6W AP",
          "Kit": "XI 2S 3P 4W 9P 10P QS", "Max": "4C 10C PS KnS QW 6P 7P"}


def test_r38_second_thoughts_slid_and_used_right_after_the_bet(gm: GM) -> None:
    table(gm)
    up(gm, ANSWER, 1)
    gm("bet", "Ada")
    assert hand(gm)["pot"] == 1 and hand(gm)["to_act"] == "Cy"  # after Ada: the Fool, Cy
    gm("power", "access", "Cy", "XX", "reversed")  # sliding the card...
    out = gm("power", "use", "Cy", "Second Thoughts").output  # ... and using it: one act
    assert "Ada's bet is taken back, chips and all" in out
    h = hand(gm)
    assert h["pot"] == 0 and gm.chips("Ada") == {"red": 10}
    assert h["to_act"] == "Ada" and h["moves"] == ["check", "fold"]


def test_r38_one_command_slides_the_card_and_answers(gm: GM) -> None:
    table(gm)
    up(gm, ANSWER, 1)
    gm("bet", "Ada")
    out = gm("power", "use", "Cy", "second", "--access", "XX").output
    assert "Cy slides XX face down to the Fool for its reversed power (R26, R38)." in out
    h = hand(gm)
    assert h["pot"] == 0 and h["to_act"] == "Ada" and h["moves"] == ["check", "fold"]
    last = gm.json("log", "--last", "1")["commands"][0]
    assert last["text"] == "power use Cy second --access XX"
    assert [e["kind"] for e in last["events"]] == ["power_accessed", "power_used"]
    assert powers(gm)["Second Thoughts"]["holder"] == "Cy"
    # The card must be the power's, and a power already out is not slid for: nothing recorded.
    gm("check", "Ada")
    assert "--access names that card, not XIX" in gm.fails(
        "power", "use", "Kit", "Mistrial", "--access", "XIX")
    assert "already out (held by Cy)" in gm.fails(
        "power", "use", "Kit", "Second Thoughts", "--access", "XX")


def test_r38_nothing_else_may_come_between(gm: GM) -> None:
    table(gm)
    up(gm, ANSWER, 1)
    gm("bet", "Ada")
    gm("power", "access", "Kit", "XI", "reversed")  # Kit slides a card of his own first
    line = gm.fails("power", "use", "Cy", "Second Thoughts", "--access", "XX")
    assert line == ("error: Second Thoughts: played in answer to another stakeholder's bet or "
                    "raise, at once: nothing else may have happened since (S15)")
    gm("call", "Cy")  # a move between, too: the bet can no longer be answered (S15)
    assert "(S15)" in gm.fails("power", "use", "Cy", "Second Thoughts", "--access", "XX")


MISTRIAL = {"Ada": "XI 2W KS KP 8C 3S 9W", "Cy": "0 KW 4P 9S 2C 6W AP",
            "Kit": "V 2S 3P 4W 9P 10P QS", "Max": "4C 10C PS KnS QW 6P 7P"}


def test_r38_only_the_one_who_slid_a_card_may_answer(gm: GM) -> None:
    table(gm)
    up(gm, MISTRIAL, 1)
    gm("power", "access", "Ada", "XI", "reversed")  # Ada holds Mistrial already
    gm("check", "Ada")
    gm("power", "use", "Cy", "Sent on an Errand", "--access", "0", "--target", "Ada")
    gm("power", "access", "Kit", "V", "upright")  # Kit slides a card: his act comes first
    line = gm.fails("power", "use", "Ada", "Mistrial")
    assert line == ("error: Mistrial: played in answer to another stakeholder's power, at "
                    "once: Kit has slid a card to the Fool since, and only that answer may "
                    "follow (R38)")
    assert hand(gm)["folded"] == ["Ada"]


@pytest.mark.parametrize("one_command", [False, True])
def test_r38_mistrial_slid_and_used_at_once(gm: GM, one_command: bool) -> None:
    table(gm)
    up(gm, MISTRIAL, 1)
    gm("check", "Ada")
    gm("power", "access", "Cy", "0", "reversed")
    gm("power", "use", "Cy", "Sent on an Errand", "--target", "Ada")
    assert hand(gm)["folded"] == ["Ada"] and charges(gm)["Cy"] == 1
    if one_command:  # Ada, folded by the very power she answers, still slides her card
        gm("power", "use", "Ada", "Mistrial", "--access", "XI")
    else:
        gm("power", "access", "Ada", "XI", "reversed")
        gm("power", "use", "Ada", "Mistrial")
    h = hand(gm)
    assert h["folded"] == [] and h["to_act"] == "Cy"
    assert charges(gm) == {"Cy": 1, "Kit": 3, "Ada": 2}  # Cy's 2 are lost; Mistrial costs 1
    listed = powers(gm)
    assert listed["Sent on an Errand"]["spent"] == "cancelled by Mistrial"
    assert listed["Mistrial"]["spent"] == "used"


# -- 4. A power by any word or by its card (E55) ---------------------------------------------------

TOLL = {"Cy": "2C KW KS 4P KP 9S AP", "Kit": "XIII 2S 3P 4W 9P 10P QS",
        "Ada": "5C 2W 6C 7C 8C 3S 9W", "Max": "4C 10C PS KnS QW 6P 7P"}


@pytest.mark.parametrize("said", ["toll", "reaper", "XIII", "Reaper's Toll", "reapers toll",
                                  "death", "the reaper", "XIII reversed"])
def test_e55_the_reapers_toll_by_any_word_or_its_card(gm: GM, said: str) -> None:
    table(gm)
    up(gm, TOLL, 1)  # Cy's King opens
    gm("power", "access", "Kit", "XIII", "reversed")
    gm("check", "Cy")
    out = gm("power", "use", "Kit", said).output
    assert "Kit uses The Reaper's Toll, paying 1 Charge" in out
    assert "Cy, Ada pay" in out
    h = hand(gm)
    assert h["pot"] == 2 and h["bet"] == 0 and h["to_act"] == "Kit"
    assert gm.chips("Cy") == {"blue": 9} and gm.chips("Ada") == {"red": 9}
    assert charges(gm)["Kit"] == 2


def test_e55_several_candidates_are_listed_and_narrowed_to_the_holders(gm: GM) -> None:
    table(gm)
    up(gm, TOLL, 1)
    line = gm.fails("power", "use", "Kit", "star")
    assert line == ("error: power 'star' names more than one: Wish Upon a Star (XVII upright) "
                    "or Ill Star (XVII reversed); name the one meant (E55)")
    line = gm.fails("power", "use", "Kit", "XIII")
    assert line == ("error: Kit holds no power of XIII: Cut Down (XIII upright) not given out, "
                    "The Reaper's Toll (XIII reversed) not given out (E55)")
    assert "did you mean" in gm.fails("power", "use", "Kit", "reeper tol")
    gm("power", "access", "Kit", "XIII", "reversed")
    gm("check", "Cy")
    gm("power", "use", "Kit", "the")  # of every name with "the", Kit holds one


def test_e55_both_powers_of_a_card_held_ask_which(gm: GM) -> None:
    table(gm)
    up(gm, TOLL, 1)
    gm("power", "access", "Kit", "XIII", "upright")  # Cut Down, in this hand
    gm.check_around(TOLL)
    gm("hand", "showdown", "Cy: 2C KW AP", "Kit: 2S QS", "Ada: 5C 2W 9W")
    gm("hand", "start")
    up(gm, TOLL, 1)
    gm("power", "access", "Kit", "XIII", "reversed")  # and the Toll, in the next
    line = gm.fails("power", "use", "Kit", "XIII")
    assert line == ("error: power 'XIII' names more than one: Cut Down (XIII upright) or The "
                    "Reaper's Toll (XIII reversed); name the one meant (E55)")


# -- 5. What became of a power (E57) ---------------------------------------------------------------

DOWNFALL = {"Cy": "XX KW KS 4P KP 9S AP", "Kit": "XVI 2S 3P 4W 9P 10P QS",
            "Ada": "XI 2W 6C 7C 8C 3S 9W", "Max": "4C 10C PS KnS QW 6P 7P"}


def test_e57_a_power_lost_to_downfall_says_so_by_name(gm: GM) -> None:
    table(gm)
    up(gm, DOWNFALL, 1)
    gm("power", "access", "Cy", "XX", "reversed")
    gm("power", "access", "Kit", "XVI", "reversed")
    out = " ".join(gm("power", "use", "Kit", "Downfall", "--target", "Cy", "--seed",
                      "1").output.split())
    assert "Cy loses Second Thoughts (XX reversed), drawn at random (seed 1), as if spent" in out
    assert "XX-reversed" not in out
    listed = powers(gm)
    assert listed["Second Thoughts"]["spent"] == "lost to Downfall"
    listing = " ".join(gm("power", "list").output.split())
    assert ("Second Thoughts (0 Charges; when another stakeholder bets or raises) · lost to "
            "Downfall (Cy's)") in listing
    gm("bet", "Cy")
    assert gm.fails("power", "use", "Cy", "Second Thoughts") == (
        "error: Second Thoughts was already lost to Downfall; a power is used once (R26, E57); "
        "`referee power list` shows what is left")
    report = gm.json("report")
    lost = next(u for u in report["highlights"]["powers_used"]
                if u["power"] == "Second Thoughts")
    assert (lost["holder"], lost["spent"]) == ("Cy", "lost to Downfall")
    assert "Cy lost Second Thoughts to Downfall" in gm("report").output


def test_e57_a_power_cancelled_by_mistrial_says_so(gm: GM) -> None:
    table(gm)
    up(gm, DOWNFALL, 1)
    gm("power", "access", "Cy", "XX", "reversed")
    gm("power", "use", "Kit", "Downfall", "--access", "XVI", "--target", "Cy", "--seed", "1")
    gm("power", "use", "Ada", "Mistrial", "--access", "XI")
    listed = powers(gm)
    assert listed["Downfall"]["spent"] == "cancelled by Mistrial"
    assert listed["Second Thoughts"]["spent"] == "unused"  # Cy's again: Downfall never was
    assert "cancelled by Mistrial (Kit's)" in " ".join(gm("power", "list").output.split())
    assert "Kit used Downfall, cancelled by Mistrial" in gm("report").output


# -- 3. `points` keeps secrets (E43) ---------------------------------------------------------------


def test_e43_points_hide_a_souls_secret_arcanum_until_it_is_found(gm: GM) -> None:
    table(gm, guesses=False)
    # Flo holds the amber bottle (III, secret): +2 under "?", not under III.
    assert gm.json("points")["Flo"] == {"XVII": 1, "?": 2}
    assert gm.json("points", "--reveal")["Flo"] == {"III": 2, "XVII": 1}
    detail = gm.json("points", "--detail")
    assert {"person": "Flo", "arcanum": "?", "points": 2,
            "source": "holds the amber bottle"} in detail
    assert all(d["arcanum"] != "III" or d["person"] == "Cy" for d in detail)
    table_text = gm("points").output
    flo = [ln for ln in table_text.splitlines() if "holds the amber bottle" in ln]
    assert flo and "?" in flo[0] and "III" not in flo[0] and "Empress" not in flo[0]
    assert "III The Empress" in next(ln for ln in gm("points", "--reveal").output.splitlines()
                                     if "holds the amber bottle" in ln)
    gm("soul", "guess", "Ben", "amber", "--arcanum", "III")  # found: no secret any more
    assert gm.json("points")["Flo"] == {"III": 2, "XVII": 1}


# -- 7. Messages a GM hits (E12, E26, E27, E58) -------------------------------------------------


def test_e12_hand_start_open_declares_it_for_this_hand(gm: GM) -> None:
    gm("new", "--fool", "Max", *SEATS)
    out = gm("hand", "start", "--open").output
    assert "raises at will, from this hand." in out and "next hand" not in out
    assert hand(gm)["phase"] == "open" and hand(gm)["pot"] == 3  # three antes (R13)


GUS = ["--seat", "Cy:III:blue", "--seat", "Kit:XIII:green", "--seat", "Ada:XVI:red",
       "--seat", "Gus:XIX:yellow"]


def test_e58_an_up_card_given_while_the_round_is_bet(gm: GM) -> None:
    gm("new", "--fool", "Max", *GUS)
    gm("hand", "start")
    gm("hand", "show", "Cy: 2C 3W", "Kit: 4S 5P", "Ada: 6C 7W", "Gus: KC KW",
       "Max: AC 8W 9S 10P")
    gm("check", "Gus")  # Gus's Kings open, then the Fool (no chips) and round the table
    for name in ("Cy", "Kit", "Ada"):
        gm("check", name)
    gm("hand", "show", "Cy: +2S 3P", "Kit: +4W 5C", "Ada: +6S 7P", "Gus: +QC QW",
       "Max: +8C 9W")
    gm("bet", "Gus")
    gm("raise", "Cy")
    gm("call", "Kit")
    gm("call", "Ada")  # round 2: Gus bet 1, Cy raised to 2: Gus to act, owing 1
    line = gm.fails("hand", "show", "Max", "+10W")  # the Fool's seventh card, too soon
    assert line == ("error: round 2 is still being bet: Gus to act (owes 1); give Max's next up "
                    "cards once it is over; now `referee call Gus`, `referee raise Gus` or "
                    "`referee fold Gus` (R9)")
    gm("call", "Gus")
    gm("hand", "show", "Max", "+10W")


NO_DOWN = {"Cy": "I II 5P 6P 7S 8S 9C", "Kit": "XIX 2S 3P 4W 9P 10P QS",
           "Ada": "5C 2W 6C 7C 8C 3S KW", "Max": "4C 10C PS KnS QW 6W 7P"}


def test_e26_a_showdown_takes_a_hand_with_no_down_card_left(gm: GM) -> None:
    table(gm)
    up(gm, NO_DOWN, 1)  # Ada's 6C 7C opens
    gm("power", "access", "Cy", "I", "upright")
    gm("power", "access", "Cy", "II", "upright")  # both of Cy's first down cards slid
    gm("power", "access", "Kit", "XIX", "upright")  # Daylight
    for name in ("Ada", "Cy", "Kit"):
        gm("check", name)
    up(gm, NO_DOWN, 2)  # Kit's ten opens
    for name in ("Kit", "Ada", "Cy"):
        gm("check", name)
    up(gm, NO_DOWN, 3)
    gm("power", "use", "Kit", "Daylight", "--target", "Cy", "--card", "9C")  # Cy's last one
    gm("bet", "Kit")
    gm("call", "Ada")
    gm("call", "Cy")
    assert hand(gm)["showing"]["Cy"] == ["5P", "6P", "7S", "8S", "9C"]
    # Cy holds no down card: his hand is the five the console knows, not typed.
    result = gm.json("hand", "showdown", "Kit: 2S QS", "Ada: 5C 2W KW")
    event = next(e for e in result["events"] if e["kind"] == "showdown")
    assert event["hands"]["Cy"] == ["5P", "6P", "7S", "8S", "9C"]
    assert event["best"]["Cy"]["category"] == "straight" and event["pots"][0]["winners"] == ["Cy"]
    assert gm.chips("Cy") == {"blue": 10, "green": 1, "red": 1}


def test_e26_a_hand_with_down_cards_still_missing_says_how_many(gm: GM) -> None:
    table(gm)
    gm.check_around(NO_DOWN)
    line = gm.fails("hand", "showdown", "Kit: XIX 2S QS", "Ada: 5C 2W KW")
    assert line == ("error: the showdown needs every hand still in: Cy's cards are missing "
                    "(showing: 5P 6P 7S 8S; give the 3 down cards as \"Cy: CARDS\")")


def test_e27_a_bet_of_minus_one_is_the_consoles_own_refusal(gm: GM) -> None:
    table(gm)
    up(gm, TOLL, 1)
    assert gm.fails("bet", "-1") == ("error: a bet is at least 1 chip, not -1; write a whole "
                                     "number of chips, or `all` to go all-in (E27)")
    assert gm.fails("bet", "Cy", "-1").startswith("error: a bet is at least 1 chip, not -1")
    assert gm.fails("raise", "--chipz", "blue:1") == (
        "error: no such option: --chipz (see `referee raise --help`)")


def test_e42_plain_output_shows_no_markup_escape(gm: GM, monkeypatch: pytest.MonkeyPatch
                                                ) -> None:
    from referee.cli import context

    gm("new", "--fool", "Max", *SEATS)
    monkeypatch.setattr(context, "_OUTSIDE", context.Context())  # a fresh process, piped
    out = gm("soul", "auction", "Ben", "green").output
    assert "`soul bid BUYER COLOUR:N [--promise TEXT]`" in out and "\\[" not in out


# -- R16a: a soul's sale at the table --------------------------------------------------------------


def test_r16a_a_souls_sale_moves_chips_between_seated_parties(gm: GM) -> None:
    gm("new", "--fool", "Max", *SEATS)
    seated = {s["name"]: s["seated"] for s in gm.status()["seats"]}
    assert seated == {"Cy": True, "Kit": True, "Ada": True}
    gm("soul", "auction", "Ada", "Ada")
    gm("soul", "bid", "Cy", "blue:2")
    gm("soul", "sell", "Ada", "Ada", "Cy")  # both at the table: a sale, not a gift
    assert gm.chips("Ada") == {"red": 10, "blue": 2} and gm.chips("Cy") == {"blue": 8}
    souls = {s["soul"]: s["holder"] for s in gm.json("soul", "list")}
    assert souls["Ada's soul"] == "Cy"
    # A gift at the table stays refused (R16): chips, a soul, Charges.
    assert "the Law, R16" in gm.fails("chips", "give", "Cy", "Ada", "blue:1")
    assert "R16" in gm.fails("soul", "give", "Cy", "Ada", "Ada")
    assert "R16" in gm.fails("charge", "give", "Cy", "Ada", "1")


def test_r16a_the_fool_is_the_counterparty_of_a_forced_trade(gm: GM) -> None:
    gm("new", "--fool", "Max", *SEATS)
    gm("hand", "start", "--open")  # an ante from each: dead money, never returned (R15)
    gm.check_around({"Cy": "2C 3W 2P 3C 4P 6S QS", "Kit": "4S 5P 5W 6P 7C 8S 10C",
                     "Ada": "2S 3S KC KW 5C 7P 9C", "Max": "AC 8W 9S 10P AW AS AP"})
    gm("hand", "showdown", "Cy: 2C 3W QS", "Kit: 4S 5P 10C", "Ada: 2S 3S 9C")
    assert gm.chips("Max") == {"blue": 1, "green": 1, "red": 1}  # four Aces took the antes
    gm("soul", "auction", "Ada", "Ada")
    gm("soul", "force-trade", "Ada")  # the Fool holds the only red chip but Ada's own
    souls = {s["soul"]: s["holder"] for s in gm.json("soul", "list")}
    assert souls["Ada's soul"] == "Max"
    assert gm.chips("Ada") == {"red": 10} and gm.chips("Max") == {"blue": 1, "green": 1}
