"""A Fool's Errand stakeholder or assistant can be given a Card of Fate character (F17)."""

from __future__ import annotations

from tests.cli.conftest import GM


def test_player_is_matched_against_the_evening(gm: GM) -> None:
    gm("new", "--fool", "Max", "--seat", "Ada:XVI:red:Ben:IX", "--seat", "Cy:III:blue")
    assert "did you mean Ada" in gm.fails("fate", "char", "new", "Ashby", "--player", "adda",
                                          "--npc")
    gm("fate", "char", "new", "Ashby", "--player", "be", "--npc")
    assert gm.json("fate", "char", "show", "Ashby")["player"] == "Ben"


def test_player_is_free_text_without_an_evening(gm: GM) -> None:
    gm("fate", "char", "new", "Ashby", "--player", "Someone Else", "--npc")
    assert gm.json("fate", "char", "show", "Ashby")["player"] == "Someone Else"
