"""The evening file's tables as stored (TinyDB's layout: each table an object of its rows, under
their ids from ``"1"``): the header, the snapshot, the live events and the undone commands.

Shapes only, for the type checker: the store reads and writes them (``referee.storage.store``),
the file mechanics encode them (``referee.storage.jsonfile``). The header's own shapes are in
``referee.storage.seals``, an event record's in ``referee.storage.chain``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NotRequired, TypedDict

if TYPE_CHECKING:
    from referee.jsontypes import JSONObject
    from referee.storage.chain import Record
    from referee.storage.seals import Meta


class Snapshot(TypedDict):
    """The snapshot's one row: the folded state of every stream at the end of the sealed
    segments, by stream, as each stream's ``dump`` gives it."""

    states: JSONObject


class Undone(TypedDict):
    """A command taken back (E13), kept whole: nothing is ever deleted. ``redoable`` until
    anything else is done; ``redone_at`` once it was brought back."""

    cmd: int
    stream: str
    text: str
    time: float
    events: list[JSONObject]
    undone_at: float
    redoable: bool
    redone_at: NotRequired[float]


class Tables(TypedDict):
    """The whole file as the store writes it, the tables in this order; a table with no rows
    is left out."""

    meta: dict[str, Meta]
    snapshot: dict[str, Snapshot]
    events: NotRequired[dict[str, Record]]
    undone: NotRequired[dict[str, Undone]]
