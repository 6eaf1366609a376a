"""A power cut, not only a kill: a file-system shim for the tests, as SQLite's and LazyFS's.

``Recorder`` wraps the ``os`` calls a command makes under one folder (open, write, pwrite,
fsync, rename/replace, link, unlink, mkdir, close) and lets them happen, noting each in order.
``Disk`` replays a prefix of that record over the folder as it stood before the command and
builds what a power cut at that moment could leave: only what was fsynced survives. A file's
bytes are those of its last ``fsync``; a name (a new file, a rename, a link, an unlink, a new
folder) holds only once the folder that holds it was fsynced, else the name is as it was
before; a folder made but not yet fsynced into its parent is gone with all it holds. That is
the worst a disk may do; a real disk keeps at least that much.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

DIR = "<folder>"  # a folder's entry, in place of a file's inode (deepcopy keeps a str)


@dataclass
class Inode:
    """A file's bytes: as the process sees them, and as the disk holds them."""

    volatile: bytearray
    durable: bytes


@dataclass
class Disk:
    """The folder ``root`` as a power cut would leave it, op by op."""

    root: str
    volatile: dict[str, Any] = field(default_factory=dict)
    durable: dict[str, Any] = field(default_factory=dict)
    fds: dict[int, tuple[str, Any, int]] = field(default_factory=dict)  # fd -> path, inode, at

    @classmethod
    def of(cls, root: Path) -> Disk:
        disk = cls(str(root))
        for folder, dirs, names in os.walk(root):
            for name in dirs:
                disk.volatile[os.path.join(folder, name)] = DIR
            for name in names:
                full = os.path.join(folder, name)
                data = Path(full).read_bytes()
                disk.volatile[full] = Inode(bytearray(data), data)
        disk.durable = dict(disk.volatile)
        return disk

    def apply(self, op: tuple[Any, ...]) -> None:
        kind = op[0]
        if kind == "open":
            _, path, fd, flags = op
            node = self.volatile.get(path)
            if node is None and flags & os.O_CREAT:
                node = self.volatile[path] = Inode(bytearray(), b"")
            if node is not None and node is not DIR and flags & os.O_TRUNC:
                node.volatile[:] = b""
            self.fds[fd] = (path, node, 0)
        elif kind in ("write", "pwrite"):
            fd, data = op[1], op[2]
            if fd not in self.fds:
                return
            path, node, at = self.fds[fd]
            where = op[3] if kind == "pwrite" else at
            if isinstance(node, Inode):
                buf = node.volatile
                buf[where:where + len(data)] = data
            if kind == "write":
                self.fds[fd] = (path, node, at + len(data))
        elif kind == "fsync":
            entry = self.fds.get(op[1])
            if entry is None:
                return
            path, node, _ = entry
            if node is DIR:
                self._sync_folder(path)
            elif isinstance(node, Inode):
                node.durable = bytes(node.volatile)
        elif kind == "close":
            self.fds.pop(op[1], None)
        elif kind == "rename":
            _, src, dst = op
            moved = {p: n for p, n in self.volatile.items() if p == src or p.startswith(src + "/")}
            for p in moved:
                del self.volatile[p]
            for p, n in moved.items():
                self.volatile[dst + p[len(src):]] = n
        elif kind == "link":
            self.volatile[op[2]] = self.volatile[op[1]]
        elif kind == "unlink":
            self.volatile.pop(op[1], None)
        elif kind == "mkdir":
            self.volatile[op[1]] = DIR

    def _sync_folder(self, folder: str) -> None:
        """An fsync of ``folder``: every name directly in it holds as the process sees it."""
        def inside(p: str) -> bool:
            return os.path.dirname(p) == folder
        for p in [p for p in self.durable if inside(p) and p not in self.volatile]:
            del self.durable[p]
        for p, node in self.volatile.items():
            if inside(p):
                self.durable[p] = node

    def build(self, into: Path) -> None:
        """Write the disk a power cut now would leave into the empty folder ``into``."""
        def reachable(p: str) -> bool:
            parent = os.path.dirname(p)
            return parent == self.root or (self.durable.get(parent) is DIR and reachable(parent))
        for p, node in sorted(self.durable.items()):
            if not reachable(p):
                continue
            target = into / os.path.relpath(p, self.root)
            if node is DIR:
                target.mkdir(parents=True, exist_ok=True)
            else:
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(node.durable)


class Recorder:
    """Notes every ``os`` call that changes a file under ``root``, in order; ``mark`` adds a
    named point of the command's own (such as "answered")."""

    def __init__(self, root: Path) -> None:
        self.root = str(root)
        self.ops: list[tuple[Any, ...]] = []
        self._fds: set[int] = set()

    def mine(self, path: Any) -> bool:
        try:
            full = os.path.abspath(os.fsdecode(path))
        except TypeError:
            return False
        return full == self.root or full.startswith(self.root + os.sep)

    def mark(self, name: str) -> None:
        self.ops.append(("mark", name))

    @contextmanager
    def recording(self, monkeypatch: pytest.MonkeyPatch) -> Iterator[Recorder]:
        real = {name: getattr(os, name) for name in
                ("open", "write", "pwrite", "fsync", "close", "replace", "rename", "link",
                 "unlink", "mkdir")}
        rec = self

        def open_(path: Any, flags: int, mode: int = 0o777, *, dir_fd: Any = None) -> int:
            fd = real["open"](path, flags, mode) if dir_fd is None else real["open"](
                path, flags, mode, dir_fd=dir_fd)
            if rec.mine(path):
                full = os.path.abspath(os.fsdecode(path))
                rec._fds.add(fd)
                if stat.S_ISDIR(os.fstat(fd).st_mode):
                    rec.ops.append(("opendir", full, fd))
                else:
                    rec.ops.append(("open", full, fd, flags))
            return fd

        def write(fd: int, data: Any) -> int:
            n: int = real["write"](fd, data)
            if fd in rec._fds:
                rec.ops.append(("write", fd, bytes(memoryview(data)[:n])))
            return n

        def pwrite(fd: int, data: Any, offset: int) -> int:
            n: int = real["pwrite"](fd, data, offset)
            if fd in rec._fds:
                rec.ops.append(("pwrite", fd, bytes(data[:n]), offset))
            return n

        def fsync(fd: int) -> None:
            real["fsync"](fd)
            if fd in rec._fds:
                rec.ops.append(("fsync", fd))

        def close(fd: int) -> None:
            real["close"](fd)
            if fd in rec._fds:
                rec._fds.discard(fd)
                rec.ops.append(("close", fd))

        def move(name: str) -> Any:
            def call(src: Any, dst: Any, **kw: Any) -> None:
                real[name](src, dst, **kw)
                if rec.mine(dst) or rec.mine(src):
                    rec.ops.append(("rename", os.path.abspath(os.fsdecode(src)),
                                    os.path.abspath(os.fsdecode(dst))))
            return call

        def link(src: Any, dst: Any, **kw: Any) -> None:
            real["link"](src, dst, **kw)
            if rec.mine(dst):
                rec.ops.append(("link", os.path.abspath(os.fsdecode(src)),
                                os.path.abspath(os.fsdecode(dst))))

        def unlink(path: Any, **kw: Any) -> None:
            real["unlink"](path, **kw)
            if rec.mine(path):
                rec.ops.append(("unlink", os.path.abspath(os.fsdecode(path))))

        def mkdir(path: Any, mode: int = 0o777, **kw: Any) -> None:
            real["mkdir"](path, mode, **kw)
            if rec.mine(path):
                rec.ops.append(("mkdir", os.path.abspath(os.fsdecode(path))))

        with monkeypatch.context() as patch:
            for name, fn in (("open", open_), ("write", write), ("pwrite", pwrite),
                             ("fsync", fsync), ("close", close), ("replace", move("replace")),
                             ("rename", move("rename")), ("link", link), ("unlink", unlink),
                             ("mkdir", mkdir)):
                patch.setattr(os, name, fn)
            yield self


def disks(before: Disk, ops: list[tuple[Any, ...]]) -> Iterator[tuple[int, Disk, bool]]:
    """For every prefix of ``ops`` (none, the first, ... all): (its length, the disk a power cut
    then would leave, whether the command's answer had been given by then)."""
    import copy

    disk = copy.deepcopy(before)
    answered = False
    yield 0, disk, answered
    for n, op in enumerate(ops, start=1):
        if op[0] == "mark":
            answered = answered or op[1] == "answered"
        elif op[0] == "opendir":
            disk.fds[op[2]] = (op[1], DIR, 0)
        else:
            disk.apply(op)
        yield n, disk, answered
