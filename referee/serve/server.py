"""The HTTP side of `referee serve`: routes, limits, headers, the push. Imported only when
serving.

uvicorn's HTTP/1.1 protocol (h11 parses every request) on asyncio, under this server's
limits (``referee.serve.connections``), with an ASGI application of this module's own: five
routes need no framework, and every answer's headers are written here. Read routes answer
GET and HEAD only; ``GET /events`` pushes each change (``referee.serve.push``); ``POST
/station`` exists only with ``--station`` and runs a command line under the GM's station
token through what the command line hands in (``referee.cli.room.station``: the line read by
its parser, its move made through the table's API), in a thread, under the evening's lock
like any command typed in a terminal. No route reaches the file system.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import resource
import signal
import socket
import ssl
import sys
import threading
import time
import traceback
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from http import HTTPStatus
from pathlib import Path
from typing import TYPE_CHECKING, Any, NotRequired, TypedDict

from uvicorn.config import Config
from uvicorn.server import ServerState

from referee.errors import BadInput, RefereeError
from referee.jsontypes import JSONObject
from referee.serve import access, asks, players, push, remote
from referee.serve.answer import Answer, Receive, Scope, Send, drain
from referee.serve.connections import (
    IDLE_TIMEOUT,
    MAX_HEAD,
    REQUEST_TIME,
    SECURITY_HEADERS,
    Limits,
    protocol_for,
    tls_context,
)
from referee.serve.frame import FrameSource, build_frame
from referee.serve.pages import (
    REPLACED,
    handout_sheet,
    new_nonce,
    sealed_sheet,
    table_page,
)

if TYPE_CHECKING:
    from referee.serve.access import Access

#: Runs one station command line on the evening at a width: its exit status, stdout, stderr.
StationRunner = Callable[[list[str], Path, int | None], tuple[int, str, str]]
#: Where the server tells of a bug of its own (the command line passes the terminal's stderr).
BugReport = Callable[[str], None]
#: How a refusal reads on a phone (the command line passes its own, E240).
Told = Callable[[RefereeError], str]


def _line(exc: RefereeError) -> str:
    """A refusal in its own words, each move it names by its words alone."""
    return exc.line


#: The largest request body read (a station command line is far smaller) (E53).
MAX_BODY = 16 * 1024
DRAIN = 1024 * 1024  # an oversized body already on its way, up to this, is read and dropped
TOKEN_PATH = re.compile(r"/a/([A-Za-z0-9_-]{16,128})")
ASK_PATH = re.compile(r"/a/([A-Za-z0-9_-]{16,128})/ask")
#: The largest request a phone sends (E217): its fields are bounded far below this.
MAX_ASK = 4 * 1024
METHODS = {"GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT"}
READ_ROUTES = ("/", "/frame.json", "/events")
SWITCH_INTERVAL = 0.001  # seconds a thread holds the interpreter while another waits

__all__ = ["IDLE_TIMEOUT", "REQUEST_TIME", "SECURITY_HEADERS", "Server", "make_server"]


class Server:
    """One evening's server: where its file is, its frame cache and push, whether it takes
    commands, and the limits on its connections (E68). ``serve_forever`` runs it in the
    calling thread until ``shutdown`` (from any thread)."""

    def __init__(self, sock: socket.socket, evening: Path, *, station: StationRunner | None,
                 bug: BugReport, tls: ssl.SSLContext | None = None,
                 season: bool = False, told: Told = _line) -> None:
        self.socket = sock
        #: How a refusal reads on a phone: the console's own words for the moves it names
        #: (E240), given by the command that started the server.
        self.told: Told = told
        self.server_address: tuple[str, int] = sock.getsockname()[:2]
        self.evening = evening
        self.station = station
        self.bug = bug
        self.tls = tls
        # E111: `serve --season` adds the season's standings to every frame.
        self.source: FrameSource = FrameSource(evening, build=(
            (lambda path: build_frame(path, season=True)) if season else build_frame))
        self._access: tuple[object, Access | None] = (False, None)
        self.limits = Limits()
        self.taps = remote.Taps()  # the remote's last taps (E222)
        self._sheets: dict[str, tuple[object, str, str]] = {}  # each assistant's, as of a key
        self.push: push.Push | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._stopped = threading.Event()
        # Station commands in threads of their own, so a slow one never holds a page back.
        self._commands = ThreadPoolExecutor(4, thread_name_prefix="station")
        self._reads = ThreadPoolExecutor(4, thread_name_prefix="read")

    @property
    def open(self) -> int:
        """Connections held now (tests read it)."""
        return self.limits.open

    @property
    def refused(self) -> int:
        """Connections answered 503 because every one was busy (tests read it)."""
        return self.limits.refused

    def access(self) -> Access | None:
        """The tokens, re-read when the access file changes (``serve --new-tokens`` elsewhere)."""
        key = players.signature(access.access_path(self.evening))
        if key != self._access[0]:
            self._access = (key, access.load_access(self.evening))
        return self._access[1]

    # -- running -----------------------------------------------------------------------------

    def serve_forever(self, poll_interval: float = 0.25) -> None:
        """Serve until ``shutdown``; ``poll_interval`` is kept for the callers of the old
        loop and means nothing here."""
        self._stopped.clear()
        # A station's command runs in a thread, pure Python for tens of ms: the loop that
        # answers the room gets the interpreter back within 1 ms, not 5 (E191).
        interval = sys.getswitchinterval()
        sys.setswitchinterval(min(interval, SWITCH_INTERVAL))
        try:
            asyncio.run(self._serve())
        finally:
            sys.setswitchinterval(interval)
            self._stopped.set()

    async def _serve(self) -> None:
        loop = asyncio.get_running_loop()
        loop.set_default_executor(self._reads)
        self._loop, self._stop = loop, asyncio.Event()
        if threading.current_thread() is threading.main_thread():
            for signum in (signal.SIGINT, signal.SIGTERM):  # Ctrl-C and `kill`: the pages'
                loop.add_signal_handler(signum, self._stop.set)  # streams end, no traceback
        _quiet_uvicorn(self.bug)
        config = Config(self.app, interface="asgi3", lifespan="off", ws="none", proxy_headers=False,
                        server_header=False, date_header=False, access_log=False,
                        log_config=None, timeout_keep_alive=int(IDLE_TIMEOUT),
                        h11_max_incomplete_event_size=MAX_HEAD)
        config.load()
        state = ServerState()
        protocol = protocol_for(self.limits)
        self.push = push.Push(self.evening, self.source)
        watcher = loop.create_task(self.push.watch())
        server = await loop.create_server(
            lambda: protocol(config=config, server_state=state, app_state={}),
            sock=self.socket, ssl=self.tls, backlog=1024,
            ssl_handshake_timeout=REQUEST_TIME if self.tls else None)
        try:
            await self._stop.wait()
        finally:
            watcher.cancel()
            server.close()
            self.push.close_all()  # each stream ends its answer
            if state.tasks:
                await asyncio.wait(list(state.tasks), timeout=1.0)
            for conn in list(state.connections):
                conn.transport.close()
            for task in list(state.tasks):
                task.cancel()
            await asyncio.sleep(0)

    def shutdown(self) -> None:
        """Stop ``serve_forever`` (from another thread) and wait until it returned."""
        loop, stop = self._loop, self._stop
        if loop is not None and stop is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(stop.set)
            except RuntimeError:
                return  # the loop already ended
            self._stopped.wait(10)

    def server_close(self) -> None:
        self.socket.close()
        self._commands.shutdown(wait=False, cancel_futures=True)
        self._reads.shutdown(wait=False, cancel_futures=True)

    # -- the application ---------------------------------------------------------------------

    async def app(self, scope: Scope, receive: Receive, send: Send) -> None:
        """One request, ASGI: a bug in a route answers 500 (and is reported) instead of
        hanging up."""
        if scope["type"] != "http":
            return
        answer = Answer(scope, send)
        try:
            await self._route(answer, scope, receive)
        except Exception:
            if not answer.started:
                await answer.text(HTTPStatus.INTERNAL_SERVER_ERROR, "internal error: a bug, "
                                  "not your mistake; the serving terminal shows it",
                                  headers={"Connection": "close"})
            client = (scope.get("client") or ("?",))[0]
            self.bug(f"internal error serving {client}: a bug, not your mistake\n"
                     + traceback.format_exc())

    async def _route(self, answer: Answer, scope: Scope, receive: Receive) -> None:
        method = scope["method"]
        if scope.get("http_version") not in ("1.0", "1.1"):
            await answer.text(HTTPStatus.HTTP_VERSION_NOT_SUPPORTED, "send HTTP/1.1 (E68)",
                              headers={"Connection": "close"})
            return
        if method not in METHODS:
            await answer.text(HTTPStatus.NOT_IMPLEMENTED, f"no method {method} here (E68)",
                              headers={"Connection": "close"})
            return
        body = await self._body(answer, receive)
        if body is None:
            return
        raw = scope.get("raw_path") or scope["path"].encode()
        path = raw.decode("latin-1")
        if path.startswith("//"):  # read as "/" (no host can be smuggled in), as ever
            path = "/" + path.lstrip("/")
        sheet = TOKEN_PATH.fullmatch(path)
        asking = ASK_PATH.fullmatch(path)
        takes = "POST" if (path == "/station" and self.station) or asking else None
        gm = path == remote.GM_PATH and self.station is not None  # E220
        reads = "GET, HEAD" if path in READ_ROUTES or sheet or gm else None
        if method in ("GET", "HEAD") and reads:
            if path == "/":
                await self._table(answer)
            elif path == "/frame.json":
                await self._frame(answer)
            elif path == "/events":
                await self._events(answer, scope)
            elif gm:
                await self._remote(answer)
            else:
                assert sheet is not None
                await self._handout(answer, sheet.group(1))
        elif method == "POST" and asking:
            await self._ask(answer, asking.group(1), body)
        elif method == "POST" and takes:
            await self._station(answer, body)
        elif takes or reads:
            await answer.text(HTTPStatus.METHOD_NOT_ALLOWED, f"only {takes or reads} here "
                              "(E53)", headers={"Allow": takes or reads or ""})
        else:
            await answer.text(HTTPStatus.NOT_FOUND, "not found")

    async def _body(self, answer: Answer, receive: Receive) -> bytes | None:
        """The request body, at most MAX_BODY bytes; None after answering 411 or 413. A
        body too large is refused before it is asked for: a client that waits for ``100
        Continue`` never gets it (E191)."""
        if answer.header("transfer-encoding"):
            await answer.text(HTTPStatus.LENGTH_REQUIRED, "send a Content-Length, not chunks "
                              "(E68)", headers={"Connection": "close"})
            return None
        length = int(answer.header("content-length") or 0)  # h11 let only digits through
        if length > MAX_BODY:
            if "100-continue" not in answer.header("expect").lower():
                await drain(receive, min(length, DRAIN))  # so the client reads the answer
            await answer.text(HTTPStatus.REQUEST_ENTITY_TOO_LARGE,
                              f"a request body is at most {MAX_BODY} bytes (E53)",
                              headers={"Connection": "close"})
            return None
        if not length:
            return b""
        out = b""
        while True:
            message = await receive()
            out += bytes(message.get("body", b""))
            if not message.get("more_body"):
                return out

    # -- routes ------------------------------------------------------------------------------

    async def _cached(self) -> Any:
        """The frame: from the cache at once, or built in a thread (the loop answers on)."""
        cached = self.source.fresh()
        if cached is not None:
            return cached
        return await asyncio.get_running_loop().run_in_executor(self._reads,
                                                                self.source.current)

    async def _table(self, answer: Answer) -> None:
        cached = await self._cached()
        nonce = new_nonce()
        page = table_page(cached.data, cached.etag, nonce=nonce)
        await answer.send(HTTPStatus.OK, page.encode(), kind="text/html; charset=utf-8",
                          cache="no-cache", nonce=nonce)

    async def _frame(self, answer: Answer) -> None:
        cached = await self._cached()
        headers = {"ETag": cached.etag}
        wanted = answer.header("if-none-match")
        if cached.etag in [t.strip() for t in wanted.split(",")]:
            await answer.send(HTTPStatus.NOT_MODIFIED, headers=headers, cache="no-cache")
            return
        await answer.send(HTTPStatus.OK, cached.body, kind="application/json; charset=utf-8",
                          headers=headers, cache="no-cache")

    async def _events(self, answer: Answer, scope: Scope) -> None:
        """The push (E192): the frame at once, then each change, until the page goes."""
        hub = self.push
        host = str((scope.get("client") or ("",))[0])
        stream = hub.open(host) if hub is not None else None
        if hub is None or stream is None:
            await answer.text(HTTPStatus.SERVICE_UNAVAILABLE, "too many pages follow this "
                              "evening: poll /frame.json (E192)", headers={"Retry-After": "30"})
            return
        try:
            await answer.start(HTTPStatus.OK, kind="text/event-stream; charset=utf-8",
                               cache="no-cache", headers={"X-Accel-Buffering": "no"})
            if answer.head:
                return
            first = push.frame_event(await self._cached())
            await answer.chunk(b"retry: 1000\n\n" + first)
            while True:
                try:
                    await asyncio.wait_for(stream.ready.wait(), push.HEARTBEAT)
                    data = stream.take()
                except TimeoutError:
                    data = f"event: alive\ndata: {time.time():.3f}\n\n".encode()
                if answer.gone:
                    return
                if hub.closed:
                    await answer.chunk(b"", last=True)
                    return
                await answer.chunk(data)
        finally:
            hub.close(stream)

    async def _remote(self, answer: Answer) -> None:
        """The GM's remote (E220): the same page for everyone, with no data and no secret;
        what it shows it reads through ``POST /station`` with the token it was opened with."""
        nonce = new_nonce()
        page = remote.remote_page("Remote", nonce)
        await answer.send(HTTPStatus.OK, page.encode(), kind="text/html; charset=utf-8",
                          nonce=nonce)

    async def _handout(self, answer: Answer, token: str) -> None:
        found = self.access()
        name = found.assistant_for(token) if found is not None else None
        if name is None:  # an unknown token is no page at all (E52), and may be a replaced one
            await answer.text(HTTPStatus.NOT_FOUND, f"not found: no sheet here. {REPLACED} "
                              "(E66)")
            return
        nonce = new_nonce()
        key = (name, players.signature(self.evening),
               players.signature(asks.asks_path(self.evening)))  # E216: its requests too
        kept = self._sheets.get(name)
        if kept is not None and kept[0] == key:
            sheet, etag = kept[1], kept[2]
        else:  # once per change and assistant, however many ask (E192)
            try:
                sheet, etag = await asyncio.get_running_loop().run_in_executor(
                    self._reads, handout_sheet, self.evening, name)
            except RefereeError as exc:
                await answer.text(HTTPStatus.SERVICE_UNAVAILABLE, self.told(exc))
                return
            self._sheets[name] = (key, sheet, etag)
        page = sealed_sheet(sheet, etag, nonce)
        await answer.send(HTTPStatus.OK, page.encode(), kind="text/html; charset=utf-8",
                          headers={"ETag": etag}, nonce=nonce)

    async def _ask(self, answer: Answer, token: str, body: bytes) -> None:
        """A phone's request (R46, E217): only with an assistant's link, from a page of this
        server (its Origin, against forged requests from another site), as JSON of at most
        MAX_ASK bytes; queued for the GM, never recorded. Answered with one line for the
        phone, JSON ``{"ok", "line", "no"}``."""
        found = self.access()
        name = found.assistant_for(token) if found is not None else None
        if name is None:
            await answer.text(HTTPStatus.NOT_FOUND, f"not found: no sheet here. {REPLACED} "
                              "(E66)")
            return
        scheme = "https" if self.tls else "http"
        origin = answer.header("origin")
        if not origin or origin != f"{scheme}://{answer.header('host')}":
            await answer.text(HTTPStatus.FORBIDDEN, "a request is sent from the phone's own "
                              "page, which names this server as its Origin (E217)")
            return
        if answer.header("content-type").split(";")[0].strip().lower() != "application/json":
            await answer.text(HTTPStatus.UNSUPPORTED_MEDIA_TYPE, "send JSON (E217)")
            return
        if len(body) > MAX_ASK:
            await answer.text(HTTPStatus.REQUEST_ENTITY_TOO_LARGE,
                              f"a request is at most {MAX_ASK} bytes (E217)")
            return
        try:
            fields = json.loads(body.decode("utf-8"))
            if not isinstance(fields, dict) or not isinstance(fields.get("kind"), str):
                raise TypeError("no kind")
        except (ValueError, TypeError):
            await self._said(answer, HTTPStatus.BAD_REQUEST, "send JSON {\"kind\": "
                             "\"study\" | \"guess\" | \"bid\" | \"question\", ...} (E217)")
            return
        try:
            made = await asyncio.get_running_loop().run_in_executor(
                self._commands, _ask_now, self.evening, name, fields)
        except asks.TooMany as exc:
            await self._said(answer, HTTPStatus.TOO_MANY_REQUESTS, self.told(exc),
                             headers={"Retry-After": "60"})
            return
        except RefereeError as exc:
            await self._said(answer, HTTPStatus.CONFLICT, self.told(exc))
            return
        await self._said(answer, HTTPStatus.OK, f"Sent to the GM as request {made['no']} "
                         f"({made['what']}); nothing is recorded until the GM accepts it.",
                         no=made["no"])
        if self.push is not None:  # the GM's screens told at once (E172), after the phone
            await self.push.look()  # has its answer, before its page follows the change

    @staticmethod
    async def _said(answer: Answer, status: int, line: str, *, no: int | None = None,
                    headers: dict[str, str] | None = None) -> None:
        reply = {"ok": status == HTTPStatus.OK, "line": line, "no": no}
        await answer.send(status, json.dumps(reply).encode(),
                          kind="application/json; charset=utf-8", headers=headers)

    async def _station(self, answer: Answer, body: bytes) -> None:
        run = self.station
        assert run is not None  # routed here only when the server takes commands
        found = self.access()
        token = bearer(answer.header("authorization"))
        if not token:
            await answer.text(HTTPStatus.UNAUTHORIZED, "a station command needs the GM's "
                              "station token: --token T (E52)",
                              headers={"WWW-Authenticate": "Bearer"})
            return
        if found is None or not found.is_station(token):
            who = "an assistant's link" if found and found.assistant_for(token) else "this token"
            await answer.text(HTTPStatus.FORBIDDEN, f"{who} cannot send commands; use the "
                              "station token that `referee links` prints on the serving "
                              "machine (a new evening replaces it) (E52, E66)")
            return
        try:
            request = json.loads(body.decode("utf-8"))
            args = request["args"]
            if not isinstance(args, list) or not all(isinstance(a, str) for a in args):
                raise TypeError("args must be a list of strings")
        except (ValueError, KeyError, TypeError) as exc:
            await answer.text(HTTPStatus.BAD_REQUEST, f"send JSON {{\"args\": [...]}}: {exc}")
            return
        columns = request.get("columns")
        columns = columns if isinstance(columns, int) and 20 <= columns <= 500 else None
        tap = request.get("tap")  # E221: the remote's tap, a command line with an id
        if tap is None:
            await self._command(answer, run, args, columns, token)
            return
        if not isinstance(tap, str) or not remote.TAP_ID.fullmatch(tap):
            await answer.text(HTTPStatus.BAD_REQUEST, "a tap's id is 8 to 64 letters, digits, "
                              "- or _ (E222)")
            return
        try:
            sent, again = await self.taps.once(
                tap, args, lambda: self._run(run, args, columns, token))
        except remote.Repeated:
            await answer.text(HTTPStatus.CONFLICT, "this tap's id was sent with another "
                              "command line; a new tap takes a new id (E222)")
            return
        await answer.send(HTTPStatus.OK, sent, kind="application/json; charset=utf-8",
                          headers={"X-Tap": "again" if again else "new"})

    async def _command(self, answer: Answer, run: StationRunner, args: list[str],
                       columns: int | None, token: str) -> None:
        await answer.send(HTTPStatus.OK, await self._run(run, args, columns, token),
                          kind="application/json; charset=utf-8")

    async def _run(self, run: StationRunner, args: list[str], columns: int | None,
                   token: str) -> bytes:
        """One station command line run, the wall told, and the station's answer (JSON)."""
        code, out, err = await asyncio.get_running_loop().run_in_executor(
            self._commands, run, args, self.evening, columns)
        if self.push is not None:
            await self.push.look()  # the wall is told before the station (E192)
        reply: StationReply = {"exit": code, "stdout": out, "stderr": err}
        after = self.access()
        words = [a for a in args if not a.startswith("-")]
        if code == 0 and words[:1] == ["new"] and after is not None and \
                not after.is_station(token):
            # This very line made a new evening (E66): its new key, to the station that held
            # the old one, so it goes on. Never for another line: a token replaced meanwhile
            # (`serve --new-tokens`) is a key taken back, not handed to whoever asked.
            reply["token"] = after.station
        return json.dumps(reply).encode()


def _quiet_uvicorn(bug: BugReport) -> None:
    """uvicorn's own log: what it calls an error goes where the server's bugs go (the
    routes catch their own: this is for what escapes them); nothing else is printed."""
    class ToBug(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            if record.exc_info and isinstance(record.exc_info[1], asyncio.CancelledError):
                return  # a page's stream ended as the server stopped
            bug("internal error in the server: a bug, not your mistake\n" + self.format(record))

    log = logging.getLogger("uvicorn.error")
    log.handlers = [ToBug(logging.ERROR)]
    log.propagate = False


def _ask_now(evening: Path, assistant: str, fields: JSONObject) -> asks.Ask:
    """A phone's request checked against the evening as it is now and queued (R46)."""
    state = players.load_state(evening)
    return asks.ask(evening, state, assistant, str(fields.get("kind")), fields)


class StationReply(TypedDict):
    """The station's answer to a command line (E66): a new evening's key with it."""

    exit: int
    stdout: str
    stderr: str
    token: NotRequired[str]


def bearer(header: str) -> str:
    """The token of an ``Authorization: Bearer T`` header, else "" (the scheme's name is
    case-insensitive, as HTTP says, E66).

    >>> bearer("Bearer abc"), bearer("bearer  abc "), bearer("Basic abc"), bearer("Bearer")
    ('abc', 'abc', '', '')
    """
    scheme, _, token = header.strip().partition(" ")
    return token.strip() if scheme.lower() == "bearer" else ""


def make_server(evening: Path, host: str, port: int, *, station: StationRunner | None,
                bug: BugReport,
                tls: tuple[Path, Path] | None = None, season: bool = False,
                told: Told = _line) -> Server:
    """A server bound to ``host:port`` (port 0: any free one), over TLS with ``tls``; with
    ``station``, ``POST /station`` runs command lines through it; ``bug`` hears of the
    server's own bugs; ``told`` writes a refusal for a phone (E240).

    Raises:
        BadInput: the address is taken or cannot be bound, or the TLS files are unusable.
    """

    context = tls_context(*tls) if tls is not None else None  # E67: TLS 1.2 or newer
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(1024)
    except OSError as exc:
        sock.close()
        raise BadInput(f"cannot listen on {host}:{port}: {exc.strerror}; give another "
                       "--port") from None
    sock.setblocking(False)
    _more_files()
    return Server(sock, evening, station=station, bug=bug, tls=context, season=season,
                  told=told)


def _more_files() -> None:
    """As many open files as the system lets this process have: each connection is one."""
    try:
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        want = hard if hard != resource.RLIM_INFINITY else 65536
        if soft != resource.RLIM_INFINITY and soft < want:
            resource.setrlimit(resource.RLIMIT_NOFILE, (min(want, 65536), hard))
    except (ValueError, OSError):
        pass


