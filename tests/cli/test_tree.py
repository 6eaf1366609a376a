"""The command tree (``referee.cli.main.TREE``): each word leads to the module that holds it,
and a command line imports that module alone."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest
import typer

from referee.cli import contents, main, reference


def _words(app: typer.Typer) -> list[str]:
    commands = [(c.name or (c.callback.__name__ if c.callback else "")).replace("_", "-")
                for c in app.registered_commands]
    return commands + [str(g.name) for g in app.registered_groups]


@pytest.mark.parametrize("module, words", main.TREE, ids=[m for m, _ in main.TREE])
def test_each_module_adds_the_words_the_tree_names(module: str, words: tuple[str, ...]) -> None:
    root = typer.Typer()
    importlib.import_module(f"referee.cli.{module}").register(root)
    assert sorted(_words(root)) == sorted(words)


def test_no_word_is_in_two_modules_and_the_whole_tree_holds_every_word() -> None:
    every = [w for _, words in main.TREE for w in words]
    assert len(every) == len(set(every))
    assert sorted(_words(main.full_app())) == sorted(every)


def test_a_word_grows_its_command_alone_and_the_whole_tree_comes_back(
        monkeypatch: pytest.MonkeyPatch) -> None:
    app = main.full_app()
    monkeypatch.setattr(app, "registered_commands", app.registered_commands)
    monkeypatch.setattr(app, "registered_groups", app.registered_groups)
    assert main.only("status") and _words(app) == ["status"]
    assert main.only("scum") and _words(app) == ["scum"]
    assert not main.only("stauts")  # an unknown word: all of it, for the nearest suggestion
    assert "status" in _words(app) and "scum" in _words(app)


@pytest.mark.system
def test_a_command_line_imports_the_module_of_its_word_only() -> None:
    code = ("import sys; import referee.cli.main as m; m.only(sys.argv[1]); "
            "print(' '.join(sorted(k for k in sys.modules if k.startswith('referee.cli.'))))")
    groups = {f"referee.cli.{m}" for m, _ in main.TREE}
    for word, module in (("status", "evening"), ("scum", "scum"), ("rules", "rules")):
        out = subprocess.run([sys.executable, "-c", code, word], capture_output=True,
                             text=True, check=True).stdout.split()
        assert f"referee.cli.{module}" in out
        assert (set(out) & groups) == {f"referee.cli.{module}"}, word


def test_the_stored_table_of_contents_is_what_the_commands_say() -> None:
    """`referee --help` reads ``referee.cli.contents``: the panels and first lines of the
    registered commands, stored, so that it cannot drift from their docstrings."""
    assert contents.PANELS == main.panels(main.full_app())
    written = (Path(__file__).resolve().parents[2] / "referee" / "cli" / "contents.py")
    assert written.read_text(encoding="utf-8") == reference.contents_source(), (
        "referee/cli/contents.py is out of date: regenerate it with "
        "`python -m referee.cli.reference --contents > referee/cli/contents.py`")
    names = [name for _, items in contents.PANELS for name, _ in items]
    assert sorted(n.removesuffix(" ...") for n in names) == sorted(
        w for _, words in main.TREE for w in words)


@pytest.mark.system
def test_the_table_of_contents_imports_no_module_of_commands() -> None:
    code = ("import sys, io, contextlib\n"
            "import referee.cli.main as m\n"
            "out = io.StringIO()\n"
            "with contextlib.redirect_stdout(out):\n"
            "    sys.argv[1:] = sys.argv[2:]\n"
            "    m.run()\n"
            "assert out.getvalue() == m.table_of_contents() + '\\n'\n"
            "print(' '.join(sorted(k for k in sys.modules if k.startswith('referee.cli.'))))")
    groups = {f"referee.cli.{m}" for m, _ in main.TREE}
    for args in ([], ["--help"], ["-h"]):
        out = subprocess.run([sys.executable, "-c", code, "referee", *args], capture_output=True,
                             text=True, check=True).stdout.split()
        assert "referee.cli.main" in out
        assert not set(out) & groups, (args, set(out) & groups)
