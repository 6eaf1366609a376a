"""The one-way house, guarded (``tests/layers.py``): ``base < rules < evening < storage <
content < report < serve < cli``, no import cycle (not even for the type checker), only the CLI
prints, and the pure core touches no file. The guard proves it can fail: each mistake below is
planted in a copy of the package, and the guard must name it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests import layers

PACKAGE = Path(__file__).resolve().parents[1] / "referee"


def test_the_house_keeps_its_order() -> None:
    assert layers.check(PACKAGE) == []


def test_the_graph_is_read_from_the_code() -> None:
    """The guard sees the arrows that are there (relative, lazy and typing imports too)."""
    arrows = layers.graph(PACKAGE)
    assert "referee.evening.state" in arrows["referee.evening.folds"]
    assert "referee.rules.pots" in arrows["referee.evening.betting"]
    assert "referee.storage.store" in arrows["referee.storage.audit"]  # for the type checker
    assert not any(m.startswith("referee.cli") for m in arrows["referee.evening.play"])
    assert {layers.layer(m) for m in arrows} >= {name for name, _ in layers.LAYERS}


#: The modules that play the table: the powers sit below them (R26, S11; the powers read the
#: betting only through what ``betting.now`` hands a use).
TABLE_MACHINE = {"referee.evening.betting", "referee.evening.play", "referee.evening.showdown",
                 "referee.evening.power_moves", "referee.evening.pots"}


def test_the_powers_sit_below_the_betting_machine() -> None:
    """A power never calls the betting: no module of ``evening/powers/`` imports the modules
    that play the table, even lazily; ``betting`` imports the powers, and ``power_moves`` is
    where a use meets a bet."""
    arrows = layers.graph(PACKAGE)
    powers = {m: sorted(arrows[m] & TABLE_MACHINE) for m in arrows
              if m.startswith("referee.evening.powers.")}
    assert len(powers) >= 6 and all(not up for up in powers.values()), powers
    assert "referee.evening.powers.building" in arrows["referee.evening.betting"]
    assert {"referee.evening.betting", "referee.evening.play",
            "referee.evening.powers.use"} <= arrows["referee.evening.power_moves"]


def test_every_layer_is_ranked_once() -> None:
    names = [name for name, _ in layers.LAYERS]
    assert names == ["base", "rules", "evening", "storage", "content", "report", "table", "serve",
                     "cli"]
    assert layers.layer("referee.storage.store") == "storage"
    assert layers.layer("referee.cli.main") == "cli" and layers.layer("referee") == "cli"
    assert layers.layer("referee.nowhere") is None


TYPING = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    {}\n"

#: (file to change, text appended to it, what the guard must say about it)
PLANTED = [
    ("rules/pots.py", "from referee.evening import state\n",
     "referee.rules.pots:", "imports referee.evening.state (evening), above rules"),
    ("evening/points.py", "from ..storage import store\n",
     "referee.evening.points:", "imports referee.storage.store (storage), above evening"),
    ("evening/betting.py", "def _later():\n    from referee.cli import main\n    return main\n",
     "referee.evening.betting:", "imports referee.cli.main (cli), above evening"),
    ("storage/chain.py", TYPING.format("from referee.report import build"),
     "referee.storage.chain:", "imports referee.report (report), above storage"),
    ("report.py", "import referee.cli.main\n",
     "referee.report:", "imports referee.cli.main (cli), above report"),
    ("evening/state.py", "def _later():\n    from referee.evening import folds\n"
     "    return folds\n", "import cycle:", "referee.evening.powers.kinds -> "
     "referee.evening.roster -> referee.evening.state"),  # the cycle's last modules, by name
    ("storage/files.py", "def _loud():\n    print('written')\n",
     "referee.storage.files:", "print below the CLI"),
    ("evening/views.py", "import sys\n\ndef _loud():\n    sys.stdout.write('x')\n",
     "referee.evening.views:", "sys.stdout below the CLI"),
    ("rules/cards.py", "def _peek():\n    return open('deck.txt').read()\n",
     "referee.rules.cards:", "open reaches a file"),
    ("evening/folds.py", "from pathlib import Path\n\ndef _peek():\n"
     "    return Path('e.json').read_text()\n",
     "referee.evening.folds:", ".read_text() reaches a file"),
    ("rules/scenario.py", "import tomllib\n\ndef _peek(f):\n    return tomllib.load(f)\n",
     "referee.rules.scenario:", "tomllib.load reaches a file"),
    ("evening/souls.py", "def _later():\n    import importlib\n"
     "    return importlib.import_module('referee.storage.store')\n",
     "referee.evening.souls:", "imports importlib"),
    ("serve/frame.py", "import rich\n", "referee.serve.frame:",
     "imports rich, which only cli may use"),
    ("evening/state.py", "import tinydb\n",
     "referee.evening.state:", "imports tinydb, which only storage may use"),
    ("helpers.py", "X = 1\n", "referee.helpers:", "belongs to no layer"),
]


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    copy = tmp_path_factory.mktemp("house") / "referee"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    assert layers.check(copy) == []  # the copy is as sound as the package
    return copy


@pytest.mark.parametrize(("target", "text", "where", "said"), PLANTED,
                         ids=[f"{t}:{s.split()[0]}" for t, _, _, s in PLANTED])
def test_the_guard_catches_a_planted_mistake(pristine: Path, tmp_path: Path, target: str,
                                             text: str, where: str, said: str) -> None:
    copy = tmp_path / "referee"
    shutil.copytree(pristine, copy)
    path = copy / target
    path.write_text((path.read_text(encoding="utf-8") if path.exists() else "") + "\n" + text,
                    encoding="utf-8")
    found = layers.check(copy)
    assert any(line.startswith(where) and said in line for line in found), found


def test_the_planted_mistakes_are_every_kind_the_guard_knows() -> None:
    """Each kind of violation the guard reports is planted at least once above."""
    kinds = ["above rules", "above evening", "above storage", "above report", "import cycle",
             "print below", "sys.stdout below", "open reaches", ".read_text() reaches",
             "tomllib.load", "imports importlib", "only cli may use", "only storage may use",
             "belongs to no layer"]
    assert len(PLANTED) >= 12
    assert all(any(kind in said or kind in where for _, _, where, said in PLANTED)
               for kind in kinds)


def test_every_package_of_the_source_tree_is_installed() -> None:
    """A package moved or added under ``referee/`` is named in pyproject.toml, or a regular
    (not editable) install would leave it out and the console would fail on its import."""
    import tomllib

    root = Path(__file__).resolve().parent.parent
    listed = set(tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
                 ["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(root).parts)
             for p in (root / "referee").rglob("__init__.py")}
    assert found <= listed, sorted(found - listed)


def test_no_module_of_the_package_is_over_600_lines() -> None:
    """A module a reader takes in at one sitting: none of the package over 600 lines."""
    long = {str(p.relative_to(PACKAGE)): n for p in sorted(PACKAGE.rglob("*.py"))
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > 600}
    assert long == {}
