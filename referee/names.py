"""Matching what the GM types against the names of people, souls and powers.

Case-insensitive; an exact name wins, else a unique prefix; a near miss
suggests the nearest names (R2, R24).

>>> match_name("ali", ["Alice", "Bob"])
'Alice'
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable

from referee.errors import BadInput, UnknownName
from referee.said import quoted as quoted  # where a suggested move is written (E240)


def _key(text: str) -> str:
    return " ".join(text.lower().split())


def nearest(query: str, choices: Iterable[str], limit: int = 3) -> list[str]:
    """The ``limit`` choices nearest to ``query`` (fuzzy), best first."""
    from rapidfuzz import fuzz, process  # a suggestion after a miss only (~25 ms)

    pool = list(dict.fromkeys(choices))
    found = process.extract(query, pool, scorer=fuzz.WRatio, processor=_key, limit=limit)
    return [name for name, score, _ in found if score >= 50]


def match_name(query: str, choices: Iterable[str], what: str = "name") -> str:
    """The one choice ``query`` names: exact (any case), else a unique prefix.

    Raises:
        UnknownName: nothing or more than one matches; says which names exist or are near.
    """
    pool = list(dict.fromkeys(choices))
    key = _key(query)
    if not key:
        raise UnknownName(f"empty {what}; expected one of: {', '.join(pool) or '(none)'}")
    exact = [name for name in pool if _key(name) == key]
    if exact:
        return exact[0]
    prefixed = [name for name in pool if _key(name).startswith(key)]
    if len(prefixed) == 1:
        return prefixed[0]
    if prefixed:
        raise UnknownName(f"{what} {query!r} is ambiguous: {', '.join(prefixed)}")
    near = nearest(query, pool)
    hint = f"did you mean {', '.join(near)}?" if near else f"known: {', '.join(pool) or '(none)'}"
    raise UnknownName(f"unknown {what} {query!r}; {hint}")


def match_person(query: str, choices: Iterable[str], what: str = "name") -> str:
    """Like ``match_name``, and else the unique prefix of any word (``ashby`` for Lord Ashby).

    >>> match_person("ashby", ["Lord Ashby", "Bea"])
    'Lord Ashby'

    Raises:
        UnknownName: see ``match_name``.
    """
    pool = list(dict.fromkeys(choices))
    try:
        return match_name(query, pool, what)
    except UnknownName:
        key = _key(query)
        by_word = [n for n in pool if key and any(w.startswith(key) for w in _key(n).split())]
        if len(by_word) != 1:
            raise
        return by_word[0]


@functools.lru_cache(maxsize=4096)
def name_key(text: str) -> str:
    """A name folded for matching: no case, accents or punctuation (R24, S4).

    >>> name_key("  Louis-Dieudonné ")
    'louis dieudonne'
    >>> name_key("H. D. Thoreau")
    'h d thoreau'
    """
    plain = "".join(
        c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c)
    )
    return " ".join(re.sub(r"[\W_]+", " ", plain.casefold()).split())


def mentioned_name(text: str, names: Iterable[str]) -> str | None:
    """The first of ``names`` that ``text`` contains as whole words (folded), else None.

    >>> mentioned_name("My friend Galileo", ["Galileo Galilei", "Galileo"])
    'Galileo'
    >>> mentioned_name("a galilean moon", ["Galileo"]) is None
    True
    """
    haystack = f" {name_key(text)} "
    for name in names:
        key = name_key(name)
        if key and f" {key} " in haystack:
            return name
    return None


#: The longest name a person, player or character may have (E42): a status column, not a page.
MAX_NAME = 40


def _check_characters(text: str, what: str) -> None:
    """Refuse control characters (E42) and invisible format characters (E75): a bidi
    override (U+202E) would turn the rest of a line round on the wall, a zero-width space
    would make two names look alike."""

    if any(ord(c) < 32 or 127 <= ord(c) < 160 or c in "\u2028\u2029" for c in text):
        raise BadInput(f"the {what} {text!r} holds a control character (a newline or an "
                       "escape); type it as plain text", ruling="E42")
    hidden = next((c for c in text if unicodedata.category(c) == "Cf"), None)
    if hidden is not None:
        label = unicodedata.name(hidden, "a format character").lower()
        raise BadInput(f"the {what} {ascii(text)} holds an invisible character, U+"
                       f"{ord(hidden):04X} ({label}); type it without (E75)", ruling="E75")


def check_label(text: str, what: str) -> str:
    """Free text that becomes part of a record (a Card of Fate Trait, Reputation, item or
    Experience), trimmed: no control or format character, so it prints as typed on every
    terminal (E42, E75, E96).

    Raises:
        BadInput: with a control character (a newline, an escape) or an invisible one.

    >>> check_label(" Swordsman ", "Trait")
    'Swordsman'
    """
    _check_characters(text, what)
    return text.strip()


def check_text(text: str, what: str, limit: int) -> str:
    """Free text for the room's wall (an announcement): trimmed, one line, at most ``limit``
    characters (E82), no control or format character (E42, E75).

    Raises:
        BadInput: empty, too long, or with a control or format character.

    >>> check_text("  Dinner   is served ", "announcement", 200)
    'Dinner is served'
    """

    _check_characters(text, what)
    line = " ".join(text.split())
    if not line:
        raise BadInput(f"the {what} is empty; give the words to show (E82)", ruling="E82")
    if len(line) > limit:
        raise BadInput(f"the {what} is {len(line)} characters long; at most {limit} fit the "
                       "wall (E82)", ruling="E82")
    return line


def check_name(text: str, what: str = "name", taken: Iterable[str] = ()) -> str:
    """A new name as it will be stored: spaces trimmed and collapsed (E42).

    Raises:
        BadInput: empty, with a control character (a newline, an ANSI escape) or an
            invisible format character (a bidi override, E75), longer than ``MAX_NAME``, or
            already in ``taken`` (any case).

    >>> check_name("  Ada   Lovelace ")
    'Ada Lovelace'
    """

    _check_characters(text, what)
    name = " ".join(text.split())
    if not name:
        raise BadInput(f"the {what} is empty; give a name with at least one letter",
                       ruling="E42")
    if len(name) > MAX_NAME:
        raise BadInput(f"the {what} {name[:20]!r}... is {len(name)} characters long; at most "
                       f"{MAX_NAME} fit the table", ruling="E42")
    for other in taken:
        if _key(other) == _key(name):
            raise BadInput(f"the {what} {name!r} is taken by {other!r} (names differ by more "
                           "than case); choose another", ruling="E42")
    return name


def plural(n: int, one: str, many: str | None = None) -> str:
    """``n`` and the word for that many: ``1 chip``, ``2 chips``, ``0 chips``.

    >>> plural(1, "Charge"), plural(3, "Charge"), plural(2, "soul", "souls")
    ('1 Charge', '3 Charges', '2 souls')
    """
    return f"{n} {one if n == 1 else (many or one + 's')}"
