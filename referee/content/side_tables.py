"""The side tables' content: the Weir's Wager points and the Card of Fate tables.

The one place that reads ``data/wager_points.toml`` and ``data/fate.toml``; the
rules under ``referee/rules/`` receive the validated objects and never open a
file. Both streams copy what they were given into their log (W4, F19).
"""

from __future__ import annotations

import functools
import tomllib
from pathlib import Path
from typing import TYPE_CHECKING

from referee.content.scenario import data_file as shared
from referee.content.scenario import too_deep
from referee.errors import ScenarioError

if TYPE_CHECKING:
    from referee.jsontypes import JSONObject
    from referee.rules.wager import PointsTable

POINTS_FILE = "wager_points.toml"
FATE_FILE = "fate.toml"


def data_file(name: str) -> Path:
    """A shipped data file (installed package data, else the source tree)."""
    return shared(name)


def wager_points(path: Path | str | None = None) -> PointsTable:
    """The Weir's Wager points table in TOML at ``path`` (default: the shipped one) (R34, W4).

    Raises:
        ScenarioError: the file cannot be read, is not TOML, or does not validate.
    """
    from referee.rules.wager import PointsTable  # the points table's own, not the fate's
    from referee.storage.inputs import read_input

    target = Path(path) if path is not None else data_file(POINTS_FILE)
    try:
        text = read_input(target)
    except OSError as exc:
        raise ScenarioError(f"cannot read points table {target}: {exc.strerror}; give a TOML "
                            "file like data/wager_points.toml", ruling="R34") from None
    except ValueError as exc:  # huge or binary (E45)
        raise ScenarioError(f"cannot read points table {target}: {exc}; give a TOML file like "
                            "data/wager_points.toml", ruling="E45") from None
    try:
        data = tomllib.loads(text)
        if too_deep(data):
            raise RecursionError
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(f"points table {target} is not valid TOML: {exc}",
                            ruling="R34") from None
    except ValueError:  # Python reads no whole number of more than 4,300 digits (E181)
        raise ScenarioError(f"points table {target} holds a number of more than 4,300 digits; "
                            "give a TOML file like data/wager_points.toml (E181)",
                            ruling="E181") from None
    except RecursionError:
        raise ScenarioError(f"points table {target} is nested too deeply to be a points table",
                            ruling="E45") from None
    return PointsTable.from_dict(data, "default" if path is None else target.name)


@functools.cache
def fate_tables() -> JSONObject:
    """The Card of Fate tables of ``data/fate.toml``, validated, as plain data (F19).

    Raises:
        ScenarioError: the file cannot be read, is not TOML, or does not validate.
    """
    from referee.rules.fate.tables import parse_data  # the fate tables' own

    path = data_file(FATE_FILE)
    try:
        raw: JSONObject = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ScenarioError(f"cannot read the Card of Fate tables {path}: {exc}") from None
    parse_data(raw)
    return raw
