"""The command tree (``referee.cli.main.TREE``): each word leads to the module that holds it,
and a command line imports that module alone."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from pathlib import Path

import pytest
import typer

from referee.cli import main
from referee.cli.help import contents, reference


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
    for word, module in (("status", "table.evening"), ("scum", "side.scum"),
                         ("rules", "rulebook.rules")):
        out = subprocess.run([sys.executable, "-c", code, word], capture_output=True,
                             text=True, check=True).stdout.split()
        assert f"referee.cli.{module}" in out
        assert (set(out) & groups) == {f"referee.cli.{module}"}, word


def test_the_shell_s_tree_builds_a_command_when_a_line_first_uses_it(tmp_path: Path) -> None:
    """The tree the shell, a station and the demo parse with (``main.lazy_root``): every word
    is in it from the start, listing and looking up a word build nothing, and a line builds
    its own command only, the same command the whole tree holds."""
    from referee.cli import requests

    root = main.lazy_root()
    tree = root.commands
    assert isinstance(tree, main.Tree)
    every = [w for _, ws in main.TREE for w in ws]
    assert list(tree) == every and len(tree) == len(every) and "scum" in tree
    assert "stauts" not in tree and tree.get("stauts") is None
    assert tree.built == []
    db = tmp_path / "e.json"
    assert requests.run(["status"], db=db, root=root) == 2  # no evening yet: one line
    assert requests.run(["stauts"], db=db, root=root) == 2  # the nearest word suggested
    assert tree.built == ["status"]
    whole = typer.main.get_command(main.full_app())
    assert isinstance(whole, typer.core.TyperGroup)
    for word in ("hand", "chips", "rules"):
        assert tree[word].get_help(root.make_context("referee", [word])) == \
            whole.commands[word].get_help(whole.make_context("referee", [word]))
    assert tree.built == ["status", "hand", "chips", "rules"]


def test_station_threads_building_at_once_each_get_the_command_and_the_app_stays_whole(
        ) -> None:
    """A station answers in threads: commands built at once in several all come out whole,
    and the root app the command line and the tests use keeps every word."""
    import threading

    app = main.full_app()
    before = sorted(_words(app))
    root = main.lazy_root()
    words = [w for _, ws in main.TREE for w in ws]
    got: dict[str, str] = {}

    def build(word: str) -> None:
        got[word] = root.commands[word].name or ""

    threads = [threading.Thread(target=build, args=(w,)) for w in words * 2]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got == {w: w for w in words}
    assert sorted(_words(app)) == before


def test_a_tab_on_the_command_word_says_what_each_does_and_builds_none() -> None:
    """The description beside each command word at a Tab comes from the stored table of
    contents, word for word what the built command's own short help says."""
    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.document import Document

    from referee.cli.shell import shell

    sh = shell.Shell(main.lazy_root(), Path("e.json"), debug=False)
    found = {c.text: c.display_meta_text for c in shell.make_completer(sh.root, sh.vocabulary)
             .get_completions(Document("", 0), CompleteEvent())}
    assert sh.root.commands.built == []
    whole = typer.main.get_command(main.full_app())
    assert isinstance(whole, typer.core.TyperGroup)
    for word, command in whole.commands.items():
        assert found[word] == command.get_short_help_str(60), word
    assert {"help", "try", "clear", "exit"} <= set(found)
    hand = whole.commands["hand"]
    assert isinstance(hand, typer.core.TyperGroup)
    within = {c.text: c.display_meta_text for c in shell.make_completer(sh.root, sh.vocabulary)
              .get_completions(Document("hand s", 6), CompleteEvent())}
    assert within == {n: c.get_short_help_str(60) for n, c in hand.commands.items()
                      if n.startswith("s")}


@pytest.mark.system
def test_the_shell_starts_without_importing_any_module_of_commands() -> None:
    code = ("import sys; import referee.cli.main as m; from referee.cli import requests, runner; "
            "root = runner.build_root(); "
            "requests.run(['rules', 'R15'], db=None, root=root); "
            "print(' '.join(sorted(k for k in sys.modules if k.startswith('referee.cli.'))))")
    groups = {f"referee.cli.{m}" for m, _ in main.TREE}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split()
    assert (set(out) & groups) == {"referee.cli.rulebook.rules"}, set(out) & groups


def test_the_stored_table_of_contents_is_what_the_commands_say() -> None:
    """`referee --help` reads ``referee.cli.help.contents``: the panels and first lines of the
    registered commands, stored, so that it cannot drift from their docstrings."""
    assert contents.PANELS == main.panels(main.full_app())
    written = (Path(__file__).resolve().parents[2] / "referee" / "cli" / "help"
               / "contents.py")
    assert written.read_text(encoding="utf-8") == reference.contents_source(), (
        "referee/cli/help/contents.py is out of date: regenerate it with "
        "`python -m referee.cli.help.reference --contents > referee/cli/help/contents.py`")
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


@pytest.mark.parametrize(("env", "words"), [
    ({"_REFEREE_COMPLETE": "complete_bash", "COMP_WORDS": "referee scum st", "COMP_CWORD": "2"},
     ["scum"]),
    ({"_REFEREE_COMPLETE": "complete_bash", "COMP_WORDS": "referee --db e.json fate char ",
      "COMP_CWORD": "5"}, ["fate"]),
    ({"_REFEREE_COMPLETE": "complete_zsh", "_TYPER_COMPLETE_ARGS": "referee hand r"}, ["hand"]),
    ({"_REFEREE_COMPLETE": "complete_zsh", "_TYPER_COMPLETE_ARGS": "referee sc"}, None),
    ({"_REFEREE_COMPLETE": "complete_bash", "COMP_WORDS": "referee sc", "COMP_CWORD": "1"}, None),
    ({"_REFEREE_COMPLETE": "complete_bash", "COMP_WORDS": "referee stauts ", "COMP_CWORD": "2"},
     None),
    ({"_REFEREE_COMPLETE": "source_bash"}, None),
])
def test_a_tab_after_a_command_word_grows_that_command_alone(
        env: dict[str, str], words: list[str] | None, monkeypatch: pytest.MonkeyPatch) -> None:
    app = main.full_app()
    monkeypatch.setattr(app, "registered_commands", app.registered_commands)
    monkeypatch.setattr(app, "registered_groups", app.registered_groups)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    every = [w for _, ws in main.TREE for w in ws]
    assert main.only(None) is (words is not None)
    assert sorted(_words(app)) == sorted(words or every)


@pytest.mark.system
def test_tab_completion_answers_from_the_console() -> None:
    """`referee --install-completion` installs a script that runs the console with the line
    in the environment: it answers the candidates (not the table of contents)."""
    def complete(line: str, at: int) -> list[str]:
        env = {**os.environ, "_REFEREE_COMPLETE": "complete_bash", "COMP_WORDS": line,
               "COMP_CWORD": str(at)}
        return subprocess.run([sys.executable, "-m", "referee"], env=env, capture_output=True,
                              text=True, check=True).stdout.split()

    assert complete("referee sc", 1) == ["scenario", "scum"]
    assert complete("referee scum st", 2) == ["standings"]
    assert "--json" in complete("referee status --", 2)
