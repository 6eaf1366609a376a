"""Iron Rule and Compulsion carry the chips of their bet or raise in the open phase (E163), as
`bet` and `raise` read theirs; in the limit phase a bet or raise is one chip (R12).

The table: seats from the Fool's left Cy (III), Ed (VII), Ada (XVI), three Charges a side, the
Fool Max holding no chips. Round 1's up cards: Cy KC KW, Ed KS KP, Ada 5P 7C; Cy opens (R9).
"""

from __future__ import annotations

from typing import Any

from tests.cli.conftest import GM

SEATS = ["--seat", "Ada:XVI:red:Ben:IX", "--seat", "Cy:III:blue:Di:II",
         "--seat", "Ed:VII:green:Flo:XVII"]
GUESSES = [("Di", "cobalt", "Houdini", "I"), ("Flo", "amber", "Catherine the Great", "III"),
           ("Ben", "green", "Thoreau", "IX")]


def _table(gm: GM, phase: str) -> None:
    def build(g: GM) -> None:
        g("new", "--fool", "Max", *SEATS)
        for helper, soul, name, arcanum in GUESSES:
            g("soul", "guess", helper, soul, "--name", name, "--arcanum", arcanum)
        if phase == "open":
            g("open-phase")
        g("hand", "start")
        g("hand", "show", "Cy: KC KW", "Ed: KS KP", "Ada: 5P 7C", "Max: AC 6W 7S QP")

    gm.played(f"amounts-{phase}", build)


def _hand(gm: GM) -> dict[str, Any]:
    data: dict[str, Any] = gm.status()["hand"]
    return data


def test_e163_iron_rule_raises_by_the_chips_named_in_the_open_phase(gm: GM) -> None:
    _table(gm, "open")
    gm("bet", "Cy", "3")
    gm("power", "use", "Ed", "iron rule", "--access", "IV", "--action", "raise 5")
    status = gm.status()
    assert status["chips"]["Ed"] == {"green": 1}  # 10, the ante, then 3 to call and 5 more
    h = status["hand"]
    assert h["pot"] == 3 + 3 + 8 and h["to_act"] == "Ada" and h["owes"] == 8
    assert h["moves"] == ["call", "fold"]  # no raise after Iron Rule
    gm("call", "Ada")
    gm("call", "Cy")
    assert _hand(gm)["street"] == 2 and gm.status()["chips"]["Cy"] == {"blue": 1}
    raised = next(e for c in gm.json("log")["commands"] for e in c["events"]
                  if e["kind"] == "action" and e["action"] == "raise")
    assert raised["name"] == "Ed" and raised["chips"] == {"green": 8}


def test_e163_r12_chips_named_in_the_limit_phase_are_refused_in_one_line(gm: GM) -> None:
    _table(gm, "limit")
    line = gm.fails("power", "use", "Cy", "iron rule", "--access", "IV", "--action", "bet 2")
    assert "exactly one chip" in line and "R12" in line and "--action bet" in line
    gm("power", "use", "Cy", "iron rule", "--access", "IV", "--action", "bet 1")  # one chip
    assert _hand(gm)["pot"] == 1 and _hand(gm)["moves"] == ["call", "fold"]


def test_e163_compulsion_binds_its_target_to_the_chips_named(gm: GM) -> None:
    _table(gm, "open")
    gm("power", "use", "Ada", "compulsion", "--access", "I", "--action", "bet 4")
    assert _hand(gm)["effects"] == ["Cy must bet 4: Compulsion"]
    for amount in ([], ["3"], ["all"]):
        assert "Cy must bet 4 (Compulsion, S17, E163): `referee bet Cy 4`" in gm.fails(
            "bet", "Cy", *amount)
    gm("bet", "Cy", "4")
    assert gm.status()["chips"]["Cy"] == {"blue": 5} and _hand(gm)["effects"] == []


def test_e163_what_a_power_cannot_carry_is_refused(gm: GM) -> None:
    _table(gm, "open")
    use = ("power", "use", "Ada", "compulsion", "--access", "I", "--action")
    assert "Cy holds 9 chips and owes 0: Cy cannot bet 10" in gm.fails(*use, "bet 10")
    assert "only a bet or a raise carries chips" in gm.fails(*use, "check 4")
    assert "'x' is no amount" in gm.fails(*use, "bet x")
    assert "'0' is no amount" in gm.fails(*use, "bet 0")


def test_e135_e163_the_history_tells_the_raise_made_with_iron_rule(gm: GM) -> None:
    _table(gm, "open")
    gm("bet", "Cy", "3")
    gm("power", "use", "Ed", "iron rule", "--access", "IV", "--action", "raise 5")
    gm("fold", "Ada")
    gm("fold", "Cy")
    gm("hand", "showdown", "Ed: 6C 8C 9S PS", "Max: QW 10S 2P")  # Ed and the Fool (R15)
    lines = gm("hand", "history").output.splitlines()
    assert "  Ed raises 5, to 8, with Iron Rule" in lines
    assert "  Ed uses Iron Rule: Ed raises 5: no more raises this round; the others call or " \
        "fold" in lines
