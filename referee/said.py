"""What the referee says, with the moves it suggests kept as data (E240).

The rules and the evening never write a command's text: a refusal or a hint that names what
the GM may type next holds a :class:`Suggest` (the command's words and its arguments), and
the console that shows the line turns it into its own command text. Renaming a command is
then a change to the console alone.

>>> line = said("no hand in progress; deal one with ", Suggest(("hand", "start")))
>>> str(line)
'no hand in progress; deal one with `hand start`'
>>> line.render(lambda s: "<" + " ".join(s.words) + ">")
'no hand in progress; deal one with <hand start>'
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass


def quoted(name: str) -> str:
    """A name as the GM types it in a suggested command: in double quotes when it has a space.

    >>> quoted("Lord Ashby"), quoted("Bea")
    ('"Lord Ashby"', 'Bea')
    """
    return f'"{name}"' if any(ch.isspace() for ch in name) else name


@dataclass(frozen=True)
class Suggest:
    """A move the GM may type: the command's words (``("hand", "show")``) and its arguments
    (names as they are, placeholders such as ``CARDS`` in capitals, options as ``--abandon``).
    ``mention``: the move named in passing, by its words alone (``hand show``), where a line
    to type would be out of place."""

    command: tuple[str, ...]
    args: tuple[str, ...] = ()
    mention: bool = False

    @property
    def words(self) -> tuple[str, ...]:
        """The command and its arguments, each argument quoted as the GM types it."""
        return (*self.command, *(quoted(a) for a in self.args))

    def __str__(self) -> str:
        return f"`{' '.join(self.words)}`"


Part = str | Suggest


class Said:
    """A line of text with suggested moves among its words; ``str`` shows each move by its
    words alone, :meth:`render` as a console writes its commands."""

    __slots__ = ("parts",)

    def __init__(self, parts: tuple[Part, ...]) -> None:
        self.parts = parts

    def __iter__(self) -> Iterator[Part]:
        return iter(self.parts)

    def __add__(self, other: object) -> Said:
        if isinstance(other, str | Suggest | Said):
            return said(self, other)
        return NotImplemented

    def __radd__(self, other: object) -> Said:
        if isinstance(other, str | Suggest):
            return said(other, self)
        return NotImplemented

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Said) and self.parts == other.parts

    def __hash__(self) -> int:
        return hash(self.parts)

    def __repr__(self) -> str:
        return f"Said({self.parts!r})"

    def __str__(self) -> str:
        return self.render(str)

    @property
    def suggests(self) -> tuple[Suggest, ...]:
        """The moves suggested, in the order the line says them."""
        return tuple(p for p in self.parts if isinstance(p, Suggest))

    def render(self, command: Callable[[Suggest], str]) -> str:
        """The line, each suggested move written by ``command``."""
        return "".join(p if isinstance(p, str) else command(p) for p in self.parts)


def said(*parts: Part | Said) -> Said:
    """Text and moves as one line; nested lines are flattened, neighbouring texts joined."""
    flat: list[Part] = []
    for part in parts:
        for p in part.parts if isinstance(part, Said) else (part,):
            if isinstance(p, str) and flat and isinstance(flat[-1], str):
                flat[-1] += p
            elif p != "":
                flat.append(p)
    return Said(tuple(flat))


def joined(items: list[Part | Said], sep: str = ", ", last: str = " or ") -> Said:
    """``a``, ``a or b``, ``a, b or c``: moves listed as a choice."""
    if len(items) <= 1:
        return said(*items)
    out: list[Part | Said] = []
    for i, item in enumerate(items):
        if i:
            out.append(last if i == len(items) - 1 else sep)
        out.append(item)
    return said(*out)
