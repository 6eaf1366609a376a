"""Tarot cards, the 78-card deck and the card notation (R1-R3).

Short notation (R2): minors are rank then suit (``AC 10S KnW PP``), majors a
Roman numeral (``0 I ... XXI``) or ``M0 ... M21``; long names are accepted too.

>>> [str(c) for c in parse_cards("KnC, 10s the tower m0")]
['KnC', '10S', 'XVI', '0']
>>> parse_card("hanged man").name
'The Hanged Man'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from referee.errors import UnknownCard


class Suit(StrEnum):
    """The four minor suits, by their letter in the short notation."""

    CUPS = "C"
    WANDS = "W"
    SWORDS = "S"
    PENTACLES = "P"

    @property
    def title(self) -> str:  # type: ignore[override]
        return _SUIT_NAMES[self]


_SUIT_NAMES = {
    Suit.CUPS: "Cups",
    Suit.WANDS: "Wands",
    Suit.SWORDS: "Swords",
    Suit.PENTACLES: "Pentacles",
}

ACE, PAGE, KNIGHT, QUEEN, KING = 1, 11, 12, 13, 14

_RANK_SHORT = {ACE: "A", PAGE: "P", KNIGHT: "Kn", QUEEN: "Q", KING: "K"}
_RANK_LONG = {
    1: "Ace", 2: "Two", 3: "Three", 4: "Four", 5: "Five", 6: "Six", 7: "Seven",
    8: "Eight", 9: "Nine", 10: "Ten", 11: "Page", 12: "Knight", 13: "Queen", 14: "King",
}

#: Major Arcana names in Rider-Waite order (R1): VIII Strength, XI Justice.
MAJOR_NAMES: tuple[str, ...] = (
    "The Fool", "The Magician", "The High Priestess", "The Empress", "The Emperor",
    "The Hierophant", "The Lovers", "The Chariot", "Strength", "The Hermit",
    "Wheel of Fortune", "Justice", "The Hanged Man", "Death", "Temperance", "The Devil",
    "The Tower", "The Star", "The Moon", "The Sun", "Judgement", "The World",
)

_ROMAN = (
    (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"),
)


def to_roman(number: int) -> str:
    """The Roman numeral of an Arcanum, ``"0"`` for the Fool.

    >>> to_roman(0), to_roman(14), to_roman(21)
    ('0', 'XIV', 'XXI')
    """
    if not 0 <= number <= 21:
        raise ValueError(f"no Major Arcanum numbered {number}")
    if number == 0:
        return "0"
    out = []
    for value, letters in _ROMAN:
        while number >= value:
            out.append(letters)
            number -= value
    return "".join(out)


_FROM_ROMAN = {to_roman(n): n for n in range(22)}


@dataclass(frozen=True, slots=True)
class Card:
    """One tarot card. ``suit`` is None for a major; ``rank`` is 1-14 (minor) or 0-21 (major)."""

    suit: Suit | None
    rank: int

    @property
    def is_major(self) -> bool:
        return self.suit is None

    @property
    def index(self) -> int:
        """Position in the deck, 0-77: the 56 minors by suit then rank, then the 22 majors."""
        if self.suit is None:
            return 56 + self.rank
        return _SUIT_ORDER[self.suit] * 14 + self.rank - 1

    @property
    def strength(self) -> int:
        """R3 order as one number: XXI=0 ... 0=21, then Ace=22 ... King=35."""
        if self.suit is None:
            return 21 - self.rank
        return 21 + self.rank

    @property
    def short(self) -> str:
        """Canonical short notation (R2), e.g. ``KnC``, ``10S``, ``XVI``."""
        if self.suit is None:
            return to_roman(self.rank)
        return _RANK_SHORT.get(self.rank, str(self.rank)) + self.suit.value

    @property
    def name(self) -> str:
        """Long name, e.g. ``Knight of Cups``, ``The Tower``."""
        if self.suit is None:
            return MAJOR_NAMES[self.rank]
        return f"{_RANK_LONG[self.rank]} of {self.suit.title}"

    @property
    def long(self) -> str:
        """Long name with the numeral for majors, e.g. ``XVI The Tower``."""
        if self.suit is None:
            return f"{to_roman(self.rank)} {MAJOR_NAMES[self.rank]}"
        return self.name

    def __str__(self) -> str:
        return self.short

    def __repr__(self) -> str:
        return f"Card({self.short})"


_SUIT_ORDER = {suit: i for i, suit in enumerate(Suit)}

#: The 78-card deck in index order (R1).
DECK: tuple[Card, ...] = tuple(
    [Card(suit, rank) for suit in Suit for rank in range(1, 15)]
    + [Card(None, n) for n in range(22)]
)
MINORS: tuple[Card, ...] = DECK[:56]
MAJORS: tuple[Card, ...] = DECK[56:]


def _normal(text: str) -> str:
    return re.sub(r"\s+", " ", text.strip().lower())


def _build_names() -> dict[str, Card]:
    names: dict[str, Card] = {}
    rank_words: dict[int, list[str]] = {r: [_RANK_LONG[r].lower()] for r in _RANK_LONG}
    for r in range(2, 11):
        rank_words[r].append(str(r))
    rank_words[ACE] += ["1", "a"]
    rank_words[KNIGHT].append("kn")
    for card in MINORS:
        assert card.suit is not None
        letter = card.suit.value.lower()
        shorts = {"a": ["a", "1"], "p": ["p"], "kn": ["kn", "n"], "q": ["q"], "k": ["k"]}
        base = _RANK_SHORT.get(card.rank, str(card.rank)).lower()
        for head in shorts.get(base, [base]):
            names[head + letter] = card
        suit_word = card.suit.title.lower()
        for word in rank_words[card.rank]:
            names[f"{word} of {suit_word}"] = card
    for card in MAJORS:
        n = card.rank
        full = MAJOR_NAMES[n].lower()
        names[to_roman(n).lower()] = card
        names[f"m{n}"] = card
        names[full] = card
        if full.startswith("the "):
            names[full[4:]] = card
    # Common variants a GM types at speed.
    names["judgment"] = names["judgement"]
    names["wheel"] = names["wheel of fortune"]
    names["the wheel of fortune"] = names["wheel of fortune"]
    names["the wheel"] = names["wheel of fortune"]
    names["hanged"] = names["hanged man"]
    names["priestess"] = names["high priestess"]
    names["the strength"] = names["strength"]
    names["the justice"] = names["justice"]
    names["the death"] = names["death"]
    names["the temperance"] = names["temperance"]
    names["the judgement"] = names["judgement"]
    return names


_NAMES = _build_names()
_MAX_WORDS = max(len(key.split(" ")) for key in _NAMES)


def suggest_cards(token: str, limit: int = 3) -> list[str]:
    """The nearest valid spellings to an unknown token, canonical short form with long name."""
    from rapidfuzz import fuzz, process  # a suggestion after a miss only (~25 ms)

    query = _normal(token)
    picks: list[str] = []
    for key, _score, _ in process.extract(query, list(_NAMES), scorer=fuzz.WRatio, limit=12):
        card = _NAMES[key]
        label = f"{card.short} ({card.name})"
        if label not in picks:
            picks.append(label)
        if len(picks) == limit:
            break
    return picks


def _unknown(token: str) -> UnknownCard:
    hint = ", ".join(suggest_cards(token))
    return UnknownCard(
        f"unknown card {token!r}; did you mean {hint}? "
        "(minors: rank A 2-10 P Kn Q K + suit C W S P, e.g. KnC; majors: 0, I-XXI or M0-M21)",
        ruling="R2",
    )


def parse_card(text: str) -> Card:
    """One card from any accepted spelling (R2), case-insensitive."""
    card = _NAMES.get(_normal(text))
    if card is None:
        raise _unknown(text.strip())
    return card


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Cards separated by spaces or commas, in any R2 spelling; long names may span words.

    Raises:
        UnknownCard: naming the first token that is no card, with the nearest spellings.
    """
    if not isinstance(text, str):
        text = " ".join(text)
    known = _PARSED.get(text)
    if known is not None:
        return list(known)
    cards = _parse(text)
    if len(_PARSED) < _PARSED_MAX:
        _PARSED[text] = tuple(cards)
    return cards


#: What each text already read parsed to. Cards are immutable, so the tuple is shared and
#: each caller gets a list of its own; the betting asks for the same up cards at every step.
_PARSED: dict[str, tuple[Card, ...]] = {}
_PARSED_MAX = 4096


def _parse(text: str) -> list[Card]:
    cards: list[Card] = []
    for part in text.split(","):
        words = part.split()
        i = 0
        while i < len(words):
            for j in range(min(len(words), i + _MAX_WORDS), i, -1):
                card = _NAMES.get(" ".join(words[i:j]).lower())
                if card is not None:
                    cards.append(card)
                    i = _skip_own_name(card, words, j)
                    break
            else:
                token = words[i]
                if i + 2 < len(words) and words[i + 1].lower() == "of":
                    token = " ".join(words[i : i + 3])
                raise _unknown(token)
    return cards


def _skip_own_name(card: Card, words: list[str], j: int) -> int:
    """After a numeral, skip the same major's long name: ``XVI The Tower`` is one card,
    as the console itself prints it."""
    numerals = (to_roman(card.rank).lower(), f"m{card.rank}")
    if card.is_major and words[j - 1].lower() in numerals:
        for k in range(min(len(words), j + _MAX_WORDS), j, -1):
            span = " ".join(words[j:k]).lower()
            if span not in numerals and _NAMES.get(span) is card:
                return k
    return j


def format_cards(cards: Sequence[Card]) -> str:
    """Canonical short notation, space separated: ``AC 10S KnW PP 0 XVI``."""
    return " ".join(card.short for card in cards)


def parse_arcanum(text: str) -> int:
    """A Major Arcanum number from ``XVI``, ``16``, ``M16``, ``the tower`` or ``tower``.

    >>> parse_arcanum("xvi"), parse_arcanum("16"), parse_arcanum("The Tower")
    (16, 16, 16)
    """
    raw = _normal(text)
    if raw.isascii() and raw.isdigit() and 0 <= int(raw) <= 21:
        return int(raw)
    card = _NAMES.get(raw)
    if card is not None and card.is_major:
        return card.rank
    if raw.upper() in _FROM_ROMAN:
        return _FROM_ROMAN[raw.upper()]
    raise UnknownCard(
        f"unknown Arcanum {text!r}; write a numeral 0-XXI, a number 0-21 or a name such as "
        "'the tower'",
        ruling="R1",
    )


def arcanum_label(number: int) -> str:
    """``XVI The Tower``: numeral and name of an Arcanum."""
    return f"{to_roman(number)} {MAJOR_NAMES[number]}"
