"""Rate limits, one module for HTTP views and websockets alike.

``allow`` counts in the cache (Redis in production), so a limit holds across all of
a user's sockets and all server processes. ``Bucket`` is a token bucket in memory,
for what one socket may send per second (counting each frame in Redis would cost a
round trip per frame to protect a single connection).
"""

from __future__ import annotations

import threading
import time

from django.core.cache import cache


def allow(key: str, limit: int, seconds: int) -> bool:
    """True while ``key`` has been hit at most ``limit`` times in the last ``seconds``.

    Counted in windows of ``seconds``, the last one weighed by how much of it the last
    ``seconds`` still cover (a sliding window's usual estimate): hits made just before a
    window's edge still count just after it, so a burst across the edge gets ``limit``,
    not twice as many. Refused hits count too: a client that keeps hammering stays
    refused."""
    name, last, still = _windows(key, seconds)
    cache.add(name, 0, timeout=seconds * 2)
    try:
        hits = cache.incr(name)
    except ValueError:  # the key expired between add and incr
        cache.set(name, 1, timeout=seconds * 2)
        hits = 1
    if hits > limit:
        return False
    return hits + (cache.get(last) or 0) * still <= limit


def _windows(key: str, seconds: int) -> tuple[str, str, float]:
    """(the cache key of ``key``'s current window, that of the window before, the share
    of the window before that the last ``seconds`` still cover)."""
    now = time.time()
    window = int(now // seconds)
    return f"rate:{key}:{window}", f"rate:{key}:{window - 1}", 1.0 - (now / seconds - window)


def used(key: str, seconds: int) -> float:
    """How many hits :func:`allow` counts for ``key`` in the last ``seconds`` (the same
    estimate), without counting one more."""
    name, last, still = _windows(key, seconds)
    found = cache.get_many([name, last])
    return (found.get(name) or 0) + (found.get(last) or 0) * still


class Bucket:
    """``rate`` events a second, bursts up to ``burst``."""

    def __init__(self, rate: float, burst: int):
        self.rate = rate
        self.burst = burst
        self.tokens = float(burst)
        self.stamp = time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


# -- bounded work ----------------------------------------------------------------------------
#
# A process takes at most ``STOPBUS_MAX_PENDING`` player actions at once and a table
# at most ``STOPBUS_TABLE_PENDING``, and none while it is ``behind`` (below); beyond that
# the action is refused at once ("the table is busy") instead of queueing behind work it
# would only wait for (a table's moves run one at a time on its game row anyway). Nothing
# is half done: a refused action was never started. The clock reads ``busy`` to let people go first.

_pending_total = 0
_pending_tables: dict[int, int] = {}
_pending_lock = threading.Lock()


def _limits() -> tuple[int, int]:
    from django.conf import settings

    return (getattr(settings, "STOPBUS_MAX_PENDING", 64),
            getattr(settings, "STOPBUS_TABLE_PENDING", 4))


class Busy(Exception):
    """More work than this process or table takes at once."""


class pending:  # noqa: N801 -- used as a context manager, like a lock
    """``with pending(table_id):`` around one player's action; raises Busy when full."""

    def __init__(self, table_id: int):
        self.table_id = table_id

    def __enter__(self):
        global _pending_total
        most, per_table = _limits()
        with _pending_lock:
            here = _pending_tables.get(self.table_id, 0)
            if _pending_total >= most or here >= per_table or behind() or queued_long():
                raise Busy
            _pending_total += 1
            _pending_tables[self.table_id] = here + 1
        self.entered = time.monotonic()
        return self

    def started(self) -> None:
        """The action's work begins now (in its database thread): how long it waited for
        its turn counts towards :func:`queued_long`."""
        queued(time.monotonic() - self.entered)

    def __exit__(self, *exc):
        global _pending_total
        with _pending_lock:
            _pending_total -= 1
            left = _pending_tables.get(self.table_id, 1) - 1
            if left:
                _pending_tables[self.table_id] = left
            else:
                _pending_tables.pop(self.table_id, None)
        return False


def busy() -> bool:
    """Are people's actions waiting in this process (a quarter of the limit or more, or a
    queue they lately waited long in: ``queued_long``), or are its pages updated late with
    a backlog still to update (``behind``)?"""
    return _pending_total * 4 >= _limits()[0] or behind() or queued_long()


# -- how far behind the process is ---------------------------------------------------------
#
# Each page tells how late its update was: the time from the change being committed to
# the page's regions being sent (``late``). While that (a moving average over the last
# several updates, so that one slow update -- a template compiled, a collection -- is
# not enough) is past ``STOPBUS_BUSY_LATE`` seconds while at least ``STOPBUS_BUSY_PAGES``
# pages still wait for their update (a backlog, not a slow machine), a new player action
# is refused ("the table is busy") rather than queued behind those pages: what is taken is
# then shown to everyone in about that time, and the backlog drains by itself (the pages'
# updates go on; only new moves wait). With no page updated for LATE_FORGOTTEN seconds,
# nothing is waiting, and nothing counts.

LATE_FORGOTTEN = 2.0
LATE_WEIGHT = 0.2  # of the newest update in the average
LATE_MOST = 5.0
_late = [0.0, 0.0]  # [the moving average of how late updates were, when the latest was sent]
_late_lock = threading.Lock()


def _note(store: list, seconds: float) -> None:
    """One more measure into ``store``'s moving average ([average, when last noted])."""
    seconds = min(max(seconds, 0.0), LATE_MOST)
    now = time.monotonic()
    with _late_lock:
        average, at = store
        if now - at > LATE_FORGOTTEN:
            average = 0.0
        store[:] = [average + LATE_WEIGHT * (seconds - average), now]


def _lately(store: list) -> float:
    """``store``'s moving average, or 0 if nothing was noted for LATE_FORGOTTEN seconds."""
    average, at = store
    return average if time.monotonic() - at < LATE_FORGOTTEN else 0.0


def late(seconds: float) -> None:
    """A page's update was sent ``seconds`` after its change was committed (by the wall
    clocks of the process that committed it and this one: the servers' clocks must agree,
    as NTP keeps them). One update counts for at most LATE_MOST seconds."""
    _note(_late, seconds)


_updating = [0]  # pages of this process with an update under way or waiting


def updating(pages: int) -> None:
    """``pages`` (1 or -1) more pages have an update under way or waiting."""
    with _late_lock:
        _updating[0] = max(0, _updating[0] + pages)


def behind() -> bool:
    """Have this process's pages lately been updated later than ``STOPBUS_BUSY_LATE``, with
    at least ``STOPBUS_BUSY_PAGES`` of them still to update? (A few late pages are a slow
    machine, not a backlog: refusing their players' moves would not help them.)"""
    from django.conf import settings

    limit = getattr(settings, "STOPBUS_BUSY_LATE", 0.25)
    return (bool(limit) and _lately(_late) > limit
            and _updating[0] >= getattr(settings, "STOPBUS_BUSY_PAGES", 4))


# -- how long actions wait for their turn ----------------------------------------------------------
#
# A process runs its players' actions in a few database threads; an action taken while
# many wait starts only after them, and the move and what it shows come that much later
# (measured: at twice the clean maximum, up to 64 waiting actions meant moves shown 1.9 s
# after they were sent). Each action tells how long it waited before its work began
# (``pending.started``). While that (a moving average, as for ``late``) is past
# ``STOPBUS_BUSY_LATE`` with at least ``STOPBUS_BUSY_PAGES`` actions of the process still
# waiting or under way, a new action is refused at once ("the table is busy") instead of
# queued: what is taken starts within about that time, and the queue drains by itself.

_queued = [0.0, 0.0]  # [the moving average of how long actions waited, when one last began]


def queued(seconds: float) -> None:
    """An action began its work ``seconds`` after it was taken."""
    _note(_queued, seconds)


def queued_long() -> bool:
    """Have this process's actions lately waited longer than ``STOPBUS_BUSY_LATE`` for their
    turn, with at least ``STOPBUS_BUSY_PAGES`` of them still waiting or under way?"""
    from django.conf import settings

    limit = getattr(settings, "STOPBUS_BUSY_LATE", 0.25)
    return (bool(limit) and _lately(_queued) > limit
            and _pending_total >= max(1, getattr(settings, "STOPBUS_BUSY_PAGES", 4)))


# -- open sockets ---------------------------------------------------------------------------
#
# Who holds how many sockets, across processes: the cache keeps, per holder (a user,
# or an address for signed-out lobby viewers), the channel names open and when each
# was last heard from. A socket whose process died without closing it drops out after
# SOCKET_STALE seconds. (Two sockets opening at the same instant may both pass at the
# cap's edge: the cap bounds a flood, it is not a count to the unit.)

SOCKET_STALE = 600


def socket_opened(holder: str, channel: str, limit: int) -> bool:
    """Note ``channel`` as open for ``holder``; False (and not noted) if ``limit`` are."""
    key = f"sockets:{holder}"
    now = time.time()
    open_now = {c: t for c, t in (cache.get(key) or {}).items() if now - t < SOCKET_STALE}
    if len(open_now) >= limit:
        return False
    open_now[channel] = now
    cache.set(key, open_now, timeout=SOCKET_STALE)
    return True


def socket_seen(holder: str, channel: str) -> None:
    key = f"sockets:{holder}"
    open_now = cache.get(key) or {}
    open_now[channel] = time.time()
    cache.set(key, open_now, timeout=SOCKET_STALE)


def socket_closed(holder: str, channel: str) -> None:
    key = f"sockets:{holder}"
    open_now = cache.get(key) or {}
    if open_now.pop(channel, None) is not None:
        cache.set(key, open_now, timeout=SOCKET_STALE)
