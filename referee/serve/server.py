"""The HTTP side of `referee serve`: routes, limits, headers. Imported only when serving.

The standard library's threading HTTP server; no web framework. Read routes answer GET and
HEAD only; ``POST /station`` exists only with ``--station`` and runs a command line under
the GM's station token through the runner the command line hands in (``referee.cli.station``,
the one in-process runner), under the evening's lock like any command typed in a terminal.
No route reaches the file system.
"""

from __future__ import annotations

import json
import re
import socket
import ssl
import sys
import threading
import time
import traceback
from collections.abc import Callable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import TYPE_CHECKING, Any, NotRequired, TypedDict, cast
from urllib.parse import urlsplit

from referee.errors import BadInput, RefereeError
from referee.serve import access, players
from referee.serve.frame import FrameSource, build_frame
from referee.serve.pages import REPLACED, content_policy, handout_page, new_nonce, table_page

if TYPE_CHECKING:
    import io

    from referee.serve.access import Access

#: Runs one station command line on the evening at a width: its exit status, stdout, stderr.
StationRunner = Callable[[list[str], Path, int | None], tuple[int, str, str]]
#: Where the server tells of a bug of its own (the command line passes the terminal's stderr).
BugReport = Callable[[str], None]

#: The largest request body read (a station command line is far smaller) (E53).
MAX_BODY = 16 * 1024
DRAIN = 1024 * 1024  # an oversized body up to this is read and dropped before the answer
TOKEN_PATH = re.compile(r"/a/([A-Za-z0-9_-]{16,128})")
#: Sent with every answer, error pages too (E53, E68); the Content-Security-Policy is made
#: for each answer, with the nonce of its page (E69).
SECURITY_HEADERS = {
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Resource-Policy": "same-origin",
}
#: Limits (E68): connections held at once, in all and from one address other than this
#: machine; seconds a kept-alive connection may stay silent; seconds to send a whole request
#: (line, headers, body) once its first byte came.
MAX_CONNECTIONS = 128
MAX_PER_ADDRESS = 32
IDLE_TIMEOUT = 15.0
REQUEST_TIME = 10.0


class Server(ThreadingHTTPServer):
    """One evening's server: where its file is, its frame cache, whether it takes commands,
    and the limits on its connections (E68)."""

    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 64

    def __init__(self, address: tuple[str, int], evening: Path, *, station: StationRunner | None,
                 bug: BugReport, tls: ssl.SSLContext | None = None,
                 season: bool = False) -> None:
        self.evening = evening
        self.station = station
        self.bug = bug
        self.tls = tls
        # E111: `serve --season` adds the season's standings to every frame.
        self.source: FrameSource = FrameSource(evening, build=(
            (lambda path: build_frame(path, season=True)) if season else build_frame))
        self._access: tuple[object, Access | None] = (False, None)
        self._count = threading.Lock()
        self.open = 0  # connections held now
        self._per_address: dict[str, int] = {}
        self.refused = 0  # connections answered 503 because the server was full (tests read it)
        self._deadlines: dict[socket.socket, float] = {}
        super().__init__(address, Handler)

    # -- connections (E68) -----------------------------------------------------------------

    def get_request(self) -> tuple[Any, Any]:
        """An accepted connection: no Nagle delay on the small answers of a poll, and TLS
        (its handshake runs later, in the connection's own thread, under its timeout)."""
        sock, address = self.socket.accept()
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        if self.tls is not None:
            sock = self.tls.wrap_socket(sock, server_side=True, do_handshake_on_connect=False)
        return sock, address

    def process_request(self, request: Any, client_address: Any) -> None:
        host = str(client_address[0])
        with self._count:
            mine = self._per_address.get(host, 0)
            full = self.open >= MAX_CONNECTIONS or (
                mine >= MAX_PER_ADDRESS and not _is_local(host))
            if not full:
                self.open += 1
                self._per_address[host] = mine + 1
            else:
                self.refused += 1
        if full:
            self._busy(request)
            self.shutdown_request(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self._release(host)
            raise

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self.expect(request, None)
            self._release(str(client_address[0]))

    def _release(self, host: str) -> None:
        with self._count:
            self.open -= 1
            left = self._per_address.get(host, 1) - 1
            if left > 0:
                self._per_address[host] = left
            else:
                self._per_address.pop(host, None)

    def _busy(self, request: Any) -> None:
        """A full server's answer (E68): 503 with every header, sent without a thread."""
        if self.tls is not None:
            return  # no handshake on the accepting thread: the connection is just closed

        head = "".join(f"{k}: {v}\r\n" for k, v in {
            **SECURITY_HEADERS, "Content-Security-Policy": content_policy(),
            "Retry-After": "5", "Connection": "close",
            "Content-Type": "text/plain; charset=utf-8", "Content-Length": str(len(_BUSY)),
        }.items())
        try:
            request.setblocking(False)
            request.send(f"HTTP/1.1 503 Service Unavailable\r\n{head}\r\n".encode() + _BUSY)
        except OSError:
            pass

    def expect(self, sock: Any, deadline: float | None) -> None:
        """Mark ``sock`` as sending a request until ``deadline`` (None: not any more)."""
        with self._count:
            if deadline is None:
                self._deadlines.pop(sock, None)
            else:
                self._deadlines[sock] = deadline

    def service_actions(self) -> None:
        """Between two polls of the accepting loop: a connection still sending one request
        after REQUEST_TIME is cut (a client dripping a byte at a time holds no thread)."""
        now = time.monotonic()
        with self._count:  # under the lock: a request that just came in whole is never cut
            for sock in [s for s, t in self._deadlines.items() if t < now]:
                del self._deadlines[sock]
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    # -- the rest --------------------------------------------------------------------------

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that hung up (or spoke no TLS) is no news; a bug goes to the server's own
        stderr (never into the answer of a station command being captured at that moment)."""
        exc = sys.exc_info()[1]
        if isinstance(exc, ConnectionError | TimeoutError | ssl.SSLError):
            return
        self.bug(f"internal error serving {client_address[0]}: a bug, not your mistake\n"
                 + traceback.format_exc())

    def access(self) -> Access | None:
        """The tokens, re-read when the access file changes (``serve --new-tokens`` elsewhere)."""
        key = players.signature(access.access_path(self.evening))
        if key != self._access[0]:
            self._access = (key, access.load_access(self.evening))
        return self._access[1]


_BUSY = b"the server is full: try again in a few seconds (E68)\n"


def _is_local(host: str) -> bool:
    return host.startswith("127.") or host in ("::1", "localhost")


class Handler(BaseHTTPRequestHandler):
    server: Server
    server_version = "referee"
    sys_version = ""
    protocol_version = "HTTP/1.1"
    #: A request line without a version is answered as HTTP/1.0 would be: with a status line
    #: and headers, never the bare body of HTTP/0.9 (E68).
    default_request_version = "HTTP/1.0"
    timeout = IDLE_TIMEOUT  # a connection silent this long is closed (E68)
    wbufsize = 64 * 1024  # an answer's head and body leave in one write
    _answered = False

    # -- plumbing --------------------------------------------------------------------------

    def log_message(self, format: str, *args: Any) -> None:
        pass  # the GM's terminal shows the URLs, not every poll

    def setup(self) -> None:
        super().setup()
        if self.server.tls is not None:  # the handshake is part of the first request's time
            self.server.expect(self.connection, time.monotonic() + REQUEST_TIME)
            try:
                self.connection.do_handshake()
            except (OSError, ValueError):
                self.close_connection = True
                self.rfile = _Closed()  # type: ignore[assignment]

    def _send(self, status: int, body: bytes = b"", *, kind: str = "text/plain; charset=utf-8",
              headers: dict[str, str] | None = None, cache: str = "no-store",
              nonce: str | None = None) -> None:
        """One answer with every header; a page built with ``nonce`` runs its own scripts
        and styles, and nothing else inline (E69)."""
        self._answered = True
        self.send_response(status)
        for name, value in SECURITY_HEADERS.items():
            self.send_header(name, value)
        self.send_header("Content-Security-Policy", content_policy(nonce))
        self.send_header("Cache-Control", cache)
        self.send_header("X-Server-Time", f"{time.time():.3f}")
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        if status != HTTPStatus.NOT_MODIFIED:
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD" and status != HTTPStatus.NOT_MODIFIED:
            self.wfile.write(body)
        self.wfile.flush()

    def send_error(self, code: int, message: str | None = None,
                   explain: str | None = None) -> None:
        """The parser's own refusals (a bad request line, a header too long, an unknown
        method) as every other answer: one plain line and every header (E68)."""
        self.close_connection = True
        text = (message or HTTPStatus(code).phrase).rstrip(".")
        self._text(code, f"{text} (E68)", headers={"Connection": "close"})

    def parse_request(self) -> bool:
        raw: bytes = getattr(self, "raw_requestline", b"")
        line = str(raw, "iso-8859-1").rstrip("\r\n")
        if len(line.split()) == 2:  # HTTP/0.9, `GET /` and no version: refused before any
            # header is awaited, with a status line and headers as every answer (E68)
            self.command, self.requestline = "", line
            self.request_version = self.default_request_version
            self.send_error(HTTPStatus.BAD_REQUEST, "send METHOD PATH HTTP/1.1: HTTP/0.9 is "
                            "not served")
            return False
        return super().parse_request()

    def handle_expect_100(self) -> bool:
        ok = super().handle_expect_100()
        self.wfile.flush()
        return ok

    def _text(self, status: int, text: str, **extra: Any) -> None:
        self._send(status, (text + "\n").encode(), **extra)

    def _body(self) -> bytes | None:
        """The request body, at most MAX_BODY bytes; None after answering 411 or 413. Once it
        is read the request is in, and the REQUEST_TIME clock stops (E68)."""
        try:
            return self._read_body()
        finally:
            self.server.expect(self.connection, None)

    def _read_body(self) -> bytes | None:
        length = self.headers.get("Content-Length")
        if self.headers.get("Transfer-Encoding"):
            self.close_connection = True
            self._text(HTTPStatus.LENGTH_REQUIRED, "send a Content-Length, not chunks")
            return None
        if length is None:
            return b""
        try:
            n = int(length)
        except ValueError:
            n = -1
        if n < 0 or n > MAX_BODY:
            self.close_connection = True
            left = min(max(n, 0), DRAIN)  # read and dropped (never kept), so the client
            while left > 0:               # reads the answer instead of a reset connection
                chunk = self.rfile.read(min(left, 65536))
                if not chunk:
                    break
                left -= len(chunk)
            self._text(HTTPStatus.REQUEST_ENTITY_TOO_LARGE,
                       f"a request body is at most {MAX_BODY} bytes (E53)")
            return None
        return self.rfile.read(n)

    def _route(self) -> str:
        return urlsplit(self.path).path

    # -- methods ---------------------------------------------------------------------------

    def handle_one_request(self) -> None:
        """One request; a bug in a route answers 500 (and is reported) instead of hanging up.

        The wait for its first byte is the idle timeout; from then on the whole request must
        arrive within REQUEST_TIME (E68), then the route runs as long as it needs.
        """
        self._answered = False
        try:
            reader = cast("io.BufferedReader", self.rfile)
            if not reader.peek(1):  # the client closed, or stayed silent (a timeout)
                self.close_connection = True
                return
        except (OSError, ValueError):
            self.close_connection = True
            return
        self.server.expect(self.connection, time.monotonic() + REQUEST_TIME)
        try:
            super().handle_one_request()
        except (ConnectionError, TimeoutError):
            raise
        except Exception:
            if not self._answered:
                self._text(HTTPStatus.INTERNAL_SERVER_ERROR, "internal error: a bug, not "
                           "your mistake; the serving terminal shows it")
            self.close_connection = True
            raise

    def do_GET(self) -> None:
        if self._body() is None:
            return
        path = self._route()
        if path == "/":
            self._table()
        elif path == "/frame.json":
            self._frame()
        elif (m := TOKEN_PATH.fullmatch(path)) is not None:
            self._handout(m.group(1))
        elif path == "/station":
            self._not_allowed("POST") if self.server.station else self._missing()
        else:
            self._missing()

    do_HEAD = do_GET

    def do_POST(self) -> None:
        body = self._body()
        if body is None:
            return
        path = self._route()
        if path == "/station" and self.server.station:
            self._station(body)
        elif path in ("/", "/frame.json") or TOKEN_PATH.fullmatch(path):
            self._not_allowed("GET, HEAD")
        else:
            self._missing()

    def _other(self) -> None:
        if self._body() is None:
            return
        path = self._route()
        if path == "/station" and self.server.station:
            self._not_allowed("POST")
        elif path in ("/", "/frame.json") or TOKEN_PATH.fullmatch(path):
            self._not_allowed("GET, HEAD")
        else:
            self._missing()

    do_PUT = do_DELETE = do_PATCH = do_OPTIONS = do_TRACE = do_CONNECT = _other

    def _missing(self) -> None:
        self._text(HTTPStatus.NOT_FOUND, "not found")

    def _not_allowed(self, allow: str) -> None:
        self._text(HTTPStatus.METHOD_NOT_ALLOWED, f"only {allow} here (E53)",
                   headers={"Allow": allow})

    # -- routes ----------------------------------------------------------------------------

    def _table(self) -> None:
        cached = self.server.source.current()
        nonce = new_nonce()
        page = table_page(cached.data, cached.etag, nonce=nonce)
        self._send(HTTPStatus.OK, page.encode(), kind="text/html; charset=utf-8",
                   cache="no-cache", nonce=nonce)

    def _frame(self) -> None:
        cached = self.server.source.current()
        headers = {"ETag": cached.etag}
        wanted = self.headers.get("If-None-Match", "")
        if cached.etag in [t.strip() for t in wanted.split(",")]:
            self._send(HTTPStatus.NOT_MODIFIED, headers=headers, cache="no-cache")
            return
        self._send(HTTPStatus.OK, cached.body, kind="application/json; charset=utf-8",
                   headers=headers, cache="no-cache")

    def _handout(self, token: str) -> None:
        access = self.server.access()
        name = access.assistant_for(token) if access is not None else None
        if name is None:  # an unknown token is no page at all (E52), and may be a replaced one
            self._text(HTTPStatus.NOT_FOUND, f"not found: no sheet here. {REPLACED} (E66)")
            return
        nonce = new_nonce()
        try:
            page, etag = handout_page(self.server.evening, name, nonce)
        except RefereeError as exc:
            self._text(HTTPStatus.SERVICE_UNAVAILABLE, exc.line)
            return
        self._send(HTTPStatus.OK, page.encode(), kind="text/html; charset=utf-8",
                   headers={"ETag": etag}, nonce=nonce)

    def _station(self, body: bytes) -> None:
        run = self.server.station
        assert run is not None  # routed here only when the server takes commands
        access = self.server.access()
        token = bearer(self.headers.get("Authorization", ""))
        if not token:
            self._text(HTTPStatus.UNAUTHORIZED, "a station command needs the GM's station "
                       "token: --token T (E52)", headers={"WWW-Authenticate": "Bearer"})
            return
        if access is None or not access.is_station(token):
            who = "an assistant's link" if access and access.assistant_for(token) else "this token"
            self._text(HTTPStatus.FORBIDDEN, f"{who} cannot send commands; use the station "
                       "token that `referee links` prints on the serving machine (a new "
                       "evening replaces it) (E52, E66)")
            return
        try:
            request = json.loads(body.decode("utf-8"))
            args = request["args"]
            if not isinstance(args, list) or not all(isinstance(a, str) for a in args):
                raise TypeError("args must be a list of strings")
        except (ValueError, KeyError, TypeError) as exc:
            self._text(HTTPStatus.BAD_REQUEST, f"send JSON {{\"args\": [...]}}: {exc}")
            return
        columns = request.get("columns")
        columns = columns if isinstance(columns, int) and 20 <= columns <= 500 else None
        code, out, err = run(args, self.server.evening, columns)
        reply: StationReply = {"exit": code, "stdout": out, "stderr": err}
        after = self.server.access()
        words = [a for a in args if not a.startswith("-")]
        if code == 0 and words[:1] == ["new"] and after is not None and \
                not after.is_station(token):
            # This very line made a new evening (E66): its new key, to the station that held
            # the old one, so it goes on. Never for another line: a token replaced meanwhile
            # (`serve --new-tokens`) is a key taken back, not handed to whoever asked.
            reply["token"] = after.station
        self._send(HTTPStatus.OK, json.dumps(reply).encode(),
                   kind="application/json; charset=utf-8")


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


class _Closed:
    """The reader of a connection whose TLS handshake failed: nothing more to read."""

    def peek(self, n: int = 0) -> bytes:
        return b""

    def readline(self, limit: int = -1) -> bytes:
        return b""

    def close(self) -> None:
        pass


def tls_context(cert: Path, key: Path) -> ssl.SSLContext:
    """A server's TLS context for ``serve --tls CERT KEY`` (E67): TLS 1.2 or newer.

    Raises:
        BadInput: a file is missing or unreadable, or the key does not fit the certificate.
    """

    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    try:
        context.load_cert_chain(cert, key)
    except FileNotFoundError as exc:
        raise BadInput(f"--tls: no file {exc.filename}; give CERT KEY, the certificate and "
                       "its private key as PEM files", ruling="E67") from None
    except (ssl.SSLError, OSError) as exc:
        what = getattr(exc, "reason", None) or getattr(exc, "strerror", None) or exc
        raise BadInput(f"--tls {cert} {key}: cannot use them ({what}); give a PEM "
                       "certificate and the private key that belongs to it", ruling="E67"
                       ) from None
    return context


def make_server(evening: Path, host: str, port: int, *, station: StationRunner | None,
                bug: BugReport,
                tls: tuple[Path, Path] | None = None, season: bool = False) -> Server:
    """A server bound to ``host:port`` (port 0: any free one), over TLS with ``tls``; with
    ``station``, ``POST /station`` runs command lines through it; ``bug`` hears of the
    server's own bugs.

    Raises:
        BadInput: the address is taken or cannot be bound, or the TLS files are unusable.
    """

    context = tls_context(*tls) if tls is not None else None
    try:
        return Server((host, port), evening, station=station, bug=bug, tls=context,
                      season=season)
    except OSError as exc:
        raise BadInput(f"cannot listen on {host}:{port}: {exc.strerror}; give another "
                       "--port") from None


