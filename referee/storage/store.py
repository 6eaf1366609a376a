"""The evening file: an append-only event log in TinyDB, written atomically under a lock.

Layout of an evening at ``PATH``:

- ``PATH`` — a TinyDB JSON file with the tables ``meta``, ``snapshot`` (the
  folded state of every stream at the end of the sealed segments), ``events``
  (the live events since), and ``undone`` (whole commands taken back: nothing
  is ever deleted).
- ``PATH.segments/NNNNNN.json`` — sealed, immutable runs of older events, each
  with the snapshot it started from. A command reads ``PATH`` only, so its cost
  is bounded whatever the length of the night. (When undo reached back into a
  sealed segment, the next seal of that position is written as
  ``NNNNNN-HASH.json``: a sealed file is never rewritten, so older backups that
  name it stay sound. The header lists the segment files in order.)
- ``PATH.lock`` — one file lock around each whole command (read, validate, write).
- ``PATH.bak.1`` .. ``PATH.bak.3`` — the previous versions of ``PATH``.

Every write goes to a temp file, is fsynced, ``os.replace``d over ``PATH`` and
the directory fsynced, so a kill at any moment leaves either the old or the new
file. Events carry a hash chain (``prev``, ``hash``) that ``verify`` checks.
The file mechanics (atomic writes, backups) are in ``referee.storage.files``, the lock in
``referee.storage.lock``, the tables read back in ``referee.storage.rows``, the chain and its
audit in ``referee.storage.chain``, and whether a command's answer was shown in
``referee.storage.answers``.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar, overload

from referee.errors import IllegalAction, StoreError
from referee.jsontypes import JSONObject
from referee.storage import files, memo, rows, segments
from referee.storage.answers import (
    UNANSWERED,
    WRITTEN,
    Written,
    is_alive,
    is_shown,
    lock_path,
    mark_answered,
    new_token,
    remember_told,
    slot_for,
    was_told,
)
from referee.storage.backups import damaged_message, missing_message, newest_good_backup
from referee.storage.chain import GENESIS, Record, chain_break, event_hash
from referee.storage.files import atomic_write, write_failure
from referee.storage.jsonfile import AtomicJSONStorage
from referee.storage.lock import EveningLock, make_parents, remove_dirs, remove_stale_temps
from referee.storage.rows import Command
from referee.streams import StreamSpec, plain, spec

if TYPE_CHECKING:
    from referee.evening.state import State
    from referee.rules.fate.fold import State as FateState
    from referee.rules.scum.match import ScumState
    from referee.rules.wager.game import WagerState
    from referee.storage.folded import StreamState
    from referee.storage.tables import Tables, Undone

S = TypeVar("S")

__all__ = ["GENESIS", "UNANSWERED", "WRITTEN", "Command", "Evening", "EveningLock",
           "atomic_write", "event_hash", "lock_path", "mark_answered", "newest_good_backup",
           "open_evening", "remember_told"]

FORMAT = 1
SEGMENT_SIZE = 400
LOCK_TIMEOUT = 3.0

class Evening:
    """An open evening file. Use ``open_evening``; all writes land at once on exit."""

    def __init__(self, path: Path, *, write: bool, audit: bool = False,
                 fresh: bool = False, dry: bool = False) -> None:
        self.path = path
        self.writable = write
        self.dry = dry  # --dry-run (E133, E230): the open's own, the write not made
        #: The file as this process last wrote it (a shell, E155), while it is still that.
        self._kept = None if audit else memo.written(path)
        self._storage = AtomicJSONStorage(path, audit=audit,
                                          known=None if self._kept is None else self._kept.raw)
        self.exists = self._storage.read() is not None or self._storage.unchanged
        if not self._storage.unchanged:
            self._kept = None
        if not self.exists and not audit and not fresh:  # deleted beside its backups (E182)
            missing = missing_message(path)
            if missing is not None:
                raise StoreError(missing, ruling="E182")
        #: What this open read from the file, by id, while the shell keeps what it writes.
        self._loaded: dict[int, object] = {}
        try:
            read = (rows.kept(path, self._kept.tables, FORMAT) if self._kept is not None else
                    rows.read(path, self._storage.read(), self.exists, FORMAT,
                              self._loaded if memo.keeping() else None))
        except (AttributeError, TypeError, KeyError, ValueError) as exc:
            # JSON that parses but is no evening: reported like any damaged file.
            raise StoreError(damaged_message(path, f"malformed tables: {exc!r}")) from None
        self.meta, self._snapshot, self._live, self._undone = read
        self._states: dict[str, StreamState] = {}  # each stream's folded state, once read
        self._changed = False
        self._last_text: str | None = None
        self._first_seq = self.meta["next_seq"]  # what this open appends starts here
        self._taken_back: list[Record] = []  # by undo, in this open (E133)
        #: The command a killed process recorded without showing its answer (E41), if any.
        self.unanswered: Written | None = None
        if self.exists and self._storage.checked is None and not audit:
            # Written without a checksum (an older version, or rewritten by hand): check the
            # chain of the live events instead, the slow way, once (E40).
            broken = chain_break(self._live, self.meta.get("sealed_head", GENESIS),
                                  self.meta["head"])
            if broken:
                raise StoreError(damaged_message(path, broken))
        if self.exists and not audit:
            # The sealed segments are part of the evening: each present, of its sealed size,
            # on every command (E90); their bytes are checked when they are read.
            missing = segments.presence(path, self.meta)
            if missing is not None:
                raise StoreError(damaged_message(path, missing))

    def _table(self, name: str, reading: str) -> JSONObject:
        """The raw table ``name`` of the file (``referee.storage.rows.table``)."""
        return rows.table(self._storage.read(), name, reading)

    # -- reading -------------------------------------------------------------------------------

    @overload
    def state(self, stream: Literal["evening"]) -> State: ...

    @overload
    def state(self, stream: Literal["scum"]) -> ScumState: ...

    @overload
    def state(self, stream: Literal["wager"]) -> WagerState: ...

    @overload
    def state(self, stream: Literal["fate"]) -> FateState: ...

    @overload
    def state(self, stream: StreamSpec[S, Any]) -> S: ...

    @overload
    def state(self, stream: str) -> StreamState: ...

    def state(self, stream: str | StreamSpec[Any, Any]) -> Any:
        """The current state of ``stream`` (its name, or its spec): its snapshot plus the live
        events, folded. A stream named gives its state type (the evening's ``State``, a side
        table's own), a spec its own; a name not written out, any of these."""
        if isinstance(stream, StreamSpec):
            stream = stream.name
        digest = None if self._changed or self._storage.audit else self._storage.digest
        if stream not in self._states:  # the shell's own last fold of this very file (E155)
            known = memo.recall(self.path, stream, digest)
            if known is not None:
                self._states[stream] = known
        if stream not in self._states:
            sp = spec(stream)
            base = self._snapshot.get(stream)
            try:
                state = sp.load(plain(base)) if base is not None else sp.empty()
            except Exception as exc:  # a snapshot that does not load is damage, not a bug
                raise StoreError(damaged_message(
                    self.path, f"the stored {stream} state does not load: "
                               f"{type(exc).__name__} {exc}")) from None
            record: Record | None = None
            try:
                for record in self._live:
                    if record["stream"] == stream:
                        state = sp.apply(state, sp.read(record["event"]))
            except Exception as exc:  # an event of unknown kind or with a field missing
                seq = record.get("seq", "?") if isinstance(record, dict) else "?"
                raise StoreError(damaged_message(
                    self.path, f"event {seq} does not replay: {type(exc).__name__} "
                               f"{exc}")) from None
            self._states[stream] = state
            memo.remember(self.path, stream, digest, state)
        return self._states[stream]

    def records(self, stream: str | None = None) -> Iterator[Record]:
        """Every stored event record of the evening, oldest first, segments included."""
        for n in range(1, self.meta["segments"] + 1):
            for record in self._segment(n)["events"]:
                if stream is None or record["stream"] == stream:
                    yield record
        for record in self._live:
            if stream is None or record["stream"] == stream:
                yield record

    def commands(self, stream: str | None = None) -> list[Command]:
        """The evening's commands, oldest first."""
        return list(self.iter_commands(stream))

    def iter_commands(self, stream: str | None = None) -> Iterator[Command]:
        """The evening's commands, oldest first, one segment in memory at a time.

        Raises:
            StoreError: a sealed segment is missing or damaged (every segment's bytes are
                checked by digest before the first is read, one at a time, so that a stream
                of output never stops half-way for that, E90).
        """
        for n in range(1, self.meta["segments"] + 1):
            why = segments.damage(self.path, self.meta, n)
            if why is not None:
                raise StoreError(damaged_message(self.path, why))
        return rows.commands(self.records(stream))

    def last_commands(self, count: int, stream: str | None = None) -> list[Command]:
        """The newest ``count`` commands (of ``stream``), oldest first.

        Reads the sealed segments from the newest back, only as far as needed: once more
        than ``count`` commands are in hand, the newest ``count`` are whole (a command's
        events are stored together).
        """
        if count <= 0:
            return []
        records = [r for r in self._live if stream is None or r["stream"] == stream]
        n = self.meta["segments"]
        while n and len({r["cmd"] for r in records}) <= count:
            older = self._segment(n)["events"]
            records = [r for r in older if stream is None or r["stream"] == stream] + records
            n -= 1
        return list(rows.commands(records))[-count:]

    def undone(self) -> list[Undone]:
        """Everything ever undone, with whether it can still be redone."""
        return list(self._undone)

    def _segment(self, n: int) -> segments.Segment:
        """Sealed segment ``n``, its bytes checked against the digest recorded (E90)."""
        return segments.read(self.path, self.meta, n)

    def _segment_path(self, n: int) -> Path:
        return segments.segment_path(self.path, self.meta, n)

    def _segment_dir(self) -> Path:
        return segments.folder(self.path)

    # -- writing -------------------------------------------------------------------------------

    def _require_write(self) -> None:
        if not self.writable:
            raise RuntimeError("evening opened read-only")

    @overload
    def commit(self, stream: Literal["evening"], events: Sequence[Mapping[str, Any]],
               text: str) -> State: ...

    @overload
    def commit(self, stream: str, events: Sequence[Mapping[str, Any]],
               text: str) -> StreamState: ...

    def commit(self, stream: str, events: Sequence[Mapping[str, Any]], text: str) -> Any:
        """Append one command's events to ``stream``; returns the new state.

        The events are folded first (the stream's invariants are checked there),
        so a command that fails writes nothing.
        """
        self._require_write()
        if not events:
            return self.state(stream)
        self._refuse_retry(text)
        state = self._fold_into(stream, events)
        self._last_text = text
        cmd = self.meta["next_cmd"]
        self.meta["next_cmd"] = cmd + 1
        now = time.time()
        for event in events:
            self._append_record(stream, cmd, text, now, event)
        for n, entry in enumerate(self._undone):
            if entry["redoable"] is not False:
                self._undone[n] = {**entry, "redoable": False}
        self._changed = True
        return state

    def check_unanswered(self) -> None:
        """Notice a command recorded by a process that died before showing its answer (E41):
        the evening file's answer slot does not say it was shown, and the GM was not told
        yet. Keyed to the file itself, so a copy without its lock reads as its original."""
        pending = self.meta.get("pending")
        if not files.TRACK_ANSWERS or not isinstance(pending, dict) or is_alive(pending.get("pid")):
            return
        token = pending.get("token")
        if is_shown(self._storage.slot, token) or was_told(self.path, token):
            return
        self.unanswered = {"file": str(self.path), **pending}
        UNANSWERED.append(self.unanswered)

    def _refuse_retry(self, text: str) -> None:
        """The GM types again the command whose answer a killed console never showed (E41)."""
        if self.unanswered is None or self.unanswered.get("text") != text:
            return

        remember_told(self.path, self.unanswered.get("token"))  # refused once, not twice
        UNANSWERED.remove(self.unanswered)
        self.unanswered = None
        raise IllegalAction(f"the last command `{text}` was recorded, though its answer may "
                            "not have been shown (the console stopped); it was not repeated: "
                            "`referee log` shows it; type it again only if it must happen twice",
                            ruling="E41")

    def _fold_into(self, stream: str, events: Sequence[Mapping[str, Any]]) -> StreamState:
        """Fold ``events`` into the cached state of ``stream``.

        A stream's ``apply`` mutates the state it is given, so an event that fails
        half-way would leave the cache half-folded, and a later seal in the same
        open would snapshot that. On failure the cache is dropped (refolded from
        the stored events on the next read) and the error goes on.
        """
        sp = spec(stream)
        state = self.state(stream)
        try:
            for event in events:
                state = sp.apply(state, plain(event))
        except BaseException:
            self._states.pop(stream, None)
            raise
        self._states[stream] = state
        return state

    def _rechain(self) -> None:
        """Recompute ``prev``/``hash`` of the live events from the sealed head.

        Undo may take back a command that is not the newest in the file (another
        table's commands came after it); the events after the gap must chain
        from the event before it, or ``verify`` reports a broken chain.
        """
        prev = self.meta.get("sealed_head", GENESIS)
        for n, record in enumerate(self._live):
            if record["prev"] != prev:
                record = {**record, "prev": prev}  # a new row: a stored one is never changed
                record["hash"] = event_hash(prev, record)
                self._live[n] = record
            prev = record["hash"]
        self.meta["head"] = prev

    def _append_record(self, stream: str, cmd: int, text: str, now: float,
                       event: Mapping[str, Any]) -> None:
        record = Record(seq=self.meta["next_seq"], cmd=cmd, stream=stream, time=now, text=text,
                        event=dict(event), prev=self.meta["head"], hash="")
        record["hash"] = event_hash(record["prev"], record)
        self.meta["next_seq"] += 1
        self.meta["head"] = record["hash"]
        self._live.append(record)

    def last_command(self, stream: str | None = None) -> Command | None:
        """The newest command (of ``stream``) still in effect."""
        self._unseal_if_needed(stream)
        cmds = [r for r in self._live if stream is None or r["stream"] == stream]
        if not cmds:
            return None
        last = cmds[-1]["cmd"]
        mine = [r for r in self._live if r["cmd"] == last]
        return Command(last, mine[0]["stream"], mine[0]["text"], mine[0]["time"],
                       tuple(r["event"] for r in mine))

    def undo(self, stream: str | None = None) -> Command:
        """Take back the newest command (of ``stream``); it is kept in the ``undone`` table
        (E13)."""
        self._require_write()
        command = self.last_command(stream)
        if command is None:

            raise IllegalAction("nothing to undo" + (f" at the {stream} table" if stream else ""))
        self._refuse_retry("undo")
        self._last_text = "undo"
        self._taken_back += [r for r in self._live if r["cmd"] == command.cmd]
        self._live = [r for r in self._live if r["cmd"] != command.cmd]
        self._rechain()
        self._undone.append({
            "cmd": command.cmd, "stream": command.stream, "text": command.text,
            "time": command.time, "events": list(command.events),
            "undone_at": time.time(), "redoable": True,
        })
        self._states.pop(command.stream, None)
        self._changed = True  # before the refold: the records are no longer the file's (E155)
        self.state(command.stream)  # refold; a broken invariant here is a bug, loudly
        return command

    def redo(self, stream: str | None = None) -> Command:
        """Bring back the newest undone command (of ``stream``) if nothing was done since."""
        self._require_write()
        for at in range(len(self._undone) - 1, -1, -1):
            entry = self._undone[at]
            if entry["redoable"] and (stream is None or entry["stream"] == stream):
                break
        else:

            raise IllegalAction("nothing to redo: redo works only right after undo")
        self._refuse_retry("redo")
        self._last_text = "redo"
        self._fold_into(entry["stream"], entry["events"])
        # A new row: a stored one is never changed in place (``memo``).
        entry = self._undone[at] = {**entry, "redoable": False, "redone_at": time.time()}
        cmd = self.meta["next_cmd"]
        self.meta["next_cmd"] = cmd + 1
        for event in entry["events"]:
            self._append_record(entry["stream"], cmd, entry["text"], time.time(), event)
        self._changed = True
        return Command(cmd, entry["stream"], entry["text"], entry["time"], tuple(entry["events"]))

    def _unseal_if_needed(self, stream: str | None) -> None:
        """Bring the last sealed segment back to life when undo reaches past the live events."""
        while self.meta["segments"] and not any(
            stream is None or r["stream"] == stream for r in self._live
        ):
            n = self.meta["segments"]
            segment = self._segment(n)  # checked by its digest first (E90)
            segments.check_unsealed(self.path, self.meta, n, segment)  # E91
            self._live = list(segment["events"]) + self._live
            self._snapshot = dict(segment["base"])
            self.meta["segments"] = n - 1
            if "segment_files" in self.meta:
                self.meta["segment_files"] = self.meta["segment_files"][: n - 1]
            if segments.SUMS in self.meta:
                self.meta[segments.SUMS] = self.meta[segments.SUMS][: n - 1]
            self.meta["sealed_head"] = segment.get("base_head", GENESIS)
            self._states.clear()
            self._changed = True
            if not self.writable:
                break

    def _seal(self) -> Path:
        """Move the live events into a new immutable segment and snapshot the states.

        Returns the new segment file, which nothing names until the header is written.
        """
        n = self.meta["segments"] + 1
        folder = self._segment_dir()
        segment: segments.Segment = {
            "base": self._snapshot,
            "base_head": self.meta.get("sealed_head", GENESIS),
            "events": self._live,
        }
        data = segments.encode(segment)
        files.check_size(folder, len(data))  # E183, as the evening file's
        try:
            folder.mkdir(exist_ok=True)
        except OSError as exc:
            raise write_failure(folder, exc) from None
        names = [self._segment_path(k).name for k in range(1, n)]
        name = f"{n:06d}.json"
        if (folder / name).exists():
            # A sealed segment is immutable: an undo that reached into segment n (or a
            # seal killed before the header was written) left a file here that older
            # backups may still point at. Seal under a name of this content instead.
            name = f"{n:06d}-{self.meta['head'][:16]}.json"
        try:
            atomic_write(folder / name, data)
        except OSError as exc:
            raise write_failure(folder / name, exc) from None
        streams = set(self._snapshot) | {r["stream"] for r in self._live}
        self._snapshot = {s: spec(s).dump(self.state(s)) for s in sorted(streams)}
        sums = segments.missing_sums(self.path, self.meta)
        if sums is None:
            sums = list(self.meta.get(segments.SUMS, []))
        self.meta["segments"] = n
        self.meta["segment_files"] = [*names, name]
        self.meta[segments.SUMS] = [*sums[: n - 1], segments.seal_sum(data)]
        self.meta["sealed_head"] = self.meta["head"]
        self._live = []
        return folder / name

    def flush(self) -> None:
        """Write the evening atomically if anything changed (backups rotated after).

        A write the disk refuses raises ``StoreError`` and leaves every file as it was: a
        segment sealed for this write is removed again (nothing names it yet).
        """
        if not self._changed:
            return
        if self.dry:
            from referee.storage.dry import stop
            stop(self, open_evening)  # E133: raises DryRunDone in place of the write
        # An evening written before segments carried digests gets them now (E91).
        sums = segments.missing_sums(self.path, self.meta)
        if sums is not None:
            self.meta[segments.SUMS] = sums
        sealed = self._seal() if len(self._live) >= SEGMENT_SIZE else None
        try:
            self._write()
        except BaseException:
            if sealed is not None:
                with contextlib.suppress(OSError):
                    sealed.unlink()
                with contextlib.suppress(OSError):
                    sealed.parent.rmdir()  # only if this seal made it (it is empty again)
            raise
        self._changed = False
        self.exists = True
        for stream, state in self._states.items():
            memo.remember(self.path, stream, self._storage.digest, state)
        WRITTEN.append({"file": str(self.path), **self.meta.get("pending", {})})

    def _write(self) -> None:
        self._storage.next_slot = None
        if not files.TRACK_ANSWERS:
            self.meta.pop("pending", None)
        elif self._last_text is not None:
            # Who wrote this, so that the next command can tell whether its answer was shown:
            # the same token in the file's answer slot, marked once the answer is out (E41).
            token = new_token()
            self.meta["pending"] = {"text": self._last_text, "pid": os.getpid(),
                                    "token": token}
            self._storage.next_slot = slot_for(token)
        from referee.version import __version__

        self.meta["writer"] = __version__  # a later release reading a newer file says so (E92)
        if memo.keeping():
            # A shell: only what it does not hold encoded already is encoded (E155), to the
            # same bytes.
            parts, kept = memo.encode(self.meta, self._snapshot, self._live, self._undone,
                                      self._kept, self._loaded,
                                      files.framed_at(self._storage.next_slot))
            self._storage.write_parts(parts)
            del parts
            self._storage.flush()
            out, self._storage.out = self._storage.out, None
            assert out is not None
            memo.wrote(self.path, out, kept)
            self._kept = memo.written(self.path)
            return
        # The tables as TinyDB lays them out (each row under its id from 1, the tables in this
        # order), built at once: dropping and inserting them through TinyDB copied every row
        # twice more on every write. The file's bytes are the same.
        tables: Tables = {"meta": {"1": self.meta.copy()},
                          "snapshot": {"1": {"states": self._snapshot}}}
        if self._live:
            tables["events"] = {str(n): row.copy() for n, row in enumerate(self._live, start=1)}
        if self._undone:
            tables["undone"] = {str(n): row.copy() for n, row in enumerate(self._undone, start=1)}
        self._storage.write(tables)
        self._storage.flush()


@contextlib.contextmanager
def open_evening(path: Path | str, *, write: bool = True, audit: bool = False,
                 fresh: bool = False, dry: bool = False) -> Iterator[Evening]:
    """Open the evening at ``path``; with ``write`` under its lock, flushing once on success.

    A symlinked ``path`` is followed (the target read and written, its lock and backups beside
    it); a refused command leaves behind no folder or lock made for a missing evening (E97).
    ``audit`` (for ``verify``) opens a file whose checksum does not match, to list why;
    ``fresh`` (``new --force``) a missing file beside an evening's backups (E182); with ``dry``
    (``--dry-run``, E133, E230) the write stops short of the disk (``DryRunDone``).

    Raises:
        StoreError: the evening is busy in another terminal, read-only, or damaged.
    """
    path = path if isinstance(path, Path) else Path(path)
    found = files.check_path(path)  # a pipe, a device, a folder, a symlink loop (E94)
    if path.is_symlink():
        path = Path(os.path.realpath(path))
    if not write:
        evening = Evening(path, write=False, audit=audit, dry=dry)
        evening.check_unanswered()
        yield evening
        return
    if found is not None and not found.st_mode & 0o222:  # a regular file, by check_path
        # An archived evening: refused even for root, who could write it anyway.
        raise StoreError(f"the evening file {path} is read-only (an archived evening?); "
                         f"nothing was written; `chmod u+w {path}` to go on with it")
    made = [] if found is not None else make_parents(path.parent)  # a file there: its folder too
    lock = EveningLock(lock_path(path))
    had_lock = os.path.lexists(lock.path)
    try:
        acquired = lock.acquire(LOCK_TIMEOUT)
    except BaseException:
        remove_dirs(made)
        raise
    if not acquired:
        raise StoreError(
            f"the evening {path} is busy in another terminal; try again in a moment"
        )
    there = False  # the evening file is known to be there: read, or just written
    try:
        remove_stale_temps(path)
        try:
            evening = Evening(path, write=True, fresh=fresh, dry=dry)
        except StoreError:
            if not had_lock:  # a file that is no evening gets no lock beside it (E97)
                lock.remove()
            raise
        there = evening.exists
        evening.check_unanswered()
        yield evening
        evening.flush()
        there = evening.exists
    finally:
        if not there and not path.exists():
            lock.remove()
        lock.release()
        if made and not path.exists():
            remove_dirs(made)
