"""A Tarot Scum player for tests: the legal moves of the player to act, from a console deal."""

from __future__ import annotations

from collections.abc import Callable

from referee.rules import scum
from referee.rules.cards import Card
from referee.rules.scum import Role, Table


def candidates(table: Table, name: str) -> list[list[Card] | None]:
    """Every legal move of ``name`` (None is a pass), plays shortest and lowest first."""
    assert table.holdings is not None
    hold = table.holdings[name]
    wilds = [c for c in hold if c.is_major]
    by_rank: dict[int, list[Card]] = {}
    for card in hold:
        if not card.is_major:
            by_rank.setdefault(card.rank, []).append(card)
    plays: list[list[Card]] = []
    for rank in sorted(by_rank):
        group = by_rank[rank]
        for k in range(1, min(4, len(group)) + 1):
            plays.append(group[:k])
            if wilds:
                plays.append([*group[:k], wilds[0]])
    plays += [wilds[:k] for k in range(1, min(5, len(wilds)) + 1)]
    legal: list[list[Card] | None] = [
        p for p in plays if scum.can_follow(table.best, scum.read_play(p))]
    if table.best is not None:
        legal.append(None)
    return legal


def passing(table: Table) -> tuple[list[Card], list[Card], list[Card]]:
    """A legal R29 passing: the Fool's first major, his two highest minors, the Empress's two
    lowest minors."""
    assert table.holdings is not None
    fool = table.holdings[table.by_role(Role.FOOL)]
    empress = table.holdings[table.by_role(Role.EMPRESS)]
    majors = [c for c in fool if c.is_major]
    minors = sorted((c for c in fool if not c.is_major), key=lambda c: -c.rank)
    low = [c for c in empress if not c.is_major]
    return majors[:1], minors[:2], low[:2]


def play_hand(state: scum.ScumState, choose: Callable[[list[list[Card] | None]], int],
              ) -> list[tuple[str, list[Card] | None]]:
    """Deal, pass and play the current hand to the end; the moves made, in order."""
    for event in scum.deal_hand(state):
        scum.apply(state, event)
    match = scum.require_match(state)
    table = match.current()
    for event in scum.pass_cards(state, *passing(table)):
        scum.apply(state, event)
    moves: list[tuple[str, list[Card] | None]] = []
    hand = match.hand
    while match.hand == hand:
        table = match.current()
        who = table.to_act
        options = candidates(table, who)
        move = options[choose(options) % len(options)]
        events = (scum.pass_turn(state, None) if move is None
                  else scum.play(state, None, move))
        for event in events:
            scum.apply(state, event)
        moves.append((who, move))
        assert len(moves) < 500, "a hand that never ends"
    return moves
