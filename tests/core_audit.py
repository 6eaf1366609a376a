"""The run-time guard of the pure core: imports and exercises ``rules/`` and ``evening/`` under
an audit hook (``sys.addaudithook``), where the static guard (``tests/layers.py``) reads names.

Run as a script, in a process of its own (a hook cannot be removed)::

    python tests/core_audit.py REPORT PACKAGE [PACKAGE ...]

For each ``referee/`` folder given (the real one, or copies with a mistake planted in each) it
forgets every ``referee`` module, imports that folder's ``rules`` and ``evening`` modules and
plays a hand through them, and writes to REPORT (JSON) what each did that the core may not:

- any ``open`` (and listing, removing or renaming a file), subprocess, ``os.system``, socket,
  or reading the terminal (``input``), made while a core frame is on the stack; reading a
  module's own file for an import is the import's, not the core's;
- any import of ``referee.storage``, ``content``, ``report``, ``serve`` or ``cli`` while a core
  frame is on the stack (``exec`` and ``__import__`` included: the hook sees the import);
- any byte written to the real stdout or stderr (file descriptors 1 and 2) while the core ran;
- any change to the shared random generator (``random.seed`` at import, a draw from it).

The hook refuses what it sees (``PermissionError``): the core's mistake is named and not made.
Only the standard library is imported here, and nothing of ``tests``.
"""

from __future__ import annotations

import importlib
import json
import os
import random
import sys
import tempfile
import traceback
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

#: Above the core: a module of these imported while the core runs is a way up.
ABOVE = ("referee.storage", "referee.content", "referee.report", "referee.season",
         "referee.rulebook", "referee.serve", "referee.cli", "referee.__main__")
#: Audit events that reach outside the process (a file, a process, the network, the terminal).
REACH = ("open", "os.listdir", "os.scandir", "os.remove", "os.rename", "os.rmdir", "os.mkdir",
         "os.truncate", "os.chmod", "os.link", "os.symlink", "shutil.", "os.system",
         "os.exec", "os.spawn", "os.posix_spawn", "os.fork", "os.forkpty", "os.startfile",
         "subprocess.", "socket.", "pty.spawn", "ctypes.dlopen", "sqlite3.connect",
         "urllib.Request", "webbrowser.open", "builtins.input", "glob.glob", "tempfile.")
#: The import system's own frames: a file it opens while one runs is a module being read.
IMPORTING = ("_find_and_load", "_load_unlocked", "_gcd_import", "_call_with_frames_removed")


class Watch:
    """What the core of one package did: the folders of its core and what was found."""

    def __init__(self, package: Path) -> None:
        self.core = tuple(f"{package / part}{os.sep}" for part in ("rules", "evening"))
        self.found: list[str] = []

    def core_frame(self, frame: FrameType | None, *, skip_imports: bool) -> FrameType | None:
        """The innermost frame of the core on the stack from ``frame`` outwards; None if
        there is none, or (``skip_imports``) if the import system is running nearer."""
        while frame is not None:
            code = frame.f_code
            if code.co_filename.startswith(self.core):
                return frame
            if skip_imports and code.co_name in IMPORTING and code.co_filename.startswith(
                    "<frozen importlib"):
                return None
            frame = frame.f_back
        return None

    def said(self, what: str, frame: FrameType) -> None:
        where = frame.f_code.co_filename
        for base in self.core:
            where = where.replace(str(Path(base).parent) + os.sep, "")
        self.found.append(f"{what} (from {where}:{frame.f_lineno})")


WATCH: Watch | None = None
_BUSY = False


def hook(event: str, args: tuple[Any, ...]) -> None:
    """The audit hook: names and refuses what the core may not do."""
    global _BUSY
    watch = WATCH
    if watch is None or _BUSY:
        return
    _BUSY = True
    try:
        if event == "import":
            name = str(args[0])
            if not name.startswith(ABOVE):
                return
            frame = watch.core_frame(sys._getframe(1), skip_imports=False)
            if frame is not None:
                watch.said(f"imports {name}", frame)
                raise PermissionError(f"the core may not import {name}")
        elif event.startswith(REACH) and not event.startswith("socket.gethostname"):
            frame = watch.core_frame(sys._getframe(1), skip_imports=True)
            if frame is not None:
                shown = ", ".join(repr(a)[:60] for a in args[:2])
                watch.said(f"{event}({shown})", frame)
                raise PermissionError(f"the core may not {event}")
    finally:
        _BUSY = False


def core_modules(package: Path) -> list[str]:
    """The dotted names of every module of ``package``'s core, packages first."""
    names = []
    for path in sorted([*package.glob("rules/**/*.py"), *package.glob("evening/**/*.py")]):
        parts = path.relative_to(package.parent).with_suffix("").parts
        names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def play(load: Callable[[str], Any]) -> None:
    """A hand of the Fool's Errand through the core, and the side tables' empty states."""
    commands, play, folds = (load(f"referee.evening.{m}") for m in ("commands", "play", "folds"))
    views, state_module = load("referee.evening.views"), load("referee.evening.state")
    state = state_module.State()

    def do(events: list[Any]) -> None:
        nonlocal state
        for event in events:
            state = folds.apply(state, event)

    seats = [commands.parse_seat(s) for s in ("Ada:I:red:Ben:II", "Cy:III:blue")]
    do(commands.new_evening(state, "Max", seats, now=0.0, force=False))
    do(play.start_hand(state, now=0.0))
    do(play.show(state, [("Ada", "2C 3W"), ("Cy", "4C 5W"), ("Max", "KC KW KS KP")]))
    do(play.act_said(state, "Cy", "bet"))
    do(play.act_said(state, "Ada", "call"))
    do(play.show(state, [("Ada", "+6C 7W"), ("Cy", "+8C 9W"), ("Max", "+2S 3S")]))
    for _ in range(2):
        do(play.act_said(state, None, "check"))
    do(play.show(state, [("Max", "+4S")]))
    for _ in range(2):
        do(play.act_said(state, None, "check"))
    views.status(state, 0.0)
    showdown = load("referee.evening.showdown")
    do(showdown.showdown(state, [("Ada", "10C PC XX"), ("Cy", "10W PW XXI")], magic=False,
                         now=0.0))
    views.status(state, 0.0)
    streams = load("referee.streams")
    for name in streams.STREAMS:
        spec = streams.spec(name)
        spec.load(spec.dump(spec.empty()))


def _forget() -> None:
    for name in [m for m in sys.modules if m == "referee" or m.startswith("referee.")]:
        del sys.modules[name]


def audit(package: Path, scratch: Path) -> list[str]:
    """Everything ``package``'s core did that it may not, one line each."""
    global WATCH
    _forget()
    sys.path[0] = str(package.parent)
    importlib.invalidate_caches()
    watch = Watch(package)
    drawn = random.getstate()
    saved = {fd: os.dup(fd) for fd in (1, 2)}
    caught = {fd: scratch / f"fd{fd}" for fd in (1, 2)}
    for fd, path in caught.items():
        with open(path, "wb") as f:  # the real stdout and stderr, while the core runs
            os.dup2(f.fileno(), fd)
    failed = None
    WATCH = watch
    try:
        for name in core_modules(package):
            importlib.import_module(name)
        play(importlib.import_module)
    except BaseException:  # a planted mistake may break anything: say what it raised
        failed = traceback.format_exc(limit=-3)
    finally:
        WATCH = None
        for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
            if stream is not None:
                stream.flush()
        for fd, old in saved.items():
            os.dup2(old, fd)
            os.close(old)
    loaded = sys.modules.get("referee.rules")
    if loaded is None or not str(getattr(loaded, "__file__", "")).startswith(str(package)):
        watch.found.append(f"the core was not imported from {package}")
    for fd, name in ((1, "stdout"), (2, "stderr")):
        text = caught[fd].read_text(encoding="utf-8", errors="replace")
        if text:
            watch.found.append(f"wrote to the real {name}: {text[:80]!r}")
    if random.getstate() != drawn:
        watch.found.append("changed the shared random generator")
        random.setstate(drawn)
    if failed is not None and not watch.found:
        watch.found.append(f"raised: {failed.strip().splitlines()[-1]}")
    return watch.found


def main(argv: list[str]) -> int:
    report, *packages = argv
    sys.path.insert(0, "")  # sys.path[0] becomes each package's folder in turn
    sys.addaudithook(hook)
    found = {}
    with tempfile.TemporaryDirectory(prefix="core-audit-") as scratch:
        for package in packages:
            found[package] = audit(Path(package).resolve(), Path(scratch))
    Path(report).write_text(json.dumps(found, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
