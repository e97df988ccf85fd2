"""The Monte-Carlo bot against the greedy bot, two players, many games.

    python -m benchmarks.mc_vs_greedy [--preset classic] [--games 2000] [--jobs 2] [--seed 1]

Games are split over ``--jobs`` processes; each game is seeded, so the result
does not depend on the number of jobs. Prints the MC bot's win rate with a 95%
confidence interval.
"""

import argparse
import math
import time
from concurrent.futures import ProcessPoolExecutor

from games.engine import PRESETS
from games.engine.simulate import simulate


def run(args):
    preset, games, seed = args
    report = simulate(PRESETS[preset].rules, ["mc", "greedy"], games, seed=seed)
    return report.bots[0].wins, report.games, report.hands, report.turns


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="classic", choices=sorted(PRESETS))
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", default="1")
    args = parser.parse_args(argv)

    chunks = max(args.jobs * 4, 1)
    per = [args.games // chunks + (1 if i < args.games % chunks else 0) for i in range(chunks)]
    started = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        results = list(pool.map(run, [(args.preset, n, f"{args.seed}:{i}")
                                      for i, n in enumerate(per) if n]))
    elapsed = time.perf_counter() - started
    wins = sum(r[0] for r in results)
    games = sum(r[1] for r in results)
    rate = wins / games
    half = 1.96 * math.sqrt(rate * (1 - rate) / games)
    print(f"{games} two-player {args.preset} games, mc vs greedy, seats alternating, "
          f"{elapsed:.1f}s on {args.jobs} processes")
    print(f"mc win rate: {rate:.1%} (95% interval {rate - half:.1%} to {rate + half:.1%})")
    print(f"hands per game {sum(r[2] for r in results) / games:.2f}, "
          f"turns per hand {sum(r[3] for r in results) / sum(r[2] for r in results):.2f}")


if __name__ == "__main__":
    main()
