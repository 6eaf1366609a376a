"""Characters: creation budgets (F15), edits, pools and the R37 penalties (F5)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.errors import BadInput, IllegalAction, UnknownName
from referee.rules import fate
from referee.rules.fate.characters import budget_left, find, measure
from referee.rules.fate.pools import PoolSpec, build_pool
from tests.fate import DATA, fresh
from tests.profiles import examples


def fold(state: dict[str, Any], events: list[dict[str, Any]]) -> dict[str, Any]:
    for event in events:
        fate.apply(state, json.loads(json.dumps(event)))
    return state


def make(state: dict[str, Any], name: str, **kw: Any) -> dict[str, Any]:
    return fold(state, fate.new_character(state, name, **kw))


@pytest.fixture
def state() -> dict[str, Any]:
    s = fresh()
    make(s, "Alice", measures=["fiery=7"], traits=["Swordsman=2"],
         reps=["Loved by Miss Atherton=2"], exps=["Crimea:fiery"], items=["Sabre=3"])
    make(s, "Bob", measures=["calm=6"])
    return s


def test_new_character_starts_five_five(state: dict[str, Any]) -> None:
    bob = find(state, "bo")
    assert measure(bob, "Calm", DATA) == 6 and measure(bob, "Fiery", DATA) == 4
    assert measure(bob, "Noble", DATA) == 5 and bob["credit"] == 5
    assert bob["areas"] == {"health": "healthy"}


def test_f15_experience_plus_one_is_free(state: dict[str, Any]) -> None:
    alice = find(state, "alice")
    assert measure(alice, "Fiery", DATA) == 7
    assert budget_left(alice, DATA) == {"points": 4, "experiences": 3, "trait_points": 8}


def test_f15_experience_without_typed_measure_moves_it() -> None:
    s = make(fresh(), "Cy", exps=["Sea:calm", "Court:noble"])
    assert measure(find(s, "cy"), "Calm", DATA) == 6 and measure(find(s, "cy"), "Noble", DATA) == 6


@pytest.mark.parametrize(("kw", "message"), [
    ({"measures": ["fiery=7", "calm=4"]}, "always sum to 10"),
    ({"measures": ["fiery/calm=7/4"]}, "sums to 11"),
    ({"measures": ["fiery=10"]}, "out of range"),
    ({"measures": ["fiery=9", "noble=7"]}, "cost 6 points, the budget is 5"),
    ({"measures": ["fiery=8"], "credit": 8}, "cost 6 points"),
    ({"credit": 4}, "can only be raised"),
    ({"traits": ["A=3", "B=3", "C=3", "D=2"]}, "Traits cost 11 points"),
    ({"traits": ["A=4"]}, "1 to 3 points"),
    ({"traits": ["Luck=multi", "Sight=multi", "X=1"]}, "Traits cost 11"),
    ({"reps": ["Feared by the Corsairs=7"]}, "1 to \\+6"),
    ({"exps": ["a:fiery", "b:fiery", "c:calm", "d:noble", "e:common"]}, "5 Experiences"),
    ({"exps": ["no measure"]}, "needs a name and a Measure"),
    ({"measures": ["f=7"]}, "ambiguous"),
])
def test_f15_creation_budgets(kw: dict[str, Any], message: str) -> None:
    with pytest.raises((BadInput, UnknownName), match=message):
        fate.new_character(fresh(), "Zed", **kw)


def test_f15_npc_skips_budgets_not_ranges() -> None:
    s = make(fresh(), "Thug", measures=["fiery=9", "noble=1"], npc=True)
    assert measure(find(s, "thug"), "Fiery", DATA) == 9
    with pytest.raises(BadInput):
        fate.new_character(s, "Thug2", measures=["fiery=0"], npc=True)


def test_names_are_unique_any_case(state: dict[str, Any]) -> None:
    with pytest.raises(IllegalAction, match="already exists"):
        fate.new_character(state, "ALICE")


def test_unknown_character_suggests(state: dict[str, Any]) -> None:
    with pytest.raises(UnknownName, match="Alice"):
        find(state, "Alcie")


def test_edit_shift_and_new_experience(state: dict[str, Any]) -> None:
    fold(state, fate.edit_character(state, "alice", shifts=["calm+2"], exps=["Duel:fiery"],
                                    reps=["Feared by the Corsairs=3"], drop=["sabre"]))
    alice = find(state, "alice")
    assert measure(alice, "Fiery", DATA) == 6  # 7, -2 for Calm, +1 for the Experience
    assert alice["areas"]["Feared by the Corsairs"] == "healthy"
    assert "Sabre" not in alice["items"]


def test_f5_pool_from_measure_traits_reps_aid_and_exp(state: dict[str, Any]) -> None:
    spec = PoolSpec(char="alice", measure="fiery", traits=("sword",), reps=("loved",),
                    aid=("2", "Bob:calm"), exps=("crimea",), items=("sabre",))
    pool = build_pool(state, spec)
    assert pool.size == 7 + 2 + 2 + 2 + 3 + 1 + 3
    assert pool.staked == ["Loved by Miss Atherton"]


@pytest.mark.parametrize("aid", ["4", "-1"])
def test_f5_aid_is_at_most_three(state: dict[str, Any], aid: str) -> None:
    with pytest.raises(BadInput, match="0 to \\+3"):
        build_pool(state, PoolSpec(char="alice", measure="fiery", aid=(aid,)))


def test_f5_helper_aid_is_capped_at_three(state: dict[str, Any]) -> None:
    pool = build_pool(state, PoolSpec(char="bob", measure="calm", aid=("alice:fiery",)))
    assert pool.size == 6 + 3


def test_f5_typed_pool_below_zero_is_refused(state: dict[str, Any]) -> None:
    with pytest.raises(BadInput, match="below 0"):
        build_pool(state, PoolSpec(base=-1))


def test_r37_penalties_apply_automatically(state: dict[str, Any]) -> None:
    fold(state, [{"kind": "area_set", "char": "Alice", "area": "health", "state": "injured"},
                 {"kind": "area_set", "char": "Alice", "area": "Loved by Miss Atherton",
                  "state": "maimed"}])
    plain = build_pool(state, PoolSpec(char="alice", measure="fiery"))
    assert plain.size == 7 and not plain.gates  # Health counts only for bodily actions
    body = build_pool(state, PoolSpec(char="alice", measure="fiery", physical=True))
    assert body.size == 6
    staked = build_pool(state, PoolSpec(char="alice", measure="fiery", reps=("loved",)))
    assert staked.size == 7 + 2 - 3 and staked.gates == ["Loved by Miss Atherton"]
    staked.drop_area("Loved by Miss Atherton")
    assert staked.size == 7 and staked.staked == []


def test_f5_pool_pushed_below_zero_draws_nothing(state: dict[str, Any]) -> None:
    fold(state, [{"kind": "area_set", "char": "Alice", "area": "health", "state": "maimed"}])
    pool = build_pool(state, PoolSpec(char="alice", base=1, physical=True))
    assert pool.raw == -2 and pool.size == 0
    assert "below 0" in pool.describe()


def test_r37_dead_reputation_cannot_be_staked(state: dict[str, Any]) -> None:
    fold(state, [{"kind": "area_set", "char": "Alice", "area": "Loved by Miss Atherton",
                  "state": "dead"}])
    with pytest.raises(IllegalAction, match="R37|lost"):
        build_pool(state, PoolSpec(char="alice", measure="fiery", reps=("loved",)))


def test_r37_the_dead_cannot_act(state: dict[str, Any]) -> None:
    fold(state, [{"kind": "area_set", "char": "Bob", "area": "health", "state": "dead"}])
    with pytest.raises(IllegalAction, match="dead"):
        build_pool(state, PoolSpec(char="bob", measure="calm"))


def test_f15_spent_experience_card(state: dict[str, Any]) -> None:
    fold(state, [{"kind": "exp_spent", "char": "Alice", "exp": "Crimea"}])
    with pytest.raises(IllegalAction, match="already spent"):
        build_pool(state, PoolSpec(char="alice", measure="fiery", exps=("crimea",)))


@settings(max_examples=examples(40))
@given(base=st.integers(0, 20), aid=st.lists(st.integers(-2, 5), max_size=3))
def test_e163_a_pool_of_a_number_is_aided_as_a_characters_is(base: int, aid: list[int]) -> None:
    state = fresh()
    spec = PoolSpec(base=base, aid=tuple(str(n) for n in aid))
    if all(0 <= n <= DATA.aid_max for n in aid):
        pool = build_pool(state, spec)
        assert pool.size == base + sum(aid) and pool.parts[1:] == [("aid", n, None) for n in aid]
    else:
        with pytest.raises(BadInput, match=rf"a helper adds 0 to \+{DATA.aid_max} cards"):
            build_pool(state, spec)


def test_e163_one_base_and_no_sheet_without_its_character(state: dict[str, Any]) -> None:
    with pytest.raises(BadInput, match="give one base for a pool: 2 cards or the Measure"):
        build_pool(state, PoolSpec(char="alice", base=2, measure="fiery"))
    for spec in (PoolSpec(measure="fiery"), PoolSpec(base=2, traits=("Swordsman",)),
                 PoolSpec(base=2, reps=("Loved",)), PoolSpec(base=2, items=("Sabre",)),
                 PoolSpec(base=2, exps=("Crimea",))):
        with pytest.raises(BadInput, match=r"come from a character.*\(F5, E190\)"):
            build_pool(state, spec)
    with pytest.raises(BadInput, match="aid adds to a pool"):
        build_pool(state, PoolSpec(aid=("2",)))
