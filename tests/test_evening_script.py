"""A scripted Fool's Errand evening through the CLI, checked against points worked out by hand.

The evening plays studies, guesses (a near miss among them), two full hands with Duet
showdowns (a pair + Duet two pair, then a three pair, with a fold in between), powers
accessed, used and depleted, an auction, a forced trade, a buyout, two souls consumed and a
Charge given; then `points --json` and `promotions --json` are compared with the arithmetic of
R27 and R28 written out below.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from referee.cli.main import app
from referee.content.scenario import load_scenario

FOOL = "Fiona"
SEATS = ["Ada:XVI:red:Ben:IX", "Cara:III:blue:Dan:V", "Eve:VII:green:Finn:XI"]


class Table:
    """The GM at the console: every command must succeed."""

    def __init__(self, runner: CliRunner, db: Path) -> None:
        self.runner, self.db = runner, db

    def __call__(self, *args: str) -> str:
        result = self.runner.invoke(app, ["--db", str(self.db), *args])
        assert result.exit_code == 0, (args, result.output)
        return result.stdout

    def json(self, *args: str) -> Any:
        return json.loads(self(*args, "--json"))

    def hand(self) -> Any:
        return self.json("status")["hand"]

    def street(self, up: dict[str, str], actions: list[tuple[str, str]]) -> None:
        """Give the up cards, then play the betting actions, each in the console's turn."""
        for name, cards in up.items():
            self("hand", "show", name, *cards.split())
        for name, action in actions:
            hand = self.hand()
            assert hand["to_act"] == name, (hand["to_act"], name, action)
            self(action, name)

    def showdown(self, hands: dict[str, str]) -> Any:
        hand = self.hand()
        assert hand["betting_over"] and hand["to_act"] is None
        result = self.json("hand", "showdown", *[f"{p}: {c}" for p, c in hands.items()])
        return result["events"][-1]


def test_scripted_evening(runner: CliRunner, db: Path) -> None:
    gm = Table(runner, db)
    scenario = load_scenario()
    gm("new", "--fool", FOOL, *[a for s in SEATS for a in ("--seat", s)])
    # Seats from the Fool's left (R9): Cara (III) 1, Eve (VII) 2, Ada (XVI) 3. The bottles go
    # out in that order, each to the side's assistant (R19).
    secrets = {r["soul"]: (r["holder"], r["identity"], r["arcanum"])
               for r in gm.json("soul", "list", "--reveal")}
    assert secrets["the cobalt phial"] == ("Dan", "Harry Houdini", "I")
    assert secrets["the amber bottle"] == ("Finn", "Catherine the Great", "III")
    assert secrets["the cracked green bottle"] == ("Ben", "Henry David Thoreau", "IX")

    # -- studies (R23): each assistant reads their own seat's sheet, in order --------------
    cobalt = scenario.find_soul("the cobalt phial").clues
    assert gm.json("soul", "study", "Dan", "cobalt") == {"clue": cobalt[1][0], "remaining": 2}
    assert gm.json("soul", "study", "Dan", "cobalt") == {"clue": cobalt[1][1], "remaining": 1}
    green = scenario.find_soul("the cracked green bottle").clues
    assert gm.json("soul", "study", "Ben", "cracked")["clue"] == green[3][0]
    amber = scenario.find_soul("the amber bottle").clues
    assert gm.json("soul", "study", "Finn", "amber")["clue"] == amber[2][0]

    # -- guesses (R24) ------------------------------------------------------------------------
    # Dan names the cobalt phial and its Arcanum at once: 2 + 1 = 3 Charges for Cara's side.
    assert gm.json("soul", "guess", "Dan", "cobalt", "--name", "Houdini", "--arcanum", "I") == {
        "name": "correct", "arcanum": "correct", "charges_earned": 3, "guesses_left": 2}
    # Finn is right about the Arcanum too, but second: nothing.
    assert gm.json("soul", "guess", "Finn", "cobalt", "--arcanum", "I")["charges_earned"] == 0
    # Ben: "H.D. Thoreau" is an alias once punctuation is ignored; with IX: 3 for Ada's side.
    assert gm.json("soul", "guess", "Ben", "cracked", "--name", "H.D. Thoreau", "--arcanum",
                   "IX")["charges_earned"] == 3
    # Finn: a near miss is reported, never accepted; then the full name and III: 3 for Eve's.
    assert gm.json("soul", "guess", "Finn", "amber", "--name", "Catherine") == {
        "name": "near", "arcanum": None, "charges_earned": 0, "guesses_left": 2}
    assert gm.json("soul", "guess", "Finn", "amber", "--name", "Catherine the Great",
                   "--arcanum", "III")["charges_earned"] == 3
    assert gm.json("status")["charges"] == {"Cara": 3, "Eve": 3, "Ada": 3}

    # -- hand 1: Eve plays a pair of Kings with the Duet IV + XIV (R27) --------------------
    # Down cards: Cara 2C 3S .. PW; Eve KS 4W .. 10P; Ada XII 5C .. KnS (XII goes for a power).
    gm("hand", "start")
    assert gm.json("power", "access", "Ada", "XII", "upright") == {
        "granted": True, "power": "Upside Down", "depleted": False}
    # Eve shows the highest (King high) and opens; the Fool holds no chips and never acts.
    gm.street({"Cara": "5W 6P", "Eve": "KC IV", "Ada": "6S 7W", FOOL: "AC 2S 3W 5P"},
              [("Eve", "check"), ("Ada", "check"), ("Cara", "check")])
    # Eve shows a Duet (IV + XIV), above every high card: she opens again.
    gm.street({"Cara": "5W 6P 7C 8S", "Eve": "KC IV XIV 9S", "Ada": "6S 7W 8P PC",
               FOOL: "AC 2S 3W 5P 6C 7S"},
              [("Eve", "check"), ("Ada", "check"), ("Cara", "check")])
    gm.street({FOOL: "AC 2S 3W 5P 6C 7S 8W"},
              [("Eve", "check"), ("Ada", "check"), ("Cara", "check")])
    # Ada uses Upside Down before the showdown: 1 Charge from Ada's side (3 - 1 = 2).
    gm("power", "use", "Ada", "upside down", "--card", "5C")   # 5C counts as 10C (S22)
    showdown = gm.showdown({
        "Cara": "2C 3S 5W 6P 7C 8S PW",
        "Eve": "KS KC IV XIV 4W 9S 10P",
        "Ada": "5C 6S 7W 8P PC KnS",            # six cards: XII is out of this hand (R26)
        FOOL: "AC 2S 3W 5P 6C 7S 8W",
    })
    assert showdown["best"]["Eve"]["category"] == "two_pair_duet"
    assert showdown["best"]["Eve"]["duet"] == [4, 14]

    # -- hand 2: Cara depletes XII; Eve folds a Duet; Ada plays three pair, Duet II + IX -----
    gm("hand", "start")
    access = gm.json("power", "access", "Cara", "XII", "reversed")
    assert access == {"granted": True, "power": "Suspended", "depleted": True}
    # Eve (King high) opens; Cara bets a blue chip, Eve folds, Ada calls with a red one.
    gm.street({"Cara": "3S 5W", "Eve": "KC IV", "Ada": "10C 4P", FOOL: "AC 2S 3W 5P"},
              [("Eve", "check"), ("Ada", "check"), ("Cara", "bet"), ("Eve", "fold"),
               ("Ada", "call")])
    # Ada's up cards 10C 4P 4C IX: a pair of Fours (one major, no Duet), above Cara's Seven
    # high: she opens.
    gm.street({"Cara": "3S 5W 6P 7C", "Ada": "10C 4P 4C IX", FOOL: "AC 2S 3W 5P 6C 7S"},
              [("Ada", "check"), ("Cara", "check")])
    gm.street({FOOL: "AC 2S 3W 5P 6C 7S 8W"}, [("Ada", "check"), ("Cara", "check")])
    showdown = gm.showdown({
        "Cara": "2C 3S 5W 6P 7C 8S",            # six cards: XII went for a power
        "Ada": "10S 10C 4P 4C II IX 9C",
        FOOL: "AC 2S 3W 5P 6C 7S 8W",
    })
    assert showdown["best"]["Ada"]["category"] == "three_pair"
    assert showdown["pots"][0]["winners"] == ["Ada"]
    chips = gm.json("status")["chips"]
    assert chips["Ada"] == {"blue": 1, "red": 10} and chips["Cara"] == {"blue": 9}
    powers = gm.json("power", "list")
    assert powers["depleted"] == ["XII"]

    # -- an auction (R20): Dan sells the cobalt phial to Ben for two red chips ---------------
    gm("rise", "Ada")
    gm("chips", "give", "Ada", "Ben", "red:2")                 # away from the table (R16)
    gm("soul", "sell", "Dan", "cobalt", "Ben", "--chips", "red:2", "--promise",
       "Houdini's last secret")

    # -- a forced trade (R21): Eve's green is held by Dan (3) and Ben (1) ----------------------
    gm("rise", "Eve")
    gm("chips", "give", "Eve", "Dan", "green:3")
    gm("chips", "give", "Eve", "Ben", "green:1")
    gm("soul", "auction", "Eve", "Eve")                        # bids not to her liking
    out = gm("soul", "force-trade", "Eve")
    assert "it goes to Cara" in out and "receives 3 green" in out

    # -- a buyout (R21): Finn gathers all ten red and buys Ada's soul with them -------------
    gm("chips", "give", "Ada", "Finn", "red:8")
    gm("chips", "give", "Dan", "Finn", "red:2")
    gm("soul", "buyout", "Finn", "Ada")

    # -- souls consumed (R27) and a Charge given (R25) --------------------------------------
    gm("soul", "consume", "Ben", "cobalt", "--arcanum", "IX")
    gm("soul", "consume", "Finn", "amber", "--arcanum", "XVI")
    gm("charge", "give", "Finn", "Ben", "1")

    # -- where everything ended up ----------------------------------------------------------
    final = {r["soul"]: (r["holder"], r["destroyed"]) for r in gm.json("soul", "list")}
    assert final == {
        "the cobalt phial": (None, True),
        "the amber bottle": (None, True),
        "the cracked green bottle": ("Ben", False),
        "Cara's soul": ("Cara", False),
        "Eve's soul": ("Cara", False),
        "Ada's soul": ("Finn", False),
    }
    status = gm.json("status")
    assert status["chips"]["Ada"] == {"blue": 1, "red": 10}
    assert status["chips"]["Eve"] == {"green": 9} and status["chips"]["Ben"] == {"green": 1}
    # Charges: each side earned 3 by its guesses (R24); Ada paid 1 for Upside Down (R26);
    # Eve's side gave 1 to Ada's (R25). Cara 3; Eve 3 - 1 = 2; Ada 3 - 1 + 1 = 3.
    assert status["charges"] == {"Cara": 3, "Eve": 2, "Ada": 3}
    held = {p["key"]: (p["holder"], p["used"]) for p in gm.json("power", "list")["powers"]
            if not p["available"]}
    assert held == {"XII-upright": ("Ada", True), "XII-reversed": ("Cara", False)}

    # -- status points, by hand (R27) --------------------------------------------------------
    # Fiona (the Fool): 5 in 0 to start; her hands were high card.            0: 5
    # Cara: 5 in III to start (her own soul, held by herself, adds nothing);
    #       holds Eve's soul, attuned to Eve's VII: +2.                        III: 5, VII: 2
    # Dan: 1 in V to start; he sold the cobalt phial (I), so its 2 went too.  V: 1
    # Eve: 5 in VII - 3 for her own soul held by Cara = 2; hand 1's Duet IV + XIV,
    #       she keeps the lower-numbered IV: +1. Her hand-2 fold earns nothing.  IV: 1, VII: 2
    # Finn: 1 in XI to start; XIV from Eve's Duet: +1; holds Ada's soul (XVI): +2;
    #       consumed the amber bottle into XVI: +1 (and lost its III holding).
    #                                                                XI: 1, XIV: 1, XVI: 3
    # Ada: 5 in XVI - 3 for her soul held by Finn = 2; hand 2's three pair, Duet II + IX,
    #       she keeps the lower II: +3.                                       II: 3, XVI: 2
    # Ben: 1 in IX to start; IX from Ada's Duet: +3; holds the cracked green bottle (IX):
    #       +2; consumed the cobalt phial into IX: +1. 1 + 3 + 2 + 1 =         IX: 7
    assert gm.json("points") == {
        FOOL: {"0": 5},
        "Cara": {"III": 5, "VII": 2},
        "Dan": {"V": 1},
        "Eve": {"IV": 1, "VII": 2},
        "Finn": {"XI": 1, "XIV": 1, "XVI": 3},
        "Ada": {"II": 3, "XVI": 2},
        "Ben": {"IX": 7},
    }

    # -- promotion claims (R28) -------------------------------------------------------------
    # Occupants: 0 Fiona (5), III Cara (5), VII Eve (2), XVI Ada (2); every other is vacant.
    # Cara in VII: 2, not more than Eve's 2 -> no.    Finn in XVI: 3 > Ada's 2 -> yes.
    # Ben in IX (vacant): 7 >= 7 -> yes.              Ada in II (vacant): 3 < 7 -> no.
    # Every other holding is under 7 in a vacant Arcanum. Listed in seat order.
    assert gm.json("promotions") == [
        {"person": "Finn", "arcanum": "XVI", "points": 3, "occupant": "Ada",
         "occupant_points": 2},
        {"person": "Ben", "arcanum": "IX", "points": 7, "occupant": None,
         "occupant_points": None},
    ]
