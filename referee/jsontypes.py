"""The JSON the console reads and writes, as types the checker sees.

``JSON`` is any value ``json.dumps`` takes and ``json.loads`` gives back: a recursive union,
not ``Any``, so a value that is not JSON (a set, a dataclass, a ``Path``) is caught where it is
put in, not when the file is written. ``JSONObject`` is an object of them: what a command's
``--json`` prints when its shape is open (a shape that is fixed has a ``TypedDict`` of its
own beside the code that builds it).
"""

from __future__ import annotations

from typing import TypeAlias

JSON: TypeAlias = "str | int | float | bool | None | list[JSON] | dict[str, JSON]"
JSONObject: TypeAlias = "dict[str, JSON]"
JSONList: TypeAlias = "list[JSON]"
