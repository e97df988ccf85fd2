"""How fast a table plays: live (everyone at the table now) or post (a move a day).

A post table's clock gives each move its whole time again; its deadlines, last calls
and the days that make a player leave are scaled by ``STOPBUS_POST_TIME_SCALE`` (1.0
in play; a benchmark runs a day in 86 seconds with 0.001).
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

LIVE = "live"
DEFAULT_POST = "1d"
HOUR = 3600
DAY = 24 * HOUR

# slug -> seconds a move (None: live, the variant's turn clock)
PACE_SECONDS: dict[str, int | None] = {
    LIVE: None, "1h": HOUR, "4h": 4 * HOUR, "12h": 12 * HOUR, "1d": DAY, "2d": 2 * DAY,
    "3d": 3 * DAY, "7d": 7 * DAY,
}
PACE_CHOICES = [
    (LIVE, _("Live (everyone at the table now)")),
    ("1h", _("Post: 1 hour a move")),
    ("4h", _("Post: 4 hours a move")),
    ("12h", _("Post: 12 hours a move")),
    ("1d", _("Post: 1 day a move")),
    ("2d", _("Post: 2 days a move")),
    ("3d", _("Post: 3 days a move")),
    ("7d", _("Post: 7 days a move")),
]

# a post table's last call comes at this share of the move's time
LAST_CALL_AT = 0.8
# missed turns in a row before "Bot for <name>" plays the seat
MISSES_BEFORE_BOT = 2
# a player whose turns were all missed for this long, and at least this many deadlines
# running, has left the game
MISSED_DAYS_TO_LEAVE = 3
MISSED_DEADLINES_TO_LEAVE = 7


def is_post(pace: str) -> bool:
    return pace != LIVE and pace in PACE_SECONDS


def scale() -> float:
    return float(getattr(settings, "STOPBUS_POST_TIME_SCALE", 1.0))


def move_time(pace: str) -> timedelta:
    """A post table's time for one move, as the clock counts it (scaled)."""
    return timedelta(seconds=PACE_SECONDS[pace] * scale())


def leave_after() -> timedelta:
    return timedelta(seconds=MISSED_DAYS_TO_LEAVE * DAY * scale())


def pace_words(pace: str) -> str:
    """"1 day a move", "live": what the lobby, the header and the history show."""
    seconds = PACE_SECONDS.get(pace)
    if not seconds:
        return str(_("live"))
    if seconds % DAY == 0:
        days = seconds // DAY
        return ngettext("%(count)d day a move", "%(count)d days a move", days) % {"count": days}
    hours = seconds // HOUR
    return ngettext("%(count)d hour a move", "%(count)d hours a move", hours) % {"count": hours}


def time_left_words(seconds: float) -> str:
    """"3 h 12 min left", "2 days 4 h left", "less than a minute left"."""
    seconds = max(0, int(seconds))
    if seconds < 60:
        return str(_("less than a minute left"))
    days, rest = divmod(seconds, DAY)
    hours, rest = divmod(rest, HOUR)
    minutes = rest // 60
    if days:
        return ngettext("%(days)d day %(hours)d h left", "%(days)d days %(hours)d h left",
                        days) % {"days": days, "hours": hours}
    if hours:
        return _("%(hours)d h %(minutes)d min left") % {"hours": hours, "minutes": minutes}
    return _("%(minutes)d min left") % {"minutes": minutes}


POST_PACES = tuple(slug for slug in PACE_SECONDS if slug != LIVE)
