"""Which channels carry which events for a player: a grid with defaults, rows stored only
where the player changed a cell."""

from __future__ import annotations

from django.conf import settings

from .models import Channel, NotificationPreference

GRID_EVENTS = ("your_turn", "last_call", "missed_turn", "bot_sat_in", "game_over", "invited",
               "table_started")
# None: the channel does not carry that event (the daily digest covers turns by email)
DEFAULTS: dict[str, dict[str, bool | None]] = {
    event: {Channel.SITE: True, Channel.PUSH: True, Channel.EMAIL: None} for event in GRID_EVENTS
}
DEFAULTS["last_call"][Channel.EMAIL] = False  # the optional last-call email


def push_available() -> bool:
    """Web push needs the VAPID keys; without them the option is hidden."""
    return bool(getattr(settings, "VAPID_PUBLIC_KEY", "") and
                getattr(settings, "VAPID_PRIVATE_KEY", ""))


def has_address(user) -> bool:
    """Can anything be emailed to ``user``? (A guest has no address of their own: only a
    placeholder at guest.invalid, until they sign up.)"""
    return bool(getattr(user, "email", "")) and not getattr(user, "is_guest", False)


def channels_for(user, event: str) -> set[str]:
    """The channels ``event`` reaches ``user`` on (the test goes everywhere it can; email
    only to a player with an address)."""
    if event == "test":
        return {Channel.SITE, Channel.PUSH}
    cells = dict(DEFAULTS.get(event, {}))
    if not has_address(user):
        cells.pop(Channel.EMAIL, None)
    for channel, enabled in NotificationPreference.objects.filter(
            user=user, event=event).values_list("channel", "enabled"):
        if cells.get(channel) is not None:
            cells[channel] = enabled
    return {channel for channel, on in cells.items() if on}


def grid_for(user) -> dict[str, dict[str, bool | None]]:
    cells = {event: dict(row) for event, row in DEFAULTS.items()}
    for event, channel, enabled in NotificationPreference.objects.filter(user=user).values_list(
            "event", "channel", "enabled"):
        if event in cells and cells[event].get(channel) is not None:
            cells[event][channel] = enabled
    return cells
