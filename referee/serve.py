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
from typing import Any

from referee import live

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
    from referee.files import EveningLock

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
    from referee.files import atomic_write

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


def build_frame(path: Path, now: float | None = None) -> dict[str, Any]:
    """The table page's data for the evening at ``path``: the players' frame and more.

    Raises:
        RefereeError: no evening file, a corrupt one, or no evening in it yet.
    """
    from referee.errors import StoreError
    from referee.evening.state import require_evening
    from referee.report import chip_colour, chips_by_hand
    from referee.store import open_evening

    if not path.exists():
        raise StoreError("no evening yet: open one with `referee new`")
    with open_evening(path, write=False) as ev:
        state = ev.state("evening")
        require_evening(state)
        tables = side_tables(ev.state("scum"), ev.state("wager"))
    view = live.frame(state, now)
    # The frame is kept until the file changes, so its `clock` is as of that change; the
    # page runs the clock itself from `clock_origin` (the first hand's start, epoch seconds)
    # and the server's time, sent with every answer as X-Server-Time.
    view["clock_origin"] = state.first_hand_at
    view["chart"] = chips_by_hand(state)
    view["side_tables"] = tables
    view["palette"] = {c: chip_colour(c) for c in view["colours"]}
    view["title"] = state.scenario.get("name") or "Fool's Errand"
    view["problem"] = None
    return view


@dataclass
class Cached:
    key: object
    etag: str
    body: bytes
    data: dict[str, Any]


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
        """The frame for the file as it is now: from the cache unless the file changed."""
        key = live.signature(self.path)
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
            etag = '"' + hashlib.blake2b(body, digest_size=12).hexdigest() + '"'
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


def table_page(frame: dict[str, Any], etag: str, nonce: str = "") -> str:
    """The projector's page: inline CSS and JS, the first frame inline, then polling; its
    scripts and styles carry ``nonce`` (E69), given before the data goes in."""
    global _TEMPLATE
    if _TEMPLATE is None:
        from referee.content.scenario import data_file

        _TEMPLATE = data_file("table.html").read_text(encoding="utf-8")
    title = html.escape(str(frame.get("title") or "Fool's Errand"))
    return (seal(_TEMPLATE, nonce).replace("{{TITLE}}", title)
            .replace("{{FRAME}}", _inline_json(frame)).replace("{{ETAG}}", _inline_json(etag))
            .replace("{{NOW}}", f"{time.time():.3f}"))


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

