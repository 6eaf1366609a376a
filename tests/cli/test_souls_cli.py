"""`referee soul|charge|power|points|promotions` through the real CLI (R16, R19-R28), their JSON
contracts and their refusals of bad input (E58)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from referee.cli.main import app
from referee.content.scenario import data_file, load_scenario
from referee.rules.cards import to_roman

FOOL = "Fiona"
# Seats from the Fool's left (R9): Cara (III), Eve (VII), Ada (XVI); bottles in that order:
# the cobalt phial (Houdini, I) to Dan, the amber bottle (Catherine the Great, III) to Finn,
# the cracked green bottle (Thoreau, IX) to Ben.
SEATS = ["Ada:XVI:red:Ben:IX", "Cara:III:blue:Dan:V", "Eve:VII:green:Finn:XI"]
COBALT, AMBER, GREEN = "the cobalt phial", "the amber bottle", "the cracked green bottle"
NUMERALS = {to_roman(n) for n in range(22)}
NOTHING = {
    FOOL: "AC 2S 3W 5P 6C 7S 8W",
    "Cara": "2C 3S 5W 6P 7C 8S PW",
    "Eve": "3C 5S 6W 7P 8C PS KnW",
    "Ada": "5C 6S 7W 8P PC KnS QW",
}


def cli(runner: CliRunner, db: Path, *args: str) -> Result:
    return runner.invoke(app, ["--db", str(db), *args])


def ok(runner: CliRunner, db: Path, *args: str) -> Result:
    result = cli(runner, db, *args)
    assert result.exit_code == 0, result.output
    return result


def js(runner: CliRunner, db: Path, *args: str) -> Any:
    return json.loads(ok(runner, db, *args, "--json").stdout)


def refused(runner: CliRunner, db: Path, *args: str) -> str:
    """A user mistake: one clear line, exit 2, the evening file byte for byte unchanged."""
    before = db.read_bytes() if db.exists() else None
    result = cli(runner, db, *args)
    assert result.exit_code == 2, result.output
    after = db.read_bytes() if db.exists() else None
    assert after == before, "the evening file changed"
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert result.stdout == ""
    return lines[0]


@pytest.fixture
def ev(runner: CliRunner, db: Path) -> Path:
    """An evening with three seats and their assistants."""
    ok(runner, db, "new", "--fool", FOOL, *[a for s in SEATS for a in ("--seat", s)])
    return db


def status(runner: CliRunner, db: Path) -> Any:
    return js(runner, db, "status")


def holders(runner: CliRunner, db: Path) -> dict[str, str | None]:
    return {row["soul"]: row["holder"] for row in js(runner, db, "soul", "list")}


def play_hand(runner: CliRunner, db: Path, cards: dict[str, str],
              folds: tuple[str, ...] = (), before_showdown: tuple[tuple[str, ...], ...] = ()
              ) -> Any:
    """Checks around (folding those named) until the betting is over, then the showdown;
    each round's up cards are shown first (R9): cards 3-6 of a stakeholder's seven, the
    Fool's first 4, 6, 7."""
    if status(runner, db)["hand"] is None:
        ok(runner, db, "hand", "start")
    planned = {**NOTHING, **cards}
    while not (hand := status(runner, db)["hand"])["betting_over"]:
        who = hand["to_act"]
        if who is None:
            for name in hand["missing_up"]:
                have = hand["showing"].get(name, [])
                up = planned[name].split()
                up = up if name == FOOL else up[2:6]
                new = [c for c in up if c not in have][:hand["up_due"][name] - len(have)]
                ok(runner, db, "hand", "show", name, "+" + " ".join(new))
            continue
        ok(runner, db, "fold" if who in folds else "check", who)
    for args in before_showdown:
        ok(runner, db, *args)
    shown = [f"{p}: {c}" for p, c in {**NOTHING, **cards}.items() if p not in folds]
    return js(runner, db, "hand", "showdown", *shown)


# -- help ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("command", [
    ["soul"], ["soul", "list"], ["soul", "study"], ["soul", "guess"], ["soul", "sell"],
    ["soul", "force-trade"], ["soul", "buyout"], ["soul", "decline"], ["soul", "smash"],
    ["soul", "consume"], ["soul", "give"], ["charge", "give"], ["power", "access"],
    ["power", "use"], ["power", "list"], ["points"], ["promotions"],
])
def test_every_soul_command_has_help(runner: CliRunner, command: list[str]) -> None:
    result = runner.invoke(app, [*command, "--help"])
    assert result.exit_code == 0, result.output
    assert "Usage" in result.output


# -- R16 the Law --------------------------------------------------------------------------------


def test_r16_soul_give_away_from_the_table_only(runner: CliRunner, ev: Path) -> None:
    line = refused(runner, ev, "soul", "give", "Dan", "Cara", "cobalt")
    assert "Cara" in line and "R16" in line
    refused(runner, ev, "soul", "give", "Dan", FOOL, "cobalt")
    out = ok(runner, ev, "soul", "give", "Dan", "Finn", "cobalt").stdout
    assert "Dan gives the cobalt phial to Finn" in out
    assert holders(runner, ev)[COBALT] == "Finn"


def test_r16_charge_give_away_from_the_table_only(runner: CliRunner, ev: Path) -> None:
    ok(runner, ev, "soul", "guess", "Dan", "cobalt", "--name", "Houdini")
    line = refused(runner, ev, "charge", "give", "Cara", "Finn", "1")
    assert "R16" in line
    ok(runner, ev, "rise", "Cara")
    ok(runner, ev, "charge", "give", "Cara", "Finn", "1")
    assert status(runner, ev)["charges"] == {"Cara": 1, "Eve": 1, "Ada": 0}


def test_r16_powers_never_change_hands(runner: CliRunner, ev: Path) -> None:
    ok(runner, ev, "hand", "start")
    ok(runner, ev, "power", "access", "Ada", "XIX", "reversed")
    line = refused(runner, ev, "power", "use", "Cara", "XIX-reversed")
    assert "cannot be given" in line


# -- R19 souls ----------------------------------------------------------------------------------


def test_r19_soul_list_shows_holders_and_keeps_secrets(runner: CliRunner, ev: Path) -> None:
    rows = js(runner, ev, "soul", "list")
    assert rows == [
        {"soul": COBALT, "kind": "bottled", "holder": "Dan", "destroyed": False},
        {"soul": AMBER, "kind": "bottled", "holder": "Finn", "destroyed": False},
        {"soul": GREEN, "kind": "bottled", "holder": "Ben", "destroyed": False},
        {"soul": "Cara's soul", "kind": "own", "holder": "Cara", "destroyed": False},
        {"soul": "Eve's soul", "kind": "own", "holder": "Eve", "destroyed": False},
        {"soul": "Ada's soul", "kind": "own", "holder": "Ada", "destroyed": False},
    ]
    table = ok(runner, ev, "soul", "list").stdout
    assert "Houdini" not in table and "cobalt phial" in table
    revealed = ok(runner, ev, "soul", "list", "--reveal").stdout
    assert "Harry Houdini" in revealed and "GM" in revealed


def test_r19_destroyed_soul_has_no_holder(runner: CliRunner, ev: Path) -> None:
    out = ok(runner, ev, "soul", "consume", "Dan", "cobalt", "--arcanum", "V").stdout
    assert "+1 status point in V The Hierophant" in out
    row = js(runner, ev, "soul", "list")[0]
    assert row == {"soul": COBALT, "kind": "bottled", "holder": None, "destroyed": True}
    line = refused(runner, ev, "soul", "give", "Dan", "Finn", "cobalt")
    assert "gone" in line


# -- R20 auction --------------------------------------------------------------------------------


def test_r20_sell_moves_chips_and_soul_together(runner: CliRunner, ev: Path) -> None:
    out = ok(runner, ev, "soul", "sell", "Ben", "cracked", "Cara", "--chips", "blue:2",
             "--promise", "a favour").stdout
    assert "Ben sells the cracked green bottle to Cara for blue 2 and the promise" in out
    st = status(runner, ev)
    assert st["chips"]["Ben"] == {"blue": 2} and st["chips"]["Cara"] == {"blue": 8}
    assert holders(runner, ev)[GREEN] == "Cara"


@pytest.mark.parametrize("args", [
    ["Dan", "cracked", "Cara", "--chips", "blue:1"],     # Dan does not hold it
    ["Ben", "cracked", "Finn", "--chips", "green:1"],    # Finn has no chips
    ["Ben", "cracked", "Cara"],                          # no bid
    ["Ben", "cracked", "Cara", "--chips", "blue:x"],
])
def test_r20_bad_sale_moves_nothing(runner: CliRunner, ev: Path, args: list[str]) -> None:
    refused(runner, ev, "soul", "sell", *args)


# -- R21 own soul -------------------------------------------------------------------------------


def test_r21_force_trade_with_the_largest_holder(runner: CliRunner, ev: Path) -> None:
    ok(runner, ev, "rise", "Eve")
    ok(runner, ev, "chips", "give", "Eve", "Dan", "green:3")
    ok(runner, ev, "chips", "give", "Eve", "Ben", "green:2")
    assert "announce it first" in refused(runner, ev, "soul", "force-trade", "Eve")  # R21
    ok(runner, ev, "soul", "auction", "Eve", "Eve")
    out = ok(runner, ev, "soul", "force-trade", "Eve").stdout
    assert "Eve forces a trade of Eve's soul: it goes to Cara" in out
    assert "receives 3 green" in out
    st = status(runner, ev)
    assert st["chips"]["Eve"] == {"green": 8} and st["chips"]["Dan"] == {}
    assert holders(runner, ev)["Eve's soul"] == "Cara"


def test_r21_force_trade_tie_needs_with(runner: CliRunner, ev: Path) -> None:
    ok(runner, ev, "rise", "Eve")
    ok(runner, ev, "chips", "give", "Eve", "Dan", "green:2")
    ok(runner, ev, "chips", "give", "Eve", "Ben", "green:2")
    ok(runner, ev, "soul", "auction", "Eve", "Eve")
    assert "--with" in refused(runner, ev, "soul", "force-trade", "Eve")
    ok(runner, ev, "soul", "force-trade", "Eve", "--with", "Ada")
    assert holders(runner, ev)["Eve's soul"] == "Ada"


def test_r21_buyout_needs_all_ten(runner: CliRunner, ev: Path) -> None:
    ok(runner, ev, "rise", "Ada")
    ok(runner, ev, "chips", "give", "Ada", "Finn", "red:9")
    assert "9 of Ada's ten" in refused(runner, ev, "soul", "buyout", "Finn", "Ada")
    ok(runner, ev, "chips", "give", "Ada", "Finn", "red:1")
    out = ok(runner, ev, "soul", "buyout", "Finn", "Ada").stdout
    assert "Ada is bought out of Ada's soul: it goes to Finn" in out
    assert status(runner, ev)["chips"]["Ada"] == {"red": 10}
    assert holders(runner, ev)["Ada's soul"] == "Finn"


def test_r17_r21_decline_then_resign(runner: CliRunner, ev: Path) -> None:
    ok(runner, ev, "rise", "Ada")
    ok(runner, ev, "chips", "give", "Ada", "Finn", "red:10")
    assert "soul buyout Eve Ada" in refused(runner, ev, "resign", "Ada")
    ok(runner, ev, "soul", "decline", "Finn", "Ada")
    ok(runner, ev, "resign", "Ada")
    assert status(runner, ev)["seats"][2]["resigned"] is True


# -- R22 smashing -------------------------------------------------------------------------------


def test_r22_smash_kills_the_attacker(runner: CliRunner, ev: Path) -> None:
    ok(runner, ev, "rise", "Ada")
    ok(runner, ev, "soul", "give", "Ada", "Finn", "Ada")
    out = ok(runner, ev, "soul", "smash", "Finn", "Ada").stdout
    assert "Ada dies" in out
    seat = status(runner, ev)["seats"][2]
    assert seat["name"] == "Ada" and seat["dead"] is True
    assert js(runner, ev, "soul", "list")[5]["destroyed"] is True


def test_r22_no_smashing_at_the_table_or_of_a_bottle(runner: CliRunner, ev: Path) -> None:
    refused(runner, ev, "soul", "smash", "Dan", "cobalt")
    ok(runner, ev, "rise", "Ada")
    ok(runner, ev, "soul", "give", "Ada", "Finn", "Ada")
    ok(runner, ev, "sit", "Ada")
    assert "R22" in refused(runner, ev, "soul", "smash", "Finn", "Ada")


# -- R23 studying -------------------------------------------------------------------------------


def test_r23_study_prints_the_next_clue_of_the_seats_sheet(runner: CliRunner,
                                                           ev: Path) -> None:
    sheet = load_scenario().find_soul(GREEN).clues[3]   # Ada sits third
    out = ok(runner, ev, "soul", "study", "Ben", "cracked").stdout
    assert "clue 1 of 3" in out and sheet[0] in out
    assert js(runner, ev, "soul", "study", "Ben", "cracked") == {"clue": sheet[1],
                                                                 "remaining": 1}
    out = ok(runner, ev, "soul", "study", "Ben", "cracked").stdout
    assert sheet[2] in out and "last clue" in out
    assert "exhausted" in refused(runner, ev, "soul", "study", "Ben", "cracked")


def test_r23_study_only_a_soul_the_side_holds(runner: CliRunner, ev: Path) -> None:
    line = refused(runner, ev, "soul", "study", "Ben", "cobalt")
    assert "only a soul their side holds" in line and "R23" in line


# -- R24 guesses --------------------------------------------------------------------------------


def test_r24_first_correct_name_earns_two_charges(runner: CliRunner, ev: Path) -> None:
    out = ok(runner, ev, "soul", "guess", "Dan", "cobalt", "--name", "houdini").stdout
    assert "correct" in out and "+2 Charges for Cara's side, now 2" in out
    assert status(runner, ev)["charges"]["Cara"] == 2


def test_r24_first_correct_arcanum_earns_one_charge(runner: CliRunner, ev: Path) -> None:
    got = js(runner, ev, "soul", "guess", "Finn", "amber", "--arcanum", "III")
    assert got == {"name": None, "arcanum": "correct", "charges_earned": 1, "guesses_left": 2}


def test_r24_both_at_once_then_later_correct_earns_nothing(runner: CliRunner,
                                                           ev: Path) -> None:
    got = js(runner, ev, "soul", "guess", "Ben", "cracked", "--name", "H. D. Thoreau",
             "--arcanum", "the hermit")
    assert got["charges_earned"] == 3
    out = ok(runner, ev, "soul", "guess", "Dan", "cracked", "--name", "Thoreau").stdout
    assert "someone was first: no Charges" in out
    assert status(runner, ev)["charges"] == {"Cara": 0, "Eve": 0, "Ada": 3}


def test_r24_near_miss_is_reported_not_accepted(runner: CliRunner, ev: Path) -> None:
    out = ok(runner, ev, "soul", "guess", "Dan", "cobalt", "--name", "Houdni").stdout
    assert "near miss" in out and "not accepted" in out
    assert status(runner, ev)["charges"]["Cara"] == 0


def test_r24_a_fourth_guess_is_refused(runner: CliRunner, ev: Path) -> None:
    for left in (2, 1, 0):
        got = js(runner, ev, "soul", "guess", "Dan", "amber", "--arcanum", "XX")
        assert got["guesses_left"] == left
    line = refused(runner, ev, "soul", "guess", "Dan", "amber", "--arcanum", "III")
    assert "all three guesses" in line and "R24" in line


# -- R25 Charges --------------------------------------------------------------------------------


def test_r25_charges_go_from_side_to_side(runner: CliRunner, ev: Path) -> None:
    ok(runner, ev, "soul", "guess", "Finn", "amber", "--name", "Catherine II")
    out = ok(runner, ev, "charge", "give", "Finn", "Ben", "2").stdout
    assert "Eve's side gives 2 Charges to Ada's side" in out
    assert status(runner, ev)["charges"] == {"Cara": 0, "Eve": 0, "Ada": 2}


def test_r25_giving_charges_the_side_lacks_is_refused(runner: CliRunner, ev: Path) -> None:
    ok(runner, ev, "soul", "guess", "Finn", "amber", "--arcanum", "III")
    line = refused(runner, ev, "charge", "give", "Finn", "Ben", "2")
    assert "Eve's side has 1 Charge, not 2" in line
    refused(runner, ev, "charge", "give", "Finn", "Eve", "1")     # the same side


# -- R26 powers ---------------------------------------------------------------------------------


def test_r26_access_grants_once_and_announces_depleted(runner: CliRunner, ev: Path) -> None:
    ok(runner, ev, "hand", "start")
    out = ok(runner, ev, "power", "access", "Ada", "XII", "upright").stdout
    assert "Ada receives Upside Down" in out and "out of Ada's hand" in out
    play_hand(runner, ev, {"Ada": "5C 6S 7W 8P PC KnS"})
    ok(runner, ev, "hand", "start")
    got = js(runner, ev, "power", "access", "Cara", "XII", "upright")
    assert got == {"granted": False, "power": None, "depleted": False}
    play_hand(runner, ev, {"Cara": "2C 3S 5W 6P 7C 8S"})
    ok(runner, ev, "hand", "start")
    out = ok(runner, ev, "power", "access", "Eve", "hanged man", "reversed").stdout
    assert "Eve receives Suspended" in out
    assert "The Fool announces: The Hanged Man is depleted." in out
    listing = js(runner, ev, "power", "list")
    assert listing["depleted"] == ["XII"]
    held = {p["key"]: (p["holder"], p["used"], p["available"]) for p in listing["powers"]
            if not p["available"]}
    assert held == {"XII-upright": ("Ada", False, False), "XII-reversed": ("Eve", False, False)}
    play_hand(runner, ev, {"Eve": "3C 5S 6W 7P 8C PS"})
    ok(runner, ev, "hand", "start")
    out = ok(runner, ev, "power", "access", "Cara", "XII", "reversed").stdout
    assert "already out: nothing granted" in out and "is depleted" in out
    assert "The Fool announces" not in out
    play_hand(runner, ev, {"Cara": "2C 3S 5W 6P 7C 8S"})
    ok(runner, ev, "hand", "start")
    got = js(runner, ev, "power", "access", "Ada", "XII", "upright")
    assert got == {"granted": False, "power": None, "depleted": True}


@pytest.mark.parametrize(("args", "words"), [
    (["Ada", "5C", "upright"], "minor card"),
    ([FOOL, "XII", "upright"], "the Fool"),
    (["Ada", "XII", "sideways"], "orientation"),
])
def test_r26_access_refused(runner: CliRunner, ev: Path, args: list[str], words: str) -> None:
    ok(runner, ev, "hand", "start")
    assert words in refused(runner, ev, "power", "access", *args)


def test_r26_access_outside_a_hand_is_refused(runner: CliRunner, ev: Path) -> None:
    assert "during a hand" in refused(runner, ev, "power", "access", "Ada", "XII", "upright")


def test_r26_use_pays_charges_once(runner: CliRunner, ev: Path) -> None:
    ok(runner, ev, "soul", "guess", "Ben", "cracked", "--arcanum", "IX")    # Ada's side: 1
    ok(runner, ev, "hand", "start")
    ok(runner, ev, "power", "access", "Ada", "XII", "upright")              # 1 Charge
    out = ok(runner, ev, "power", "use", "Ada", "upside down", "--card", "5C").stdout
    assert "Ada uses Upside Down, paying 1 Charge" in out
    assert status(runner, ev)["charges"]["Ada"] == 0
    line = refused(runner, ev, "power", "use", "Ada", "XII-upright")
    assert "already used" in line


def test_r26_use_without_the_charges_is_refused(runner: CliRunner, ev: Path) -> None:
    ok(runner, ev, "hand", "start")
    ok(runner, ev, "power", "access", "Ada", "0", "upright")        # The Leap: 2 Charges
    line = refused(runner, ev, "power", "use", "Ada", "The Leap", "--card", "5C", "--as", "KC")
    assert "needs 2 Charges; Ada's side has 0" in line


# -- R27 status points --------------------------------------------------------------------------


def test_r27_duet_hands_and_souls_in_points(runner: CliRunner, ev: Path) -> None:
    # Eve: a pair of Kings and the Duet IV + XIV; Ada: three pair with the Duet II + IX.
    result = play_hand(runner, ev, {"Eve": "KS KC IV XIV 4W 9S 10P",
                                    "Ada": "10S 10C 4P 4C II IX 9C"})
    best = result["events"][-1]["best"]
    assert (best["Eve"]["category"], best["Ada"]["category"]) == ("two_pair_duet",
                                                                  "three_pair")
    got = js(runner, ev, "points", "--reveal")
    assert got == {
        FOOL: {"0": 5},
        "Cara": {"III": 5},
        "Dan": {"I": 2, "V": 1},              # holds the cobalt phial (I)
        "Eve": {"IV": 1, "VII": 5},           # keeps the lower Duet Arcanum
        "Finn": {"III": 2, "XI": 1, "XIV": 1},
        "Ada": {"II": 3, "XVI": 5},
        "Ben": {"IX": 1 + 2 + 3},             # start, the green bottle, Ada's Duet
    }
    # E43: nobody has found a bottle's Arcanum yet, so without --reveal the 2 points for
    # holding it stand under "?".
    assert js(runner, ev, "points") == {**got, "Dan": {"V": 1, "?": 2},
                                        "Finn": {"XI": 1, "XIV": 1, "?": 2},
                                        "Ben": {"IX": 1 + 3, "?": 2}}
    table = ok(runner, ev, "points").stdout
    assert "+3 hand 1: three pair" in table and "+1 hand 1: two pair with a Duet" in table


def test_r27_folded_hand_earns_nothing_and_own_soul_lost(runner: CliRunner,
                                                         ev: Path) -> None:
    ok(runner, ev, "hand", "start")
    ok(runner, ev, "hand", "show", "Eve", "KS", "IV")
    play_hand(runner, ev, {}, folds=("Eve",))
    ok(runner, ev, "rise", "Eve")
    ok(runner, ev, "soul", "give", "Eve", "Ben", "Eve")
    got = js(runner, ev, "points")
    assert got["Eve"] == {"VII": 2} and got["Ben"] == {"VII": 2, "IX": 1, "?": 2}
    assert js(runner, ev, "points", "--reveal")["Ben"] == {"VII": 2, "IX": 3}
    detail = js(runner, ev, "points", "--detail")
    assert {"person": "Eve", "arcanum": "VII", "points": -3,
            "source": "own soul held by Ben"} in detail


# -- R28 promotion ------------------------------------------------------------------------------


def test_r28_promotions_vacant_and_contested(runner: CliRunner, ev: Path) -> None:
    assert js(runner, ev, "promotions") == []
    assert "No promotion claim" in ok(runner, ev, "promotions").stdout
    play_hand(runner, ev, {"Ada": "10S 10C 4P 4C II IX 9C"})     # Ben: 1 + 2 + 3 in IX
    ok(runner, ev, "soul", "give", "Dan", "Ben", "cobalt")
    ok(runner, ev, "soul", "consume", "Ben", "cobalt", "--arcanum", "IX")   # 7
    ok(runner, ev, "rise", "Ada")
    ok(runner, ev, "chips", "give", "Ada", "Finn", "red:10")
    ok(runner, ev, "soul", "buyout", "Finn", "Ada")            # Finn 2 in XVI, Ada 5 - 3
    ben = {"person": "Ben", "arcanum": "IX", "points": 7, "occupant": None,
           "occupant_points": None}
    assert js(runner, ev, "promotions", "--reveal") == [ben]
    # E43: 2 of Ben's 7 are for the green bottle, whose Arcanum nobody has found: listing the
    # claim would give it away.
    assert js(runner, ev, "promotions") == []
    ok(runner, ev, "soul", "consume", "Finn", "amber", "--arcanum", "XVI")   # 3 > 2
    finn = {"person": "Finn", "arcanum": "XVI", "points": 3, "occupant": "Ada",
            "occupant_points": 2}
    assert js(runner, ev, "promotions", "--reveal") == [finn, ben]
    assert js(runner, ev, "promotions") == [finn]
    table = ok(runner, ev, "promotions", "--reveal").stdout
    assert "vacant (needs 7)" in table and "Ada (2)" in table


# -- JSON contracts (the keys scripts read) -----------------------------------------------------


def test_json_soul_list_contract(runner: CliRunner, ev: Path) -> None:
    for row in js(runner, ev, "soul", "list"):
        assert list(row) == ["soul", "kind", "holder", "destroyed"]
        assert row["kind"] in ("bottled", "own") and isinstance(row["destroyed"], bool)
    for row in js(runner, ev, "soul", "list", "--reveal"):
        assert list(row) == ["soul", "kind", "holder", "destroyed", "identity", "arcanum"]
        assert row["arcanum"] in NUMERALS
    revealed = {r["soul"]: (r["identity"], r["arcanum"])
                for r in js(runner, ev, "soul", "list", "--reveal")}
    assert revealed[COBALT] == ("Harry Houdini", "I")
    assert revealed["Ada's soul"] == ("Ada", "XVI")


def test_json_study_guess_and_charges_contract(runner: CliRunner, ev: Path) -> None:
    got = js(runner, ev, "soul", "study", "Dan", "cobalt")
    assert list(got) == ["clue", "remaining"] and got["remaining"] == 2
    got = js(runner, ev, "soul", "guess", "Dan", "cobalt", "--name", "Harry Houdini",
             "--arcanum", "I")
    assert got == {"name": "correct", "arcanum": "correct", "charges_earned": 3,
                   "guesses_left": 2}
    got = js(runner, ev, "soul", "guess", "Dan", "amber", "--name", "Napoleon")
    assert got == {"name": "wrong", "arcanum": None, "charges_earned": 0, "guesses_left": 2}
    got = js(runner, ev, "soul", "guess", "Dan", "amber", "--name", "Catherine the Grate",
             "--arcanum", "XX")
    assert got == {"name": "near", "arcanum": "wrong", "charges_earned": 0,
                   "guesses_left": 1}
    assert status(runner, ev)["charges"] == {"Cara": 3, "Eve": 0, "Ada": 0}


def test_json_points_and_promotions_contract(runner: CliRunner, ev: Path) -> None:
    got = js(runner, ev, "points")
    assert list(got) == [FOOL, "Cara", "Dan", "Eve", "Finn", "Ada", "Ben"]
    for arcana in got.values():  # "?": a soul's secret Arcanum (E43)
        assert set(arcana) <= NUMERALS | {"?"}
        assert all(isinstance(n, int) for n in arcana.values())
    assert isinstance(js(runner, ev, "promotions"), list)


def test_json_power_access_contract(runner: CliRunner, ev: Path) -> None:
    ok(runner, ev, "hand", "start")
    got = js(runner, ev, "power", "access", "Ada", "XII", "upright")
    assert got == {"granted": True, "power": "Upside Down", "depleted": False}


# -- bad input (E58) ----------------------------------------------------------------------------


def test_bad_fourth_guess(runner: CliRunner, ev: Path) -> None:
    for _ in range(3):
        ok(runner, ev, "soul", "guess", "Ben", "cobalt", "--name", "Napoleon")
    refused(runner, ev, "soul", "guess", "Ben", "cobalt", "--name", "Houdini")


def test_bad_study_a_soul_not_held(runner: CliRunner, ev: Path) -> None:
    refused(runner, ev, "soul", "study", "Dan", "amber")
    refused(runner, ev, "soul", "study", "Dan", "Cara")       # an own soul
    refused(runner, ev, "soul", "study", "Cara", "cobalt")    # not an assistant


def test_bad_give_charges_the_side_lacks(runner: CliRunner, ev: Path) -> None:
    refused(runner, ev, "charge", "give", "Dan", "Ben", "1")


def test_bad_power_twice_or_without_charges(runner: CliRunner, ev: Path) -> None:
    ok(runner, ev, "hand", "start")
    free = next(p for p in js(runner, ev, "power", "list")["powers"] if p["name"] == "Ill Star")
    ok(runner, ev, "power", "access", "Cara", free["card"], free["orientation"])
    ok(runner, ev, "power", "use", "Cara", free["key"], "--target", "Eve")
    refused(runner, ev, "power", "use", "Cara", free["key"], "--target", "Eve")
    ok(runner, ev, "power", "access", "Eve", "0", "reversed")          # 2 Charges
    refused(runner, ev, "power", "use", "Eve", "0-reversed")
    refused(runner, ev, "power", "use", "Ada", "0-reversed")           # not hers


def _bad_scenario(tmp_path: Path, old: str, new: str) -> Path:
    text = data_file("scenario.toml").read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "bad.toml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


BAD_SCENARIOS = {
    "missing arcanum": ('arcanum = "IX"\n', "", "arcanum: missing"),
    "duplicate label": ('label = "the amber bottle"', 'label = "the cobalt phial"',
                        "also the label"),
}


@pytest.mark.parametrize("case", sorted(BAD_SCENARIOS))
def test_bad_custom_scenario_new(runner: CliRunner, db: Path, tmp_path: Path,
                                 case: str) -> None:
    old, new, words = BAD_SCENARIOS[case]
    bad = _bad_scenario(tmp_path, old, new)
    seats = [a for s in SEATS for a in ("--seat", s)]
    line = refused(runner, db, "new", "--fool", FOOL, *seats, "--scenario", str(bad))
    assert words in line and "bad.toml" in line
    assert not db.exists()
    ok(runner, db, "new", "--fool", FOOL, *seats)
    line = refused(runner, db, "new", "--force", "--fool", FOOL, *seats, "--scenario",
                   str(bad))
    assert words in line


@pytest.mark.parametrize("case", sorted(BAD_SCENARIOS))
def test_bad_custom_scenario_check(runner: CliRunner, ev: Path, tmp_path: Path,
                                   case: str) -> None:
    old, new, words = BAD_SCENARIOS[case]
    line = refused(runner, ev, "scenario", "check", str(_bad_scenario(tmp_path, old, new)))
    assert words in line


def test_custom_scenario_is_used(runner: CliRunner, db: Path, tmp_path: Path) -> None:
    good = _bad_scenario(tmp_path, 'label = "the amber bottle"', 'label = "the honey jar"')
    assert ok(runner, db, "scenario", "check", str(good)).stdout.startswith("ok: 6 souls")
    ok(runner, db, "new", "--fool", FOOL, *[a for s in SEATS for a in ("--seat", s)],
       "--scenario", str(good))
    assert "the honey jar" in holders(runner, db)
