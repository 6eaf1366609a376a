"""The package's source read as trees once per process, shared by the structural tests
(``tests/layers.py``, the ceilings, ``test_said``, ``test_api``), which would each parse the
same two hundred files again, some of them many times over.

Both caches are keyed by the source text itself, so a copy of the package with a mistake
planted in one module gets its own parse of that module (never the original's), while its
unchanged modules share the original's trees. The trees are shared: a caller reads them and
never changes them (no ``ast.NodeTransformer``, no assignment to a node, no
``ast.fix_missing_locations``); a caller that must change a tree parses its own.
"""

from __future__ import annotations

import ast
import functools

#: Enough for the package and a few planted copies' changed modules, with room for the small
#: texts the property tests make.
_SIZE = 4096


@functools.lru_cache(maxsize=_SIZE)
def tree(text: str) -> ast.Module:
    """``text`` parsed, once for each text."""
    return ast.parse(text)


@functools.lru_cache(maxsize=_SIZE)
def nodes(text: str) -> tuple[ast.AST, ...]:
    """Every node of ``text``'s tree in ``ast.walk`` order, walked once for each text."""
    return tuple(ast.walk(tree(text)))
