"""The guard cannot be fooled: twenty mistakes, each planted alone in a copy of the package,
and the static guard (``tests/layers.py``, which reads the code) and the run-time guard
(``tests/core_audit.py``, which runs the core under an audit hook) together name all twenty.

The first twelve are violations of the house's order, five of them of the kinds the static
guard once missed (an import by a relative name and its package, by a name held in a
variable, ``from sys import stdout``, a file read through ``pkgutil``, a log file opened at
import); the last eight are probes of the ways round a guard that reads names. Each says which
guard must see it: the static one sees code that never runs, the run-time one sees what a name
hides. All copies run in one process of the run-time guard."""

from __future__ import annotations

import compileall
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

import pytest

from tests import layers

PACKAGE = Path(__file__).resolve().parents[1] / "referee"
AUDIT = Path(__file__).resolve().parent / "core_audit.py"


class Plant(NamedTuple):
    """A mistake: the file it goes in, the text appended, and what each guard must say of it
    (None: that guard cannot see it, as the run-time guard cannot see code that never runs,
    or a module outside the core)."""

    name: str
    target: str
    text: str
    static: str | None
    runtime: str | None


def wrap(function: str, body: str) -> str:
    """A planted mistake inside ``function``, which the hand the run-time guard plays calls."""
    return (f"_{function} = {function}\n\n\ndef {function}(*args, **kw):\n"
            f"    {body}\n    return _{function}(*args, **kw)\n")


PLANTS = [
    # -- the twelve violations ------------------------------------------------------------
    Plant("import_module-with-package", "storage/chain.py",
          "import importlib\n\n\ndef _later():\n"
          "    return importlib.import_module('.printing', 'referee.cli')\n",
          "imports referee.cli.printing (cli), above storage", None),
    Plant("__import__-of-a-variable", "storage/files.py",
          "NAME = 'referee.cli.main'\n\n\ndef _later():\n    return __import__(NAME)\n",
          "imports referee.cli.main (cli), above storage", None),
    Plant("from-sys-import-stdout", "evening/views.py",
          "from sys import stdout\n\n" + wrap("status", "stdout.write('status\\n')"),
          "sys.stdout below the CLI", "wrote to the real stdout"),
    Plant("pkgutil.get_data", "rules/scenario.py",
          "import pkgutil\nimport tomllib\n\n"
          "POWERS = tomllib.loads(pkgutil.get_data('referee', 'powers.toml').decode())\n",
          "imports pkgutil", "open("),
    Plant("logging.basicConfig(filename)", "rules/hands.py",
          "import logging\n\nlogging.basicConfig(filename='hands.log')\n",
          "logging.basicConfig makes a log below the CLI", "open("),
    Plant("import-up", "rules/pots.py", "from referee.storage import store\n",
          "imports referee.storage.store (storage), above rules",
          "imports referee.storage"),
    Plant("relative-import-up", "evening/points.py", "from ..storage import files\n",
          "imports referee.storage.files (storage), above evening",
          "imports referee.storage"),
    Plant("lazy-import-up", "evening/betting.py",
          "def _later():\n    from referee.cli import main\n    return main\n",
          "imports referee.cli.main (cli), above evening", None),
    Plant("print-in-storage", "storage/files.py", "def _loud():\n    print('written')\n",
          "print below the CLI", None),
    Plant("sys.stdout", "evening/play.py",
          "import sys\n\n" + wrap("start_hand", "sys.stdout.write('dealt\\n')"),
          "sys.stdout below the CLI", "wrote to the real stdout"),
    Plant("open", "rules/cards.py", wrap("parse_cards", "open(__file__).close()"),
          "open reaches a file", "open("),
    Plant("Path.read_text", "evening/folds.py",
          "from pathlib import Path\n\nTEXT = Path(__file__).read_text()\n",
          ".read_text() reaches a file", "open("),
    # -- the eight probes ------------------------------------------------------------------
    Plant("builtins.print", "evening/views.py",
          "import builtins\n\n" + wrap("status", "builtins.print('status')"),
          "print below the CLI", "wrote to the real stdout"),
    Plant("sys.__stdout__", "rules/odds.py", "import sys\n\nsys.__stdout__.write('odds\\n')\n",
          "sys.stdout below the CLI", "wrote to the real stdout"),
    Plant("sys.modules", "evening/souls.py",
          "import sys\n\n\ndef _store():\n    return sys.modules['referee.storage.store']\n",
          "sys.modules reaches a module", None),
    Plant("asyncio.create_subprocess_exec", "evening/count.py",
          "import asyncio\n\n\nasync def _run():\n"
          "    return await asyncio.create_subprocess_exec('true')\n\n"
          "try:\n    asyncio.run(_run())\nexcept PermissionError:\n    pass\n",
          "imports asyncio", "socket.__new__"),  # the loop's own socket, before the process
    Plant("input", "evening/commands.py", "WHO = input('who? ')\n",
          "input reads the terminal below the CLI", "builtins.input"),
    Plant("random.seed", "rules/equity.py", "import random\n\nrandom.seed(7)\n",
          "random.seed draws from or seeds the shared random generator",
          "changed the shared random generator"),
    Plant("linecache.getlines", "rules/hands.py",
          "import linecache\n\nLINES = linecache.getlines(__file__)\n",
          "imports linecache", "open("),
    Plant("exec", "evening/views.py", "exec('import referee.cli.printing')\n",
          "exec runs text as code below the CLI", "imports referee.cli"),
]


def in_core(plant: Plant) -> bool:
    return plant.target.startswith(("rules/", "evening/"))


class Copies(NamedTuple):
    root: Path
    pristine: Path
    planted: dict[str, Path]  # plant -> its copy of the package


@pytest.fixture(scope="module")
def copies(tmp_path_factory: pytest.TempPathFactory) -> Copies:
    """Each plant in a copy of its own: files linked to one pristine copy, the planted file
    written anew."""
    root = tmp_path_factory.mktemp("planted")
    pristine = root / "pristine" / "referee"
    shutil.copytree(PACKAGE, pristine, ignore=shutil.ignore_patterns("__pycache__"))
    for part in ("rules", "evening"):  # each copy imports its core from bytecode
        compileall.compile_dir(pristine / part, quiet=2, workers=1)
    compileall.compile_dir(pristine, maxlevels=0, quiet=2, workers=1)
    planted: dict[str, Path] = {}
    for plant in PLANTS:
        copy = root / plant.name / "referee"
        shutil.copytree(pristine, copy, copy_function=os.link)
        path = copy / plant.target
        text = path.read_text(encoding="utf-8")
        path.unlink()  # a file of its own, not the pristine one's link
        path.write_text(f"{text}\n\n{plant.text}", encoding="utf-8")
        planted[plant.name] = copy
    return Copies(root, pristine, planted)


@pytest.fixture(scope="module")
def static(copies: Copies) -> dict[str, list[str]]:
    """Plant -> what the static guard says of its copy."""
    return {name: layers.check(copy) for name, copy in copies.planted.items()}


@pytest.fixture(scope="module")
def runtime(copies: Copies, request: pytest.FixtureRequest) -> dict[str, list[str]]:
    """Plant -> what the run-time guard says of its copy (the pristine copy under ""): the
    copies with a plant in the core, all in one process, while the static guard reads."""
    report = copies.root / "report.json"
    audited = [copies.pristine, *(copies.planted[p.name] for p in PLANTS if in_core(p))]
    running = subprocess.Popen([sys.executable, str(AUDIT), str(report), *map(str, audited)],
                               cwd=copies.root, stdin=subprocess.DEVNULL)
    try:
        request.getfixturevalue("static")
    finally:
        assert running.wait(timeout=600) == 0
    found = json.loads(report.read_text(encoding="utf-8"))
    said = {name: found.get(str(copy.resolve()), []) for name, copy in copies.planted.items()}
    return {"": found[str(copies.pristine.resolve())], **said}


@pytest.mark.parametrize("plant", PLANTS, ids=[p.name for p in PLANTS])
def test_the_static_guard_names_each_plant_in_its_module(static: dict[str, list[str]],
                                                          plant: Plant) -> None:
    module = "referee." + plant.target.removesuffix(".py").replace("/", ".")
    said = [line for line in static[plant.name] if line.startswith(module + ":")]
    assert plant.static is not None and any(plant.static in line for line in said), \
        static[plant.name]


@pytest.mark.system
def test_the_core_runs_clean_under_the_audit_hook(runtime: dict[str, list[str]]) -> None:
    """The core as it is: no file, process, socket, terminal or import up, and no output."""
    assert runtime[""] == []


@pytest.mark.system
@pytest.mark.parametrize("plant", PLANTS, ids=[p.name for p in PLANTS])
def test_the_run_time_guard_names_what_the_core_does(runtime: dict[str, list[str]],
                                                     plant: Plant) -> None:
    said = runtime[plant.name]
    if plant.runtime is None:
        # Outside the core, or never run: the static guard's to see.
        assert said == [] and (not in_core(plant) or "def _" in plant.text)
        return
    assert any(plant.runtime in line for line in said), said
    core = plant.target.split("/")[0]
    assert all(f"from {core}/" in line for line in said if "(from " in line), said


@pytest.mark.system
def test_the_two_guards_together_catch_twenty_of_twenty(
        static: dict[str, list[str]], runtime: dict[str, list[str]]) -> None:
    caught = [p.name for p in PLANTS if static[p.name] or runtime[p.name]]
    assert len(PLANTS) == 20 and caught == [p.name for p in PLANTS]
    assert sum(1 for p in PLANTS if runtime[p.name]) == 15  # what runs in the core


@pytest.mark.parametrize(("event", "args"), [
    ("subprocess.Popen", ("true", ["true"], None, None)), ("os.system", (b"true",)),
    ("socket.connect", (None, ("example.org", 80))), ("open", ("e.json", "r", 0)),
    ("builtins.input", ("who? ",)), ("import", ("referee.cli.main",)),
    ("import", ("referee.storage",))])
def test_the_hook_refuses_the_core_each_way_out(monkeypatch: pytest.MonkeyPatch, event: str,
                                                args: tuple[object, ...]) -> None:
    """Called as the audit would call it, from a frame of the core (this file's, here)."""
    from tests import core_audit

    watch = core_audit.Watch(PACKAGE)
    watch.core = (str(Path(__file__).resolve()),)
    monkeypatch.setattr(core_audit, "WATCH", watch)
    with pytest.raises(PermissionError):
        core_audit.hook(event, args)
    assert len(watch.found) == 1 and "test_core_audit.py:" in watch.found[0]
    core_audit.hook("import", ("referee.rules.cards",))  # the core's own: allowed
    core_audit.hook("compile", (None, "<string>"))
    assert len(watch.found) == 1
