"""The HTTP side of `referee serve`: routes, limits, headers. Imported only when serving.

The standard library's threading HTTP server; no web framework. Read routes answer GET and
HEAD only; ``POST /station`` exists only with ``--station`` and runs a command line under
the GM's station token through the one in-process runner (``referee.cli.runner``), under
the evening's lock like any command typed in a terminal. No route reaches the file system.
"""

from __future__ import annotations

import json
import re
import sys
import time
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

if TYPE_CHECKING:
    from referee.serve import Access, FrameSource

#: The largest request body read (a station command line is far smaller) (E53).
MAX_BODY = 16 * 1024
DRAIN = 1024 * 1024  # an oversized body up to this is read and dropped before the answer
TOKEN_PATH = re.compile(r"/a/([A-Za-z0-9_-]{16,128})")
SECURITY_HEADERS = {
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": ("default-src 'none'; style-src 'unsafe-inline'; "
                                "script-src 'unsafe-inline'; connect-src 'self'; "
                                "img-src 'self' data:; frame-ancestors 'none'; "
                                "base-uri 'none'; form-action 'none'"),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Resource-Policy": "same-origin",
}


class Server(ThreadingHTTPServer):
    """One evening's server: where its file is, its frame cache, whether it takes commands."""

    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 64

    def __init__(self, address: tuple[str, int], evening: Path, *, station: bool) -> None:
        from referee.serve import FrameSource

        self.evening = evening
        self.station = station
        self.source: FrameSource = FrameSource(evening)
        self._access: tuple[object, Access | None] = (False, None)
        super().__init__(address, Handler)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that hung up is no news; a bug goes to the server's own stderr (never
        into the answer of a station command being captured at that moment)."""
        import traceback

        exc = sys.exc_info()[1]
        if isinstance(exc, ConnectionError | TimeoutError):
            return
        print(f"internal error serving {client_address[0]}: a bug, not your mistake",
              file=sys.__stderr__)
        traceback.print_exc(file=sys.__stderr__)

    def access(self) -> Access | None:
        """The tokens, re-read when the access file changes (``serve --new-tokens`` elsewhere)."""
        from referee import live, serve

        key = live.signature(serve.access_path(self.evening))
        if key != self._access[0]:
            self._access = (key, serve.load_access(self.evening))
        return self._access[1]


class Handler(BaseHTTPRequestHandler):
    server: Server
    server_version = "referee"
    sys_version = ""
    protocol_version = "HTTP/1.1"
    timeout = 15  # a client that stops talking frees its thread
    _answered = False

    # -- plumbing --------------------------------------------------------------------------

    def log_message(self, format: str, *args: Any) -> None:
        pass  # the GM's terminal shows the URLs, not every poll

    def _send(self, status: int, body: bytes = b"", *, kind: str = "text/plain; charset=utf-8",
              headers: dict[str, str] | None = None, cache: str = "no-store") -> None:
        self._answered = True
        self.send_response(status)
        for name, value in SECURITY_HEADERS.items():
            self.send_header(name, value)
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

    def _text(self, status: int, text: str, **extra: Any) -> None:
        self._send(status, (text + "\n").encode(), **extra)

    def _body(self) -> bytes | None:
        """The request body, at most MAX_BODY bytes; None after answering 411 or 413."""
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
        """One request; a bug in a route answers 500 (and is reported) instead of hanging up."""
        self._answered = False
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
        from referee.serve import table_page

        cached = self.server.source.current()
        page = table_page(cached.data, cached.etag)
        self._send(HTTPStatus.OK, page.encode(), kind="text/html; charset=utf-8",
                   cache="no-cache")

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
        from referee.errors import RefereeError
        from referee.serve import handout_page

        access = self.server.access()
        name = access.assistant_for(token) if access is not None else None
        if name is None:
            self._missing()  # an unknown token is no page at all (E52)
            return
        try:
            page, etag = handout_page(self.server.evening, name)
        except RefereeError as exc:
            self._text(HTTPStatus.SERVICE_UNAVAILABLE, exc.line)
            return
        self._send(HTTPStatus.OK, page.encode(), kind="text/html; charset=utf-8",
                   headers={"ETag": etag})

    def _station(self, body: bytes) -> None:
        from referee.cli import station

        access = self.server.access()
        header = self.headers.get("Authorization", "")
        token = header.removeprefix("Bearer ").strip() if header.startswith("Bearer ") else ""
        if not token:
            self._text(HTTPStatus.UNAUTHORIZED, "a station command needs the GM's station "
                       "token: --token T (E52)", headers={"WWW-Authenticate": "Bearer"})
            return
        if access is None or not access.is_station(token):
            who = "an assistant's link" if access and access.assistant_for(token) else "this token"
            self._text(HTTPStatus.FORBIDDEN, f"{who} cannot send commands; use the station "
                       "token that `referee serve --station` printed (E52)")
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
        code, out, err = station.run_remote(args, self.server.evening, columns)
        answer = json.dumps({"exit": code, "stdout": out, "stderr": err}).encode()
        self._send(HTTPStatus.OK, answer, kind="application/json; charset=utf-8")


def make_server(evening: Path, host: str, port: int, *, station: bool) -> Server:
    """A server bound to ``host:port`` (port 0: any free one).

    Raises:
        BadInput: the address is taken or cannot be bound.
    """
    from referee.errors import BadInput

    try:
        return Server((host, port), evening, station=station)
    except OSError as exc:
        raise BadInput(f"cannot listen on {host}:{port}: {exc.strerror}; give another "
                       "--port") from None


