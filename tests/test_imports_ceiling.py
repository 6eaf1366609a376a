"""A ceiling on imports inside functions in the package: a command line imports only the module
of its command word (``referee.cli.main.TREE``), so what every command of a module needs stands
at the top of that module; an import stays inside a function only where it saves a command's
time (rich off a terminal, rapidfuzz, the HTTP server, numpy, the fast path), and says why.

Counted: every ``import`` and ``from ... import`` statement anywhere inside a function or
method of ``referee/`` (nested functions too), once each; imports at a module's top, under its
``if TYPE_CHECKING:`` or in a class body are not.
"""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from tests import sources

PACKAGE = Path(__file__).resolve().parents[1] / "referee"

#: The whole package's count as it stands (590 before the command tree took their place);
#: lower it as imports move to the top of their modules.
CEILING = 297


def count(text: str) -> int:
    """Import statements inside a function of the module ``text``: one walk of the tree,
    each node visited once, knowing whether a function encloses it."""
    found = 0
    todo: list[tuple[ast.AST, bool]] = [(sources.tree(text), False)]  # parsed once a process
    while todo:
        node, inside = todo.pop()
        if inside and isinstance(node, ast.Import | ast.ImportFrom):
            found += 1
        inside = inside or isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        todo.extend((child, inside) for child in ast.iter_child_nodes(node))
    return found


def _package() -> Counter[str]:
    found: Counter[str] = Counter()
    for path in sorted(PACKAGE.rglob("*.py")):
        n = count(path.read_text(encoding="utf-8"))
        if n:
            found[str(path.relative_to(PACKAGE.parent))] = n
    return found


def test_imports_inside_functions_stay_under_their_ceiling() -> None:
    found = _package()
    total = sum(found.values())
    most = ", ".join(f"{name} {n}" for name, n in found.most_common(5))
    assert total <= CEILING, (
        f"{total} imports inside functions in referee/, ceiling {CEILING} (most: {most}): "
        "import at the top of the module what its every command needs; keep one inside a "
        "function only where a command does without it at a cost, and say why")


@given(top=st.integers(0, 4), typing=st.integers(0, 4), in_function=st.integers(0, 4),
       in_method=st.integers(0, 4), nested=st.integers(0, 4), in_blocks=st.integers(0, 4))
def test_the_count_sees_each_form(top: int, typing: int, in_function: int, in_method: int,
                                  nested: int, in_blocks: int) -> None:
    lines = ["from typing import TYPE_CHECKING"]
    lines += [f"import m{i}" for i in range(top)]
    lines += ["if TYPE_CHECKING:", "    pass"] + [f"    import t{i}" for i in range(typing)]
    lines += ["def f():"] + [f"    from p import f{i}" for i in range(in_function)] + ["    pass"]
    lines += ["class C:", "    import c0", "    def m(self):"]
    lines += [f"        import q{i}" for i in range(in_method)] + ["        pass"]
    lines += ["async def g():", "    def inner():"]
    lines += [f"        import n{i}" for i in range(nested)] + ["        pass"]
    lines += ["    if True:", "        try:"]
    lines += [f"            import b{i}" for i in range(in_blocks)]
    lines += ["            pass", "        except ImportError:", "            pass"]
    assert count("\n".join(lines) + "\n") == in_function + in_method + nested + in_blocks
