"""Who has a table open right now (one row per websocket): reads only.

The rows are written by ``games.actions.presence`` (pages arriving, pinging and
leaving); the players' boards name who is watching.
"""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from .models import Presence, Table

FRESH = timedelta(seconds=90)  # a connection that has not been heard from since is stale


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
