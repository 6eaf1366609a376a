"""`referee rules` from an installed copy, not the checkout: a wheel built from the tree without
build isolation (offline, with this environment's setuptools and wheel), installed into a temp
folder and run from another one."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import referee
from referee.rulebook import number_of, parse

pytestmark = pytest.mark.system

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ("pyproject.toml", "README.md", "referee", "data", "docs")


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding the installed package (``site``) and its console script (``site/bin``)."""
    pytest.importorskip("setuptools", reason="building the wheel offline needs setuptools")
    pytest.importorskip("wheel", reason="building the wheel offline needs the wheel package")
    base = tmp_path_factory.mktemp("installed")
    src = base / "src"
    src.mkdir()
    for name in SHIPPED:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, src / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(path, src / name)
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    env = {**os.environ, "PIP_NO_INPUT": "1"}
    built = subprocess.run([*pip, "wheel", "--no-deps", "--no-build-isolation", "--no-index",
                            "-w", str(base / "wheels"), str(src)],
                           capture_output=True, text=True, env=env, timeout=300)
    if built.returncode != 0:
        pytest.skip(f"cannot build a wheel offline here: {built.stderr.strip()[-300:]}")
    wheel = next((base / "wheels").glob("referee-*.whl"))
    with zipfile.ZipFile(wheel) as archive:
        assert archive.read("referee/docs/rules.md") == (ROOT / "docs" / "rules.md").read_bytes()
    site = base / "site"
    subprocess.run([*pip, "install", "--no-deps", "--no-index", "--target", str(site),
                    str(wheel)], check=True, capture_output=True, env=env, timeout=300)
    return site


def _referee(site: Path, *args: str) -> subprocess.CompletedProcess[str]:
    elsewhere = site.parent / "elsewhere"
    elsewhere.mkdir(exist_ok=True)
    env = {**os.environ, "PYTHONPATH": str(site), "PYTHONDONTWRITEBYTECODE": "1"}
    script = site / "bin" / "referee"
    command = [str(script)] if script.exists() else [sys.executable, "-m", "referee"]
    return subprocess.run([*command, *args], cwd=elsewhere, capture_output=True, text=True,
                          env=env, timeout=120)


def test_the_installed_copy_reads_its_own_rulebook(installed: Path) -> None:
    done = subprocess.run([sys.executable, "-c", "import referee.cli.rulings as r; "
                           "print(r.rulebook_path())"], cwd=installed.parent,
                          env={**os.environ, "PYTHONPATH": str(installed)},
                          capture_output=True, text=True, timeout=60)
    assert Path(done.stdout.strip()) == installed / "referee" / "docs" / "rules.md"


def test_rules_id_prints_every_entry_from_the_installed_copy(installed: Path) -> None:
    book = parse((ROOT / "docs" / "rules.md").read_text(encoding="utf-8"))
    done = _referee(installed, "rules", *book.ids, "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [r.as_json() for r in book.rulings]
    done = _referee(installed, "rules", "R16")
    assert done.returncode == 0 and done.stdout.startswith("R16 The Law · ")
    done = _referee(installed, "rules", "R99")
    highest = max((i for i in book.ids if i.startswith("R")), key=number_of)  # the nearest
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and highest in done.stderr


def test_version_of_the_installed_copy_is_the_package_version(installed: Path) -> None:
    done = _referee(installed, "--version")
    assert done.stdout == f"referee {referee.__version__}\n"
    meta = subprocess.run([sys.executable, "-c", "import importlib.metadata as m; "
                           "print(m.version('referee'))"], cwd=installed.parent,
                          env={**os.environ, "PYTHONPATH": str(installed)},
                          capture_output=True, text=True, timeout=60)
    assert meta.stdout.strip() == referee.__version__
