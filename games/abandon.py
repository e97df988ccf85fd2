"""Tables nobody is at any more.

A running game whose people have all gone (no websocket heard from for
``STOPBUS_ABANDON_AFTER`` seconds) is handed to bots: each absent person's seat
is marked away, so the clock plays it, and the game finishes on its own; the
people keep their places as the bots earn them. A table that never started and
has nobody connected is closed, and the lobby drops it.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from . import actions, presence
from .models import Game, Job, Seat, Table


def abandon_after() -> timedelta:
    return timedelta(seconds=getattr(settings, "STOPBUS_ABANDON_AFTER", 300.0))


def schedule_check(table: Table) -> None:
    """Look at this table again once the abandon period has passed."""
    Job.objects.filter(table=table, kind=Job.Kind.ABANDON_CHECK, done_at__isnull=True).update(
        done_at=timezone.now(), result="superseded")
    Job.objects.create(kind=Job.Kind.ABANDON_CHECK, table=table,
                       due_at=timezone.now() + abandon_after())


def check_abandoned(table_id: int) -> str:
    table = Table.objects.filter(pk=table_id).first()
    if table is None or table.status in (Table.Status.CLOSED, Table.Status.FINISHED):
        return "nothing to do"
    if presence.humans_connected(table):
        schedule_check(table)
        return "people are here"
    idle_since = timezone.now() - table.humans_last_seen
    if idle_since < abandon_after():
        schedule_check(table)
        return "not idle long enough"
    if table.status == Table.Status.WAITING:
        with transaction.atomic():
            Table.objects.filter(pk=table.pk).update(status=Table.Status.CLOSED,
                                                     updated_at=timezone.now())
            actions.announce_table(table.pk)
        return "closed an unstarted table"
    game = table.games.filter(status=Game.Status.PLAYING).order_by("-number").first()
    if game is None:
        return "no game running"
    with transaction.atomic():
        game = actions.lock_game(game.pk)  # the game first (see actions.lock_game)
        Seat.objects.filter(table=table, user__isnull=False).update(away=True)
        Table.objects.filter(pk=table.pk).update(updated_at=timezone.now())
        actions.reschedule(game)
    return "bots play out the game"
