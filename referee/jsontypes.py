"""The JSON the console reads and writes, as types the checker sees.

``JSON`` is any value ``json.dumps`` takes and ``json.loads`` gives back: a recursive union,
not ``Any``, so a value that is not JSON (a set, a dataclass, a ``Path``) is caught where it is
put in, not when the file is written. ``JSONObject`` is an object of them: what a command's
``--json`` prints when its shape is open (a shape that is fixed has a ``TypedDict`` of its
own beside the code that builds it).

``TOML`` is a value of a TOML file as ``tomllib`` reads it: JSON's kinds, and dates and times
besides; ``TOMLTable`` is a table of them, what a data file is until its loader has checked it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias

if TYPE_CHECKING:
    import datetime

JSON: TypeAlias = "str | int | float | bool | None | list[JSON] | dict[str, JSON]"
JSONObject: TypeAlias = "dict[str, JSON]"
JSONList: TypeAlias = "list[JSON]"
TOML: TypeAlias = ("str | int | float | bool | datetime.datetime | datetime.date | datetime.time"
                   " | list[TOML] | dict[str, TOML]")
TOMLTable: TypeAlias = "dict[str, TOML]"
