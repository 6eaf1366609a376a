"""Evenings of 2, 4 and 6 seats at three moments, as a GM would play them, for the table page.

``play(gm, seats, moment)`` types the commands: an evening opened, Charges won by guesses,
the side tables started, hand 1 bet and won by the Fool at a showdown (four aces); then

- ``"between"``: there, between hands (the last hand's result on the wall);
- ``"mid"``: hand 2 in the open phase, one seat all-in on its ante, a bet called (a side
  pot), a card Cut Down, a card hooded, a power binding the player to act (Cowed or
  Chained);
- ``"end"``: hand 2 played all-in by everyone and won by one seat: the game is over (R18).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any


class GM:
    """Types commands through the in-process runner (the one `referee shell` uses, its
    command tree built once): the same commands and answers as the CLI, several times
    faster than a fresh app per command, for evenings of many commands."""

    def __init__(self, db: Path) -> None:
        self.db = db

    def __call__(self, *args: str) -> str:
        from referee.cli import main, requests

        assert main  # the lines are parsed with the main app's command tree
        code, out, err = requests.run_captured(list(args), db=self.db)
        assert code == 0, f"{args}: {err}"
        return out

    def status(self) -> dict[str, Any]:
        from referee.evening.views import status
        from referee.serve import players

        return status(players.load_state(self.db))

#: Six seats with every hard chip colour (black and white on the dark cloth) and a name
#: too long for a seat's card; the first ``n`` sit for an evening of ``n``.
SEATS = ["Ivy:X:black:Jo:XII", "Ada:XVI:red:Ben:IX", "Cy:III:blue:Di:II",
         "Lady Evangeline Ashcombe:XI:white:Lu:XIII", "Ed:VII:green:Flo:XVII",
         "Gus:XIX:yellow:Hal:I"]
FOOL = "Max"
#: Guesses that win Charges (R24) for every side: an assistant of each seat in ``SEATS``.
GUESSES = [("Jo", "cobalt", "Harry Houdini", "I"), ("Ben", "amber", "Catherine the Great", ""),
           ("Di", "green", "Henry David Thoreau", ""), ("Lu", "wax", "Nikola Tesla", ""),
           ("Flo", "smoked", "Galileo Galilei", ""), ("Hal", "gilded", "Louis XIV", "")]

# Hand 1: the Fool's seven up cards beat every hand (four aces); the stakeholders' cards,
# two down, four up, one down (R9), all different.
FOOL_HAND_1 = "AC AW AS AP 0 I II"
HANDS_1 = ["2C 3C 4W 6S 8P 10C KnW", "2W 3W 5W 7S 9P 10W KnS", "2S 3S 4P 6C 8W 10S KnP",
           "2P 3P 5P 7C 9W 10P KnC", "4C 5C 6W 8S PC QC QW", "4S 5S 6P 8C PW QS QP"]
# Hand 2: the first seat shows a pair of Kings and opens; the Fool shows little.
FOOL_HAND_2 = "2C 4W 6S 8P 10C QW III"
HANDS_2 = ["5C 7W KC KW 3S 9S PS", "3C 5W 2S 4P 7P 9W PW", "3W 5S 2P 4C 7C 9P PP",
           "3P 6C 2W 4S 8C 10W PC", "6W 7S 5P 8W 10S KnC QC", "6P 8S 9C 10P KnW KnS QS"]
# The end: the first seat holds the best hand there is (10 to King of Cups, R5).
END_HANDS = ["10C KnC KC QC PC 2W 3W", "2S 3S 4P 6C 8W 10S KnP", "2P 3P 5P 7C 9W 10P KnS",
             "4C 5C 6W 8S PW QS QP", "4S 5S 6P 8C QW KnW 9S", "2C 3C 4W 6S 8P 9P 7W"]
FOOL_END = "AC 5W 7S 9C XX XXI XIX"


def _seats(n: int) -> list[str]:
    return SEATS[:n]


def names(n: int) -> list[str]:
    """The stakeholders of an evening of ``n``, in the order of ``SEATS``."""
    return [s.split(":")[0] for s in _seats(n)]


def _order(gm: GM) -> list[str]:
    return [s["name"] for s in gm.status()["seats"]]


def _act_until(gm: GM, stop: Any) -> None:
    """Everyone to act calls (or checks) until ``stop(hand)`` or the round ends."""
    street = gm.status()["hand"]["street"]
    while (hand := gm.status()["hand"]) and hand["to_act"] and hand["street"] == street \
            and not stop(hand):
        gm("call" if hand["owes"] else "check", hand["to_act"])


def _show_round(gm: GM, hands: dict[str, list[str]], fool: list[str]) -> None:
    """The up cards of the round under way for everyone still owed some (R9)."""
    hand = gm.status()["hand"]
    lines = []
    for name in hand["missing_up"]:
        have = hand["showing"].get(name, [])
        want = hand["up_due"][name]
        cards = fool[:want] if name == FOOL else hands[name][2:6][:want]
        cards = [c for c in cards if c not in have]
        if cards:
            lines.append(f"{name}: +{' '.join(cards)}")
    if lines:
        gm("hand", "show", *lines)


def _hand_one(gm: GM, n: int) -> None:
    """Limit phase: the opener bets one chip, everyone calls, then checks; the Fool's four
    aces take the pot at the showdown."""
    order = _order(gm)
    hands = {name: HANDS_1[i].split() for i, name in enumerate(order)}
    fool = FOOL_HAND_1.split()
    gm("hand", "start")
    _show_round(gm, hands, fool)
    hand = gm.status()["hand"]
    gm("bet", hand["to_act"])
    _act_until(gm, lambda h: False)
    while not gm.status()["hand"]["betting_over"]:
        _show_round(gm, hands, fool)
        _act_until(gm, lambda h: False)
    gm("hand", "showdown", *(f"{name}: {' '.join(c[:2] + c[6:])}" for name, c in hands.items()))


def play(gm: GM, n: int, moment: str) -> None:
    """Type the evening of ``n`` seats up to ``moment`` ("between", "mid" or "end")."""
    between(gm, n)
    if moment != "between":
        go_on(gm, moment)


def between(gm: GM, n: int) -> None:
    """An evening of ``n`` seats after hand 1, won by the Fool."""
    gm("new", "--fool", FOOL, *(w for s in _seats(n) for w in ("--seat", s)))
    for assistant, soul, name, arcanum in GUESSES[:n]:
        gm("soul", "guess", assistant, soul, "--name", name,
           *(("--arcanum", arcanum) if arcanum else ()))
    gm("scum", "new", "Mo", "Ned", "Oz", "Pia", "--seed", "3")
    gm("wager", "new", "Ro", "Sy", "--seed", "5")
    _hand_one(gm, n)


def go_on(gm: GM, moment: str) -> None:
    """From ``between``: hand 2 under way ("mid") or played to the end of the game ("end")."""
    gm("open-phase")
    order = _order(gm)
    if moment == "end":
        _the_end(gm, order)
    else:
        _mid_hand(gm, order)


def _the_end(gm: GM, order: list[str]) -> None:
    """Everyone all-in in the first round; the first seat's straight flush takes it all."""
    hands = {name: END_HANDS[i].split() for i, name in enumerate(order)}
    fool = FOOL_END.split()
    gm("hand", "start")
    _show_round(gm, hands, fool)
    hand = gm.status()["hand"]
    gm("bet", hand["to_act"], "all")
    _act_until(gm, lambda h: False)
    gm("hand", "showdown", *(f"{name}: {' '.join(c)}" for name, c in hands.items()),
       f"{FOOL}: {' '.join(fool)}")


def _mid_hand(gm: GM, order: list[str]) -> None:
    first, last = order[0], order[-1]
    # The last seat keeps one chip, and antes it: all-in from the deal (R14).
    gm("rise", last)
    stack = gm.status()["seats"][-1]["chips"]
    colour = next(s["colour"] for s in gm.status()["seats"] if s["name"] == last)
    helper = next(s["assistant"] for s in gm.status()["seats"] if s["name"] == last)
    gm("chips", "give", last, helper, f"{colour}:{stack - 1}")
    gm("sit", last)
    hands = {name: HANDS_2[i].split() for i, name in enumerate(order)}
    fool = FOOL_HAND_2.split()
    gm("hand", "start")
    _show_round(gm, hands, fool)
    assert gm.status()["hand"]["to_act"] == first
    victim = order[1]
    gm("power", "access", first, "XIII", "upright")
    gm("power", "use", first, "Cut Down", "--target", victim, "--card", hands[victim][2])
    gm("power", "access", first, "IX", "upright")
    gm("power", "use", first, "Hood the Lantern", "--card", hands[first][3])
    gm("bet", first, "2")
    hand = gm.status()["hand"]
    if len(order) > 2:
        gm("call", hand["to_act"])  # a side pot over the all-in seat's ante (R14, R15)
        hand = gm.status()["hand"]
    target = hand["to_act"]
    if target and target != FOOL:
        user = next(p for p in ("Ivy", "Ada") if p in order and p != target)
        gm("power", "access", user, "VIII", "reversed")
        gm("power", "use", user, "Cowed", "--target", target)


# -- a hand with every kind of changed card (E76-E78, E88, S19) ----------------------------------

#: Seats from the Fool's left Cy (III), Ed (VII), Ada (XVI); three Charges per side.
MARKED_SEATS = ["Ada:XVI:red:Ben:IX", "Cy:III:blue:Di:II", "Ed:VII:green:Flo:XVII"]
MARKED_GUESSES = [("Di", "cobalt", "Houdini", "I"), ("Flo", "amber", "Catherine the Great", "III"),
                  ("Ben", "green", "Thoreau", "IX")]
#: Round 1: the Fool shows three Kings but holds no chips, so Ed (nine high) opens (R15).
MARKED_UP = ("Cy: 2C 5W", "Ed: 3S 9P", "Ada: 4C 8W", "Fool: KC KW KS QP")


def marked_hand(gm: Any, *, powers: bool = True) -> None:
    """Round 1 of a hand, Ed to open; with ``powers``: Ed cuts Ada's 8W down and hoods his 9P,
    bets; Cy holds his 5W fast; Ada's 4C counts as the King of Clubs and she suspends Cy."""
    gm("new", "--fool", "Fool", *(w for s in MARKED_SEATS for w in ("--seat", s)))
    for helper, soul, name, arcanum in MARKED_GUESSES:
        gm("soul", "guess", helper, soul, "--name", name, "--arcanum", arcanum)
    gm("hand", "start")
    gm("hand", "show", *MARKED_UP)
    if not powers:
        return
    for who, card, side, power, *args in (
            ("Ed", "XIII", "upright", "Cut Down", "--target", "Ada", "--card", "8W"),
            ("Ed", "IX", "upright", "Hood the Lantern", "--card", "9P")):
        gm("power", "access", who, card, side)
        gm("power", "use", who, power, *args)
    gm("bet", "Ed")
    for who, card, side, power, *args in (
            ("Cy", "VIII", "upright", "Hold Fast", "--card", "5W"),
            ("Ada", "IV", "upright", "Royal Decree", "--card", "4C"),
            ("Ada", "XII", "reversed", "Suspended", "--target", "Cy")):
        gm("power", "access", who, card, side)
        gm("power", "use", who, power, *args)
