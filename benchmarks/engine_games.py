"""Complete games per second with bots, on one core.

    python -m benchmarks.engine_games [--preset classic] [--players 4] [--bots greedy]
                                      [--games 2000] [--seed 1]
"""

import argparse

from games.engine import PRESETS, simulate


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="classic", choices=sorted(PRESETS))
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bots", default="greedy",
                        help="one level for everyone, or a comma-separated list per seat")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", default="1")
    args = parser.parse_args(argv)

    bots = args.bots.split(",")
    if len(bots) == 1:
        bots = bots * args.players
    report = simulate(PRESETS[args.preset].rules, bots, args.games, seed=args.seed)
    print("\n".join(report.lines()))
    print(f"complete {len(bots)}-player {args.preset} games per second: "
          f"{report.games_per_second:.1f}")


if __name__ == "__main__":
    main()
