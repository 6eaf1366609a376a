"""referee: the referee console for live tarot card games.

The Python API used by scripts and by the console itself::

    from referee import parse_cards, best_hand
    best_hand(parse_cards("KnC KnW 3S 3P 0 XXI 9C")).category   # 'three_pair'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from referee.rules.cards import Card, format_cards, parse_card, parse_cards
    from referee.rules.hands import Hand, best_hand

from referee.version import __version__ as __version__  # one source, in the base layer

__all__ = ["Card", "Hand", "best_hand", "format_cards", "parse_card", "parse_cards"]


def __getattr__(name: str) -> Any:
    # Imported on first use, so that every console command starts fast.
    if name in ("Hand", "best_hand"):
        from referee.rules import hands

        return getattr(hands, name)
    if name in ("Card", "format_cards", "parse_card", "parse_cards"):
        from referee.rules import cards

        return getattr(cards, name)
    raise AttributeError(name)
