"""`referee end` and `referee ceremony ...` through the CLI (R28, R40, E100-E105).

Every evening here: the Fool Max; Cy (III, blue, assistant Di II) in seat 1, Ed (VII, green,
assistant Flo XVII) in seat 2, Ada (XVI, red, assistant Ben IX) in seat 3 (R9). The default
scenario's bottles go out in seat order (E14): the cobalt phial (I) to Di, the amber bottle
(III) to Flo, the cracked green bottle (IX) to Ben. Points are worked out by hand (R27): a
seated member starts with 5 in their Arcanum, an assistant with 1 in theirs, a held soul
gives its holder 2 in its Arcanum, a consumed one 1 where the consumer chooses, and an own
soul held outside its side costs its owner 3.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.cli.conftest import GM

SEATS = ["--seat", "Ada:XVI:red:Ben:IX", "--seat", "Cy:III:blue:Di:II",
         "--seat", "Ed:VII:green:Flo:XVII"]


@pytest.fixture
def table(gm: GM) -> GM:
    gm("new", "--fool", "Max", *SEATS)
    return gm


@pytest.fixture
def flo_holds_cy(table: GM) -> GM:
    """Cy hands his own soul to Flo away from the table (R16): Flo has 2 (the amber bottle) +
    2 (Cy's soul, attuned to III) = 4 in III; Cy has 5 - 3 = 2 there."""
    table("rise", "Cy")
    table("soul", "give", "Cy", "Flo", "Cy")
    table("sit", "Cy")
    return table


def ceremony(gm: GM) -> dict[str, Any]:
    data: dict[str, Any] = gm.json("ceremony")
    return data


def roster(gm: GM) -> dict[str, str]:
    return {r["arcanum"]: r["member"] for r in ceremony(gm)["roster"]}


# -- the end ------------------------------------------------------------------------------------


def test_r40_the_ceremony_waits_for_the_end(flo_holds_cy: GM) -> None:
    gm = flo_holds_cy
    assert "has not ended" in gm.fails("ceremony")
    assert "has not ended" in gm.fails("ceremony", "promote", "Flo", "III")
    assert "has not ended" in gm.fails("ceremony", "close")


def test_e100_the_end_is_declared_between_hands_and_once(table: GM) -> None:
    table("hand", "start")
    assert "hand 1 is in progress" in table.fails("end")
    table("undo")
    out = table("end").output
    assert "The evening has ended" in out
    assert "ended already" in table.fails("end")


def test_e101_after_the_end_only_the_ceremony_goes_on(flo_holds_cy: GM) -> None:
    gm = flo_holds_cy
    gm("end")
    line = gm.fails("rise", "Ada")
    assert "books are closed" in line and "(E101)" in line
    assert "books are closed" in gm.fails("hand", "start")
    assert "books are closed" in gm.fails("soul", "study", "Di", "cobalt")
    gm("undo")  # the end taken back: the evening goes on
    gm("rise", "Ada")


def test_r40_the_claims_are_listed_in_the_fools_order_with_both_points(flo_holds_cy: GM) -> None:
    gm = flo_holds_cy
    # Ed holds Ada's soul too: Ed has 2 in XVI, Ada 5 - 3 = 2: not more, no claim.
    gm("rise", "Ada")
    gm("rise", "Ed")
    gm("soul", "give", "Ada", "Ed", "Ada")
    gm("end")
    data = ceremony(gm)
    assert data["stage"] == "ended" and data["ended_by"] == "the Fool"
    # Nobody has found the amber bottle's Arcanum, so Flo's claim, which its 2 points are in,
    # is listed only with --reveal (E43).
    assert data["claims"] == []
    out = gm("ceremony").output
    assert "1 more claim that a soul's secret Arcanum takes part in" in out
    [claim] = gm.json("ceremony", "--reveal")["claims"]
    assert (claim["person"], claim["arcanum"], claim["points"], claim["occupant"],
            claim["occupant_points"], claim["how"]) == ("Flo", "III", 4, "Cy", 2, "promote")
    assert "ceremony promote Flo III" in gm("ceremony", "--reveal").output
    assert roster(gm) == {"0": "Max", "III": "Cy", "VII": "Ed", "XVI": "Ada"}


# -- the decisions ------------------------------------------------------------------------------


def test_r40_a_promotion_replaces_the_occupant(flo_holds_cy: GM) -> None:
    gm = flo_holds_cy
    gm("end")
    out = gm("ceremony", "promote", "flo", "the empress").output
    assert "Flo claims III The Empress with 4, against Cy's 2: promoted; Cy leaves the Major " \
        "Arcana" in out
    assert roster(gm) == {"0": "Max", "III": "Flo", "VII": "Ed", "XVI": "Ada"}
    gm("ceremony", "close")
    report = gm.json("report")["ceremony"]
    assert report["stage"] == "closed" and report["left"] == ["Cy"]
    assert {r["arcanum"]: r["member"] for r in report["roster"]}["III"] == "Flo"


def test_r28_too_few_points_is_refused(flo_holds_cy: GM) -> None:
    gm = flo_holds_cy
    gm("end")
    # Ben: 1 (his start, IX) + 2 (the green bottle, IX) = 3 in the vacant Hermit.
    line = gm.fails("ceremony", "promote", "Ben", "IX")
    assert "Ben has 3 points in IX The Hermit, which is vacant: a vacant Arcanum needs 7" \
        in line and "(R28)" in line
    # Di has nothing in III; Cy, who holds it, has 2.
    line = gm.fails("ceremony", "promote", "Di", "III")
    assert "Di has 0 points in III The Empress and Cy, who holds it, has 2" in line
    # Ed, a member, moves with switch, and then needs more than Cy's 2: he has none.
    assert "moves with `referee ceremony switch Ed III`" in gm.fails(
        "ceremony", "promote", "Ed", "III")
    assert "Ed has 0 points in III" in gm.fails("ceremony", "switch", "Ed", "III")
    assert "holds no Arcanum" in gm.fails("ceremony", "switch", "Flo", "III")
    assert "holds VII The Chariot already" in gm.fails("ceremony", "switch", "Ed", "VII")


def test_e103_an_arcanum_changes_hands_once_in_a_ceremony(flo_holds_cy: GM) -> None:
    gm = flo_holds_cy
    gm("end")
    gm("ceremony", "promote", "Flo", "III")
    line = gm.fails("ceremony", "promote", "Di", "III")
    assert "III The Empress was taken by Flo in this ceremony" in line and "(E103)" in line
    # Flo, a member now, won her claim: she makes no other in this ceremony.
    assert "won III The Empress in this ceremony already" in gm.fails(
        "ceremony", "switch", "Flo", "XVII")


def test_r40_a_member_who_switches_leaves_the_old_arcanum_vacant(table: GM) -> None:
    gm = table
    # Away from the table: Cy's soul to Flo; the amber bottle and the cobalt phial to Ed, who
    # consumes the phial for 1 in III. In III: Ed 2 + 1 = 3, Flo 2 (Cy's soul only), Cy 2.
    for who in ("Cy", "Ed"):
        gm("rise", who)
    gm("soul", "give", "Cy", "Flo", "Cy")
    gm("soul", "give", "Flo", "Ed", "amber")
    gm("soul", "give", "Di", "Ed", "cobalt")
    gm("soul", "consume", "Ed", "cobalt", "--arcanum", "III")
    gm("end")
    out = gm("ceremony", "switch", "Ed", "III").output
    assert "Ed moves from VII to III The Empress with 3, against Cy's 2; VII is vacant; Cy " \
        "leaves the Major Arcana" in out
    assert roster(gm) == {"0": "Max", "III": "Ed", "XVI": "Ada"}
    # VII is vacant now: 7 points needed; Flo has none there.
    assert "vacant Arcanum needs 7" in gm.fails("ceremony", "promote", "Flo", "VII")


def test_r22_the_dead_claim_nothing(flo_holds_cy: GM) -> None:
    gm = flo_holds_cy
    # Ada's soul to Ed; she attacks him away from the table and he smashes it: she is dead
    # and no longer holds XVI (E19).
    gm("rise", "Ada")
    gm("rise", "Ed")
    gm("soul", "give", "Ada", "Ed", "Ada")
    gm("soul", "smash", "Ed", "Ada")
    gm("end")
    line = gm.fails("ceremony", "switch", "Ada", "III")
    assert "Ada is dead" in line and "(R22)" in line
    assert "XVI" not in roster(gm)


def test_e104_a_declined_claim_is_not_heard_again(flo_holds_cy: GM) -> None:
    gm = flo_holds_cy
    gm("end")
    assert "no claim to VII" in gm.fails("ceremony", "decline", "Flo", "VII")
    assert "Ben has no claim that would succeed now" in gm.fails("ceremony", "decline", "Ben")
    out = gm("ceremony", "decline", "Flo").output
    assert "Flo declines III The Empress (4, against Cy's 2)" in out
    assert gm.json("ceremony", "--reveal")["claims"] == []
    assert "declined III The Empress" in gm.fails("ceremony", "promote", "Flo", "III")
    gm("undo")
    gm("ceremony", "promote", "Flo", "III")


def test_r40_claims_after_the_close_are_refused_and_undo_reopens(flo_holds_cy: GM) -> None:
    gm = flo_holds_cy
    gm("end")
    out = gm("ceremony", "close").output
    assert "The ceremony is closed" in out and "Not heard: Flo's claim to III (4)" in out
    line = gm.fails("ceremony", "promote", "Flo", "III")
    assert "the ceremony is closed" in line
    assert "the evening is closed" in gm.fails("rise", "Ada")
    assert "closed" in gm.fails("ceremony", "close")
    gm("undo")  # the close taken back: the ceremony is open again
    gm("ceremony", "promote", "Flo", "III")
    gm("ceremony", "close")
    assert roster(gm)["III"] == "Flo"


def test_r18_an_evening_over_by_itself_needs_no_end(table: GM) -> None:
    gm = table
    # Ed and Ada hand their chips to Cy away from the table: only Cy and the Fool hold chips.
    for who in ("Ed", "Ada"):
        gm("rise", who)
    gm("rise", "Cy")
    gm("chips", "give", "Ed", "Cy", "green:10")
    gm("chips", "give", "Ada", "Cy", "red:10")
    assert gm.status()["over"]
    assert "over already (R18)" in gm.fails("end")
    assert ceremony(gm)["ended_by"] == "R18"
    gm("ceremony", "close")
    assert ceremony(gm)["stage"] == "closed"


def test_e105_an_unknown_claimant_is_named(flo_holds_cy: GM) -> None:
    gm = flo_holds_cy
    gm("end")
    assert "Zed" in gm.fails("ceremony", "promote", "Zed", "III")
    assert "XXIII" in gm.fails("ceremony", "promote", "Flo", "XXIII")
