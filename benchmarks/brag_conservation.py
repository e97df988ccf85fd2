"""Chips are conserved after every action of many random Brag games.

    python -m benchmarks.brag_conservation [--games 10000] [--seed 1]

Game *g* draws its rules from the grid of both betting modes, both shuffle
modes, blind play on and off, and 2 to 8 players (every cell is played), with
small stacks so that covers and players going out are common. Random legal
moves throughout; after every action stacks + open pot + closed pots must equal
players x starting chips, and no stack may be negative.
"""

import argparse
import hashlib
import itertools
import random
import time

from games.engine.brag import BragRules, make_bot, play_bot_game

GRID = list(itertools.product(("limit", "pot_limit"), ("prial_only", "every_hand"),
                              (True, False), range(2, 9)))


def rules_for(cell, rng):
    betting, shuffle, blind, _ = cell
    starting = rng.choice((5, 10, 20, 40))
    return BragRules(starting_chips=starting, ante=rng.choice((1, 1, 2)), betting=betting,
                     min_bet=rng.choice((1, 2)), max_bet=rng.choice((4, 10)),
                     max_raise=rng.choice((2, 10)), blind_play=blind, shuffle=shuffle,
                     max_hands=rng.choice((0, 10, 30)))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10000)
    parser.add_argument("--seed", default="1")
    args = parser.parse_args(argv)

    rng = random.Random(f"conservation:{args.seed}")
    actions = hands = 0
    broken = []
    cells = {}
    started = time.perf_counter()
    for g in range(args.games):
        cell = GRID[g % len(GRID)]
        rules = rules_for(cell, rng)
        n = cell[3]
        total = rules.starting_chips * n
        bots = [make_bot("random", rules, random.Random(rng.random())) for _ in range(n)]
        counted = [0]

        def conserved(state, total=total, counted=counted, g=g):
            counted[0] += 1
            if sum(state.chips) + state.middle != total or min(state.chips) < 0:
                broken.append((g, state.version))

        seed = hashlib.sha256(f"conservation:{args.seed}:{g}".encode()).digest()
        final = play_bot_game(rules, bots, seed, on_action=conserved)
        actions += counted[0]
        hands += final.hand_no
        cells[cell[:3]] = cells.get(cell[:3], 0) + 1
    elapsed = time.perf_counter() - started
    print(f"{args.games} random Brag games, {hands} hands, {actions} actions in {elapsed:.1f}s")
    print(f"rule cells played: {len(cells)} of 8 (betting x shuffle x blind play), "
          f"2-8 players, {min(cells.values())}-{max(cells.values())} games each")
    print(f"chips conserved after every action: {'yes' if not broken else 'NO'} "
          f"({len(broken)} violations)")
    return 0 if not broken else 1


if __name__ == "__main__":
    raise SystemExit(main())
