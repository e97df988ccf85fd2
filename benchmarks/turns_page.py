"""/turns with 100 rows: the server's time per page, and its queries.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/stopbus_post \\
    .venv/bin/python -m benchmarks.turns_page --tables 100 --requests 300

A fresh database (with PostgreSQL, DATABASE_URL's name with ``_turns`` appended, dropped
and made again; without DATABASE_URL, a temporary SQLite file): one player at
``--tables`` post tables of four seats (three bots, or two bots and a second person at
every other table), each game played by its bots until it is the player's turn or the
other person's. Then ``--requests`` GETs of /turns through Django's handler in this
process (middleware, view, template: what a server does; no network), timed each, and
the queries of one page counted.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent


def database_url() -> str:
    url = os.environ.get("DATABASE_URL", "")
    if not url:
        return f"sqlite:///{tempfile.mkdtemp()}/turns.sqlite3"
    parts = urlsplit(url)
    name = parts.path.lstrip("/") + "_turns"
    import psycopg

    with psycopg.connect(host=parts.hostname, port=parts.port or 5432, user=parts.username,
                         password=parts.password, dbname="postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    return urlunsplit(parts._replace(path=f"/{name}"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--requests", type=int, default=300)
    args = parser.parse_args()

    os.environ["DATABASE_URL"] = database_url()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "stopbus_site.settings")
    os.environ["STOPBUS_CLOCK_AUTOSTART"] = "false"
    os.environ["STOPBUS_POST_TABLES"] = str(args.tables)  # one player at every table
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.utils import timezone

    from accounts.models import User
    from games import actions
    from games.engine.game import OVER, SHOWDOWN
    from games.models import Game, Job, Variant

    call_command("migrate", verbosity=0)
    long_ago = timezone.now() - timedelta(days=30)
    me = User.objects.create(username="me", email="me@example.com", date_joined=long_ago)
    other = User.objects.create(username="you", email="you@example.com", date_joined=long_ago)
    variants = list(Variant.objects.filter(active=True))
    started = time.monotonic()
    for i in range(args.tables):
        variant = variants[i % len(variants)]
        table = actions.do_create_table(me, name=f"Post {i}", variant=variant, seats=4,
                                        pace=("4h", "1d", "3d")[i % 3])
        for _ in range(2 if i % 2 else 3):
            actions.do_add_bot(table, me, "greedy")
        if i % 2:
            actions.do_join_table(table, other)
        game = table.current_game()
        for _ in range(200):  # the bots play until a person is to move
            game = Game.objects.select_related("table").get(pk=game.pk)
            state = actions.state_of(game)
            if game.status != Game.Status.PLAYING or (
                    state.phase not in (OVER, SHOWDOWN) and game.deadline is not None):
                break
            job = (Job.objects.filter(game=game, done_at__isnull=True)
                   .exclude(kind__in=[Job.Kind.TURN_TIMEOUT, Job.Kind.LAST_CALL]).first())
            if job is None:
                break
            actions.do_run_job(job)
    print(f"{args.tables} post tables ready in {time.monotonic() - started:.0f} s "
          f"({connection.vendor})", flush=True)

    queries = []

    def count(execute, sql, params, many, context):
        queries.append(sql)
        return execute(sql, params, many, context)

    client = Client(HTTP_HOST="localhost")
    client.force_login(me)
    response = client.get("/turns/")
    if response.status_code != 200:
        sys.exit(f"/turns answered {response.status_code}")
    rows = response.content.decode().count('<li class="turn-row')
    mine = response.content.decode().count('<li class="turn-row turn-row--mine')
    with connection.execute_wrapper(count):
        client.get("/turns/")
    times = []
    for _ in range(args.requests):
        start = time.perf_counter()
        client.get("/turns/")
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    p95 = times[int(0.95 * (len(times) - 1))]
    print(f"/turns with {rows} rows ({mine} waiting for the player), {len(queries)} queries "
          f"a page, {len(response.content) // 1024} KiB")
    print(f"server time over {args.requests} requests: p50 {statistics.median(times):.1f} ms, "
          f"p95 {p95:.1f} ms, max {times[-1]:.1f} ms")
    print("PASS" if p95 <= 50 else "FAIL", "(p95 <= 50 ms)")


if __name__ == "__main__":
    main()
