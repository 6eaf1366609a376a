"""Card of Fate with physical cards everywhere (F20), usual weapons (F24), the infection once
(F9, F23), pool-size refusals (F5, F22) and names by any word (F17)."""

from __future__ import annotations

from typing import Any

import pytest

from referee.errors import BadInput, UnknownName
from referee.rules import fate
from referee.rules.fate import Typed
from referee.rules.fate.characters import find
from tests.fate import fresh


def fold(state: fate.State, events: list[dict[str, Any]]) -> fate.State:
    for event in events:
        fate.apply(state, event)
    return state


@pytest.fixture
def state() -> fate.State:
    s = fresh()
    fold(s, fate.new_character(s, "Lord Ashby", measures=["calm=6"], items=["Sabre=3"],
                               traits=["Swordsman=2"], weapon="sabre",
                               fight_traits=["swords"]))
    fold(s, fate.new_character(s, "Bob", measures=["calm=7"], items=["Pistol=4"]))
    return s


def health(state: fate.State, name: str) -> str:
    return str(find(state, name)["areas"]["health"])


# -- F24: usual weapon and Traits ----------------------------------------------------------------


def test_f24_a_fight_uses_the_usual_weapon_and_traits(state: fate.State) -> None:
    out = fate.fight(state, "ashby", "bob", seed=3)
    parts = out.data["pools"]["a"]["parts"]
    assert ["Sabre", 3] in parts and ["Swordsman", 2] in parts
    over = fate.fight(state, "ashby", "bob", a_weapon="1", a_traits=(), seed=3)
    assert over.data["pools"]["a"]["parts"][0] == ["weapon", 1]


def test_f24_usual_weapon_must_be_an_item_or_a_number(state: fate.State) -> None:
    with pytest.raises(UnknownName, match="item of Bob"):
        fate.edit_character(state, "bob", weapon="musket")
    events = fate.edit_character(state, "bob", weapon="pistol")
    fold(state, events)
    assert find(state, "bob")["usual"] == {"weapon": "Pistol", "traits": []}
    fold(state, fate.edit_character(state, "bob", drop=["pistol"]))
    assert find(state, "bob")["usual"]["weapon"] is None  # dropped with the item


# -- F20: typed cards everywhere -----------------------------------------------------------------


def test_f20_typed_fight_asks_for_the_complication_card(state: fate.State) -> None:
    typed = Typed("7H", "7S 7C 2D 3D 4D", "2C 3C")  # Ashby's critical maims Bob
    with pytest.raises(BadInput, match="--complication CARD") as info:
        fate.fight(state, "ashby", "bob", typed=typed)
    assert info.value.ruling == "F20"
    with pytest.raises(BadInput, match="Joker"):
        fate.fight(state, "ashby", "bob", typed=Typed("7H", "7S 7C 2D 3D 4D", "2C 3C",
                                                      complications=("JOKER",)))
    out = fate.fight(state, "ashby", "bob", typed=Typed("7H", "7S 7C 2D 3D 4D", "2C 3C",
                                                        complications=("9S",)))
    fold(state, out.events)
    assert health(state, "bob") == "maimed" and find(state, "bob")["infection"] is True
    assert any("(9S)" in note for note in find(state, "bob")["notes"])


def test_f20_a_console_fight_still_turns_its_own_complication(state: fate.State) -> None:
    for seed in range(200):
        out = fate.fight(state, "ashby", "bob", seed=seed)
        if out.data.get("complications"):
            assert out.data["complications"][0]["card"]
            return
    raise AssertionError("no seed maimed anyone")


def _pistols(state: fate.State) -> None:
    fold(state, fate.duel_start(state, "pistols", "ashby", "bob", seed=1).events)


def test_f20_typed_pistol_shots_and_calm_tests(state: fate.State) -> None:
    _pistols(state)
    with pytest.raises(BadInput, match="--calm"):
        fate.duel_phase(state, "aim", "fire", Typed("7H", "2C", "3C 4C 5C"))
    # Ashby aims (Calm 6, passes with a heart); Bob fires alone (pistol 3) at a static 5:
    # Bob's cards as side b, the static shot's in side a's place (F20).
    out = fate.duel_phase(state, "aim", "fire", Typed(
        "7H", "2D 3D 4D 5D 6D", "2C 3C 4C", calms=("7H 2H 3S 4S 5S 6S 8S",)))
    fold(state, out.events)
    assert out.data["phase"]["acted"] == {"a": "aim", "b": "fire"}
    assert state["duel"]["aim"]["a"] == 1
    # Ashby, aimed (+1) but Bob stands firm (-1), fires alone: three cards against a static 5.
    with pytest.raises(BadInput, match="--b: 1 card typed but the pool is 5 = 5 static"):
        fate.duel_phase(state, "fire", "stand", Typed("7H", "2C 3C 4C", "2D",
                                                      calms=("7H 2H 3S 4S 5S 6S 8S 9S",)))


def test_f20_a_typed_shot_pool_must_match(state: fate.State) -> None:
    _pistols(state)
    with pytest.raises(BadInput, match="--a: 1 card typed but the pool is 3 = 3 pistol"):
        fate.duel_phase(state, "fire", "fire", Typed("7H", "2C", "3C 4C 5C"))


def test_f20_typed_sword_round(state: fate.State) -> None:
    # Ashby's usual Sabre 3 + Swordsman 2 (F27); Bob has no usual weapon: the sword, 3.
    fold(state, fate.duel_start(state, "swords", "ashby", "bob", seed=1).events)
    out = fate.duel_round(state, Typed("7H", "2C 3C 4C 5S 6S", "2D 3D 4D"))
    assert out.data["phase"]["fight"]["winner"] == "a"  # no success; a's 6 beats b's 4
    assert out.events[0]["kind"] == "drawn" and out.events[0]["seed"] is None


def test_f20_a_typed_gate_alone_needs_the_draw_typed_too(state: fate.State) -> None:
    with pytest.raises(BadInput, match="type this draw too"):
        fate.run_test(state, fate.PoolSpec(char="bob", measure="calm"), fate.PoolSpec(base=3),
                      typed=Typed(gates=("7H 2H",)))


# -- F9 / F23: the infection's extra month, once ---------------------------------------------------


def test_f23_the_extra_month_is_charged_once(state: fate.State) -> None:
    fold(state, [{"kind": "area_set", "char": "Bob", "area": "health", "state": "maimed"},
                 {"kind": "infection_set", "char": "Bob", "value": True}])
    fail = " ".join(["2S", "3S", "4S", "5S", "6S", "8S", "9S"])
    first = fate.heal(state, "bob", "health", "calm", typed=Typed("7H", fail))
    assert "month" in first.data["time"] and first.data["time"].count("and") == 1
    fold(state, first.events)
    assert find(state, "bob")["infection"] is False
    again = fate.heal(state, "bob", "health", "calm", typed=Typed("7H", fail + " 10S"))
    assert "and" not in again.data["time"]


# -- F5 / F22: where a pool's count comes from ---------------------------------------------------


@pytest.mark.parametrize(("spec_b", "where"), [
    (fate.PoolSpec(base=2, base_label="opposition"), "the pool is 2"),
    (fate.PoolSpec(char="ashby", measure="calm"), "the pool is 6 = 6 Calm"),
])
def test_f5_side_b_typed_cards_are_checked(state: fate.State, spec_b: fate.PoolSpec,
                                           where: str) -> None:
    with pytest.raises(BadInput, match=where) as info:
        fate.run_test(state, fate.PoolSpec(char="bob", measure="calm"), spec_b,
                      typed=Typed("7H", "2H 3H 4H 5H 6H 8H 9H", "2S"))
    assert "--b: 1 card typed" in str(info.value) and info.value.ruling == "F5"


def test_f22_a_pool_size_refusal_names_its_parts(state: fate.State) -> None:
    fold(state, [{"kind": "area_set", "char": "Lord Ashby", "area": "health",
                  "state": "injured"}])
    with pytest.raises(BadInput, match=r"the pool is 4 = 3 Sabre \+ 2 Swordsman - 1 Health "):
        fate.fight(state, "ashby", "bob", typed=Typed("7H", "2C", "3C"))


# -- F17: names by any word --------------------------------------------------------------------


def test_f17_duel_phase_surrender_and_unaware_by_any_word(state: fate.State) -> None:
    out = fate.fight(state, "bob", "lord", unaware="ashby", seed=2)
    assert any("Lord Ashby unaware" in part[0] for part in out.data["pools"]["a"]["parts"])
    fold(state, fate.duel_start(state, "swords", "ashby", "bob", seed=1, to="surrender").events)
    fold(state, fate.duel_round(state, Typed("7H", "2C 3C 4C 5C 6C", "2D 3D 4D")).events)
    done = fate.duel_surrender(state, "ashby")
    assert done.data["duel"]["winner"] == "Bob"
