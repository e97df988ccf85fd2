"""The emails: a last call, and the daily digest of tables where it is the player's turn.
Written in the reader's language; no database writes (the caller records the outcome)."""

from __future__ import annotations

from django.conf import settings
from django.core.mail import send_mail
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _

from accounts.language import reader_language

from .texts import text_for, time_left, turn_time_left


def site_url(path: str) -> str:
    return getattr(settings, "NOTIFY_SITE_URL", "http://localhost:8000").rstrip("/") + path


def send_notification_mail(notification) -> None:
    user = notification.user
    with translation.override(reader_language(user)):
        text = text_for(notification, translation.get_language())
        # a last call says how long is left, as the table's page does
        left = turn_time_left(notification) if notification.event == "last_call" else ""
        body = render_to_string("notify/email_notification.txt", {
            "user": user, "text": text, "left": left, "url": site_url(text.url),
            "preferences_url": site_url("/notifications/preferences/")})
        send_mail(text.title, body, None, [user.email])


def send_digest(user, rows) -> None:
    """``rows``: ``games.turns.tables_waiting_for(user)`` (table name, what to do, time left)."""
    with translation.override(reader_language(user)):
        shown = [{"table_name": row.table_name, "what": row.what, "url": row.url,
                  "left": time_left(row.time_left)} for row in rows]
        body = render_to_string("notify/email_digest.txt", {
            "user": user, "rows": shown, "site_url": site_url(""),
            "preferences_url": site_url("/notifications/preferences/")})
        count = len(rows)
        subject = translation.ngettext("Your turn at %(count)d table",
                                       "Your turn at %(count)d tables", count) % {"count": count}
        send_mail(_("Stop the Bus: %(subject)s") % {"subject": subject}, body, None, [user.email])
