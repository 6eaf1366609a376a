"""The guard of the house: a ranked order of layers, read from the code's own imports.

``check(package)`` reads every module under ``package`` (a ``referee/`` folder: the real one, or
a copy with a mistake planted in it) and returns every violation, one line each:

- an import (absolute or relative, at the top, inside a function, or only for the type checker)
  from a module to a module of a higher layer: ``base < rules < evening < storage < content <
  report < table < serve < cli``;
- an import cycle anywhere (the type checker's imports count too);
- a module that belongs to no layer (a new top-level module must be placed);
- typer, rich, click or prompt_toolkit below the CLI, tinydb outside ``storage``;
- ``print``, ``sys.stdout`` or ``sys.stderr`` (``sys.__stdout__`` too) or a log below the CLI
  (only the CLI prints), ``input`` (only the CLI asks), ``exec`` or ``eval``, ``sys.modules``
  (a module no import names), a draw from the shared random generator, and an import by a
  name the guard cannot read (only the streams' registry, ``referee.streams``, has one);
- any file access in ``rules`` and ``evening``: ``open``, a path's ``read_*`` / ``write_*`` /
  ``open``, ``tomllib.load``, the modules that reach files, processes or the network (``os``,
  ``pathlib``, ``io``, ``pkgutil``, ``linecache``, ``logging``, ``asyncio``, ...), and
  ``importlib`` or ``__import__`` (which would reach a module no import names).

Names are followed through aliases (``from sys import stdout``, ``builtins.print``, ``import
importlib as il``), and an import by name is resolved where the name is text in the module
(``importlib.import_module(".printing", "referee.cli")``, ``__import__(NAME)`` with ``NAME``
bound once to a string).

``tests/test_layers.py`` runs it on the package and proves it can fail by planting mistakes;
``tests/test_core_audit.py`` plants twenty more, for it and for the run-time guard
(``tests/core_audit.py``), which runs the core under an audit hook and sees what names hide.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

from tests import sources

#: Low to high: a module may import its own layer and the layers before it, never after.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("base", ("referee.errors", "referee.jsontypes", "referee.names", "referee.said",
              "referee.streams", "referee.version")),
    ("rules", ("referee.rules",)),
    ("evening", ("referee.evening",)),
    ("storage", ("referee.storage",)),
    ("content", ("referee.content", "referee.rulebook")),
    ("report", ("referee.report", "referee.report_records", "referee.season")),
    # The front door: one evening's transaction for every caller above it (E230).
    ("table", ("referee.table",)),
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
                "subprocess", "sqlite3", "pkgutil", "linecache", "tokenize", "asyncio",
                "logging", "zipimport", "runpy", "fileinput", "mmap", "ctypes",
                "multiprocessing", "concurrent", "urllib", "http", "selectors", "ssl",
                "webbrowser", "pty", "fcntl", "signal", "zipfile", "tarfile", "shelve",
                "dbm", "codecs", "site", "sysconfig"}
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


#: The names of the terminal's streams, however they are reached (``sys.__stdout__`` is the
#: real stdout that ``sys.stdout`` may have been swapped for).
STREAM_NAMES = {"sys.stdout": "sys.stdout", "sys.__stdout__": "sys.stdout",
                "sys.stderr": "sys.stderr", "sys.__stderr__": "sys.stderr"}
#: Built-in calls the guard names (``builtins.print`` is ``print``).
BUILTIN_CALLS = {"print", "open", "__import__", "input", "exec", "eval", "compile",
                 "breakpoint"}
#: Calls that import a module by a name given as text.
IMPORT_CALLS = {"__import__", "importlib.import_module", "importlib.__import__"}
#: The only modules below the CLI that import by a name they compute: the streams' registry
#: (``referee.streams.STREAMS``) names the fold each stream reads, imported when it is read;
#: the table's moves (``referee.table.api.MOVES``) name the core function deciding each, imported
#: when a move is made (``tests/test_api.py`` holds every name they give to the core's layers).
COMPUTED_IMPORTS = {"referee.streams", "referee.table.api"}
#: The shared random generator's own constructors; every other ``random.x`` call draws from
#: (or reseeds) the one generator every module shares.
OWN_RANDOM = {"random.Random", "random.SystemRandom"}


class Imports(ast.NodeVisitor):
    """What one module imports, with the line of each, and what it calls that matters.

    Names are followed through their aliases (``import sys as s``, ``from sys import
    stdout``, ``from importlib import import_module as load``, ``builtins.print``), and an
    import by name (``importlib.import_module``, ``__import__``) is resolved where its name is
    text in the module: a string, a name bound once to a string, a relative name with its
    ``package``."""

    def __init__(self, name: str, is_package: bool, known: set[str],
                 texts: dict[str, str] | None = None) -> None:
        self.name = name
        self.package = name if is_package else name.rpartition(".")[0]
        self.known = known
        self.texts = texts or {}  # a name bound to a string (``NAME = "referee.cli"``)
        self.aliases: dict[str, str] = {}  # a local name -> what it names, dotted
        self.found: list[tuple[str, int]] = []   # (module, line)
        self.calls: list[tuple[str, int]] = []   # (what, line)

    def _add(self, module: str, line: int) -> None:
        self.found.append((module, line))

    def dotted(self, node: ast.expr) -> str | None:
        """What ``node`` names, through the module's aliases (``stdout.write`` after ``from
        sys import stdout`` is ``sys.stdout.write``; ``builtins.print`` is ``print``)."""
        if isinstance(node, ast.Name):
            found = self.aliases.get(node.id, node.id)
        elif isinstance(node, ast.Attribute):
            owner = self.dotted(node.value)
            if owner is None:
                return None
            found = f"{owner}.{node.attr}"
        else:
            return None
        return found.removeprefix("builtins.")

    def text(self, node: ast.expr | None) -> str | None:
        """The string ``node`` is, if the module spells it: a constant, or a name bound to one."""
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.value
        if isinstance(node, ast.Name):
            return self.texts.get(node.id)
        return None

    def alias(self, node: ast.Import | ast.ImportFrom) -> None:
        """Bind the local names ``node`` makes to what they name."""
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    self.aliases[alias.asname] = alias.name
            return
        module = self._absolute(node.module, node.level)
        for alias in node.names:
            self.aliases[alias.asname or alias.name] = f"{module}.{alias.name}"

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self._add(alias.name, node.lineno)

    def _absolute(self, module: str | None, level: int, package: str | None = None) -> str:
        if not level:
            return module or ""
        base = (self.package if package is None else package).split(".")
        base = base[: len(base) - (level - 1)] if level > 1 else base
        return ".".join([*base, *([module] if module else [])])

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        module = self._absolute(node.module, node.level)
        named = [f"{module}.{alias.name}" for alias in node.names
                 if f"{module}.{alias.name}" in self.known]
        if named:  # `from referee.storage import store`: the module store, not the package
            for sub in named:
                self._add(sub, node.lineno)
            if len(named) < len(node.names):
                self._add(module, node.lineno)
        else:
            self._add(module, node.lineno)

    def _imported(self, node: ast.Call, what: str) -> None:
        """An import by name: the module it names, or a computed import when it is no text."""
        name = self.text(node.args[0]) if node.args else self.text(
            next((k.value for k in node.keywords if k.arg == "name"), None))
        if name is None:
            self.calls.append(("a computed import", node.lineno))
            return
        level = len(name) - len(name.lstrip("."))
        package = None
        if level and what == "importlib.import_module":
            given = node.args[1] if len(node.args) > 1 else next(
                (k.value for k in node.keywords if k.arg == "package"), None)
            package = self.text(given)
            if package is None:
                self.calls.append(("a computed import", node.lineno))
                return
        self._add(self._absolute(name[level:] or None, level, package), node.lineno)

    def visit_Call(self, node: ast.Call) -> None:
        what = self.dotted(node.func) or ""
        if what in BUILTIN_CALLS:
            self.calls.append((what, node.lineno))
        if what in IMPORT_CALLS:
            self._imported(node, what)
        owner, _, attr = what.rpartition(".")
        if owner == "os" and attr in ("open", "fdopen", "scandir", "listdir", "system",
                                      "popen", "startfile"):
            self.calls.append((what, node.lineno))
        elif owner == "tomllib" and attr == "load":
            self.calls.append(("tomllib.load", node.lineno))
        elif owner == "logging" and (attr.endswith("Handler") or any(
                k.arg in ("filename", "stream", "handlers") for k in node.keywords)):
            self.calls.append((what, node.lineno))
        elif owner == "random" and what not in OWN_RANDOM:
            self.calls.append((what, node.lineno))
        elif isinstance(node.func, ast.Attribute) and node.func.attr in FILE_METHODS:
            value = node.func.value
            if not (isinstance(value, ast.Name) and value.id in ("str", "re", "self")):
                self.calls.append((f".{node.func.attr}()", node.lineno))
        self.generic_visit(node)

    def _stream(self, what: str | None, line: int) -> bool:
        for prefix, stream in STREAM_NAMES.items():
            if what == prefix or (what or "").startswith(prefix + "."):
                self.calls.append((stream, line))
                return True
        return False

    def visit_Attribute(self, node: ast.Attribute) -> None:
        what = self.dotted(node)
        if self._stream(what, node.lineno):
            return  # ``sys.stdout.write``: said once, not for each attribute on the way
        if what == "sys.modules":
            self.calls.append(("sys.modules", node.lineno))
        self.generic_visit(node)

    def visit_Name(self, node: ast.Name) -> None:
        if node.id in self.aliases:
            self._stream(self.dotted(node), node.lineno)  # ``from sys import stdout``


@functools.cache
def _texts(text: str) -> dict[str, str]:
    """Every name the module ``text`` binds to a string, once only (a name bound twice is no
    text); read once for each text, whatever the package around it."""
    seen: dict[str, str | None] = {}
    for node in sources.nodes(text):
        if isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Name):
                    value = node.value
                    text = value.value if isinstance(value, ast.Constant) and isinstance(
                        value.value, str) else None
                    seen[target.id] = text if target.id not in seen else None
    return {name: text for name, text in seen.items() if text is not None}


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
    # The tree, its nodes and its texts are shared by text (``tests/sources.py``): a module
    # planted beside this one changes ``known`` and is re-read here, but not re-parsed.
    visitor = Imports(name, is_package, set(known), _texts(text))
    for node in sources.nodes(text):  # every alias first: a function may use a name bound below
        if isinstance(node, ast.Import | ast.ImportFrom):
            visitor.alias(node)
    visitor.visit(sources.tree(text))
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
            said = _said(name, where, what)
            if said is not None:
                problems.append(f"{name}:{line}: {said}")
    for group in cycles(_arrows(found, seen)):
        # A package's __init__ importing its own modules is the package, not a cycle.
        if any(all(m == p or m.startswith(p + ".") for m in group) for p in group):
            continue
        problems.append(f"import cycle: {' -> '.join(group)}")
    return problems


def _said(name: str, where: str, what: str) -> str | None:
    """What the guard says of a call (or a name) ``what`` in module ``name`` of layer
    ``where``, or None when it is allowed there."""
    if where == "cli":
        return None
    if what in ("print", "sys.stdout", "sys.stderr"):
        return f"{what} below the CLI (only the CLI prints)"
    if what.startswith("logging."):
        return f"{what} makes a log below the CLI (only the CLI prints)"
    if what in ("input", "breakpoint"):
        return f"{what} reads the terminal below the CLI (only the CLI asks)"
    if what in ("exec", "eval", "compile"):
        return f"{what} runs text as code below the CLI"
    if what == "sys.modules":
        return "sys.modules reaches a module no import names, below the CLI"
    if what == "a computed import" and name not in COMPUTED_IMPORTS:
        return "a computed import (a module no text in it names) below the CLI"
    if what.startswith("random."):
        return (f"{what} draws from or seeds the shared random generator below the CLI (use a "
                "random.Random of its own)")
    if where in PURE and what != "a computed import":
        return f"{what} reaches a file or a module in the pure {where}"
    return None
