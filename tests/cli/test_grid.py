"""The console's tables off a terminal (``referee.cli.output.tables``): the lines printed
without rich are rich's own, character for character, or rich prints them."""

from __future__ import annotations

import contextlib
import io
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from referee.cli import requests, runner
from referee.cli.output import tables
from referee.cli.output.tables import Grid
from referee.content.scenario import data_file
from tests.profiles import examples


def rich_lines(table: Grid, width: int) -> list[str]:
    out = io.StringIO()
    Console(file=out, width=width, color_system=None, force_terminal=False, highlight=False,
            emoji=False, legacy_windows=False).print(table.to_rich())
    return out.getvalue().split("\n")[:-1]


@pytest.fixture(scope="module")
def shown(tmp_path_factory: pytest.TempPathFactory) -> list[Grid]:
    """Every table the demo evening's `status` shows, after each of its lines (played once)."""
    db = tmp_path_factory.mktemp("grid") / "e.json"
    grids: list[Grid] = []
    lines = [ln.strip() for ln in data_file("demo.txt").read_text(encoding="utf-8").splitlines()
             if ln.strip() and not ln.lstrip().startswith("#")]
    with pytest.MonkeyPatch.context() as mp, contextlib.redirect_stdout(io.StringIO()):
        mp.setattr(Grid, "show", lambda self: grids.append(self))
        for line in lines:
            requests.run(runner.split(line), db=db)
            if db.exists():
                requests.run(["status"], db=db)
    return grids


def test_e120_every_status_table_of_the_demo_is_rich_s_own_lines(shown: list[Grid]) -> None:
    assert len(shown) > 40  # the seats' table and, mid-hand, the hand's
    shown = list({repr((g.title, [(c.header, c.justify, c.min_width, c.max_width)
                                  for c in g.columns], g.rows)): g for g in shown}.values())
    for width in (60, 80, 120):
        fast = 0
        for table in shown:
            lines = table.plain_lines(width)
            if lines is not None:
                fast += 1
                assert lines == rich_lines(table, width), width
        assert fast >= len(shown) // 2 or width < 80, width  # most fit at 80 columns


def test_e120_a_table_printed_off_a_terminal_does_not_load_rich(
        gm: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    gm("new", "--fool", "Max", "--seat", "Ada:XVI:red:Ben:IX", "--seat", "Cy:III:blue")
    monkeypatch.setattr(Grid, "to_rich", lambda self: pytest.fail("rich was asked"))
    out = gm("status").output
    assert "\u2500" * 20 in out and "2 Ada" in out and "Max (Fool)" in out


def test_e120_what_does_not_fit_goes_to_rich() -> None:
    table = Grid(title="a title")
    table.add_column("Seat", max_width=5)
    table.add_row("a much too long name")
    assert table.plain_lines(80) is None  # rich would cut it: rich prints it
    wide = Grid()
    wide.add_column("x")
    wide.add_row("x" * 100)
    assert wide.plain_lines(80) is None and wide.plain_lines(120) is not None
    assert Grid().plain_lines(80) is not None
    cjk = Grid()
    cjk.add_column("name")
    cjk.add_row("\u738b")  # two columns wide
    assert cjk.plain_lines(80) is None


def test_e120_the_width_is_rich_s(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "97")
    assert tables.width() == 97 == Console(force_terminal=False).width


#: Printable ASCII but the backslash: rich's markup reads ``\[`` as ``[`` even where no tag
#: follows, which ``lit`` (rich's own escape) leaves as it is; that is rich's reading of a
#: name, not the table's layout, and the plain table prints such a name as typed.
TEXT = st.text(st.characters(min_codepoint=32, max_codepoint=126, exclude_characters="\\"),
               max_size=14)


@settings(max_examples=examples(150))
@given(title=st.none() | st.lists(st.text("abcdefgh-()", min_size=1, max_size=12),
                                  min_size=1, max_size=12).map(" ".join),
       columns=st.lists(st.tuples(TEXT, st.sampled_from(["left", "right"]),
                                  st.none() | st.integers(0, 8)), min_size=1, max_size=7),
       rows=st.lists(st.lists(TEXT, min_size=7, max_size=7), max_size=6),
       width=st.integers(20, 140))
def test_e120_any_simple_table_is_rich_s_own_lines(
        title: str | None, columns: list[tuple[str, str, int | None]], rows: list[list[str]],
        width: int) -> None:
    from referee.cli.printing import lit as escape  # names go into cells as the views put them

    table = Grid(title=escape(title) if title else None)
    for header, justify, least in columns:
        table.add_column(escape(header), justify=justify, min_width=least)  # type: ignore[arg-type]
    for i, cells in enumerate(rows):
        table.add_row(*[escape(c) for c in cells[:len(columns)]],
                      end_section=i == len(rows) - 1)
    lines = table.plain_lines(width)
    if lines is not None:
        assert lines == rich_lines(table, width)
