"""The wall: what the GM puts on the room's screen, kept in ``PATH.room`` beside the evening
(E82), never in its log."""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

from referee.errors import DryRunDone, StoreError
from referee.jsontypes import JSON, JSONObject
from referee.storage.files import atomic_write
from referee.storage.lock import beside_the_evening

if TYPE_CHECKING:
    from referee.evening.clock import Paused


# -- the wall: what the GM puts on the room's screen ----------------------------------------------

#: The wall's file beside the evening: ``PATH.room`` (E82).
ROOM_SUFFIX = ".room"
#: The longest announcement the wall takes (E82).
MAX_ANNOUNCEMENT = 200


class WallAnnounce(TypedDict):
    text: str
    until: float | None


class WallBreak(TypedDict):
    minutes: JSON
    until: float


#: The wall as the page shows it; ``break`` is a keyword, so this record is written this way.
Wall = TypedDict("Wall", {"blank": bool, "announce": WallAnnounce | None,
                          "break": WallBreak | None})


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
    announce: JSONObject | None = None  # {"text", "at", "until" (None: until `room show`)}
    pause: JSONObject | None = None     # the break: {"minutes", "at", "until"}
    more: JSONObject = field(default_factory=dict)

    def to_json(self) -> JSONObject:
        return {**self.more, "blank": self.blank, "announce": self.announce,
                "break": self.pause}

    @classmethod
    def from_json(cls, data: JSONObject) -> Room:
        known = ("blank", "announce", "break")
        announce, pause = data.get("announce"), data.get("break")
        return cls(blank=data.get("blank") is True,
                   announce=announce if isinstance(announce, dict)
                   and isinstance(announce.get("text"), str)
                   and isinstance(announce.get("until"), int | float | None) else None,
                   pause=pause if isinstance(pause, dict)
                   and isinstance(pause.get("until"), int | float) else None,
                   more={k: v for k, v in data.items() if k not in known})

    def wall(self, now: float) -> Wall:
        """What the page shows at ``now``: an announcement or a break that has run out is
        gone (the page also ends them itself when their time comes)."""
        announce, pause = self.announce, self.pause
        until = _time(announce.get("until")) if announce else None
        if announce and until is not None and until <= now:
            announce = None
        pause_until = _time(pause.get("until")) if pause else None
        if pause_until is None or pause_until <= now:
            pause = None
        return {"blank": self.blank,
                "announce": None if announce is None else {
                    "text": str(announce["text"]), "until": until},
                "break": None if pause is None or pause_until is None else {
                    "minutes": pause.get("minutes"), "until": pause_until}}

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


def with_clock(room: Room, paused: Paused | None) -> Room:
    """The wall with the evening's break on it (R47): a break is a move of the evening, kept
    in its log, and the wall counts it down as it did its own (E82)."""
    if paused is None or paused["until"] is None:
        return room
    return dataclasses.replace(room, pause={"minutes": paused["minutes"],
                                            "at": paused["since"], "until": paused["until"]})


def _time(value: JSON) -> float | None:
    """A time of the wall's file (``from_json`` checked it is a number)."""
    return value if isinstance(value, int | float) else None


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


def change_room(evening: Path, change: Callable[[Room], Room], *, dry: bool = False) -> Room:
    """Apply ``change`` to the wall beside ``evening`` and write it atomically, under the
    evening's lock (two stations cannot lose each other's change). The evening file itself
    is neither read nor written (E82).

    Raises:
        StoreError: no evening file there, the evening is busy, or the wall cannot be written.
    """
    with beside_the_evening(evening, "the wall belongs to an evening"):
        was = load_room(evening)
        room = change(was)
        target = room_path(evening)

        if dry:  # E133: the wall as it would be; nothing is written

            now = time.time()
            raise DryRunDone(text=None, wall=(was.says(now), room.says(now)))
        try:
            atomic_write(target, json.dumps(room.to_json(), ensure_ascii=False, indent=1))
        except OSError as exc:
            raise StoreError(f"cannot write the wall's file {target}: {exc.strerror}; give "
                             "an evening in a writable folder") from None
        return room


