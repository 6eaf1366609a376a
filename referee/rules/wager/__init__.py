"""Weir's Wager: the deck, Elixirs, two-card hands, points and the race (R32-R34).

Pure: no file is read here; the CLI loads the points table and hands it in.
House decisions beyond the rulings carry ids ``W1``... and are written up in
``docs/rules.md``. The parts:

- ``cards``  the deck: faces, mirrors, Elixirs and what each rules (R32, W1, W9)
- ``hands``  the points table and the ruling on two cards (R33, R34, W2-W5)
- ``game``   the race to 999: turns, rounds, the Elixir clock, the fold (R34, W6-W18)
"""

from __future__ import annotations

from referee.rules.wager.cards import (
    ELIXIRS,
    FACES,
    PRINCE,
    RULES,
    THOTH,
    WAGER_DECK,
    WAGER_MAJORS,
    Elixir,
    Rule,
    WCard,
    elixir_summary,
    parse_elixir,
    parse_wcard,
)
from referee.rules.wager.game import (
    ELIXIR_TURNS,
    STREAM,
    TARGET,
    Game,
    Scored,
    WagerState,
    apply,
    describe,
    draw_elixir,
    dump,
    load,
    new_game,
    numbered_hands,
    require_game,
    resolve_player,
    role_word_notes,
    round_number,
    score,
    score_line,
    set_elixir,
    turn,
    turns_each,
)
from referee.rules.wager.hands import (
    Hand,
    PointsTable,
    all_hands,
    classify,
    is_favoured,
    rank,
)

__all__ = [
    "ELIXIRS", "ELIXIR_TURNS", "FACES", "PRINCE", "RULES", "STREAM", "TARGET", "THOTH",
    "WAGER_DECK", "WAGER_MAJORS", "Elixir", "Game", "Hand", "PointsTable", "Rule", "Scored",
    "WCard", "WagerState", "all_hands", "apply", "classify", "describe", "draw_elixir", "dump",
    "elixir_summary", "is_favoured", "load", "new_game", "numbered_hands", "parse_elixir",
    "parse_wcard", "rank", "require_game", "resolve_player", "role_word_notes", "round_number",
    "score", "score_line", "set_elixir", "turn", "turns_each",
]
