"""The one-way house: ``cli -> store/report/serve -> evening -> rules``, read from the code's own
imports (AST). No import cycle anywhere (lazy imports inside functions count; imports only for
type checking do not), and a pure core: nothing under ``referee/rules/`` or
``referee/evening/`` imports typer, rich, tinydb, the store, the content loader or the CLI, or
opens a file."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "referee"
CORE = ("referee.rules", "referee.evening")
FORBIDDEN = ("typer", "rich", "tinydb", "prompt_toolkit", "referee.storage",
             "referee.content", "referee.content.scenario", "referee.cli", "referee.report",
             "referee.serve", "referee.live")
FILE_CALLS = {"open", "read_text", "read_bytes", "write_text", "write_bytes", "load_toml"}


def _modules() -> dict[str, Path]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path
    return out


MODULES = _modules()


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(path: Path) -> set[str]:
    """Every module ``path`` imports at run time, at the top or inside a function."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            for alias in node.names:
                if f"{node.module}.{alias.name}" in MODULES:
                    found.add(f"{node.module}.{alias.name}")
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


GRAPH = {name: {m for m in _imports(path) if m in MODULES and m != name}
         for name, path in MODULES.items()}


def _cycles() -> list[list[str]]:
    """Every strongly connected group of modules that import each other (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def strong(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(GRAPH[v]):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for v in sorted(GRAPH):
        if v not in index:
            strong(v)
    return out


def test_no_import_cycle_anywhere() -> None:
    # A package's __init__ importing its own modules is the package, not a cycle.
    cycles = [c for c in _cycles()
              if not any(all(m == p or m.startswith(p + ".") for m in c) and p in c
                         for p in c)]
    assert cycles == [], cycles


@pytest.mark.parametrize("name", sorted(n for n in MODULES if n.startswith(CORE)))
def test_the_core_imports_no_shell_and_no_storage(name: str) -> None:
    bad = sorted(m for m in _imports(MODULES[name])
                 if any(m == f or m.startswith(f + ".") for f in FORBIDDEN))
    assert bad == [], f"{name} imports {bad}"


@pytest.mark.parametrize("name", sorted(n for n in MODULES if n.startswith(CORE)))
def test_the_core_opens_no_file(name: str) -> None:
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
    calls = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            called = func.id if isinstance(func, ast.Name) else (
                func.attr if isinstance(func, ast.Attribute) else "")
            if called in FILE_CALLS:
                calls.append(f"{called}() at line {node.lineno}")
    assert calls == [], f"{name}: {calls}"


def test_the_graph_is_read_from_the_code() -> None:
    """The test can fail: it sees the arrows that are there."""
    assert "referee.evening.state" in GRAPH["referee.evening.folds"]
    assert "referee.rules.pots" in GRAPH["referee.evening.betting"]
    assert not any(m.startswith("referee.cli") for m in GRAPH["referee.evening.play"])


MIDDLE = ("referee.storage", "referee.report", "referee.live", "referee.serve", "referee.content")


@pytest.mark.parametrize("name", sorted(n for n in MODULES if n.startswith(MIDDLE)))
def test_no_arrow_runs_back_up_into_the_cli(name: str) -> None:
    """The store, the report, the players' frames, the served pages and the content loader
    sit below the CLI: none of them imports it (they are given a console, or return data)."""
    bad = sorted(m for m in _imports(MODULES[name]) if m.startswith("referee.cli"))
    assert bad == [], f"{name} imports {bad}"
