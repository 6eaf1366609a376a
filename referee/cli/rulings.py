"""The rulebook read aloud: the shipped book, a ruling's text at the terminal's width, and the
memory of the last refusal (for `rules last` and `--explain`).

Below every command module: the error boundary in ``cli.guard`` and the `rules` commands both
use it, and it imports nothing of ``referee.cli``.
"""

from __future__ import annotations

import json
import os
import shutil
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict, cast

from referee.rulebook import ID, parse

if TYPE_CHECKING:
    from referee.rulebook import Rulebook, Ruling

RULEBOOK = "rules.md"
LAST = "last"
MEMORY_FILE = "last-refusal.json"

class Refusal(TypedDict):
    """The last refused command and the rulings its line cites (``rules last``)."""

    line: str
    rulings: list[str]


_book: Rulebook | None = None
#: The last refusal of this process: the shell's memory (``{"line": ..., "rulings": [...]}``).
memory: Refusal | None = None
#: False inside ``referee shell``: refusals are remembered in memory only.
on_disk = True


def rulebook_path() -> Path:
    """``referee/docs/rules.md`` when installed, else ``docs/rules.md`` in the source tree."""
    package = Path(__file__).resolve().parent.parent
    installed = package / "docs" / RULEBOOK
    if installed.exists():
        return installed
    return package.parent / "docs" / RULEBOOK


def book() -> Rulebook:
    """The rulebook, parsed once per process."""
    global _book
    if _book is None:
        _book = parse(rulebook_path().read_text(encoding="utf-8"))
    return _book


def width() -> int:
    return max(40, min(100, shutil.get_terminal_size((100, 24)).columns))


def read_aloud(ruling: Ruling) -> str:
    """``R16 The Law (section)`` and the whole text, wrapped to the terminal, tables kept."""
    columns = width()
    out = [f"{ruling.id} {ruling.title} · {ruling.section}"]
    for para in ruling.plain.split("\n\n"):
        if para.startswith("|"):
            out += ["  " + row for row in para.splitlines()]
        else:
            out += textwrap.wrap(para, columns - 2, initial_indent="  ", subsequent_indent="  ")
    return "\n".join(out)


# -- the last refusal ----------------------------------------------------------------------------


def memory_path() -> Path:
    """``$REFEREE_CACHE_DIR/last-refusal.json``, else in the user cache directory."""
    folder = os.environ.get("REFEREE_CACHE_DIR")
    if not folder:
        from platformdirs import user_cache_dir  # without REFEREE_CACHE_DIR only (~3 ms)

        folder = user_cache_dir("referee", appauthor=False)
    return Path(folder) / MEMORY_FILE


def cited_in(line: str, ruling: str | None) -> list[str]:
    """The ids behind a refusal: its ``ruling=`` first, then those its line names."""
    ids = [ruling] if ruling else []
    ids += [m.group(0) for m in ID.finditer(line)]
    return list(dict.fromkeys(ids))


def remember(line: str, ruling: str | None, evening: Path | None) -> Refusal:
    """Keep the refusal for `rules last`: in memory, and (outside the shell) in the cache file,
    never inside the evening's folder (a refused command leaves that folder as it was)."""
    global memory
    memory = {"line": line, "rulings": cited_in(line, ruling)}
    if not on_disk:
        return memory
    path = memory_path()
    try:
        folder = path.parent.resolve()
        if evening is not None and folder == evening.resolve().parent:
            return memory  # never beside the evening file
        folder.mkdir(parents=True, exist_ok=True)
        scratch = path.with_name(f".{path.name}.{os.getpid()}")
        scratch.write_text(json.dumps(memory, ensure_ascii=False), encoding="utf-8")
        os.replace(scratch, path)
    except (OSError, RuntimeError, ValueError):  # RuntimeError: a symlink loop (resolve)
        pass  # a memory that cannot be kept must never turn a refusal into a crash
    return memory


def recall() -> Refusal | None:
    """The last refusal: this process's (the shell's), else the cache file's, else None."""
    if memory is not None:
        return memory
    try:
        data = json.loads(memory_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if isinstance(data, dict) and isinstance(data.get("line"), str):
        # The one boundary: the file this module writes, its line checked just now
        # (`rules last` reads the rulings leniently, as before).
        return cast(Refusal, data)
    return None


def explanation(rulings: list[str]) -> str:
    """The full text of each ruling named (ids the rulebook lacks are said to be missing)."""
    if not rulings:
        return "No ruling is behind this refusal: it is a mistake in what was typed."
    parts = []
    for ruling_id in rulings:
        ruling = book().get(ruling_id)
        parts.append(read_aloud(ruling) if ruling else f"{ruling_id}: not in the rulebook.")
    return "\n\n".join(parts)


