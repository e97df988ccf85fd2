"""The cyclic garbage collector, set for a long-running server (called once, by the ASGI
entry point, when the process has loaded what it serves with).

A full collection walks every object a process holds -- modules, templates, the
bounded caches of rendered boards: a few hundred thousand -- and with Python's default
thresholds it runs every few seconds under load, holding the GIL for tens to hundreds
of milliseconds: every page of every table in the process waits, and those waits are
the slowest moves' latency. What the process loaded to start is never garbage, so it
is frozen out of those walks, and young objects (a board's context, a table just read)
get more allocations to die young before they are promoted into the generations that
full walks cover. ``benchmarks.load`` measures it (``--env STOPBUS_GC_TUNING=false``
runs the servers with Python's defaults); README, Performance, has the figures.
"""

from __future__ import annotations

import gc

from django.conf import settings

_settled = False


def settle() -> bool:
    """Freeze what is loaded and raise the collector's thresholds, once per process,
    unless ``STOPBUS_GC_TUNING`` is off. Returns whether it did."""
    global _settled
    if _settled or not getattr(settings, "STOPBUS_GC_TUNING", True):
        return False
    _settled = True
    gc.collect()
    gc.freeze()
    gc.set_threshold(*settings.STOPBUS_GC_THRESHOLDS)
    return True
