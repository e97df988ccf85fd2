"""Hand evaluations per second through the engine's public API, next to a bare dict look-up.

    python -m benchmarks.engine_eval [--hands 1000000] [--rounds 5]

Both loops walk the same list of random three-card hands (tuples of card ints)
over the same table; the public API is ``rules.hand_ranking.evaluate(hand)``.
The figure that matters is the ratio, which holds on a noisy machine.
"""

import argparse
import random
import time

from games.engine import HouseRules


def best_of(rounds, fn):
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return min(times)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)

    ranking = HouseRules().hand_ranking
    rng = random.Random(1)
    hands = [tuple(rng.sample(range(52), 3)) for _ in range(args.hands)]
    evaluate = ranking.evaluate
    table = ranking.table

    def public_api():
        for hand in hands:
            evaluate(hand)

    def bare_dict():
        for hand in hands:
            table[hand]  # noqa: B018 -- the look-up is the point

    def public_strength():
        for hand in hands:
            evaluate(hand).strength  # noqa: B018

    bare = best_of(args.rounds, bare_dict)
    api = best_of(args.rounds, public_api)
    api_strength = best_of(args.rounds, public_strength)
    n = len(hands)
    print(f"hands per round: {n:,}; best of {args.rounds} rounds")
    print(f"bare dict look-up          : {n / bare:14,.0f} /s")
    print(f"ranking.evaluate(hand)     : {n / api:14,.0f} /s  ({bare / api:.0%} of bare)")
    print(f"evaluate(hand).strength    : {n / api_strength:14,.0f} /s  "
          f"({bare / api_strength:.0%} of bare)")


if __name__ == "__main__":
    main()
