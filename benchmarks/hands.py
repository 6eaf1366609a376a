"""Hand evaluator speed: best_hand and the bulk hand_keys against treys.
Figures in docs/development.md (Speed).

Each round deals 20,000 fresh random 7-card tarot hands and 20,000 fresh random 7-card
poker hands, then in the same process times (CPU time) ``best_hand`` on the tarot hands
(as Cards), ``hand_keys`` (the bulk API) on the same hands as deck indices, and
``treys.Evaluator().evaluate`` on the poker hands. It prints hands per second and the
ratios (above 1: referee is faster). The median ratio of the rounds is the result; the bars
are 3.0 for ``best_hand`` and 5.0 for the bulk API.

The evaluator fills its rank-pattern table as it meets patterns, never at import, so the
first round starts cold; it is marked. Then (``--agree N``, default 100,000) it checks
that the bulk API gives the key ``best_hand`` gives, and the key of the full evaluation
path, on N random hands of 1-7 cards, with and without magic (the test suite checks
20,000 of each; ``--agree 0`` skips it).

Run: ``python benchmarks/hands.py [--rounds 5] [--agree 100000]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time


def agree(count: int, seed: int) -> None:
    """Bulk keys equal best_hand's and the full path's on ``count`` hands, each way."""
    from referee.rules.cards import DECK
    from referee.rules.hand_keys import evaluate, hand_keys
    from referee.rules.hands import best_hand

    rng = random.Random(seed)
    for magic in (False, True):
        start = time.process_time()
        sizes = [rng.randint(1, 7) for _ in range(count)]
        if magic:
            indices = [[rng.randrange(78) for _ in range(n)] for n in sizes]
        else:
            indices = [rng.sample(range(78), n) for n in sizes]
        bulk = hand_keys(indices, magic=magic)
        for hand, key in zip(indices, bulk, strict=True):
            cards = [DECK[i] for i in hand]
            if key != best_hand(cards, magic=magic).key or key != evaluate(cards, magic=magic)[0]:
                raise SystemExit(f"DISAGREE on {[str(c) for c in cards]} (magic={magic})")
        took = time.process_time() - start
        print(f"agree: bulk == best_hand == full path on {count:,} hands of 1-7 cards, "
              f"magic={magic} ({took:.1f} s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--agree", type=int, default=100_000, metavar="N")
    args = parser.parse_args()

    from treys import Card as PokerCard
    from treys import Evaluator

    from referee.rules.cards import DECK
    from referee.rules.hand_keys import hand_keys
    from referee.rules.hands import best_hand

    evaluator = Evaluator()
    poker_deck = [PokerCard.new(rank + suit) for rank in "23456789TJQKA" for suit in "shdc"]
    rng = random.Random(args.seed)
    single, bulk = [], []
    for number in range(1, args.rounds + 1):
        tarot = [rng.sample(DECK, 7) for _ in range(args.hands)]
        indices = [[card.index for card in cards] for cards in tarot]
        poker = [rng.sample(poker_deck, 7) for _ in range(args.hands)]

        start = time.process_time()
        for cards in tarot:
            best_hand(cards)
        ours = time.process_time() - start

        start = time.process_time()
        hand_keys(indices)
        ours_bulk = time.process_time() - start

        start = time.process_time()
        for cards in poker:
            evaluator.evaluate(cards[:2], cards[2:])
        theirs = time.process_time() - start

        single.append(theirs / ours)
        bulk.append(theirs / ours_bulk)
        print(
            f"round {number}: best_hand {args.hands / ours:>9,.0f} hands/s   "
            f"hand_keys {args.hands / ours_bulk:>9,.0f} hands/s   "
            f"treys {args.hands / theirs:>8,.0f} hands/s   "
            f"ratios {theirs / ours:.2f} / {theirs / ours_bulk:.2f}"
            + ("  (cold table)" if number == 1 else "")
        )
    for label, ratios, bar in (("best_hand", single, 3.0), ("hand_keys (bulk)", bulk, 5.0)):
        median = statistics.median(ratios)
        verdict = f"meets the bar (>= {bar})" if median >= bar else f"BELOW the bar (< {bar})"
        print(f"median speed ratio {label}/treys: {median:.2f}  {verdict}")
    if args.agree:  # after the timing, so that its first round starts cold
        agree(args.agree, args.seed)


if __name__ == "__main__":
    main()
