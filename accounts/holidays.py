"""Holidays: reading who is away, and how many days an account has left.

Taking a holiday is an action (``games.actions.post.do_take_holiday``): it changes how
every post table the player sits at is played.
"""

from __future__ import annotations

from datetime import date, timedelta

from django.db.models import Q
from django.utils import timezone

from .models import HOLIDAY_DAYS_A_YEAR, Holiday


def today() -> date:
    return timezone.localdate()


def holidays_until(user_ids, day: date | None = None) -> dict[int, date]:
    """The users among ``user_ids`` on holiday on ``day`` (today), with their last day."""
    day = day or today()
    ids = [i for i in user_ids if i]
    if not ids:
        return {}
    rows = (Holiday.objects.filter(user_id__in=ids, start__lte=day, end__gte=day)
            .values_list("user_id", "end"))
    return dict(rows)


def on_holiday(user_id: int | None, day: date | None = None) -> bool:
    return bool(user_id) and bool(holidays_until([user_id], day))


def days_in_year(start: date, end: date, year: int) -> int:
    first, last = max(start, date(year, 1, 1)), min(end, date(year, 12, 31))
    return max(0, (last - first).days + 1)


def days_used(user, year: int) -> int:
    rows = Holiday.objects.filter(user=user, start__lte=date(year, 12, 31),
                                  end__gte=date(year, 1, 1)).values_list("start", "end")
    return sum(days_in_year(start, end, year) for start, end in rows)


def days_left(user, year: int) -> int:
    return max(0, HOLIDAY_DAYS_A_YEAR - days_used(user, year))


def overlapping(user, start: date, end: date):
    return Holiday.objects.filter(Q(user=user) & Q(start__lte=end) & Q(end__gte=start))


def holiday_end(start: date, days: int) -> date:
    return start + timedelta(days=days - 1)
