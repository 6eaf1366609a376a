"""The cards of one Card of Fate command, and what a command returns.

A ``Dealer`` turns a command's cards: typed in from a physical draw, or from a
deck shuffled by a seed (R35, F3). An ``Outcome`` is what a command decided:
the events to record, a JSON report and the lines the GM reads.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from referee.errors import BadInput
from referee.names import match_name
from referee.rules.fate.cards import (
    DECK_KINDS,
    DeckKind,
    FateCard,
    check_unique,
    draw,
    make_deck,
    new_seed,
    parse_fate_card,
    parse_fate_cards,
)
from referee.rules.fate.fold import State
from referee.rules.fate.resolve import Result

if TYPE_CHECKING:
    from typing import Unpack

    from referee.rules.fate.events import Drawn, DrawnDetail, FateEvent


@dataclass(frozen=True)
class Typed:
    """Cards typed in from a physical draw: the Card of Fate, side a, side b, the Measure tests
    of Maimed areas (``gates``), a duel's Calm tests (``calms``) and the cards turned for
    Maimed complications, in the order they come (F6, F9, F20)."""

    cof: str | None = None
    a: str | None = None
    b: str | None = None
    gates: tuple[str, ...] = ()
    calms: tuple[str, ...] = ()
    complications: tuple[str, ...] = ()

    @property
    def any(self) -> bool:
        return self.cof is not None or self.a is not None or self.b is not None

    @property
    def physical(self) -> bool:
        """Whether this command's cards come from the table: then every draw is typed (F20)."""
        return self.any or bool(self.gates or self.calms or self.complications)


#: No cards typed: the console draws (the default of every command).
NOTHING_TYPED = Typed()


@dataclass
class Outcome:
    """What a command decided: events to record, a JSON report, lines for the GM."""

    events: list[FateEvent] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)
    lines: list[str] = field(default_factory=list)


def deck_kind(state: State, override: str | None = None) -> DeckKind:
    """The deck in play: ``--deck`` if given, else the evening's setting (R35 option)."""
    if override is None:
        return state["settings"]["deck"]
    return cast(DeckKind, match_name(override, DECK_KINDS, what="deck"))


def set_deck(state: State, kind: str) -> Outcome:
    """Switch the Card of Fate deck: ``standard`` (52 + Joker) or ``tarot`` (R35 option)."""
    chosen = deck_kind(state, kind)
    if chosen == state["settings"]["deck"]:
        return Outcome(data={"deck": chosen}, lines=[f"The deck is already {chosen}."])
    return Outcome([{"kind": "deck_set", "deck": chosen}], {"deck": chosen},
                   [f"Card of Fate deck: {chosen} (R35)."])


class Dealer:
    """Turns the cards of one command: typed in, or from a deck shuffled by a seed (R35, F3)."""

    def __init__(self, kind: DeckKind, typed: Typed, seed: int | None, jokers: int = 1,
                 second_joker: str = "I") -> None:
        self.kind = kind
        self.typed = typed
        self._seed = seed
        self.used_seed = False
        self.deck = make_deck(kind, jokers, second_joker)
        self._gates = list(typed.gates)
        self._calms = list(typed.calms)
        self._complications = list(typed.complications)
        #: Every card this command has turned so far, with where it was typed or drawn:
        #: a complication is a fresh card, never one of these (F26).
        self.turned: dict[str, str] = {}

    @property
    def seed(self) -> int:
        if self._seed is None:
            self._seed = new_seed()
        self.used_seed = True
        return self._seed

    @property
    def shown_seed(self) -> int | None:
        return self._seed if self.used_seed else None

    def _parse(self, text: str) -> list[FateCard]:
        return parse_fate_cards(text, self.kind, self.deck)

    def _turn(self, where: str, cards: Sequence[FateCard]) -> None:
        for card in cards:
            self.turned.setdefault(card.label, where)

    def _cof(self, text: str) -> FateCard:
        cof = parse_fate_card(text, self.kind, self.deck)
        if cof.is_joker:
            raise BadInput("a Joker cannot be the Card of Fate: set it aside, turn another card "
                           "and type that one (F2)")
        return cof

    def contest(self, na: int | None, nb: int | None, purpose: str = "",
                why: tuple[str, str] = ("", ""),
                ) -> tuple[FateCard, list[FateCard], list[FateCard]]:
        """The Card of Fate and both pools; ``why`` says where each pool's count comes from."""
        if not self.typed.any:
            if self.typed.physical:
                raise BadInput("the cards of this command are typed in: type this draw too, "
                               "--cof, --a and --b (--b \"\" for no cards) (F20)", ruling="F20")
            assert na is not None and nb is not None
            seed: int | str = self.seed if not purpose else f"{self.seed}/{purpose}"
            cof, (a, b) = draw(self.deck, seed, [na, nb])
            self._turn("the Card of Fate", [cof])
            self._turn("side a's cards", a)
            self._turn("side b's cards", b)
            return cof, a, b
        t = self.typed
        if t.cof is None or t.a is None or t.b is None:
            raise BadInput("type the whole draw: --cof, --a and --b (use --b \"\" for no cards), "
                           "or none of them for a console draw")
        cof, a, b = self._cof(t.cof), self._parse(t.a), self._parse(t.b)
        _count("--a", a, na, why[0])
        _count("--b", b, nb, why[1])
        check_unique([("--cof", [cof]), ("--a", a), ("--b", b)], self.deck)
        self._turn("--cof", [cof])
        self._turn("--a", a)
        self._turn("--b", b)
        return cof, a, b

    def single(self, n: int, purpose: str, typed: str | None = None, where: str = "--gate",
               why: str = "") -> tuple[FateCard, list[FateCard]]:
        """A test against a single Card of Fate (F7): typed ``CoF cards…`` or drawn; ``why``
        says where the count ``n`` comes from (F22)."""
        if typed is None:
            cof, (cards,) = draw(self.deck, f"{self.seed}/{purpose}", [n])
            self._turn("a Card of Fate", [cof])
            self._turn("a test's cards", cards)
            return cof, cards
        words = typed.replace(",", " ").split()
        if not words:
            raise BadInput(f"{where}: a typed single test needs the Card of Fate first, then "
                           "the cards")
        cof = self._cof(words[0])
        cards = self._parse(" ".join(words[1:]))
        _count(where, cards, n, why)
        cof_where = "--cof" if where == "--cards" else f"{where} Card of Fate"
        check_unique([(cof_where, [cof]), (where, cards)], self.deck)
        self._turn(cof_where, [cof])
        self._turn(where, cards)
        return cof, cards

    def single_typed(self, n: int, purpose: str, why: str = "",
                     ) -> tuple[FateCard, list[FateCard]]:
        """A single test whose cards may be typed with ``--cof`` and ``--cards``."""
        if self.typed.any:
            if self.typed.cof is None or self.typed.a is None:
                raise BadInput("type both --cof and --cards, or neither for a console draw")
            return self.single(n, purpose, f"{self.typed.cof} {self.typed.a}", where="--cards",
                               why=why)
        return self.single(n, purpose)

    def gate(self, n: int, who: str, area: str, measure: str,
             ) -> tuple[FateCard, list[FateCard]]:
        """The Measure test a Maimed area needs before use (R37, F6): typed with ``--gate``
        when the command's cards are typed, side a's before side b's (F20)."""
        purpose = f"gate/{who}/{area}"
        if not self.typed.physical:
            return self.single(n, purpose)
        if not self._gates:
            raise BadInput(f"{who}'s {area} is Maimed: type {who}'s {measure} test too "
                           f"({n} card{'s' if n != 1 else ''}), --gate \"COF CARDS\"; one --gate "
                           "per Maimed area, side a's before side b's (R37, F6)", ruling="F6")
        return self.single(n, purpose, self._gates.pop(0), where="--gate",
                           why=f"{n} = {n} {measure} ({who})")

    def calm(self, n: int, purpose: str, who: str, measure: str,
             ) -> tuple[FateCard, list[FateCard]]:
        """A duellist's Calm test (F10): typed with ``--calm "COF CARDS"`` in a typed phase."""
        if not self.typed.physical:
            return self.single(n, purpose)
        if not self._calms:
            raise BadInput(f"{who} tests {measure} ({n} cards): type that test too, --calm "
                           "\"COF CARDS\", in the order a then b (F10, F20)", ruling="F20")
        return self.single(n, purpose, self._calms.pop(0), where="--calm",
                           why=f"{n} = {n} {measure} ({who})")

    def complication(self, who: str) -> FateCard:
        """One fresh card turned for a Maimed Health (F9, F26): never the Card of Fate nor any
        card this command has turned; a Joker is set aside. When the command's cards were
        typed, the card turned at the table is asked for instead (F20)."""
        if self.typed.physical:
            if not self._complications:
                raise BadInput(f"{who}'s Health becomes Maimed: turn a card for the complication "
                               "and type it too, --complication CARD; a's before b's when both "
                               "are Maimed (F9, F20)", ruling="F20")
            card = parse_fate_card(self._complications.pop(0), self.kind, self.deck)
            if card.is_joker:
                raise BadInput("a Joker turned for a complication is set aside: turn another "
                               "card and type that one (F9)", ruling="F9")
            if card.label in self.turned:
                raise BadInput(f"--complication {card.label}: that card is already on the table "
                               f"in this command ({self.turned[card.label]}); the complication "
                               "is a fresh card from the deck: turn one and type it (F26)",
                               ruling="F26")
            self._turn("--complication", [card])
            return card
        rest = [c for c in self.deck if c.label not in self.turned and not c.is_joker]
        if not rest:
            raise BadInput("no fresh card is left in the deck for the complication: turn one "
                           "at the table and type the whole draw, --complication CARD (F26)",
                           ruling="F26")
        card = rest[random.Random(f"{self.seed}/complication/{who}").randrange(len(rest))]
        self._turn(f"{who}'s complication", [card])
        return card


def _count(where: str, cards: Sequence[FateCard], expected: int | None, why: str = "") -> None:
    """Typed cards must match a pool the console knows (F5); the refusal says where the count
    comes from (``7 = 5 Fiery + 2 Swordsman``) (F22)."""
    if expected is not None and len(cards) != expected:
        source = why if why and why != str(expected) else str(expected)
        raise BadInput(f"{where}: {len(cards)} card{'s' if len(cards) != 1 else ''} typed but "
                       f"the pool is {source}: check the typed cards (F5)", ruling="F5")


def drawn_event(what: str, dealer: Dealer, result: Result | None = None,
                **extra: Unpack[DrawnDetail]) -> Drawn:
    """The ``drawn`` event of a test: its deck and seed, then the test resolved (when
    ``result`` is given), then ``extra``, in that order."""
    if result is None:
        return {"kind": "drawn", "what": what, "deck": dealer.kind, "seed": dealer.shown_seed,
                **extra}
    return {"kind": "drawn", "what": what, "deck": dealer.kind, "seed": dealer.shown_seed,
            **result.to_json(), **extra}
