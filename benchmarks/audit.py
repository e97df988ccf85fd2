"""Hidden-information audit: does any frame show a viewer a card it may not see?

    .venv/bin/python -m benchmarks.audit --games 1000

Plays games on the real stack (a fresh PostgreSQL database, channels-redis, two
daphne processes), every seat and a spectator per table on its own websocket, and
judges every frame against the replayed log. This file is the command line and the
printed figures; the players, the rules checked and the judging are in
tests/support/audit.py (tests/test_audit.py uses them too).
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import sys
import tempfile
import time
from pathlib import Path

from tests.support.audit import Totals, prepare_database, run, server_tracebacks


def report(totals: Totals, seconds: float, tracebacks: int | None = None) -> None:
    print(f"games audited:    {totals.games} ({totals.finished} finished; "
          f"{len(totals.unfinished)} unfinished)")
    print("  by variant:     " + ", ".join(f"{k} {v}" for k, v in sorted(
        totals.by_variant.items())))
    print("  by seats:       " + ", ".join(f"{k} seats {v}" for k, v in sorted(
        totals.by_seats.items())))
    print(f"actions in logs:  {totals.actions}")
    print(f"clients:          {totals.clients} (every seat plus a spectator per table; "
          f"{totals.leavers} players left mid-game and watched on)")
    print(f"frames received:  {totals.frames} ({totals.boards} boards)")
    print(f"refusals seen:    {totals.refusals} ({totals.stale_replays} deliberate stale "
          f"replays); watchdog syncs {totals.syncs}")
    for kind, count in totals.refusal_kinds.most_common(5):
        print(f"  {count:6} x {kind}")
    print(f"checks:           {totals.checks} (judging took {totals.audit_seconds:.0f} s "
          "of CPU in a worker process)")
    print(f"violations:       {totals.violation_count}")
    for rule, count in sorted(totals.rules.items()):
        print(f"  {rule}: {count}")
    for violation in totals.violations[:20]:
        print(f"  - {violation}")
    if totals.unfinished:
        print(f"unfinished:       {totals.unfinished[:10]}")
        for stall in totals.stalls[:10]:
            print(f"  - {stall}")
    if tracebacks is not None:
        print(f"server tracebacks: {tracebacks}")
    print(f"time:             {seconds:.0f} s")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--concurrency", type=int, default=12)
    parser.add_argument("--seed", type=int, default=8)
    parser.add_argument("--timeout", type=float, default=900.0, help="seconds per game")
    parser.add_argument("--database", default="stopbus_audit")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/12")
    parser.add_argument("--variants", help="comma-separated slugs (default: the mix)")
    parser.add_argument("--leave-chance", type=float, default=0.05,
                        help="share of games where one player leaves mid-game")
    args = parser.parse_args(argv)
    variants = args.variants.split(",") if args.variants else None

    from tests.support.stack import Stack, wipe_redis

    wipe_redis(args.redis)

    started = time.monotonic()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # stop the servers on the way out
    env = {"STOPBUS_ABANDON_AFTER": "36000", "DATABASE_POOL_MAX_SIZE": "10"}
    with Stack(processes=2, database=args.database, redis_url=args.redis, proxy=False,
               env=env, log_dir=Path(tempfile.mkdtemp(prefix="audit-"))) as stack:
        prepare_database(stack)
        print(f"auditing {args.games} games on 2 daphne processes "
              f"(ports {[s.port for s in stack.servers]}), logs in {stack.log_dir}", flush=True)
        totals = asyncio.run(run(stack, args.games, args.concurrency, args.seed, args.timeout,
                                 variants=variants, leave_chance=args.leave_chance))
        tracebacks = server_tracebacks(stack)
    report(totals, time.monotonic() - started, tracebacks)
    return 1 if totals.violation_count or not totals.games else 0


if __name__ == "__main__":
    sys.exit(main())
