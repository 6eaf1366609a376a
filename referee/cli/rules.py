"""`referee rules`: the rulebook read aloud, and the ruling behind the last refusal.

The rulebook is ``docs/rules.md``, shipped inside the package as ``referee/docs/rules.md``.
The last refusal is remembered outside the evening's folder: in the user cache directory
(``$REFEREE_CACHE_DIR`` overrides it), and only in memory inside ``referee shell``.
"""

from __future__ import annotations

import json
import os
import shutil
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from referee.cli.common import emit_json, fail

if TYPE_CHECKING:
    from referee.rulebook import Rulebook, Ruling

RULEBOOK = "rules.md"
LAST = "last"
MEMORY_FILE = "last-refusal.json"

_book: Rulebook | None = None
#: The last refusal of this process: the shell's memory (``{"line": ..., "rulings": [...]}``).
memory: dict[str, Any] | None = None
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
        from referee.rulebook import parse

        _book = parse(rulebook_path().read_text(encoding="utf-8"))
    return _book


def rules(
    terms: Annotated[
        list[str] | None,
        typer.Argument(metavar="[ID|WORD|last]...",
                       help="Ruling ids (R16 E3), words to look for (ante), or `last`."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")
                       ] = False,
) -> None:
    """Read rulings aloud: by id (R16 E3), found by words (ante), or all ids and titles.

    `rules last` reads the ruling behind the last refused command (so does `--explain` on
    the command itself).
    """
    words = [t for t in terms or [] if t.strip()]
    if not words:
        listing(as_json)
    elif [w.lower() for w in words] == [LAST]:
        last(as_json)
    elif all(_is_id(w) for w in words):
        by_id(words, as_json)
    else:
        search(words, as_json)


def _is_id(word: str) -> bool:
    from referee.rulebook import ID

    return ID.fullmatch(word.strip().upper()) is not None


def listing(as_json: bool) -> None:
    """Every id and title, section by section."""
    sections = list(book().by_section())
    if as_json:
        emit_json([{"section": name, "rulings": [{"id": r.id, "title": r.title} for r in items]}
                   for name, items in sections])
        return
    out: list[str] = []
    for name, items in sections:
        out.append(name)
        out += [f"  {r.id:<4} {r.title}" for r in items]
        out.append("")
    out.append("`referee rules ID` reads one aloud; `referee rules WORD` finds rulings by words.")
    typer.echo("\n".join(out))


def by_id(ids: list[str], as_json: bool) -> None:
    """The entries ``ids``, in the order asked; an unknown id names the nearest ones."""
    found: list[Ruling] = []
    for word in ids:
        ruling = book().get(word)
        if ruling is None:
            near = ", ".join(book().nearest(word)) or "none"
            fail(f"no ruling {word.upper()} in the rulebook; the nearest are {near} "
                 "(`referee rules` lists every id)")
        elif ruling not in found:
            found.append(ruling)
    if as_json:
        emit_json([r.as_json() for r in found])
        return
    typer.echo("\n\n".join(read_aloud(r) for r in found))


def search(words: list[str], as_json: bool) -> None:
    """Entries holding every word, best first, each with its id and where the words stand."""
    hits = book().find(words)
    said = " ".join(words)
    if not hits:
        fail(f"no ruling mentions {said!r}; try other or fewer words, or `referee rules` for "
             "every id and title")
    if as_json:
        emit_json([{**r.as_json(), "score": score} for r, score in hits])
        return
    width = _width()
    out: list[str] = []
    for ruling, _ in hits:
        out.append(f"{ruling.id} {ruling.title} · {ruling.section}")
        out += textwrap.wrap(_passage(ruling, words), width - 2, initial_indent="  ",
                             subsequent_indent="  ")
    many = "1 ruling" if len(hits) == 1 else f"{len(hits)} rulings"
    out.append(f"{many} for {said!r}, best first; `referee rules ID` reads one in full.")
    typer.echo("\n".join(out))


def _passage(ruling: Ruling, words: list[str]) -> str:
    """The first sentence of the entry that holds one of the words (else its first)."""
    import re

    text = " ".join(ruling.plain.split())
    sentences = re.split(r"(?<=[.;:])\s+(?=[A-Z(\"`*])", text)
    folded = [w.casefold() for w in words]
    for sentence in sentences:
        tokens = re.findall(r"[^\W_]+", sentence.casefold())
        if any(t.startswith(w) for t in tokens for w in folded):
            return sentence
    return sentences[0]


def _width() -> int:
    return max(40, min(100, shutil.get_terminal_size((100, 24)).columns))


def read_aloud(ruling: Ruling) -> str:
    """``R16 The Law (section)`` and the whole text, wrapped to the terminal, tables kept."""
    width = _width()
    out = [f"{ruling.id} {ruling.title} · {ruling.section}"]
    for para in ruling.plain.split("\n\n"):
        if para.startswith("|"):
            out += ["  " + row for row in para.splitlines()]
        else:
            out += textwrap.wrap(para, width - 2, initial_indent="  ", subsequent_indent="  ")
    return "\n".join(out)


# -- the last refusal ----------------------------------------------------------------------------


def memory_path() -> Path:
    """``$REFEREE_CACHE_DIR/last-refusal.json``, else in the user cache directory."""
    folder = os.environ.get("REFEREE_CACHE_DIR")
    if not folder:
        from platformdirs import user_cache_dir

        folder = user_cache_dir("referee", appauthor=False)
    return Path(folder) / MEMORY_FILE


def cited_in(line: str, ruling: str | None) -> list[str]:
    """The ids behind a refusal: its ``ruling=`` first, then those its line names."""
    from referee.rulebook import ID

    ids = [ruling] if ruling else []
    ids += [m.group(0) for m in ID.finditer(line)]
    return list(dict.fromkeys(ids))


def remember(line: str, ruling: str | None, evening: Path | None) -> dict[str, Any]:
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
    except OSError:
        pass  # a memory that cannot be kept must never turn a refusal into a crash
    return memory


def recall() -> dict[str, Any] | None:
    """The last refusal: this process's (the shell's), else the cache file's, else None."""
    if memory is not None:
        return memory
    try:
        data = json.loads(memory_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if isinstance(data, dict) and isinstance(data.get("line"), str):
        return data
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


def last(as_json: bool) -> None:
    """The ruling behind the last refused command."""
    refusal = recall()
    if refusal is None:
        fail("no refused command is remembered yet; `referee rules ID` reads a ruling")
    assert refusal is not None
    ids = [str(i) for i in refusal.get("rulings", [])]
    if as_json:
        emit_json({"refusal": refusal["line"],
                   "rulings": [r.as_json() for i in ids if (r := book().get(i))]})
        return
    typer.echo(f"The last refusal: {refusal['line']}")
    typer.echo(explanation(ids))


def register(app: typer.Typer) -> None:
    app.command("rules", rich_help_panel="The rulebook")(rules)
