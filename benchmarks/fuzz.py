"""Fuzz the table websocket (and the create-table form) with hostile input.

    .venv/bin/python -m benchmarks.fuzz --frames 12000

On the real stack (a fresh PostgreSQL database, channels-redis, two daphne
processes) tables in every interesting state get hostile frames from the player
to move, a waiting player and a spectator, and the create-table form gets hostile
posts; every frame must be answered, no game may change, no server may raise.
Exit status 1 on any failure. This file is the command line and the printed
figures; the frames, the lanes and the judging are in tests/support/fuzz.py
(tests/test_fuzz.py uses them too).
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import sys
import tempfile
import time
from pathlib import Path

from tests.support.fuzz import first_tracebacks, fuzz, server_problems


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--frames", type=int, default=12000)
    parser.add_argument("--http", type=int, default=120, help="create-table form posts")
    parser.add_argument("--seed", type=int, default=8)
    parser.add_argument("--database", default="stopbus_fuzz")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/13")
    args = parser.parse_args(argv)

    from tests.support.stack import Stack, wipe_redis

    wipe_redis(args.redis)

    env = {
        # every frame should reach the parser: the rate limits get their own tests
        "STOPBUS_WS_RATE": "100000", "STOPBUS_WS_BURST": "100000",
        "STOPBUS_CHAT_PER_MINUTE": "1000000",
        # nothing but a fuzz frame may change a game: no clock-driven deals or abandons
        "STOPBUS_SHOWDOWN_PAUSE": "36000", "STOPBUS_ABANDON_AFTER": "36000",
        "DATABASE_POOL_MAX_SIZE": "8",
        # INFO, so that channels-redis says when it drops a group message (over capacity)
        "LOG_LEVEL": "INFO",
    }
    started = time.monotonic()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # stop the servers on the way out
    log_dir = Path(tempfile.mkdtemp(prefix="fuzz-"))
    with Stack(processes=2, database=args.database, redis_url=args.redis, proxy=False,
               env=env, log_dir=log_dir) as stack:
        print(f"fuzzing daphne on ports {[s.port for s in stack.servers]}; logs in "
              f"{stack.log_dir}", flush=True)
        tally, before, after = asyncio.run(fuzz(stack, args.frames, args.seed, args.http))
        problems = server_problems(stack)
        tracebacks = first_tracebacks(stack)
    seconds = time.monotonic() - started
    print(f"hostile frames sent:   {tally.sent}")
    print("  by category:         " + ", ".join(f"{k} {v}" for k, v in sorted(
        tally.by_category.items())))
    print("  answers:             " + ", ".join(f"{k} {v}" for k, v in sorted(
        tally.outcomes.items())))
    print(f"  legal moves turned stale before sending: {tally.skipped_legal}")
    print(f"  reconnects after a close: {tally.reconnects}")
    print(f"frames not handled:    {tally.failure_count}")
    for kind, count in tally.failure_kinds.most_common():
        print(f"  {count:5} x {kind}")
    for failure in tally.failures[:60]:
        print(f"  - {failure}")
    print(f"games changed:         {len(tally.state_changes)} of {len(before)}")
    for change in tally.state_changes:
        print(f"  - {change}")
    print("HTTP answers:          " + ", ".join(f"{k} {v}" for k, v in sorted(
        tally.http.items())))
    for failure in tally.http_failures[:10]:
        print(f"  - {failure}")
    for observation, count in tally.observations.items():
        print(f"observed:              {observation} ({count} lanes)")
    print(f"server tracebacks:     {problems or 0}")
    for line in tracebacks:
        print(f"  - {line}")
    print(f"time:                  {seconds:.0f} s")
    failed = (tally.failure_count or tally.state_changes or tally.http_failures or problems
              or tally.sent < args.frames)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
