"""The evening file's header (its ``meta`` row): of this release's format, with its counts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from referee.errors import StoreError
from referee.storage.backups import damaged_message
from referee.storage.seals import Meta, Pending, SealSum

__all__ = ["Meta", "Pending", "SealSum", "check"]  # the header's shapes live in seals, below


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
