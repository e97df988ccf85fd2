"""The words of a notification, in its reader's language (their saved one, as mails are
written: ``accounts.language.reader_language``)."""

from __future__ import annotations

from dataclasses import dataclass

from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from accounts.language import reader_language
from games.models import Game
from games.pace import time_left_words


@dataclass(frozen=True)
class Text:
    title: str
    body: str
    url: str


def ordinal(n: int) -> str:
    if 10 <= n % 100 <= 20 or n % 10 not in (1, 2, 3):
        return pgettext("ordinal", "%(n)dth") % {"n": n}
    return {1: pgettext("ordinal", "%(n)dst"), 2: pgettext("ordinal", "%(n)dnd"),
            3: pgettext("ordinal", "%(n)drd")}[n % 10] % {"n": n}


def time_left(left) -> str:
    """The time left in the pages' words ("3 h 12 min left", "less than a minute left"),
    in the active language; "" when there is no deadline."""
    if left is None:
        return ""
    return time_left_words(left.total_seconds())


def turn_time_left(notification) -> str:
    """How long is left of the turn ``notification`` (a last call) is about, in the pages'
    words; "" when its table has no game on the clock."""
    if not notification.table_id:
        return ""
    deadline = (Game.objects.filter(table_id=notification.table_id, status=Game.Status.PLAYING)
                .order_by("-number").values_list("deadline", flat=True).first())
    if deadline is None:
        return ""
    return time_left(deadline - timezone.now())


def _int(value, default: int = 0) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def table_url(table_id) -> str:
    return reverse("games:table", args=[table_id]) if table_id else reverse("notify:list")


def title_of(event: str, params: dict, table_name: str) -> str:
    """The notification's one line, in the active language."""
    table = params.get("table") or table_name or _("a table")
    if event == "your_turn":
        count = _int(params.get("count"), 1)
        if count > 1:
            return ngettext("Your turn at %(count)d table", "Your turn at %(count)d tables",
                            count) % {"count": count}
        return _("Your turn at %(table)s") % {"table": table}
    if event == "last_call":
        return _("Last call at %(table)s: your time is nearly up") % {"table": table}
    if event == "missed_turn":
        return _("You missed a turn at %(table)s") % {"table": table}
    if event == "bot_sat_in":
        return _("A bot is playing for you at %(table)s") % {"table": table}
    if event == "game_over":
        place, players = _int(params.get("place")), _int(params.get("players"))
        if place and players:
            return _("You finished %(place)s of %(players)d at %(table)s") % {
                "place": ordinal(place), "players": players, "table": table}
        return _("The game at %(table)s is over") % {"table": table}
    if event == "invited":
        host = params.get("host")
        if host:
            return _("%(host)s invited you to %(table)s") % {"host": host, "table": table}
        return _("You are invited to %(table)s") % {"table": table}
    if event == "table_started":
        return _("The game at %(table)s has started") % {"table": table}
    return _("This is a test notification from Stop the Bus.")


def body_of(event: str, params: dict) -> str:
    if event in ("your_turn", "last_call", "missed_turn", "bot_sat_in"):
        return _("Open the table to play.")
    if event == "test":
        return _("Notifications reach you here.")
    return ""


def text_for(notification, language: str | None = None) -> Text:
    """``notification``'s words in ``language`` (default: its reader's)."""
    language = language or reader_language(notification.user)
    with translation.override(language):
        table_name = notification.table.name if notification.table_id and notification.table else ""
        params = notification.params or {}
        return Text(title_of(notification.event, params, table_name),
                    body_of(notification.event, params), table_url(notification.table_id))
