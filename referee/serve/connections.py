"""The connections of `referee serve` (E68): uvicorn's HTTP/1.1 protocol (h11 parses every
request) with the limits a room of phones needs. Imported only when serving.

- A connection costs no thread: a thousand silent ones from one address cost memory only,
  and the wall still answers at once (E191).
- When the server, or one address, holds all it may, the connection silent the longest is
  closed to make room; a newcomer is told 503 only when every connection is mid-request.
- A connection that says nothing for ``IDLE_TIMEOUT`` is closed; a request must arrive whole
  (line, headers, body) within ``REQUEST_TIME`` of its first byte.
- What h11 refuses (a broken request line, a head too long, two Content-Length headers or
  one that is no number) is answered as every other answer: one plain line and every
  security header (E68, E191).
- ``serve --tls CERT KEY`` wraps them in TLS 1.2 or newer (E67, ``tls_context``).
"""

from __future__ import annotations

import asyncio
import socket
import ssl
from collections import OrderedDict
from http import HTTPStatus
from pathlib import Path
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from referee.errors import BadInput
from referee.serve.pages import content_policy

#: Sent with every answer, error pages too (E53, E68); the Content-Security-Policy is made
#: for each answer, with the nonce of its page (E69).
SECURITY_HEADERS = {
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Resource-Policy": "same-origin",
}
#: Limits (E68, E191): connections held at once, in all and from one address; seconds a
#: connection may stay silent between requests; seconds to send a whole request once its
#: first byte came; the largest request head (line and headers).
MAX_CONNECTIONS = 4096
MAX_PER_ADDRESS = 2048
IDLE_TIMEOUT = 15.0
REQUEST_TIME = 10.0
MAX_HEAD = 64 * 1024
MAX_HEADERS = 100
LINGER = 2.0  # seconds a refused connection is read (and dropped) before it is closed


def plain_answer(status: int, text: str, extra: dict[str, str] | None = None) -> bytes:
    """A whole answer, head and body, of one plain line with every header, which closes the
    connection: for what is refused before any route runs."""
    body = (text + "\n").encode()
    headers = {**SECURITY_HEADERS, "Content-Security-Policy": content_policy(),
               "Cache-Control": "no-store", **(extra or {}), "Connection": "close",
               "Content-Type": "text/plain; charset=utf-8", "Content-Length": str(len(body))}
    head = "".join(f"{k}: {v}\r\n" for k, v in headers.items())
    return f"HTTP/1.1 {status} {HTTPStatus(status).phrase}\r\n{head}\r\n".encode() + body


_BUSY = plain_answer(503, "the server is full: try again in a few seconds (E68)",
                     {"Retry-After": "5"})


class Limits:
    """Every connection of one server, the longest silent first, and how many were refused
    (tests read ``open`` and ``refused``)."""

    def __init__(self) -> None:
        self.held: OrderedDict[Connection, str] = OrderedDict()  # least recently active first
        self.per_address: dict[str, int] = {}
        self.refused = 0
        self.evicted = 0

    @property
    def open(self) -> int:
        return len(self.held)

    def admit(self, conn: Connection, host: str) -> bool:
        """Make room for ``conn`` from ``host``: False when every connection is busy."""
        if self.per_address.get(host, 0) >= MAX_PER_ADDRESS and not self._evict(host):
            self.refused += 1
            return False
        if len(self.held) >= MAX_CONNECTIONS and not self._evict(None):
            self.refused += 1
            return False
        self.held[conn] = host
        self.per_address[host] = self.per_address.get(host, 0) + 1
        return True

    def _evict(self, host: str | None) -> bool:
        for other, where in self.held.items():
            if (host is None or where == host) and other.silent():
                self.evicted += 1
                other.close()
                self.release(other)
                return True
        return False

    def touch(self, conn: Connection) -> None:
        if conn in self.held:
            self.held.move_to_end(conn)

    def release(self, conn: Connection) -> None:
        host = self.held.pop(conn, None)
        if host is None:
            return
        left = self.per_address.get(host, 1) - 1
        if left > 0:
            self.per_address[host] = left
        else:
            self.per_address.pop(host, None)


class Connection(H11Protocol):
    """One client's connection: uvicorn's protocol, under the server's ``Limits``."""

    limits: Limits  # set on the class made for each server (``protocol_for``)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None
        self._idle: asyncio.TimerHandle | None = None
        self._refusal: h11.RemoteProtocolError | None = None
        self._head = b""
        self._admitted = False
        parse = self.conn.next_event

        def next_event() -> Any:  # h11's parser, with the raw head kept for the refusals
            if self.conn.their_state is h11.IDLE:
                self._head = bytes(self.conn._receive_buffer)[: MAX_HEAD + 2]  # noqa: SLF001
            try:
                event = parse()
                if isinstance(event, h11.Request):
                    self._check_head(event)
            except h11.RemoteProtocolError as exc:
                self._refusal = exc
                raise
            return event

        self.conn.next_event = next_event  # type: ignore[method-assign]

    # -- the limits ------------------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        sock = transport.get_extra_info("socket")
        if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # small answers at once
        peer = transport.get_extra_info("peername")
        host = str(peer[0]) if peer else ""
        super().connection_made(transport)  # type: ignore[arg-type]
        if not self.limits.admit(self, host):
            self._refuse(_BUSY)
            return
        self._admitted = True
        self._arm_idle()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel()
        self.limits.release(self)
        super().connection_lost(exc)

    def silent(self) -> bool:
        """Between requests, nothing of the next one received, no answer being sent (a
        page's stream of events is an answer being sent)."""
        return (self.conn.their_state is h11.IDLE and not self.conn.trailing_data[0]
                and (self.cycle is None or self.cycle.response_complete))

    def close(self) -> None:
        self._cancel()
        if not self.transport.is_closing():
            self.transport.close()

    def _refuse(self, answer: bytes) -> None:
        """Send ``answer`` and close, reading (and dropping) what the client still sends
        for a moment, so that it reads the answer instead of a reset connection."""
        self._cancel()
        self._admitted = False
        self.transport.write(answer)
        if self.transport.can_write_eof():
            self.transport.write_eof()
            self._idle = self.loop.call_later(LINGER, self.transport.close)
        else:
            self.transport.close()

    def eof_received(self) -> None:
        if not self._admitted:
            self.transport.close()

    def _cancel(self) -> None:
        for timer in (self._deadline, self._idle):
            if timer is not None:
                timer.cancel()
        self._deadline = self._idle = None

    def _arm_idle(self) -> None:
        if self._idle is not None:
            self._idle.cancel()
        self._idle = self.loop.call_later(IDLE_TIMEOUT, self._silent_too_long)

    def _silent_too_long(self) -> None:
        if self.silent():
            self.close()

    def _cut(self) -> None:
        """A request still arriving after REQUEST_TIME is cut (a client dripping a byte at a
        time holds nothing for long)."""
        self._deadline = None
        if self.conn.their_state in (h11.IDLE, h11.SEND_BODY) and not self._request_in():
            self.close()

    def _request_in(self) -> bool:
        if self.conn.their_state is h11.IDLE:
            return not self.conn.trailing_data[0]
        return self.cycle is not None and not self.cycle.more_body

    def data_received(self, data: bytes) -> None:
        if not self._admitted:
            return
        self.limits.touch(self)
        if self._idle is not None:
            self._idle.cancel()
            self._idle = None
        if self._deadline is None and self.conn.their_state is h11.IDLE:
            self._deadline = self.loop.call_later(REQUEST_TIME, self._cut)
        super().data_received(data)
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            waiting = self.conn.trailing_data[0]
            if b"\n" in waiting and len(waiting.split(b"\n", 1)[0].split()) == 2:
                self._head = waiting  # `GET /` and no version: HTTP/0.9, refused at once
                self.send_400_response("")
                return
        if self._deadline is not None and self._request_in() and \
                self.conn.their_state is not h11.IDLE:
            self._deadline.cancel()
            self._deadline = None

    def on_response_complete(self) -> None:
        self.limits.touch(self)
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm_idle()

    # -- what h11 refuses --------------------------------------------------------------------

    def _check_head(self, event: h11.Request) -> None:
        """A request h11 reads but this server refuses on its head alone: two Content-Length
        headers even when alike, or a list in one (E191); more headers than MAX_HEADERS."""
        head = self._head.split(b"\r\n\r\n", 1)[0].split(b"\n")[1:]
        lengths = [line for line in head if line.lower().startswith(b"content-length")]
        if len(lengths) > 1 or any(b"," in line for line in lengths):
            raise h11.RemoteProtocolError("send one Content-Length header, once (E191)", 400)
        if len(event.headers) > MAX_HEADERS:
            raise h11.RemoteProtocolError(f"at most {MAX_HEADERS} headers (E68)", 431)

    def send_400_response(self, msg: str) -> None:
        """What h11 (or ``_check_head``) refused, in words, with every header (E68)."""
        exc = self._refusal
        head = self._head
        first = head.split(b"\n", 1)[0]
        status = exc.error_status_hint if exc is not None else 400
        if b"\n" not in head and len(head) > MAX_HEAD:
            status, text = 414, "URI too long: a request line is at most 64 KiB"
        elif b"\n" in head and len(first.split()) == 2:
            status, text = 400, "send METHOD PATH HTTP/1.1: HTTP/0.9 is not served"
        elif status == 431 and exc is not None and "headers" in str(exc):
            text = f"request header fields too large: {exc}"
        elif status == 431:
            status, text = 431, "request header fields too large: a request head is at most 64 KiB"
        else:
            reason = str(exc) if exc is not None else msg
            text = f"bad request: {reason}"
        if "(E" not in text:
            text += " (E68)"
        self._refuse(plain_answer(status, text))


def protocol_for(limits: Limits) -> type[Connection]:
    """The protocol class of one server: its connections share ``limits``."""
    return type("ServedConnection", (Connection,), {"limits": limits})


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
