"""A ceiling on long functions in the package: a function or method of ``referee/`` longer than
60 lines (from its ``def`` to its last line, decorators apart) is split into named parts, so a
reader sees its steps by name. Today's long ones are listed when the count goes over.

14 stood over 60 lines before the splits that brought the count down; ``use_power`` went
under when the betting a use makes moved out of the powers (``referee.evening.power_moves``).
"""

from __future__ import annotations

import ast
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from tests import sources

PACKAGE = Path(__file__).resolve().parents[1] / "referee"

#: Most functions over LIMIT lines the package may hold; lower it as long ones are split.
CEILING = 2
LIMIT = 60


def long_functions(text: str, limit: int = LIMIT) -> list[tuple[str, int, int]]:
    """(name, first line, length) of each function or method of ``text`` longer than ``limit``
    lines, nested ones too, counted from ``def`` to the function's last line."""
    found = []
    for node in sources.nodes(text):  # parsed and walked once a process (tests/sources.py)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            if length > limit:
                found.append((node.name, node.lineno, length))
    return found


def _package() -> list[str]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        name = path.relative_to(PACKAGE.parent)
        for function, line, length in long_functions(path.read_text(encoding="utf-8")):
            found.append(f"{name}:{line} {function} ({length} lines)")
    return found


def test_long_functions_stay_under_their_ceiling() -> None:
    found = _package()
    assert len(found) <= CEILING, (
        f"{len(found)} functions over {LIMIT} lines in referee/, ceiling {CEILING}: "
        + "; ".join(found) + ". Split the new one into named parts")


@given(lengths=st.lists(st.integers(2, 90), max_size=6), nested=st.integers(2, 90),
       in_class=st.integers(2, 90), decorators=st.integers(0, 3))
def test_the_count_sees_each_form(lengths: list[int], nested: int, in_class: int,
                                  decorators: int) -> None:
    """Each form is counted by its own lines: top-level, nested, async, a method; decorators
    are not part of the length."""
    lines: list[str] = []
    for i, n in enumerate(lengths):  # a function of exactly n lines
        lines += ["@d"] * decorators + [f"def f{i}():"] + ["    x = 1"] * (n - 1)
    lines += ["async def outer():", "    def inner():"] + ["        y = 2"] * (nested - 1)
    lines += ["class C:", "    def m(self):"] + ["        z = 3"] * (in_class - 1)
    expected = [n for n in lengths if n > LIMIT]
    outer = nested + 1
    expected += [n for n in (outer, nested, in_class) if n > LIMIT]
    got = [length for _, _, length in long_functions("\n".join(lines) + "\n")]
    assert sorted(got) == sorted(expected)
