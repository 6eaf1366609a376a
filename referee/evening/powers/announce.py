"""What the Fool announces of the powers (R26): decided once, on the event, for every path
that records it (``power access``, ``power use --access``, an amendment) and every screen that
tells it (the console, ``hand history``, the wall)."""

from __future__ import annotations

from referee.rules.cards import parse_card


def depletion(card: str, *, granted: bool, depleted: bool) -> str | None:
    """R26: "The Fool announces: The Sun is depleted" when an access of ``card`` took its
    second power (the ``power_accessed`` event's ``granted`` and ``depleted``, set as the access
    was built); None for any other access."""
    if not (depleted and granted):
        return None
    return f"The Fool announces: {parse_card(card).name} is depleted"
