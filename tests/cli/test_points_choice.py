"""R27 choices the scripted evening does not make: which Duet Arcanum the player keeps, and an
own soul held by the owner's own assistant (E23)."""

from __future__ import annotations

from tests.cli.conftest import GM

SEATS = ["--seat", "Ada:XVI:red:Ben:IX", "--seat", "Cy:III:blue"]


def _duet_hand(gm: GM, *keep: str) -> str:
    gm("new", "--fool", "Max", *SEATS)
    gm("hand", "start")
    gm.check_around({"Ada": "5C 5W XX XXI 2S 7P 9C", "Cy": "2C 4W 6S 8P 10C QW KS",
                     "Max": "AC 3S 6W 7C 9S PW KnP"})
    return gm("hand", "showdown", "Ada: 5C 5W XX XXI 2S 7P 9C", "Cy: 2C 4W 6S 8P 10C QW KS",
              "Max: AC 3S 6W 7C 9S PW KnP", *keep).output


def test_r27_player_keeps_the_lower_numbered_duet_arcanum_by_default(gm: GM) -> None:
    _duet_hand(gm)
    points = gm.json("points", "--reveal")
    assert points["Ada"] == {"XVI": 5, "XX": 1}
    assert points["Ben"] == {"III": 2, "IX": 1, "XXI": 1}  # III: the amber bottle he holds


def test_r27_player_may_keep_the_other_duet_arcanum(gm: GM) -> None:
    _duet_hand(gm, "--keep", "Ada:XXI")
    points = gm.json("points", "--reveal")
    assert points["Ada"] == {"XVI": 5, "XXI": 1}
    assert points["Ben"] == {"III": 2, "IX": 1, "XX": 1}


def test_r27_keep_must_name_an_arcanum_of_the_duet(gm: GM) -> None:
    gm("new", "--fool", "Max", *SEATS)
    gm("hand", "start")
    gm.check_around({"Ada": "5C 5W XX XXI 2S 7P 9C", "Cy": "2C 4W 6S 8P 10C QW KS",
                     "Max": "AC 3S 6W 7C 9S PW KnP"})
    hands = ("Ada: 5C 5W XX XXI 2S 7P 9C", "Cy: 2C 4W 6S 8P 10C QW KS",
             "Max: AC 3S 6W 7C 9S PW KnP")
    assert "keep one of those" in gm.fails("hand", "showdown", *hands, "--keep", "Ada:XIX")
    assert "no Duet points" in gm.fails("hand", "showdown", *hands, "--keep", "Cy:XX")


def test_e23_own_soul_held_by_own_assistant_is_no_loss(gm: GM) -> None:
    gm("new", "--fool", "Max", *SEATS)
    gm("rise", "Ada")
    gm("soul", "give", "Ada", "Ben", "Ada")  # away from the table, to her own assistant
    points = gm.json("points")
    assert points["Ada"] == {"XVI": 5}   # no -3: the assistant holds it for her
    assert points["Ben"] == {"IX": 1, "?": 2}  # no +2 more for his own side's soul; the
    # amber bottle's 2 under "?" while nobody has found its Arcanum (E43)
    gm("sit", "Ada")
