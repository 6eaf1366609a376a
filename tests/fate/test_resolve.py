"""R36 tests with typed-in cards, the carrying rule and the R37 ladder."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.rules.fate.cards import STANDARD_DECK, STANDARD_JOKER, FateCard, make_deck
from referee.rules.fate.cards import parse_fate_card as card
from referee.rules.fate.cards import parse_fate_cards as cards
from referee.rules.fate.resolve import (
    STATES,
    carry,
    heal_step,
    match,
    passes,
    resolve,
    tally,
    worsen,
)

# (name, cof, a, b, a's (perfect, critical, ordinary), b's, winner)
R36_CASES = [
    ("ordinary_same_suit", "7H", "2H", "3S", (0, 0, 1), (0, 0, 0), "a"),
    ("critical_same_rank", "7H", "7S", "2H 3H", (0, 1, 0), (0, 0, 2), "a"),
    ("perfect_joker", "7H", "JOKER", "7S 7D", (1, 0, 0), (0, 2, 0), "a"),
    ("failure_neither", "7H", "2S 3C", "4D", (0, 0, 0), (0, 0, 0), "b"),
    ("more_of_the_same_tier", "7H", "4H", "2H 3H", (0, 0, 1), (0, 0, 2), "b"),
    ("best_before_most", "QC", "2C 3C 4D QH", "QS 9D", (0, 1, 2), (0, 1, 0), "a"),
    ("three_ordinaries_carry_into_a_critical", "7H", "2H 3H 4H", "5S", (0, 1, 0), (0, 0, 0), "a"),
    ("carried_critical_ties_then_cards", "7H", "2H 3H 4H", "7S", (0, 1, 0), (0, 1, 0), "b"),
    ("three_criticals_carry_into_a_perfect", "7H", "7S 7D 7C", "JOKER", (1, 0, 0), (1, 0, 0), "b"),
    ("nine_ordinaries_carry_twice", "7H", "2H 3H 4H 5H 6H 8H 9H 10H JH", "JOKER",
     (1, 0, 0), (1, 0, 0), "b"),
    ("four_ordinaries_leave_one", "KS", "2S 3S 4S 5S", "KD", (0, 1, 1), (0, 1, 0), "a"),
    ("aces_high_fallback", "7H", "AS 2C", "KS 2D", (0, 0, 0), (0, 0, 0), "a"),
    ("fallback_at_the_first_difference", "7H", "KS 9C 2D", "KD 10S", (0, 0, 0), (0, 0, 0), "b"),
    ("joker_above_an_ace_in_the_fallback", "7H", "JOKER 2C", "3S JOKER", (1, 0, 0), (1, 0, 0),
     "b"),
    ("longer_list_wins_on_a_prefix", "7H", "KS 2C", "KD", (0, 0, 0), (0, 0, 0), "a"),
    ("equal_ranks_tie", "7H", "KS 2C", "KD 2S", (0, 0, 0), (0, 0, 0), "tie"),
    ("nothing_against_nothing_ties", "7H", "", "", (0, 0, 0), (0, 0, 0), "tie"),
    ("fallback_reads_past_equal_cards", "2C", "3C KS", "4C KD", (0, 0, 1), (0, 0, 1), "b"),
]


@pytest.mark.parametrize(("cof", "a", "b", "ka", "kb", "winner"),
                         [case[1:] for case in R36_CASES], ids=[case[0] for case in R36_CASES])
def test_r36_typed_in(cof: str, a: str, b: str, ka: tuple[int, int, int],
                      kb: tuple[int, int, int], winner: str) -> None:
    result = resolve(card(cof), cards(a), cards(b))
    assert result.a.key == ka
    assert result.b.key == kb
    assert result.winner == winner, result.why


def test_r36_json_shape() -> None:
    result = resolve(card("7H"), cards("2H 7S"), cards("KC"))
    assert result.to_json() == {
        "cof": "7H",
        "a": {"cards": ["2H", "7S"], "perfect": 0, "critical": 1, "ordinary": 1},
        "b": {"cards": ["KC"], "perfect": 0, "critical": 0, "ordinary": 0},
        "winner": "a",
        "why": "a has more critical successes (1 to 0)",
    }


def test_r36_tie_says_nothing_changes() -> None:
    assert "nothing changes" in resolve(card("7H"), cards("KS"), cards("KD")).why


def test_r36_match_each_kind() -> None:
    cof = card("10D")
    assert [match(cof, c) for c in cards("2D 10C JOKER 9S")] == [
        "ordinary", "critical", "perfect", None]


def test_f7_single_card_of_fate_passes_on_any_success() -> None:
    assert passes(card("5C"), cards("2S 9C"))
    assert not passes(card("5C"), cards("2S 9D"))
    assert not passes(card("5C"), [])


@pytest.mark.parametrize(("before", "tier", "after"), [
    ("healthy", "ordinary", "injured"),
    ("healthy", "critical", "maimed"),
    ("healthy", "perfect", "dead"),
    ("injured", "ordinary", "maimed"),
    ("injured", "critical", "dead"),
    ("injured", "perfect", "dead"),
    ("maimed", "ordinary", "dead"),
    ("maimed", "critical", "dead"),
    ("maimed", "perfect", "dead"),
    ("dead", "ordinary", "dead"),
])
def test_r37_ladder(before: str, tier: str, after: str) -> None:
    assert worsen(before, tier) == after  # type: ignore[arg-type]


@pytest.mark.parametrize(("before", "after"), [
    ("maimed", "injured"), ("injured", "healthy"), ("healthy", "healthy"), ("dead", "dead")])
def test_f13_heal_one_step(before: str, after: str) -> None:
    assert heal_step(before) == after


def test_r37_states_in_order() -> None:
    assert STATES == ("healthy", "injured", "maimed", "dead")


@given(st.integers(0, 20), st.integers(0, 20), st.integers(0, 60))
def test_r36_carry_keeps_value_and_leaves_fewer_than_three(p: int, c: int, o: int) -> None:
    cp, cc, co = carry(p, c, o)
    assert 9 * cp + 3 * cc + co == 9 * p + 3 * c + o
    assert co < 3 and cc < 3


@given(st.sampled_from(STANDARD_DECK),
       st.lists(st.sampled_from(make_deck(jokers=2)), max_size=30))
def test_r36_tally_matches_raw_counts(cof: FateCard, hand: list[FateCard]) -> None:
    raw = {"perfect": 0, "critical": 0, "ordinary": 0}
    for c in hand:
        tier = match(cof, c)
        if tier:
            raw[tier] += 1
    t = tally(cof, hand)
    assert 9 * t.perfect + 3 * t.critical + t.ordinary == (
        9 * raw["perfect"] + 3 * raw["critical"] + raw["ordinary"])
    assert t.ordinary < 3 and t.critical < 3


_ANY = st.lists(st.sampled_from(STANDARD_DECK + (STANDARD_JOKER,)), max_size=8)


@given(_ANY, _ANY)
def test_r36_compare_is_antisymmetric(a: list[FateCard], b: list[FateCard]) -> None:
    cof = card("7H")
    forward, backward = resolve(cof, a, b).winner, resolve(cof, b, a).winner
    assert {"a": "b", "b": "a", "tie": "tie"}[forward] == backward
