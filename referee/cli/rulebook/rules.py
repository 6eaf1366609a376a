"""`referee rules`: the rulebook read aloud, and the ruling behind the last refusal.

The rulebook is ``docs/rules.md``, shipped inside the package as ``referee/docs/rules.md``.
The last refusal is remembered outside the evening's folder: in the user cache directory
(``$REFEREE_CACHE_DIR`` overrides it), and only in memory inside ``referee shell``.
"""

from __future__ import annotations

import re
import textwrap
from typing import TYPE_CHECKING, Annotated

import typer

from referee.cli.errors import fail
from referee.cli.printing import emit_json
from referee.cli.rulings import LAST, book, explanation, read_aloud, recall
from referee.cli.rulings import width as aloud_width
from referee.rulebook import ID, canonical

if TYPE_CHECKING:
    from referee.rulebook import Ruling

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
    return ID.fullmatch(canonical(word)) is not None


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
    width = aloud_width()
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
    text = " ".join(ruling.plain.split())
    sentences = re.split(r"(?<=[.;:])\s+(?=[A-Z(\"`*])", text)
    folded = [w.casefold() for w in words]
    for sentence in sentences:
        tokens = re.findall(r"[^\W_]+", sentence.casefold())
        if any(t.startswith(w) for t in tokens for w in folded):
            return sentence
    return sentences[0]


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
