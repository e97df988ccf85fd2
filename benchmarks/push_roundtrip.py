"""A push's round trip: from the moment a turn begins to the push service.

    .venv/bin/python -m benchmarks.push_roundtrip [--turns 300] [--tables 6]

Players (two people a table, each with a browser's push subscription) play greedy
moves through ``games.actions.do_play``; in the move's transaction the next player is
told (``notify.actions.do_notify(..., "your_turn", key=...)``, as post tables do) and
the mover's own "your turn" is withdrawn. The turn begins when that transaction
commits. The notifications' loop runs as in a server (``notify.loop.run_forever`` on
an event loop of its own) and sends through pywebpush to a fake push service on
127.0.0.1 (``tests/fake_push.py``) that decrypts each message with the subscription's
keys (RFC 8291) before it counts it as received.

The deliberate wait before a "your turn" push (``NOTIFY_TURN_DELAY``, 2 s on a site:
the player may be looking) is set to 0 here, so the figure is the machinery's own:
on a site each push arrives that much later. Prints p50/p95/max in milliseconds and
what ``do_notify`` adds to a move. Uses a fresh SQLite file unless DATABASE_URL is set.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def main(argv=None) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--turns", type=int, default=300)
    parser.add_argument("--tables", type=int, default=6)
    args = parser.parse_args(argv)

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    scratch = tempfile.mkdtemp(prefix="push-roundtrip-")
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{scratch}/bench.sqlite3")
    os.environ["REDIS_URL"] = os.environ.get("REDIS_URL", "")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "stopbus_site.settings")
    os.environ.update({"STOPBUS_CLOCK_AUTOSTART": "false", "STOPBUS_BOT_DELAY": "0",
                       "STOPBUS_SHOWDOWN_PAUSE": "0", "NOTIFY_TURN_DELAY": "0",
                       "NOTIFY_POLL": "1.0", "CI": ""})
    from notify.keys import new_vapid_pair

    private, public = new_vapid_pair()
    os.environ.update({"VAPID_PRIVATE_KEY": private, "VAPID_PUBLIC_KEY": public})

    import django

    django.setup()
    from django.core.management import call_command
    from django.db import transaction

    call_command("migrate", verbosity=0)
    from games import actions
    from games.actions import bot_choice, do_play, state_of
    from games.models import Game
    from notify import actions as notify
    from notify import loop
    from tests.factories import UserFactory, start_table_game
    from tests.fake_push import FakePushService

    actions.base.group_send = lambda group, message: None  # no pages in this process
    notify.group_send = lambda group, message: None
    service = FakePushService().start()

    def subscribed_user():
        user = UserFactory()
        sub = service.subscribe()
        notify.do_subscribe(user, sub.endpoint, sub.p256dh, sub.auth_b64)
        return user

    def new_game():
        return start_table_game([subscribed_user(), subscribed_user()], name="Bench")

    sender = asyncio.new_event_loop()
    sending = asyncio.run_coroutine_threadsafe(loop.run_forever(), sender)
    sender_thread = threading.Thread(target=sender.run_forever, daemon=True)
    sender_thread.start()

    games = [new_game() for _ in range(args.tables)]
    latencies, notify_ms, lost = [], [], 0
    turn_keys: dict[int, str] = {}
    played = 0
    while played < args.turns:
        for index, game in enumerate(games):
            game = Game.objects.select_related("table").get(pk=game.pk)
            if game.status != Game.Status.PLAYING:
                games[index] = game = new_game()
            state = state_of(game)
            if state.turn is None or state.phase != "play":
                actions.do_run_due_jobs()  # the next deal
                continue
            seats = actions.seats_in_order(game.table_id)
            mover = seats[state.turn].user
            before = len(service.received)
            with transaction.atomic():
                if mover.pk in turn_keys:
                    notify.do_withdraw(mover, turn_keys.pop(mover.pk))
                result = do_play(game.pk, state.turn, bot_choice(game, state, state.turn,
                                                                 "greedy"), state.version)
                after = result.state
                waiting = after.phase == "play" and after.turn != state.turn
                if waiting:
                    nxt = seats[after.turn].user
                    key = f"turn:{game.pk}:{after.version}"
                    started = time.perf_counter()
                    notify.do_notify(nxt, "your_turn", table=game.table,
                                     params={"table": game.table.name}, key=key)
                    notify_ms.append((time.perf_counter() - started) * 1000)
                    turn_keys[nxt.pk] = key
            if not waiting:
                continue
            began = time.monotonic()  # committed: the turn has begun
            got = service.wait_for(before + 1, timeout=5.0)
            if len(got) <= before:
                lost += 1
                continue
            latencies.append((got[before].at - began) * 1000)
            played += 1
            if played >= args.turns:
                break
    # the notifications' loop ends before the interpreter does (its executor goes first)
    sending.cancel()
    sender.call_soon_threadsafe(sender.stop)
    sender_thread.join(10)
    service.stop()
    if service.errors:
        raise SystemExit(f"the fake push service could not read: {service.errors[:3]}")
    print(f"database: {django.db.connection.vendor}; turns pushed: {len(latencies)}; "
          f"lost: {lost}; every payload decrypted by the fake push service")
    print(f"turn -> push service (ms): p50 {statistics.median(latencies):.1f}  "
          f"p95 {percentile(latencies, 95):.1f}  max {max(latencies):.1f}")
    print(f"do_notify inside the move (ms): p50 {statistics.median(notify_ms):.2f}  "
          f"p95 {percentile(notify_ms, 95):.2f}")


if __name__ == "__main__":
    main()
