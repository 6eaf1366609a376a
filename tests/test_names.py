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


# -- E75: no invisible format characters in names -------------------------------------------------

FORMAT = ["\u202e", "\u202d", "\u2066", "\u2069", "\u200b", "\u200d", "\u00ad", "\ufeff",
          "\u061c"]


@pytest.mark.parametrize("hidden", FORMAT)
def test_e75_a_name_with_a_format_character_is_refused_naming_it(hidden: str) -> None:
    import unicodedata

    from referee.errors import BadInput
    from referee.names import check_name

    with pytest.raises(BadInput, match=f"U\\+{ord(hidden):04X}") as caught:
        check_name(f"Ada{hidden}Lovelace")
    assert caught.value.ruling == "E75"
    assert unicodedata.name(hidden).lower() in str(caught.value)


@given(st.text(min_size=1, max_size=30))
def test_e75_names_are_refused_exactly_when_they_hold_a_format_character(text: str) -> None:
    import unicodedata

    from referee.errors import BadInput
    from referee.names import check_name

    hidden = any(unicodedata.category(c) == "Cf" for c in text)
    try:
        check_name(text)
    except BadInput as exc:
        if hidden and exc.ruling != "E42":  # a control character is E42's, and found first
            assert exc.ruling == "E75"
        return
    assert not hidden  # accepted: so it holds none


@given(st.text(alphabet=st.characters(categories=["L", "N", "Zs", "P"]), max_size=250))
def test_e75_announcements_keep_their_words_on_one_line(text: str) -> None:
    from referee.errors import BadInput
    from referee.names import check_text

    try:
        line = check_text(text, "announcement", 200)
    except BadInput as exc:
        assert not text.split() or len(" ".join(text.split())) > 200, exc
        return
    assert line == " ".join(text.split()) and 0 < len(line) <= 200


def test_plural_says_one_or_many() -> None:
    from referee.names import plural

    assert [plural(n, "event") for n in (0, 1, 2)] == ["0 events", "1 event", "2 events"]
    assert plural(1, "Charge") == "1 Charge" and plural(2, "more claim", "more claims") == \
        "2 more claims"
