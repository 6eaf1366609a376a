"""The GM's remote (E220-E223): ``GET /gm``, a page for a phone held in one hand at the table,
and the memory of its taps, so a tap sent again after a moment offline is answered once and
applied once. Imported only when serving.

The page holds no secret and no data: the station token travels in the address's fragment
(``/gm#TOKEN``), which a browser never sends, and the page sends it as the station does, an
``Authorization: Bearer`` header on ``POST /station``. What it shows it reads with command
lines (``status --json``, ``requests --json``), and every tap is the command line the shell
would run, through the same route and the same checks: read by the command line's parser,
its move made through the table's API.
"""

from __future__ import annotations

import asyncio
import html
import re
from collections import OrderedDict
from collections.abc import Awaitable, Callable

from referee.content.scenario import data_file
from referee.serve.pages import seal

#: The path of the remote's page (E220).
GM_PATH = "/gm"
#: A tap's id, as the page makes it: 128 random bits, hex (E222).
TAP_ID = re.compile(r"[A-Za-z0-9_-]{8,64}")
#: How many taps the server remembers (E222): a phone resends only its last tap.
KEPT = 256

_TEMPLATE: str | None = None


def remote_page(title: str, nonce: str) -> str:
    """The remote's page: its template's scripts and style sealed with ``nonce`` (E69)
    before the evening's title (escaped) goes in."""
    global _TEMPLATE
    if _TEMPLATE is None:
        _TEMPLATE = data_file("remote.html").read_text(encoding="utf-8")
    return seal(_TEMPLATE, nonce).replace("{{TITLE}}", html.escape(title), 1)


class Repeated(Exception):
    """A tap id already used for another command line (E222)."""


class Taps:
    """The last ``KEPT`` taps of the evening served, each with its command line and its
    answer (E222): a tap seen again is answered what it was answered, and its command is not
    run again; one still running is waited for. Kept in the server's memory, not beside the
    evening: a phone resends a tap for seconds, never across a restart of the server."""

    def __init__(self, kept: int = KEPT) -> None:
        self.kept = kept
        self._taps: OrderedDict[str, tuple[list[str], asyncio.Future[bytes]]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._taps)

    async def once(self, tap: str, args: list[str],
                   run: Callable[[], Awaitable[bytes]]) -> tuple[bytes, bool]:
        """The answer to ``tap``, and whether it was an answer given before: ``run`` is
        awaited only the first time the id is seen.

        Raises:
            Repeated: the id was used for another command line.
        """
        seen = self._taps.get(tap)
        if seen is not None:
            if seen[0] != args:
                raise Repeated(tap)
            return await asyncio.shield(seen[1]), True
        # A task of its own: a phone that goes away mid-command (the very moment a resend
        # is for) cancels its request, never the command, whose answer waits for the resend.
        task = asyncio.ensure_future(run())
        self._taps[tap] = (list(args), task)
        while len(self._taps) > self.kept:
            self._taps.popitem(last=False)
        return await asyncio.shield(task), False
