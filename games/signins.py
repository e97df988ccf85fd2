"""Does the sign-in a socket opened with still hold? Asked before every action it takes.

The answer comes from the database (the session's row and the user's, in one query)
and is then kept in the cache for a short while (:data:`KEPT`, never past the session's
own expiry), so that a player's moves do not each read their session again. What ends a
sign-in forgets the kept answer at once:

- logging out, or any other end of a session row (a new key at sign-in, an admin's
  delete): the row's ``post_delete`` forgets that session's answer
  (:func:`forget_session`);
- a new password, or the account switched off: the user's *epoch* in the cache changes
  (:func:`end_user_sign_ins`), and an answer is kept only with the epoch it was read
  under, so every answer of that user's sessions is stale from then on.

A kept answer is only ever "valid": a refusal is read from the database each time. If
the cache loses its keys (a restart), the next action reads the database again.
"""

from __future__ import annotations

import hashlib
import uuid
from datetime import timedelta
from importlib import import_module

from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.core.cache import cache
from django.db.models import Subquery
from django.utils import timezone
from django.utils.crypto import constant_time_compare

# seconds a valid answer is kept, at most: longer than a round of four at the usual 45 s
# turn clock, so that a player's next move usually finds it. What ends a sign-in forgets it at
# once (above); this bound only covers a change made behind Django's back (an SQL update
# of a password). A socket's first check is made as it connects (``TableConsumer``).
KEPT = 300
EPOCH_TTL = 24 * 3600  # longer than any kept answer: an epoch that expired kept nothing


def _session_key(key: str) -> str:
    # the session key itself never names a cache entry (a cache dump must not sign anyone
    # in): its digest does
    return "signin-ok:" + hashlib.sha256(key.encode()).hexdigest()[:32]


def _epoch_key(user_id) -> str:
    return f"signin-epoch:{user_id}"


def session_is_valid(session, user) -> bool:
    """Is the session this socket opened with still the user's, signed in and current?
    (Logging out deletes it; a password change or reset changes the user's hash.)"""
    key = getattr(session, "session_key", None)
    if not key or not getattr(user, "is_authenticated", False):
        return False
    kept_key, epoch_key = _session_key(key), _epoch_key(user.pk)
    found = cache.get_many([kept_key, epoch_key])
    epoch = found.get(epoch_key)
    if epoch is not None and found.get(kept_key) == [user.pk, epoch]:
        return True
    if epoch is None:
        # the epoch this answer is read under, fixed before the read: a sign-in ended
        # while it is read changes the epoch after, and the answer is stale at once
        epoch = uuid.uuid4().hex
        if not cache.add(epoch_key, epoch, EPOCH_TTL):
            epoch = cache.get(epoch_key)
    valid, expires = _read(key, user)
    if valid and epoch is not None:
        left = (expires - timezone.now()).total_seconds() if expires else KEPT
        if left >= 1:
            cache.set(kept_key, [user.pk, epoch], min(KEPT, int(left)))
    return valid


def _read(key: str, user) -> tuple[bool, object]:
    """(valid, when the session expires) from the database: one query with
    database-backed sessions (the default)."""
    store = import_module(settings.SESSION_ENGINE).SessionStore(session_key=key)
    users = get_user_model().objects.filter(pk=user.pk, is_active=True)
    expires = None
    if hasattr(store, "get_model_class"):  # database-backed sessions
        live = store.get_model_class().objects.filter(session_key=key,
                                                      expire_date__gt=timezone.now())
        fresh = users.annotate(open_session=Subquery(live.values("session_data")[:1]),
                               session_expires=Subquery(live.values("expire_date")[:1])
                               ).first()
        data = store.decode(fresh.open_session) if fresh and fresh.open_session else {}
        expires = fresh.session_expires if fresh else None
    else:
        data = store.load()  # {} once deleted or expired
        fresh = users.first() if data else None
        if data:
            expires = timezone.now() + timedelta(seconds=store.get_expiry_age())
    if fresh is None or str(data.get(SESSION_KEY)) != str(user.pk):
        return False, None
    valid = constant_time_compare(data.get(HASH_SESSION_KEY, ""), fresh.get_session_auth_hash())
    return valid, expires


def forget_session(key: str | None) -> None:
    """A session ended (its row deleted): its kept answer goes now."""
    if key:
        cache.delete(_session_key(key))


def end_user_sign_ins(user_id) -> None:
    """Every kept answer of the user's sessions is stale from now on (a new password,
    the account switched off, logged out)."""
    cache.set(_epoch_key(user_id), uuid.uuid4().hex, EPOCH_TTL)
