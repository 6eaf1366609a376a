"""The guard of the house: a ranked order of layers, read from the code's own imports.

``check(package)`` reads every module under ``package`` (a ``referee/`` folder: the real one, or
a copy with a mistake planted in it) and returns every violation, one line each:

- an import (absolute or relative, at the top, inside a function, or only for the type checker)
  from a module to a module of a higher layer: ``base < rules < evening < storage < content <
  report < serve < cli``;
- an import cycle anywhere (the type checker's imports count too);
- a module that belongs to no layer (a new top-level module must be placed);
- typer, rich, click or prompt_toolkit below the CLI, tinydb outside ``storage``;
- ``print``, ``sys.stdout`` or ``sys.stderr`` below the CLI (only the CLI prints);
- any file access in ``rules`` and ``evening``: ``open``, a path's ``read_*`` / ``write_*`` /
  ``open``, ``tomllib.load``, the modules that reach files (``os``, ``pathlib``, ``shutil``,
  ``io``, ...), and ``importlib`` or ``__import__`` (which would reach a module no import
  names).

``tests/test_layers.py`` runs it on the package and proves it can fail by planting mistakes.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

#: Low to high: a module may import its own layer and the layers before it, never after.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("base", ("referee.errors", "referee.jsontypes", "referee.names", "referee.streams",
              "referee.version")),
    ("rules", ("referee.rules",)),
    ("evening", ("referee.evening",)),
    ("storage", ("referee.storage",)),
    ("content", ("referee.content", "referee.rulebook")),
    ("report", ("referee.report", "referee.report_records", "referee.season")),
    ("serve", ("referee.serve",)),
    # The package's own face (``from referee import parse_cards``) and ``python -m referee``
    # stand with the command line, at the top: nothing below imports them.
    ("cli", ("referee.cli", "referee.__main__", "referee")),
)
RANK = {name: rank for rank, (name, _) in enumerate(LAYERS)}

#: Libraries only one part of the house may use.
ONLY_IN = {"typer": "cli", "click": "cli", "rich": "cli", "prompt_toolkit": "cli",
           "tinydb": "storage"}
#: Calls that reach a file (by their last name), banned in ``rules`` and ``evening``; with the
#: modules below banned there too, nothing there can open, list or change a file.
FILE_METHODS = {"read_text", "read_bytes", "write_text", "write_bytes", "open", "unlink",
                "mkdir", "touch", "iterdir", "glob", "rglob"}
FILE_MODULES = {"os", "pathlib", "shutil", "tempfile", "io", "glob", "importlib", "socket",
                "subprocess", "sqlite3"}
PURE = ("rules", "evening")


def layer(module: str) -> str | None:
    """The layer of ``module`` (the longest prefix that places it), or None."""
    best: tuple[int, str] | None = None
    for name, prefixes in LAYERS:
        for prefix in prefixes:
            # ``referee`` itself is only the package's face, not every module under it.
            inside = "." in prefix and module.startswith(prefix + ".")
            if (module == prefix or inside) and (best is None or len(prefix) > best[0]):
                best = (len(prefix), name)
    return best[1] if best else None


def modules(package: Path) -> dict[str, Path]:
    """Every module of ``package`` by its dotted name."""
    out = {}
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(package.parent).with_suffix("").parts
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


class Imports(ast.NodeVisitor):
    """What one module imports, with the line of each, and what it calls that matters."""

    def __init__(self, name: str, is_package: bool, known: set[str]) -> None:
        self.name = name
        self.package = name if is_package else name.rpartition(".")[0]
        self.known = known
        self.found: list[tuple[str, int]] = []   # (module, line)
        self.calls: list[tuple[str, int]] = []   # (what, line)

    def _add(self, module: str, line: int) -> None:
        self.found.append((module, line))

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self._add(alias.name, node.lineno)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.level:
            base = self.package.split(".")
            base = base[: len(base) - (node.level - 1)] if node.level > 1 else base
            module = ".".join([*base, *([node.module] if node.module else [])])
        else:
            module = node.module or ""
        named = [f"{module}.{alias.name}" for alias in node.names
                 if f"{module}.{alias.name}" in self.known]
        if named:  # `from referee.storage import store`: the module store, not the package
            for sub in named:
                self._add(sub, node.lineno)
            if len(named) < len(node.names):
                self._add(module, node.lineno)
        else:
            self._add(module, node.lineno)

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        if isinstance(func, ast.Name):
            if func.id in ("print", "open", "__import__"):
                self.calls.append((func.id, node.lineno))
            if func.id == "__import__" and node.args and isinstance(node.args[0], ast.Constant):
                self._add(str(node.args[0].value), node.lineno)
        elif isinstance(func, ast.Attribute):
            owner = func.value.id if isinstance(func.value, ast.Name) else ""
            if func.attr == "import_module" and node.args and isinstance(
                    node.args[0], ast.Constant):
                self._add(str(node.args[0].value), node.lineno)
            if owner == "os" and func.attr in ("open", "fdopen", "scandir", "listdir"):
                self.calls.append((f"os.{func.attr}", node.lineno))
            elif owner == "tomllib" and func.attr == "load":
                self.calls.append(("tomllib.load", node.lineno))
            elif func.attr in FILE_METHODS and owner not in ("str", "re", "self"):
                self.calls.append((f".{func.attr}()", node.lineno))
        self.generic_visit(node)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if isinstance(node.value, ast.Name) and node.value.id == "sys" and node.attr in (
                "stdout", "stderr"):
            self.calls.append((f"sys.{node.attr}", node.lineno))
        self.generic_visit(node)


def read(package: Path) -> tuple[dict[str, Path], dict[str, Imports]]:
    """Every module of ``package`` and what each imports and calls."""
    found = modules(package)
    known = frozenset(found)
    seen = {name: _scan(name, path.name == "__init__.py", path.read_text(encoding="utf-8"),
                        known)
            for name, path in found.items()}
    return found, seen


@functools.cache
def _scan(name: str, is_package: bool, text: str, known: frozenset[str]) -> Imports:
    """One module read (once per text: a copy with one mistake planted re-reads one file)."""
    visitor = Imports(name, is_package, set(known))
    visitor.visit(ast.parse(text, name))
    return visitor


def _home(module: str, known: set[str]) -> str | None:
    """The module of the house an import names (``referee.evening.state.State`` names
    ``referee.evening.state``), or None for another library."""
    parts = module.split(".")
    for end in range(len(parts), 0, -1):
        candidate = ".".join(parts[:end])
        if candidate in known:
            return candidate
    return None


def graph(package: Path) -> dict[str, set[str]]:
    """Module -> the modules of the house it imports (a parent package's ``__init__`` that an
    import runs on the way is no arrow: it is the way in, not a use)."""
    return _arrows(*read(package))


def _arrows(found: dict[str, Path], seen: dict[str, Imports]) -> dict[str, set[str]]:
    known = set(found)
    out: dict[str, set[str]] = {}
    for name, visitor in seen.items():
        targets = set()
        for module, _ in visitor.found:
            home = _home(module, known)
            if home is not None and home != name:
                targets.add(home)
        out[name] = targets
    return out


def cycles(arrows: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected group of two or more modules (Tarjan)."""
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
        for w in sorted(arrows.get(v, ())):
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

    for v in sorted(arrows):
        if v not in index:
            strong(v)
    return out


def check(package: Path) -> list[str]:
    """Every violation of the house's order in ``package``, one line each (empty: sound)."""
    found, seen = read(package)
    known = set(found)
    problems: list[str] = []
    for name, visitor in seen.items():
        where = layer(name)
        if where is None:
            problems.append(f"{name}: belongs to no layer (place it in tests/layers.py LAYERS)")
            continue
        for module, line in visitor.found:
            home = _home(module, known)
            top = module.split(".")[0]
            if home is None:
                only = ONLY_IN.get(top)
                if only is not None and only != where:
                    problems.append(f"{name}:{line}: imports {top}, which only {only} may use")
                if where in PURE and top in FILE_MODULES:
                    problems.append(f"{name}:{line}: imports {top}, which reaches files or "
                                    f"modules, in the pure {where}")
                continue
            if home == name:
                continue
            target = layer(home)
            if target is not None and RANK[target] > RANK[where]:
                problems.append(f"{name}:{line}: imports {home} ({target}), above {where}")
        for what, line in visitor.calls:
            if what in ("print", "sys.stdout", "sys.stderr") and where != "cli":
                problems.append(f"{name}:{line}: {what} below the CLI (only the CLI prints)")
            elif where in PURE and what not in ("print", "sys.stdout", "sys.stderr"):
                problems.append(f"{name}:{line}: {what} reaches a file or a module in the "
                                f"pure {where}")
    for group in cycles(_arrows(found, seen)):
        # A package's __init__ importing its own modules is the package, not a cycle.
        if any(all(m == p or m.startswith(p + ".") for m in group) for p in group):
            continue
        problems.append(f"import cycle: {' -> '.join(group)}")
    return problems
