"""Exact hand odds: how long ``hand odds`` counts take, against the 10-second bar
(H20: counted, never sampled).

Times (CPU) the full-deck count and the slowest known-card counts (three known cards leave
four to draw: about 1.2 million completions, majors counted by how many), then prints the
full-deck table as docs/rules.md shows it. Run: ``python benchmarks/odds.py``.
"""

from __future__ import annotations

import time
from math import comb


def main() -> None:
    from referee.rules.cards import parse_cards
    from referee.rules.hands import CATEGORIES, CATEGORY_TITLES
    from referee.rules.odds import deck_counts, known_counts

    start = time.process_time()
    counts = deck_counts()
    took = time.process_time() - start
    print(f"full deck, 7 cards: {took:.3f} s  (bar 10 s)")
    for text in ("0 I II", "KC KW KS", "2C 3C 4C", "KC QC KnC PC 0 XXI"):
        start = time.process_time()
        found = known_counts(parse_cards(text))
        took = time.process_time() - start
        print(f"known {text:20} {sum(found.values()):>10,} completions: {took:.3f} s  (bar 10 s)")
    total = comb(78, 7)
    print(f"\n{'hand':24} {'hands':>15} {'chance':>9} {'one in':>10}")
    for name in CATEGORIES:
        n = counts[name]
        one_in = f"{total / n:,.1f}" if n else "-"
        print(f"{CATEGORY_TITLES[name]:24} {n:>15,} {100 * n / total:>8.4f}% {one_in:>10}")


if __name__ == "__main__":
    main()
