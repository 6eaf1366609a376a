"""Tarot Scum's moves as the table's API makes them (``referee.table.api.MOVES``), where the
commands of ``match`` do not take the command's arguments as they are: a play given as its
words (``[NAME] CARDS...``, T21). And what each move's words must say of what the core
matched, so that retyping them replays the same: the players as matched and the seed of a
new match, the finishing order, who played which cards, who passed (``chose``).

Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from referee.errors import BadInput, UnknownCard
from referee.rules.cards import Card, parse_cards
from referee.rules.scum.match import Match, ScumState, play, require_match, resolve_player
from referee.rules.scum.table import verify_turn
from referee.said import said

if TYPE_CHECKING:
    from referee.rules.scum.events import ScumEvent, ScumHandFinished, ScumPlayed


def split_play(match: Match, words: Sequence[str]) -> tuple[str | None, list[Card]]:
    """``[NAME] CARDS...``: the first word is a player when it names one exactly, or is no card
    (T21).

    Raises:
        BadInput: a player named and no cards given.
        UnknownCard: a word that is no card.
        IllegalAction, UnknownName: see ``resolve_player`` and ``table.verify_turn``.
    """
    first, rest = words[0], list(words[1:])
    exact = {p.casefold() for p in match.players}
    try:
        cards = parse_cards(" ".join(words))
    except UnknownCard:
        cards = None
    if cards is not None and first.casefold() not in exact:
        return None, cards
    if not rest:
        who = resolve_player(match, first)
        verify_turn(match.current(), who, passing=False)  # out of turn says so first (T18)
        raise BadInput(said(f"which cards does {who} play? give them after the name; ",
                            match.current().commands(), " (T21)"), ruling="T21")
    return first, parse_cards(" ".join(rest))


def play_words(state: ScumState,
               words: Sequence[str]) -> list[ScumPlayed | ScumHandFinished]:
    """A play given as its words, ``[NAME] CARDS...`` (T21): see ``match.play``."""
    name, cards = split_play(require_match(state), words)
    return play(state, name, cards)


# -- what the words say (``chose``) --------------------------------------------------------------


def started(events: Sequence[ScumEvent]) -> dict[str, list[str] | int]:
    """A new match's players as written (blanks folded) and its seed, drawn by the console when
    none was given (T1)."""
    for event in events:
        if event["kind"] == "scum_match_started":
            return {"names": [*event["players"]], "seed": event["seed"]}
    return {}


def finished(events: Sequence[ScumEvent]) -> dict[str, list[str]]:
    """The finishing order as matched: the players' full names, first out to last (T11)."""
    for event in events:
        if event["kind"] == "scum_hand_finished":
            return {"names": [*event["order"]]}
    return {}


def played(events: Sequence[ScumEvent]) -> dict[str, list[str]]:
    """Who played which cards, the player named in full (T21)."""
    for event in events:
        if event["kind"] == "scum_played":
            return {"words": [event["player"], *event["cards"]]}
    return {}


def passed(events: Sequence[ScumEvent]) -> dict[str, str]:
    """Who passed, named in full (T6)."""
    for event in events:
        if event["kind"] == "scum_passed":
            return {"name": event["player"]}
    return {}
