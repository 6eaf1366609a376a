"""Fool's Errand hands (R4-R9): the sixteen categories, the best hand, showing hands.

A ``Hand`` carries one integer key that orders hands exactly as the rules rank
them, so comparing, sorting and splitting are integer operations.

>>> from referee.rules.cards import parse_cards
>>> best_hand(parse_cards("KnC KnW 3S 3P 0 XXI 9C")).category
'three_pair'
>>> best_hand(parse_cards("KC AW 2S 3P 4C")) > best_hand(parse_cards("PC KnW QS KP AC"))
True

How the key is built (house rulings H1-H6 in ``docs/rules.md``): bits 30 and up
hold the category (15 = seven of a kind ... 0 = high card); below them five
6-bit slots, most significant first, hold what decides inside the category,
each as ``Card.strength + 1`` (so 0 means "no card", which loses to any card).
The defining part comes first (the rank of trips, then of the pair, the two
Duet cards lowest-numbered first, the last card of a straight), then kickers.

Speed: every card is mapped to its deck index, the indices are sorted by
strength once, and the rank pattern of the sorted hand looks up a table entry
(built on first sight of that pattern, never at import) that says the
category, which positions make the hand, and which slots majors fill.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from operator import itemgetter
from typing import Any

from referee.errors import BadInput
from referee.rules.cards import DECK, Card

#: The R4 categories, high to low, by their JSON names.
CATEGORIES: tuple[str, ...] = (
    "seven_of_a_kind", "six_of_a_kind", "five_of_a_kind", "straight_flush",
    "four_of_a_kind", "full_house", "full_house_duet", "three_pair", "flush", "straight",
    "three_of_a_kind", "two_pair", "two_pair_duet", "pair", "duet", "high_card",
)

#: Words for each category, as the GM says them.
CATEGORY_TITLES: dict[str, str] = {
    "seven_of_a_kind": "Seven of a kind",
    "six_of_a_kind": "Six of a kind",
    "five_of_a_kind": "Five of a kind",
    "straight_flush": "Straight flush",
    "four_of_a_kind": "Four of a kind",
    "full_house": "Full house",
    "full_house_duet": "Full house with a Duet",
    "three_pair": "Three pair",
    "flush": "Flush",
    "straight": "Straight",
    "three_of_a_kind": "Three of a kind",
    "two_pair": "Two pair",
    "two_pair_duet": "Two pair with a Duet",
    "pair": "Pair",
    "duet": "Duet",
    "high_card": "High card",
}

#: One example hand per category (canonical short notation; the kinds need --magic).
CATEGORY_EXAMPLES: dict[str, str] = {
    "seven_of_a_kind": "KC KC KW KW KS KP KP",
    "six_of_a_kind": "9C 9W 9W 9S 9P 9P",
    "five_of_a_kind": "5C 5W 5S 5P 5P",
    "straight_flush": "10C PC KnC QC KC",
    "four_of_a_kind": "QC QW QS QP 2C",
    "full_house": "8C 8W 8S 3C 3P",
    "full_house_duet": "8C 8W 8S 0 XVI",
    "three_pair": "KnC KnW 3S 3P 0 XXI",
    "flush": "KW 9W 7W 4W AW",
    "straight": "KC AW 2S 3P 4C",
    "three_of_a_kind": "7C 7W 7S KP 2C",
    "two_pair": "KC KW 10S 10P 5C",
    "two_pair_duet": "PC PW I XIV 9S",
    "pair": "AC AW KS 9P 4C",
    "duet": "0 XXI KC 9S 4P",
    "high_card": "KC QS 9W 5P 2C",
}

_NCAT = len(CATEGORIES)
_CODE = {name: _NCAT - 1 - i for i, name in enumerate(CATEGORIES)}
_CAT_SHIFT = 30
_SHIFTS = (24, 18, 12, 6, 0)
MAX_CARDS = 7

# ---------------------------------------------------------------- per-card tables
# Every card has a code, 0-143, that sorts it: strength * 4, plus 3 - suit for minors, so
# sorting codes high to low sorts a hand strongest first, same ranks in suit order C W S P,
# majors lowest-numbered first. Tables indexed by code are small and built at import.


def _code(card: Card) -> int:
    return card.strength * 4 + (0 if card.suit is None else 3 - card.index // 14)


_NCODES = 36 * 4
_CODE_OF_ID: dict[int, int] = {id(card): _code(card) for card in DECK}
_CARD_AT: list[Card] = [DECK[0]] * _NCODES
_SIG = [0] * _NCODES  # minor rank 1-14; 0 for majors
_SUIT = [-1] * _NCODES
# _BITS[code] is added up over a hand, so one sum says three things. Bits 0-143: one bit per
# code (n bits set only if no card repeats, R8). Then 3 bits per suit (cards of each suit,
# for flushes). Then 3 bits per minor rank and 3 for the majors: the rank pattern of the hand,
# the key of its table entry. (Counts stay below 8 in a hand of at most seven cards.)
_SUIT_SHIFT = _NCODES + 6
_PATTERN_SHIFT = _SUIT_SHIFT + 12
_BITS = [1 << code | 1 << _PATTERN_SHIFT for code in range(_NCODES)]  # majors: rank 0
for _card in DECK:
    _c = _code(_card)
    _CARD_AT[_c] = _card
    if _card.suit is not None:
        _SIG[_c] = _card.rank
        _SUIT[_c] = _card.index // 14
        _BITS[_c] = (
            1 << _c | 1 << (_SUIT_SHIFT + 3 * _SUIT[_c]) | 1 << (_PATTERN_SHIFT + 3 * _card.rank)
        )
del _card, _c
_VAL = [code // 4 + 1 for code in range(_NCODES)]  # Card.strength + 1
_CODE_MASK = (1 << _SUIT_SHIFT) - 1
_SUIT_MASK = (1 << 12) - 1
_FIVE_OF_A_SUIT = 0o4444  # with 3-bit counts: some suit has 5 or more (see best_hand)


class Hand:
    """A ranked hand: ``.category`` (R4 JSON name) and ``.cards`` (defining cards, then kickers).

    Totally ordered by strength with ``<``, ``>``, ``==``; equal hands split the pot (R7).
    Made by :func:`best_hand`; immutable and hashable.
    """

    __slots__ = ("_key", "cards")
    _key: int
    cards: tuple[Card, ...]

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Hand is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Hand is immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        return (_make, (self._key, self.cards))

    @property
    def key(self) -> int:
        """An integer that orders hands exactly as the rules rank them."""
        return self._key

    @property
    def category(self) -> str:
        """The R4 JSON name, e.g. ``full_house_duet``."""
        return CATEGORIES[_NCAT - 1 - (self._key >> _CAT_SHIFT)]

    @property
    def title(self) -> str:
        """The hand in words, e.g. ``Full house, Kings over Fives``."""
        return _title(self)

    @property
    def duet(self) -> tuple[Card, Card] | None:
        """The two majors that make the hand's Duet (R6), or None."""
        start = _DUET_AT.get(self.category)
        if start is None:
            return None
        return (self.cards[start], self.cards[start + 1])

    def as_dict(self) -> dict[str, Any]:
        """``{"category": ..., "cards": [short, ...]}``, the JSON form."""
        return {"category": self.category, "cards": [card.short for card in self.cards]}

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Hand):
            return self._key == other._key
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._key)

    def __lt__(self, other: Hand) -> bool:
        if not isinstance(other, Hand):
            return NotImplemented
        return self._key < other._key

    def __le__(self, other: Hand) -> bool:
        if not isinstance(other, Hand):
            return NotImplemented
        return self._key <= other._key

    def __gt__(self, other: Hand) -> bool:
        if not isinstance(other, Hand):
            return NotImplemented
        return self._key > other._key

    def __ge__(self, other: Hand) -> bool:
        if not isinstance(other, Hand):
            return NotImplemented
        return self._key >= other._key

    def __repr__(self) -> str:
        return f"Hand({self.category}: {' '.join(card.short for card in self.cards)})"


_new_hand = object.__new__
_set_key: Any = Hand.__dict__["_key"].__set__
_set_cards: Any = Hand.__dict__["cards"].__set__


def _make(key: int, cards: tuple[Card, ...]) -> Hand:
    hand = _new_hand(Hand)
    _set_key(hand, key)
    _set_cards(hand, cards)
    return hand


# ---------------------------------------------------------------- evaluation

_Pick = Callable[[list[int]], tuple[int, ...]]
# Rank pattern of a hand -> (key from its minors, ((position, shift), ...) for majors, picker
# of the positions in the sorted hand that make it, whether a flush is possible). On demand.
_PLAIN: dict[int, tuple[int, tuple[tuple[int, int], ...], _Pick, bool]] = {}
# Run lengths of equal ranks -> (category code, positions used, slot positions, straight?).
_SHAPES: dict[tuple[int, ...], tuple[int, tuple[int, ...], tuple[int, ...], bool]] = {}
_PICKERS: dict[tuple[int, ...], _Pick] = {}
_STRAIGHT_TOP: dict[int, int] = {}  # rank bitmask -> last rank of its best straight, or 0


def best_hand(cards: Sequence[Card], *, magic: bool = False) -> Hand:
    """The best hand formable from 1-7 cards (R4-R8); also a showing hand's rank (R9).

    Args:
        cards: the hand's cards, any order.
        magic: the hand was changed by magic, so duplicate cards are allowed (R8).

    Raises:
        BadInput: no cards, more than seven, or (without ``magic``) a card twice.
    """
    n = len(cards)
    if not 0 < n <= 7:  # MAX_CARDS
        raise _count_error(cards)
    try:
        codes = sorted(map(_code_of_id, map(id, cards)), reverse=True)
    except KeyError:  # a Card made outside the deck: equal to a deck card all the same
        codes = sorted((_code(_card_or_error(card)) for card in cards), reverse=True)
    bits = sum(map(_bits_of, codes))
    if not magic and (bits & _CODE_MASK).bit_count() != n:
        raise _duplicate_error(codes)
    pattern = bits >> _PATTERN_SHIFT
    entry = _plain_get(pattern)
    if entry is None:
        entry = _PLAIN[pattern] = _plain_entry(tuple(map(_SIG.__getitem__, codes)))
    key, major_slots, pick, may_flush = entry
    for pos, shift in major_slots:
        key |= _VAL[codes[pos]] << shift
    picked = pick(codes)
    if may_flush:
        suits = bits >> _SUIT_SHIFT & _SUIT_MASK
        if suits & ((suits << 1) | (suits << 2)) & _FIVE_OF_A_SUIT:  # a count of 5, 6 or 7
            key, picked = _flush(codes, suits, key, picked)
    hand = _new_hand(Hand)
    _set_key(hand, key)
    _set_cards(hand, tuple(map(_card_at, picked)))
    return hand


# Bound once: the hot path above runs a few hundred thousand times a second.
_code_of_id = _CODE_OF_ID.__getitem__
_bits_of = _BITS.__getitem__
_plain_get = _PLAIN.get
_card_at = _CARD_AT.__getitem__


def _card_or_error(card: object) -> Card:
    if not isinstance(card, Card):
        raise BadInput(f"not a card: {card!r}")
    return card


def _count_error(cards: Sequence[Card]) -> BadInput:
    if not cards:
        return BadInput("empty hand: give 1 to 7 cards (R7)", ruling="R7")
    shown = " ".join(str(card) for card in cards)
    return BadInput(
        f"{len(cards)} cards ({shown}): a hand has at most seven cards (R7)", ruling="R7"
    )


def _duplicate_error(codes: Iterable[int]) -> BadInput:
    seen: set[int] = set()
    for code in codes:
        if code in seen:
            return duplicate_card(_CARD_AT[code])
        seen.add(code)
    raise AssertionError("no duplicate")  # pragma: no cover


def duplicate_card(card: Card, where: str = "") -> BadInput:
    """The R8 error for a card given twice (``where`` says where, e.g. ``in hands a and b``)."""
    place = f" {where}" if where else ""
    return BadInput(
        f"{card.short} ({card.name}) appears twice{place}: a deck holds each card once; "
        "add --magic if a power changed the cards (R8)",
        ruling="R8",
    )


def _picker(positions: tuple[int, ...]) -> _Pick:
    pick = _PICKERS.get(positions)
    if pick is None:
        if len(positions) == 1:
            only = positions[0]
            pick = _PICKERS[positions] = lambda codes: (codes[only],)
        else:
            pick = _PICKERS[positions] = itemgetter(*positions)
    return pick


#: R5 straights by their last card: the five ranks around the circle A 2 ... 10 P Kn Q K A,
#: 14 (10 P Kn Q K, the highest) down to 1 (P Kn Q K A, the lowest); K A 2 3 4 is 4.
_WINDOWS = {last: tuple((last - 5 + t) % 14 + 1 for t in range(5)) for last in range(1, 15)}
_WINDOW_MASKS = [(last, sum(1 << r for r in _WINDOWS[last])) for last in range(14, 0, -1)]


def _straight_top(mask: int) -> int:
    top = _STRAIGHT_TOP.get(mask)
    if top is None:
        top = _STRAIGHT_TOP[mask] = next(
            (last for last, window in _WINDOW_MASKS if mask & window == window), 0
        )
    return top


def _best_straight(ranks: Sequence[int]) -> tuple[int, ...] | None:
    """Positions in ``ranks`` of its best straight (R5), in circle order ending with its top."""
    mask = 0
    for rank in ranks:
        mask |= 1 << rank
    top = _straight_top(mask & ~1)  # bit 0 is the majors' 0
    if not top:
        return None
    return tuple(ranks.index(rank) for rank in _WINDOWS[top])


def _plain_entry(sig: tuple[int, ...]) -> tuple[int, tuple[tuple[int, int], ...], _Pick, bool]:
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
            code, used, slots = _CODE["straight"], straight, straight[-1:]
    key = code << _CAT_SHIFT
    major_slots = []
    for pos, shift in zip(slots, _SHIFTS, strict=False):
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
    c1 = len(groups[0]) if groups else 0
    c2 = len(groups[1]) if len(groups) > 1 else 0
    duet = [k, k + 1] if n - k >= 2 else []  # R6: the two lowest-numbered majors
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
    if kickers:  # R7: the highest remaining cards, majors below minors (R3)
        rest = [pos for pos in range(n) if pos not in used][:kickers]
        used = used + rest
        slots = slots + rest
    may_straight = len(runs) >= 5 and _CODE[cat] < _CODE["straight"]
    return _CODE[cat], tuple(used), tuple(slots), may_straight


def _flush(
    codes: list[int], suits: int, key: int, picked: tuple[int, ...]
) -> tuple[int, tuple[int, ...]]:
    """The better of the plain hand and the flush or straight flush in the five-card suit."""
    suit = next(s for s in range(4) if (suits >> (3 * s)) & 7 >= 5)
    suited = [code for code in codes if _SUIT[code] == suit]
    ranks = [_SIG[code] for code in suited]
    straight = _best_straight(ranks)
    if straight is not None:
        flush_key = _CODE["straight_flush"] << _CAT_SHIFT | (22 + ranks[straight[-1]]) << 24
        chosen = [suited[pos] for pos in straight]
    else:
        flush_key = _CODE["flush"] << _CAT_SHIFT
        for code, shift in zip(suited, _SHIFTS, strict=False):
            flush_key |= _VAL[code] << shift
        chosen = suited[:5]
    if flush_key > key:
        return flush_key, tuple(chosen)
    return key, picked  # only with magic can a flush lose to a plain hand of the same cards


# ---------------------------------------------------------------- comparing, words


def rank_hands(hands: Mapping[str, Hand]) -> list[list[str]]:
    """Names grouped by equal hands, best first; a group of several is a split (R7).

    >>> from referee.rules.cards import parse_cards as p
    >>> rank_hands({"a": best_hand(p("KC 2W")), "b": best_hand(p("QC QW")),
    ...             "c": best_hand(p("KS 2P"))})
    [['b'], ['a', 'c']]
    """
    order = sorted(hands, key=lambda name: hands[name]._key, reverse=True)  # stable
    groups: list[list[str]] = []
    last: int | None = None
    for name in order:
        key = hands[name]._key
        if key == last:
            groups[-1].append(name)
        else:
            groups.append([name])
            last = key
    return groups


def check_distinct(
    groups: Iterable[Sequence[Card]], *, magic: bool, names: Sequence[str] | None = None
) -> None:
    """Raise BadInput if a card appears twice in or across hands, unless ``magic`` (R8)."""
    if magic:
        return
    seen: dict[Card, int] = {}
    for g, cards in enumerate(groups):
        for card in cards:
            if card in seen:
                first = seen[card]
                if names is None:
                    where = "in one hand" if first == g else "in two hands"
                elif first == g:
                    where = f"in hand {names[g]}"
                else:
                    where = f"in hands {names[first]} and {names[g]}"
                raise duplicate_card(card, where)
            seen[card] = g


_PLURAL = (
    "", "Aces", "Twos", "Threes", "Fours", "Fives", "Sixes", "Sevens", "Eights", "Nines", "Tens",
    "Pages", "Knights", "Queens", "Kings",
)
_SINGULAR = (
    "", "Ace", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten",
    "Page", "Knight", "Queen", "King",
)
_ORDINAL = ("first", "second", "third", "fourth", "fifth")
# Where the Duet sits in Hand.cards, and what each key slot means, by category.
_DUET_AT = {"full_house_duet": 3, "three_pair": 4, "two_pair_duet": 2, "duet": 0}
_DEFINING_SLOTS = {
    "seven_of_a_kind": 1, "six_of_a_kind": 1, "five_of_a_kind": 1, "straight_flush": 1,
    "four_of_a_kind": 1, "full_house": 2, "full_house_duet": 3, "three_pair": 4, "flush": 0,
    "straight": 1, "three_of_a_kind": 1, "two_pair": 2, "two_pair_duet": 3, "pair": 1,
    "duet": 2, "high_card": 0,
}
_CARD_AT_SLOT = {  # index in Hand.cards of the card each slot was read from
    "four_of_a_kind": (0, 4), "three_of_a_kind": (0, 3, 4), "two_pair": (0, 2, 4),
    "two_pair_duet": (0, 2, 3, 4), "pair": (0, 2, 3, 4), "duet": (0, 1, 2, 3, 4),
    "high_card": (0, 1, 2, 3, 4), "flush": (0, 1, 2, 3, 4),
}


def _major(card: Card) -> str:
    return card.long


def _name(card: Card) -> str:
    return _SINGULAR[card.rank] if card.suit is not None else card.long


_PLURAL_DESCRIBED = frozenset(
    ("seven_of_a_kind", "six_of_a_kind", "five_of_a_kind", "four_of_a_kind", "three_of_a_kind",
     "pair")
)


def describe(hand: Hand) -> str:
    """What makes the hand, without the category: ``Kings over Fives``, ``Ten to King``."""
    cat, c = hand.category, hand.cards
    if cat in _PLURAL_DESCRIBED:
        return _PLURAL[c[0].rank]
    if cat in ("straight", "straight_flush"):
        text = f"{_SINGULAR[c[0].rank]} to {_SINGULAR[c[4].rank]}"
        return f"{text} of {c[0].suit.title}" if c[0].suit and cat == "straight_flush" else text
    if cat == "full_house":
        return f"{_PLURAL[c[0].rank]} over {_PLURAL[c[3].rank]}"
    if cat == "two_pair":
        return f"{_PLURAL[c[0].rank]} over {_PLURAL[c[2].rank]}"
    if cat in ("full_house_duet", "two_pair_duet"):
        at = _DUET_AT[cat]
        return f"{_PLURAL[c[0].rank]} with {_major(c[at])} and {_major(c[at + 1])}"
    if cat == "three_pair":
        return (
            f"{_PLURAL[c[0].rank]} and {_PLURAL[c[2].rank]} with {_major(c[4])} and {_major(c[5])}"
        )
    if cat == "duet":
        return f"{_major(c[0])} and {_major(c[1])}"
    if cat == "flush":
        assert c[0].suit is not None
        return f"{c[0].suit.title}, {_SINGULAR[c[0].rank]} high"
    return _name(c[0])  # high card


def _title(hand: Hand) -> str:
    cat = hand.category
    if cat == "pair":
        return f"Pair of {describe(hand)}"
    if cat == "duet":
        return f"Duet of {describe(hand)}"
    if cat == "flush":
        return f"Flush of {describe(hand)}"
    return f"{CATEGORY_TITLES[cat]}, {describe(hand)}"


def _slots(key: int) -> list[int]:
    return [(key >> shift) & 63 for shift in _SHIFTS]


def _lower(title: str) -> str:
    return title if title.startswith("Duet") else title[0].lower() + title[1:]


def explain(winner: Hand, loser: Hand) -> str:
    """Why ``winner`` beats (or ties) ``loser``: the category, then the card that decided.

    >>> from referee.rules.cards import parse_cards as p
    >>> explain(best_hand(p("KC KW 2S 2P")), best_hand(p("QC QW 9S 9P")))
    'both two pair; Kings over Twos beats Queens over Nines (R4)'
    """
    if winner < loser:
        raise ValueError("explain(winner, loser) needs winner >= loser")
    wcat, lcat = winner.category, loser.category
    if wcat != lcat:
        why = f"{CATEGORY_TITLES[wcat]} beats {_lower(CATEGORY_TITLES[lcat])}"
        if (wcat, lcat) in {("full_house", "full_house_duet"), ("two_pair", "two_pair_duet"),
                            ("pair", "duet")}:
            return why + " (a Duet loses to a regular pair, R4)"
        return why + " (R4)"
    both = f"both {_lower(CATEGORY_TITLES[wcat])}"
    ws, ls = _slots(winner._key), _slots(loser._key)
    diff = next((i for i in range(5) if ws[i] != ls[i]), None)
    if diff is None:
        return f"{both}, {describe(winner)}, equal after kickers; suits never break ties (R3, R7)"
    if diff < _DEFINING_SLOTS[wcat]:
        if wcat == "straight" or wcat == "straight_flush":
            note = " (a straight ranks by its last card, R5)"
        elif (wcat, diff) in {("full_house_duet", 1), ("three_pair", 2), ("two_pair_duet", 1),
                              ("duet", 0), ("full_house_duet", 2), ("three_pair", 3),
                              ("two_pair_duet", 2), ("duet", 1)}:
            note = " (the Duet holding the lowest-numbered card wins, then the other card, R6)"
        else:
            note = " (R4)"
        verb = "beat" if wcat in _PLURAL_DESCRIBED else "beats"
        return f"{both}; {describe(winner)} {verb} {describe(loser)}{note}"
    at = _CARD_AT_SLOT[wcat][diff]
    won = winner.cards[at].name
    lost = loser.cards[at].name if at < len(loser.cards) else "no card"
    if wcat in ("flush", "high_card"):
        what = f"{_ORDINAL[diff]} card"
    else:
        kicker_slots = len(_CARD_AT_SLOT[wcat]) - _DEFINING_SLOTS[wcat]
        nth = diff - _DEFINING_SLOTS[wcat]
        what = "kicker" if kicker_slots == 1 else f"{_ORDINAL[nth]} kicker"
        both = f"both {_lower(_title(winner))}"
    return f"{both}; {what} {won} beats {lost} (R7)"


# ---------------------------------------------------------------- showing hands (R9, R15)

#: Up cards a showing hand may have: stakeholders 1-4 (two, then four), the Fool 4-7 (H7).
STAKEHOLDER_UP = (1, 4)
FOOL_UP = (4, 7)


def verify_showing(name: str, cards: Sequence[Card], *, is_fool: bool) -> None:
    """Raise BadInput unless ``cards`` is a plausible count of up cards (H7)."""
    low, high = FOOL_UP if is_fool else STAKEHOLDER_UP
    if not low <= len(cards) <= high:
        who = "the Fool shows all his cards, 4 to 7" if is_fool else (
            "a stakeholder shows 2 up cards, then 4; the last card is dealt down"
        )
        raise BadInput(
            f"hand {name} shows {len(cards)} up cards; {who} (R9)", ruling="R9"
        )


def first_to_bet(
    showing: Sequence[tuple[str, Sequence[Card]]],
    *,
    fool: str | None = None,
    fool_has_chips: bool = True,
    magic: bool = False,
) -> str:
    """Who opens the betting: the best showing hand (R9), seats in order from the Fool's left.

    Ties go to the earliest seat in ``showing``; the Fool counts as the last seat (H5).
    If the Fool shows the high hand but holds no chips, the highest-showing
    stakeholder opens instead (R15).

    Raises:
        BadInput: no hands, a name twice, ``fool`` not among them, a bad hand.
    """
    if not showing:
        raise BadInput("no showing hands given", ruling="R9")
    names = [name for name, _ in showing]
    if len(set(names)) != len(names):
        twice = next(name for name in names if names.count(name) > 1)
        raise BadInput(f"two hands are named {twice!r}; give each seat its own name")
    if fool is not None and fool not in names:
        raise BadInput(f"the Fool's hand {fool!r} is not among {', '.join(names)}")
    check_distinct([cards for _, cards in showing], magic=magic, names=names)
    hands = {name: best_hand(cards, magic=magic) for name, cards in showing}
    seats = [name for name in names if name != fool] + ([fool] if fool is not None else [])
    best = max(seats, key=lambda name: hands[name]._key)  # max keeps the first of equals
    if best == fool and not fool_has_chips:
        others = seats[:-1]
        if not others:
            raise BadInput("only the Fool shows and he holds no chips: nobody can open (R15)")
        best = max(others, key=lambda name: hands[name]._key)
    return best
