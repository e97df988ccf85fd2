"""How fast the stats pages are with a big history, on PostgreSQL.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/stopbus_bench \\
        .venv/bin/python -m benchmarks.stats_pages --games 100000

Creates the database if it is missing (its name must contain "bench": the
benchmark empties it), migrates it, and fills it once with ``--games``
finished games among ``--users`` people (see :mod:`benchmarks.fill_games`);
later runs reuse the data unless ``--refill``. Then it requests each page many
times through Django's test client, against the real database, with varied
people, variants and page numbers, and prints p50/p95/p99 per page (wall
clock; "cpu p50" is this process's own CPU time, which other load on the
machine does not inflate). The target is p95 <= 50 ms.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import statistics
import sys
import time
from urllib.parse import urlsplit

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/stopbus_bench"
TARGET_P95_MS = 50.0


def ensure_database(url: str) -> None:
    """CREATE DATABASE if missing (before Django connects to it)."""
    import psycopg

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    if parts.scheme not in ("postgres", "postgresql", "pgsql"):
        sys.exit("The stats benchmark needs PostgreSQL: set DATABASE_URL=postgres://...")
    if "bench" not in name:
        sys.exit(f"Refusing to fill {name!r}: use a dedicated database whose name contains "
                 "'bench' (it is emptied and refilled).")
    with psycopg.connect(host=parts.hostname or "localhost", port=parts.port or 5432,
                         user=parts.username, password=parts.password, dbname="postgres",
                         autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')
            print(f"created database {name}")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    k = (len(ordered) - 1) * q
    low = int(k)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (k - low)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--users", type=int, default=300)
    parser.add_argument("--requests", type=int, default=400, help="per page")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--refill", action="store_true", help="empty and fill again")
    parser.add_argument("--seed", default="1")
    args = parser.parse_args(argv)

    os.environ.setdefault("DATABASE_URL", DEFAULT_URL)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "stopbus_site.settings")
    os.environ.setdefault("STOPBUS_CLOCK_AUTOSTART", "false")  # only pages are measured
    ensure_database(os.environ["DATABASE_URL"])

    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    # Not setup_test_environment(): its instrumented template rendering hangs every
    # context on its response in reference cycles, and the garbage collector's pauses
    # would be measured instead of the pages.
    settings.DEBUG = False
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    fill_if_needed(args)
    measure(args)


def fill_if_needed(args) -> None:
    from django.contrib.auth.hashers import make_password
    from django.db import connection

    from accounts.models import User
    from games.models import Game, Variant

    from .fill_games import VARIANT_WEIGHTS, fill, username

    have = Game.objects.filter(status=Game.Status.FINISHED).count()
    if have >= args.games and not args.refill:
        print(f"reusing {have} finished games (pass --refill to generate them again)")
        return
    print(f"emptying the benchmark database ({have} games there)")
    with connection.cursor() as cursor:
        cursor.execute("TRUNCATE stats_playergame, stats_playerstats, games_action, "
                       "games_gameplayer, games_job, games_chatmessage, games_presence, "
                       "games_game, games_seat, games_table RESTART IDENTITY CASCADE")
    User.objects.filter(username__startswith="bench").delete()
    users = User.objects.bulk_create([
        User(username=username(i), email=f"{username(i)}@example.com",
             password=make_password(None))  # unusable: nobody logs in as them
        for i in range(args.users)])
    variants = {v.slug: v for v in Variant.objects.filter(slug__in=list(VARIANT_WEIGHTS))}
    missing = set(VARIANT_WEIGHTS) - set(variants)
    if missing:
        sys.exit(f"missing preset variants {sorted(missing)}: run the migrations")
    print(f"generating {args.games} games among {args.users} people on {args.workers} "
          "processes...")
    counts = fill(args.games, users, variants, salt=args.seed, workers=args.workers)
    print(f"filled: {counts['games']} games, {counts['players']} seats, {counts['actions']} "
          f"log rows, {counts['results']} player results, {counts['stats_rows']} stats rows "
          f"in {counts['seconds']:.0f}s")


def measure(args) -> None:
    from django.db import connection, reset_queries
    from django.test import Client

    from accounts.models import User
    from games.models import Game, Variant
    from stats.models import PlayerGame, PlayerStats
    from stats.views import HISTORY_PAGE, LEADERBOARD_MIN_GAMES, LEADERBOARD_PAGE

    rng = random.Random(args.seed)
    people = list(User.objects.filter(username__startswith="bench")
                  .values_list("username", flat=True))
    slugs = list(Variant.objects.values_list("slug", flat=True))
    pages_of = {}
    for row in PlayerStats.objects.filter(variant=None).values("user__username", "games"):
        pages_of[row["user__username"]] = max(1, -(-row["games"] // HISTORY_PAGE))
    board_pages = max(1, -(-PlayerStats.objects.filter(
        variant=None, rated_games__gte=LEADERBOARD_MIN_GAMES).count() // LEADERBOARD_PAGE))
    game_ids = list(Game.objects.filter(status=Game.Status.FINISHED)
                    .values_list("pk", flat=True)[:5000])
    print(f"{Game.objects.count()} games, {PlayerGame.objects.count()} player results, "
          f"{len(people)} people; {args.requests} requests per page")

    def variant_query():
        return f"?variant={rng.choice(slugs)}" if rng.random() < 0.3 else ""

    def profile():
        return f"/u/{rng.choice(people)}/{variant_query()}"

    def leaderboard():
        q = variant_query()
        page = rng.randint(1, board_pages) if not q else 1
        return f"/leaderboard/{q or '?'}{'&' if q else ''}page={page}"

    def history():
        who = rng.choice(people)
        page = rng.randint(1, pages_of.get(who, 1))
        return f"/u/{who}/games/?page={page}"

    def head_to_head():
        a, b = rng.sample(people, 2)
        return f"/u/{a}/vs/{b}/"

    def replay():
        return f"/games/{rng.choice(game_ids)}/replay/?step={rng.randint(0, 60)}"

    client = Client()
    me = User.objects.get(username=people[0])
    mine_client = Client()
    mine_client.force_login(me)
    pages = [
        ("profile /u/<name>/", client, profile),
        ("my stats /stats/", mine_client, lambda: f"/stats/{variant_query()}"),
        ("leaderboard", client, leaderboard),
        ("history /u/<name>/games/", client, history),
        ("head-to-head", client, head_to_head),
        ("replay", client, replay),
    ]
    print(f"{'page':<26} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} {'max ms':>8} "
          f"{'cpu p50':>8} {'queries':>8}")
    failed = []
    for label, who, url_of in pages:
        gc.collect()
        for _ in range(20):  # warm caches and the connection pool
            who.get(url_of())
        timings, cpu, queries = [], [], []
        for _ in range(args.requests):
            url = url_of()
            reset_queries()
            connection.force_debug_cursor = True
            t, c = time.perf_counter(), time.process_time()
            response = who.get(url)
            timings.append((time.perf_counter() - t) * 1000)
            cpu.append((time.process_time() - c) * 1000)
            connection.force_debug_cursor = False
            queries.append(len(connection.queries))
            if response.status_code != 200:
                sys.exit(f"{url} answered {response.status_code}")
        p95 = percentile(timings, 0.95)
        print(f"{label:<26} {statistics.median(timings):8.1f} {p95:8.1f} "
              f"{percentile(timings, 0.99):8.1f} {max(timings):8.1f} "
              f"{statistics.median(cpu):8.1f} {min(queries):>4}-{max(queries)}")
        if p95 > TARGET_P95_MS and label != "replay":
            failed.append(label)
    if failed:
        print(f"over the p95 target of {TARGET_P95_MS:.0f} ms: {', '.join(failed)}")
    else:
        print(f"every stats page is within the p95 target of {TARGET_P95_MS:.0f} ms")


if __name__ == "__main__":
    main()
