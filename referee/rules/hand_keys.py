"""The hand key engine (R4-R8): one integer per hand that orders hands as the rules rank them.

Two ways in:

- :func:`hand_key` for a sequence of :class:`Card`, and :func:`hand_keys`, the bulk API,
  for many hands given as deck indices (``Card.index``, 0-77), both key only: no card
  tuples are built. :func:`category_of` names a key's category.
- :func:`evaluate`, the full path, also says which cards make the hand (``Hand.cards``).

>>> from referee.rules.cards import parse_cards
>>> category_of(hand_key(parse_cards("KnC KnW 3S 3P 0 XXI 9C")))
'three_pair'
>>> [category_of(k) for k in hand_keys([(0, 14, 28), (56, 77)])]
['three_of_a_kind', 'duet']

How the key is built (house rulings H1-H6 in ``docs/rules.md``): bits 30 and up hold the
category (15 = seven of a kind ... 0 = high card); below them five 6-bit slots, most
significant first, hold what decides inside the category, each as ``Card.strength + 1``
(0 means "no card", which loses to any card). The defining part comes first (the rank of
trips, then of the pair, the two Duet cards lowest-numbered first, the last card of a
straight), then kickers.

The key path adds up one integer per card, which says at once which cards the hand holds
(one bit per card, so a repeat shows), how many of each suit, and the rank pattern (how
many of each minor rank, and how many majors). The pattern looks up a table entry (made
on first sight of that pattern, never at import) holding the key from the minors and the
key slots the majors fill; a suit of five or more looks up its flush. Hands with a
repeated card (only with magic, R8) take the full path.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from operator import itemgetter

from referee.errors import BadInput
from referee.rules.cards import DECK, Card

#: The R4 categories, high to low, by their JSON names.
#: Inside the Duet categories the minor pair is compared before the Duet, like the higher pair
#: of a two pair (H2); the keys below are built in that order.
CATEGORIES: tuple[str, ...] = (
    "seven_of_a_kind", "six_of_a_kind", "five_of_a_kind", "straight_flush",
    "four_of_a_kind", "full_house", "full_house_duet", "three_pair", "flush", "straight",
    "three_of_a_kind", "two_pair", "two_pair_duet", "pair", "duet", "high_card",
)

NCAT = len(CATEGORIES)
CODE = {name: NCAT - 1 - i for i, name in enumerate(CATEGORIES)}
CAT_SHIFT = 30
SHIFTS = (24, 18, 12, 6, 0)
MAX_CARDS = 7


def category_of(key: int) -> str:
    """The R4 JSON name of a hand key's category."""
    return CATEGORIES[NCAT - 1 - (key >> CAT_SHIFT)]


# ---------------------------------------------------------------- per-card tables
# Card codes, 0-143, sort a hand for the full path: strength * 4, plus 3 - suit for minors,
# so codes high to low put a hand strongest first, same ranks in suit order C W S P, majors
# lowest-numbered first.


def _code(card: Card) -> int:
    return card.strength * 4 + (0 if card.suit is None else 3 - card.index // 14)


NCODES = 36 * 4
CODE_OF_ID: dict[int, int] = {id(card): _code(card) for card in DECK}
CARD_AT: list[Card] = [DECK[0]] * NCODES
SIG = [0] * NCODES  # minor rank 1-14; 0 for majors
SUIT = [-1] * NCODES
VAL = [code // 4 + 1 for code in range(NCODES)]  # Card.strength + 1

# The one integer per card that the key path adds up. Bits 0-77 say which card: a minor at
# 14 * suit + rank - 1 (its deck index), a major at 56 + its strength, so the highest major
# bit is the lowest-numbered major. Then 3 bits per suit (cards of each suit, for flushes),
# then 3 bits per minor rank 1-14 and 3 for the majors at 0: the rank pattern. (Counts stay
# below 8 in a hand of at most seven cards.)
_MAJOR_SHIFT = 56
_SUITS_SHIFT = 78
PATTERN_SHIFT = _SUITS_SHIFT + 12
CARDS_MASK = (1 << 78) - 1
_MAJORS_MASK = (1 << 22) - 1
_SUITS_MASK = (1 << 12) - 1
_FIVE_OF_A_SUIT = 0o4444  # with 3-bit counts: some suit has 5 or more


def _card_bits(card: Card) -> int:
    if card.suit is None:
        return 1 << (_MAJOR_SHIFT + card.strength) | 1 << PATTERN_SHIFT
    suit = card.index // 14
    return 1 << card.index | 1 << (_SUITS_SHIFT + 3 * suit) | 1 << (PATTERN_SHIFT + 3 * card.rank)


#: ``BITS[Card.index]``: the integer each card adds to a hand's sum.
BITS: list[int] = [_card_bits(card) for card in DECK]
BITS_OF_ID: dict[int, int] = {id(card): BITS[card.index] for card in DECK}
for _card in DECK:
    _c = _code(_card)
    CARD_AT[_c] = _card
    if _card.suit is not None:
        SIG[_c] = _card.rank
        SUIT[_c] = _card.index // 14
del _card, _c


# ---------------------------------------------------------------- table entries

Pick = Callable[[list[int]], tuple[int, ...]]
# Rank pattern -> (key from its minors, ((position, shift), ...) for majors, picker of the
# positions in the sorted hand that make it, whether a flush is possible). Full path.
_PLAIN: dict[int, tuple[int, tuple[tuple[int, int], ...], Pick, bool]] = {}
# Rank pattern -> (key from its minors, shifts the majors fill in order, flush possible?).
_FAST: dict[int, tuple[int, tuple[int, ...], bool]] = {}
# Run lengths of equal ranks -> (category code, positions used, slot positions, straight?).
_SHAPES: dict[tuple[int, ...], tuple[int, tuple[int, ...], tuple[int, ...], bool]] = {}
_PICKERS: dict[tuple[int, ...], Pick] = {}
_STRAIGHT_TOP: dict[int, int] = {}  # rank bitmask -> last rank of its best straight, or 0
_FLUSH_KEY: dict[int, int] = {}  # mask of one suit's ranks (bit rank - 1) -> its flush key

#: R5 straights by their last card: the five ranks around the circle A 2 ... 10 P Kn Q K A,
#: 14 (10 P Kn Q K, the highest) down to 1 (P Kn Q K A, the lowest); K A 2 3 4 is 4.
WINDOWS = {last: tuple((last - 5 + t) % 14 + 1 for t in range(5)) for last in range(1, 15)}
_WINDOW_MASKS = [(last, sum(1 << r for r in WINDOWS[last])) for last in range(14, 0, -1)]


def straight_top(mask: int) -> int:
    """The last rank of the best straight in a mask of ranks (bit r for rank r), or 0."""
    top = _STRAIGHT_TOP.get(mask)
    if top is None:
        top = _STRAIGHT_TOP[mask] = next(
            (last for last, window in _WINDOW_MASKS if mask & window == window), 0
        )
    return top


def _picker(positions: tuple[int, ...]) -> Pick:
    pick = _PICKERS.get(positions)
    if pick is None:
        if len(positions) == 1:
            only = positions[0]
            pick = _PICKERS[positions] = lambda codes: (codes[only],)
        else:
            pick = _PICKERS[positions] = itemgetter(*positions)
    return pick


def _best_straight(ranks: Sequence[int]) -> tuple[int, ...] | None:
    """Positions in ``ranks`` of its best straight (R5), in circle order ending with its top."""
    mask = 0
    for rank in ranks:
        mask |= 1 << rank
    top = straight_top(mask & ~1)  # bit 0 is the majors' 0
    if not top:
        return None
    return tuple(ranks.index(rank) for rank in WINDOWS[top])


def _plain_entry(sig: tuple[int, ...]) -> tuple[int, tuple[tuple[int, int], ...], Pick, bool]:
    """The table entry for a sorted rank pattern: the best hand that is no flush."""
    n = len(sig)
    k = n - sig.count(0)
    runs: list[int] = []
    prev = -1
    for rank in sig[:k]:
        if rank == prev:
            runs[-1] += 1
        else:
            runs.append(1)
            prev = rank
    shape = (n, k, *runs)
    found = _SHAPES.get(shape)
    if found is None:
        found = _SHAPES[shape] = _shape_entry(n, k, runs)
    code, used, slots, may_straight = found
    if may_straight:
        straight = _best_straight(sig[:k])
        if straight is not None:
            code, used, slots = CODE["straight"], straight, straight[-1:]
    key = code << CAT_SHIFT
    major_slots = []
    for pos, shift in zip(slots, SHIFTS, strict=False):
        if pos < k:
            key |= (22 + sig[pos]) << shift  # == Card.strength + 1 of a minor of that rank
        else:
            major_slots.append((pos, shift))
    return key, tuple(major_slots), _picker(used), k >= 5


def _shape_entry(
    n: int, k: int, runs: list[int]
) -> tuple[int, tuple[int, ...], tuple[int, ...], bool]:
    """Category, positions used and key slots for n sorted cards, k of them minors in runs.

    Positions 0..k-1 are the minors high to low, k..n-1 the majors lowest-numbered first.
    """
    groups: list[list[int]] = []  # positions of each minor rank, high to low
    start = 0
    for size in runs:
        groups.append(list(range(start, start + size)))
        start += size
    groups.sort(key=len, reverse=True)  # stable: equal sizes stay high to low
    duet = [k, k + 1] if n - k >= 2 else []  # R6: the two lowest-numbered majors
    cat, used, slots, kickers = _category(groups, duet)
    if kickers:  # R7: the highest remaining cards, majors below minors (R3)
        rest = [pos for pos in range(n) if pos not in used][:kickers]
        used = used + rest
        slots = slots + rest
    may_straight = len(runs) >= 5 and CODE[cat] < CODE["straight"]
    return CODE[cat], tuple(used), tuple(slots), may_straight


def _category(groups: list[list[int]], duet: list[int],
              ) -> tuple[str, list[int], list[int], int]:
    """The hand's category from its minor ranks' ``groups`` (largest first) and the ``duet``
    of majors, if any: the category, the positions it uses, its key slots and how many
    kickers it takes (R6, R7)."""
    c1 = len(groups[0]) if groups else 0
    c2 = len(groups[1]) if len(groups) > 1 else 0
    g0 = groups[0] if groups else []
    kickers = 0
    if c1 >= 5:  # only with magic (R8)
        cat = {5: "five_of_a_kind", 6: "six_of_a_kind"}.get(c1, "seven_of_a_kind")
        used, slots = g0, g0[:1]
    elif c1 == 4:
        cat, used, slots, kickers = "four_of_a_kind", g0, g0[:1], 1
    elif c1 == 3 and c2 >= 2:
        cat, used, slots = "full_house", g0 + groups[1][:2], [g0[0], groups[1][0]]
    elif c1 == 3 and duet:
        cat, used, slots = "full_house_duet", g0 + duet, [g0[0], *duet]
    elif c1 == 2 and c2 == 2 and duet:
        cat, used = "three_pair", g0 + groups[1] + duet
        slots = [g0[0], groups[1][0], *duet]
    elif c1 == 3:
        cat, used, slots, kickers = "three_of_a_kind", g0, g0[:1], 2
    elif c1 == 2 and c2 == 2:
        cat, used, slots, kickers = "two_pair", g0 + groups[1], [g0[0], groups[1][0]], 1
    elif c1 == 2 and duet:
        cat, used, slots, kickers = "two_pair_duet", g0 + duet, [g0[0], *duet], 1
    elif c1 == 2:
        cat, used, slots, kickers = "pair", g0, g0[:1], 3
    elif duet:
        cat, used, slots, kickers = "duet", duet, list(duet), 3
    else:
        cat, used, slots, kickers = "high_card", [], [], 5
    return cat, used, slots, kickers


def _fast_entry(pattern: int) -> tuple[int, tuple[int, ...], bool]:
    """The key path's entry for a rank pattern (3 bits per rank, majors at 0).

    Built often while the table is young, so it works from cached halves of the pattern
    (ranks 8-14 and 1-7; groups of equal rank never straddle them) and cached shapes.
    """
    high = _half(_HIGH, pattern >> 24, 8)
    low = _half(_LOW, pattern >> 3 & 0x1FFFFF, 1)
    sig = high[0] + low[0]
    k = len(sig)
    shape = (k, pattern & 7, *high[1], *low[1])
    found = _FAST_SHAPES.get(shape)
    if found is None:
        found = _FAST_SHAPES[shape] = _fast_shape(k, pattern & 7, [*high[1], *low[1]])
    code, minor_slots, major_shifts, may_straight = found
    if may_straight:
        top = straight_top(high[2] | low[2])
        if top:
            code, minor_slots, major_shifts = _STRAIGHT, ((sig.index(top), 24),), ()
    key = code << CAT_SHIFT
    for pos, shift in minor_slots:
        key |= (22 + sig[pos]) << shift  # == Card.strength + 1 of a minor of that rank
    entry = _FAST[pattern] = (key, major_shifts, k >= 5)
    return entry


_STRAIGHT = CODE["straight"]
_Half = tuple[tuple[int, ...], tuple[int, ...], int]
_HIGH: dict[int, _Half] = {}  # ranks 8-14
_LOW: dict[int, _Half] = {}  # ranks 1-7
_FAST_SHAPES: dict[
    tuple[int, ...], tuple[int, tuple[tuple[int, int], ...], tuple[int, ...], bool]
] = {}


def _half(table: dict[int, _Half], fields: int, base: int) -> _Half:
    """Ranks high to low (with repeats), run lengths and rank mask (bit r for rank r) of
    seven 3-bit counts, for ranks ``base`` to ``base + 6``."""
    found = table.get(fields)
    if found is None:
        sig: list[int] = []
        runs = []
        mask = 0
        for field in range(6, -1, -1):
            count = fields >> 3 * field & 7
            if count:
                rank = base + field
                sig += [rank] * count
                runs.append(count)
                mask |= 1 << rank
        found = table[fields] = (tuple(sig), tuple(runs), mask)
    return found


def _fast_shape(
    k: int, majors: int, runs: list[int]
) -> tuple[int, tuple[tuple[int, int], ...], tuple[int, ...], bool]:
    """Category code, (position, shift) of the minor slots, shifts of the major slots in
    order, and whether a straight may beat it, for k minors in runs and some majors."""
    code, _used, slots, may_straight = _shape_entry(k + majors, k, runs)
    minor_slots = tuple((pos, shift) for pos, shift in zip(slots, SHIFTS, strict=False)
                        if pos < k)
    major = [(pos, shift) for pos, shift in zip(slots, SHIFTS, strict=False) if pos >= k]
    # Majors fill their slots lowest-numbered first: positions k, k+1, ... in order.
    assert [pos for pos, _ in major] == list(range(k, k + len(major)))
    return code, minor_slots, tuple(shift for _, shift in major), may_straight


def pattern_key(pattern: int) -> int:
    """The key, from the minors alone, of a rank pattern's best hand with no flush.

    ``pattern`` holds 3-bit counts: the majors at bits 0-2, minor rank r at 3r to 3r + 2.
    """
    entry = _fast_get(pattern)
    return (entry if entry is not None else _fast_entry(pattern))[0]


def pattern_entry(pattern: int) -> tuple[int, tuple[int, ...], bool]:
    """The key path's table entry for a rank pattern, for callers that fill keys in bulk
    (``referee.rules.equity``): the key from the minors, the shifts the majors fill in order
    (lowest-numbered first, as :func:`key_of_sum` fills them), and whether a flush may beat it.
    """
    entry = _fast_get(pattern)
    return entry if entry is not None else _fast_entry(pattern)


def flush_key(ranks: int) -> int:
    """The flush or straight flush key of one suit's ranks (bit rank - 1), five or more."""
    return _flush_key(ranks)


def _flush_key(ranks: int) -> int:
    """The flush or straight flush key of one suit's ranks (bit rank - 1), five or more."""
    key = _FLUSH_KEY.get(ranks)
    if key is None:
        top = straight_top(ranks << 1)
        if top:
            key = CODE["straight_flush"] << CAT_SHIFT | (22 + top) << 24
        else:
            key = CODE["flush"] << CAT_SHIFT
            high = [rank for rank in range(14, 0, -1) if ranks >> (rank - 1) & 1][:5]
            for rank, shift in zip(high, SHIFTS, strict=False):
                key |= (22 + rank) << shift
        _FLUSH_KEY[ranks] = key
    return key


# ---------------------------------------------------------------- the key path


def key_of_sum(bits: int) -> int:
    """The key of a hand of distinct cards from the sum of their ``BITS``."""
    pattern = bits >> PATTERN_SHIFT
    entry = _fast_get(pattern)
    if entry is None:
        entry = _fast_entry(pattern)
    key, major_shifts, may_flush = entry
    if major_shifts:
        majors = bits >> _MAJOR_SHIFT & _MAJORS_MASK
        for shift in major_shifts:
            value = majors.bit_length()  # the lowest-numbered major left: its strength + 1
            key |= value << shift
            majors ^= 1 << (value - 1)
    if may_flush:
        suits = bits >> _SUITS_SHIFT & _SUITS_MASK
        if suits & ((suits << 1) | (suits << 2)) & _FIVE_OF_A_SUIT:  # a count of 5, 6 or 7
            suit = 0
            while suits >> (3 * suit) & 7 < 5:
                suit += 1
            flush = _flush_key(bits >> (14 * suit) & 0x3FFF)
            if flush > key:
                key = flush
    return key


_fast_get = _FAST.get
_bits_of_id = BITS_OF_ID.__getitem__


def hand_key(cards: Sequence[Card], *, magic: bool = False) -> int:
    """The key of the best hand formable from 1-7 cards (R4-R8), no card tuples built.

    Raises:
        BadInput: no cards, more than seven, or (without ``magic``) a card twice.
    """
    n = len(cards)
    if not 0 < n <= 7:  # MAX_CARDS
        raise count_error(cards)
    try:
        bits = sum(map(_bits_of_id, map(id, cards)))
    except KeyError:  # a Card made outside the deck: equal to a deck card all the same
        bits = sum(BITS[_card_or_error(card).index] for card in cards)
    if (bits & CARDS_MASK).bit_count() != n:  # a card twice: the sum carried
        if not magic:
            raise _duplicate_error(cards)
        return evaluate(cards, magic=True)[0]
    return key_of_sum(bits)


def hand_keys(hands: Iterable[Sequence[int]], *, magic: bool = False) -> list[int]:
    """The bulk API: the key of each hand, a hand being 1-7 deck indices (``Card.index``).

    >>> from referee.rules.cards import parse_card
    >>> hand = [parse_card(c).index for c in ("KC", "KW", "0", "XXI")]
    >>> category_of(hand_keys([hand])[0])
    'two_pair_duet'

    Raises:
        BadInput: a hand of no cards or more than seven, an index outside 0-77, or
            (without ``magic``) a card twice in a hand.
    """
    return list(iter_keys(hands, magic=magic))


def iter_keys(hands: Iterable[Sequence[int]], *, magic: bool = False) -> Iterator[int]:
    """:func:`hand_keys`, one key at a time (constant memory over a long stream)."""
    mask = CARDS_MASK
    key_of = key_of_sum
    bits_at = _BITS_AT.__getitem__
    for hand in hands:
        n = len(hand)
        try:
            bits = sum(map(bits_at, hand))
        except (KeyError, TypeError):
            raise BadInput(f"not a hand of deck indices 0-77: {list(hand)!r}") from None
        if 0 < n <= 7 and (bits & mask).bit_count() == n:  # MAX_CARDS
            yield key_of(bits)
        else:  # the wrong count, or a card twice: refused, or under magic the full path
            yield hand_key([DECK[i] for i in hand], magic=magic)


_BITS_AT = dict(enumerate(BITS))


# ---------------------------------------------------------------- the full path


def evaluate(cards: Sequence[Card], *, magic: bool = False) -> tuple[int, tuple[Card, ...]]:
    """The key and the cards that make the best hand, defining cards first (R7, H4).

    Raises:
        BadInput: no cards, more than seven, or (without ``magic``) a card twice.
    """
    n = len(cards)
    if not 0 < n <= 7:  # MAX_CARDS
        raise count_error(cards)
    try:
        codes = sorted(map(_code_of_id, map(id, cards)), reverse=True)
    except KeyError:  # a Card made outside the deck: equal to a deck card all the same
        codes = sorted((_code(_card_or_error(card)) for card in cards), reverse=True)
    if not magic and len(set(codes)) != n:
        raise _duplicate_error(cards)
    counts = [0] * 15
    suits = [0] * 4
    for code in codes:
        counts[SIG[code]] += 1
        if SUIT[code] >= 0:
            suits[SUIT[code]] += 1
    pattern = sum(count << 3 * rank for rank, count in enumerate(counts))
    entry = _PLAIN.get(pattern)
    if entry is None:
        entry = _PLAIN[pattern] = _plain_entry(tuple(map(SIG.__getitem__, codes)))
    key, major_slots, pick, may_flush = entry
    for pos, shift in major_slots:
        key |= VAL[codes[pos]] << shift
    picked = pick(codes)
    if may_flush and max(suits) >= 5:
        key, picked = _flush(codes, suits.index(max(suits)), key, picked)
    return key, tuple(map(CARD_AT.__getitem__, picked))


_code_of_id = CODE_OF_ID.__getitem__


def _flush(
    codes: list[int], suit: int, key: int, picked: tuple[int, ...]
) -> tuple[int, tuple[int, ...]]:
    """The better of the plain hand and the flush or straight flush in the five-card suit."""
    suited = [code for code in codes if SUIT[code] == suit]
    ranks = [SIG[code] for code in suited]
    straight = _best_straight(ranks)
    if straight is not None:
        flush_key = CODE["straight_flush"] << CAT_SHIFT | (22 + ranks[straight[-1]]) << 24
        chosen = [suited[pos] for pos in straight]
    else:  # H9: under magic a repeated card counts again
        flush_key = CODE["flush"] << CAT_SHIFT
        for code, shift in zip(suited, SHIFTS, strict=False):
            flush_key |= VAL[code] << shift
        chosen = suited[:5]
    if flush_key > key:
        return flush_key, tuple(chosen)
    return key, picked  # only with magic can a flush lose to a plain hand of the same cards


# ---------------------------------------------------------------- errors


def _card_or_error(card: object) -> Card:
    if not isinstance(card, Card):
        raise BadInput(f"not a card: {card!r}")
    return card


def count_error(cards: Sequence[Card]) -> BadInput:
    """The R7 error for a hand of no cards or more than seven."""
    if not cards:
        return BadInput("empty hand: give 1 to 7 cards (R7)", ruling="R7")
    shown = " ".join(str(card) for card in cards)
    return BadInput(
        f"{len(cards)} cards ({shown}): a hand has at most seven cards (R7)", ruling="R7"
    )


def _duplicate_error(cards: Iterable[Card]) -> BadInput:
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            return duplicate_card(card)
        seen.add(card)
    raise AssertionError("no duplicate")  # pragma: no cover


def duplicate_card(card: Card, where: str = "") -> BadInput:
    """The R8 error for a card given twice (``where`` says where, e.g. ``in hands a and b``)."""
    place = f" {where}" if where else ""
    return BadInput(
        f"{card.short} ({card.name}) appears twice{place}: a deck holds each card once; "
        "add --magic if a power changed the cards (R8)",
        ruling="R8",
    )
