"""One request's answer in `referee serve`: its status, every header on it (E53, E68), its own
nonce (E69), whole or in chunks (the push); and the ASGI messages uvicorn hands over."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, MutableMapping
from http import HTTPStatus
from typing import Any

from referee.serve.connections import SECURITY_HEADERS
from referee.serve.pages import content_policy

#: An ASGI message, and the scope of a connection, as uvicorn hands them over.
Message = MutableMapping[str, Any]
Scope = Message
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]


async def drain(receive: Receive, limit: int) -> None:
    """Read and drop up to ``limit`` bytes of a body (never kept)."""
    left = limit
    while left > 0:
        message = await receive()
        left -= len(message.get("body", b""))
        if message.get("type") != "http.request" or not message.get("more_body"):
            return


class Answer:
    """The answer to one request: every header on it (E53, E68), its own nonce (E69)."""

    def __init__(self, scope: Scope, send: Send) -> None:
        self.scope = scope
        self._send = send
        self.started = False
        self.head = scope["method"] == "HEAD"
        self.gone = False
        self._headers: dict[str, str] = {k.decode("latin-1"): v.decode("latin-1")
                         for k, v in scope.get("headers", [])}

    def header(self, name: str) -> str:
        return self._headers.get(name, "")

    def _head(self, status: int, kind: str | None, cache: str, nonce: str | None,
              headers: dict[str, str] | None, length: int | None) -> list[tuple[bytes, bytes]]:
        out = {**SECURITY_HEADERS, "Content-Security-Policy": content_policy(nonce),
               "Cache-Control": cache, "X-Server-Time": f"{time.time():.3f}",
               **(headers or {})}
        if kind is not None and status != HTTPStatus.NOT_MODIFIED:
            out["Content-Type"] = kind
        if length is not None and status != HTTPStatus.NOT_MODIFIED:
            out["Content-Length"] = str(length)
        return [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in out.items()]

    async def send(self, status: int, body: bytes = b"", *,
                   kind: str = "text/plain; charset=utf-8", headers: dict[str, str] | None = None,
                   cache: str = "no-store", nonce: str | None = None) -> None:
        """One whole answer; a page built with ``nonce`` runs its own scripts and styles,
        and nothing else inline (E69)."""
        self.started = True
        await self._send({"type": "http.response.start", "status": int(status),
                          "headers": self._head(status, kind, cache, nonce, headers,
                                                len(body))})
        await self._send({"type": "http.response.body",
                          "body": b"" if status == HTTPStatus.NOT_MODIFIED else body})

    async def text(self, status: int, text: str, **extra: Any) -> None:
        await self.send(status, (text + "\n").encode(), **extra)

    async def start(self, status: int, *, kind: str, cache: str,
                    headers: dict[str, str] | None = None) -> None:
        """The head of an answer whose body follows in chunks (the push)."""
        self.started = True
        await self._send({"type": "http.response.start", "status": int(status),
                          "headers": self._head(status, kind, cache, None, headers, None)})
        if self.head:
            await self._send({"type": "http.response.body", "body": b""})

    async def chunk(self, data: bytes, *, last: bool = False) -> None:
        try:
            await self._send({"type": "http.response.body", "body": data,
                              "more_body": not last})
        except OSError:
            self.gone = True
