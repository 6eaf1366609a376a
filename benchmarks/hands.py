"""Hand evaluator speed: referee's best_hand against treys, side by side (README, Speed).

Each round deals 20,000 fresh random 7-card tarot hands and 20,000 fresh random 7-card
poker hands, times ``best_hand`` on the first and ``treys.Evaluator().evaluate`` on the
second in the same process, and prints hands per second and the ratio (above 1: referee is
faster). The median ratio of three rounds is the result; the bar is 1.0, the aim 2.0.

The evaluator fills its rank-pattern table as it meets patterns, never at import, so the
first round starts cold; its ratio is printed too. Run: ``python benchmarks/hands.py``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()

    from treys import Card as PokerCard
    from treys import Evaluator

    from referee.rules.cards import DECK
    from referee.rules.hands import best_hand

    evaluator = Evaluator()
    poker_deck = [PokerCard.new(rank + suit) for rank in "23456789TJQKA" for suit in "shdc"]
    rng = random.Random(args.seed)
    ratios = []
    for number in range(1, args.rounds + 1):
        tarot = [rng.sample(DECK, 7) for _ in range(args.hands)]
        poker = [rng.sample(poker_deck, 7) for _ in range(args.hands)]

        start = time.perf_counter()
        for cards in tarot:
            best_hand(cards)
        ours = time.perf_counter() - start

        start = time.perf_counter()
        for cards in poker:
            evaluator.evaluate(cards[:2], cards[2:])
        theirs = time.perf_counter() - start

        ratios.append(theirs / ours)
        print(
            f"round {number}: referee {args.hands / ours:>9,.0f} hands/s   "
            f"treys {args.hands / theirs:>9,.0f} hands/s   ratio {theirs / ours:.2f}"
            + ("  (cold table)" if number == 1 else "")
        )
    median = statistics.median(ratios)
    verdict = "meets the bar (>= 1.0)" if median >= 1.0 else "BELOW the bar (< 1.0)"
    print(f"median speed ratio referee/treys: {median:.2f}  {verdict}; aim 2.0")


if __name__ == "__main__":
    main()
