"""Tests, fights, drinking, healing and changing, with typed-in cards (R36, R37, F4-F14)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.errors import BadInput, IllegalAction
from referee.rules import fate
from referee.rules.fate.cards import parse_fate_card
from referee.rules.fate.characters import find
from referee.rules.fate.dealer import Dealer, Typed
from referee.rules.fate.pools import PoolSpec
from tests.fate import fresh
from tests.profiles import examples

State = dict[str, Any]


def fold(state: State, events: list[dict[str, Any]]) -> State:
    for event in events:
        fate.apply(state, json.loads(json.dumps(event)))
    return state


def hurt(state: State, who: str, area: str, to: str) -> None:
    fold(state, [{"kind": "area_set", "char": who, "area": area, "state": to}])


@pytest.fixture
def state() -> State:
    s = fresh()
    fold(s, fate.new_character(s, "Alice", measures=["fiery=7"], traits=["Swordsman=2"],
                               reps=["Loved by Miss Atherton=2"], exps=["Crimea:fiery"],
                               items=["Sabre=3"]))
    fold(s, fate.new_character(s, "Bob", measures=["calm=6"], items=["Pistol=4"],
                               reps=["Respected by the Regiment=3"]))
    return s


def health(state: State, who: str) -> str:
    value: str = find(state, who)["areas"]["health"]
    return value


# -- tests --------------------------------------------------------------------------------------


def test_pure_test_records_nothing(state: State) -> None:
    out = fate.run_test(state, PoolSpec(base=2), PoolSpec(base=1),
                        typed=Typed("7H", "2H 3C", "7S"))
    assert out.events == []
    assert out.data["winner"] == "b" and out.data["seed"] is None


def test_typed_cards_need_the_whole_draw(state: State) -> None:
    with pytest.raises(BadInput, match="whole draw"):
        fate.run_test(state, PoolSpec(), PoolSpec(), typed=Typed("7H", "2H"))


def test_typed_cards_must_match_a_known_pool(state: State) -> None:
    with pytest.raises(BadInput, match="--a: 2 cards typed but the pool is 7"):
        fate.run_test(state, PoolSpec(char="alice", measure="fiery"), PoolSpec(),
                      typed=Typed("7H", "2H 3C", ""))


def test_f2_joker_cannot_be_the_card_of_fate(state: State) -> None:
    with pytest.raises(BadInput, match="Joker cannot be the Card of Fate"):
        fate.run_test(state, PoolSpec(), PoolSpec(), typed=Typed("JOKER", "2H", "3S"))


def test_opposition_needed_for_a_console_draw(state: State) -> None:
    with pytest.raises(BadInput, match="opposition"):
        fate.run_test(state, PoolSpec(base=3), PoolSpec())


def test_f4_staked_reputation_lost_steps_by_the_winners_result(state: State) -> None:
    a = PoolSpec(char="alice", base=1, reps=("loved",))  # 1 + 2 staked = 3 cards
    out = fate.run_test(state, a, PoolSpec(base=2), typed=Typed("7H", "2S 3S 4S", "7S 7D"))
    assert out.data["winner"] == "b"
    fold(state, out.events)
    assert find(state, "alice")["areas"]["Loved by Miss Atherton"] == "maimed"  # a critical


def test_f4_staked_reputation_lost_on_high_cards_still_injured(state: State) -> None:
    a = PoolSpec(char="alice", base=1, reps=("loved",))
    out = fate.run_test(state, a, PoolSpec(base=1), typed=Typed("7H", "2S 3S 4S", "AC"))
    fold(state, out.events)
    assert find(state, "alice")["areas"]["Loved by Miss Atherton"] == "injured"


def test_r36_tie_changes_nothing_but_is_recorded(state: State) -> None:
    a = PoolSpec(char="alice", base=0, reps=("loved",))
    out = fate.run_test(state, a, PoolSpec(base=2), typed=Typed("7H", "KS 2C", "KD 2S"))
    assert out.data["winner"] == "tie"
    assert [e["kind"] for e in out.events] == ["drawn"]


def test_drink_modifier_and_experience_card_are_used_up(state: State) -> None:
    fold(state, [{"kind": "next_mod_set", "char": "Alice", "value": -1}])
    out = fate.run_test(state, PoolSpec(char="alice", measure="fiery", exps=("crimea",)),
                        PoolSpec(base=1), seed=3)
    assert out.data["pools"]["a"]["size"] == 7 + 1 - 1
    fold(state, out.events)
    alice = find(state, "alice")
    assert alice["next_mod"] == 0 and alice["exps"]["Crimea"]["spent"]


def test_r37_maimed_reputation_gate_typed(state: State) -> None:
    hurt(state, "Alice", "Loved by Miss Atherton", "maimed")
    spec = PoolSpec(char="alice", measure="fiery", reps=("loved",))
    with pytest.raises(BadInput, match="--gate"):
        fate.run_test(state, spec, PoolSpec(base=1), typed=Typed("2C", "", "3D"))
    # passed: the Reputation is used at -3 (7 + 2 - 3 = 6 cards)
    ok = fate.run_test(state, spec, PoolSpec(base=1),
                       typed=Typed("2C", "3C 4S 5S 6S 8S 9S", "3D",
                                   gates=("KH 2H 3S 4S 5S 6S 8S 9S",)))
    assert ok.data["gates"][0]["passed"] and ok.data["pools"]["a"]["size"] == 6
    # failed: it cannot be used at all, the test goes on without it (7 cards)
    no = fate.run_test(state, spec, PoolSpec(base=1),
                       typed=Typed("2C", "3C 4S 5S 6S 8S 9S 10S", "3D",
                                   gates=("KH 2S 3S 4S 5S 6S 8S 9S",)))
    assert not no.data["gates"][0]["passed"] and no.data["pools"]["a"]["staked"] == []


def test_r37_maimed_health_failed_gate_means_no_attempt(state: State) -> None:
    hurt(state, "Alice", "health", "maimed")
    out = fate.run_test(state, PoolSpec(char="alice", measure="fiery", physical=True),
                        PoolSpec(base=1),
                        typed=Typed("2C", "", "3D", gates=("KH 2S 3S 4S 5S 6S 8S 9S",)))
    assert out.data["attempted"] is False
    assert [e["what"] for e in out.events] == ["gate"]


# -- fights -------------------------------------------------------------------------------------


def test_f8_both_deal_their_best_result(state: State) -> None:
    out = fate.fight(state, "alice", "bob", a_weapon="sabre", b_weapon="pistol",
                     typed=Typed("7H", "2H 3S 4S", "7S 5C 6C 8C", complications=("4H",)))
    assert out.data["winner"] == "b"
    fold(state, out.events)
    assert health(state, "bob") == "injured"   # Alice's ordinary
    assert health(state, "alice") == "maimed"  # Bob's critical
    assert any("complication" in n for n in find(state, "alice")["notes"])


def test_f8_winning_without_a_success_wounds_nobody(state: State) -> None:
    out = fate.fight(state, "alice", "bob", typed=Typed("7H", "AS 2C", "KS 3C"))
    fold(state, out.events)
    assert health(state, "alice") == health(state, "bob") == "healthy"
    assert "surrendered" in out.lines[-1]


def test_f8_tie_changes_nothing(state: State) -> None:
    out = fate.fight(state, "alice", "bob", typed=Typed("7H", "2S 9S", "2D 9C"))
    assert out.data["winner"] == "tie"
    assert [e["kind"] for e in out.events] == ["drawn"]


def test_f8_unaware_gives_the_other_two(state: State) -> None:
    out = fate.fight(state, "alice", "bob", unaware="bob", seed=1)
    assert out.data["pools"]["a"]["size"] == 2 + 2 and out.data["pools"]["b"]["size"] == 2


def test_f8_static_ranged_only_the_shooter_deals(state: State) -> None:
    out = fate.fight(state, "bob", "alice", a_weapon="pistol", static="chal",
                     typed=Typed("7H", "7S 2C 3C 4C", "2D 3D 4D 5D 6D", complications=("KD",)))
    fold(state, out.events)
    assert out.data["winner"] == "a"
    assert health(state, "alice") == "maimed" and health(state, "bob") == "healthy"


def test_r37_injured_health_costs_a_card_in_a_fight(state: State) -> None:
    hurt(state, "Alice", "health", "injured")
    out = fate.fight(state, "alice", "bob", a_weapon="sabre", seed=4)
    assert out.data["pools"]["a"]["size"] == 2


def test_f6_maimed_fighter_who_fails_the_gate_draws_nothing(state: State) -> None:
    hurt(state, "Alice", "health", "maimed")
    out = fate.fight(state, "bob", "alice", typed=Typed("7H", "2H 3S", "",
                                                       gates=("KH 2S 3S 4S 5S 6S 8S 9S",)))
    assert out.data["a"]["ordinary"] == 1 and out.data["b"]["cards"] == []
    fold(state, out.events)
    assert health(state, "alice") == "dead"


def test_f8_a_fighter_cannot_fight_themself(state: State) -> None:
    with pytest.raises(BadInput, match="themself"):
        fate.fight(state, "alice", "ALICE")


@pytest.mark.parametrize(("card", "kind"), [
    ("5H", "red-number"), ("9C", "black-number"), ("QD", "red-face"), ("JS", "black-face"),
    ("AH", "ace"),
])
def test_f9_maimed_complications(state: State, monkeypatch: pytest.MonkeyPatch, card: str,
                                 kind: str) -> None:
    monkeypatch.setattr(Dealer, "complication", lambda self, who: parse_fate_card(card))
    out = fate.fight(state, "bob", "alice", typed=Typed("7H", "7S 2D", "2C 3C"))
    fold(state, out.events)
    assert out.data["complications"][0]["kind"] == kind
    alice = find(state, "alice")
    assert (alice["traits"].get("Scarred") == {"bonus": 1, "cost": 0}) == (kind == "red-number")
    assert alice["infection"] == (kind == "black-number")


# -- drinking, healing, changing ----------------------------------------------------------------


@pytest.mark.parametrize(("a", "b", "outcome", "mod"), [
    ("JOKER 2S 3S 4S 5S", "6D", "perfect", 1),
    ("7S 2S 3S 4S 5S", "6D", "critical", 0),
    ("2H 2S 3S 4S 5S", "6D", "ordinary", 0),
    ("AS 2S 3S 4S 5S", "6D", "none", 0),
    ("2S 3S 4S 5S 6S", "2H", "lose", -1),
    ("2S 3S 4S 5S 6S", "", "none", 0),
])
def test_f12_drinking_outcomes(state: State, a: str, b: str, outcome: str, mod: int) -> None:
    out = fate.drink(state, "alice", len(b.split()), typed=Typed("7H", a, b))
    assert out.data["drink"]["outcome"] == outcome and out.data["drink"]["modifier"] == mod
    fold(state, out.events)
    assert find(state, "alice")["next_mod"] == mod


def test_f13_heal_fail_then_extra_card_then_one_step(state: State) -> None:
    hurt(state, "Alice", "health", "maimed")
    out = fate.heal(state, "alice", "health", "calm", typed=Typed("7H", "2S 3S 4S"))
    assert not out.data["passed"] and out.data["time"] == "2 months"
    fold(state, out.events)
    assert find(state, "alice")["heal_bonus"] == {"health": 1}
    with pytest.raises(BadInput, match="pool is 4"):  # Calm 3 + 1 for the failed try
        fate.heal(state, "alice", "health", "calm", typed=Typed("7H", "2S 3S 4S"))
    out = fate.heal(state, "alice", "health", "calm", typed=Typed("7H", "2S 3S 4S 5H"))
    fold(state, out.events)
    alice = find(state, "alice")
    assert alice["areas"]["health"] == "injured" and alice["heal_bonus"] == {}


def test_f13_heal_refuses_healthy_and_dead(state: State) -> None:
    with pytest.raises(IllegalAction, match="nothing to heal"):
        fate.heal(state, "alice", "health", "calm")
    hurt(state, "Alice", "Loved by Miss Atherton", "dead")
    with pytest.raises(IllegalAction, match="cannot heal"):
        fate.heal(state, "alice", "loved", "honest")


def test_f13_infection_adds_a_month(state: State) -> None:
    hurt(state, "Alice", "health", "maimed")
    fold(state, [{"kind": "infection_set", "char": "Alice", "value": True}])
    out = fate.heal(state, "alice", "health", "calm", typed=Typed("7H", "2S 3S 7D"))
    assert "extra month" in out.data["time"]
    fold(state, out.events)
    assert not find(state, "alice")["infection"]


def test_f14_two_checks_then_grow_on_failure(state: State) -> None:
    with pytest.raises(IllegalAction, match="0 checks"):
        fate.grow(state, "bob", "calm")
    fold(state, fate.check(state, "bob", "calm").events)
    fold(state, fate.check(state, "bob", "calm").events)
    out = fate.grow(state, "bob", "calm", typed=Typed("7H", "2S 3S 4S 5S 6S 8S"))
    fold(state, out.events)
    bob = find(state, "bob")
    assert out.data["to"] == 7 and bob["measures"]["Fiery"] == 3 and bob["checks"] == {}


def test_f14_grow_passed_keeps_the_measure(state: State) -> None:
    fold(state, fate.check(state, "bob", "calm").events * 2)
    fold(state, [{"kind": "checks_set", "char": "Bob", "measure": "Calm", "value": 2}])
    out = fate.grow(state, "bob", "calm", typed=Typed("7H", "2H 3S 4S 5S 6S 8S"))
    fold(state, out.events)
    assert find(state, "bob")["measures"]["Fiery"] == 4


def test_f14_compelled_from_eight(state: State) -> None:
    with pytest.raises(IllegalAction, match="only 8-9"):
        fate.compel(state, "alice", "fiery")
    fold(state, fate.edit_character(state, "alice", measures=["fiery=8"]))
    out = fate.compel(state, "alice", "fiery", typed=Typed("7H", "2H 3S 4S 5S 6S 8S 9S 10S",
                                                           "JS QS"))
    assert out.data["compelled"] and out.events == []
    assert "compelled" in fate.check(state, "alice", "fiery").lines[-1]


def test_deck_setting(state: State) -> None:
    out = fate.set_deck(state, "tar")
    fold(state, out.events)
    assert state["settings"]["deck"] == "tarot"
    res = fate.run_test(state, PoolSpec(), PoolSpec(), typed=Typed("KnC", "2C 0", "PC"))
    assert res.data["a"]["perfect"] == 1 and res.data["b"]["ordinary"] == 1


@settings(max_examples=examples(60), deadline=None)
@given(st.integers(0, 10**9), st.integers(0, 20), st.integers(0, 20),
       st.sampled_from(["standard", "tarot"]))
def test_r35_a_console_test_never_turns_a_card_twice(seed: int, na: int, nb: int,
                                                     deck: str) -> None:
    s = fresh()
    out = fate.run_test(s, PoolSpec(base=na), PoolSpec(base=nb), seed=seed, deck=deck)
    drawn = [out.data["cof"], *out.data["a"]["cards"], *out.data["b"]["cards"]]
    assert len(drawn) == len(set(drawn)) == 1 + na + nb
    again = fate.run_test(s, PoolSpec(base=na), PoolSpec(base=nb), seed=seed, deck=deck)
    assert again.data == out.data


def test_f17_character_by_any_word(state: State) -> None:
    fold(state, fate.new_character(state, "Lord Ashby"))
    assert find(state, "ashby")["name"] == "Lord Ashby"
    assert find(state, "lord")["name"] == "Lord Ashby"


_STEPS = {"ordinary": 1, "critical": 2, "perfect": 3}
_LADDER = ["healthy", "injured", "maimed", "dead"]


def _best(side: dict[str, Any]) -> str | None:
    return next((tier for tier in ("perfect", "critical", "ordinary") if side[tier]), None)


@settings(max_examples=examples(60), deadline=None)
@given(st.integers(0, 10**9), st.integers(0, 9), st.integers(0, 9))
def test_f29_property_each_fighter_takes_the_others_best_result(seed: int, wa: int,
                                                                wb: int) -> None:
    """Winner and loser alike deliver their highest result; a tie changes nothing (F29, R36)."""
    s = fresh()
    fold(s, fate.new_character(s, "Alice"))
    fold(s, fate.new_character(s, "Bob"))
    out = fate.fight(s, "alice", "bob", a_weapon=str(wa), b_weapon=str(wb), seed=seed)
    fold(s, out.events)
    for who, other in (("Alice", "b"), ("Bob", "a")):
        best = _best(out.data[other])
        want = "healthy"
        if out.data["winner"] != "tie" and best is not None:
            want = _LADDER[min(3, _STEPS[best])]
        assert health(s, who) == want, (who, out.data)
