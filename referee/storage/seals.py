"""Sealed segment files, ``PATH.segments/NNNNNN.json``, by their bytes: where they are, what the
live file records of them, and whether they still are what was sealed (``referee.storage.segments``
reads them for the evening).

Sealed segments are immutable runs of older events.

A segment is part of the evening as much as the live file is, so the live file records what
each one must be: its size and the SHA-256 of its bytes (``meta["segment_sums"]``, E90), under
the live file's own checksum. Every command checks, cheaply, that each sealed segment is
present with its recorded size; every segment a command reads (``log``, ``undo`` across a
seal, ``verify``) is checked byte for byte against its digest before anything is built
on it. A segment missing, truncated, edited or flipped in place (its size and time kept) is
damage, like damage to the live file.

An evening written before segments carried digests has none recorded: the next command that
writes records them, after checking each segment's hash chain against the next one and the
live file's sealed head (E91).
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
from pathlib import Path
from typing import TYPE_CHECKING, Final, NotRequired, TypedDict, cast

from referee.errors import StoreError
from referee.storage.files import MAX_FILE_BYTES

if TYPE_CHECKING:  # types only: the header and the chain import the store's helpers
    from referee.jsontypes import JSONObject
    from referee.storage.chain import Record

SUMS: Final = "segment_sums"


class SealSum(TypedDict):
    """What the live file records of a sealed segment's bytes (E90)."""

    size: int
    sha256: str


class Pending(TypedDict):
    """Who wrote the file, so that the next command can tell whether its answer was shown
    (E41): the command's text, the process and the token of the file's answer slot."""

    text: str
    pid: int
    token: str


class Meta(TypedDict):
    """The evening file's header, as ``check`` has found it (the counts and the head) and as
    the store writes it."""

    format: int
    created: float
    segments: int                            # sealed segments, numbered from 1
    next_seq: int
    next_cmd: int
    head: str                                # the hash chain's head (E40)
    sealed_head: NotRequired[str]            # the last sealed event's hash
    segment_files: NotRequired[list[str]]    # the segments' file names, in order
    segment_sums: NotRequired[list[SealSum]]  # each segment's size and digest (E90)
    pending: NotRequired[Pending]
    writer: NotRequired[str]                 # the release that wrote it (E92)


class Segment(TypedDict):
    """A sealed segment's document: the folded state of every stream before its first event
    (``base``, by stream), the chain's hash there, and its events."""

    base: JSONObject
    base_head: NotRequired[str]
    events: list[Record]


def folder(path: Path) -> Path:
    """The folder of the sealed segments of the evening at ``path``."""
    return path.with_name(f"{path.name}.segments")


def name(meta: Meta, n: int) -> str:
    """The file name of segment ``n`` (from 1) as the header lists it."""
    names = meta.get("segment_files") or []
    return str(names[n - 1]) if n <= len(names) else f"{n:06d}.json"


def segment_path(path: Path, meta: Meta, n: int) -> Path:
    return folder(path) / name(meta, n)


def digest(data: bytes) -> str:
    """The SHA-256 of a segment's bytes, by OpenSSL's hashlib: several times the builtin's
    speed on the megabytes ``verify`` hashes (E90), worth its import where segments are read."""
    import hashlib

    return hashlib.sha256(data).hexdigest()


def seal_sum(data: bytes) -> SealSum:
    """What the live file records of a segment's bytes: its size and SHA-256."""
    return {"size": len(data), "sha256": digest(data)}


def recorded(meta: Meta, n: int) -> SealSum | None:
    """The size and digest the header records for segment ``n``, if any (older files: none)."""
    sums = meta.get(SUMS)
    if not isinstance(sums, list) or n > len(sums):
        return None
    return _sound(sums[n - 1])


def recorded_all(meta: Meta) -> list[SealSum | None]:
    """``recorded`` of each of the header's segments, in order, in one pass over its list."""
    total = meta["segments"]
    sums = meta.get(SUMS)
    if not isinstance(sums, list):
        return [None] * total
    return [_sound(entry) for entry in sums[:total]] + [None] * (total - len(sums))


def _sound(entry: object) -> SealSum | None:
    """``entry`` of the header's list of sums, if it is one (a size and a digest)."""
    if (isinstance(entry, dict) and type(entry.get("size")) is int
            and isinstance(entry.get("sha256"), str)):
        return cast(SealSum, entry)
    return None


def encode(segment: Segment) -> bytes:
    return json.dumps(segment, separators=(",", ":")).encode("utf-8")


def read_raw(where: Path) -> bytes | None:
    """The bytes of a segment file (None: missing); never blocks on a pipe, never follows
    anything but a regular file.

    Raises:
        StoreError: not a regular file, unreadable or larger than any segment.
    """
    try:
        fd = os.open(where, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise StoreError(f"cannot read the sealed segment {where}: {exc.strerror}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise StoreError(f"the sealed segment {where} is not a regular file")
        chunks: list[bytes] = []
        got = 0
        while got <= MAX_FILE_BYTES:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
    except OSError as exc:
        raise StoreError(f"cannot read the sealed segment {where}: {exc.strerror}") from None
    finally:
        os.close(fd)
    return b"".join(chunks)


def damage(path: Path, meta: Meta, n: int) -> str | None:
    """What is wrong with segment ``n`` by its bytes, against the header (None: sound or,
    without a recorded digest, not checkable this way)."""
    where = segment_path(path, meta, n)
    try:
        data = read_raw(where)
    except StoreError as exc:
        return str(exc)
    return bytes_damage(where, n, data, recorded(meta, n))


def bytes_damage(where: Path, n: int, data: bytes | None,
                  expected: SealSum | None) -> str | None:
    if data is None:
        return f"its sealed segment {n} ({where.name}) is missing"
    if expected is None:
        return None
    if len(data) != expected["size"]:
        return (f"its sealed segment {n} ({where.name}) has {len(data)} bytes, not the "
                f"{expected['size']} sealed")
    if digest(data) != expected["sha256"]:
        return (f"its sealed segment {n} ({where.name}) was changed since it was sealed: its "
                "digest does not match")
    return None


def presence(path: Path, meta: Meta) -> str | None:
    """What is wrong with the sealed segments by a look at their sizes (one ``stat`` each):
    a segment missing, or not of the recorded size. Every command checks this."""
    total = meta["segments"]
    if not total:
        return None
    base = str(folder(path))  # plain strings: a Path per segment was most of the check's time
    where: int | None = None  # else each stat below says what is wrong, as it would have
    if os.stat in os.supports_dir_fd:
        with contextlib.suppress(OSError):  # each name looked up in the folder itself, not
            where = os.open(base, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))  # the path
    try:
        return _present(base, where, meta, total)
    finally:
        if where is not None:
            os.close(where)


#: What ``presence`` last looked for: the header's list of names and its list of sums (the
#: very objects: a list of the header is never changed in place, a seal or an undo across one
#: makes new ones, as ``referee.storage.memo`` relies on too), the count, and each segment's
#: file name and sealed size (None: none recorded). A shell's next line looks for the same.
_looked: tuple[object, object, int, list[str], list[int | None]] | None = None


def _wanted(meta: Meta, total: int) -> tuple[list[str], list[int | None]]:
    """The file name and the sealed size (None: none recorded) of each of the ``total``
    segments."""
    global _looked
    names, sums = meta.get("segment_files"), meta.get(SUMS)
    last = _looked
    if last is not None and last[0] is names and last[1] is sums and last[2] == total:
        return last[3], last[4]
    listed = names or []
    files = [str(listed[n]) if n < len(listed) else f"{n + 1:06d}.json" for n in range(total)]
    sizes = [None if found is None else found["size"] for found in recorded_all(meta)]
    _looked = (names, sums, total, files, sizes)
    return files, sizes


def all_recorded(meta: Meta) -> bool:
    """Whether the header records a size and a digest for every one of its segments."""
    return None not in _wanted(meta, meta["segments"])[1]


def _present(base: str, where: int | None, meta: Meta, total: int) -> str | None:
    """``presence`` of the ``total`` segments in the folder ``base`` (open as ``where``)."""
    files, sizes = _wanted(meta, total)
    look, join, regular = os.stat, os.path.join, stat.S_ISREG
    if where is not None and all(files) and None not in sizes:
        # Every segment sealed with its size, as this release seals them: a stat each and
        # nothing else while all is well; anything amiss is said by the look below.
        with contextlib.suppress(OSError):
            for file, size in zip(files, sizes, strict=True):
                st = look(file, dir_fd=where)
                if st.st_size != size or not regular(st.st_mode):
                    break
            else:
                return None
    for n, (file, size) in enumerate(zip(files, sizes, strict=True), start=1):
        try:
            st = (look(file, dir_fd=where) if where is not None and file
                  else look(join(base, file)))
        except FileNotFoundError:
            return f"its sealed segment {n} ({Path(file).name}) is missing"
        except OSError as exc:
            return f"its sealed segment {n} ({Path(file).name}) cannot be read ({exc.strerror})"
        if not regular(st.st_mode):
            return f"its sealed segment {n} ({Path(file).name}) is not a regular file"
        if size is not None and st.st_size != size:
            return (f"its sealed segment {n} ({Path(file).name}) has {st.st_size} bytes, not "
                    f"the {size} sealed")
    return None
