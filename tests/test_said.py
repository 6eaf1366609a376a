"""The core speaks no command line (``referee.said``, E240): a refusal or a hint holds the moves
it suggests as data, and only ``referee.cli.suggest`` writes them as the text the GM types.

The guard reads every string the code of ``referee/rules`` and ``referee/evening`` says (f-strings
and strings joined across lines too; docstrings are the reader's, not the GM's), and every line
for a command named with the program's name, and proves it can fail: each planted command text
in a copy of the package is found.
"""

from __future__ import annotations

import ast
import functools
import re
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import referee.cli.main  # noqa: F401  (the runner's app: the command words below)
from referee.cli.runner import root_command
from referee.cli.suggest import command, told
from referee.errors import IllegalAction
from referee.said import Said, Suggest, joined, said
from tests import sources
from tests.profiles import examples

PACKAGE = Path(__file__).resolve().parents[1] / "referee"
CORE = ("rules", "evening")

#: Every command of the console, by its first word: ``hand``, ``bet``, ``soul``, ...
WORDS = sorted(root_command().commands)
_CMD = "|".join(map(re.escape, WORDS))
#: Command text: the program's name before a command, or a command in backquotes.
COMMAND_TEXT = re.compile(rf"`referee\b|\breferee (?:{_CMD})\b|`(?:{_CMD})(?: [^`]*)?`")


def _docstrings(nodes: tuple[ast.AST, ...]) -> set[int]:
    kinds = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
    return {id(node.body[0].value) for node in nodes
            if isinstance(node, kinds) and node.body and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)}


def command_text(root: Path) -> list[str]:
    """``file:line: text`` for every string in the core under ``root`` that holds command text
    (an f-string read with each of its values as ``X``)."""
    return [f"{path.relative_to(root)}:{line}: {text}" for folder in CORE
            for path in sorted((root / folder).rglob("*.py"))
            for line, text in _strings_with_commands(path.read_text(encoding="utf-8"))]


@functools.cache
def _strings_with_commands(source: str) -> tuple[tuple[int, str], ...]:
    """The strings of one module's ``source`` that hold command text, with their lines: read
    once for each text (a planted copy differs from the package in one module alone)."""
    nodes = sources.nodes(source)  # the tree shared with the other guards (tests/sources.py)
    skip = _docstrings(nodes) | {id(v) for node in nodes  # f-string pieces
                                 if isinstance(node, ast.JoinedStr) for v in node.values}
    found: list[tuple[int, str]] = []
    for node in nodes:
        if isinstance(node, ast.JoinedStr):
            text = "".join(v.value if isinstance(v, ast.Constant) else "X" for v in node.values)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and id(node) not in skip:
            text = node.value
        else:
            continue
        if COMMAND_TEXT.search(text):
            found.append((node.lineno, text))
    return tuple(found)


#: The program's name before a command, anywhere in a line: strings, docstrings, comments.
PROGRAM_NAMED = re.compile(rf"\breferee (?:{_CMD})\b")


def program_named(root: Path) -> list[str]:
    """``file:line`` of every line of the core under ``root`` naming a command with the
    program's name (``referee count``), docstrings and comments too."""
    return [f"{path.relative_to(root)}:{n}" for folder in CORE
            for path in sorted((root / folder).rglob("*.py"))
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
            if PROGRAM_NAMED.search(line)]


def test_e240_the_core_holds_no_command_text() -> None:
    assert command_text(PACKAGE) == []
    assert program_named(PACKAGE) == []


def test_e240_a_docstring_naming_a_command_with_the_program_is_found(tmp_path: Path) -> None:
    copy = tmp_path / "referee"
    for folder in CORE:
        shutil.copytree(PACKAGE / folder, copy / folder,
                        ignore=shutil.ignore_patterns("__pycache__"))
    with (copy / "evening" / "count.py").open("a", encoding="utf-8") as out:
        out.write('\n\ndef _a():\n    """For ``referee count``."""\n')
    assert command_text(copy) == []  # a docstring is the reader's ...
    assert [p.split(":")[0] for p in program_named(copy)] == ["evening/count.py"]  # ... yet named


def test_e240_the_command_words_are_the_consoles() -> None:
    assert {"hand", "bet", "soul", "scum", "wager", "ceremony", "undo", "status"} <= set(WORDS)


#: (file, text appended to it): each a way command text was written in the core.
PLANTED = [
    ("evening/play.py", 'def _a():\n    return "deal one with `referee hand start`"\n'),
    ("evening/betting.py", 'def _a(name):\n    return f"`referee call {name}` puts them all-in"\n'),
    ("evening/ceremony.py", 'def _a():\n    return ("the ceremony is next: `referee "\n'
                            '            "ceremony` (R40)")\n'),
    ("rules/scum/table.py", 'def _a(who):\n    return f"or pass, `scum pass {who}`"\n'),
    ("evening/souls.py", 'def _a():\n    return "`soul list` shows who holds which"\n'),
    ("rules/wager/game.py", 'WORDS = ["referee wager new", "FOOL"]\n'),
    ("evening/powers/use.py", 'HINT = f"{1}; `power list` lists them"\n'),
]


@pytest.mark.parametrize(("target", "planted"), PLANTED, ids=[p[0] for p in PLANTED])
def test_e240_the_guard_finds_command_text_planted_in_a_copy(tmp_path: Path, target: str,
                                                             planted: str) -> None:
    copy = tmp_path / "referee"
    for folder in CORE:
        shutil.copytree(PACKAGE / folder, copy / folder,
                        ignore=shutil.ignore_patterns("__pycache__"))
    path = copy / target
    lines = len(path.read_text(encoding="utf-8").splitlines())
    with path.open("a", encoding="utf-8") as out:
        out.write("\n\n" + planted)
    found = command_text(copy)
    assert len(found) == 1 and found[0].startswith(f"{target}:"), found
    assert int(found[0].split(":")[1]) > lines


def test_e240_a_docstring_or_prose_is_no_command_text() -> None:
    assert not COMMAND_TEXT.search("the referee names no colours; the referee sees them")
    assert not COMMAND_TEXT.search("write a colour and its count as one word, `grey:1`")


# -- the record and its writer -----------------------------------------------------------------


def test_e240_a_refusal_holds_its_moves_and_the_console_writes_them() -> None:
    exc = IllegalAction(said("the clock is running: ", Suggest(("room", "pause")), " stops it"),
                        ruling="R47")
    assert exc.said.suggests == (Suggest(("room", "pause")),)
    assert str(exc) == "the clock is running: `room pause` stops it"
    assert told(exc) == "the clock is running: `referee room pause` stops it (R47)"


def test_e240_a_name_with_a_space_is_quoted_in_every_suggested_move() -> None:
    move = Suggest(("soul", "buyout"), ("Lord Ashby", "Bea"))
    assert command(move) == '`referee soul buyout "Lord Ashby" Bea`'
    assert command(Suggest(("hand", "show"), ("Lord Ashby", "+CARDS"), mention=True)) == \
        '`hand show "Lord Ashby" +CARDS`'


def test_e240_a_move_named_in_passing_keeps_its_bare_words() -> None:
    line = said("until ", Suggest(("hand", "show"), mention=True), " gives them")
    assert told(line) == str(line) == "until `hand show` gives them"


def test_e240_moves_listed_as_a_choice() -> None:
    moves: list[str | Suggest | Said] = [Suggest((m,), ("Ada",)) for m in ("check", "bet")]
    assert told(joined(moves)) == "`referee check Ada` or `referee bet Ada`"
    assert told(joined([*moves, Suggest(("fold",), ("Ada",))])) == \
        "`referee check Ada`, `referee bet Ada` or `referee fold Ada`"


_TEXT = st.text(alphabet="ab ;:`", max_size=6)
_MOVE = st.builds(Suggest, st.tuples(st.sampled_from(WORDS)),
                  st.lists(st.sampled_from(["Ada", "Lord Ashby", "CARDS"]), max_size=2)
                  .map(tuple), st.booleans())
_PARTS = st.lists(st.one_of(_TEXT, _MOVE), max_size=6)


@settings(max_examples=examples(100), deadline=None)
@given(_PARTS, _PARTS)
def test_e240_a_line_is_its_parts_in_order_however_it_is_joined(
        left: list[str | Suggest], right: list[str | Suggest]) -> None:
    """Joining lines never loses, reorders or rewrites a move, and the console's text is the
    text with each move written in place."""
    whole = said(*left, *right)
    assert said(said(*left), said(*right)) == whole
    assert whole.suggests == tuple(p for p in [*left, *right] if isinstance(p, Suggest))
    assert told(whole) == "".join(p if isinstance(p, str) else command(p)
                                  for p in [*left, *right])
    assert not any(a == "" or (isinstance(a, str) and isinstance(b, str))
                   for a, b in zip(whole.parts, whole.parts[1:], strict=False))
