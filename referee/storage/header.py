"""The evening file's header (its ``meta`` row): of this release's format, with its counts."""

from __future__ import annotations

from pathlib import Path
from typing import Any, NotRequired, TypedDict

from referee.errors import StoreError
from referee.storage.backups import damaged_message


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


def check(path: Path, meta: Any, fmt: int) -> None:
    """Refuse a header of a later release (E92: it says so, and to upgrade) or no header of
    an evening at all (damage, E40).

    Raises:
        StoreError: the file is of a newer release, or its header is missing or malformed.
    """
    found = meta.get("format") if isinstance(meta, dict) else None
    if type(found) is int and found > fmt:
        from referee.version import __version__

        writer = meta.get("writer")
        who = (f"referee {writer}" if isinstance(writer, str) and writer.isprintable()
               and len(writer) <= 40 else "a newer referee")
        raise StoreError(f"{path} was written by {who} (evening format {found}); this is "
                         f"referee {__version__}, which reads format {fmt}: upgrade referee to "
                         "open it; the file was not touched", ruling="E92")
    if found != fmt:
        raise StoreError(damaged_message(path, "no referee evening header"))
    for key in ("segments", "next_seq", "next_cmd"):
        if type(meta.get(key)) is not int or meta[key] < 0:
            raise StoreError(damaged_message(path, f"header field {key!r} is not a count"))
    if not isinstance(meta.get("head"), str):
        raise StoreError(damaged_message(path, "header has no head hash"))
