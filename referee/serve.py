"""The evening as web pages: the projector's table page, each assistant's handout, their links.

Pure but for reading the evening file and its access file: ``FrameSource`` answers the table
page's polls (the frame is recomputed once per change of the evening file, keyed by its
inode, mtime, ctime and size, never once per request), ``table_page`` and ``handout_page``
build the HTML, ``Access`` keeps the tokens. The HTTP server itself is in
``referee.cli.serve``.

Nothing secret reaches ``/`` or ``/frame.json``: the frame is ``referee.live.frame`` (the
players' view that ``referee watch`` shows), the chart of public stacks, and the side
tables' scores; an assistant's page is ``report.handout`` for that assistant only.
"""

from __future__ import annotations

import hashlib
import hmac
import html
import json
import re
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from referee import live

if TYPE_CHECKING:
    from referee.evening.state import State

DEFAULT_PORT = 8765
#: The access file beside the evening: ``PATH.access``, mode 0600 (E52).
ACCESS_SUFFIX = ".access"
TOKEN_BYTES = 24  # 192 bits from `secrets` (E52)


# -- access tokens --------------------------------------------------------------------------------


@dataclass
class Access:
    """The evening's tokens: the GM's station token and one per assistant (E52).

    Kept in a 0600 file beside the evening rather than in its event log: a token is a key,
    not a move of the game, so it must not enter the hash-chained log (which never forgets,
    is copied into every backup, and which `undo` could bring back after `--new-tokens`).
    """

    station: str
    assistants: dict[str, str] = field(default_factory=dict)
    url: str | None = None  # where the last `referee serve` said the evening is

    def assistant_for(self, token: str) -> str | None:
        """The assistant whose token this is, compared in constant time; else None."""
        found = None
        for name, mine in self.assistants.items():
            if hmac.compare_digest(mine.encode(), token.encode()):
                found = name
        return found

    def is_station(self, token: str) -> bool:
        return hmac.compare_digest(self.station.encode(), token.encode())

    def link(self, assistant: str, base: str | None = None) -> str:
        return f"{(base or self.url or local_url(DEFAULT_PORT)).rstrip('/')}/a/" \
               f"{self.assistants[assistant]}"


def local_url(port: int, host: str = "127.0.0.1", scheme: str = "http") -> str:
    return f"{scheme}://{host}:{port}"


def access_path(evening: Path) -> Path:
    return evening.with_name(evening.name + ACCESS_SUFFIX)


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def load_access(evening: Path) -> Access | None:
    """The tokens kept beside ``evening``, or None when there are none (or they are unreadable)."""
    try:
        data = json.loads(access_path(evening).read_text(encoding="utf-8"))
        return Access(station=str(data["station"]),
                      assistants={str(k): str(v) for k, v in data["assistants"].items()},
                      url=data.get("url"))
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def ensure_access(evening: Path, assistants: list[str], *, renew: bool = False,
                  url: str | None = None) -> Access:
    """The evening's tokens, made for every assistant who has none (all anew with ``renew``).

    Written atomically, mode 0600, under the evening's lock, so two commands never hand out
    two tokens for one assistant.

    Raises:
        StoreError: the evening is busy, or the access file cannot be written.
    """
    from referee.errors import StoreError
    from referee.storage.files import EveningLock

    lock = EveningLock(evening.with_name(evening.name + ".lock"))
    if not lock.acquire(3.0):
        raise StoreError(f"the evening {evening} is busy in another terminal; try again")
    try:
        return _update_access(evening, assistants, renew=renew, url=url)
    finally:
        lock.release()


def replace_access(evening: Path, assistants: list[str]) -> Access | None:
    """A new evening's tokens (E66): every token anew, the station's too, one for each of its
    ``assistants`` at once, where links were handed out before (an access file exists); the
    address `serve` last gave is kept. Returns them, or None when there were none to replace.

    The caller holds the evening's lock (``new`` does, inside its transaction), so no phone
    reads the new evening with an old link.

    Raises:
        StoreError: the access file cannot be written.
    """
    if not access_path(evening).exists() and not access_path(evening).is_symlink():
        return None
    old = load_access(evening)
    return _update_access(evening, assistants, renew=True, url=old.url if old else None)


def _update_access(evening: Path, assistants: list[str], *, renew: bool,
                   url: str | None) -> Access:
    import os

    from referee.errors import StoreError
    from referee.storage.files import atomic_write

    old = None if renew else load_access(evening)
    access = old or Access(station=new_token(), url=url)
    changed = old is None
    for name in assistants:
        if name not in access.assistants:
            access.assistants[name] = new_token()
            changed = True
    if url is not None and url != access.url:
        access.url, changed = url, True
    if changed:
        target = access_path(evening)
        text = json.dumps({"station": access.station, "assistants": access.assistants,
                           "url": access.url}, indent=1)
        try:
            atomic_write(target, text)
            os.chmod(target, 0o600)
        except OSError as exc:
            raise StoreError(f"cannot write the access file {target}: {exc.strerror}; "
                             "give an evening in a writable folder") from None
    return access


def is_loopback(url: str) -> bool:
    """Whether ``url`` names this machine only (127.x, ::1, localhost): no phone can open it.

    >>> is_loopback("http://127.0.0.1:8765"), is_loopback("http://192.168.1.20:8765")
    (True, False)
    """
    import ipaddress
    from urllib.parse import urlsplit

    host = urlsplit(url).hostname or ""
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


# -- the wall: what the GM puts on the room's screen ----------------------------------------------

#: The wall's file beside the evening: ``PATH.room`` (E82).
ROOM_SUFFIX = ".room"
#: The longest announcement the wall takes (E82).
MAX_ANNOUNCEMENT = 200


@dataclass
class Room:
    """What the GM has put on the room's wall (E82): blank, an announcement, a break.

    Kept in ``PATH.room`` beside the evening, never in its log: the wall is no move of the
    game, so `room` commands leave the evening byte for byte as it was, work while a hand is
    under way, and are not undone by `undo`. Times are the server's epoch seconds; the page
    counts down itself. Keys this console does not know (a later one's, such as a replay
    or odds on the wall) are kept as they are in ``more``.
    """

    blank: bool = False
    announce: dict[str, Any] | None = None  # {"text", "at", "until" (None: until `room show`)}
    pause: dict[str, Any] | None = None     # the break: {"minutes", "at", "until"}
    more: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {**self.more, "blank": self.blank, "announce": self.announce,
                "break": self.pause}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Room:
        known = ("blank", "announce", "break")
        announce, pause = data.get("announce"), data.get("break")
        return cls(blank=data.get("blank") is True,
                   announce=announce if isinstance(announce, dict)
                   and isinstance(announce.get("text"), str)
                   and isinstance(announce.get("until"), int | float | None) else None,
                   pause=pause if isinstance(pause, dict)
                   and isinstance(pause.get("until"), int | float) else None,
                   more={k: v for k, v in data.items() if k not in known})

    def wall(self, now: float) -> dict[str, Any]:
        """What the page shows at ``now``: an announcement or a break that has run out is
        gone (the page also ends them itself when their time comes)."""
        announce = self.announce
        if announce and announce.get("until") is not None and announce["until"] <= now:
            announce = None
        pause = self.pause if self.pause and self.pause["until"] > now else None
        return {"blank": self.blank,
                "announce": None if announce is None else {
                    "text": announce["text"], "until": announce.get("until")},
                "break": None if pause is None else {
                    "minutes": pause.get("minutes"), "until": pause["until"]}}

    def says(self, now: float) -> str:
        """The wall in one line, for the GM's terminal."""
        wall = self.wall(now)
        parts = []
        if wall["blank"]:
            parts.append("blank (the room sees nothing)")
        if wall["break"]:
            left = max(0, int(wall["break"]["until"] - now))
            parts.append(f"a break, {left // 60}:{left % 60:02d} to go")
        if wall["announce"]:
            until = wall["announce"]["until"]
            how = ("until `referee room show`" if until is None
                   else f"for {max(0, int(until - now))} s")
            parts.append(f"the announcement {wall['announce']['text']!r} {how}")
        return "; ".join(parts) if parts else "the table"


def room_path(evening: Path) -> Path:
    return evening.with_name(evening.name + ROOM_SUFFIX)


def load_room(evening: Path) -> Room:
    """The wall beside ``evening``; the plain table when there is none (or it is unreadable:
    a wall that cannot be read shows the table rather than nothing)."""
    try:
        data = json.loads(room_path(evening).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return Room()
    return Room.from_json(data) if isinstance(data, dict) else Room()


def change_room(evening: Path, change: Callable[[Room], Room]) -> Room:
    """Apply ``change`` to the wall beside ``evening`` and write it atomically, under the
    evening's lock (two stations cannot lose each other's change). The evening file itself
    is neither read nor written (E82).

    Raises:
        StoreError: no evening file there, the evening is busy, or the wall cannot be written.
    """
    from referee.errors import StoreError
    from referee.storage.files import EveningLock, atomic_write

    if not evening.exists():
        raise StoreError(f"no evening file at {evening}; the wall belongs to an evening: "
                         "name it with --db PATH")
    lock = EveningLock(evening.with_name(evening.name + ".lock"))
    if not lock.acquire(3.0):
        raise StoreError(f"the evening {evening} is busy in another terminal; try again")
    try:
        was = load_room(evening)
        room = change(was)
        target = room_path(evening)
        from referee.storage import files

        if files.DRY_RUN:  # E133: the wall as it would be; nothing is written
            from referee.errors import DryRunDone

            now = time.time()
            raise DryRunDone(text=None, wall=(was.says(now), room.says(now)))
        try:
            atomic_write(target, json.dumps(room.to_json(), ensure_ascii=False, indent=1))
        except OSError as exc:
            raise StoreError(f"cannot write the wall's file {target}: {exc.strerror}; give "
                             "an evening in a writable folder") from None
        return room
    finally:
        lock.release()


# -- the frame ----------------------------------------------------------------------------------


def side_tables(scum: Any, wager: Any) -> dict[str, Any]:
    """What the side tables show the room: scores and whose turn, never a card in hand."""
    out: dict[str, Any] = {}
    match = getattr(scum, "match", None)
    if match is not None:
        out["scum"] = {"hand": min(match.hand, match.hands), "hands": match.hands,
                       "over": match.is_over, "standings": match.standings(),
                       "roles": {n: r.card_name for n, r in match.roles.items()},
                       "leaders": match.leaders()}
    game = getattr(wager, "game", None)
    if game is not None:
        from referee.rules.wager import TARGET, elixir_summary

        out["wager"] = {"fool": game.fool, "mistress": game.mistress,
                        "scores": dict(game.scores), "elixir": game.elixir.value,
                        "rule": elixir_summary(game.elixir), "target": TARGET,
                        "winner": game.winner}
    return out


def build_frame(path: Path, now: float | None = None, *, season: bool = False
                ) -> dict[str, Any]:
    """The table page's data for the evening at ``path``: the players' frame and more; with
    ``season``, the standings of the chain of evenings back from it (E111).

    Raises:
        RefereeError: no evening file, a corrupt one, or no evening in it yet.
    """
    from referee.errors import StoreError
    from referee.evening.state import require_evening
    from referee.report import chips_by_hand
    from referee.storage.store import open_evening

    if not path.exists():
        raise StoreError("no evening yet: open one with `referee new`")
    with open_evening(path, write=False) as ev:
        state = ev.state("evening")
        require_evening(state)
        tables = side_tables(ev.state("scum"), ev.state("wager"))
        room = load_room(path)
        replay = live.replay_frame(ev, room.more)  # E136
    moment = time.time() if now is None else now
    view = live.frame(state, moment)
    # The frame is kept until the file changes, so its `clock` is as of that change; the
    # page runs the clock itself from `clock_origin` (the first hand's start, epoch seconds)
    # and the server's time, sent with every answer as X-Server-Time.
    view["clock_origin"] = state.first_hand_at
    view["chart"] = chips_by_hand(state)
    view["side_tables"] = tables
    view["palette"] = palette(view["colours"])
    view["chip_labels"] = chip_labels(view["colours"])
    view["title"] = state.scenario.get("name") or "Fool's Errand"
    ended = view["ended"]  # R18, or the Fool's declared end (R40)
    view["standings"] = standings(state) if ended else None
    view["claims"] = view["ceremony"]["claims"] if view["ceremony"] else None
    view["season"] = season_frame(path) if season else None  # R43
    view["room"] = room.wall(moment)
    view["replay"] = replay
    view["odds"] = live.odds_frame(state, room.more)  # H31: on request only
    view["problem"] = None
    return view


def season_frame(path: Path) -> dict[str, Any]:
    """The season's public standings for the wall (E111): the chain of evenings back from the
    one served, as ``referee season`` counts it."""
    from referee import season

    return season.wall(season.standings(season.read([path])))


def standings(state: State) -> list[dict[str, Any]]:
    """At the end (R18), each side's chips, most first, and the Fool's (E81)."""
    from referee.evening.state import CHIP_VALUE

    sides: list[dict[str, Any]] = sorted(
        ({"name": s.name, "chips": state.side_chips(s.name)} for s in state.seats),
        key=lambda s: -int(s["chips"]))
    rows = [*sides, {"name": state.fool, "chips": state.stack(state.fool), "fool": True}]
    for row in rows:
        row["dollars"] = row["chips"] * CHIP_VALUE
    return rows


def claims(state: State) -> list[dict[str, Any]]:
    """At the end, the claims to an Arcanum that would succeed (R28, E81), as the report
    shows them to the table: none that would give a soul's secret Arcanum away (E43)."""
    from referee.report import build

    found: list[dict[str, Any]] = build(state)["arcana"]["promotions"]
    return found


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
    data: dict[str, Any]


def frame_etag(data: dict[str, Any]) -> str:
    """The ETag of a frame: a digest of everything in it but its running ``clock``, which the
    page counts itself from ``clock_origin`` and the server's time; so a change that shows
    nothing on the wall (a Charge, R39) answers 304 whenever it comes."""
    steady = {k: v for k, v in data.items() if k != "clock"}
    body = json.dumps(steady, ensure_ascii=False, separators=(",", ":")).encode()
    return '"' + hashlib.blake2b(body, digest_size=12).hexdigest() + '"'


class FrameSource:
    """The current frame of one evening file, recomputed once per change of the file."""

    def __init__(self, path: Path, *,
                 build: Callable[[Path], dict[str, Any]] = build_frame) -> None:
        self.path = path
        self.build = build
        self.computed = 0  # how many times the frame was built (tests read it)
        self._cached: Cached | None = None
        self._lock = threading.Lock()

    def current(self) -> Cached:
        """The frame for the file as it is now: from the cache unless the evening file or
        the wall's file beside it changed."""
        key = (live.signature(self.path), live.signature(room_path(self.path)))
        cached = self._cached
        if cached is not None and cached.key == key:
            return cached
        with self._lock:
            cached = self._cached
            if cached is not None and cached.key == key:
                return cached  # another request built it meanwhile
            from referee.errors import RefereeError

            try:
                data = self.build(self.path)
            except RefereeError as exc:
                data = dict(cached.data) if cached is not None else {}
                data["problem"] = exc.line  # the last good frame, and what is wrong now
            body = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
            etag = frame_etag(data)
            self.computed += 1
            self._cached = Cached(key, etag, body, data)
            return self._cached


# -- pages --------------------------------------------------------------------------------------

#: What every answer may load (E69): nothing from anywhere, but polls of this server.
_POLICY = ("default-src 'none'; connect-src 'self'; img-src 'self' data:; "
           "frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
_OPENING = re.compile(r"<(script|style)((?:\s[^>]*)?)>", re.I)


def new_nonce() -> str:
    """A nonce for one answer's Content-Security-Policy: 128 random bits (E69)."""
    return secrets.token_urlsafe(16)


def seal(markup: str, nonce: str) -> str:
    """``markup`` with ``nonce`` on each of its ``<script>`` and ``<style>`` elements (E69).

    Called on a page's own markup (its template) before any name or text goes in, so what
    the data brings, were it ever to hold an element, has no nonce and does not run.

    >>> seal('<style>b{}</style><SCRIPT id="first">1</SCRIPT>', 'N')
    '<style nonce="N">b{}</style><SCRIPT id="first" nonce="N">1</SCRIPT>'
    """
    if not nonce:
        return markup
    return _OPENING.sub(lambda m: f'<{m.group(1)}{m.group(2)} nonce="{nonce}">', markup)


def content_policy(nonce: str | None = None) -> str:
    """The Content-Security-Policy of an answer (E69): for a page built with ``nonce``, its
    own scripts and styles (those that carry the nonce) and nothing inline else: no
    ``unsafe-inline``, so no ``on*=`` handler, ``style=""`` attribute or ``javascript:``
    address runs; for any other answer, nothing at all.
    """
    if nonce is None:
        return _POLICY
    return f"{_POLICY}; script-src 'nonce-{nonce}'; style-src 'nonce-{nonce}'"


def _inline_json(data: object) -> str:
    """JSON safe inside a <script> element: no ``</script>``, no ``<!--``."""
    return (json.dumps(data, ensure_ascii=False).replace("<", "\\u003c")
            .replace(">", "\\u003e").replace("&", "\\u0026"))


_TEMPLATE: str | None = None
#: Every placeholder of ``data/table.html``: the page's title, and its data as JSON (E84).
PLACEHOLDER = re.compile(r"\{\{(TITLE|DATA)\}\}")


def table_page(frame: dict[str, Any], etag: str, now: float | None = None,
               nonce: str = "") -> str:
    """The projector's page: inline CSS and JS, the first frame inline, then polling.

    Filled in one pass over the template (E84): what goes in (names, the frame) is never
    read again for placeholders, so a seat named ``{{DATA}}`` is only a name. The script
    itself takes nothing from the request: the ETag and the server's time travel in the
    JSON block, so the script is the same on every answer. The template's scripts and
    styles carry ``nonce`` (E69), given before anything goes in.
    """
    global _TEMPLATE
    if _TEMPLATE is None:
        from referee.content.scenario import data_file

        _TEMPLATE = data_file("table.html").read_text(encoding="utf-8")
    values = {
        "TITLE": html.escape(str(frame.get("title") or "Fool's Errand")),
        "DATA": _inline_json({"frame": frame, "etag": etag,
                              "now": round(time.time() if now is None else now, 3)}),
    }
    return PLACEHOLDER.sub(lambda m: values[m.group(1)], seal(_TEMPLATE, nonce))


#: A phone's sheet follows the evening: it reloads when the sheet changes, and when its link
#: no longer opens a sheet (the tokens were replaced, E66) it says so instead of showing the
#: old one.
_POLL = """<script>
(function(){var tag=%s;function gone(){clearInterval(timer);var b=document.body;
while(b.firstChild){b.removeChild(b.firstChild);}var h=document.createElement("h1");
h.textContent="This link opens no sheet any more";var p=document.createElement("p");
p.textContent=%s;b.appendChild(h);b.appendChild(p);document.title="Link replaced";}
var timer=setInterval(function(){fetch(location.pathname,{method:"HEAD",cache:"no-store"})
.then(function(r){var t=r.headers.get("ETag");if(r.status==404){gone();}
else if(r.status==200&&t&&t!==tag){location.reload();}}).catch(function(){});},2000);})();
</script>"""
#: What a phone reads when its link was replaced, and what an unknown link answers (E66).
REPLACED = ("A new evening or new links replaced it (or it was mistyped): ask the GM for your "
            "link, and scan it again.")


def handout_page(path: Path, assistant: str, nonce: str = "") -> tuple[str, str]:
    """An assistant's clue sheet for their phone, and its ETag: ``report.handout`` for them,
    nothing else; the page reloads itself when the sheet changes. The page's own style (in
    its head, where no data stands but the escaped title) and its script carry ``nonce``.

    Raises:
        RefereeError: no evening, or a corrupt one.
    """
    from referee import report

    state = live.load_state(path)
    page = report.render_handout_html(report.handout(state, assistant))
    etag = '"' + hashlib.blake2b(page.encode(), digest_size=12).hexdigest() + '"'
    head, body, rest = page.partition("<body")
    poll = seal(_POLL, nonce) % (_inline_json(etag), _inline_json(REPLACED))
    page = seal(head, nonce) + body + rest
    return page.replace("</body>", poll + "</body>", 1), etag


def lan_address() -> str | None:
    """This machine's address on the local network (no packet is sent), or None."""
    import socket

    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        sock.connect(("192.0.2.1", 9))  # TEST-NET-1: connect() on UDP only picks a route
        address: str = sock.getsockname()[0]
    except OSError:
        return None
    finally:
        sock.close()
    return None if address.startswith("127.") else address

