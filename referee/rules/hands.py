"""Fool's Errand hands (R4-R9): the sixteen categories, the best hand, showing hands.

A ``Hand`` carries one integer key that orders hands exactly as the rules rank
them, so comparing, sorting and splitting are integer operations.

>>> from referee.rules.cards import parse_cards
>>> best_hand(parse_cards("KnC KnW 3S 3P 0 XXI 9C")).category
'three_pair'
>>> best_hand(parse_cards("KC AW 2S 3P 4C")) > best_hand(parse_cards("PC KnW QS KP AC"))
True

The key and the evaluation live in ``referee.rules.hand_keys`` (with the
bulk API, ``hand_keys``, for many hands as deck indices); a ``Hand`` made by
``best_hand`` works out which cards make it only when ``.cards`` is asked for.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypedDict

from referee.errors import BadInput
from referee.rules.cards import Card
from referee.rules.hand_keys import (
    BITS_OF_ID,
    CARDS_MASK,
    CAT_SHIFT,
    CATEGORIES,
    NCAT,
    SHIFTS,
    duplicate_card,
    evaluate,
    hand_key,
    key_of_sum,
)

__all__ = [
    "CATEGORIES", "CATEGORY_EXAMPLES", "CATEGORY_TITLES", "FOOL_UP", "STAKEHOLDER_UP", "Hand",
    "best_hand", "check_distinct", "describe", "duplicate_card", "explain", "first_to_bet",
    "rank_hands", "verify_showing",
]

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

_NCAT = NCAT
_CAT_SHIFT = CAT_SHIFT
_SHIFTS = SHIFTS


class HandJSON(TypedDict):
    """A hand's JSON form (``Hand.as_dict``): its R4 category and the cards that count."""

    category: str
    cards: list[str]


class Hand:
    """A ranked hand: ``.category`` (R4 JSON name) and ``.cards`` (defining cards, then kickers).

    Totally ordered by strength with ``<``, ``>``, ``==``; equal hands split the pot (R7).
    Made by :func:`best_hand`; immutable and hashable.
    """

    __slots__ = ("_cards", "_key", "_src")
    _key: int
    _cards: tuple[Card, ...]  # set when first asked for
    _src: tuple[Card, ...]

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Hand is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Hand is immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        return (_make, (self._key, self.cards))

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards that make the hand: defining cards first, then kickers (R7, H4)."""
        try:
            return self._cards
        except AttributeError:  # the key path already checked the cards: magic skips R8
            cards = evaluate(self._src, magic=True)[1]
            _set_cards(self, cards)
            return cards

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

    def as_dict(self) -> HandJSON:
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
_set_cards: Any = Hand.__dict__["_cards"].__set__
_set_src: Any = Hand.__dict__["_src"].__set__


def _make(key: int, cards: tuple[Card, ...]) -> Hand:
    hand = _new_hand(Hand)
    _set_key(hand, key)
    _set_cards(hand, cards)
    _set_src(hand, cards)
    return hand


# ---------------------------------------------------------------- evaluation


def best_hand(cards: Sequence[Card], *, magic: bool = False) -> Hand:
    """The best hand formable from 1-7 cards (R4-R8); also a showing hand's rank (R9).

    Only the key is worked out here; ``Hand.cards`` is found when first asked for.

    Args:
        cards: the hand's cards, any order.
        magic: the hand was changed by magic, so duplicate cards are allowed (R8).

    Raises:
        BadInput: no cards, more than seven, or (without ``magic``) a card twice.
    """
    n = len(cards)
    try:
        bits = sum(map(_bits_of_id, map(id, cards)))
    except KeyError:  # a Card made outside the deck, or no card: the checking path
        bits = 0
    if 0 < n <= 7 and (bits & CARDS_MASK).bit_count() == n:  # seven distinct deck cards
        key = _key_of_sum(bits)
    else:  # refused, or (under magic) the full path
        key = hand_key(cards, magic=magic)
    hand = _new_hand(Hand)
    _set_key(hand, key)
    _set_src(hand, tuple(cards))
    return hand


_bits_of_id = BITS_OF_ID.__getitem__
_key_of_sum = key_of_sum


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
