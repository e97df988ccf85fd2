"""Do the Brag bots rank as they should? Expert beats casual beats beginner, in chips.

    python -m benchmarks.brag_bots [--games 2000] [--preset three-card-brag] [--seed 1]
                                   [--heads-up]

One expert (mc), one casual (greedy) and one beginner (random) play ``games``
games at one table, changing seats every game; the chips each level wins or
loses per game are compared. ``--heads-up`` also plays expert v casual and
casual v beginner alone, ``games`` games each.
"""

import argparse

from games.engine.brag import BOT_LEVELS, BRAG_PRESETS, simulate


def margins(report, rules, better, worse):
    levels = report.by_level()
    a, b = levels[better]["chips_per_game"], levels[worse]["chips_per_game"]
    ok = a > b
    print(f"  {BOT_LEVELS[better]} v {BOT_LEVELS[worse]}: {a:+.2f} v {b:+.2f} chips per game, "
          f"margin {a - b:+.2f} ({(a - b) / rules.starting_chips:+.1%} of a starting stack) "
          f"-> {'ok' if ok else 'NOT ok'}")
    return ok


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--preset", default="three-card-brag", choices=sorted(BRAG_PRESETS))
    parser.add_argument("--seed", default="1")
    parser.add_argument("--heads-up", action="store_true")
    args = parser.parse_args(argv)
    rules = BRAG_PRESETS[args.preset].rules

    report = simulate(rules, ["mc", "greedy", "random"], args.games, seed=args.seed)
    print("\n".join(report.lines()))
    ok = margins(report, rules, "mc", "greedy") & margins(report, rules, "greedy", "random")
    if args.heads_up:
        for pair in (["mc", "greedy"], ["greedy", "random"]):
            duel = simulate(rules, pair, args.games, seed=args.seed)
            print(f"heads-up, {args.games} games:")
            ok &= margins(duel, rules, *pair)
    print(f"expert > casual > beginner in chips: {'yes' if ok else 'NO'}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
