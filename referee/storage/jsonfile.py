"""The storage of the evening file (TinyDB's JSON layout): read once, written once per
command, atomically."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from referee.errors import StoreError
from referee.storage.backups import damaged_message
from referee.storage.files import (
    commit_file,
    encode_checked,
    frame_parts,
    frame_tables,
    read_evening_digest,
)

if TYPE_CHECKING:
    from referee.jsontypes import JSONObject
    from referee.storage.tables import Tables


#: From this size of the evening file on, a write encodes it row by row (E99): below it, the
#: whole file's text and bytes at once cost at most a few MB more, and half the time.
ROW_BY_ROW = 4 * 1024 * 1024


class AtomicJSONStorage:
    """The evening file's tables, read once and written only on ``flush``, atomically.

    TinyDB's stock JSONStorage rewrites the file in place on every operation; a
    kill in that window leaves a broken file. Here every write lands in memory and
    one ``flush`` per command replaces the file whole. The store reads and writes
    the tables in TinyDB's layout itself (``referee.storage.store``), without
    importing TinyDB.
    """

    def __init__(self, path: str | Path, *, audit: bool = False,
                 known: bytes | bytearray | None = None) -> None:
        self.path = path if isinstance(path, Path) else Path(path)
        self._data: JSONObject | None = None  # the file as read
        self._read = False
        self._written: Tables | None = None   # the tables to write on ``flush``
        self._parts: list[bytes | memoryview] | None = None  # or their JSON, encoded already
        self.dirty = False
        self.audit = audit
        #: The bytes this process last wrote here (``referee.storage.memo``), if it kept them.
        self.known = known
        #: Whether the file was still those bytes when read: its tables were not decoded.
        self.unchanged = False
        #: Whether the file's checksum matched (None: written without one).
        self.checked: bool | None = None
        #: The file's answer slot as read (E41), and the one to write with the next flush.
        self.slot: str | None = None
        self.next_slot: str | None = None
        #: The SHA-256 of the file as read or last written, when its checksum matched.
        self.digest: bytes | None = None
        #: The bytes of the last flush.
        self.out: bytearray | None = None

    def read(self) -> JSONObject | None:
        """The file's JSON as read (once), None when there is no file, or when it is still
        the bytes ``known`` (``unchanged``: it was not decoded)."""
        if not self._read:
            data, self.checked, what, self.slot, self.digest = read_evening_digest(
                self.path, None if self.audit else self.known)
            if what is not None:
                raise StoreError(damaged_message(self.path, what))
            if self.checked is False and not self.audit:
                # A byte changed since the referee wrote it (E40): never build on it.
                raise StoreError(damaged_message(
                    self.path, "its checksum does not match: it was changed outside the referee"))
            self._data = data
            self.unchanged = data is None and self.checked is True
            self._read = True
        return self._data

    def write(self, data: Tables) -> None:
        self._written, self._parts = data, None
        self.dirty = True

    def write_parts(self, parts: list[bytes | memoryview]) -> None:
        """Write the tables whose JSON (``json.dumps`` of them) is ``parts`` joined
        (``files.frame_parts``)."""
        self._written, self._parts = None, parts
        self.dirty = True

    def flush(self) -> None:
        if not self.dirty:
            return
        if self._parts is not None:
            out = frame_parts(self._parts, self.next_slot)
        elif self._written is not None:
            # Row by row into the file's bytes (E99): never the whole file as text too.
            try:  # about the size of the file it replaces (E99)
                size = self.path.stat().st_size
            except OSError:
                size = 0
            # A file of some size row by row into its bytes, never its whole text beside
            # them (E99); a smaller one at once, which is quicker, its copies within the
            # constant of that bar.
            out = (frame_tables(self._written, self.next_slot, size) if size >= ROW_BY_ROW
                   else encode_checked(self._written, self.next_slot))
        else:
            return
        self._parts = None  # what the parts held is in ``out`` now (E99)
        commit_file(self.path, out)
        self.digest = bytes(out[10:74])  # the checksum in front (E40)
        self.out = out
        self.dirty = False

    def close(self) -> None:
        pass
