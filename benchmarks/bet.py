"""A bet in-process: ``play.act_said`` against the state written as JSON.
Figures in docs/development.md (The shape of a bet).

A table of four stakeholders and the Fool, the first round's up cards given: the player to act
bets. The bet is timed against ``json.dumps`` of the same state's plain data, in the same
process (a reference that does not move when the console's own copy does); the best of the
repeats and the ratio are printed. Run from a checkout: ``PYTHONPATH=. python
benchmarks/bet.py`` (a release before ``act_said`` is timed through ``act``).
"""

from __future__ import annotations

import argparse
import json
import timeit
from collections.abc import Callable

from referee.content.scenario import load_scenario
from referee.evening import commands, play, souls
from referee.evening.folds import fold_on
from referee.evening.state import State, dump

SEATS = ("Ada:I:red:Ben:II", "Cy:III:blue", "Di:IV:green", "Ed:V:yellow")


def _table() -> State:
    seats = [commands.parse_seat(s) for s in SEATS]
    setup = souls.setup_from_scenario(load_scenario(None), seats)
    state = fold_on(State(), commands.new_evening(State(), "Max", seats, now=0.0, force=False,
                                                  **setup))
    state = fold_on(state, play.start_hand(state, now=0.0))
    return fold_on(state, play.show(state, [("Ada", "2C 3W"), ("Cy", "4C 5W"),
                                            ("Di", "6C 7W"), ("Ed", "8C 9W"),
                                            ("Max", "KC KW KS KP")]))


def _best(fn: Callable[[], object], number: int, repeat: int) -> float:
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--number", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    state = _table()
    act = getattr(play, "act_said", play.act)
    move = _best(lambda: act(state, None, "bet"), args.number, args.repeat)
    ref = _best(lambda: json.dumps(dump(state)), args.number, args.repeat)
    print(f"a bet: {move * 1e6:.0f} us, {move / ref:.2f}x the state written as JSON "
          f"({ref * 1e6:.0f} us)")


if __name__ == "__main__":
    main()
