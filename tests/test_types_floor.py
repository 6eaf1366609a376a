"""A ceiling on ``dict[str, Any]`` in the package: the data the console handles has types the
checker sees (``TypedDict`` records, ``referee.jsontypes.JSON``), and ``Any`` stays only where
data really is free-form.

Counted: every ``dict[str, Any]`` written in ``referee/`` (in code, annotations or quoted
aliases), and every use of a name whose value is ``dict[str, Any]`` (an alias such as
``Event = dict[str, Any]``), in the module that defines it and in each module that imports it.
The swaps that hide the same ``Any`` (``Mapping[str, Any]``, ``dict[str, object]``) have a
ceiling of their own, so they cannot grow in its place.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from tests import sources

PACKAGE = Path(__file__).resolve().parents[1] / "referee"

#: The whole package's count as it stands; lower it as ``dict[str, Any]`` goes.
CEILING = 39
#: ``Mapping[str, Any]``, ``MutableMapping[str, Any]`` and ``dict[str, object]`` as they stand.
SWAP_CEILING = 25

_WRITTEN = re.compile(r"\b(?:dict|Dict)\[str, ?Any\]")
_SWAPS = re.compile(r"\b(?:(?:Mutable)?Mapping\[str, ?Any\]|dict\[str, ?object\])")


def _is_alias_value(node: ast.expr | None) -> bool:
    if node is None:
        return False
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return _WRITTEN.fullmatch(node.value.strip()) is not None
    return _WRITTEN.fullmatch(ast.unparse(node)) is not None


def aliases(texts: dict[str, str]) -> set[tuple[str, str]]:
    """(module, name) of every module-level name whose value is ``dict[str, Any]``."""
    found: set[tuple[str, str]] = set()
    for module, text in texts.items():
        for node in sources.tree(text).body:  # parsed once a process (tests/sources.py)
            if isinstance(node, ast.Assign) and _is_alias_value(node.value):
                found |= {(module, t.id) for t in node.targets if isinstance(t, ast.Name)}
            elif (isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
                  and _is_alias_value(node.value)):
                found.add((module, node.target.id))
    return found


def count(texts: dict[str, str]) -> int:
    """``dict[str, Any]`` written, plus the uses of its aliases, over ``texts`` (module name
    -> text)."""
    known = aliases(texts)
    total = sum(len(_WRITTEN.findall(text)) for text in texts.values())
    for module, text in texts.items():
        tree = sources.tree(text)
        local = {name for mod, name in known if mod == module}
        imported_modules: set[str] = set()
        for node in sources.nodes(text):
            if isinstance(node, ast.ImportFrom) and node.module is not None:
                for a in node.names:
                    if (node.module, a.name) in known:
                        local.add(a.asname or a.name)
            elif isinstance(node, ast.Import):
                for a in node.names:
                    if any(mod == a.name for mod, _ in known):
                        imported_modules.add(a.asname or a.name)
        if not local and not imported_modules:
            continue  # no alias here to count the uses of
        defining = {id(t) for node in tree.body if isinstance(node, (ast.Assign, ast.AnnAssign))
                    for t in (node.targets if isinstance(node, ast.Assign) else [node.target])}
        for node in sources.nodes(text):
            if isinstance(node, ast.Name) and node.id in local and id(node) not in defining:
                total += 1
            elif (imported_modules and isinstance(node, ast.Attribute)
                  and ast.unparse(node.value) in imported_modules
                  and (ast.unparse(node.value), node.attr) in known):
                total += 1
            elif isinstance(node, ast.Constant) and isinstance(node.value, str) and local:
                total += _quoted_uses(node.value, local)
    return total


def _quoted_uses(text: str, names: set[str]) -> int:
    """Uses of ``names`` in a quoted annotation (a string that parses as an expression)."""
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError:
        return 0
    return sum(isinstance(n, ast.Name) and n.id in names for n in ast.walk(tree))


def _package() -> dict[str, str]:
    texts = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        texts[module] = path.read_text(encoding="utf-8")
    return texts


def test_dict_str_any_stays_under_its_ceiling() -> None:
    found = count(_package())
    assert found <= CEILING, (
        f"{found} uses of dict[str, Any] (or an alias of it) in referee/, ceiling {CEILING}: "
        "give the data a type (a TypedDict, a dataclass, referee.jsontypes.JSON)")


def test_the_swaps_that_hide_any_stay_under_their_ceiling() -> None:
    found = sum(len(_SWAPS.findall(text)) for text in _package().values())
    assert found <= SWAP_CEILING, found


@given(written=st.integers(0, 5), uses=st.integers(0, 5), imported=st.integers(0, 5),
       dotted=st.integers(0, 5))
def test_the_count_sees_each_form(written: int, uses: int, imported: int, dotted: int) -> None:
    alias = "from typing import Any\nRow = dict[str, Any]\n"
    defining = alias + "".join(f"def f{i}(x: Row) -> None: ...\n" for i in range(uses))
    plain = "from typing import Any\n" + "".join(
        f"def g{i}(x: dict[str, Any]) -> None: ...\n" for i in range(written))
    importing = "from pkg.a import Row as R\n" + "".join(
        f"def h{i}(x: R) -> None: ...\n" for i in range(imported))
    attr = "import pkg.a\n" + "".join(
        f"def k{i}(x: pkg.a.Row) -> None: ...\n" for i in range(dotted))
    sources = {"pkg.a": defining, "pkg.b": plain, "pkg.c": importing, "pkg.d": attr}
    assert count(sources) == 1 + uses + written + imported + dotted
    assert aliases(sources) == {("pkg.a", "Row")}


def test_a_real_type_is_not_counted() -> None:
    sources = {"pkg.a": "from referee.jsontypes import JSONObject\n"
                        "Row = JSONObject\ndef f(x: Row, y: dict[str, int]) -> None: ...\n"}
    assert count(sources) == 0
