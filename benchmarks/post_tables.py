"""Post tables at scale: deadlines fire once, last calls come at 80 %, one "your turn" a turn.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/stopbus_post \\
    REDIS_URL=redis://127.0.0.1:6379/6 \\
    .venv/bin/python -m benchmarks.post_tables --tables 1000 --seconds 300

A fresh PostgreSQL database (the one DATABASE_URL names is dropped and made again),
``--tables`` post tables of 3 to 6 seats, each with one or two people who never come
back and bots in the other seats, and two clock worker processes (``manage.py
run_clock``) that share the jobs. Time is shortened by ``--scale`` (0.001: a day a
move lasts 86.4 s, its last call comes after 69.1 s). The people miss their turns: the
clock plays their timeout moves, after two a bot sits in at each deadline. After
``--seconds`` the workers stop and the database says:

* every turn deadline that came due was fired, exactly once (a second run of the same
  deadline would find the game moved on, and say so in its result);
* every last call came at 80 % of the turn's time, and at most 1 s late;
* at most one "your turn" notification per player, table and turn.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import statistics
import subprocess
import sys
import time
from collections import Counter
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent


def fresh_database(url: str) -> None:
    import psycopg

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    with psycopg.connect(host=parts.hostname, port=parts.port or 5432, user=parts.username,
                         password=parts.password, dbname="postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def percentile(values, p):
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=300)
    parser.add_argument("--scale", type=float, default=0.001)
    parser.add_argument("--pace", default="1d")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=29)
    args = parser.parse_args()

    db_url = os.environ.get("DATABASE_URL", "")
    redis_url = os.environ.get("REDIS_URL", "")
    if not db_url.startswith("postgres"):
        sys.exit("DATABASE_URL must name a PostgreSQL database of this benchmark's own.")
    # the workers run as deployed (DEBUG off: no query log kept, no SQL formatted)
    env = {**os.environ, "DEBUG": "false", "STOPBUS_POST_TIME_SCALE": str(args.scale),
           "STOPBUS_BOT_DELAY": "0.3", "DJANGO_SETTINGS_MODULE": "stopbus_site.settings",
           "STOPBUS_CLOCK_POLL": "0.1"}
    os.environ.update(env)
    fresh_database(db_url)
    if redis_url:
        import redis

        redis.Redis.from_url(redis_url).flushdb()
    python = str(ROOT / ".venv" / "bin" / "python")
    subprocess.run([python, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)

    import django

    sys.path.insert(0, str(ROOT))
    django.setup()
    from django.conf import settings
    from django.db.models import Count
    from django.utils import timezone

    from accounts.models import User
    from games import actions
    from games.engine import PRESETS
    from games.models import Job, Table, Variant
    from games.pace import PACE_SECONDS
    from notify.models import Notification

    settings.STOPBUS_POST_TIME_SCALE = args.scale
    rng = random.Random(args.seed)
    stb = [Variant.objects.get_or_create(slug=slug, defaults={
        "name": preset.name, **preset.rules.to_dict()})[0] for slug, preset in PRESETS.items()]
    brag = list(Variant.objects.filter(game="brag"))
    people = args.tables // 2 + 1
    long_ago = timezone.now() - timedelta(days=30)
    User.objects.bulk_create([User(username=f"post{i}", email=f"post{i}@example.com",
                                   date_joined=long_ago) for i in range(people)])
    users = list(User.objects.filter(username__startswith="post").order_by("pk"))

    workers = []
    for n in range(args.workers):
        log = open(f"/tmp/post_tables_worker{n}.log", "w")  # noqa: SIM115 (kept open for the child)
        workers.append(subprocess.Popen([python, "manage.py", "run_clock"], cwd=ROOT, env=env,
                                        stdout=log, stderr=subprocess.STDOUT,
                                        start_new_session=True))
    started = time.monotonic()
    print(f"{args.workers} clock workers started; opening {args.tables} post tables "
          f"({args.pace} a move, scale {args.scale})", flush=True)
    made = 0
    person = 0
    try:
        for i in range(args.tables):
            seats = rng.randint(3, 6)
            variant = rng.choice(brag) if brag and i % 3 == 0 else rng.choice(stb)
            rules = variant.rules
            seats = max(rules.min_players, min(seats, rules.max_players))
            humans = 1 if i % 2 else 2
            host = users[person % len(users)]
            person += 1
            table = actions.do_create_table(host, name=f"Post {i}", variant=variant,
                                            seats=seats, pace=args.pace)
            for _ in range(seats - humans):
                actions.do_add_bot(table, host, rng.choice(["random", "greedy"]))
            if humans == 2:
                actions.do_join_table(table, users[person % len(users)])
                person += 1
            made += 1
        opened = time.monotonic() - started
        print(f"opened {made} tables in {opened:.0f} s; running until "
              f"{args.seconds:.0f} s more", flush=True)
        running = time.monotonic()
        while time.monotonic() - running < args.seconds:
            time.sleep(5)
            done = Job.objects.filter(kind=Job.Kind.TURN_TIMEOUT, result__startswith="missed")
            print(f"  {time.monotonic() - started:5.0f} s: {done.count()} deadlines fired",
                  flush=True)
    finally:
        end = timezone.now()
        for worker in workers:
            os.killpg(worker.pid, signal.SIGTERM)
        for worker in workers:
            worker.wait(30)

    # -- what the database says ------------------------------------------------------------
    margin = timedelta(seconds=5)  # jobs due in the last seconds may not have been claimed
    timeouts = Job.objects.filter(kind=Job.Kind.TURN_TIMEOUT)
    fired = timeouts.filter(result__regex=r"^(missed turn|on holiday)")
    twice = timeouts.filter(result__startswith="refused")
    errors = Job.objects.filter(result="error")
    overdue = timeouts.filter(done_at__isnull=True, due_at__lt=end - margin)
    for job in overdue:
        print(f"  not fired: job {job.pk} due {job.due_at:%H:%M:%S.%f}, claimed "
              f"{job.claimed_at and f'{job.claimed_at:%H:%M:%S.%f}'} by {job.claimed_by!r}")
    late = [(j.done_at - j.due_at).total_seconds() for j in fired.only("done_at", "due_at")]
    by_worker = Counter(fired.values_list("claimed_by", flat=True))
    calls = Job.objects.filter(kind=Job.Kind.LAST_CALL)
    sent = calls.filter(result="last call sent")
    call_overdue = calls.filter(done_at__isnull=True, due_at__lt=end - margin)
    whole = timedelta(seconds=PACE_SECONDS[args.pace] * args.scale)
    call_late = [(job.done_at - job.due_at).total_seconds()
                 for job in sent.only("due_at", "done_at")]
    # the last call's place in its turn: the deadline of the same game version
    deadlines = {(game, version): due for game, version, due in
                 timeouts.values_list("game_id", "version", "due_at")}
    call_share = []
    for game, version, due in sent.values_list("game_id", "version", "due_at"):
        deadline = deadlines.get((game, version))
        if deadline is not None:
            call_share.append((due - (deadline - whole)) / whole)
    your_turn = Notification.objects.filter(event="your_turn")
    dup_keys = (your_turn.values("user_id", "key").annotate(n=Count("id")).filter(n__gt=1)
                .count())
    per_turn = Counter()
    for user_id, table_id, key in your_turn.values_list("user_id", "table_id", "key"):
        game_version = key.split(":", 2)[1:]
        per_turn[(user_id, table_id, *game_version)] += 1
    dup_turns = sum(1 for n in per_turn.values() if n > 1)
    tables = Table.objects.filter(pace=args.pace)
    print()
    print(f"tables: {tables.count()} ({Counter(tables.values_list('seats', flat=True))} "
          f"by seats), people: {len(users)}, workers: {args.workers}, run: {args.seconds:.0f} s, "
          f"scale {args.scale} ({args.pace} a move = {whole.total_seconds():.1f} s)")
    print(f"turn deadlines fired: {fired.count()} (by worker: {dict(by_worker)}); "
          f"fired twice: {twice.count()}; due and not fired: {overdue.count()}; "
          f"jobs that failed: {errors.count()}")
    print(f"  fired after their due time: p50 {percentile(late, 50):.3f} s, "
          f"p95 {percentile(late, 95):.3f} s, max {max(late, default=0):.3f} s")
    print(f"last calls sent: {sent.count()}; due and not sent: {call_overdue.count()}; "
          f"late: p50 {percentile(call_late, 50):.3f} s, p95 {percentile(call_late, 95):.3f} s, "
          f"max {max(call_late, default=0):.3f} s; over 1 s late: "
          f"{sum(1 for s in call_late if s > 1)}")
    if call_share:
        print(f"  last call at {statistics.mean(call_share):.1%} of the turn's time "
              f"(min {min(call_share):.1%}, max {max(call_share):.1%})")
    # what a busy clock makes wait: the bots' moves and the deals (last calls and
    # deadlines go first, games.actions.clock.PROMISED)
    bots = Job.objects.filter(kind__in=[Job.Kind.BOT_MOVE, Job.Kind.NEXT_HAND],
                              done_at__isnull=False)
    bot_late = [(j.done_at - j.due_at).total_seconds() for j in bots.only("done_at", "due_at")]
    print(f"bot moves and deals run: {len(bot_late)}; after their due time: p50 "
          f"{percentile(bot_late, 50):.3f} s, p95 {percentile(bot_late, 95):.3f} s, "
          f"max {max(bot_late, default=0):.3f} s")
    print(f"'your turn' notifications: {your_turn.count()}; a (player, key) twice: {dup_keys}; "
          f"a (player, table, turn) twice: {dup_turns}")
    told = Counter(Notification.objects.values_list("event", flat=True))
    print(f"missed-turn notices: {told['missed_turn']}, "
          f"bots sat in: {told['bot_sat_in']}, "
          f"games over: {told['game_over']}, "
          f"tables started: {told['table_started']}")
    ok = (not twice.exists() and not errors.exists() and not overdue.exists()
          and not call_overdue.exists() and all(s <= 1 for s in call_late)
          and not dup_keys and not dup_turns)
    print("PASS" if ok else "FAIL")


if __name__ == "__main__":
    main()
