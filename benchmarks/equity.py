"""`hand equity` speed: 2, 4 and 6 seats at each round, against the 1-second bar (H29).

For each number of stakeholders (plus the Fool) and each round (1: two up each and the
Fool's four; 2: four up and his six; 3: four up and his seven), deals ``--tables`` random
tables and times (CPU) ``referee.rules.equity.equity`` on each, starting cold as a one-shot
command does (no key-table entries made yet), and prints the median, the deals drawn and
the 95% margin reached. Then: a heads-up last round counted exactly; the import of numpy;
what numpy gains (the same six-seat first-round sample keyed one hand at a time in pure
Python, ``hand_keys.key_of_sum``); and ``referee hand equity`` end to end (wall time, a
fresh process, median of ``--runs``) on an evening file with six seats in round 1.

Run: ``python benchmarks/equity.py [--tables 5] [--runs 5]`` on a regular install.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

UP = {1: (2, 4), 2: (4, 6), 3: (4, 7)}  # R9: up cards by round, a stakeholder's and the Fool's


def table(seats: int, street: int, rng: random.Random) -> object:
    from referee.rules.cards import DECK
    from referee.rules.equity import Contender, Pot, Showing, unseen_cards

    deck = list(DECK)
    rng.shuffle(deck)
    contenders, seen = [], []
    for i in range(seats + 1):
        fool = i == seats
        up = UP[street][1 if fool else 0]
        cards = deck[len(seen):len(seen) + up]
        seen += cards
        contenders.append(Contender("Max" if fool else f"S{i + 1}", tuple(cards), 7 - up))
    names = tuple(c.name for c in contenders)
    return Showing(tuple(contenders), unseen_cards(seen), (Pot("main pot", seats, names),))


def cold() -> None:
    """Forget the key-table entries made so far, as a fresh process would have none."""
    import numpy as np

    from referee.rules import key_arrays

    key_arrays._MADE = (np.zeros(0, dtype=np.int64), np.zeros((0, 7), dtype=np.int64))


def python_sample(showing: object, deals: int, seed: int) -> float:
    """The same sampling keyed hand by hand in pure Python: CPU seconds for ``deals``."""
    from referee.rules.hand_keys import BITS, key_of_sum

    rng = random.Random(seed)
    contenders = showing.contenders  # type: ignore[attr-defined]
    pool = [BITS[c.index] for c in showing.unseen]  # type: ignore[attr-defined]
    base = [sum(BITS[k.index] for k in c.known) for c in contenders]
    cuts, start = [], 0
    for c in contenders:
        cuts.append((start, start + c.hidden))
        start += c.hidden
    wins = [0.0] * len(contenders)
    began = time.process_time()
    for _ in range(deals):
        dealt = rng.sample(pool, start)
        keys = [key_of_sum(b + sum(dealt[a:z])) for b, (a, z) in zip(base, cuts, strict=True)]
        top = max(keys)
        winners = [i for i, k in enumerate(keys) if k == top]
        for i in winners:
            wins[i] += 1 / len(winners)
    return time.process_time() - began


def end_to_end(runs: int) -> tuple[list[float], list[float]]:
    """Wall and CPU seconds of `referee hand equity` on six seats in round 1, each run a
    fresh process."""
    import resource

    referee = Path(sys.executable).with_name("referee")
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "REFEREE_DB": str(Path(tmp) / "evening.json")}
        seats = ["Ada:I:red", "Bo:II:blue", "Cy:III:green", "Di:IV:white", "Ed:V:black",
                 "Flo:VI:gold"]
        setup = [["new", "--fool", "Max", *[a for s in seats for a in ("--seat", s)]],
                 ["hand", "start"],
                 ["hand", "show", "Ada: 2C 3W", "Bo: 4C 5W", "Cy: 6S 7P", "Di: 8C 9W",
                  "Ed: 10S PP", "Flo: KnC QW", "Max: KC KW KS KP"]]
        for args in setup:
            subprocess.run([str(referee), *args], env=env, check=True, capture_output=True)
        walls, cpus = [], []
        for _ in range(runs):
            used = resource.getrusage(resource.RUSAGE_CHILDREN)
            began = time.perf_counter()
            subprocess.run([str(referee), "hand", "equity"], env=env, check=True,
                           capture_output=True)
            walls.append(time.perf_counter() - began)
            now = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpus.append(now.ru_utime + now.ru_stime - used.ru_utime - used.ru_stime)
    return walls, cpus


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=5)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()

    began = time.process_time()
    import numpy  # noqa: F401  (its import time, once, in this fresh process)

    numpy_import = time.process_time() - began
    from referee.rules.equity import Contender, Pot, Showing, equity, unseen_cards

    rng = random.Random(args.seed)
    print(f"{'seats':>5} {'round':>5} {'CPU s (median)':>15} {'max':>6} {'deals':>8} "
          f"{'margin':>8}")
    worst = 0.0
    for seats in (2, 4, 6):
        for street in (1, 2, 3):
            times, deals, margins = [], [], []
            for _ in range(args.tables):
                showing = table(seats, street, rng)
                cold()
                start = time.process_time()
                result = equity(showing)  # type: ignore[arg-type]
                times.append(time.process_time() - start)
                deals.append(result.deals)
                margins.append(result.error)
            worst = max(worst, max(times)) if seats == 6 else worst
            print(f"{seats:>5} {street:>5} {statistics.median(times):>15.3f} {max(times):>6.3f} "
                  f"{int(statistics.median(deals)):>8,} ±{100 * max(margins):.2f}pt")
    verdict = "meets the bar (<= 1 s)" if worst <= 1 else "ABOVE the bar (> 1 s)"
    print(f"six seats, slowest table: {worst:.3f} s CPU: {verdict}")

    deck = list(unseen_cards(()))
    random.Random(args.seed).shuffle(deck)
    heads_up = Showing((Contender("Ada", tuple(deck[:4]), 3), Contender("Max", tuple(deck[4:11]),
                                                                          0)),
                       unseen_cards(deck[:11]), (Pot("main pot", 2, ("Ada", "Max")),))
    cold()
    start = time.process_time()
    exact = equity(heads_up)
    print(f"heads-up, last round, exact: {exact.deals:,} deals in "
          f"{time.process_time() - start:.3f} s CPU")

    six = table(6, 1, random.Random(args.seed))
    cold()
    start = time.process_time()
    sampled = equity(six)  # type: ignore[arg-type]
    ours = time.process_time() - start
    theirs = python_sample(six, sampled.deals, args.seed)
    print(f"numpy import {numpy_import:.3f} s CPU; six seats, round 1, {sampled.deals:,} deals: "
          f"numpy {ours:.3f} s, pure Python {theirs:.3f} s CPU ({theirs / ours:.1f}x)")

    if args.runs:
        walls, cpus = end_to_end(args.runs)
        print(f"`referee hand equity`, six seats, round 1, fresh process: median "
              f"{statistics.median(cpus):.3f} s CPU, {statistics.median(walls):.3f} s wall "
              f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")


if __name__ == "__main__":
    main()
