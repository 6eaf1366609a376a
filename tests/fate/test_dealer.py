"""The cards of one command (``dealer``): typed or drawn, the same deck either way (R35, F1, F20),
and a complication card that is always fresh (F26)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.errors import BadInput, UnknownCard
from referee.rules.fate.cards import format_fate_cards
from referee.rules.fate.dealer import NOTHING_TYPED, Dealer, Typed
from tests.profiles import examples

_KINDS = st.sampled_from(["standard", "tarot"])
_JOKERS = st.sampled_from([1, 2])
_SIZE = st.integers(0, 24)


@settings(max_examples=examples(80), deadline=None)
@given(st.integers(0, 10**9), _KINDS, _JOKERS, _SIZE, _SIZE)
def test_f1_every_card_the_console_deals_can_be_typed_back(seed: int, kind: str, jokers: int,
                                                           na: int, nb: int) -> None:
    """The deal and the typed cards agree: the tarot duel deck's Magician (I) included."""
    drawn = Dealer(kind, NOTHING_TYPED, seed, jokers=jokers)  # type: ignore[arg-type]
    cof, a, b = drawn.contest(na, nb)
    typed = Typed(cof.label, format_fate_cards(a), format_fate_cards(b))
    again = Dealer(kind, typed, None, jokers=jokers)  # type: ignore[arg-type]
    assert again.contest(na, nb) == (cof, a, b)


def test_f1_the_magician_is_a_joker_only_in_a_tarot_duel_deck() -> None:
    duel = Dealer("tarot", Typed("7C", "I 0", ""), None, jokers=2)
    _cof, a, _b = duel.contest(2, 0)
    assert [card.is_joker for card in a] == [True, True]
    with pytest.raises(UnknownCard, match="a duel deck adds the Magician, I"):
        Dealer("tarot", Typed("7C", "I", ""), None).contest(1, 0)


@settings(max_examples=examples(80), deadline=None)
@given(st.integers(0, 10**9), _KINDS, _JOKERS, _SIZE, _SIZE, st.booleans())
def test_f26_a_drawn_complication_is_never_a_card_already_turned(
        seed: int, kind: str, jokers: int, na: int, nb: int, gate: bool) -> None:
    dealer = Dealer(kind, NOTHING_TYPED, seed, jokers=jokers)  # type: ignore[arg-type]
    on_table = []
    if gate:
        gate_cof, gate_cards = dealer.gate(4, "Bob", "Health", "Fiery")
        on_table += [gate_cof, *gate_cards]
    cof, a, b = dealer.contest(na, nb)
    on_table += [cof, *a, *b]
    first = dealer.complication("Alice")
    second = dealer.complication("Bob")
    for card in (first, second):
        assert not card.is_joker
        assert card.label not in {c.label for c in on_table}
    assert first != second


def test_f26_a_typed_complication_already_on_the_table_is_refused() -> None:
    typed = Typed("7H", "2H 3S", "4D", gates=("8H 5C 6C",), complications=("5C", "9S"))
    dealer = Dealer("standard", typed, None)
    dealer.gate(2, "Bob", "Health", "Fiery")
    dealer.contest(2, 1)
    with pytest.raises(BadInput, match=r"5C: that card is already on the table .*\(--gate\)"):
        dealer.complication("Bob")
    assert dealer.complication("Bob").label == "9S"


def test_f26_no_fresh_card_left_is_said() -> None:
    dealer = Dealer("standard", NOTHING_TYPED, 1)
    dealer.turned.update({c.label: "--a" for c in dealer.deck if not c.is_joker})
    with pytest.raises(BadInput, match="no fresh card is left"):
        dealer.complication("Bob")
