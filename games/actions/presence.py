"""Who is at a table, and leaving it: pages arriving and going, pings, a player
leaving (a bot takes over), and tables everybody has abandoned.

A running game whose people have all gone (no websocket heard from for
``STOPBUS_ABANDON_AFTER`` seconds) is handed to bots: each absent person's seat is
marked away, so the clock plays it, and the game finishes on its own; the people
keep their places as the bots earn them. A table that never started and has nobody
connected is closed, and the lobby drops it.
"""

from __future__ import annotations

import time
from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from .. import presence as who
from ..engine import Event
from ..models import Game, GamePlayer, Job, Presence, Seat, Table
from .base import (
    Refused,
    announce_table,
    lock_game,
    lock_running_game,
    lock_table,
    recent,
    reschedule,
    schedule_after,
    seats_in_order,
    setting,
    state_of,
    touch_table,
)

# how stale a page's presence row and its table's humans_last_seen may get before a ping
# writes them again: at most once a minute, well inside presence.FRESH (150 s), with a
# ping every ~25 s
PING_REFRESH = timedelta(seconds=who.REFRESH)


def abandon_after() -> timedelta:
    return timedelta(seconds=setting("STOPBUS_ABANDON_AFTER", 300.0))


# -- pages ---------------------------------------------------------------------------------------


def do_arrive(table_id: int, user, channel_name: str) -> None:
    """A page of ``table_id`` opened its socket (``channel_name``)."""
    now = timezone.now()
    Presence.objects.bulk_create(  # one upsert: the channel name is new, or taken over
        [Presence(channel_name=channel_name, table_id=table_id, user=user, connected_at=now,
                  last_seen=now)],
        update_conflicts=True, unique_fields=["channel_name"],
        update_fields=["table", "user", "connected_at", "last_seen"])
    seen = {"humans_last_seen": now}
    if not Seat.objects.filter(table_id=table_id, user=user).exists():
        # a spectator: the players' boards name who watches, and who watches is part of
        # the table as pages keep it (see board.load_table), hence updated_at
        seen["updated_at"] = now
    with transaction.atomic():
        Table.objects.filter(pk=table_id).update(**seen)
        # and a change whose announcement was lost (its server died between commit and
        # telling, or Redis was down) reaches the others now, not at their next ping;
        # pages whose board did not change are sent nothing
        announce_table(table_id, lobby=False)


def do_depart(table_id: int, channel_name: str) -> None:
    """A page's socket closed."""
    user_id = (Presence.objects.filter(channel_name=channel_name)
               .values_list("user_id", flat=True).first())
    Presence.objects.filter(channel_name=channel_name).delete()
    now = timezone.now()
    Table.objects.filter(pk=table_id).update(humans_last_seen=now)
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        return
    with transaction.atomic():
        if user_id is not None and not Seat.objects.filter(table=table,
                                                           user_id=user_id).exists():
            # a spectator left: as on arriving (do_arrive)
            Table.objects.filter(pk=table_id).update(updated_at=now)
            announce_table(table_id, lobby=False)
        if not who.humans_connected(table):
            schedule_abandon_check(table)


def do_ping(channel_name: str, table_id: int, written: float | None = None) -> float:
    """The page on ``channel_name`` was heard from now.

    A page pings every ~25 s, and what a ping writes (its presence row, the table's last
    time a person was seen) only has to stay well inside ``presence.FRESH`` and the
    abandon period: so it is written when this page last wrote it (``written``, a
    ``time.monotonic()`` this function returned, or its arrival) more than
    ``PING_REFRESH`` ago, and most pings write nothing. Returns when it last wrote."""
    now = time.monotonic()
    if written is not None and now - written < PING_REFRESH.total_seconds():
        return written
    seen = timezone.now()
    Presence.objects.filter(channel_name=channel_name).update(last_seen=seen)
    # every page of the table pings: one of them a while keeps the table's time fresh
    # (it counts only against STOPBUS_ABANDON_AFTER), and the others write nothing
    Table.objects.filter(pk=table_id, humans_last_seen__lt=seen - PING_REFRESH).update(
        humans_last_seen=seen)
    return now


# -- leaving -------------------------------------------------------------------------------------


def do_leave_table(table: Table, user) -> None:
    """Leave a seat. Before the game, the seat empties; during it, a bot takes over."""
    with transaction.atomic():
        lock_running_game(table.pk)  # the running game's row before the table's
        table = lock_table(table.pk)
        seat = table.seat_set.filter(user=user).first()
        if seat is None:
            raise Refused("not_seated", _("You are not sitting at this table."))
        if table.status == Table.Status.PLAYING:
            _replace_with_bot(table, seat)
        else:
            seat.delete()
        if table.host_id == user.pk:
            successor = table.seat_set.filter(user__isnull=False).order_by("position").first()
            table.host = successor.user if successor else None
        if not table.seat_set.filter(user__isnull=False).exists() and (
                table.status != Table.Status.PLAYING):
            table.status = Table.Status.CLOSED
        table.save(update_fields=["host", "status", "updated_at"])
        announce_table(table.pk)


def bot_name_for(name: str) -> str:
    """What a bot playing a leaver's seat is called: never the leaver's own name."""
    return f"Bot for {name}"


def _replace_with_bot(table: Table, seat: Seat) -> None:
    """The leaver is placed last among those still in when they left (see README)."""
    game = Game.objects.filter(table=table, status=Game.Status.PLAYING).order_by(
        "-number").first()
    user = seat.user
    seat.user = None
    seat.bot_level = "greedy"
    seat.away = False
    seat.timeouts = 0
    seat.save()
    if game is None:
        return
    state = state_of(game)
    player = game.players.filter(user=user).first()
    if player is None:
        return
    player.left_early = True
    player.place = len(state.active) if not state.out[player.seat] else state.places[
        player.seat]
    player.save(update_fields=["left_early", "place"])
    # the log says who left and who plays on for them (no engine version: nobody moved)
    bot = bot_name_for(player.name)
    left = Event("left", f"{player.name} left the table; {bot} plays their seat.", player.seat,
                 data={"bot": bot})
    game.recent_events = recent(game.recent_events, game.version, [left])
    Game.objects.filter(pk=game.pk).update(recent_events=game.recent_events)
    schedule_after(game, state, seats_in_order(table.pk), table.turn_seconds)


# -- abandoned tables ----------------------------------------------------------------------------


def schedule_abandon_check(table: Table) -> None:
    """Look at this table again once the abandon period has passed (a post table's
    players are away by design: it is never abandoned)."""
    if table.is_post:
        return
    Job.objects.filter(table=table, kind=Job.Kind.ABANDON_CHECK, done_at__isnull=True).update(
        done_at=timezone.now(), result="superseded")
    Job.objects.create(kind=Job.Kind.ABANDON_CHECK, table=table,
                       due_at=timezone.now() + abandon_after())


def do_check_abandoned(table_id: int) -> str:
    table = Table.objects.filter(pk=table_id).first()
    if table is None or table.status in (Table.Status.CLOSED, Table.Status.FINISHED):
        return "nothing to do"
    if table.is_post:  # its players are away by design; the deadlines play for them
        return "a post table waits for its players"
    if who.humans_connected(table):
        schedule_abandon_check(table)
        return "people are here"
    idle_since = timezone.now() - table.humans_last_seen
    if idle_since < abandon_after():
        schedule_abandon_check(table)
        return "not idle long enough"
    if table.status == Table.Status.WAITING:
        with transaction.atomic():
            Table.objects.filter(pk=table.pk).update(status=Table.Status.CLOSED,
                                                     updated_at=timezone.now())
            announce_table(table.pk)
        return "closed an unstarted table"
    game = table.games.filter(status=Game.Status.PLAYING).order_by("-number").first()
    if game is None:
        return "no game running"
    with transaction.atomic():
        game = lock_game(game.pk)  # the game first (see base.lock_game)
        Seat.objects.filter(table=table, user__isnull=False).update(away=True)
        touch_table(table.pk)
        reschedule(game)
    return "bots play out the game"


__all__ = ["GamePlayer", "abandon_after", "bot_name_for", "do_arrive", "do_check_abandoned",
           "do_depart", "do_leave_table", "do_ping", "schedule_abandon_check"]
