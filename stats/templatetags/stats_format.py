"""Small formatting filters for the stats pages."""

import functools
from urllib.parse import quote

from django import template
from django.urls import reverse

from games.event_text import place_label

register = template.Library()


@register.filter
def place(value):
    """3 -> "3rd" ("3位" in Japanese)."""
    try:
        return place_label(int(value))
    except (TypeError, ValueError):
        return ""


@register.filter
def percent(value):
    """0.4567 -> "46%"."""
    try:
        return f"{float(value):.0%}"
    except (TypeError, ValueError):
        return ""


@register.filter
def signed(value):
    """A rating change: 12.4 -> "+12", -3.6 -> "−4", 0.2 -> "±0"."""
    if value is None or value == "":
        return ""
    rounded = round(float(value))
    if rounded > 0:
        return f"+{rounded}"
    if rounded < 0:
        return f"\u2212{-rounded}"
    return "\u00b10"


@register.filter
def whole(value):
    """A rating: 1234.56 -> "1235"."""
    try:
        return f"{round(float(value))}"
    except (TypeError, ValueError):
        return ""


@functools.cache
def _around(name: str) -> tuple[str, str]:
    """What comes before and after the one argument of URL ``name``."""
    before, after = reverse(name, args=["0"]).rsplit("0", 1)
    return before, after


def _url(name: str, value) -> str:
    before, after = _around(name)
    return before + quote(str(value), safe="@+-._~") + after


@register.filter
def profile_url(username):
    """``{% url 'stats:profile' name %}`` for long lists: reversed once, not per row."""
    return _url("stats:profile", username)


@register.filter
def replay_url(game_id):
    return _url("stats:replay", game_id)
