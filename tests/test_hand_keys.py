"""The key engine (R4-R8): the bulk API and the key path agree with the full evaluation."""

from __future__ import annotations

import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.errors import BadInput
from referee.rules.cards import DECK, parse_cards
from referee.rules.hand_keys import category_of, evaluate, hand_key, hand_keys, iter_keys
from referee.rules.hands import best_hand
from tests.profiles import examples

# The benchmark (benchmarks/hands.py --agree) runs 100,000 hands each way; CI runs fewer.
AGREE = 20_000


@pytest.mark.parametrize("magic", [False, True])
def test_r4_r8_bulk_agrees_with_best_hand_on_random_hands_of_1_to_7(magic: bool) -> None:
    rng = random.Random(15 + magic)
    sizes = [rng.randint(1, 7) for _ in range(AGREE)]
    if magic:  # R8: with magic a card may come twice, even seven times
        hands = [[rng.randrange(78) for _ in range(n)] for n in sizes]
    else:
        hands = [rng.sample(range(78), n) for n in sizes]
    keys = hand_keys(hands, magic=magic)
    assert len(keys) == AGREE
    for hand, key in zip(hands, keys, strict=True):
        cards = [DECK[i] for i in hand]
        assert key == best_hand(cards, magic=magic).key == evaluate(cards, magic=magic)[0], cards
    assert len({category_of(key) for key in keys}) >= 11  # the sample reaches most categories


@settings(max_examples=examples(100), deadline=None)
@given(st.lists(st.integers(0, 77), min_size=1, max_size=7), st.booleans())
def test_r7_key_path_and_full_path_agree_and_cards_come_when_asked(
    hand: list[int], shuffle: bool
) -> None:
    magic = len(set(hand)) != len(hand)
    cards = [DECK[i] for i in hand]
    if shuffle:
        random.Random(len(hand)).shuffle(cards)
    key, made = evaluate(cards, magic=magic)
    found = best_hand(cards, magic=magic)
    assert hand_key(cards, magic=magic) == key == found.key
    assert list(iter_keys([hand], magic=magic)) == [key]
    assert found.cards == made  # worked out only now, from the cards given
    assert found.category == category_of(key)
    assert pickle.loads(pickle.dumps(found)).cards == made


def test_r8_bulk_refuses_a_card_twice_without_magic() -> None:
    with pytest.raises(BadInput, match=r"KC \(King of Cups\) appears twice.*R8"):
        hand_keys([[13, 12], [13, 13]])


@pytest.mark.parametrize("hand", [[], list(range(8))])
def test_r7_bulk_refuses_no_cards_and_more_than_seven(hand: list[int]) -> None:
    with pytest.raises(BadInput, match="R7"):
        hand_keys([hand])


@pytest.mark.parametrize("hand", [[78], [-1], [3, 100]])
def test_bulk_refuses_an_index_outside_the_deck(hand: list[int]) -> None:
    with pytest.raises(BadInput, match="deck indices 0-77"):
        hand_keys([hand])


def test_r4_bulk_categories_of_the_example_hands() -> None:
    from referee.rules.hands import CATEGORY_EXAMPLES

    magic = {"seven_of_a_kind", "six_of_a_kind", "five_of_a_kind"}
    for name, text in CATEGORY_EXAMPLES.items():
        indices = [card.index for card in parse_cards(text)]
        assert category_of(hand_keys([indices], magic=name in magic)[0]) == name
