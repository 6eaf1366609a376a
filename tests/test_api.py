"""The table's API (``referee.table.api``): each move declared once, below the table, and
every command line's request one the core's function takes."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

from referee.table import api
from tests.layers import RANK, layer

CLI = Path(__file__).parent.parent / "referee" / "cli"


#: The command line's calls that ask the table for a move named by their first argument, with
#: the arguments of their second, by how many positional arguments they take:
#: ``cli.transaction.perform`` and the Card of Fate's ``cli.side.fate_run.write`` (which adds
#: the tables and an out-argument, then shows what the rules told, ``as_json`` third).
ASKS = {"perform": (2,), "write": (2, 3)}


def _requests() -> list[tuple[str, str, set[str]]]:
    """Every ``perform("MOVE", {...})`` (or ``write``) in the command line: (where, move,
    argument names)."""
    found = []
    for path in sorted(CLI.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in ASKS \
                    and len(node.args) in ASKS[getattr(node.func, "id", "")] \
                    and isinstance(node.args[0], ast.Constant) \
                    and isinstance(node.args[1], ast.Dict):
                keys = {k.value for k in node.args[1].keys if isinstance(k, ast.Constant)}
                found.append((f"{path.name}:{node.lineno}", str(node.args[0].value), keys))
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
    for where, move, keys in found:
        assert move in api.MOVES, f"{where}: {move!r} is no declared move"
        declared = api.MOVES[move]
        signature = inspect.signature(api._function(declared.decide))
        more = {"log": None} if declared.log else {}
        signature.bind(object(), **dict.fromkeys(keys), **more)  # TypeError: a name it lacks


def test_every_declared_move_is_asked_for_by_a_command() -> None:
    asked = {move for _, move, _ in _requests()}
    betting = {"bet", "raise", "call", "check", "fold"}  # one request, its move a name
    assert set(api.MOVES) - asked <= betting, set(api.MOVES) - asked - betting


def test_an_undeclared_move_is_a_callers_bug_and_writes_nothing(tmp_path: Path) -> None:
    with pytest.raises(KeyError):
        api.perform(api.Request("deal everyone aces", {}, evening=tmp_path / "e.json",
                                line="deal everyone aces"))
    assert not (tmp_path / "e.json").exists()
