"""Complete bot Brag hands per second on one core, through the engine's public API.

    python -m benchmarks.brag_games [--preset three-card-brag] [--players 4]
                                    [--bots greedy] [--games 400] [--seed 1]

The rate is judged by this process's CPU time (one core), which a machine shared
with other work does not distort as much as the wall clock; both are printed.
Every action goes through ``seat_view`` (the bot's only input), the bot's
choice and ``apply`` (which checks it); the next deal is ``apply(next_hand())``.
"""

import argparse

from games.engine.brag import BRAG_PRESETS, simulate

TARGET = 5000


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="three-card-brag", choices=sorted(BRAG_PRESETS))
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bots", default="greedy",
                        help="one level for everyone, or a comma-separated list per seat")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", default="1")
    args = parser.parse_args(argv)

    bots = args.bots.split(",")
    if len(bots) == 1:
        bots = bots * args.players
    report = simulate(BRAG_PRESETS[args.preset].rules, bots, args.games, seed=args.seed)
    print("\n".join(report.lines()))
    rate = report.hands_per_cpu_second
    print(f"complete {len(bots)}-player {args.preset} hands per second of one core "
          f"({','.join(bots)}): {rate:.0f} by CPU time, {report.hands_per_second:.0f} by the "
          f"wall clock (target >= {TARGET}: {'met' if rate >= TARGET else 'NOT met'})")
    return 0 if rate >= TARGET else 1


if __name__ == "__main__":
    raise SystemExit(main())
