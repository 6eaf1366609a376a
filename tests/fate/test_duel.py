"""Duel phase rules (seed: Dueling; F10, F11), with the console's draws scripted."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.errors import BadInput, IllegalAction
from referee.rules import fate
from referee.rules.fate.cards import FateCard, parse_fate_card, parse_fate_cards
from referee.rules.fate.cards import make_deck as fate_deck
from referee.rules.fate.characters import find
from referee.rules.fate.dealer import Dealer, Typed
from referee.rules.fate.duel import allowed
from tests.fate import DATA, fresh
from tests.profiles import examples

State = dict[str, Any]
PASS, FAIL = "2H", "2S"  # against a 7H Card of Fate


def fold(state: State, events: list[dict[str, Any]]) -> State:
    for event in events:
        fate.apply(state, json.loads(json.dumps(event)))
    return state


class Script:
    """The duel's draws, by purpose: Calm tests pass or fail, shots are typed in."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calm: dict[str, bool] = {}
        self.fire: dict[str, tuple[str, str]] = {}
        self.sizes: list[tuple[int, int]] = []
        self.decks: list[int] = []
        script = self

        def single(dealer: Dealer, n: int, purpose: str, typed: str | None = None,
                   where: str = "") -> tuple[FateCard, list[FateCard]]:
            key = purpose.rsplit("/", 1)[0] if purpose.endswith("/calm") else purpose
            ok = script.calm.get(key, True)
            return parse_fate_card("7H"), parse_fate_cards(PASS if ok else FAIL)

        def contest(dealer: Dealer, na: int | None, nb: int | None, purpose: str = "",
                    why: tuple[str, str] = ("", ""),
                    ) -> tuple[FateCard, list[FateCard], list[FateCard]]:
            assert na is not None and nb is not None
            script.sizes.append((na, nb))
            script.decks.append(len(dealer.deck))
            a, b = script.fire.get(purpose, ("", ""))
            return parse_fate_card("7H"), parse_fate_cards(a), parse_fate_cards(b)

        monkeypatch.setattr(Dealer, "single", single)
        monkeypatch.setattr(Dealer, "contest", contest)


@pytest.fixture
def script(monkeypatch: pytest.MonkeyPatch) -> Script:
    return Script(monkeypatch)


@pytest.fixture
def state() -> State:
    s = fresh()
    fold(s, fate.new_character(s, "Alice", measures=["calm=6"],
                               reps=["Loved by Miss Atherton=2", "Feared by the Corsairs=1"]))
    fold(s, fate.new_character(s, "Bob", measures=["calm=7"], items=["Pistol=4"],
                               reps=["Respected by the Regiment=3"]))
    return s


def pistols(state: State, **kw: Any) -> State:
    return fold(state, fate.duel_start(state, "pistols", "alice", "bob", seed=1, **kw).events)


def phase(state: State, a: str, b: str) -> Any:
    out = fate.duel_phase(state, a, b)
    fold(state, out.events)
    return out


def test_f10_options_narrow_after_a_shot_and_in_the_last_phase(state: State,
                                                               script: Script) -> None:
    pistols(state)
    duel = state["duel"]
    assert allowed(duel, "a", DATA) == ("fire", "aim", "stand", "beg", "mercy")
    phase(state, "mercy", "aim")
    assert allowed(state["duel"], "a", DATA) == ("stand", "beg")
    with pytest.raises(IllegalAction, match="already fired or shown mercy"):
        fate.duel_phase(state, "fire", "aim")
    phase(state, "stand", "aim")
    phase(state, "stand", "stand")
    assert state["duel"]["phase"] == 4
    assert allowed(state["duel"], "b", DATA) == ("fire", "beg", "mercy")
    with pytest.raises(IllegalAction, match="last phase"):
        fate.duel_phase(state, "stand", "aim")
    out = phase(state, "s", "m")
    assert state["duel"]["over"] and "honour is satisfied" in state["duel"]["result"]
    assert out.data["duel"]["phase"] == 5


def test_f10_aim_adds_a_card_per_phase_and_stand_takes_one(state: State,
                                                           script: Script) -> None:
    pistols(state)  # pistols: Alice 3 (default), Bob 3 (default)
    phase(state, "aim", "stand")
    phase(state, "aim", "stand")
    phase(state, "fire", "aim")
    # Alice: 3 + 2 aimed - 2 for Bob's two Stands
    assert script.sizes[-1] == (3, 5)
    assert state["duel"]["shot"] == {"a": "fire", "b": None}
    assert state["duel"]["aim"] == {"a": 0, "b": 1}


def test_f10_failed_aim_or_stand_fires(state: State, script: Script) -> None:
    pistols(state, b_weapon="pistol")
    script.calm["p1/a"] = False
    script.calm["p1/b"] = False
    out = phase(state, "aim", "stand")
    assert out.data["phase"]["acted"] == {"a": "fire", "b": "fire"}
    assert script.sizes == [(3, 4)]  # both fired: one contested draw


def test_f10_failed_stand_after_the_shot_does_nothing(state: State, script: Script) -> None:
    pistols(state)
    phase(state, "fire", "aim")
    script.calm["p2/a"] = False
    out = phase(state, "stand", "aim")
    assert out.data["phase"]["acted"]["a"] == "stand" and len(script.sizes) == 1


def test_f10_both_fire_both_deal_damage(state: State, script: Script) -> None:
    pistols(state)
    script.fire["p1/fire"] = ("2H 3S 4S", "7S 5C 6C")
    phase(state, "fire", "fire")
    assert find(state, "bob")["areas"]["health"] == "injured"
    assert find(state, "alice")["areas"]["health"] == "maimed"
    assert state["duel"]["over"]


def test_f10_a_lone_shot_is_a_static_challenge(state: State, script: Script) -> None:
    pistols(state)
    script.fire["p1/fire"] = ("JOKER 2S 3S", "2D 3D 4D 5D 6D")
    phase(state, "fire", "stand")
    assert script.sizes == [(3 - 1, 5)]  # Bob stood firm in the same phase; static challenging
    assert find(state, "bob")["areas"]["health"] == "dead"
    duel = state["duel"]
    assert duel["over"] and duel["winner"] == "Alice" and "dead" in duel["result"]


def test_f10_two_jokers_in_the_duel_deck(state: State, script: Script) -> None:
    pistols(state)
    phase(state, "fire", "fire")
    assert script.decks == [54]


def test_f10_beg_maims_a_reputation_and_ends_the_duel(state: State, script: Script) -> None:
    pistols(state)
    with pytest.raises(BadInput, match="which Reputation"):
        fate.duel_phase(state, "beg", "fire")
    phase(state, "beg:loved", "fire")
    alice = find(state, "alice")
    assert alice["areas"]["Loved by Miss Atherton"] == "maimed"
    assert script.sizes == []  # no shot at a man who begs
    assert state["duel"]["winner"] == "Bob"


def test_f10_begging_with_a_maimed_reputation_kills_it(state: State, script: Script) -> None:
    fold(state, [{"kind": "area_set", "char": "Bob", "area": "Respected by the Regiment",
                  "state": "maimed"}])
    pistols(state)
    phase(state, "aim", "b")  # Bob's only Reputation is chosen for him
    assert find(state, "bob")["areas"]["Respected by the Regiment"] == "dead"


def test_f10_one_duel_at_a_time(state: State, script: Script) -> None:
    pistols(state)
    with pytest.raises(IllegalAction, match="under way"):
        fate.duel_start(state, "swords", "alice", "bob")
    with pytest.raises(IllegalAction, match="sword duel|pistol duel"):
        fate.duel_round(state)
    fold(state, fate.duel_end(state).events)
    with pytest.raises(IllegalAction, match="no duel under way"):
        fate.duel_phase(state, "f", "f")


def test_f10_pistols_take_no_terms(state: State) -> None:
    with pytest.raises(BadInput, match="--to is for swords"):
        fate.duel_start(state, "pistols", "alice", "bob", to="death")


def test_f6_maimed_duellist_must_pass_a_test_to_face_it(state: State, script: Script) -> None:
    fold(state, [{"kind": "area_set", "char": "Alice", "area": "health", "state": "maimed"}])
    script.calm["gate/Alice/Health"] = False
    out = fate.duel_start(state, "pistols", "alice", "bob", seed=1)
    assert [e["kind"] for e in out.events] == ["drawn"] and "cannot face" in out.lines[-1]
    script.calm["gate/Alice/Health"] = True
    fold(state, fate.duel_start(state, "pistols", "alice", "bob", seed=1).events)
    phase(state, "fire", "stand")
    assert script.sizes[-1][0] == 0  # 3 - 3 for the Maimed Health, - 1 for Bob's Stand: none


def swords(state: State, to: str) -> None:
    fold(state, fate.duel_start(state, "swords", "alice", "bob", to=to, seed=2).events)


def round_(state: State) -> Any:
    out = fate.duel_round(state)
    fold(state, out.events)
    return out


def test_f11_first_blood_wins(state: State, script: Script) -> None:
    swords(state, "first")
    round_(state)  # no successes: go on
    assert not state["duel"]["over"]
    script.fire["r2"] = ("2H 3C 4C", "5C 6C 8C")
    round_(state)
    assert state["duel"]["winner"] == "Alice" and "first blood" in state["duel"]["result"]


def test_f11_both_bleed_the_worse_wound_loses(state: State, script: Script) -> None:
    swords(state, "first-blood")
    script.fire["r1"] = ("2H 3C 4C", "7S 6C 8C")
    round_(state)
    assert state["duel"]["winner"] == "Bob" and "worse wound" in state["duel"]["result"]


def test_f11_both_bleed_alike_the_exchange_decides(state: State, script: Script) -> None:
    swords(state, "first-blood")
    script.fire["r1"] = ("2H KC 4C", "3H 6C 8C")
    round_(state)
    assert state["duel"]["winner"] == "Alice"


def test_f11_surrender_and_death_terms(state: State, script: Script) -> None:
    swords(state, "surrender")
    script.fire["r1"] = ("2H 3C 4C", "")
    round_(state)
    assert not state["duel"]["over"]  # wounded, but nobody yielded
    fold(state, fate.duel_surrender(state, "bo").events)
    assert state["duel"]["winner"] == "Alice"
    swords(state, "death")
    with pytest.raises(IllegalAction, match="to the death"):
        fate.duel_surrender(state, "bob")
    with pytest.raises(IllegalAction, match="sword duel"):
        fate.duel_phase(state, "fire", "fire")


def test_f10_choices_by_name_in_any_order(state: State, script: Script) -> None:
    pistols(state)
    out = phase(state, "bob=mercy", "ali=aim")
    assert out.data["phase"]["chose"] == {"a": "aim", "b": "mercy"}
    with pytest.raises(BadInput, match="two choices"):
        fate.duel_phase(state, "bob=stand", "b=stand")
    with pytest.raises(BadInput, match="both choices"):
        fate.duel_phase(state, "bob=stand", "stand")


_LABELS = [c.label for c in fate_deck() if not c.is_joker] + ["JOKER"]


@settings(max_examples=examples(50), deadline=None)
@given(st.lists(st.sampled_from(_LABELS), min_size=10, max_size=10, unique=True)
       .filter(lambda cards: "JOKER" not in (cards[0], cards[9])))
def test_f20_property_a_lone_shot_is_ruled_alike_for_a_and_for_b(cards: list[str]) -> None:
    """Each duellist's cards in their own option, the static side's in the other's: the same
    cards give the same shot whoever fires (F20)."""
    cof, shot, static, fresh_card = cards[0], " ".join(cards[1:4]), " ".join(cards[4:9]), cards[9]
    hurt: dict[str, tuple[str, bool]] = {}
    for shooter, choices, typed in (
            ("a", ("fire", "mercy"), Typed(cof, shot, static, complications=(fresh_card,))),
            ("b", ("mercy", "fire"), Typed(cof, static, shot, complications=(fresh_card,)))):
        s = fresh()
        for name in ("Alice", "Bob"):
            fold(s, fate.new_character(s, name))
        fold(s, fate.duel_start(s, "pistols", "alice", "bob", seed=1).events)
        out = fate.duel_phase(s, *choices, typed)
        fold(s, out.events)
        fired = out.data["phase"]["fire"]
        assert fired["shooters"] == [shooter]
        assert fired[shooter]["cards"] == shot.split()
        target = "Bob" if shooter == "a" else "Alice"
        hurt[shooter] = (find(s, target)["areas"]["health"],
                         fired["winner"] == shooter)
    assert hurt["a"] == hurt["b"]


def test_f25_a_drink_is_spent_by_the_shot_that_uses_it(state: State, script: Script) -> None:
    fold(state, [{"kind": "next_mod_set", "char": "Alice", "value": 2},
                 {"kind": "next_mod_set", "char": "Bob", "value": -1}])
    pistols(state)
    phase(state, "aim", "stand")  # Calm tests: the drinks neither count nor are spent
    assert (find(state, "alice")["next_mod"], find(state, "bob")["next_mod"]) == (2, -1)
    phase(state, "fire", "stand")  # Alice fires alone: 3 + 1 aimed - 2 stood + 2 drink
    assert script.sizes == [(4, 5)]
    assert (find(state, "alice")["next_mod"], find(state, "bob")["next_mod"]) == (0, -1)
