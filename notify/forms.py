"""Checking what pages send: the preferences grid, a push subscription, notification ids.
Anything else than what the page's own controls send is refused with a message."""

from __future__ import annotations

import json

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.timezones import MAX_LENGTH as TIME_ZONE_MAX_LENGTH
from accounts.timezones import available as available_time_zones

from . import endpoints
from .keys import valid_auth, valid_p256dh
from .models import Channel
from .preferences import DEFAULTS, GRID_EVENTS

MAX_SUBSCRIPTION_BYTES = 4096
MAX_IDS = 200


class Invalid(Exception):
    def __init__(self, message: str):
        self.message = message
        super().__init__(message)


def cell_name(event: str, channel: str) -> str:
    return f"{event}__{channel}"


def parse_grid(data) -> dict[str, dict[str, bool]]:
    """The grid from a form: a box is on when sent as "on", off when absent. Unknown
    fields, or a value other than "on", are refused."""
    allowed = {cell_name(e, c) for e in GRID_EVENTS for c, default in DEFAULTS[e].items()
               if default is not None}
    known = allowed | {"csrfmiddlewaretoken", "digest", "digest_hour", "time_zone", "form"}
    for name in data:
        if name not in known:
            raise Invalid(_("The form sent a setting that does not exist."))
    for name in ("digest_hour", "time_zone"):
        if hasattr(data, "getlist") and len(data.getlist(name)) > 1:
            raise Invalid(_("The form sent a setting that does not exist."))
    for name in allowed | {"digest"}:
        values = data.getlist(name) if hasattr(data, "getlist") else [data[name]]
        if name in data and values != ["on"]:
            raise Invalid(_("The form sent a setting that does not exist."))
    return {event: {channel: cell_name(event, channel) in data
                    for channel, default in DEFAULTS[event].items() if default is not None}
            for event in GRID_EVENTS}


class DigestForm(forms.Form):
    digest_hour = forms.TypedChoiceField(
        label=gettext_lazy("Hour of the daily email"), coerce=int,
        choices=[(h, f"{h:02d}:00") for h in range(24)])
    # Not sent: the saved zone stays. Sent blank: the site's zone.
    time_zone = forms.CharField(label=gettext_lazy("Time zone"), required=False,
                                max_length=TIME_ZONE_MAX_LENGTH, strip=False)

    def clean_time_zone(self):
        value = self.cleaned_data["time_zone"]
        if value and value not in available_time_zones():
            raise forms.ValidationError(_("Choose a time zone from the list."), code="invalid")
        return value


def parse_subscription(body: bytes, *, to_send: bool = True) -> dict:
    """A Push API subscription as the browser's ``PushSubscription.toJSON()`` gives it.
    To keep it and push to it (``to_send``), its endpoint must be on a browser's push
    service (``notify.endpoints``); to forget one, it need not."""
    if len(body) > MAX_SUBSCRIPTION_BYTES:
        raise Invalid(_("That push subscription is too large."))
    try:
        data = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise Invalid(_("That is not a push subscription.")) from None
    if not isinstance(data, dict) or not isinstance(data.get("keys"), dict):
        raise Invalid(_("That is not a push subscription."))
    endpoint, keys = data.get("endpoint"), data["keys"]
    if not isinstance(endpoint, str) or len(endpoint) > endpoints.MAX_LENGTH:
        raise Invalid(_("That is not a push subscription."))
    if not endpoints.plain_https(endpoint):
        raise Invalid(_("A push endpoint must be an https address."))
    if to_send and not endpoints.allowed(endpoint):
        raise Invalid(_("Browser notifications can only go through a browser's own push "
                        "service, and that address is not one."))
    if not valid_p256dh(keys.get("p256dh")) or not valid_auth(keys.get("auth")):
        raise Invalid(_("The push subscription's keys are not valid."))
    return {"endpoint": endpoint, "p256dh": keys["p256dh"], "auth": keys["auth"]}


def parse_ids(values) -> list[int] | None:
    """Notification ids from a form ("all" means every one: None)."""
    if values == ["all"]:
        return None
    if not values or len(values) > MAX_IDS:
        raise Invalid(_("Say which notifications to mark as read."))
    ids = []
    for value in values:
        if not value.isascii() or not value.isdigit() or len(value) > 18:
            raise Invalid(_("There is no such notification."))
        ids.append(int(value))
    return ids


CHANNEL_LABELS = dict(Channel.choices)
