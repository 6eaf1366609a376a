"""Cards and notation (R1-R3): the deck, spellings, canonical form, unknown tokens."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.errors import UnknownCard
from referee.rules.cards import (
    DECK,
    MAJORS,
    MINORS,
    Card,
    Suit,
    format_cards,
    parse_arcanum,
    parse_card,
    parse_cards,
    to_roman,
)


def test_r1_deck_is_78_unique_cards() -> None:
    assert len(DECK) == 78
    assert len(set(DECK)) == 78
    assert len(MINORS) == 56 and len(MAJORS) == 22
    assert [card.index for card in DECK] == list(range(78))


def test_r1_rider_waite_order() -> None:
    assert parse_card("VIII").name == "Strength"
    assert parse_card("XI").name == "Justice"
    assert parse_card("0").name == "The Fool"
    assert parse_card("XXI").name == "The World"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("AC", Card(Suit.CUPS, 1)),
        ("1c", Card(Suit.CUPS, 1)),
        ("10S", Card(Suit.SWORDS, 10)),
        ("PP", Card(Suit.PENTACLES, 11)),
        ("KnC", Card(Suit.CUPS, 12)),
        ("NW", Card(Suit.WANDS, 12)),
        ("qs", Card(Suit.SWORDS, 13)),
        ("KP", Card(Suit.PENTACLES, 14)),
        ("XVI", Card(None, 16)),
        ("m16", Card(None, 16)),
        ("0", Card(None, 0)),
        ("Knight of Cups", Card(Suit.CUPS, 12)),
        ("the tower", Card(None, 16)),
        ("hanged man", Card(None, 12)),
    ],
)
def test_r2_spellings(text: str, expected: Card) -> None:
    assert parse_card(text) == expected


def test_r2_separators_and_long_names_mixed() -> None:
    cards = parse_cards("KnC, 10s the tower m0 Queen of Wands")
    assert format_cards(cards) == "KnC 10S XVI 0 QW"


def test_r2_canonical_form() -> None:
    assert format_cards(parse_cards("ac 10s knw pp m0 xvi")) == "AC 10S KnW PP 0 XVI"


@pytest.mark.parametrize("token", ["KX", "JC", "XXII", "Knight of Cupz"])
def test_r2_unknown_card_names_token_and_suggests(token: str) -> None:
    with pytest.raises(UnknownCard) as caught:
        parse_cards(f"KC {token}")
    message = str(caught.value)
    assert repr(token) in message
    assert "did you mean" in message


def test_r3_strength_order() -> None:
    strengths = [card.strength for card in sorted(DECK, key=lambda c: c.strength)]
    assert sorted(set(strengths)) == list(range(36))
    assert parse_card("AC").strength > parse_card("0").strength  # every minor over every major
    assert parse_card("0").strength > parse_card("I").strength  # lower number is higher
    assert parse_card("KC").strength > parse_card("QC").strength > parse_card("AC").strength


def test_r3_suits_do_not_change_strength() -> None:
    assert {parse_card(f"Q{s}").strength for s in "CWSP"} == {parse_card("QC").strength}


def test_roman_numerals_round_trip() -> None:
    for number in range(22):
        assert parse_arcanum(to_roman(number)) == number
        assert parse_arcanum(f"M{number}") == number


@given(st.lists(st.sampled_from(DECK), max_size=12))
def test_r2_short_form_round_trips(cards: list[Card]) -> None:
    assert parse_cards(format_cards(cards)) == cards


@given(st.lists(st.sampled_from(DECK), max_size=8), st.booleans())
def test_r2_long_names_round_trip(cards: list[Card], commas: bool) -> None:
    sep = ", " if commas else " "
    assert parse_cards(sep.join(card.name for card in cards)) == cards


def test_r2_numbered_long_form_reads_as_one_card() -> None:
    assert parse_cards("XVI The Tower") == [parse_card("XVI")]
    assert parse_cards("0 The Fool, XXI the world KnC") == [
        parse_card("0"), parse_card("XXI"), parse_card("KnC")]
    assert parse_cards("XVI XVI") == [parse_card("XVI")] * 2  # --magic duplicates stay two


@pytest.mark.parametrize("card", DECK, ids=lambda c: c.short)
def test_r2_every_card_round_trips(card: Card) -> None:
    assert parse_card(card.short) == card
    assert parse_card(card.short.lower()) == card
    assert parse_card(card.name.upper()) == card
