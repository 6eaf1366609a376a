"""The table page's data: the players' frame and the rest of what the wall shows, recomputed
once per change of the evening file (keyed by its inode, mtime, ctime and size), never once
per request.

Nothing secret reaches ``/`` or ``/frame.json``: the frame is ``referee.serve.players.frame``
(the players' view that ``referee watch`` shows), the chart of public stacks, and the side
tables' scores."""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, NotRequired, TypedDict

from referee.errors import RefereeError, StoreError
from referee.evening import clock
from referee.evening.state import CHIP_VALUE, require_evening
from referee.report import build, chips_by_hand
from referee.rules.wager import TARGET, elixir_summary
from referee.serve import players
from referee.serve.players import Frame, NoFrame
from referee.serve.room import load_room, room_path, with_clock
from referee.storage.store import open_evening

if TYPE_CHECKING:
    from referee.evening.ceremony import CeremonyClaim
    from referee.evening.clock import Paused
    from referee.evening.state import State
    from referee.report_records import Chart, Claim
    from referee.season import WallSeason
    from referee.serve.players import Odds, Replay
    from referee.serve.room import Wall


class ScumScores(TypedDict):
    """A Tarot Scum match as the room sees it: scores and roles, no card in hand."""

    hand: int
    hands: int
    over: bool
    standings: list[tuple[str, int]]
    roles: dict[str, str]
    leaders: list[str]


class WagerScores(TypedDict):
    """A game of Weir's Wager as the room sees it."""

    fool: str
    mistress: str
    scores: dict[str, int]
    elixir: str
    rule: str
    target: int
    winner: str | None


class SideTables(TypedDict):
    """The side tables under way: none, either or both."""

    scum: NotRequired[ScumScores]
    wager: NotRequired[WagerScores]


class Standing(TypedDict):
    """At the end (R18, E81), a side's chips or the Fool's."""

    name: str
    chips: int
    fool: NotRequired[bool]
    dollars: int


class WallFrame(Frame):
    """What the table page shows (``/frame.json``): the players' frame and the rest of the
    wall, nothing secret."""

    clock_origin: float | None       # the first hand's start, moved on by every stop over
    clock_stand: Paused | None       # R47: the last stop, which the page counts itself
    chart: Chart
    side_tables: SideTables
    palette: dict[str, str]
    chip_labels: dict[str, str]
    title: str
    standings: list[Standing] | None
    claims: list[CeremonyClaim] | None  # the ceremony's claims at the end
    season: WallSeason | None
    room: Wall
    replay: Replay | None
    odds: Odds | None
    sound: bool                      # E201: chimes at the hour of R13 and a hand's end
    voice: bool                      # E201: each turn said aloud


#: A frame as the cache keeps it: the wall's, or (no evening read yet) only what is wrong.
Shown = WallFrame | NoFrame


# -- the frame ----------------------------------------------------------------------------------


def side_tables(scum: Any, wager: Any) -> SideTables:
    """What the side tables show the room: scores and whose turn, never a card in hand."""
    out: SideTables = {}
    match = getattr(scum, "match", None)
    if match is not None:
        out["scum"] = {"hand": min(match.hand, match.hands), "hands": match.hands,
                       "over": match.is_over, "standings": match.standings(),
                       "roles": {n: r.card_name for n, r in match.roles.items()},
                       "leaders": match.leaders()}
    game = getattr(wager, "game", None)
    if game is not None:
        out["wager"] = {"fool": game.fool, "mistress": game.mistress,
                        "scores": dict(game.scores), "elixir": game.elixir.value,
                        "rule": elixir_summary(game.elixir), "target": TARGET,
                        "winner": game.winner}
    return out


def build_frame(path: Path, now: float | None = None, *, season: bool = False
                ) -> WallFrame:
    """The table page's data for the evening at ``path``: the players' frame and more; with
    ``season``, the standings of the chain of evenings back from it (E111).

    Raises:
        RefereeError: no evening file, a corrupt one, or no evening in it yet.
    """
    if not path.exists():
        raise StoreError("no evening yet: open one with `referee new`")
    with open_evening(path, write=False) as ev:
        state = ev.state("evening")
        require_evening(state)
        tables = side_tables(ev.state("scum"), ev.state("wager"))
        room = load_room(path)
        replay = players.replay_frame(ev, room.more)  # E136
    moment = time.time() if now is None else now
    view = players.frame(state, moment)
    ended = view["ended"]  # R18, or the Fool's declared end (R40)
    ceremony = view["ceremony"]
    # The frame is kept until the file changes, so its `clock` is as of that change; the
    # page runs the clock itself from `clock_origin` (the first hand's start, epoch seconds,
    # moved on by every pause and break over, R47), standing it still from `clock_stand`'s
    # `since` to its `until`, and the server's time, sent with every answer as X-Server-Time.
    wall = with_clock(room, view["clock_paused"]).wall(moment)  # R47: the evening's break
    return {
        **view,
        "clock_origin": clock.origin(state),
        "clock_stand": clock.stand(state),
        "chart": chips_by_hand(state),
        "side_tables": tables,
        "palette": palette(view["colours"]),
        "chip_labels": chip_labels(view["colours"]),
        "title": state.scenario.get("name") or "Fool's Errand",
        "standings": standings(state) if ended else None,
        "claims": ceremony["claims"] if ceremony else None,
        "season": season_frame(path) if season else None,  # R43
        "room": wall,
        "replay": replay,
        "odds": players.odds_frame(state, room.more),  # H31: on request only
        "sound": room.more.get("sound") is True,  # E201
        "voice": room.more.get("voice") is True,
        "problem": None,
    }


def season_frame(path: Path) -> WallSeason:
    """The season's public standings for the wall (E111): the chain of evenings back from the
    one served, as ``referee season`` counts it."""
    from referee import season  # serve --season only (~13 ms)

    return season.wall(season.standings(season.read([path])))


def standings(state: State) -> list[Standing]:
    """At the end (R18), each side's chips, most first, and the Fool's (E81)."""
    sides = sorted(((s.name, state.side_chips(s.name)) for s in state.seats),
                   key=lambda s: -s[1])
    rows: list[Standing] = [{"name": name, "chips": n, "dollars": n * CHIP_VALUE}
                            for name, n in sides]
    n = state.stack(state.fool)
    rows.append({"name": state.fool, "chips": n, "fool": True, "dollars": n * CHIP_VALUE})
    return rows


def claims(state: State) -> list[Claim]:
    """At the end, the claims to an Arcanum that would succeed (R28, E81), as the report
    shows them to the table: none that would give a soul's secret Arcanum away (E43)."""
    return build(state)["arcana"]["promotions"]


#: Chip colours as the wall draws them: bright enough on its dark cloth, each with its own
#: hue (E83). A colour the console does not know gets the next unused one of ``SPARE``.
WALL_COLOURS = {"red": "#e8453c", "blue": "#4a86e8", "green": "#34b86a", "yellow": "#f2cf30",
                "black": "#1b1b1b", "white": "#f4f2ec", "purple": "#a064d8",
                "orange": "#f28c28", "pink": "#f59cc4", "brown": "#9c6436",
                "grey": "#9b9b9b", "gray": "#9b9b9b", "gold": "#d8b13c", "silver": "#c9c9c9",
                "teal": "#1fa6a0", "cyan": "#38c8e0", "navy": "#24407a", "maroon": "#8a2a3a",
                "violet": "#b57be0", "indigo": "#5a4bd0", "turquoise": "#3fd6c6",
                "magenta": "#e04ac0", "lime": "#9bd83a", "olive": "#8a8a2a",
                "crimson": "#d22a4a", "beige": "#e6d8b4", "amber": "#f0a820",
                "copper": "#c07040", "bronze": "#a8783c", "ivory": "#f4efd8"}
SPARE = ["#e07b9a", "#6fc3b2", "#c9a0f0", "#d9a441", "#7f9fd6", "#b6d66a"]


def palette(colours: list[str]) -> dict[str, str]:
    """Each chip colour of the evening as the wall draws it: known colours by name, the rest
    each a hue of its own, never two unknown colours alike (E83)."""
    out: dict[str, str] = {}
    spare = list(SPARE)
    for colour in colours:
        known = WALL_COLOURS.get(colour.lower())
        if known is None:
            taken = set(out.values())
            known = next((c for c in spare if c not in taken), "#9b9b9b")
            if known in spare:
                spare.remove(known)
        out[colour] = known
    return out


def chip_labels(colours: list[str]) -> dict[str, str]:
    """A short label for each chip colour, printed under its stacks so that no one needs to
    tell colours apart (E83): the name when short, else the shortest prefix of three or more
    letters no other colour shares.

    >>> chip_labels(["green", "grey", "yellow", "turquoise"])
    {'green': 'green', 'grey': 'grey', 'yellow': 'yellow', 'turquoise': 'turq'}
    """
    out = {}
    for colour in colours:
        if len(colour) <= 6:
            out[colour] = colour
            continue
        others = [c.lower() for c in colours if c != colour]
        n = 3
        while n < len(colour) and any(o.startswith(colour[:n].lower()) for o in others):
            n += 1
        out[colour] = colour[: max(n, 4)]
    return out


@dataclass
class Cached:
    key: object
    etag: str
    body: bytes
    data: Shown


def frame_etag(data: Shown) -> str:
    """The ETag of a frame: a digest of everything in it but its running ``clock``, which the
    page counts itself from ``clock_origin`` and the server's time; so a change that shows
    nothing on the wall (a Charge, R39) answers 304 whenever it comes."""
    steady = {k: v for k, v in data.items() if k != "clock"}
    body = json.dumps(steady, ensure_ascii=False, separators=(",", ":")).encode()
    return '"' + hashlib.blake2b(body, digest_size=12).hexdigest() + '"'


class FrameSource:
    """The current frame of one evening file, recomputed once per change of the file."""

    def __init__(self, path: Path, *,
                 build: Callable[[Path], WallFrame] = build_frame) -> None:
        self.path = path
        self.build = build
        self.computed = 0  # how many times the frame was built (tests read it)
        self._cached: Cached | None = None
        self._lock = threading.Lock()

    def fresh(self) -> Cached | None:
        """The cached frame if the files are as it was built from, else None: two ``stat``
        calls, no build (the server asks this first, and builds in a thread only when it
        must)."""
        cached = self._cached
        key = (players.signature(self.path), players.signature(room_path(self.path)))
        return cached if cached is not None and cached.key == key else None

    def current(self) -> Cached:
        """The frame for the file as it is now: from the cache unless the evening file or
        the wall's file beside it changed."""
        key = (players.signature(self.path), players.signature(room_path(self.path)))
        cached = self._cached
        if cached is not None and cached.key == key:
            return cached
        with self._lock:
            cached = self._cached
            if cached is not None and cached.key == key:
                return cached  # another request built it meanwhile

            data: Shown
            try:
                data = self.build(self.path)
            except RefereeError as exc:
                data = cached.data.copy() if cached is not None else NoFrame(problem=None)
                data["problem"] = exc.line  # the last good frame, and what is wrong now
            body = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
            etag = frame_etag(data)
            self.computed += 1
            self._cached = Cached(key, etag, body, data)
            return self._cached


