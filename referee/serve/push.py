"""The push of `referee serve` (E192): each change of the evening, sent to the pages that
show it as Server-Sent Events, the moment the server sees it. Imported only when serving.

The evening is written by other processes (the GM's shell, a station), each write an atomic
replace, so the server looks at the files' stat (inode, times, size) every ``WATCH_EVERY``
seconds: three ``stat`` calls, a few microseconds, no library and no thread. A station's
command, run by the server itself, is pushed before it is answered: the wall shows it as
the station reads its answer.

A stream (``GET /events``) carries two kinds of event: ``frame``, the wall's whole frame
when what the room sees changed (what ``/frame.json`` would answer), and ``change``, a
bare count on any change of the evening or its links (a phone's sheet then asks for itself:
no sheet travels on a stream every phone may open). An ``alive`` event every ``HEARTBEAT``
seconds tells a page its stream is alive; the pages poll only while their stream is down.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from referee.serve import access, players
from referee.serve.asks import asks_path, load_queue
from referee.serve.frame import Cached, FrameSource
from referee.serve.room import room_path

WATCH_EVERY = 0.01
HEARTBEAT = 2.0
#: Streams held at once, in all and from one address (E192): a page past them polls.
MAX_STREAMS = 512
MAX_STREAMS_PER_ADDRESS = 64


def frame_event(cached: Cached, now: float | None = None) -> bytes:
    """One ``frame`` event: the frame, its ETag and the server's time (the page's clock)."""
    stamp = time.time() if now is None else now
    head = f'{{"etag":{json.dumps(cached.etag)},"now":{stamp:.3f},"frame":'.encode()
    return b"event: frame\ndata: " + head + cached.body + b"}\n\n"


def change_event(count: int) -> bytes:
    return f"event: change\ndata: {count}\n\n".encode()


def asks_event(waiting: int) -> bytes:
    """An ``asks`` event (R46, E215): how many phone requests wait for the GM, and nothing
    of them (the stream is the room's; the GM reads them with the station token)."""
    return f'event: asks\ndata: {{"waiting":{waiting}}}\n\n'.encode()


class Stream:
    """One page's stream: the events not yet sent, only the newest frame kept."""

    def __init__(self, host: str) -> None:
        self.host = host
        self.frame: bytes | None = None
        self.change: bytes | None = None
        self.asks: bytes | None = None
        self.ready = asyncio.Event()

    def put(self, frame: bytes | None, change: bytes | None, asks: bytes | None = None
            ) -> None:
        if frame is not None:
            self.frame = frame
        if change is not None:
            self.change = change
        if asks is not None:
            self.asks = asks
        self.ready.set()

    def take(self) -> bytes:
        out = (self.frame or b"") + (self.asks or b"") + (self.change or b"")
        self.frame = self.change = self.asks = None
        self.ready.clear()
        return out


class Push:
    """The watcher of one evening and the streams it feeds."""

    def __init__(self, evening: Path, source: FrameSource, *,
                 build: Callable[[], Cached] | None = None) -> None:
        self.evening = evening
        self.source = source
        self.streams: set[Stream] = set()
        self.changes = 0  # how many changes were seen (the ``change`` events' count)
        self.closed = False
        self._looking = asyncio.Lock()
        self._builder = ThreadPoolExecutor(1, thread_name_prefix="push")
        self._key: tuple[object, ...] = self._signature()
        self._etag: str | None = None

    def _signature(self) -> tuple[object, ...]:
        return (players.signature(self.evening), players.signature(room_path(self.evening)),
                players.signature(access.access_path(self.evening)),
                players.signature(asks_path(self.evening)))

    def open(self, host: str) -> Stream | None:
        """A new stream from ``host``, or None past MAX_STREAMS (the page polls instead)."""
        mine = sum(1 for s in self.streams if s.host == host)
        if len(self.streams) >= MAX_STREAMS or mine >= MAX_STREAMS_PER_ADDRESS:
            return None
        stream = Stream(host)
        self.streams.add(stream)
        return stream

    def close(self, stream: Stream) -> None:
        self.streams.discard(stream)

    def close_all(self) -> None:
        """The server stops: every stream ends (its page then polls, or tries again)."""
        self.closed = True
        for stream in self.streams:
            stream.ready.set()
        self._builder.shutdown(wait=False, cancel_futures=True)


    async def watch(self) -> None:
        """Until cancelled: every WATCH_EVERY seconds, a look at the files."""
        while True:
            await asyncio.sleep(WATCH_EVERY)
            await self.look()

    async def look(self) -> None:
        """On a change of the files, the frame built (in a thread of the push's own: the
        loop keeps answering, and no page's request is ahead of it) and pushed."""
        async with self._looking:
            key = self._signature()
            if key == self._key:
                return
            was, self._key = self._key, key
            self.changes += 1
            loop = asyncio.get_running_loop()
            cached = await loop.run_in_executor(self._builder, self.source.current)
            frame = None
            if cached.etag != self._etag:
                self._etag = cached.etag
                frame = frame_event(cached)
            change = change_event(self.changes)
            asked = None
            if was[3] != key[3]:  # the queue changed (E215)
                queue = await loop.run_in_executor(self._builder, load_queue, self.evening)
                asked = asks_event(sum(1 for a in queue.asks if a["status"] == "open"))
            for stream in list(self.streams):
                stream.put(frame, change, asked)
