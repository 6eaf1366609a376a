"""The rulebook (``docs/rules.md``): every ruling the console applies, parsed and searched.

Pure: the caller reads the file and hands its text to :func:`parse`. An entry is one list item
``- **R16 The Law.** Text...`` (further lines indented), under a ``## Game: topic`` heading::

    >>> book = parse("## Cards\\n\\n- **R1 Deck.** 78 cards,\\n  each once.\\n")
    >>> book.get("r1").title, book.get("R1").text
    ('Deck', '78 cards, each once.')
    >>> [r.id for r, _ in book.find(["cards"])]
    ['R1']
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

#: A ruling id: the house rulings (R, some with a small letter after the number) and the
#: project's H, E, S, T, W and F ids.
ID = re.compile(r"\b([RHESTWF])(\d{1,3})(a?)\b")
_ENTRY = re.compile(r"^- \*\*([RHESTWF]\d{1,3}a?) (.+?)\*\*\s*(.*)$")
_WORD = re.compile(r"[^\W_]+")


@dataclass(frozen=True)
class Ruling:
    """One entry: its id, title, the section (game and topic) and the text to read aloud."""

    id: str
    title: str
    section: str
    text: str  # paragraphs joined by blank lines, table rows one per line (Markdown kept)

    @property
    def plain(self) -> str:
        """The text without Markdown emphasis and code marks, as a GM reads it."""
        return plain(self.text)

    def as_json(self) -> dict[str, str]:
        return {"id": self.id, "title": self.title, "section": self.section,
                "text": self.plain}


@dataclass(frozen=True)
class Rulebook:
    """Every entry in book order, and the sections in order."""

    rulings: tuple[Ruling, ...]
    sections: tuple[str, ...]

    def get(self, ruling_id: str) -> Ruling | None:
        """The entry ``ruling_id`` (any case), else None."""
        wanted = canonical(ruling_id)
        return next((r for r in self.rulings if r.id == wanted), None)

    @property
    def ids(self) -> list[str]:
        return [r.id for r in self.rulings]

    def by_section(self) -> Iterator[tuple[str, list[Ruling]]]:
        for section in self.sections:
            yield section, [r for r in self.rulings if r.section == section]

    def nearest(self, ruling_id: str, n: int = 3) -> list[str]:
        """The ids nearest an unknown one: same letter and closest numbers, else same number.

        >>> book = parse("## A\\n- **R1 A.** a\\n- **R2 B.** b\\n- **E2 C.** c\\n- **R9 D.** d\\n")
        >>> book.nearest("R3"), book.nearest("X2"), book.nearest("r")
        (['R2', 'R1', 'R9'], ['R2', 'E2'], ['R1', 'R2', 'R9'])
        """
        m = re.fullmatch(r"([A-Za-z]*)(\d*)[A-Za-z]?", ruling_id.strip())
        letter, number = (m.group(1).upper(), m.group(2)) if m else ("", "")
        same = [r for r in self.rulings if r.id[0] == letter[:1]]
        if same and number:
            target = int(number)
            same.sort(key=lambda r: (abs(number_of(r.id) - target), number_of(r.id), r.id))
            return [r.id for r in same[:n]]
        if same:
            return [r.id for r in same[:n]]
        if number:
            return [r.id for r in self.rulings if number_of(r.id) == int(number)][:n]
        return []

    def find(self, words: Iterable[str]) -> list[tuple[Ruling, int]]:
        """Entries holding every word (case-insensitive, as a word or a word's beginning),
        best first: a hit in the id or title counts five, in the text one; ties in book order.
        """
        wanted = [w for word in words for w in _WORD.findall(word.casefold())]
        if not wanted:
            return []
        hits: list[tuple[Ruling, int]] = []
        for ruling in self.rulings:
            head = _WORD.findall(f"{ruling.id} {ruling.title}".casefold())
            body = _WORD.findall(ruling.plain.casefold())
            score = 0
            for word in wanted:
                found = 5 * _count(head, word) + _count(body, word)
                if not found:
                    break
                score += found
            else:
                hits.append((ruling, score))
        order = {r.id: i for i, r in enumerate(self.rulings)}
        return sorted(hits, key=lambda hit: (-hit[1], order[hit[0].id]))


def canonical(ruling_id: str) -> str:
    """An id as the rulebook writes it: the letter in capitals, a suffix in small letters.

    >>> canonical(" r16A "), canonical("e41")
    ('R16a', 'E41')
    """
    text = ruling_id.strip()
    m = re.fullmatch(r"([A-Za-z])(\d+)([A-Za-z]?)", text)
    if not m:
        return text.upper()
    return f"{m.group(1).upper()}{m.group(2)}{m.group(3).lower()}"


def number_of(ruling_id: str) -> int:
    """The number of an id: 16 for R16 and R16a.

    >>> number_of("R16a"), number_of("E41")
    (16, 41)
    """
    return int(re.sub(r"\D", "", ruling_id) or 0)


def _count(tokens: list[str], word: str) -> int:
    return sum(1 for t in tokens if t.startswith(word))


def plain(text: str) -> str:
    """Markdown marks taken out: ``**bold**``, ``*em*`` and backquotes.

    >>> plain("`hand showdown ... --keep Ada:XXI` is *(option)* **here**")
    'hand showdown ... --keep Ada:XXI is (option) here'
    """
    text = re.sub(r"\*\*(.+?)\*\*", r"\1", text, flags=re.S)
    text = re.sub(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])", r"\1", text, flags=re.S)
    return text.replace("`", "")


def cited(text: str) -> set[str]:
    """Every ruling id written in ``text``.

    >>> sorted(cited("refused (R16); see E24 and R9-R18, not ER16"))
    ['E24', 'R16', 'R18', 'R9']
    """
    return {m.group(0) for m in ID.finditer(text)}


def parse(text: str) -> Rulebook:
    """The rulebook in ``text``.

    Raises:
        ValueError: an id is given twice, or an entry has no title or no text.
    """
    rulings: list[Ruling] = []
    sections: list[str] = []
    section = ""
    current: tuple[str, str, list[str]] | None = None

    def close() -> None:
        nonlocal current
        if current is None:
            return
        ruling_id, title, lines = current
        current = None
        body = _join(lines)
        if not title or not body:
            raise ValueError(f"rulebook entry {ruling_id} needs a title and a text")
        if any(r.id == ruling_id for r in rulings):
            raise ValueError(f"rulebook entry {ruling_id} is given twice")
        rulings.append(Ruling(ruling_id, title.rstrip(".").strip(), section, body))

    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("## "):
            close()
            section = line[3:].strip()
            sections.append(section)
            continue
        entry = _ENTRY.match(line)
        if entry:
            close()
            current = (entry.group(1), entry.group(2), [entry.group(3)])
            continue
        if current is None:
            continue
        if line.startswith("  "):
            current[2].append(line[2:])
        elif not line.strip():
            following = next((ln for ln in lines[i + 1:] if ln.strip()), "")
            if following.startswith("  "):
                current[2].append("")  # a paragraph or a table inside the entry
            else:
                close()
        else:
            close()
    close()
    used = {r.section for r in rulings}
    return Rulebook(tuple(rulings), tuple(s for s in sections if s in used))


def _join(lines: list[str]) -> str:
    """Lines of an entry as paragraphs: wrapped lines joined, table rows kept apart."""
    paragraphs: list[list[str]] = [[]]
    for line in lines:
        if not line.strip():
            paragraphs.append([])
        else:
            paragraphs[-1].append(line.strip())
    out = []
    for para in paragraphs:
        if not para:
            continue
        if para[0].startswith("|"):
            out.append("\n".join(para))
        else:
            out.append(" ".join(para))
    return "\n\n".join(out)
