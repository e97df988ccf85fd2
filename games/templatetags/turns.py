import json
from datetime import datetime

from django import template
from django.conf import settings
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext, ngettext

from games.pace import LIVE, is_post, pace_words
from games.turns import row_html
from games.turns import turns_count as count_for

register = template.Library()


@register.simple_tag
def turns_count(user) -> int:
    """How many post tables wait for ``user``'s move (the navigation shows it)."""
    return count_for(user)


@register.filter
def any_post(tables) -> bool:
    """Whether any of ``tables`` plays at post pace (the lobby lists those apart)."""
    return any(table.is_post for table in tables)


@register.filter
def live_waiting(tables) -> list:
    """The live tables of ``tables`` waiting for players (the lobby lists them first)."""
    return [t for t in tables if not t.is_post and t.status == t.Status.WAITING]


@register.filter
def post_waiting(tables) -> bool:
    """Whether any of ``tables`` is a post table waiting for players (the lobby says so
    when no live table waits)."""
    return any(table.is_post and table.status == table.Status.WAITING for table in tables)


@register.filter
def live_playing(tables) -> list:
    """The live tables of ``tables`` whose game is being played (listed to watch)."""
    return [t for t in tables if not t.is_post and t.status != t.Status.WAITING]


@register.filter
def is_post_pace(pace) -> bool:
    return is_post(pace or LIVE)


@register.filter(name="pace_words")
def pace_words_filter(pace) -> str:
    """"1 day a move" for a table's pace slug (the history pages' rows carry the slug)."""
    return pace_words(pace or LIVE)


@register.simple_tag
def turn_row(row):
    """One row of the list of post tables, its markup kept while its game stands still."""
    return mark_safe(row_html(row))  # noqa: S308 (rendered by our template, escaped there)


# The formats of games.pace.time_left_words in each language, as JSON, for
# static/js/time-left.js (the same for every element of a page: made once per language).
_TIME_LEFT_FORMATS: dict[str, str] = {}


def time_left_formats() -> str:
    """The words of ``time_left_words`` in the reader's language: its four msgids (the
    day form as ngettext says it for one day and for two), as JSON."""
    language = get_language() or settings.LANGUAGE_CODE
    found = _TIME_LEFT_FORMATS.get(language)
    if found is None:
        found = json.dumps({
            "less": gettext("less than a minute left"),
            "minutes": gettext("%(minutes)d min left"),
            "hours": gettext("%(hours)d h %(minutes)d min left"),
            "days": {
                "one": ngettext("%(days)d day %(hours)d h left",
                                "%(days)d days %(hours)d h left", 1),
                "other": ngettext("%(days)d day %(hours)d h left",
                                  "%(days)d days %(hours)d h left", 2),
            },
        }, ensure_ascii=False, separators=(",", ":"))
        _TIME_LEFT_FORMATS[language] = found
    return found


@register.simple_tag
def time_left_attrs(deadline) -> str:
    """` data-deadline="…" data-words="…"` for an element that says a post turn's time left
    in words ("3 h 12 min left"): static/js/time-left.js words it again as time passes.
    ``deadline`` is a datetime or its ISO text; nothing without one."""
    if not deadline:
        return ""
    if isinstance(deadline, datetime):
        deadline = deadline.isoformat(timespec="milliseconds")
    # its words change every minute: never read out again for that (aria-live off), in the
    # live regions it sits in (the list of your post tables)
    return format_html(' data-deadline="{}" data-words="{}" aria-live="off"', deadline,
                       time_left_formats())
