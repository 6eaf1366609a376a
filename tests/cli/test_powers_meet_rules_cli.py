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
