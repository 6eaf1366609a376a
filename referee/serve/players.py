"""The table view for players, as plain data, and the poll that notices a changed evening.

``frame(state)`` is everything ``referee watch`` shows on the players' screen, and nothing
it must not: no soul identities, aliases or Arcana, no clue text, no powers held, no down
cards (the state never holds down cards; up cards are public at the table). The CLI renders
it; tests read it.

``follow(path)`` polls the evening file's stat (every write is an atomic ``os.replace``, so
a new inode, mtime or size means a new evening) and says when to re-read and when to redraw
the clock, so the screen follows another terminal within a poll interval.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, NotRequired, TypedDict, final

from referee.errors import RefereeError, StoreError
from referee.evening.state import POT, require_evening
from referee.rules.cards import arcanum_label, to_roman
from referee.rules.pots import pot_name
from referee.storage.files import check_path
from referee.storage.store import open_evening
from referee.streams import plain, spec

if TYPE_CHECKING:
    from referee.evening import ceremony as cer
    from referee.evening.powers.constraints import InForce
    from referee.evening.state import State
    from referee.jsontypes import JSON, JSONObject

STREAM: Final = "evening"

Signature = tuple[int, int, int, int]


# -- the frame's shape ----------------------------------------------------------------------------


class CardShown(TypedDict):
    """An up card as the powers in force leave it (E76), as ``views.card_marks`` marks it."""

    card: str
    dead: bool
    counts_as: str | None
    held: bool


class Badge(TypedDict):
    """A power in force shown on a seat (S17, E79)."""

    power: str
    text: str


class InHand(TypedDict):
    """What the hand shows of one person: up cards, how many hooded, down cards to give."""

    showing: list[str]
    cards: list[CardShown]
    hooded: int
    down: int | None
    round_bet: int


class Helper(TypedDict):
    """A seat's assistant: their own chips."""

    name: str
    chips: dict[str, int]
    stack: int


class SeatView(InHand):
    seat: int
    name: str
    arcanum: str
    arcanum_label: str
    colour: str
    chips: dict[str, int]
    stack: int
    side_chips: int
    away: str                        # resigned, dead, risen or ""
    in_hand: str                     # in, folded, all-in, suspended or ""
    badges: list[Badge]
    assistant: Helper | None


class FoolView(InHand):
    name: str
    chips: dict[str, int]
    stack: int
    in_hand: str
    badges: list[Badge]


class PotView(TypedDict):
    name: str
    size: int
    eligible: list[str]


class UpWaiting(TypedDict):
    """A player whose up cards of the round are still to come (R9)."""

    name: str
    have: int
    want: int


#: The hand under way as the players see it. (Functional form: ``in`` is a key.)
TableHand = TypedDict("TableHand", {
    "no": int, "phase": str, "street": int, "bet": int, "raises": int, "pot": int,
    "pot_chips": dict[str, int], "pots": list[PotView], "to_act": str | None, "owes": int,
    "moves": list[str], "betting_over": bool, "in": list[str], "all_in": list[str],
    "suspended": list[str], "missing_up": list[str], "up_waiting": list[UpWaiting],
    "opener_note": str | None,
})


class PotWon(TypedDict):
    name: str
    size: int
    winners: list[str]
    hand: str | None                 # the winners' hand as the showdown named it


class LastHand(TypedDict):
    """What the last hand gave, shown between hands (E81)."""

    no: int
    contested: bool
    pots: list[PotWon]


class CeremonyView(TypedDict):
    ended: bool
    ceremony: cer.CeremonyView | None  # referee.evening.ceremony.summary, no secret in it


class Frame(CeremonyView):
    """The players' view (``frame``): everything ``referee watch`` shows, nothing secret."""

    phase: str
    open_pending: bool
    open_phase_due: bool
    clock: int | None
    clock_end: float | None
    hands_played: int
    colours: list[str]
    seats: list[SeatView]
    fool: FoolView
    hand: TableHand | None
    last_hand: LastHand | None
    depleted: list[str]
    in_force: list[str]
    table_effects: list[str]
    over: bool
    winner: str | None
    problem: NotRequired[str | None]  # a read that failed since, the frame the last good one


@final
class NoFrame(TypedDict):
    """What a screen shows before any evening could be read: only why not."""

    problem: str | None


class Replay(TypedDict):
    """A finished hand the GM replays on the wall (E136)."""

    hand: int
    at: JSON
    lines: list[str]


class Chance(TypedDict):
    name: str
    chance: float


class Odds(TypedDict):
    """Each live player's chance on what is showing (H31)."""

    hand: int
    street: int
    summary: str
    players: list[Chance]


def frame(state: State, now: float | None = None) -> Frame:
    """The players' view of the evening at ``now``: seats, stacks, pots, turn, clock.

    Every key is safe to show the whole table: no Charges (each side's own, E87), no
    hooded card named (E77), no down card.
    """
    # The frame's own (~20 ms): `links` and the shell's names read the evening without one.
    from referee.evening import views
    from referee.evening.powers import use as powers

    data = views.status(state, now)
    hand = data["hand"]
    colours = state.colours()
    players = {p["name"]: p for p in hand["players"]} if hand else {}
    badges = _badges(state, data["in_force"])
    ended = ceremony_view(state)

    def chips(name: str) -> dict[str, int]:
        held = state.holding(name)
        return {c: held[c] for c in colours if held.get(c)}

    def seat_state(name: str) -> str:
        if hand is None or name not in hand["in"] + hand["folded"]:
            return ""
        if name in hand["folded"]:
            return "folded"
        if name in hand["suspended"]:
            return "suspended"  # S19: as if all-in, said so
        if name in hand["all_in"]:
            return "all-in"
        return "in"

    def in_hand(name: str) -> InHand:
        """What the hand shows of ``name``: up cards marked (E76), how many are hooded
        (E77), down cards still to give (E78), the bet this round."""
        p = players.get(name)
        if p is None:
            return {"showing": [], "cards": [], "hooded": 0, "down": None, "round_bet": 0}
        return {"showing": list(p["up"]), "cards": p["cards"], "hooded": p["hooded"],
                "down": p["down"], "round_bet": p["round"]}

    seats: list[SeatView] = []
    for i, seat in enumerate(state.seats, 1):
        away = ("resigned" if seat.resigned else "dead" if seat.dead
                else "risen" if not seat.seated else "")
        seats.append({
            "seat": i,
            "name": seat.name,
            "arcanum": to_roman(seat.arcanum),
            "arcanum_label": arcanum_label(seat.arcanum),
            "colour": seat.colour,
            "chips": chips(seat.name),
            "stack": state.stack(seat.name),
            "side_chips": state.side_chips(seat.name),
            "away": away,
            "in_hand": seat_state(seat.name),
            **in_hand(seat.name),
            "badges": badges.get(seat.name, []),
            "assistant": None if not seat.assistant else {
                "name": seat.assistant,
                "chips": chips(seat.assistant),
                "stack": state.stack(seat.assistant),
            },
        })
    fool: FoolView = {
        "name": state.fool,
        "chips": chips(state.fool),
        "stack": state.stack(state.fool),
        "in_hand": seat_state(state.fool),
        **in_hand(state.fool),
        "badges": [],
    }
    table_hand: TableHand | None = None
    if hand is not None:
        pots: list[PotView] = [
            {"name": pot_name(i), "size": p["size"],
             "eligible": p["eligible"]} for i, p in enumerate(hand["pots"])]
        table_hand = {
            "no": hand["no"],
            "phase": hand["phase"],
            "street": hand["street"],
            "bet": hand["bet"],
            "raises": hand["raises"],
            "pot": hand["pot"],
            "pot_chips": chips(POT),
            "pots": pots,
            "to_act": hand["to_act"],
            "owes": hand["owes"],
            "moves": hand["moves"],
            "betting_over": hand["betting_over"],
            "in": hand["in"],
            "all_in": hand["all_in"],
            "suspended": hand["suspended"],
            "missing_up": hand["missing_up"],
            "up_waiting": hand["up_waiting"],
            "opener_note": hand["opener_note"],
        }
    return {
        "phase": data["phase"],
        "open_pending": data["open_pending"],
        "open_phase_due": data["open_phase_due"],
        "clock": data["clock"],
        "clock_end": views.clock_end(state, now),  # E80, as `status` stops it
        "hands_played": data["hands_played"],
        "colours": colours,
        "seats": seats,
        "fool": fool,
        "hand": table_hand,
        "last_hand": last_hand(state) if hand is None else None,
        "depleted": [arcanum_label(n) for n in range(22) if powers.depleted(state, n)],
        "in_force": [f["text"] for f in data["in_force"]],  # S17: powers binding the table
        "table_effects": [f["text"] for f in data["in_force"] if not badges_for(state, f)],
        "over": data["over"],
        "winner": data["winner"],
        "ended": ended["ended"],
        "ceremony": ended["ceremony"],
    }


def ceremony_view(state: State) -> CeremonyView:
    """Once the evening has ended (R18, or by the Fool's word, R40): that it has, and its
    ceremony, no claim a soul's secret Arcanum is in (E43)."""
    from referee.evening import ceremony, roster  # an ended evening's frame only

    ended = roster.is_ended(state)
    return {"ended": ended,
            "ceremony": ceremony.summary(state, reveal=False) if ended else None}


def badges_for(state: State, effect: InForce) -> str | None:
    """The seat a power in force is shown on (S17, E79): its target's, or the side's seat of
    an assistant it binds; None for one that binds the whole table (Iron Rule)."""
    target = effect.get("target")
    if not target:
        return None
    if any(s.name == target for s in state.seats):
        return str(target)
    return state.side_of(str(target))


def _badges(state: State, in_force: list[InForce]) -> dict[str, list[Badge]]:
    out: dict[str, list[Badge]] = {}
    for f in in_force:
        seat = badges_for(state, f)
        if seat is not None:
            out.setdefault(seat, []).append({"power": str(f["power"]), "text": str(f["text"])})
    return out


def last_hand(state: State) -> LastHand | None:
    """Between hands, what the last hand gave (E81): each pot, its size, its winners and the
    hand each won with, as shown at the showdown; nothing before the first hand."""
    from referee.rules.hands import CATEGORY_TITLES  # the frame's own, as in frame

    if not state.history:
        return None
    record = state.history[-1]
    best = record.get("best") or {}
    pots: list[PotWon] = []
    for i, pot in enumerate(record["pots"]):
        winners = list(pot["winners"])
        shown = [best[w]["category"] for w in winners if w in best]
        pots.append({"name": pot_name(i), "size": pot["size"],
                     "winners": winners,
                     "hand": CATEGORY_TITLES[shown[0]].lower() if shown else None})
    return {"no": record["no"], "contested": bool(record.get("contested")), "pots": pots}


def load_state(path: Path) -> State:
    """The evening at ``path``, read without the lock (writes are atomic renames).

    Raises:
        StoreError: there is no evening file at ``path``, or it is corrupt.
        IllegalAction: the file holds no evening yet.
    """
    check_path(path)  # a pipe would block every poll; a symlink loop is no evening (E94)
    if not path.exists():
        raise StoreError(f"no evening file at {path}; open one with `referee new` or name "
                         "the file with --db PATH")
    with open_evening(path, write=False) as ev:
        state: State = ev.state(STREAM)
    require_evening(state)
    return state


def signature(path: Path) -> Signature | None:
    """What changes whenever the evening file is rewritten; None while it is missing."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    return (st.st_ino, st.st_mtime_ns, st.st_ctime_ns, st.st_size)


def follow(
    path: Path,
    *,
    interval: float = 0.25,
    tick: float = 1.0,
    sleep: Callable[[float], None] = time.sleep,
    clock: Callable[[], float] = time.monotonic,
) -> Iterator[bool]:
    """Poll ``path`` forever: yield True first and after every change, False every ``tick``.

    True means "re-read the evening", False "only redraw" (the clock moves on). The
    caller stops by leaving the loop.
    """
    last: Signature | None | bool = False  # never equal to a signature: the first poll yields
    drawn = clock()
    while True:
        current = signature(path)
        if current != last:
            last = current
            drawn = clock()
            yield True
        elif clock() - drawn >= tick:
            drawn = clock()
            yield False
        sleep(interval)


def frames(
    path: Path,
    *,
    interval: float = 0.25,
    tick: float = 1.0,
    now: Callable[[], float] = time.time,
) -> Iterator[Frame | NoFrame]:
    """The players' view of the evening at ``path``, anew on each change and each ``tick``.

    A read that fails (the file gone, replaced by something else) keeps the last good
    frame and adds its one-line ``problem``.
    """

    state: State | None = None
    problem: str | None = None
    for changed in follow(path, interval=interval, tick=tick):
        if changed:
            try:
                state = load_state(path)
                problem = None
            except RefereeError as exc:
                problem = exc.line
        view: Frame | NoFrame = (frame(state, now()) if state is not None
                                 else NoFrame(problem=None))
        view["problem"] = problem
        yield view


def replay_frame(ev: Any, wall: JSONObject) -> Replay | None:
    """The finished hand the GM replays on the wall (`room replay N`, E136): its story in
    lines, from the log; None when none is asked for (or it cannot be told)."""
    from referee.evening.history import hand_history, history_lines  # a replay's only

    asked = wall.get("replay")
    if not isinstance(asked, dict):
        return None
    no = asked.get("hand")
    if type(no) is not int:
        return None
    sp = spec("evening")
    from referee.evening.amend import effective  # as above

    commands = effective((c.cmd, c.text, [plain(e) for e in c.events])
                         for c in ev.iter_commands("evening"))  # E138: as it now stands
    try:
        told = hand_history(commands, sp.empty(), sp.apply, no)
    except RefereeError:
        return None
    return {"hand": no, "at": asked.get("at"), "lines": history_lines(told)}


def odds_frame(state: State, wall: JSONObject) -> Odds | None:
    """Each live player's chance on what is showing (`room odds on`, H31): never by default,
    and only while a hand is played."""

    if wall.get("odds") is not True or state.hand is None:
        return None
    from referee.evening.equity import equity_view, summary  # numpy: the wall's odds only

    try:
        view = equity_view(state)
    except RefereeError:
        return None
    return {"hand": view["hand"], "street": view["street"], "summary": summary(view),
            "players": [{"name": p["name"], "chance": p["hand"]} for p in view["players"]]}
