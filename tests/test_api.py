"""The table's API (``referee.table.api``): each move declared once, below the table, and
every command line's request one the core's function takes."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

from referee.table import api
from tests import sources
from tests.layers import RANK, layer

CLI = Path(__file__).parent.parent / "referee" / "cli"


#: The command line's ways to make a request, with the arguments each adds to those given:
#: ``perform`` itself, and the Card of Fate's ``write`` (its tables, and the list the rules'
#: outcome is told into).
MAKERS = {"perform": set(), "write": {"tables", "told"}}


def _requests() -> list[tuple[str, str, set[str], bool]]:
    """Every ``perform("MOVE", {...})`` in the command line: (where, move, argument names,
    whether the dict also unpacks others)."""
    found = []
    for path in sorted(CLI.rglob("*.py")):
        for node in sources.nodes(path.read_text()):  # parsed once a process
            name = getattr(node.func, "id", None) if isinstance(node, ast.Call) else None
            if isinstance(node, ast.Call) and name in MAKERS and len(node.args) >= 2 \
                    and isinstance(node.args[0], ast.Constant) \
                    and isinstance(node.args[1], ast.Dict):
                keys = {k.value for k in node.args[1].keys if isinstance(k, ast.Constant)}
                where = f"{path.name}:{node.lineno}"
                # What the command does with the outcome is given with the request, so that a
                # caller making the request itself answers as the command does.
                assert name != "perform" or any(k.arg == "then" for k in node.keywords), \
                    f"{where}: perform({node.args[0].value!r}, ...) without then="
                found.append((where, str(node.args[0].value), keys | MAKERS[name],
                              None in node.args[1].keys))
    return found


@pytest.mark.parametrize("move", sorted(api.MOVES))
def test_each_move_is_decided_by_a_core_function_below_the_table(move: str) -> None:
    declared = api.MOVES[move]
    for path in filter(None, (declared.decide, declared.chose)):
        module, _, name = path.partition(":")
        where = layer(module)
        assert where is not None and RANK[where] < RANK["table"], f"{move}: {module} ({where})"
        assert callable(api._function(path)), path


def test_every_request_of_the_command_line_is_a_declared_move_its_function_takes() -> None:
    found = _requests()
    assert len(found) >= 30  # the scan sees the command line's requests
    for where, move, keys, unpacks in found:
        assert move in api.MOVES, f"{where}: {move!r} is no declared move"
        declared = api.MOVES[move]
        signature = inspect.signature(api._function(declared.decide))
        more = {"log": None} if declared.log else {}
        bind = signature.bind_partial if unpacks else signature.bind
        bind(object(), **dict.fromkeys(keys), **more)  # TypeError: a name it lacks


def test_every_declared_move_is_asked_for_by_a_command() -> None:
    asked = {move for _, move, _, _ in _requests()}
    betting = {"bet", "raise", "call", "check", "fold"}  # one request, its move a name
    assert set(api.MOVES) - asked <= betting, set(api.MOVES) - asked - betting


def test_an_undeclared_move_is_a_callers_bug_and_writes_nothing(tmp_path: Path) -> None:
    with pytest.raises(KeyError):
        api.perform(api.Request("deal everyone aces", {}, evening=tmp_path / "e.json",
                                line="deal everyone aces"))
    assert not (tmp_path / "e.json").exists()
