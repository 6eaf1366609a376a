"""Matching what the GM types (referee.names): case, prefixes, near misses."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.errors import UnknownName
from referee.names import match_name, nearest

PEOPLE = ["Ada", "Adam", "Ben", "Lord Ashby"]


def test_exact_name_wins_over_a_longer_prefix_match() -> None:
    assert match_name("ada", PEOPLE) == "Ada"
    assert match_name("ADAM", PEOPLE) == "Adam"


def test_a_unique_prefix_matches_and_an_ambiguous_one_says_which() -> None:
    assert match_name("be", PEOPLE) == "Ben"
    with pytest.raises(UnknownName, match="ambiguous: Ada, Adam"):
        match_name("Ad", PEOPLE)


def test_spaces_are_folded_and_empty_is_refused() -> None:
    assert match_name("lord   ashby", PEOPLE) == "Lord Ashby"
    with pytest.raises(UnknownName, match="empty person"):
        match_name("  ", PEOPLE, "person")


def test_a_near_miss_suggests_the_nearest() -> None:
    with pytest.raises(UnknownName, match="did you mean Ben"):
        match_name("Bne", PEOPLE)
    assert nearest("Bne", PEOPLE)[0] == "Ben"


@given(st.sampled_from(PEOPLE), st.sampled_from([str.lower, str.upper, str.title]))
def test_every_name_is_found_in_any_case(name: str, case: object) -> None:
    assert match_name(case(name), PEOPLE) == name  # type: ignore[operator]
