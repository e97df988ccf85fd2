"""Who has a table open right now.

Two records, each where it is cheap to keep:

* the pages open on a table, each with its reader's language and whether it is on
  screen, in the cache (Redis across processes), with a time to live: written when a
  page arrives, when it is shown or hidden, and at most once a minute by its pings
  (:func:`note_page`); read by the action that renders a change, to know which
  languages and which players' pages to render for (``games.actions.publish``), and by
  :func:`has_visible_page`;
* one row per websocket in the database (``Presence``), written by
  ``games.actions.presence`` when a page arrives and leaves and at most once a minute
  by its pings: the players' boards name who is watching, and the clock hands a table
  everybody left to bots.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import timedelta

from django.core.cache import cache
from django.utils import timezone

from .models import Presence, Table

FRESH = timedelta(seconds=150)  # a connection that has not been heard from since is stale
# how often a page's records are written again by its pings (the page pings every ~25 s)
REFRESH = 60.0
PAGE_TTL = 150  # seconds a page's record outlives its last write in the cache


@dataclass(frozen=True)
class Page:
    user_id: int
    language: str
    visible: bool
    until: float  # time.time() past which the record is stale


# One record per user and table ({channel: (language, visible, until)}), written only by
# that user's own pages, and one per language read at the table: pages of different
# users never write the same key, so none overwrites another's.


def _user_key(table_id: int, user_id: int) -> str:
    return f"here:{table_id}:u{user_id}"


def _language_key(table_id: int, language: str) -> str:
    return f"here:{table_id}:l:{language}"


def _live(entries: dict | None, now: float) -> dict:
    return {c: e for c, e in (entries or {}).items() if e[2] > now}


def note_page(table_id: int, channel: str, user_id: int, language: str,
              visible: bool = True) -> None:
    """Write (or refresh) the records of one page."""
    now = time.time()
    key = _user_key(table_id, user_id)
    entries = _live(cache.get(key), now)
    entries[channel] = (language, visible, now + PAGE_TTL)
    cache.set_many({key: entries, _language_key(table_id, language): now + PAGE_TTL},
                   PAGE_TTL)


def forget_page(table_id: int, channel: str, user_id: int) -> None:
    now = time.time()
    key = _user_key(table_id, user_id)
    entries = _live(cache.get(key), now)
    entries.pop(channel, None)
    cache.set(key, entries, PAGE_TTL)


def present(table_id: int, user_ids, read: set[str] | None = None,
            ) -> tuple[set[str], dict[int, set[str]]]:
    """(the languages pages of the table read, {user: the languages of their pages}) for
    ``user_ids``: one cache read. ``read``, the languages a caller has read already: only
    the users' records are read then (none at all without users)."""
    read, pages, _ = present_and(table_id, user_ids, read)
    return read, pages


def present_and(table_id: int, user_ids, read: set[str] | None = None, also=(),
                ) -> tuple[set[str], dict[int, set[str]], dict]:
    """:func:`present`, and the cache entries ``also`` ({key: value} of those found),
    in the same one cache read."""
    from django.conf import settings

    now = time.time()
    languages = [] if read is not None else list(dict.fromkeys(
        c for code, _ in settings.LANGUAGES for c in (code, code.split("-")[0])))
    keys = [_language_key(table_id, code) for code in languages]
    users = {_user_key(table_id, u): u for u in user_ids}
    found, extra = _read([*keys, *users], also)
    read = set(read or ()) | {code for code, key in zip(languages, keys, strict=True)
                              if (found.get(key) or 0) > now}
    pages = {}
    for key, user_id in users.items():
        langs = {e[0] for e in _live(found.get(key), now).values()}
        if langs:
            pages[user_id] = langs
            read |= langs
    return read, pages, extra


def _read(keys: list[str], also) -> tuple[dict, dict]:
    """({key: value} of ``keys`` and ``also`` found, those of ``also`` alone): one cache
    read (none for no keys)."""
    also = list(also)
    found = cache.get_many([*keys, *also]) if keys or also else {}
    return found, {k: found[k] for k in also if k in found}


def noted_and(table_id: int, channel: str, user_id: int, also=()) -> tuple[bool, dict]:
    """(Does the cache (Redis) still hold this page's record?, the cache entries ``also``
    ({key: value} of those found)), in one cache read (a page's ping). After Redis lost
    its data, it holds no record: nor does it hold the page's group memberships."""
    key = _user_key(table_id, user_id)
    found, extra = _read([key], also)
    return channel in _live(found.get(key), time.time()), extra


def has_visible_page(user_id: int, table_id: int) -> bool:
    """Has ``user_id`` a page of ``table_id`` open and on screen now? (No query.)"""
    now = time.time()
    return any(e[1] for e in _live(cache.get(_user_key(table_id, user_id)), now).values())


def present_users(table: Table):
    return (Presence.objects.filter(table=table, last_seen__gte=timezone.now() - FRESH)
            .select_related("user"))


def spectators(table: Table, seats) -> list:
    """Users watching who do not sit at the table, by name."""
    seated = {s.user_id for s in seats if s.user_id}
    seen_users = {}
    for row in present_users(table):
        if row.user_id not in seated:
            seen_users[row.user_id] = row.user
    return sorted(seen_users.values(), key=lambda u: u.username.lower())


def humans_connected(table: Table) -> bool:
    return present_users(table).exists()
