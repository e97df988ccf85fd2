"""A small bounded cache for what is read or rendered once and shown to many.

Each cache is keyed by exactly what its value depends on (a table's revision, a game's
event, the viewer's view and language), holds at most ``size`` values, least recently
used first out, and computes a missing value once however many threads ask at once.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable


class Once:
    """A bounded cache that computes each missing key once, however many threads ask."""

    def __init__(self, size: int):
        self.size = size
        self.items: OrderedDict = OrderedDict()
        self.making: dict = {}
        self.lock = threading.Lock()

    def get(self, key, make: Callable):
        with self.lock:
            if key in self.items:
                self.items.move_to_end(key)
                return self.items[key]
            gate = self.making.get(key)
            mine = gate is None
            if mine:
                gate = self.making[key] = threading.Lock()
                gate.acquire()
        if not mine:
            with gate:  # the first asker is making it: wait for that
                pass
            with self.lock:
                if key in self.items:
                    return self.items[key]
            return make()  # the first asker failed; this one tries for itself
        try:
            value = make()
            with self.lock:
                self.items[key] = value
                while len(self.items) > self.size:
                    self.items.popitem(last=False)
            return value
        finally:
            with self.lock:
                self.making.pop(key, None)
            gate.release()

    def clear(self) -> None:
        with self.lock:
            self.items.clear()
