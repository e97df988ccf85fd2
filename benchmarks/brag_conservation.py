"""Chips are conserved after every action of many random Brag games.

    python -m benchmarks.brag_conservation [--games 10000] [--seed 1]

Random legal moves over the grid of betting modes, shuffle modes, blind play and
2 to 8 players, with the house rules "no ante" and "fixed stakes" among the draws;
after every action stacks + open pot + closed pots must equal players x starting
chips, and no stack may be negative. This file parses the arguments and prints the
figures; the games and the check are in tests/support/brag_conservation.py.
"""

import argparse

from tests.support.brag_conservation import check


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10000)
    parser.add_argument("--seed", default="1")
    args = parser.parse_args(argv)

    result = check(args.games, args.seed)
    cells, house = result.cells, result.house
    print(f"{args.games} random Brag games, {result.hands} hands, {result.actions} actions "
          f"in {result.seconds:.1f}s")
    print(f"rule cells played: {len(cells)} of 8 (betting x shuffle x blind play), "
          f"2-8 players, {min(cells.values())}-{max(cells.values())} games each")
    print(f"house rules: no ante in {house['no ante'][0]} games ({house['no ante'][1]} hands, "
          f"{result.void_hands} of them void), fixed stakes (limit) in "
          f"{house['fixed stakes'][0]} games ({house['fixed stakes'][1]} hands)")
    print(f"chips conserved after every action: {'yes' if not result.broken else 'NO'} "
          f"({len(result.broken)} violations)")
    return 0 if not result.broken else 1


if __name__ == "__main__":
    raise SystemExit(main())
