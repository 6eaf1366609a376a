"""Cards of the Card of Fate: the standard deck with Jokers, or the tarot option (R35).

Standard notation: rank then suit, case-insensitive, ranks ``A 2-10 J Q K`` (``1``
and ``T`` accepted), suits ``H D S C``; ``JOKER``. Long names work too.

>>> [str(c) for c in parse_fate_cards("ah 10s jd, Queen of Clubs joker")]
['AH', '10S', 'JD', 'QC', 'JOKER']

The tarot option (R35, F1) reads R2 notation: the Fool is the Joker and the suits
map Cups=Hearts, Pentacles=Diamonds, Swords=Spades, Wands=Clubs.

>>> [c.suit for c in parse_fate_cards("KnC PP 10s", "tarot")]
['H', 'D', 'S']
"""

from __future__ import annotations

import random
import secrets
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from referee.errors import BadInput, UnknownCard

DeckKind = Literal["standard", "tarot"]
DECK_KINDS: tuple[DeckKind, ...] = ("standard", "tarot")

SUITS = ("H", "D", "S", "C")
RED_SUITS = frozenset({"H", "D"})
_SUIT_WORDS = {"hearts": "H", "diamonds": "D", "spades": "S", "clubs": "C"}

# Aces high (R36); a Joker above an ace.
_STANDARD_RANKS = {
    **{str(n): n for n in range(2, 11)},
    "J": 11, "Q": 12, "K": 13, "A": 14,
}
_RANK_ALIASES = {"1": "A", "T": "10", "JACK": "J", "QUEEN": "Q", "KING": "K", "ACE": "A"}
_RANK_WORDS = {
    "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7", "eight": "8",
    "nine": "9", "ten": "10", "jack": "J", "queen": "Q", "king": "K", "ace": "A",
}
_TAROT_SUITS = {"C": "H", "P": "D", "S": "S", "W": "C"}  # R35: Cups=H, Pentacles=D, ...
JOKER_RANK = 99


@dataclass(frozen=True, slots=True)
class FateCard:
    """One card as the Card of Fate sees it.

    ``label`` is the canonical notation (``10S``, ``JOKER``; tarot: ``KnC``, ``0``);
    ``suit`` a standard suit letter (tarot suits mapped, R35), None for a Joker;
    ``rank`` the aces-high order number, equal for the same rank (R36).
    """

    label: str
    suit: str | None
    rank: int
    is_face: bool = False

    @property
    def is_joker(self) -> bool:
        return self.suit is None

    @property
    def is_ace(self) -> bool:
        # Aces are the highest non-face rank: 14 standard (J Q K below), 15 tarot (P Kn Q K).
        return not self.is_joker and not self.is_face and self.rank >= 14

    @property
    def is_red(self) -> bool:
        return self.suit in RED_SUITS

    def __str__(self) -> str:
        return self.label

    def __repr__(self) -> str:
        return f"FateCard({self.label})"


def _standard_card(rank_text: str, suit: str) -> FateCard:
    rank = _STANDARD_RANKS[rank_text]
    return FateCard(f"{rank_text}{suit}", suit, rank, is_face=rank_text in ("J", "Q", "K"))


STANDARD_JOKER = FateCard("JOKER", None, JOKER_RANK)

STANDARD_DECK: tuple[FateCard, ...] = tuple(
    _standard_card(r, s) for s in SUITS for r in _STANDARD_RANKS
)


def _tarot_card(short: str) -> FateCard:
    """A tarot minor (R2 short form) as a Card of Fate card: 2-10, P, Kn, Q, K, A high."""
    from referee.rules import cards  # a tarot deck's only: the standard deck does without

    card = cards.parse_card(short)
    if card.suit is None:
        return FateCard(card.short, None, JOKER_RANK)
    if card.rank == cards.ACE:
        rank, face = 15, False
    else:
        rank, face = card.rank, card.rank >= cards.PAGE
    return FateCard(card.short, _TAROT_SUITS[card.suit.value], rank, is_face=face)


def _tarot_deck() -> tuple[FateCard, ...]:
    from referee.rules import cards  # a tarot deck's only: the standard deck does without

    return tuple(_tarot_card(c.short) for c in cards.MINORS)


def make_deck(kind: DeckKind = "standard", jokers: int = 1,
              second_joker: str = "I") -> tuple[FateCard, ...]:
    """The deck of a test (R35): 52 cards + ``jokers``; tarot: 56 minors + the Fool (F1).

    >>> len(make_deck()), len(make_deck(jokers=2)), len(make_deck("tarot", jokers=2))
    (53, 54, 58)
    """
    if kind == "standard":
        return STANDARD_DECK + (STANDARD_JOKER,) * jokers
    fools = [FateCard("0", None, JOKER_RANK)]
    if jokers > 1:
        fools.append(FateCard(_tarot_major_label(second_joker), None, JOKER_RANK))
    return _tarot_deck() + tuple(fools)


def _tarot_major_label(text: str) -> str:
    from referee.rules import cards  # a tarot deck's only: the standard deck does without

    return cards.parse_card(text).short


def _standard_names() -> dict[str, FateCard]:
    names: dict[str, FateCard] = {"joker": STANDARD_JOKER, "jk": STANDARD_JOKER}
    for card in STANDARD_DECK:
        assert card.suit is not None
        rank_text = card.label[:-1]
        suit = card.suit.lower()
        names[card.label.lower()] = card
        for alias, target in _RANK_ALIASES.items():
            if target == rank_text and len(alias) == 1:
                names[alias.lower() + suit] = card
        for word, target in _RANK_WORDS.items():
            if target == rank_text:
                suit_word = next(w for w, s in _SUIT_WORDS.items() if s == card.suit)
                names[f"{word} of {suit_word}"] = card
    return names


_NAMES = _standard_names()


def _suggest(token: str) -> str:
    """The nearest labels: the same rank in every suit, else the closest spellings."""
    from rapidfuzz import fuzz, process  # a suggestion after a miss only (~25 ms)

    raw = token.strip().upper()
    for head in (raw, raw[:-1]):  # a rank without its suit, or with a wrong suit letter
        rank = _RANK_ALIASES.get(head, head)
        if rank in _STANDARD_RANKS:
            return ", ".join(f"{rank}{suit}" for suit in SUITS)
    labels = [card.label for card in STANDARD_DECK] + ["JOKER"]
    found = process.extract(raw, labels, scorer=fuzz.ratio, limit=3)
    return ", ".join(label for label, _score, _ in found)


def _unknown_standard(token: str) -> UnknownCard:
    from referee.rules import cards  # a tarot deck's only: the standard deck does without

    hint = ""
    try:
        cards.parse_card(token)
        hint = "; that is tarot notation: switch with fate deck tarot, or --deck tarot"
    except UnknownCard:
        pass
    return UnknownCard(
        f"unknown card {token!r}; did you mean {_suggest(token)}? "
        f"(rank A 2-10 J Q K + suit H D S C, e.g. 10S, QH; or JOKER{hint})",
        ruling="R35",
    )


def parse_fate_card(text: str, kind: DeckKind = "standard",
                    deck: Sequence[FateCard] = ()) -> FateCard:
    """One card in the notation of ``kind`` (R35); ``deck`` as for ``parse_fate_cards``.

    Raises:
        UnknownCard: naming the token, with the nearest valid spellings.
    """
    found = parse_fate_cards(text, kind, deck)
    if len(found) != 1:
        raise BadInput(f"expected one card, got {len(found)}: {text!r}")
    return found[0]


def parse_fate_cards(text: str, kind: DeckKind = "standard",
                     deck: Sequence[FateCard] = ()) -> list[FateCard]:
    """Cards separated by spaces or commas (standard or tarot notation, R35).

    ``deck`` is the deck the cards come from, when it matters: a tarot duel deck holds
    a second Joker, the Magician (F1), which is typed as ``I``.

    >>> duel = make_deck("tarot", jokers=2)
    >>> [c.label for c in parse_fate_cards("0 I 2P", "tarot", duel)]
    ['0', 'I', '2P']

    Raises:
        UnknownCard: naming the first token that is no card of the deck.
    """
    if kind == "tarot":
        return _parse_tarot(text, frozenset(c.label for c in deck if c.is_joker))
    out: list[FateCard] = []
    words = text.replace(",", " ").split()
    i = 0
    while i < len(words):
        if i + 2 < len(words) and words[i + 1].lower() == "of":
            phrase = " ".join(words[i : i + 3]).lower()
            card = _NAMES.get(phrase)
            if card is None:
                raise _unknown_standard(" ".join(words[i : i + 3]))
            out.append(card)
            i += 3
            continue
        card = _NAMES.get(words[i].lower())
        if card is None:
            raise _unknown_standard(words[i])
        out.append(card)
        i += 1
    return out


def _parse_tarot(text: str, jokers: frozenset[str] = frozenset()) -> list[FateCard]:
    """Tarot cards; ``jokers`` are the majors the deck holds as Jokers beyond the Fool."""
    from referee.rules import cards  # a tarot deck's only: the standard deck does without

    out: list[FateCard] = []
    # JOKER is the Fool in the tarot option.
    words = ["0" if w.lower() == "joker" else w for w in text.replace(",", " ").split()]
    for card in cards.parse_cards(" ".join(words)):
        if card.suit is None and card.rank != 0 and card.short not in jokers:
            extra = sorted(jokers - {"0"})
            held = (f"the Fool (0) and, in this duel deck, {extra[0]} are, as the two Jokers"
                    if extra else "the Fool (0) is, as the Joker (a duel deck adds the "
                    "Magician, I, as its second Joker)")
            raise UnknownCard(
                f"{card.short} ({card.name}) is not in this Card of Fate tarot deck: of the "
                f"Major Arcana only {held} (R35, F1)",
                ruling="R35",
            )
        out.append(_tarot_card(card.short))
    return out


def format_fate_cards(cards: Sequence[FateCard]) -> str:
    """Labels, space separated.

    >>> format_fate_cards(parse_fate_cards("ah 10s joker"))
    'AH 10S JOKER'
    """
    return " ".join(card.label for card in cards)


def card_from_label(label: str, kind: DeckKind = "standard") -> FateCard:
    """The card a stored label names (events keep labels, not objects)."""
    if kind == "tarot" and label in ("0", "I"):
        return FateCard(label, None, JOKER_RANK)
    return parse_fate_card(label, kind)


def check_unique(groups: Sequence[tuple[str, Sequence[FateCard]]],
                 deck: Sequence[FateCard]) -> None:
    """Refuse a draw that takes a card from ``deck`` more often than the deck holds it (F2).

    ``groups`` names where each card was typed (``--cof``, ``--a``, ``--b``).

    Raises:
        BadInput: naming the card and the places it was typed.
    """
    holds = Counter(card.label for card in deck)
    seen: Counter[str] = Counter()
    where: dict[str, list[str]] = {}
    for name, cards in groups:
        for card in cards:
            seen[card.label] += 1
            where.setdefault(card.label, []).append(name)
            if seen[card.label] > holds[card.label]:
                places = " and ".join(dict.fromkeys(where[card.label]))
                times = "once" if holds[card.label] == 1 else f"{holds[card.label]} times"
                others = [c.label for c in dict.fromkeys(deck)
                          if c.is_joker and c.label != card.label]
                hint = (f"; this deck's other Joker is {others[0]} (F1)"
                        if card.is_joker and others else "")
                raise BadInput(
                    f"card {card.label} drawn twice from one deck ({places}); the deck holds "
                    f"it {times}: check the typed cards (F2){hint}",
                    ruling="R35",
                )


def new_seed() -> int:
    """A fresh six-digit seed, short enough to read out and retype (F3)."""
    return 100000 + secrets.randbelow(900000)


def draw(deck: Sequence[FateCard], seed: int | str, sizes: Sequence[int],
         ) -> tuple[FateCard, list[list[FateCard]]]:
    """Shuffle ``deck`` with ``seed``, turn the Card of Fate, then deal ``sizes`` cards.

    A Joker turned as the Card of Fate is set aside and the next card turned (F2).
    The same seed always gives the same draw (R35).

    Raises:
        BadInput: the pools need more cards than the deck holds.
    """
    if any(n < 0 for n in sizes):
        raise BadInput("a pool cannot be below 0 cards")
    jokers = sum(1 for card in deck if card.is_joker)
    if sum(sizes) + 1 + jokers > len(deck):
        raise BadInput(
            f"pools of {' + '.join(map(str, sizes))} cards need more than the "
            f"{len(deck) - 1 - jokers} cards one deck can deal after the Card of Fate (F2)"
        )
    cards = list(deck)
    random.Random(seed).shuffle(cards)
    while cards[0].is_joker:
        cards.pop(0)  # set aside for this test
    cof = cards.pop(0)
    hands: list[list[FateCard]] = []
    for n in sizes:
        hands.append(cards[:n])
        del cards[:n]
    return cof, hands
