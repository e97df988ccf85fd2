"""A player's limit of live tables holds when their requests come at once.

A probe sent twelve "Play now" requests of one player in parallel and sat at ten live
tables (the limit is five): the tables were counted before the transaction that made
them, and nothing queued a player's requests. Threads need real row locks, so the
tests run on PostgreSQL (SQLite in memory does not share a database between threads)."""

import threading

import pytest
from django.db import close_old_connections

from games import actions
from games.models import Seat, Table
from tests.factories import UserFactory, preset_variant

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True),
              pytest.mark.timeout(120)]

LIMIT = 3


def at_once(count, call):
    """``call(i)`` in ``count`` threads released together; their outcomes."""
    barrier = threading.Barrier(count)
    outcomes = [None] * count

    def run(i):
        try:
            barrier.wait(30)
            outcomes[i] = call(i)
        except actions.Refused as exc:
            outcomes[i] = exc.code
        finally:
            close_old_connections()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return outcomes


def live_seats(user):
    return Seat.objects.filter(user=user).exclude(table__status=Table.Status.FINISHED).count()


@pytest.mark.parametrize("how", ["open", "play_now"])
def test_tables_opened_at_once_stop_at_the_limit(settings, how):
    settings.STOPBUS_LIVE_TABLES = LIMIT
    user = UserFactory()
    variant = preset_variant("classic")

    def open_one(i):
        table = actions.do_create_table(user, name=f"r{i}", variant=variant, seats=2)
        if how == "play_now":  # full at once: the game starts
            actions.do_add_bot(table, user, "greedy")
        return table.pk

    outcomes = at_once(8, open_one)
    made = [o for o in outcomes if isinstance(o, int)]
    assert len(made) == LIMIT
    assert outcomes.count("live_limit") == 8 - LIMIT
    assert live_seats(user) == LIMIT


def test_tables_joined_at_once_stop_at_the_limit(settings):
    settings.STOPBUS_LIVE_TABLES = 0  # none: the host opens six
    host, user = UserFactory(), UserFactory()
    variant = preset_variant("classic")
    tables = [actions.do_create_table(host, name=f"t{i}", variant=variant, seats=3)
              for i in range(6)]
    settings.STOPBUS_LIVE_TABLES = LIMIT  # the host's own six do not count for the joiner

    outcomes = at_once(len(tables), lambda i: actions.do_join_table(tables[i], user).pk)
    assert sum(isinstance(o, int) for o in outcomes) == LIMIT
    assert outcomes.count("live_limit") == len(tables) - LIMIT
    assert live_seats(user) == LIMIT
