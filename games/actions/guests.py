"""Guests who left long ago: their rows go, their games stay.

A guest (``accounts.guests``) idle for ``STOPBUS_GUEST_DAYS`` days -- no sign-in, no
game started, no seat taken since -- and not sitting at a table that is waiting or
playing is removed. Deleting the user takes their seats at finished or closed tables,
their chat lines, presences and stats rows with it; the games they played keep them
as a name (``GamePlayer.user`` is set null), so the other players' histories and
replays are unchanged. Here because it removes seats: only ``games.actions`` writes
game rows.
"""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from ..models import GamePlayer, Seat, Table
from .base import setting


def idle_guests(days: int | None = None, now=None):
    """The guests :func:`do_forget_guests` would remove."""
    days = setting("STOPBUS_GUEST_DAYS", 30) if days is None else days
    cutoff = (now or timezone.now()) - timedelta(days=days)
    active_seats = Seat.objects.filter(
        Q(table__status__in=[Table.Status.WAITING, Table.Status.PLAYING])
        | Q(joined_at__gte=cutoff)).values("user_id")
    recent_games = GamePlayer.objects.filter(game__started_at__gte=cutoff,
                                             user__isnull=False).values("user_id")
    return (get_user_model().objects.filter(is_guest=True, date_joined__lt=cutoff)
            .filter(Q(last_login__isnull=True) | Q(last_login__lt=cutoff))
            .exclude(pk__in=active_seats).exclude(pk__in=recent_games))


def do_forget_guests(days: int | None = None, now=None) -> int:
    """Remove the guests idle for ``days`` (default ``STOPBUS_GUEST_DAYS``); how many."""
    with transaction.atomic():
        # locked, so a guest who signs up at this moment is either converted first (and
        # no longer a guest) or removed before the sign-up finds it
        doomed = list(idle_guests(days, now).select_for_update().values_list("pk", flat=True))
        if not doomed:
            return 0
        get_user_model().objects.filter(pk__in=doomed, is_guest=True).delete()
    return len(doomed)


__all__ = ["do_forget_guests", "idle_guests"]
