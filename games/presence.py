"""Who has a table open right now (one row per websocket).

The players' boards name who is watching. A move does not re-read that list
(see ``board.load_table``): a page connecting tells its table to look again
(``TableConsumer.connect``), and a spectator leaving is announced here.
"""

from __future__ import annotations

from datetime import timedelta

from django.db import connection, transaction
from django.utils import timezone

from .models import Presence, Seat, Table

FRESH = timedelta(seconds=90)  # a connection that has not been heard from since is stale


def arrive(table_id: int, user, channel_name: str) -> None:
    now = timezone.now()
    Presence.objects.bulk_create(  # one upsert: the channel name is new, or taken over
        [Presence(channel_name=channel_name, table_id=table_id, user=user, connected_at=now,
                  last_seen=now)],
        update_conflicts=True, unique_fields=["channel_name"],
        update_fields=["table", "user", "connected_at", "last_seen"])
    Table.objects.filter(pk=table_id).update(humans_last_seen=now)


def leave(table_id: int, channel_name: str) -> None:
    from .abandon import schedule_check

    user_id = (Presence.objects.filter(channel_name=channel_name)
               .values_list("user_id", flat=True).first())
    Presence.objects.filter(channel_name=channel_name).delete()
    Table.objects.filter(pk=table_id).update(humans_last_seen=timezone.now())
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        return
    if user_id is not None and not Seat.objects.filter(table=table, user_id=user_id).exists():
        _watchers_changed(table_id)
    if not humans_connected(table):
        schedule_check(table)


def _watchers_changed(table_id: int) -> None:
    from .actions import announce_table

    with transaction.atomic():  # announce_table sends on commit
        announce_table(table_id, lobby=False)


def seen(channel_name: str, table_id: int | None = None) -> None:
    """A ping: the connection and its table were heard from now (one round trip)."""
    if table_id is not None and connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(_SEEN_SQL, seen_params(channel_name, table_id))
        return
    now = timezone.now()
    Presence.objects.filter(channel_name=channel_name).update(last_seen=now)
    tables = (Table.objects.filter(pk=table_id) if table_id is not None
              else Table.objects.filter(presences__channel_name=channel_name))
    tables.update(humans_last_seen=now)


# every open page pings twice a minute: both updates in one statement (PostgreSQL).
# SEEN_CTE's parameters are ``seen_params``; table names come from the models.
SEEN_CTE = (f"p AS (UPDATE {Presence._meta.db_table} SET last_seen = %s "  # noqa: S608
            "WHERE channel_name = %s), "
            f"t AS (UPDATE {Table._meta.db_table} SET humans_last_seen = %s WHERE id = %s)")
_SEEN_SQL = f"WITH {SEEN_CTE} SELECT 1"


def seen_params(channel_name: str, table_id: int) -> list:
    now = timezone.now()
    return [now, channel_name, now, table_id]


def present_users(table: Table):
    return (Presence.objects.filter(table=table, last_seen__gte=timezone.now() - FRESH)
            .select_related("user"))


def spectators(table: Table, seats) -> list:
    """Users watching who do not sit at the table, by name."""
    seated = {s.user_id for s in seats if s.user_id}
    seen_users = {}
    for row in present_users(table):
        if row.user_id not in seated:
            seen_users[row.user_id] = row.user
    return sorted(seen_users.values(), key=lambda u: u.username.lower())


def humans_connected(table: Table) -> bool:
    return present_users(table).exists()
