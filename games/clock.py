"""The clock's loop: runs due jobs (bot moves, turn deadlines, the next deal).

What a job does, and claiming it, is ``games.actions.clock``; this module only
decides when to look. Every daphne process runs the clock as a background task on
its event loop (started by :class:`ClockMiddleware` on the first request or
connection), so the embedded single process needs nothing more; ``manage.py
run_clock`` runs it as a process of its own.

Under load the clock yields to people: while this process has player actions
waiting (``ratelimit.busy``), it waits a little before running bots and deadlines,
so that a busy server slows bots before it slows anyone's own move.
"""

from __future__ import annotations

import asyncio
import logging
import threading

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.cache import cache
from django.db import close_old_connections

from notify import loop as notify_loop

from . import ratelimit
from .actions import (
    LEASE,
    TIMEOUTS_BEFORE_AWAY,
    WORKER_ID,
    do_claim_due_jobs,
    do_run_due_jobs,
    do_run_job,
    next_due_in,
)

log = logging.getLogger(__name__)

# the names the loop and the management command use
claim_due_jobs = do_claim_due_jobs
run_job = do_run_job
run_due_jobs = do_run_due_jobs

__all__ = ["LEASE", "TIMEOUTS_BEFORE_AWAY", "WORKER_ID", "ClockMiddleware", "claim_due_jobs",
           "ensure_running", "run_due_jobs", "run_forever", "run_job"]


# when a job looked due but none could be claimed (another process took it a moment
# before): how long to wait before looking again
RACED = 0.05


def _tick() -> tuple[int, float]:
    """Run the jobs due now, if any are: how many ran, and how long to wait before looking
    again. Most ticks find nothing due, and cost one small query."""
    close_old_connections()
    try:
        wait = next_due_in(_poll_seconds())
        if wait > 0:
            return 0, wait
        ran = do_run_due_jobs(_batch())
        return ran, 0.0 if ran else RACED
    finally:
        close_old_connections()


def _batch() -> int:
    # A tick's jobs run one after another (a deadline's moves take tens of milliseconds),
    # and a job due meanwhile waits for the next tick: a few jobs a tick keep a last call
    # or a deadline that falls due in the middle of a busy spell within a fraction of a
    # second; fewer while people's moves wait (each tick's jobs hold the database).
    return 1 if ratelimit.busy() else 3


def _poll_seconds() -> float:
    return float(getattr(settings, "STOPBUS_CLOCK_POLL", 0.25))


async def run_forever() -> None:
    tick = sync_to_async(_tick, thread_sensitive=False)
    while True:
        if ratelimit.busy():
            await asyncio.sleep(0.05)  # people first; bots and deadlines a moment later
        try:
            ran, wait = await tick()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the clock failed a tick; trying again")
            ran, wait = 0, 1.0
        if not ran:
            await asyncio.sleep(wait)


def _sweep_every() -> float:
    return float(getattr(settings, "STOPBUS_GUEST_SWEEP", 3600))


def sweep_guests() -> int:
    """Remove the guests idle for STOPBUS_GUEST_DAYS (``do_forget_guests``), at most once
    per STOPBUS_GUEST_SWEEP seconds across every process (the first to add the cache's
    key sweeps; the others find it there). How many went."""
    from .actions.guests import do_forget_guests

    if not cache.add("clock:guest-sweep", WORKER_ID, timeout=max(1, int(_sweep_every()))):
        return 0
    return do_forget_guests()


def _sweep_in_thread() -> int:
    close_old_connections()
    try:
        return sweep_guests()
    finally:
        close_old_connections()


async def sweep_guests_forever() -> None:
    sweep = sync_to_async(_sweep_in_thread, thread_sensitive=False)
    await asyncio.sleep(min(60.0, _sweep_every()))  # not in the rush of a server's start
    while True:
        try:
            gone = await sweep()
            if gone:
                log.info("removed %d idle guests", gone)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the guest sweep failed; trying again later")
        await asyncio.sleep(_sweep_every())


_started_loops: set[int] = set()
_start_lock = threading.Lock()


def ensure_running() -> None:
    """Start the clock on the running event loop, once per loop."""
    if not getattr(settings, "STOPBUS_CLOCK_AUTOSTART", True):
        return
    loop = asyncio.get_running_loop()
    with _start_lock:
        if id(loop) in _started_loops:
            return
        _started_loops.add(id(loop))
    task = loop.create_task(run_forever(), name="stopbus-clock")
    task.add_done_callback(lambda t: _started_loops.discard(id(loop)))
    # beside it, the notifications' pushes and emails (sent apart: never holding up a move)
    loop.create_task(notify_loop.run_forever(), name="stopbus-notify")
    # and, once an hour across all processes, the guests long idle are removed
    loop.create_task(sweep_guests_forever(), name="stopbus-guest-sweep")
    log.info("clock started in %s", WORKER_ID)


class ClockMiddleware:
    """ASGI middleware: the first request or connection starts this process's clock."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] in ("http", "websocket"):
            ensure_running()
        return await self.app(scope, receive, send)
