"""The Stop the Bus bots against players written outside them (benchmarks/stb_yardsticks.py).

    python -m benchmarks.stb_arena --level mc --vs rule --preset classic --players 2 \\
        --games 300 --jobs 2 --seed 1
    python -m benchmarks.stb_arena --table --games 300 --jobs 2     # every cell of the README

One bot of ``--level`` (beginner ``random``, casual ``greedy``, expert ``mc``: the
product's ``make_bot``) sits with ``players - 1`` yardsticks. Whole games are played
from a seed; each seed's deals are replayed once with the bot in every seat, so the
seats and the first dealer rotate and every player gets the same cards in turn (a
2-player cell of 300 games is 150 seeds played twice). Printed: the bot's mean place
(1 is best; a fair share is ``(players + 1) / 2``), the yardsticks' mean place, and the
bot's win rate (fair: ``1 / players``), each with a 95 % interval counted over seeds
(the games of one seed are not independent). With ``--times`` the bot's decision
times (median, 99th percentile) are printed too: CPU time of the deciding process
(``time.process_time``), which is what one core would take, however busy the machine.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

from games.engine import PRESETS, apply, make_bot, new_game, next_hand, seat_view

from .stb_yardsticks import YARDSTICKS

LEVEL_NAMES = {"random": "beginner", "greedy": "casual", "mc": "expert"}
MAX_ACTIONS = 100_000


def seed_bytes(seed: str, index: int) -> bytes:
    return hashlib.sha256(f"stb-arena:{seed}:{index}".encode()).digest()


def play(rules, players, seat_of_bot: int, deal_seed: bytes, rng_seed: str):
    """One game; returns (places, the bot's decision times in seconds)."""
    seats = []
    for s in range(len(players)):
        rng = random.Random(f"{rng_seed}:{s}")
        seats.append(players[s](rules, rng))
    state, _ = new_game(rules, [f"P{i}" for i in range(len(seats))], deal_seed)
    times = []
    for _ in range(MAX_ACTIONS):
        if state.phase == "over":
            break
        if state.phase == "showdown":
            state, _ = apply(state, next_hand())
            continue
        seat = state.turn
        view = seat_view(state, seat)
        started = time.process_time()
        action = seats[seat].choose(view)
        if seat == seat_of_bot:
            times.append(time.process_time() - started)
        state, _ = apply(state, action)
    else:
        raise RuntimeError("an arena game did not end")
    return list(state.places), times


def run_seeds(job):
    """Play a batch of seeds, each once with the bot in every seat."""
    preset, level, vs, n, seed, indices, timed = job
    rules = PRESETS[preset].rules
    rows = []
    all_times = []

    def bot_factory(rules, rng):
        return make_bot(level, rules, rng)

    for index in indices:
        deal = seed_bytes(seed, index)
        games = []
        for bot_seat in range(n):
            players = [YARDSTICKS[vs]] * n
            players[bot_seat] = bot_factory
            places, times = play(rules, players, bot_seat, deal, f"{seed}:{index}:{bot_seat}")
            others = [p for s, p in enumerate(places) if s != bot_seat]
            games.append((places[bot_seat], sum(others) / len(others), places[bot_seat] == 1))
            if timed:
                all_times.extend(times)
        rows.append(games)
    return rows, all_times


def interval(values):
    """Mean and the half-width of its 95 % interval (normal, over independent values)."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, float("nan")
    return mean, 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def cell(preset, level, vs, n, games, seed="1", jobs=2, timed=False, pool=None):
    """Play one cell; returns a dict of the figures."""
    seeds = max(1, round(games / n))
    chunks = max(1, min(seeds, jobs * 4))
    batches = [list(range(i, seeds, chunks)) for i in range(chunks)]
    work = [(preset, level, vs, n, seed, b, timed) for b in batches if b]
    started = time.perf_counter()
    results = list(pool.map(run_seeds, work)) if pool is not None else list(map(run_seeds, work))
    elapsed = time.perf_counter() - started
    per_seed_place, per_seed_other, per_seed_win, times = [], [], [], []
    for rows, t in results:
        times.extend(t)
        for g in rows:
            per_seed_place.append(statistics.fmean(x[0] for x in g))
            per_seed_other.append(statistics.fmean(x[1] for x in g))
            per_seed_win.append(statistics.fmean(1.0 if x[2] else 0.0 for x in g))
    place, place_h = interval(per_seed_place)
    other, other_h = interval(per_seed_other)
    win, win_h = interval(per_seed_win)
    out = {
        "preset": preset, "level": level, "vs": vs, "players": n,
        "games": len(per_seed_place) * n, "place": place, "place_h": place_h,
        "other": other, "other_h": other_h, "win": win, "win_h": win_h,
        "elapsed": elapsed,
    }
    if timed and times:
        ordered = sorted(times)
        out["median_ms"] = 1000 * ordered[len(ordered) // 2]
        out["p99_ms"] = 1000 * ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
        out["decisions"] = len(ordered)
    return out


def verdict(c) -> str:
    fair = (c["players"] + 1) / 2
    if c["place"] + c["place_h"] < fair:
        return "better"
    if c["place"] - c["place_h"] > fair:
        return "worse"
    return "tie"


def line(c) -> str:
    text = (f"{c['preset']:<17} {c['players']}p {LEVEL_NAMES[c['level']]:<8} vs {c['vs']:<6} "
            f"{c['games']:>4} games  place {c['place']:.2f} ±{c['place_h']:.2f} "
            f"(them {c['other']:.2f} ±{c['other_h']:.2f}, fair {(c['players'] + 1) / 2:.1f})  "
            f"win {c['win']:6.1%} ±{c['win_h']:.1%}  {verdict(c):<6}")
    if "median_ms" in c:
        text += f"  decide median {c['median_ms']:.2f} ms p99 {c['p99_ms']:.2f} ms"
    return text + f"  [{c['elapsed']:.0f}s]"


def markdown(cells) -> list[str]:
    out = ["| game | players | bot | vs | games | bot's place | yardsticks' place | "
           "bot's wins | |", "|---|---|---|---|---|---|---|---|---|"]
    for c in cells:
        out.append(
            f"| {c['preset']} | {c['players']} | {LEVEL_NAMES[c['level']]} | {c['vs']} | "
            f"{c['games']} | {c['place']:.2f} ± {c['place_h']:.2f} | "
            f"{c['other']:.2f} ± {c['other_h']:.2f} | {c['win']:.1%} ± {c['win_h']:.1%} | "
            f"{verdict(c)} |")
    return out


TABLE_PRESETS = ("classic", "draw-and-discard", "thirty-one-blitz")
# each level against the yardstick it must beat, and the other one
TABLE_LEVELS = (("mc", "rule"), ("greedy", "rule"), ("random", "random"),
                ("mc", "random"), ("greedy", "random"), ("random", "rule"))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", default="mc", choices=sorted(LEVEL_NAMES))
    parser.add_argument("--vs", default="rule", choices=sorted(YARDSTICKS))
    parser.add_argument("--preset", default="classic", choices=sorted(PRESETS))
    parser.add_argument("--players", type=int, nargs="+", default=[2])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", default="1")
    parser.add_argument("--times", action="store_true", help="time the bot's decisions")
    parser.add_argument("--table", action="store_true",
                        help="every level against every yardstick, classic, draw-and-discard "
                             "and thirty-one, at each --players (default 2 and 4)")
    parser.add_argument("--cells", default=",".join(f"{a}:{b}" for a, b in TABLE_LEVELS),
                        help="with --table: which level:yardstick pairs (default: all six)")
    parser.add_argument("--presets", default=",".join(TABLE_PRESETS),
                        help="with --table: which presets (default: the three of the README)")
    parser.add_argument("--markdown", action="store_true", help="also print a Markdown table")
    args = parser.parse_args(argv)

    if args.table:
        players = args.players if args.players != [2] else [2, 4]
        pairs = [tuple(pair.split(":")) for pair in args.cells.split(",")]
        jobs = [(p, level, vs, n) for n in players for p in args.presets.split(",")
                for level, vs in pairs]
    else:
        jobs = [(args.preset, args.level, args.vs, n) for n in args.players]
    cells = []
    with ProcessPoolExecutor(args.jobs) as pool:
        for preset, level, vs, n in jobs:
            c = cell(preset, level, vs, n, args.games, args.seed, args.jobs, args.times, pool)
            cells.append(c)
            print(line(c), flush=True)
    if args.markdown:
        print("\n".join(markdown(cells)))


if __name__ == "__main__":
    main()
