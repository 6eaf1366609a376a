"""The console's tables as data, printed by rich on a terminal and without it when piped.

A ``Grid`` holds a table's title, columns and rows (cells in rich markup). On a terminal, or
when the table does not fit as it is, ``show`` hands it to rich. Off a terminal (a pipe, a
file, a test) it prints the very lines rich would print for these simple tables (no borders,
a rule under the head, one space between columns, nothing cut or wrapped but the title)
without importing rich at all (the same lines either way, E120): importing and laying out
rich's table is most of the time of a human ``referee status`` (``benchmarks/latency.py``).
``tests/cli/test_grid.py`` holds the two to the same lines, character for character.
"""

from __future__ import annotations

import os
import re
import sys
import unicodedata
from typing import Any, Literal

from referee.cli import context
from referee.cli.printing import plain

Justify = Literal["left", "right"]


class Column:
    """One column: its head, which side its cells keep to, and its width's bounds."""

    __slots__ = ("header", "justify", "min_width", "max_width", "no_wrap")

    def __init__(self, header: str, justify: Justify = "left", min_width: int | None = None,
                 max_width: int | None = None, no_wrap: bool = False) -> None:
        self.header, self.justify, self.no_wrap = header, justify, no_wrap
        self.min_width, self.max_width = min_width, max_width


class Grid:
    """A table of the console: ``add_column``, ``add_row``, then ``show``."""

    def __init__(self, title: str | None = None) -> None:
        self.title = title
        self.columns: list[Column] = []
        self.rows: list[tuple[list[str], str | None, bool]] = []

    def add_column(self, header: str, *, justify: Justify = "left",
                   min_width: int | None = None, max_width: int | None = None,
                   no_wrap: bool = False) -> None:
        self.columns.append(Column(header, justify, min_width, max_width, no_wrap))

    def add_row(self, *cells: str, style: str | None = None, end_section: bool = False) -> None:
        self.rows.append((list(cells), style, end_section))

    def natural_width(self) -> int:
        """How wide the table is with nothing cut or wrapped (its title aside), as rich lays
        it out: each column as wide as its widest cell, one space between columns, one at
        each edge."""
        head = [plain(c.header) for c in self.columns]
        body = [[plain(cell) for cell in cells] for cells, _, _ in self.rows]
        widths = []
        for i, c in enumerate(self.columns):
            natural = max(_cells(text) for text in [head[i], *(r[i] for r in body if i < len(r))])
            if c.max_width is not None:
                natural = min(natural, c.max_width)
            widths.append(max(natural, c.min_width or 0, 1 if i == len(self.columns) - 1 else 0))
        last = len(widths) - 1
        return sum(widths) + last + last + 2  # as ``plain_lines`` lays them out

    def show(self) -> None:
        """Print the table: plain lines off a terminal when they are rich's own, else rich."""
        if not context.current().has_console and not sys.stdout.isatty():
            lines = self.plain_lines(width())
            if lines is not None:
                sys.stdout.write("".join(line + "\n" for line in lines))
                return
        context.console().print(self.to_rich())

    def to_rich(self) -> Any:
        """The same table as a ``rich.table.Table``."""
        from rich import box  # a terminal's table only: off one no rich at all (E120)
        from rich.table import Table

        table = Table(title=self.title, title_justify="left", padding=(0, 1),
                      box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True)
        for c in self.columns:
            table.add_column(c.header, justify=c.justify, min_width=c.min_width,
                             max_width=c.max_width, no_wrap=c.no_wrap)
        for cells, style, end_section in self.rows:
            table.add_row(*cells, style=style, end_section=end_section)
        return table

    def plain_lines(self, limit: int) -> list[str] | None:
        """The lines rich prints for this table ``limit`` columns wide, or None where rich
        would do more than pad: cut or wrap a cell, measure a character as wide or as none,
        draw the rule in ASCII, or mark a section inside the table."""
        if not (sys.stdout.encoding or "").lower().startswith("utf"):
            return None  # rich draws its rule in ASCII then
        if any(end for _, _, end in self.rows[:-1]):
            return None
        head = [plain(c.header) for c in self.columns]
        body = [[plain(cell) for cell in cells] for cells, _, _ in self.rows]
        if any(len(cells) != len(self.columns) for cells in body):
            return None
        if not all(_narrow(text) for text in [*head, *(t for r in body for t in r)]):
            return None
        widths = self._widths(head, body)
        if widths is None:
            return None
        last = len(widths) - 1
        # pad_edge off, padding (0, 1) collapsed: one space after every cell but the last,
        # and the box's separator (a space) between cells and at both edges.
        total = sum(widths) + last + last + 2
        if total > limit:
            return None
        out: list[str] = []
        if self.title:
            title = _wrap(plain(self.title), total)
            if title is None:
                return None
            out += title
        out.append(" " * total)
        out.append(self._line(head, widths))
        out.append(" " + "\u2500" * (total - 2) + " ")
        out += [self._line(cells, widths) for cells in body]
        out.append(" " * total)
        return out

    def _widths(self, head: list[str], body: list[list[str]]) -> list[int] | None:
        """Each column's width as rich gives it, or None where rich would cut a cell."""
        widths = []
        for i, c in enumerate(self.columns):
            natural = max(len(text) for text in [head[i], *(r[i] for r in body)])
            if c.max_width is not None and natural > c.max_width:
                return None  # rich would cut it with an ellipsis
            # a column with its padding is at least one wide (the last one has no padding)
            widths.append(max(natural, c.min_width or 0, 1 if i == len(self.columns) - 1 else 0))
        return widths

    def _line(self, cells: list[str], widths: list[int]) -> str:
        parts = []
        for i, (text, w) in enumerate(zip(cells, widths, strict=True)):
            cell = text.rstrip().rjust(w) if self.columns[i].justify == "right" else text.ljust(w)
            parts.append(cell if i == len(widths) - 1 else cell + " ")
        return " " + " ".join(parts) + " "


def console_width() -> int:
    """The width the table is shown at: the console's on a terminal, else ``width()``."""
    if context.current().has_console or sys.stdout.isatty():
        return context.console().width
    return width()


def width() -> int:
    """The width rich gives a console off a terminal: $COLUMNS, else a terminal's on one of
    the standard streams, else 80."""
    columns = os.environ.get("COLUMNS")
    if columns is not None and columns.isdigit():
        return int(columns) or 80
    for fd in (0, 1, 2):
        try:
            return os.get_terminal_size(fd).columns or 80
        except (AttributeError, ValueError, OSError):
            continue
    return 80


def _narrow(text: str) -> bool:
    """Whether every character of ``text`` takes one column (as rich measures it)."""
    return text.isascii() and text.isprintable() or all(
        ch.isprintable() and unicodedata.east_asian_width(ch) in ("Na", "N", "H", "A")
        and not unicodedata.combining(ch) for ch in text)


def _cells(text: str) -> int:
    """The columns ``text`` takes on a terminal: a wide character two, a combining one none.

    >>> _cells("blue"), _cells("\u7d05"), _cells("e\u0301")
    (4, 2, 1)
    """
    if text.isascii():
        return len(text)
    return sum(0 if unicodedata.combining(ch) else
               2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in text)


_WORD = re.compile(r"\s*\S+\s*")


def _wrap(text: str, limit: int) -> list[str] | None:
    """``text`` wrapped at word breaks to ``limit`` columns and padded, as rich wraps a
    table's title; None if a word is longer than a line (rich folds it)."""
    if not _narrow(text):
        return None
    lines: list[str] = []
    start = offset = 0
    for m in _WORD.finditer(text):
        word = m.group()
        if len(word.rstrip()) > limit:
            return None
        if limit - offset >= len(word.rstrip()):
            offset += len(word)
        else:
            lines.append(text[start:m.start()])
            start, offset = m.start(), len(word)
    lines.append(text[start:])
    return [line.rstrip()[:limit].ljust(limit) if len(line) > limit else line.ljust(limit)
            for line in lines]
