"""The folded state of a stream, whichever it is: what ``referee.streams.spec`` folds for each
stream it knows (the evening's, and the side tables': Tarot Scum, Weir's Wager, the Card of
Fate). A type for the checker only: a new stream adds its state here."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias

if TYPE_CHECKING:
    from referee.evening.state import State
    from referee.rules.fate.fold import State as FateState
    from referee.rules.scum.match import ScumState
    from referee.rules.wager.game import WagerState

StreamState: TypeAlias = "State | ScumState | WagerState | FateState"
