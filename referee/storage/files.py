"""The file mechanics under the evening store: atomic writes, backups, the checked frame.
The lock and what a command leaves or makes under it are in ``referee.storage.lock``.

Nothing here knows what an evening is: ``referee.storage.store`` builds the event log on top.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING, cast

from referee.errors import StoreError

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from hashlib import sha256

    from referee.jsontypes import JSON, JSONObject
else:
    try:  # CPython's builtin SHA-256 (3.11): the same digests as hashlib, which would load
        # OpenSSL first, about 5 ms on every command
        from _sha256 import sha256
    except ImportError:  # other Pythons
        from hashlib import sha256

BACKUPS = 3


#: The largest evening (or segment) file read; anything bigger is no evening (``/dev/zero``).
MAX_FILE_BYTES = 256 * 1024 * 1024

#: Notes for the GM about a command that was recorded (printed by the CLI after its answer).
NOTES: list[str] = []

#: Set by the command line: commands record who wrote them, so that the next command can tell
#: whether their answer was shown (E41). Library users (tests, scripts) are not asked.
TRACK_ANSWERS = False

#: Whether a write reaches the disk before it is acknowledged (an fsync of the file, then of its
#: folder: a power cut leaves the state before the command or after it, E98). Always on for the
#: GM; only the test suite turns it off, where durability is not what a test checks
#: (tests/conftest.py; the fault, crash and power-cut tests keep it on).
DURABLE = True


#: ``O_NOATIME`` where the system has it: the reads of a command (the evening file, the names
#: in its folder, the answer slot) leave their access times alone. Nothing reads an access
#: time, and each one changed is a metadata write that the next fsync carries to the disk's
#: journal. Only a file's owner may ask it; for anyone else it is dropped and they read as
#: before.
_NOATIME: int = getattr(os, "O_NOATIME", 0)


def open_quietly(path: str | Path, flags: int) -> int:
    """``os.open(path, flags)``, without changing the file's access time where allowed."""
    global _NOATIME
    if _NOATIME:
        try:
            return os.open(path, flags | _NOATIME)
        except PermissionError:  # not the owner (EPERM): as before from now on
            _NOATIME = 0
    return os.open(path, flags)


def list_quietly(folder: str) -> list[str]:
    """``os.listdir(folder)``, without changing the folder's access time where allowed."""
    if not _NOATIME or os.listdir not in os.supports_fd:
        return os.listdir(folder)
    fd = open_quietly(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        return os.listdir(fd)
    finally:
        os.close(fd)


def fsync(fd: int) -> None:
    """``os.fsync(fd)``, unless durability is switched off (``DURABLE``)."""
    if DURABLE:
        os.fsync(fd)


def fsync_dir(directory: Path | str) -> None:
    if not DURABLE:
        return
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # the rename is done; a directory that cannot be synced is the file system's call
    finally:
        os.close(fd)


def write_failure(path: Path, exc: OSError) -> StoreError:
    """The one line for a write the disk refused: the user's situation, not a bug."""
    import errno

    code = exc.errno
    if code in (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)):
        why = f"no space left on the disk that holds {path}"
        fix = "free some space and type the command again"
    elif code in (errno.EACCES, errno.EPERM):
        why = f"no permission to write {path} or its folder"
        fix = "make them writable (chmod u+w) or give another --db"
    elif code == errno.EROFS:
        why = f"{path} is on a read-only file system"
        fix = "copy the evening to a writable disk and give that --db"
    else:
        why = f"cannot write {path} ({exc.strerror or exc})"
        fix = "check the disk and type the command again"
    return StoreError(f"{why}; nothing was written; {fix}")


def write_temp(path: Path, data: bytes | bytearray) -> str:
    """``data`` in a new temp file beside ``path``, fsynced; returns its name.

    Written with ``os.write`` itself (no buffered file object), so that every byte that
    reaches the disk goes through one call a test can fail.
    """
    # A unique name beside the target (same file system, so os.replace is atomic); made by
    # hand because importing tempfile costs more than the write itself.
    folder, name = os.path.split(path)  # plain strings: this runs on every write
    tmp = os.path.join(folder, f".{name}.{os.getpid()}.{time.monotonic_ns()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            fsync(fd)
        finally:
            os.close(fd)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return tmp


def atomic_write(path: Path, text: str | bytes) -> None:
    """Write ``text`` to ``path``: temp file, fsync, os.replace, fsync of the directory."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    tmp = write_temp(path, data)
    try:
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    fsync_dir(path.parent)


def check_size(path: Path | str, size: int) -> None:
    """Refuse a write of ``size`` bytes that no read would take back (E183): every command
    reads at most ``MAX_FILE_BYTES`` of an evening or a segment, and calls a bigger file
    damaged; acknowledged and then unreadable, the write would be lost with the backup.

    Raises:
        StoreError: ``size`` is over the cap; nothing was written.
    """
    if size > MAX_FILE_BYTES:
        raise StoreError(f"this command would make {path} {size >> 20} MB, past the "
                         f"{MAX_FILE_BYTES >> 20} MB the console reads back; nothing was "
                         "written; `referee next NEW.json` carries the evening on in a new "
                         "file (E183)", ruling="E183")


def commit_file(path: Path, data: bytes | bytearray) -> None:
    """Replace ``path`` by ``data`` atomically, then rotate the backups (E40).

    The new file is written and fsynced first, the old one hard-linked aside, and only once
    the new file is in place do the backups move up: a write the disk refuses (full, read
    only, no permission) leaves the evening and every backup as they were, and raises a
    ``StoreError`` saying nothing was written. A failure while rotating, after the commit,
    is noted (``NOTES``): the command was recorded.
    """
    check_size(path, len(data))  # E183: never a file no read takes back
    folder, name = os.path.split(path)  # plain strings: this runs on every write
    staging = os.path.join(folder, f".{name}.bak.tmp")
    made: list[str] = []
    try:
        made.append(write_temp(path, data))
        made.append(staging)
        kept = _keep_aside(path, staging)
        os.replace(made[0], path)
    except OSError as exc:
        for name in made:
            with contextlib.suppress(OSError):
                os.unlink(name)
        raise write_failure(path, exc) from None
    except BaseException:
        for name in made:
            with contextlib.suppress(OSError):
                os.unlink(name)
        raise
    if kept:
        try:
            rotate_backups(path, staging)
        except OSError as exc:
            NOTES.append(f"the command was recorded, but the backups of {path} could not be "
                         f"rotated ({exc.strerror or exc}); check the disk")
    # The new file and the backups' renames synced at once, before the answer: a power cut
    # after it must not undo the rotation, leaving the version before the command only as
    # the staging link that the next write removes (E98). Before it, a cut leaves every name
    # as it was, the evening before the command with all its backups.
    fsync_dir(folder or os.curdir)


def _keep_aside(path: Path, staging: str) -> bool:
    """The file at ``path`` hard-linked as ``staging``, to become the newest backup (a copy
    where the file system has no hard links); False when there is no file at ``path`` yet.

    No look first: the link itself says whether there is a file, and a ``staging`` left by a
    killed writer (this runs under the lock) is removed when the link finds it there.
    """
    import errno

    for attempt in (1, 2):
        try:
            os.link(path, staging)
            return True
        except FileExistsError:
            if attempt == 2:
                raise
            os.unlink(staging)
        except FileNotFoundError:
            return False
        except OSError as exc:
            if exc.errno in (errno.ENOSPC, errno.EROFS, getattr(errno, "EDQUOT", 0)):
                raise
            break
    import shutil  # no hard links on this file system: a copy

    try:
        shutil.copy2(path, staging)
    except FileNotFoundError:
        return False
    return True


def check_reachable(path: Path) -> None:
    """Refuse, in one line, a path no file can be at: a name longer than the file system
    holds, or a loop of symbolic links (E94). Whether it is a regular file is
    ``check_path``'s to say, where the evening is opened.

    Raises:
        StoreError: the path cannot name a file.
    """
    import errno

    try:
        os.stat(path)
    except OSError as exc:
        if exc.errno in (errno.ENAMETOOLONG, errno.ELOOP):
            check_path(path)  # its one line for these


def check_path(path: Path) -> os.stat_result | None:
    """Refuse, in one line, an evening path that is no file an evening could be (E94): a loop of
    symbolic links, or something that exists and is not a regular file (a pipe, whose every
    read would wait forever for a writer; a device; a folder). Touches nothing. Returns what
    ``os.stat`` found of the file there (a link followed), None when there is none."""
    import errno
    import stat

    try:
        found = os.stat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise StoreError(f"{path} is a loop of symbolic links, not an evening file; give the "
                             "path of an evening file", ruling="E94") from None
        if exc.errno == errno.ENAMETOOLONG:
            raise StoreError("the evening's path is longer than the file system allows; give a "
                             "shorter one", ruling="E94") from None
        if exc.errno == errno.ENOTDIR:
            raise StoreError(f"{path}: a part of that path is a file, not a folder; give the "
                             "path of an evening file with --db", ruling="E94") from None
        raise StoreError(f"cannot read the evening file {path}: {exc.strerror}; give the path "
                         "of an evening file with --db") from None
    mode = found.st_mode
    if not stat.S_ISREG(mode):
        what = ("a pipe" if stat.S_ISFIFO(mode) else "a folder" if stat.S_ISDIR(mode)
                else "a socket" if stat.S_ISSOCK(mode) else "a device")
        raise StoreError(f"{path} is not an evening file ({what}); nothing was read or "
                         "written; give the path of an evening file with --db", ruling="E94")
    return found


def _read_bytes(path: Path) -> bytes | None:
    try:
        # Never blocks: a pipe put there after ``check_path`` is refused below, not waited on.
        fd = open_quietly(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise StoreError(f"cannot read the evening file {path}: {exc.strerror}; give the "
                         "path of an evening file with --db") from None
    import stat

    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):  # `--db /dev/zero`, a folder, a pipe
            os.close(fd)
            raise StoreError(f"{path} is not an evening file (a device, a folder or a pipe); "
                             "give the path of an evening file with --db")
        try:
            # Up to MAX_FILE_BYTES + 1 bytes, asked for by the file's size (a buffer of the
            # largest size allowed would be mapped and dropped again on every read).
            chunks: list[bytes] = []
            got, want = 0, min(st.st_size, MAX_FILE_BYTES) + 1
            while got <= MAX_FILE_BYTES:
                chunk = os.read(fd, min(max(want - got, 1 << 16), MAX_FILE_BYTES + 1 - got))
                if not chunk:
                    break
                chunks.append(chunk)
                got += len(chunk)
        finally:
            os.close(fd)
    except OSError as exc:
        raise StoreError(f"cannot read the evening file {path}: {exc.strerror}; give the "
                         "path of an evening file with --db") from None
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)


_CHECK = b'{"check":"'
#: The answer slot after the checksum (E41): 32 hex digits naming the command that wrote the
#: file, then 32 overwritten in place once its answer is shown. Not under the checksum.
_SLOT = b',"answer":"'
SLOT_AT = len(_CHECK) + 64 + 1 + len(_SLOT)   # where the writer's token starts (86)
TOKEN_LEN = 32
_REST_AT = SLOT_AT + 2 * TOKEN_LEN + 1           # the rest of the file, after the slot
NOT_SHOWN = "0" * TOKEN_LEN
_HEX = b"0123456789abcdef"
_NO_SUM = b"0" * 64  # the checksum's place, before it is known


def encode_checked(data: Mapping[str, object], answer: str | None = None) -> bytearray:
    """``data`` (a JSON object: the tables) as JSON with a SHA-256 of the rest of the file in
    front (``check``), and the answer slot ``answer`` (64 hex digits, E41) after it, outside
    the checksum.

    Reading the file back compares one hash over its bytes, so a byte changed anywhere
    (an event, the snapshot, the header) is noticed by every command, for the price of
    hashing the file once (E40).
    """
    return frame_checked(json.dumps(data, separators=(",", ":")).encode("utf-8"), answer)


#: ``json.dumps(value, separators=(",", ":"))``, the encoder built once.
_dumps = json.JSONEncoder(separators=(",", ":")).encode


def frame_tables(tables: Mapping[str, object], answer: str | None = None,
                 size: int = 0) -> bytearray:
    """``encode_checked(tables)``, byte for byte, for tables of rows (``{name: {id: row}}``):
    each row encoded and hashed on its own straight into the file's bytes, so that a write
    holds the evening's records and the new file once, never a text of the whole file and its
    bytes beside them (E99). ``size``: about how long the file will be (the one it replaces),
    room made for it at once, so that the bytes grown piece by piece are not over-allocated
    by an eighth on top."""
    digest = sha256(b"{")
    front = _CHECK + _NO_SUM + b'"' + _answer(answer) + (b"," if tables else b"")
    out = bytearray(max(size + (size >> 6), len(front)))
    at = 0

    def put(piece: bytes) -> None:
        nonlocal at
        out[at:at + len(piece)] = piece  # in the room made, while there is room
        at += len(piece)

    put(front)
    for n, (name, table) in enumerate(tables.items()):
        rows = cast("Mapping[str, object]", table)  # a table: its rows by id
        part = f'{"," if n else ""}{_dumps(name)}:{{'.encode("ascii")
        for k, (key, row) in enumerate(rows.items()):
            piece = (f'{"," if k else ""}{_dumps(key)}:{_dumps(row)}').encode()
            if part:
                piece, part = part + piece, b""
            digest.update(piece)
            put(piece)
            del piece
        digest.update(part + b"}")
        put(part + b"}")
    digest.update(b"}")
    put(b"}")
    del out[at:]  # the room not used
    out[len(_CHECK):len(_CHECK) + 64] = digest.hexdigest().encode("ascii")
    return out


def frame_checked(body: bytes, answer: str | None = None) -> bytearray:
    """``encode_checked`` of the JSON object whose encoding is ``body``."""
    digest = sha256(body).hexdigest().encode("ascii")
    out = bytearray(_CHECK + digest + b'"' + _answer(answer))
    if body != b"{}":
        out += b","
    out += memoryview(body)[1:]  # the body once more, not twice (E99)
    return out


def _answer(answer: str | None) -> bytes:
    if answer is None:
        return b""
    assert len(answer) == 2 * TOKEN_LEN and not answer.strip("0123456789abcdef")
    return _SLOT + answer.encode("ascii") + b'"'


def framed_at(answer: str | None) -> int:
    """Where the second byte of the body lands in the file ``frame_parts`` makes (its first,
    the ``{``, is the file's own)."""
    return len(_CHECK) + 64 + 1 + len(_answer(answer)) + 1


def frame_parts(parts: Sequence[bytes | memoryview], answer: str | None = None) -> bytearray:
    """``frame_checked`` of the body that is ``parts`` joined (the first part ``{``, the
    object not empty), built once, without the body joined first (E99)."""
    assert parts[0] == b"{" and len(parts) > 1
    digest = sha256()
    out = bytearray(_CHECK + _NO_SUM + b'"' + _answer(answer) + b",")
    for part in parts:
        digest.update(part)
    for part in parts[1:]:
        out += part
    out[len(_CHECK):len(_CHECK) + 64] = digest.hexdigest().encode("ascii")
    return out


def read_checked(path: Path) -> tuple[JSONObject | None, bool | None, str | None]:
    """The JSON object at ``path``: (data, whether its checksum matched, what is damaged).

    The checksum is None for a file written without one (older versions, or an edit that
    rewrote the JSON); ``what`` is None unless the file is no JSON object at all.
    """
    data, checked, what, _ = read_evening(path)
    return data, checked, what


def _slot(raw: bytes | bytearray) -> str | None:
    """The answer slot of a file's bytes, if it has one (E41)."""
    if raw[SLOT_AT - len(_SLOT):SLOT_AT] != _SLOT or raw[_REST_AT - 1:_REST_AT] != b'"':
        return None
    text = raw[SLOT_AT:_REST_AT - 1]
    if text.translate(None, _HEX):  # a byte that is no lowercase hex digit
        return None
    return text.decode("ascii")


def read_evening(path: Path) -> tuple[JSONObject | None, bool | None, str | None,
                                      str | None]:
    """``read_checked``, and the file's answer slot (E41; None if it has none)."""
    data, checked, what, slot, _ = read_evening_digest(path)
    return data, checked, what, slot


def read_evening_digest(path: Path, known: bytes | bytearray | None = None
                        ) -> tuple[JSONObject | None, bool | None, str | None, str | None,
                                   bytes | None]:
    """``read_evening``, and the file's checksum when it matched (None otherwise).

    ``known``: the bytes this process last wrote at ``path``. A file that is still those very
    bytes (but for the mark of its answer slot, E41) is not hashed or decoded again: its data
    comes back None with a checksum that matched (which a file read afresh never gives), and
    the caller has its tables already (E155).
    """
    raw = _read_bytes(path)
    if raw is None:
        return None, None, None, None, None
    if len(raw) > MAX_FILE_BYTES:
        return None, None, f"larger than {MAX_FILE_BYTES >> 20} MB: no evening file", None, None
    if known is not None and same_bytes(raw, known):
        return None, True, None, _slot(raw), bytes(raw[10:74])
    checked: bool | None = None
    digest_read: bytes | None = None
    body = raw
    slot = None
    if raw.startswith(_CHECK) and raw[74:75] == b'"':
        slot = _slot(raw)
        rest = _REST_AT if slot is not None else 75
        if raw[rest:rest + 1] in (b",", b"}"):
            digest = sha256(b"{")
            digest.update(memoryview(raw)[rest + 1:])  # no copy of the file (E99)
            checked = digest.hexdigest().encode("ascii") == raw[10:74]
            digest_read = bytes(raw[10:74]) if checked else None
    try:
        text = body.decode("utf-8")
        del raw, body  # the bytes go before the objects are built: one copy at a time (E99)
        data: JSON = json.loads(text)
    except UnicodeDecodeError:
        return None, checked, "not text: binary garbage", None, None
    except RecursionError:
        return None, checked, "nested too deeply to be an evening", None, None
    except ValueError as exc:
        if "integer string conversion" in str(exc):  # Python's limit, not JSON's (E181)
            return None, checked, "a number of more than 4,300 digits in it", None, None
        return None, checked, f"not JSON: {exc}", None, None
    if not isinstance(data, dict):
        return None, checked, "not a JSON object", None, None
    data.pop("check", None)
    data.pop("answer", None)
    return data, checked, None, slot, digest_read


def same_bytes(raw: bytes, known: bytes | bytearray) -> bool:
    """Whether ``raw`` is ``known`` byte for byte, but for the mark of its answer slot (the 32
    bytes overwritten in place once the answer is shown, E41), the slot still well formed."""
    if len(raw) != len(known):
        return False
    if _slot(known) is None:
        return raw == known
    kept = memoryview(known)  # compared in place (``startswith`` takes any buffer), no copy
    return (raw.startswith(kept[:SLOT_AT + TOKEN_LEN]) and raw.endswith(kept[_REST_AT - 1:])
            and _slot(raw) is not None)


def hash_with_openssl() -> None:
    """Hash the evening file with OpenSSL's SHA-256 from now on: the same digests, several times
    faster on a file of some size, for the price of loading OpenSSL once (a long-running
    console, ``referee shell``, pays it once; a one-shot command keeps the builtin)."""
    global sha256
    import hashlib

    sha256 = hashlib.sha256


def mark_shown(path: str | Path, token: str) -> None:
    """Note inside the evening file at ``path`` that the answer of the command ``token``
    wrote it was shown (E41): 32 bytes overwritten in place, in the answer slot, outside the
    checksum; only if the file there is still the one that command wrote."""
    flags = os.O_RDWR | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = open_quietly(path, flags)
    except OSError:
        return  # only a notice is at stake
    try:
        head = os.read(fd, _REST_AT)
        if _slot(head) is not None and head[SLOT_AT:SLOT_AT + TOKEN_LEN] == token.encode():
            mark = token.encode("ascii")
            if hasattr(os, "pwrite"):
                os.pwrite(fd, mark, SLOT_AT + TOKEN_LEN)
            else:  # a platform without pwrite
                os.lseek(fd, SLOT_AT + TOKEN_LEN, os.SEEK_SET)
                os.write(fd, mark)
    except OSError:
        pass
    finally:
        os.close(fd)


def backup_path(path: Path, n: int) -> Path:
    return path.with_name(f"{path.name}.bak.{n}")


def rotate_backups(path: Path, staging: Path | str) -> None:
    """Move the backups up one (``bak.3`` is dropped) and ``staging`` in as ``bak.1``: a
    rename each, no look first (a backup not there yet is passed over)."""
    base = os.fspath(path)  # ``backup_path`` as plain strings: this runs on every write
    for n in range(BACKUPS - 1, 0, -1):
        with contextlib.suppress(FileNotFoundError):
            os.replace(f"{base}.bak.{n}", f"{base}.bak.{n + 1}")
    os.replace(staging, f"{base}.bak.1")
