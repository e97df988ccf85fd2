"""The player's time zone: an IANA name saved on the account (blank: the site's
``TIME_ZONE``). The daily digest's hour is read in it, and ``UserTimeZoneMiddleware``
shows a signed-in player's pages (clock times) in it."""

from __future__ import annotations

import functools
import zoneinfo
from datetime import tzinfo

from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

MAX_LENGTH = 64  # the longest IANA name is 32 characters
# names in the tz database that are no place a player lives: "Factory" (a zone of "-00",
# for machines not set up yet) and "localtime" (this server's own setting)
NO_PLACE = frozenset({"Factory", "localtime"})


@functools.cache
def available() -> frozenset[str]:
    """The zones this machine's tz database knows (``zoneinfo.available_timezones``)."""
    return frozenset(name for name in zoneinfo.available_timezones()
                     if len(name) <= MAX_LENGTH and not name.startswith(("posix/", "right/"))
                     and name not in NO_PLACE)


def zone_label(name: str) -> str:
    """What a player reads for the zone ``name``: its place, in words, the part of its region
    it lies in after it ("America/Argentina/Buenos_Aires": "Buenos Aires (Argentina)";
    "Europe/London": "London"; "UTC": "UTC"). Only the label: the value saved is the name."""
    parts = [part.replace("_", " ") for part in name.split("/")]
    if len(parts) == 1:
        return parts[0]
    place, within = parts[-1], parts[1:-1]
    return f"{place} ({', '.join(reversed(within))})" if within else place


@functools.cache
def time_zone_groups() -> tuple[list[tuple[str, str]], list[tuple[str, list[tuple[str, str]]]]]:
    """Every known zone: those without a region ("UTC"), then the others grouped by region
    ("Europe", "Asia", ...), each as (name, label), by label within its group (a place is
    looked for by its name: "Buenos Aires (Argentina)" among the B's). Made once a process."""
    single, groups = [], {}
    for name in sorted(available()):
        region, slash, _place = name.partition("/")
        (groups.setdefault(region.replace("_", " "), []) if slash else single).append(
            (name, zone_label(name)))
    for zones in groups.values():
        zones.sort(key=lambda zone: (zone[1].casefold(), zone[0]))
    return single, list(groups.items())


def time_zone_choices():
    """The zones as a model field's grouped choices. A callable, so no migration lists
    them."""
    single, groups = time_zone_groups()
    return [*single, *groups]


def validate_time_zone(value: str) -> None:
    if value and value not in available():
        raise ValidationError(_("There is no time zone of that name."), code="invalid_time_zone")


def site_zone_name() -> str:
    return settings.TIME_ZONE or "UTC"


def zone_name(user) -> str:
    """The name of the zone ``user``'s clock times are read in."""
    name = getattr(user, "time_zone", "") or ""
    return name if name in available() else site_zone_name()


def zone_for(name: str | None) -> tzinfo:
    """The zone of that name (``ZoneInfo`` keeps each one it made); blank or unknown (a
    zone since dropped from the tz database, say): the site's."""
    if name and name in available():
        return zoneinfo.ZoneInfo(name)
    return timezone.get_default_timezone()


class UserTimeZoneMiddleware:
    """After authentication: a signed-in player who chose a zone sees clock times in it.
    The user is already loaded (``UserLanguageMiddleware`` read it), so this costs no
    query."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        name = getattr(user, "time_zone", "") if user is not None and user.is_authenticated \
            else ""
        if name and name in available():
            timezone.activate(zone_for(name))
            try:
                return self.get_response(request)
            finally:
                # per thread: whatever runs next on it outside a request keeps the site's
                timezone.deactivate()
        return self.get_response(request)
