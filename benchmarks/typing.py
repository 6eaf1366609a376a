"""How much a GM types for one six-seat hand: today's long form against the short form.

The same hand (two limit rounds with a raise and two folds, a third round, a showdown) is
played twice through the real console, once each way, into two evening files; both must end in
the same state. Prints the commands and characters of each and the ratio (goal: the short form
takes at most 50% of the characters).

    python benchmarks/typing.py
"""

from __future__ import annotations

import os
import sys

# This file shares its name with the standard library's `typing`, and running any script in
# benchmarks/ puts this folder first on sys.path. Imported as `typing`, it steps aside for the
# real module; run as a script, it takes its folder off the path before importing anything.
_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _HERE]
if __name__ == "typing":
    import importlib

    del sys.modules["typing"]
    sys.modules["typing"] = importlib.import_module("typing")  # what the importer receives

import json  # noqa: E402 (after the path fix above)
import shlex  # noqa: E402 (after the path fix above)
import tempfile  # noqa: E402 (after the path fix above)
from pathlib import Path  # noqa: E402 (after the path fix above)
from typing import Any  # noqa: E402 (after the path fix above)

NEW = ("new --fool Max --seat Ada:I:red --seat Ben:II:blue --seat Cy:III:green "
       "--seat Di:IV:yellow --seat Ed:V:white --seat Flo:VI:black")

# Seven cards each, as dealt: two down, two up, two up, one down; the Fool's all up.
HANDS = {
    "Ada": "2C 3C KC KW 4S 5P 6C",
    "Ben": "2W 3W QC QW 4W 5W 6W",
    "Cy": "2S 3S 10C 9W 4C 5C 6S",
    "Di": "2P 3P 8C 7W 4P 5S 6P",
    "Ed": "AC AW PC KnW 7C 8W 9C",
    "Flo": "AS AP 10W 9S 7S 8S 9P",
    "Max": "0 I II III IV V VI",
}
FOOL = "Max"
# Round 1: Ada's Kings open; Ben raises, Cy folds, the rest call. Round 2: Ben bets, Ed folds.
ROUND1 = [("bet", "Ada"), ("raise", "Ben"), ("fold", "Cy"), ("call", "Di"), ("call", "Ed"),
          ("call", "Flo"), ("call", "Ada")]
ROUND2 = [("check", "Ada"), ("bet", "Ben"), ("call", "Di"), ("fold", "Ed"), ("call", "Flo"),
          ("call", "Ada")]
ROUND3 = [("check", "Ada"), ("check", "Ben"), ("check", "Di"), ("check", "Flo")]
LIVE3 = ["Ada", "Ben", "Di", "Flo"]


def _cards(name: str) -> list[str]:
    return HANDS[name].split()


def _up(name: str, street: int) -> list[str]:
    cards = _cards(name)
    if name == FOOL:
        return cards[: {1: 4, 2: 6, 3: 7}[street]]
    return cards[2:4] if street == 1 else cards[2:6]


def long_form() -> list[str]:
    """As before: every round retypes every player's up cards, one command each; every action
    names its player; the showdown retypes all seven cards of every hand, the Fool's too."""
    lines = [NEW, "hand start"]
    for name in HANDS:
        lines.append(f'hand show {name} "{" ".join(_up(name, 1))}"')
    lines += [f"{a} {n}" for a, n in ROUND1]
    for name in [n for n in HANDS if n != "Cy"]:
        lines.append(f'hand show {name} "{" ".join(_up(name, 2))}"')
    lines += [f"{a} {n}" for a, n in ROUND2]
    lines.append(f'hand show {FOOL} "{" ".join(_up(FOOL, 3))}"')
    lines += [f"{a} {n}" for a, n in ROUND3]
    lines.append("hand showdown " + " ".join(f'"{n}: {HANDS[n]}"' for n in [*LIVE3, FOOL]))
    return lines


def short_form() -> list[str]:
    """The short forms: one `hand show` a round with only the new cards, actions for the player
    to act, the showdown with the down cards only (E25-E27)."""
    lines = [NEW, "hand start"]
    lines.append("hand show " + " ".join(f"{n} {' '.join(_up(n, 1))}" for n in HANDS))
    lines += [a for a, _ in ROUND1]
    lines.append("hand show " + " ".join(f"{n} {' '.join(_up(n, 2)[-2:])}"
                                         for n in HANDS if n != "Cy"))
    lines += [a for a, _ in ROUND2]
    lines.append(f"hand show {FOOL} {_up(FOOL, 3)[-1]}")
    lines += [a for a, _ in ROUND3]
    down = {n: [c for c in _cards(n) if c not in _up(n, 3)] for n in LIVE3}
    lines.append("hand showdown " + " ".join(f"{n} {' '.join(down[n])}" for n in LIVE3))
    return lines


def play(lines: list[str], db: Path) -> dict[str, Any]:
    """Run the lines through the console on ``db``; the final state, less the clock."""
    from typer.testing import CliRunner

    from referee.cli.main import full_app

    app = full_app()
    runner = CliRunner()
    for line in lines:
        result = runner.invoke(app, ["--db", str(db), *shlex.split(line)])
        if result.exit_code != 0:
            raise SystemExit(f"`{line}` failed: {result.output}")
    status = json.loads(runner.invoke(app, ["--db", str(db), "status", "--json"]).output)
    status.pop("clock", None)
    report = json.loads(runner.invoke(app, ["--db", str(db), "report", "--json"]).output)
    return {"status": status, "money": report["money"], "history": report["highlights"]}


def typed(lines: list[str], prefix: str = "") -> tuple[int, int]:
    """Commands and characters of the hand itself (the `new` that sets up the table aside),
    as typed in `referee shell` (``prefix`` "referee ": at a plain shell prompt)."""
    hand = lines[1:]
    return len(hand), sum(len(prefix + line) for line in hand)


def main() -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    long, short = long_form(), short_form()
    with tempfile.TemporaryDirectory() as tmp:
        a = play(long, Path(tmp) / "long.json")
        b = play(short, Path(tmp) / "short.json")
    if a != b:
        raise SystemExit("the two forms ended in different states")
    (n_long, c_long), (n_short, c_short) = typed(long), typed(short)
    (_, p_long), (_, p_short) = typed(long, "referee "), typed(short, "referee ")
    print(f"long form:  {n_long} commands, {c_long} characters in `referee shell` "
          f"({p_long} with `referee ` before each)")
    print(f"short form: {n_short} commands, {c_short} characters in `referee shell` "
          f"({p_short} with `referee ` before each)")
    print(f"short / long characters: {c_short / c_long:.2f} in the shell, "
          f"{p_short / p_long:.2f} at a plain prompt (goal <= 0.50); both forms end in the "
          "same state")


if __name__ == "__main__":
    main()
