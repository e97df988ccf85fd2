"""The deliveries' loop: beside the clock in every server process (started with it by
``games.clock.ensure_running``), it sends the pushes and emails that are due. It runs in
worker threads of its own, so a slow or failing push service delays neither moves nor
the clock's deadlines. A new delivery committed in this process wakes it at once;
others are found by polling."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import close_old_connections

from . import actions

log = logging.getLogger(__name__)

# when a delivery looked due but none could be claimed (another process took it)
RACED = 0.05
_wakers: dict[int, tuple[asyncio.AbstractEventLoop, asyncio.Event]] = {}
_digests_checked = 0.0


def wake() -> None:
    """Called after commit of a new delivery: every loop of this process looks now."""
    for loop, event in list(_wakers.values()):
        with contextlib.suppress(RuntimeError):  # that loop has closed
            loop.call_soon_threadsafe(event.set)


def _poll_seconds() -> float:
    return float(getattr(settings, "NOTIFY_POLL", 1.0))


def tick() -> tuple[int, float]:
    """Send what is due: how many deliveries ran, and how long to wait before looking again."""
    global _digests_checked
    close_old_connections()
    try:
        if time.monotonic() - _digests_checked > 60:
            _digests_checked = time.monotonic()
            actions.do_schedule_digests()
        ran = actions.do_run_due_deliveries()  # woken or due: take what is due at once
        if ran:
            return ran, 0.0
        return 0, actions.next_delivery_in(_poll_seconds()) or RACED
    finally:
        close_old_connections()


async def run_forever() -> None:
    loop = asyncio.get_running_loop()
    event = asyncio.Event()
    _wakers[id(loop)] = (loop, event)
    step = sync_to_async(tick, thread_sensitive=False)
    try:
        while True:
            try:
                ran, wait = await step()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("notifications: a tick failed; trying again")
                ran, wait = 0, 1.0
            if ran:
                continue
            event.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), timeout=wait)
    finally:
        _wakers.pop(id(loop), None)
