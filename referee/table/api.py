"""The evening's API: a :class:`Request` in, an :class:`~referee.table.transaction.Outcome` out.

Every move that changes an evening is declared once in :data:`MOVES`, by the words that name
it (``"soul study"``): the stream it writes and the core function that decides it, called
with the evening's state and the request's arguments by name. A caller (the command line, a
phone's request the GM accepts, ``amend`` replaying the evening on a scratch copy) names the
move and gives its arguments as typed values; it never hands the table command text to run.
The command line parses the GM's words into a request and renders the outcome; the log keeps
the words (``Request.line``) as the GM could retype them, so every evening written so far
opens and replays unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path
from typing import Any, NamedTuple

from referee.table.transaction import Move, Outcome, run

#: What a move's arguments are, by the name of the core function's parameter.
Args = Mapping[str, object]
#: A value the core may choose for the log's words, as a command's parameter takes it: a
#: seed, a name as matched, the cards played, a flag.
Choice = str | int | bool | list[str] | None
#: What the core chose while deciding a move (a drawn seed, the players as matched), for the
#: log's words, by the name of the command's parameter it stands for.
Chosen = dict[str, Choice]


class Declared(NamedTuple):
    """A move as the table knows it: the stream it writes, the core function that decides it
    (``"module:function"``, called as ``function(state, **args)`` and returning the events),
    and, for a move whose words must say what the core chose so that retyping them replays
    the same (Downfall's draw, the players as matched), the function that reads that from
    the events (a mapping of ``Choice`` by parameter name, ``Chosen``). ``log``: the
    core function is handed the stream's commands as well (``log=``, a function returning
    them oldest first, read under the same lock), as a count names the moves that last
    touched what it finds (E131)."""

    stream: str
    decide: str
    chose: str | None = None
    log: bool = False


@dataclass(frozen=True, slots=True)
class Request:
    """One move asked of the table: its name (``MOVES``), its arguments as typed values, the
    evening it is made on, the words the log keeps, who asked when not the GM (a phone's
    request accepted, R46, E214), dry or not (E133), and ``fresh`` for ``new --force`` on a
    missing file whose backups lie beside it (E182).

    ``line`` is the words as the GM could retype them, or a function of what the core chose
    (``Chosen``) returning them, asked once the move is decided.
    """

    move: str
    args: Args
    evening: Path
    line: str | Callable[[Chosen], str]
    asked_by: str | None = None
    dry: bool = False
    fresh: bool = False


#: Every move that changes an evening, by the words that name it (``tests/test_api.py`` holds
#: each to a core function that takes these arguments).
MOVES: dict[str, Declared] = {
    # the betting (R12-R14, E27) and chips away from the table (R16)
    "bet": Declared("evening", "referee.evening.play:act_said"),
    "raise": Declared("evening", "referee.evening.play:act_said"),
    "call": Declared("evening", "referee.evening.play:act_said"),
    "check": Declared("evening", "referee.evening.play:act_said"),
    "fold": Declared("evening", "referee.evening.play:act_said"),
    "open-phase": Declared("evening", "referee.evening.commands:open_phase"),
    "chips give": Declared("evening", "referee.evening.commands:give_chips"),
    "chips settle": Declared("evening", "referee.evening.commands:settle_chips"),
    "rise": Declared("evening", "referee.evening.commands:rise"),
    "sit": Declared("evening", "referee.evening.commands:sit"),
    "resign": Declared("evening", "referee.evening.commands:resign"),
    "count": Declared("evening", "referee.evening.count:count_said", log=True),
    # the hand (R9, E25, E26, R44)
    "hand start": Declared("evening", "referee.evening.play:start_hand"),
    "hand show": Declared("evening", "referee.evening.play:show_said"),
    "hand fix": Declared("evening", "referee.evening.play:fix"),
    "hand showdown": Declared("evening", "referee.evening.showdown:showdown_said"),
    # souls, Charges and powers (R18-R26, R38)
    "soul study": Declared("evening", "referee.evening.souls:study"),
    "soul guess": Declared("evening", "referee.evening.souls:guess"),
    "soul auction": Declared("evening", "referee.evening.souls:auction"),
    "soul bid": Declared("evening", "referee.evening.souls:bid"),
    "soul sell": Declared("evening", "referee.evening.souls:sell"),
    "soul force-trade": Declared("evening", "referee.evening.souls:force_trade"),
    "soul buyout": Declared("evening", "referee.evening.souls:buyout"),
    "soul decline": Declared("evening", "referee.evening.souls:decline"),
    "soul smash": Declared("evening", "referee.evening.souls:smash"),
    "soul consume": Declared("evening", "referee.evening.souls:consume"),
    "soul give": Declared("evening", "referee.evening.souls:give_soul"),
    "charge give": Declared("evening", "referee.evening.souls:give_charges"),
    "power access": Declared("evening", "referee.evening.powers.use:access"),
    "power use": Declared("evening", "referee.evening.power_moves:use_said",
                          chose="referee.evening.power_moves:drawn"),
    # the room's clock (R47): `room show` ends a break as `room resume` does
    "room show": Declared("evening", "referee.evening.clock:resume"),
    "room break": Declared("evening", "referee.evening.clock:take_break"),
    "room pause": Declared("evening", "referee.evening.clock:pause"),
    "room resume": Declared("evening", "referee.evening.clock:resume"),
    # the end of the evening and its ceremony (R40)
    "end": Declared("evening", "referee.evening.ceremony:end"),
    "ceremony promote": Declared("evening", "referee.evening.ceremony:promote"),
    "ceremony switch": Declared("evening", "referee.evening.ceremony:switch"),
    "ceremony decline": Declared("evening", "referee.evening.ceremony:decline"),
    "ceremony close": Declared("evening", "referee.evening.ceremony:close"),
    # the side tables' own streams: Tarot Scum (R29-R31); the words say the players, the
    # cards and the seed as the core matched and drew them (T21)
    "scum new": Declared("scum", "referee.rules.scum.match:new_match",
                         chose="referee.rules.scum.moves:started"),
    "scum finish": Declared("scum", "referee.rules.scum.match:finish",
                            chose="referee.rules.scum.moves:finished"),
    "scum deal": Declared("scum", "referee.rules.scum.match:deal_hand"),
    "scum pass-cards": Declared("scum", "referee.rules.scum.match:pass_cards"),
    "scum play": Declared("scum", "referee.rules.scum.moves:play_words",
                          chose="referee.rules.scum.moves:played"),
    "scum pass": Declared("scum", "referee.rules.scum.match:pass_turn",
                          chose="referee.rules.scum.moves:passed"),
    # Weir's Wager (R32-R34): the words say the players, the cards and the Elixir as matched
    "wager new": Declared("wager", "referee.rules.wager.game:new_game",
                          chose="referee.rules.wager.moves:started"),
    "wager score": Declared("wager", "referee.rules.wager.game:score",
                            chose="referee.rules.wager.moves:scored"),
    "wager turn": Declared("wager", "referee.rules.wager.game:turn",
                           chose="referee.rules.wager.moves:turned"),
    "wager elixir": Declared("wager", "referee.rules.wager.game:set_elixir",
                             chose="referee.rules.wager.moves:set_to"),
    # the Card of Fate (R35-R37): the seed a draw chose is said in the words (F3)
    "fate deck": Declared("fate", "referee.rules.fate.moves:set_deck"),
    "fate char new": Declared("fate", "referee.rules.fate.moves:new_character"),
    "fate char edit": Declared("fate", "referee.rules.fate.moves:edit_character"),
    "fate test": Declared("fate", "referee.rules.fate.moves:run_test",
                          chose="referee.rules.fate.moves:drawn"),
    "fate fight": Declared("fate", "referee.rules.fate.moves:fight",
                           chose="referee.rules.fate.moves:drawn"),
    "fate drink": Declared("fate", "referee.rules.fate.moves:drink",
                           chose="referee.rules.fate.moves:drawn"),
    "fate heal": Declared("fate", "referee.rules.fate.moves:heal",
                          chose="referee.rules.fate.moves:drawn"),
    "fate check": Declared("fate", "referee.rules.fate.moves:check"),
    "fate grow": Declared("fate", "referee.rules.fate.moves:grow",
                          chose="referee.rules.fate.moves:drawn"),
    "fate duel pistols": Declared("fate", "referee.rules.fate.moves:duel_start"),
    "fate duel swords": Declared("fate", "referee.rules.fate.moves:duel_start"),
    "fate duel phase": Declared("fate", "referee.rules.fate.moves:duel_phase"),
    "fate duel round": Declared("fate", "referee.rules.fate.moves:duel_round"),
    "fate duel surrender": Declared("fate", "referee.rules.fate.moves:duel_surrender"),
    "fate duel end": Declared("fate", "referee.rules.fate.moves:duel_end"),
}


def _function(path: str) -> Callable[..., Any]:
    module, _, name = path.partition(":")
    found: Callable[..., Any] = getattr(import_module(module), name)
    return found


def declared(move: str) -> Declared:
    """The move named ``move``.

    Raises:
        KeyError: no such move is declared (a caller's bug: its words name every move).
    """
    return MOVES[move]


def perform(request: Request) -> Outcome[Any, Any]:
    """Make ``request``'s move: under the evening's lock, its stream folded, the core's
    function decides its events from the state and the arguments (or refuses: nothing is
    written), and they are committed at once under the request's words.

    Raises:
        RefereeError: the core refused the move, or the evening cannot be opened or written.
        DryRunDone: ``request.dry``: the events as they would be written; nothing was.
    """
    move = declared(request.move)
    decide = _function(move.decide)
    chose = _function(move.chose) if move.chose else None
    chosen: Chosen = {}

    def build(state: Any, log: Any = None) -> list[Any]:
        more = {"log": log} if move.log else {}
        events: list[Any] = decide(state, **request.args, **more)
        if chose is not None:
            chosen.update(dict(chose(events)))
        return events

    given = request.line
    line: str | Callable[[], str] = given if isinstance(given, str) else (
        lambda: given(chosen))
    return run(Move(evening=request.evening, stream=move.stream, line=line,
                    asked_by=request.asked_by, dry=request.dry, fresh=request.fresh), build,
               log=move.log)
