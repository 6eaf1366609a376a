"""Reading the sealed segments of an evening, each checked against the digest the live file
recorded when it was sealed (E90), and recording the digests an older evening lacks (E91).
The file mechanics are in ``referee.storage.seals``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, cast

from referee.errors import StoreError
from referee.storage.backups import damaged_message
from referee.storage.chain import GENESIS, chain_break
from referee.storage.seals import (
    SUMS,
    Segment,
    all_recorded,
    bytes_damage,
    damage,
    encode,
    folder,
    presence,
    read_raw,
    recorded,
    recorded_all,
    seal_sum,
    segment_path,
)

if TYPE_CHECKING:
    from referee.storage.seals import Meta, SealSum

__all__ = ["SUMS", "Segment", "check_unsealed", "damage", "encode", "folder", "missing_sums",
           "presence", "read", "read_raw", "recorded", "seal_sum", "segment_path"]


def read(path: Path, meta: Meta, n: int) -> Segment:
    """Segment ``n`` of the evening at ``path``, checked against the digest the header records
    (E90).

    Raises:
        StoreError: the segment is missing, damaged or no segment: the evening is damaged.
    """
    where = segment_path(path, meta, n)
    try:
        data = read_raw(where)
    except StoreError as exc:
        raise StoreError(damaged_message(path, str(exc))) from None
    why = bytes_damage(where, n, data, recorded(meta, n))
    if why is not None:
        raise StoreError(damaged_message(path, why))
    assert data is not None
    try:
        segment = json.loads(data)
    except (UnicodeDecodeError, ValueError, RecursionError):
        segment = None
    if (not isinstance(segment, dict) or not isinstance(segment.get("base"), dict)
            or not isinstance(segment.get("events"), list)):
        raise StoreError(damaged_message(path, f"its sealed segment {n} ({where.name}) is "
                                               "no segment"))
    # JSON just read and found a segment (its records are checked by the hash chain).
    return cast(Segment, segment)


def missing_sums(path: Path, meta: Meta) -> list[SealSum] | None:
    """The sums of every segment, for a header that lacks some (an evening written by an
    earlier release, E91); None when it has them all.

    A segment without a recorded digest is taken only if its hash chain holds from its base
    to the next segment's base (the live file's sealed head, for the last).

    Raises:
        StoreError: a segment is missing or its chain does not hold: the evening is damaged.
    """
    total = meta["segments"]
    if all_recorded(meta):
        return None
    found = recorded_all(meta)
    sums: list[SealSum] = []
    for n, known in enumerate(found, start=1):
        if known is not None:
            sums.append(known)
            continue
        where = segment_path(path, meta, n)
        data = read_raw(where)
        if data is None:
            raise StoreError(damaged_message(path, f"its sealed segment {n} ({where.name}) is "
                                                   "missing"))
        segment = read(path, {**meta, SUMS: []}, n)
        head = (meta.get("sealed_head", GENESIS) if n == total
                else read(path, {**meta, SUMS: []}, n + 1).get("base_head", GENESIS))
        broken = chain_break(segment["events"], segment.get("base_head", GENESIS), head)
        if broken:
            raise StoreError(damaged_message(path, f"its sealed segment {n} ({where.name}): "
                                                   f"{broken}"))
        sums.append(seal_sum(data))
    return sums


def check_unsealed(path: Path, meta: Meta, n: int, segment: Segment) -> None:
    """Before ``undo`` brings segment ``n`` (the newest) back to life: an older evening's
    segment has no digest, so its chain must end where the live file's sealed head says, or
    undo would revive an edited event (E91).

    Raises:
        StoreError: the chain does not hold.
    """
    if recorded(meta, n) is not None:
        return  # its bytes were checked by digest when it was read (E90)
    broken = chain_break(segment["events"], segment.get("base_head", GENESIS),
                         meta.get("sealed_head", GENESIS))
    if broken:
        raise StoreError(damaged_message(path, f"its sealed segment {n} "
                                               f"({segment_path(path, meta, n).name}): {broken}"))
