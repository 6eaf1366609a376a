"""Names are data, never markup (E42): every name field, with rich markup and
ANSI escapes in it, printed literally in every view, and no view fails on it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import GM

FOOL = "[/]"
ADA = "[bold]Ada\x1b[31m"  # markup and an escape (an evening from before names were checked)
ANN = "[i]Ann"
CY = "Cy[/]"
DI = "Di\\[x]"
RED = "[red]"
WHY = "[bold red]settled[/] \x1b[2J"

SHOWN = {FOOL: "[/]", ADA: "[bold]Ada\\x1",  # the status column ends in an ellipsis
          ANN: "[i]Ann", CY: "Cy[/]", DI: "Di\\[x]",
         RED: "[red]"}


@pytest.fixture(params=["plain", "terminal"])
def odd(gm: GM, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest) -> GM:
    """An evening of odd names, printed as off a terminal (plain) and on one (rich)."""
    import re

    from rich.console import Console

    from referee.cli import context
    from referee.evening import commands, lookup

    if request.param == "terminal":
        monkeypatch.setenv("TERM", "xterm")  # rich gives a dumb terminal 80 columns
        terminal = Console(force_terminal=True, color_system=None, width=200, highlight=False,
                           emoji=False)
        monkeypatch.setattr(context, "preset_console", lambda: terminal)
        invoke = gm.invoke
        sgr = re.compile(r"\x1b\[[0-9;]*m")  # rich's own bold and dim, not the names'

        def styled(*args: str) -> Any:
            result = invoke(*args)
            if "\x1b[2J" in result.stdout or "\x1b[31m" in result.stdout:
                raise AssertionError(f"an escape from a name reached the terminal: {args}")
            object.__setattr__(result, "stdout_bytes", sgr.sub("", result.stdout).encode())
            return result

        monkeypatch.setattr(gm, "invoke", styled)

    # Today an escape is refused where names enter (E42); older evenings may hold one.
    for module in (commands, lookup):
        monkeypatch.setattr(module, "check_name", lambda text, *a, **k: " ".join(text.split()))
    gm("new", "--fool", FOOL, "--seat", f"{ADA}:XVI:{RED}:{ANN}:IX",
       "--seat", f"{CY}:III:blue:{DI}:II")
    return gm


def literal(output: str, *names: str) -> None:
    assert "\x1b" not in output, "an escape reached the terminal"
    for name in names:
        assert SHOWN[name] in output, f"{name!r} not printed literally in:\n{output}"


def test_every_view_prints_names_literally(odd: GM, db: Path, tmp_path: Path) -> None:
    literal(odd("status").stdout, FOOL, ADA, ANN, CY, DI, RED)
    literal(odd("hand", "start").stdout, FOOL, ADA, CY)
    literal(odd("hand", "show", CY, "KC KW").stdout, CY)
    literal(odd("hand", "show", ADA, "2C 3W").stdout, ADA)
    literal(odd("hand", "show", FOOL, "AC 6W 7S QP").stdout, FOOL)
    literal(odd("bet", CY).stdout, CY, ADA)
    literal(odd("call", ADA).stdout, ADA)
    literal(odd("status").stdout, FOOL, ADA, CY)
    literal(odd("watch", "--once").stdout, FOOL, ADA, CY, ANN)
    literal(odd("log").stdout, ADA, CY)
    literal(odd("log", "--person", CY).stdout, CY)
    literal(odd("undo").stdout, ADA)
    literal(odd("redo").stdout, ADA)
    literal(odd("soul", "list").stdout, ADA, ANN)
    literal(odd("points").stdout, FOOL, ADA, ANN)
    odd("promotions")
    literal(odd("report").stdout, FOOL, ADA, ANN, CY, DI)
    literal(odd("report", "--reveal").stdout, FOOL, ADA)
    literal(odd("handout", ANN).stdout, ANN, ADA)
    odd("report", "--html", str(tmp_path / "r.html"))
    assert "[bold]Ada" in (tmp_path / "r.html").read_text()


def test_free_text_prints_literally(odd: GM) -> None:
    odd("rise", ADA)
    out = odd("chips", "settle", ADA, ANN, f"{RED}:1", "--why", WHY).stdout
    assert "[bold red]settled[/] \\x1b[2J" in out and "\x1b" not in out
    literal(odd("log").stdout, ADA)
    guess = odd("soul", "guess", ANN, "amber", "--name", "[/]").stdout
    assert "'[/]'" in guess
    literal(odd("handout", ANN).stdout, ANN)


def test_side_tables_print_names_literally(gm: GM) -> None:
    out = gm("scum", "new", "[/]", "[b]B", "C[/]", "D", "--seed", "3").stdout
    assert all(n in out for n in ("[/]", "[b]B", "C[/]"))
    assert "[b]B" in gm("scum", "standings").stdout
    assert "[/]" in gm("scum", "deal").stdout
    out = gm("wager", "new", "[/]", "[b]M", "--seed", "3").stdout
    assert "[/]" in out and "[b]M" in out
    assert "[b]M" in gm("wager", "status").stdout
    gm("fate", "char", "new", "[b]Gus", "--player", "[/]")
    assert "[b]Gus" in gm("fate", "char", "list").stdout


def test_the_shell_toolbar_shows_names_literally(odd: GM, db: Path) -> None:
    from referee.cli.printing import printable
    from referee.cli.shell.shell import Vocabulary

    odd("hand", "start")
    vocab = Vocabulary(db).refresh()
    assert CY in vocab.line
    assert "\x1b" not in printable(f"{vocab.path} · {vocab.line}")
    assert ADA in vocab.people and printable(ADA).startswith(SHOWN[ADA])


@pytest.mark.parametrize("args", [
    ("--seat", "Ada\u202eadA:XVI:red", "--fool", "Max"),
    ("--seat", "Ada:XVI:red", "--fool", "Max\u2066"),
    ("--seat", "Ada:XVI:red:Be\u200bn:IX", "--fool", "Max"),
])
def test_e75_a_name_with_a_bidi_or_zero_width_character_is_refused_at_the_door(
        gm: GM, args: tuple[str, ...]) -> None:
    line = gm.fails("new", "--seat", "Cy:III:blue", *args)
    assert "invisible character, U+" in line and "(E75)" in line
    assert "\u202e" not in line and "\u2066" not in line and "\u200b" not in line  # named


def test_e75_side_tables_refuse_format_characters_too(gm: GM) -> None:
    gm("new", "--fool", "Max", "--seat", "Ada:XVI:red", "--seat", "Cy:III:blue")
    line = gm.fails("scum", "new", "Mo", "Ned", "O\u202ez", "Pia")
    assert "U+202E" in line and "(E75)" in line
