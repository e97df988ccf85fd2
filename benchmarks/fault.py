"""Games through faults: kill -9 a server and restart Redis mid-game, then audit the log.

    .venv/bin/python -m benchmarks.fault --tables 20 --players 3
    .venv/bin/python -m benchmarks.fault --tables 20 --players 3 --bots 1 --keep

It starts a Redis of its own (the shared one on 6379 is never touched) and two
daphne processes behind a round-robin proxy on a fresh PostgreSQL database
(``--database``, default ``stopbus_fault``), plays ``--tables`` games through
websocket clients that read only the HTML, kills server 1 at ``--kill-at``
seconds and restarts Redis at ``--redis-at``, then audits every game's log: no
acknowledged move lost, no gap, every replay matches. This file is the command
line and the printed figures; the players, the faults and the audit are in
tests/support/fault.py.

Exit status 1 if an action was lost, a game did not finish, the log has a gap
or a replay differs; 2 if the stack itself failed. ``--keep`` leaves the
database and the server logs (their folder is printed).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import shutil
import signal
import statistics
import sys
import tempfile
from collections import Counter
from pathlib import Path

from tests.support.fault import Audit, Run, audit, play_through_faults
from tests.support.stack import RedisServer, Stack


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.fault", description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--players", type=int, default=3, help="people per table")
    parser.add_argument("--bots", type=int, default=0, help="greedy bots per table")
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--think", type=float, default=0.3,
                        help="seconds a client waits before each move")
    parser.add_argument("--ping", type=float, default=25.0,
                        help="seconds between a client's pings (the page: 25)")
    parser.add_argument("--kill-at", type=float, default=6.0,
                        help="seconds into the games when server 1 gets kill -9")
    parser.add_argument("--down-for", type=float, default=5.0,
                        help="seconds server 1 stays dead before it is started again")
    parser.add_argument("--no-restart", action="store_true",
                        help="leave server 1 dead: server 0 finishes every game")
    parser.add_argument("--redis-at", type=float, default=16.0,
                        help="seconds into the games when Redis is killed")
    parser.add_argument("--redis-down", type=float, default=1.0,
                        help="seconds Redis stays down")
    parser.add_argument("--timeout", type=float, default=600.0,
                        help="give up on unfinished games after this many seconds")
    parser.add_argument("--database", default="stopbus_fault")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", action="store_true",
                        help="keep the database and the server logs")
    args = parser.parse_args(argv)
    if args.tables < 1 or args.players < 1 or args.players + args.bots < 2:
        parser.error("each table needs at least two seats and one person")
    return args


# -- the report ------------------------------------------------------------------------------


def _quantiles(values: list[float]) -> str:
    if not values:
        return "none"
    values = sorted(values)
    p95 = values[min(len(values) - 1, int(round(0.95 * (len(values) - 1))))]
    return (f"n={len(values)}  p50 {statistics.median(values):.2f}s  p95 {p95:.2f}s  "
            f"max {values[-1]:.2f}s")


def _refusal_kind(text: str) -> str:
    if "moved on before" in text:
        return "stale version (out-of-date view)"
    if "same moment" in text:
        return "raced another move"
    return text[:70]


def report(run: Run, result: Audit, log_dir: Path) -> None:
    players = run.players
    print()
    print(f"games started            {result.games}/{len(run.tables)}")
    print(f"games finished           {result.finished}/{len(run.tables)}"
          + ("   (TIMED OUT)" if run.timed_out else ""))
    print(f"wall time                {run.ended - run.began:.1f}s of play")
    print("faults")
    starts = [run.began + fault.at for fault in run.faults]
    for i, fault in enumerate(run.faults):
        until = starts[i + 1] if i + 1 < len(starts) else float("inf")
        reconnects = sum(starts[i] <= t < until for p in players for t in p.reconnected_at)
        print(f"  t={fault.at:6.1f}s  {fault.name:<36} {fault.playing:>3} games playing; "
              f"then {reconnects} clients reconnected")
    print("the log")
    print(f"  actions                {result.log_actions} "
          f"({', '.join(f'{k} {v}' for k, v in sorted(result.by.items()))})")
    print(f"  seq gaps               {len(result.gaps)}")
    print(f"  replay mismatches      {len(result.mismatches)}")
    if result.pauses:
        gap, table_id, seq, at = max(result.pauses)
        print(f"  longest pause in play  {_quantiles([p[0] for p in result.pauses])} "
              f"(the longest: table {table_id} after seq {seq}, from t={at:.1f}s)")
    print("client moves")
    print(f"  sent                   {result.sent}")
    print(f"  applied (in the log)   {result.applied}")
    print(f"  acknowledged           {result.acknowledged} decisions "
          "(the client later saw a newer version, with no refusal)")
    print(f"  refused (told)         {result.refused}")
    print(f"  resent after a drop    {result.resent}")
    print(f"  unanswered             {result.unanswered}")
    print(f"  version applied by nobody  {result.played_by_nobody}")
    print(f"  LOST                   {len(result.lost)}")
    reconnects = [r for p in players for r in p.stats.reconnects]
    print(f"reconnect times          {_quantiles(reconnects)}")
    refusals = Counter(_refusal_kind(r) for p in players for r in p.stats.refusals)
    print(f"refusals seen            {sum(refusals.values())}")
    for text, count in refusals.most_common(8):
        print(f"  {count:>5}  {text}")
    errors = [e for p in players for e in p.stats.errors]
    print(f"client errors            {len(errors)}")
    for text, count in Counter(e[:100] for e in errors).most_common(5):
        print(f"  {count:>5}  {text}")
    print(f"pings sent               {sum(p.pings for p in players)}")
    print(f"frames received          {sum(p.stats.frames for p in players)} "
          f"({sum(p.stats.bytes for p in players) / 1e6:.1f} MB)")
    tracebacks = sum(path.read_text(errors="replace").count("Traceback")
                     for path in log_dir.glob("daphne-*.log"))
    print(f"server log tracebacks    {tracebacks} (expected around the faults)")
    for line in result.lost[:10] + result.gaps[:10] + result.mismatches[:10]:
        print(f"  !! {line}")


def _drop_database(stack: Stack) -> None:
    import psycopg
    from django.db import connections

    connections.close_all()
    with psycopg.connect(stack.admin_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{stack.database}" WITH (FORCE)')


def _exit_on_sigterm(signum, frame) -> None:
    raise SystemExit(128 + signum)  # so that ``finally`` stops the servers and Redis


def main(argv=None) -> int:
    args = parse_args(argv)
    signal.signal(signal.SIGTERM, _exit_on_sigterm)
    log_dir = Path(tempfile.mkdtemp(prefix=f"{args.database}-"))
    redis = RedisServer(log=log_dir / "redis.log")
    stack: Stack | None = None
    status = 2
    try:
        redis.start()
        stack = Stack(processes=2, database=args.database, redis_url=redis.url,
                      log_dir=log_dir)
        print(f"starting: Redis on {redis.port}, database {args.database}, "
              "two daphne processes behind a proxy", flush=True)
        stack.__enter__()
        people = stack.make_people(args.tables * args.players)
        tables = stack.make_tables(people, per_table=args.players, variant=args.variant,
                                   bots=["greedy"] * args.bots)
        print(f"{len(tables)} tables of {args.players} people"
              + (f" and {args.bots} bot(s)" if args.bots else "")
              + f" ({args.variant}); servers on ports "
              + ", ".join(str(s.port) for s in stack.servers)
              + f", proxy {stack.url}", flush=True)
        run = Run(tables)
        asyncio.run(play_through_faults(stack, redis, run, args))
        result = audit(run)
        report(run, result, log_dir)
        status = 0 if result.ok and run.fault_error is None else 1
        if run.fault_error:
            print(f"a fault step failed: {run.fault_error}")
        print("\nOK: every game finished, nothing lost, every replay matches." if status == 0
              else "\nFAILED: see above.")
    except (KeyboardInterrupt, SystemExit):
        print("\ninterrupted: stopping the servers and Redis", file=sys.stderr)
        status = 130
    except Exception:
        import traceback

        traceback.print_exc()
        print(f"\nthe stack failed; server logs in {log_dir}", file=sys.stderr)
        args.keep = True
    finally:
        if stack is not None:
            stack.__exit__(None, None, None)
        redis.stop()
        if args.keep:
            print(f"kept: database {args.database}, logs in {log_dir}")
        else:
            if stack is not None:
                with contextlib.suppress(Exception):
                    _drop_database(stack)
            shutil.rmtree(log_dir, ignore_errors=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
