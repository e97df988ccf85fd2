"""The Brag arena: the bot levels against outside yardsticks, whole games, duplicate format.

    python -m benchmarks.brag_arena [--games 300] [--jobs 2] [--seed 1]
        [--bots beginner casual expert] [--yardsticks uniform station tight equity]
        [--betting limit pot_limit] [--tables 2 4] [--ladder] [--timing]

Each cell plays ``--games`` whole games of one bot level (A) against one yardstick
(B) under a preset's rules: "limit" is the Three Card Brag preset, "pot_limit" the
Pot-limit Brag preset. Games come in pairs: the packs come from a seed and the
first dealer is rotated from pair to pair; the pair's second game replays the same
seed and dealer with the seats swapped (heads-up A B then B A, four-handed
A B A B then B A B A), so both sides are dealt the same cards (every pack with
``every_hand``; the first pack with ``prial_only``, whose later packs follow play).

Printed per cell, for A, with 95 % intervals over the pairs: chips won a hand
(A's net chips over the hands played, a ratio whose interval comes by the delta
method, so that a game that ends in a few hands weighs as little as it lasts),
the mean place (1 is best) and the win rate (a shared first place counts as a
share). ``--timing`` also prints each bot level's
decision time (median and 99th percentile, over every decision the arena asked of
it, in this process's CPU time: run it with ``--jobs 1``).

The yardsticks (benchmarks/brag_yardsticks.py) share no code with the bots.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import random
import statistics
import time
from multiprocessing import Pool

from games.engine.brag import (
    BRAG_PRESETS,
    OVER,
    SHOWDOWN,
    apply,
    make_bot,
    new_game,
    next_hand,
    seat_view,
)

from .brag_yardsticks import YARDSTICKS, make_yardstick

LEVELS = {"beginner": "random", "casual": "greedy", "expert": "mc"}
BETTINGS = {"limit": "three-card-brag", "pot_limit": "pot-limit-brag"}
MAX_ACTIONS = 200_000


def make_player(name, rules, rng):
    if name in LEVELS:
        return make_bot(LEVELS[name], rules, rng)
    return make_yardstick(name, rules, rng)


def play_game(rules, names, seed: bytes, dealer: int, rng_seed: int, timing=None):
    """One whole game; returns (net chips per seat, hands played, places)."""
    n = len(names)
    players = [make_player(name, rules, random.Random(rng_seed * 31 + i))
               for i, name in enumerate(names)]
    observers = [getattr(p, "observe", None) for p in players]
    state, _ = new_game(rules, [f"{name} {i + 1}" for i, name in enumerate(names)], seed,
                        dealer=dealer)
    deal = next_hand()
    clock = time.process_time_ns
    for _ in range(MAX_ACTIONS):
        phase = state.phase
        if phase in (OVER, SHOWDOWN):
            for seat in range(n):
                if observers[seat] is not None and (state.hands[seat] or phase == OVER):
                    observers[seat](seat_view(state, seat))
            if phase == OVER:
                break
            state, _ = apply(state, deal)
            continue
        seat = state.turn
        view = seat_view(state, seat)
        if timing is not None and names[seat] in LEVELS:
            t = clock()
            action = players[seat].choose(view)
            timing.setdefault(names[seat], []).append(clock() - t)
        else:
            action = players[seat].choose(view)
        state, _ = apply(state, action)
    else:
        raise RuntimeError("an arena game did not end")
    start = rules.starting_chips
    return [c - start for c in state.chips], state.hand_no, list(state.places)


def pair_seed(seed, cell: str, index: int) -> bytes:
    return hashlib.sha256(f"brag-arena:{seed}:{cell}:{index}".encode()).digest()


def play_pair(task):
    """Both games of one pair; A's chips a hand, mean place and share of wins, per game."""
    betting, players, a, b, seed, index, timing = task
    rules = BRAG_PRESETS[BETTINGS[betting]].rules
    cell = f"{betting}:{players}"
    game_seed = pair_seed(seed, cell, index)
    dealer = index % players
    first = [a if i % 2 == 0 else b for i in range(players)]
    second = [b if i % 2 == 0 else a for i in range(players)]
    times = {} if timing else None
    net_a, hands_a, places_a, wins_a = 0.0, 0, [], []
    for names in (first, second):
        net, hands, places = play_game(rules, names, game_seed, dealer, index, times)
        mine = [i for i, name in enumerate(names) if name == a]
        net_a += sum(net[i] for i in mine) / len(mine)
        hands_a += hands
        places_a.append(sum(places[i] for i in mine) / len(mine))
        firsts = [i for i in range(players) if places[i] == 1]
        wins_a.append(sum(1 for i in firsts if i in mine) / len(firsts) / len(mine))
    return ((net_a, hands_a), sum(places_a) / 2, sum(wins_a) / 2, times)


def interval(values):
    """Mean and half-width of a 95 % interval (normal approximation over pairs)."""
    m = statistics.fmean(values)
    if len(values) < 2:
        return m, float("nan")
    return m, 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def ratio_interval(pairs):
    """Chips a hand (all net chips over all hands) and the half-width of its 95 % interval,
    by the delta method over pairs: short games weigh as little as they last."""
    nets = [n for n, _ in pairs]
    hands = [h for _, h in pairs]
    r = sum(nets) / sum(hands)
    mean_hands = statistics.fmean(hands)
    z = [(n - r * h) / mean_hands for n, h in pairs]
    if len(z) < 2:
        return r, float("nan")
    return r, 1.96 * statistics.stdev(z) / math.sqrt(len(z))


def fmt_chips(pairs):
    m, h = ratio_interval(pairs)
    return f"{m:+.2f} [{m - h:+.2f}, {m + h:+.2f}]"


def fmt(values, signed=True, pct=False):
    m, h = interval(values)
    if pct:
        return f"{m:6.1%} [{m - h:6.1%}, {m + h:6.1%}]"
    f = "+.2f" if signed else ".2f"
    return f"{m:{f}} [{m - h:{f}}, {m + h:{f}}]"


def run_cell(pool, betting, players, a, b, games, seed, timing):
    pairs = max(1, games // 2)
    tasks = [(betting, players, a, b, seed, i, timing) for i in range(pairs)]
    results = pool.map(play_pair, tasks, chunksize=max(1, pairs // 16)) if pool else [
        play_pair(t) for t in tasks]
    chips = [r[0] for r in results]
    places = [r[1] for r in results]
    wins = [r[2] for r in results]
    times: dict[str, list[int]] = {}
    for r in results:
        for level, ts in (r[3] or {}).items():
            times.setdefault(level, []).extend(ts)
    return chips, places, wins, times


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="games a cell (pairs x 2)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", default="1")
    parser.add_argument("--bots", nargs="+", default=list(LEVELS),
                        choices=list(LEVELS) + list(YARDSTICKS))
    parser.add_argument("--yardsticks", nargs="+", default=list(YARDSTICKS),
                        choices=list(YARDSTICKS) + list(LEVELS))
    parser.add_argument("--betting", nargs="+", default=list(BETTINGS), choices=list(BETTINGS))
    parser.add_argument("--tables", nargs="+", type=int, default=[2, 4], choices=[2, 4, 6])
    parser.add_argument("--ladder", action="store_true",
                        help="also play each level against the next one up (beginner vs "
                        "casual, casual vs expert)")
    parser.add_argument("--timing", action="store_true",
                        help="also print each level's decision time (use --jobs 1)")
    args = parser.parse_args(argv)

    pool = Pool(args.jobs) if args.jobs > 1 else None
    all_times: dict[str, list[int]] = {}
    print(f"Brag arena: {args.games} games a cell (duplicate pairs), seed {args.seed}; "
          "figures for the first player, 95 % intervals")
    print("| A vs B | betting | players | chips a hand | mean place | win rate |")
    print("|---|---|---|---|---|---|")
    started = time.perf_counter()
    try:
        cells = [(a, b) for a in args.bots for b in args.yardsticks if a != b]
        if args.ladder:
            cells += [("beginner", "casual"), ("casual", "expert")]
        for a, b in cells:
            for betting in args.betting:
                for players in args.tables:
                    chips, places, wins, times = run_cell(
                        pool, betting, players, a, b, args.games, args.seed, args.timing)
                    for level, ts in times.items():
                        all_times.setdefault(level, []).extend(ts)
                    print(f"| {a} vs {b} | {betting} | {players} | {fmt_chips(chips)} | "
                          f"{fmt(places, signed=False)} | {fmt(wins, pct=True)} |",
                          flush=True)
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    print(f"({time.perf_counter() - started:.0f} s)")
    if args.timing:
        print("| level | decisions | median ms | p99 ms |")
        print("|---|---|---|---|")
        for level, ts in all_times.items():
            ts.sort()
            print(f"| {level} | {len(ts)} | {ts[len(ts) // 2] / 1e6:.3f} | "
                  f"{ts[min(len(ts) - 1, int(len(ts) * 0.99))] / 1e6:.3f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
