"""Shared fixtures: a pinned terminal width, no colour, a temp evening file per test, writes
without fsync (unless a test is ``durable``), and no process started by a test that is not marked
``system``.

Markers (pyproject.toml): ``system`` for tests that start processes, browsers or tmux
(``pytest -m "not system"`` is the quick loop); ``durable`` for tests of what reaches the disk,
which keep every fsync.
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
import typer.testing
from typer.testing import CliRunner

from tests import profiles

profiles.load()

# The compiled modules are kept between runs (sys.dont_write_bytecode, in tests/__init__.py).

# Typer converts the whole command tree (evaluating every annotation) on each invoke; the tree
# never changes during a test run, so build each app's command once.
typer.testing._get_command = functools.lru_cache(maxsize=None)(typer.testing._get_command)


#: Where the run's temporary folders go when no --basetemp is given: a folder of its own in
#: memory (tmpfs), when the machine has one. Every CLI test writes an evening, its backups, its
#: lock and its segments; on the disk each create, rename and delete (with the file system's
#: discard) costs up to a millisecond, and pytest's sweep of old runs' folders seconds more.
MEMORY = Path("/dev/shm")
#: The machine's own temporary folder, on its disk, whatever the run sets TMPDIR to.
DISK = Path(os.environ.get("REFEREE_DISK_TMP") or tempfile.gettempdir())


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """``-n auto``: one worker a core, and one more when the system tests run. Those spend
    much of their time waiting (for a browser to draw, a server to answer, a process to die),
    and a worker more keeps both cores busy meanwhile: on this 2-core machine the whole run
    went from about 62 s to 53 s. ``PYTEST_XDIST_AUTO_NUM_WORKERS`` still decides when set."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    waiting = "not system" not in (config.option.markexpr or "")
    return (cores or 1) + (1 if waiting else 0)


#: What each test module took in the runs before (seconds, the sum of its tests' setup, call
#: and teardown), kept in pytest's cache (.pytest_cache): the next run hands the longest out
#: first.
SECONDS = "referee/module-seconds"
#: The same, measured on this project's machine, for a run without pytest's cache (a fresh
#: clone, as CI runs): only the order depends on them. Refreshed by copying the cache's
#: ``.pytest_cache/v/referee/module-seconds`` over it.
MEASURED = Path(__file__).with_name("module_seconds.json")
#: This run's seconds by module, summed where the reports arrive (the controller under xdist).
_RAN: dict[str, float] = {}


def _module(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


@pytest.hookimpl(trylast=True)  # after Hypothesis has marked its tests
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under xdist, the modules longest first (each module's tests in their own order), so
    that no long module is left to run alone at the end. xdist's ``loadscope`` hands out
    modules with the most tests first, which put the longest (the crash tests, the stateful
    machines: one to three tests each) last, a worker running each alone at the end.

    How long a module takes is what it took in the runs before, where pytest's cache has it,
    else what it took on this project's machine (``MEASURED``); a module timed in neither (a
    new one) is guessed from its tests: half a second for one that starts processes or is a
    property test, 20 ms for any other."""
    if not os.environ.get("PYTEST_XDIST_WORKER") or not items:
        return
    cache = getattr(config, "cache", None)
    seconds: dict[str, float] = json.loads(MEASURED.read_text()) if MEASURED.exists() else {}
    seconds.update((cache.get(SECONDS, None) if cache is not None else None) or {})
    guess: dict[str, float] = {}
    first: dict[str, int] = {}
    for at, item in enumerate(items):
        module = _module(item.nodeid)
        first.setdefault(module, at)
        slow = item.get_closest_marker("system") or item.get_closest_marker("hypothesis")
        guess[module] = guess.get(module, 0.0) + (0.5 if slow else 0.02)

    def longest_first(item: pytest.Item) -> tuple[float, int]:
        module = _module(item.nodeid)
        return -float(seconds.get(module, guess[module])), first[module]

    items.sort(key=longest_first)  # stable: a module's own tests keep their order


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        module = _module(report.nodeid)
        _RAN[module] = _RAN.get(module, 0.0) + report.duration


def pytest_configure(config: pytest.Config) -> None:
    if getattr(config.option, "dist", None) == "loadscope":
        config.option.loadscopereorder = False  # the order is pytest_collection_modifyitems'
    if config.option.basetemp or os.environ.get("PYTEST_XDIST_WORKER") or \
            os.environ.get("REFEREE_TEST_ON_DISK") or not MEMORY.is_dir() or \
            not os.access(MEMORY, os.W_OK):
        return  # a worker gets its part of the controller's folder from xdist
    made = tempfile.mkdtemp(prefix="referee-tests-", dir=MEMORY)
    config.option.basetemp = str(Path(made) / "pytest")
    config.stash[_MADE] = made
    # The rest of the run's temporary files too (the stateful machines' folders, what the
    # processes a system test starts write), in this process, the workers and their children.
    scratch = Path(made) / "tmp"
    scratch.mkdir()
    os.environ["REFEREE_DISK_TMP"] = str(DISK)  # for the workers: where the disk is
    os.environ["TMPDIR"] = tempfile.tempdir = str(scratch)


_MADE = pytest.StashKey[str]()


def pytest_sessionfinish(session: pytest.Session) -> None:
    browser = sys.modules.get("tests.browser")
    if browser is not None:
        browser.close_shared()  # the Chromium the browser tests of this process shared
    cache = getattr(session.config, "cache", None)
    if _RAN and cache is not None:  # the modules this run timed, beside those it did not run
        kept: dict[str, float] = cache.get(SECONDS, None) or {}
        # Half this run's time, half the runs' before: one run on a loaded machine moves a
        # module only halfway.
        cache.set(SECONDS, {**kept, **{m: round((s + kept.get(m, s)) / 2, 2)
                                       for m, s in _RAN.items()}})


def pytest_unconfigure(config: pytest.Config) -> None:
    made = config.stash.get(_MADE, None)
    if made is not None:
        shutil.rmtree(made, ignore_errors=True)


@pytest.fixture(autouse=True)
def _durability(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """fsync only where durability is what the test checks: half of every CLI test's time
    otherwise goes to the disk. Processes a test starts keep fsync (their own default)."""
    from referee.storage import files

    monkeypatch.setattr(files, "DURABLE", request.node.get_closest_marker("durable") is not None)


@pytest.fixture(autouse=True)
def _no_stray_processes(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """A test that starts a process must say so (``@pytest.mark.system``), so that
    ``pytest -m "not system"`` stays the quick loop it claims to be."""
    if request.node.get_closest_marker("system") is not None:
        return
    name = request.node.nodeid

    def refuse(self: Any, *args: Any, **kwargs: Any) -> None:
        raise AssertionError(f"{name} starts a process: mark it @pytest.mark.system")

    monkeypatch.setattr(subprocess.Popen, "__init__", refuse)


@pytest.fixture(autouse=True)
def _plain_terminal(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("COLUMNS", "120")
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("TERM", "dumb")
    # Never touch the real user data dir from a test.
    monkeypatch.setenv("REFEREE_DB", str(tmp_path / "default-evening.json"))
    # `rules last` remembers refusals outside the evening's folder, never in the user's cache.
    monkeypatch.setenv("REFEREE_CACHE_DIR", str(tmp_path.parent / f"{tmp_path.name}-cache"))
    import referee.cli.rulings as rulings
    from referee.cli import context

    monkeypatch.setattr(context, "_OUTSIDE", context.Context())
    monkeypatch.setattr(rulings, "memory", None)  # each test starts as a fresh process would
    monkeypatch.setattr(rulings, "on_disk", True)


@pytest.fixture
def disk_path() -> Any:
    """A temporary folder on the disk, for a test whose subject is how writes to a real disk
    pace two writers (in memory a write is too quick for the other to be woken in time)."""
    folder = Path(tempfile.mkdtemp(prefix="referee-disk-", dir=DISK))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """A fresh evening file path (not yet created)."""
    return tmp_path / "evening.json"
