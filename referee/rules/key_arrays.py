"""Hand keys in bulk with numpy, for ``hand equity`` (H29): the key engine's key path, by array.

:mod:`hand_keys` keys one hand at a time from the sum of its cards' ``BITS``: the rank
pattern's table entry (the key from the minors, the slots the majors fill, whether a flush
may beat it), then the majors filled in, then a flush. A table entry is made the first time a
pattern is met, which costs about as much as a thousand look-ups; sampling a six-seat table
in its first round meets some thirty thousand patterns, so a one-shot command would spend
most of its time making entries. Here the entries of every distinct pattern of a batch are
made at once, as arrays (:func:`entries`, the same rules as ``hand_keys._shape_entry``:
checked against :func:`hand_keys.pattern_entry` on every pattern of one to seven cards in
the tests), and :func:`keys` gives the key of each hand of a batch.

Only hands of distinct cards go this way; a hand changed by magic (a card twice, R8) takes
the key engine's full path (:func:`magic_keys`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from referee.rules.hand_keys import (
    BITS,
    CAT_SHIFT,
    CODE,
    PATTERN_SHIFT,
    SHIFTS,
    WINDOWS,
    flush_key,
    hand_keys,
    pattern_entry,
)

if TYPE_CHECKING:
    from numpy.typing import NDArray

    Ints = NDArray[np.int64]
    Bools = NDArray[np.bool_]

_MASK56 = (1 << 56) - 1
#: Per deck index: what each card adds to a hand's rank pattern (3 bits a rank, majors at
#: 0), suit counts (3 bits a suit), suit ranks (14 bits a suit) and majors (bit = strength).
PATTERN = np.array([b >> PATTERN_SHIFT for b in BITS], dtype=np.int64)
SUITS = np.array([b >> 78 & 0xFFF for b in BITS], dtype=np.int64)
RANKS = np.array([b & _MASK56 for b in BITS], dtype=np.int64)
MAJORS = np.array([b >> 56 & 0x3FFFFF for b in BITS], dtype=np.int64)
_FIVE_OF_A_SUIT = 0o4444
_RANK = np.arange(1, 15, dtype=np.int64)
_WINDOWS = [(last, sum(1 << r for r in WINDOWS[last])) for last in range(14, 0, -1)]
_SHIFTS = np.array(SHIFTS, dtype=np.int64)


def entries(patterns: Ints) -> Ints:
    """The key path's table entry of each rank pattern, one row each: the key from the
    minors, the five shifts the majors fill in order (-1 for none), and 1 if a flush may
    beat it. Row ``i`` equals ``hand_keys.pattern_entry(patterns[i])``.

    The rules are ``hand_keys._shape_entry``'s (R4-R7, H1-H3): groups of a rank by size then
    rank, the Duet from the two lowest-numbered majors, kickers the highest cards left
    (minors before majors), a straight (R5) over the categories below it.
    """
    p = np.asarray(patterns, dtype=np.int64)
    counts = (p[:, None] >> (3 * _RANK)) & 7  # ranks 1-14
    majors = p & 7
    minors = counts.sum(axis=1)
    present = counts > 0
    score = np.where(present, counts * 16 + _RANK, -1)  # groups by size, then rank
    order = np.argsort(-score, axis=1, kind="stable")
    c1 = np.take_along_axis(counts, order[:, :1], 1)[:, 0]
    c2 = np.take_along_axis(counts, order[:, 1:2], 1)[:, 0]
    r1, r2 = order[:, 0] + 1, order[:, 1] + 1
    duet = majors >= 2
    conditions = [c1 == 4, (c1 == 3) & (c2 >= 2), (c1 == 3) & duet,
                  (c1 == 2) & (c2 == 2) & duet, c1 == 3, (c1 == 2) & (c2 == 2),
                  (c1 == 2) & duet, c1 == 2, duet]
    names = ["four_of_a_kind", "full_house", "full_house_duet", "three_pair",
             "three_of_a_kind", "two_pair", "two_pair_duet", "pair", "duet"]
    code = np.select(conditions, [CODE[n] for n in names], CODE["high_card"])
    # The shape of each category: defining minor groups, Duet majors, kickers.
    groups = np.select(conditions, [1, 2, 1, 2, 1, 2, 1, 1, 0], 0)
    pairs_of_majors = np.select(conditions, [0, 0, 2, 2, 0, 0, 2, 0, 2], 0)
    kickers = np.select(conditions, [1, 0, 0, 0, 2, 1, 1, 3, 3], 5)
    kick_ranks, ranks_left = _kickers(present, groups, r1, r2)
    value, is_major = _slots(groups, pairs_of_majors, kickers, kick_ranks, ranks_left,
                             majors - pairs_of_majors, r1, r2)
    # R5: a straight beats the categories below it.
    top = _straight_tops(present)
    straight = (present.sum(axis=1) >= 5) & (code < CODE["straight"]) & (top > 0)
    code = np.where(straight, CODE["straight"], code)
    value = np.where(straight[:, None], 0, value)
    value[:, 0] = np.where(straight, 22 + top, value[:, 0])
    is_major &= ~straight[:, None]
    key = (code << CAT_SHIFT) | (value << _SHIFTS).sum(axis=1)
    out = np.full((len(p), 7), -1, dtype=np.int64)
    out[:, 0] = key
    filled = np.cumsum(is_major, axis=1) - 1  # the majors' slots, in order
    for j in range(5):
        at = np.flatnonzero(is_major[:, j])
        out[at, 1 + filled[at, j]] = SHIFTS[j]
    out[:, 6] = minors >= 5
    for i in np.flatnonzero(counts.max(axis=1) >= 5).tolist():  # only with magic (R8)
        k, shifts, may_flush = pattern_entry(int(p[i]))
        out[i] = [k, *(list(shifts) + [-1] * 5)[:5], int(may_flush)]
    return out


def _kickers(present: Bools, groups: Ints, r1: Ints, r2: Ints) -> tuple[Ints, Ints]:
    """The ranks left once the defining groups are taken, high to low (five, 0 past the
    last), and how many there are, for each row."""
    left = present.copy()
    rows = np.arange(len(present))
    used_one = groups >= 1
    left[rows[used_one], r1[used_one] - 1] = False
    used_two = groups >= 2
    left[rows[used_two], r2[used_two] - 1] = False
    desc = left[:, ::-1]  # rank 14 first
    nth = np.cumsum(desc, axis=1)
    kick_ranks = np.zeros((len(present), 5), dtype=np.int64)
    for t in range(5):
        hit = desc & (nth == t + 1)
        kick_ranks[:, t] = np.where(hit.any(axis=1), 14 - hit.argmax(axis=1), 0)
    return kick_ranks, desc.sum(axis=1)


def _slots(groups: Ints, pairs_of_majors: Ints, kickers: Ints, kick_ranks: Ints,
           ranks_left: Ints, majors_left: Ints, r1: Ints, r2: Ints) -> tuple[Ints, Bools]:
    """The five slots of each key in order: the defining groups, the Duet's majors, then
    the kickers (the ranks left, high to low, then the majors left). Returns each slot's
    ``Card.strength + 1`` where a minor fills it, and whether a major does."""
    rows = len(groups)
    value = np.zeros((rows, 5), dtype=np.int64)
    is_major = np.zeros((rows, 5), dtype=bool)
    for j in range(5):
        t = j - groups - pairs_of_majors  # the kicker this slot holds, if any
        minor_kick = (t >= 0) & (t < kickers) & (t < ranks_left)
        major_kick = (t >= 0) & (t < kickers) & (t >= ranks_left) & (t - ranks_left
                                                                         < majors_left)
        kick = np.take_along_axis(kick_ranks, np.clip(t, 0, 4)[:, None], 1)[:, 0]
        rank = np.select([j < groups, minor_kick], [np.where(j == 0, r1, r2), kick], 0)
        value[:, j] = np.where(rank > 0, 22 + rank, 0)
        is_major[:, j] = ((j >= groups) & (j < groups + pairs_of_majors)) | major_kick
    return value, is_major


def _straight_tops(present: Bools) -> Ints:
    """The top rank of each row's highest straight of five ranks in a row (R5), 0 for none."""
    mask = (present * (np.int64(1) << _RANK)).sum(axis=1)
    top = np.zeros(len(present), dtype=np.int64)
    for last, window in _WINDOWS:
        top = np.where((top == 0) & ((mask & window) == window), last, top)
    return top


#: Per deck index, the three sums a key needs at once: rank pattern, majors, suit counts.
_SUMMED = np.stack([PATTERN, MAJORS, SUITS], axis=1)
#: Entries made so far (sorted patterns, their rows), so a pattern is made once per process.
_MADE: tuple[Ints, Ints] = (np.zeros(0, dtype=np.int64), np.zeros((0, 7), dtype=np.int64))


def _entries_of(patterns: Ints) -> Ints:
    """:func:`entries` of sorted distinct ``patterns``, making only those not made before."""
    global _MADE
    made, rows = _MADE
    at = np.searchsorted(made, patterns)
    known = (at < len(made)) & (made[np.minimum(at, len(made) - 1)] == patterns) if len(
        made) else np.zeros(len(patterns), dtype=bool)
    if not known.all():
        fresh = patterns[~known]
        made = np.concatenate([made, fresh])
        rows = np.concatenate([rows, entries(fresh)])
        order = np.argsort(made, kind="stable")
        made, rows = made[order], rows[order]
        _MADE = made, rows
        at = np.searchsorted(made, patterns)
    return rows[at]


def keys(parts: Sequence[tuple[Sequence[int], Ints]]) -> list[Ints]:
    """The hand key of each row, for several players at once.

    ``parts`` holds, per player, their known cards (deck indices, distinct) and a matrix of
    their other cards (a row per deal, deck indices, none of them known). Equal to
    ``hand_keys`` on each row with the known cards added.
    """
    sizes = [len(idx) for _, idx in parts]
    sums = np.concatenate([_SUMMED[idx].sum(axis=1) + _SUMMED[list(known)].sum(axis=0)
                           for known, idx in parts])
    pattern, majors, suits = sums[:, 0], sums[:, 1].copy(), sums[:, 2]
    distinct, where = np.unique(pattern, return_inverse=True)
    entry = _entries_of(distinct)[where.reshape(-1)]
    key = entry[:, 0].copy()
    for slot in range(1, 6):  # the majors fill their slots lowest-numbered first
        shift = entry[:, slot]
        active = shift >= 0
        if not active.any():
            break
        value = np.frexp(majors.astype(np.float64))[1].astype(np.int64)  # bit_length
        key |= np.where(active, value << np.maximum(shift, 0), 0)
        majors = np.where(active, majors ^ (np.int64(1) << np.maximum(value - 1, 0)), majors)
    flushy = (entry[:, 6] == 1) & ((suits & ((suits << 1) | (suits << 2))
                                    & _FIVE_OF_A_SUIT) != 0)
    bounds = np.cumsum([0, *sizes])
    if flushy.any():
        rows = np.flatnonzero(flushy)
        for i, (known, idx) in enumerate(parts):
            mine = rows[(rows >= bounds[i]) & (rows < bounds[i + 1])]
            if len(mine):
                ranks = RANKS[idx[mine - bounds[i]]].sum(axis=1) + int(RANKS[list(known)].sum())
                _flushes(key, mine, ranks, suits[mine])
    return [key[bounds[i]:bounds[i + 1]] for i in range(len(parts))]


def _flushes(key: Ints, rows: Ints, ranks: Ints, suits: Ints) -> None:
    """Five cards or more of a suit: the flush (or straight flush) key where it is higher."""
    for row, mask, held in zip(rows.tolist(), ranks.tolist(), suits.tolist(), strict=True):
        suit = next(s for s in range(4) if held >> 3 * s & 7 >= 5)
        found = flush_key(mask >> 14 * suit & 0x3FFF)
        if found > key[row]:
            key[row] = found


def magic_keys(known: Sequence[int], idx: Ints) -> Ints:
    """Keys of a hand changed by magic (a card may be there twice): the full path (R8)."""
    hands = [[*known, *row] for row in idx.tolist()]
    return np.array(hand_keys(hands, magic=True), dtype=np.int64)
