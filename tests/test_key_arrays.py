"""Hand keys by array (``referee.rules.key_arrays``, H29) equal the key engine's, hand by hand:
the table entries against ``hand_keys.pattern_entry`` on every rank pattern of up to five
cards and on thousands of six- and seven-card ones, and whole keys against ``hand_keys``."""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.rules.cards import DECK
from referee.rules.hand_keys import BITS, PATTERN_SHIFT, hand_keys, pattern_entry
from referee.rules.key_arrays import entries, keys, magic_keys
from tests.profiles import examples


def _patterns(cards: int) -> Iterator[int]:
    """Every rank pattern of exactly ``cards`` distinct deck cards (at most four a rank)."""

    def build(rank: int, left: int, pattern: int) -> Iterator[int]:
        if rank == 15:
            if left <= 22:  # the rest are majors
                yield pattern | left
            return
        for count in range(min(4, left) + 1):
            yield from build(rank + 1, left - count, pattern | count << 3 * rank)

    yield from build(1, cards, 0)


def _expected(pattern: int) -> list[int]:
    key, shifts, may_flush = pattern_entry(pattern)
    return [key, *(list(shifts) + [-1] * 5)[:5], int(may_flush)]


def test_h29_entries_equal_the_key_engine_on_every_pattern_of_up_to_five_cards() -> None:
    patterns = [p for n in range(1, 6) for p in _patterns(n)]
    assert len(patterns) > 10_000
    got = entries(np.array(patterns, dtype=np.int64)).tolist()
    assert got == [_expected(p) for p in patterns]


def test_h29_entries_equal_the_key_engine_on_six_and_seven_card_patterns() -> None:
    rng = random.Random(29)
    patterns = sorted({sum(BITS[i] for i in rng.sample(range(78), rng.choice((6, 7))))
                       >> PATTERN_SHIFT for _ in range(8_000)})
    # and patterns heavy in pairs and majors, which random hands seldom reach
    patterns += [p for p in _patterns(7) if p & 7 >= 3][:4_000]
    got = entries(np.array(patterns, dtype=np.int64)).tolist()
    assert got == [_expected(p) for p in patterns]


@settings(max_examples=examples(60))
@given(st.data())
def test_h29_keys_equal_hand_keys_for_several_players_at_once(data: st.DataObject) -> None:
    deck = data.draw(st.permutations(range(78)))
    players = data.draw(st.integers(1, 4))
    rows = data.draw(st.integers(1, 30))
    parts = []
    expected = []
    pos = 0
    rng = random.Random(data.draw(st.integers(0, 10**6)))
    for _ in range(players):
        known = list(deck[pos:pos + data.draw(st.integers(0, 4))])
        pos += len(known)
        hidden = data.draw(st.integers(1, 7 - len(known)))
        rest = [c for c in range(78) if c not in known]
        idx = [rng.sample(rest, hidden) for _ in range(rows)]
        parts.append((known, np.array(idx, dtype=np.int64)))
        expected.append(hand_keys([known + row for row in idx]))
    assert [k.tolist() for k in keys(parts)] == expected


def test_h29_flushes_and_straight_flushes_are_found_in_bulk() -> None:
    cups = [c.index for c in DECK[:14]]  # Ace to King of Cups
    rows = np.array([[cups[9], cups[10], cups[11]], [cups[0], cups[4], cups[6]],
                     [56, 57, 58]], dtype=np.int64)
    known = [cups[12], cups[13]]
    got = keys([(known, rows)])[0].tolist()
    assert got == hand_keys([known + row for row in rows.tolist()])


def test_r8_magic_keys_take_the_full_path() -> None:
    known = [13, 13, 27]  # the King of Cups twice, by magic
    rows = np.array([[41, 55], [0, 1]], dtype=np.int64)
    assert magic_keys(known, rows).tolist() == hand_keys(
        [known + row for row in rows.tolist()], magic=True)
