"""A player that plays through the table page's websocket, reading only the HTML it gets.

It sees what a browser sees (the board fragments), finds the forms it may use
(``swap-form``, ``stop-form``, ``draw-form`` ...) and sends what htmx would send
for them. It reconnects after a drop, as the page does, and counts what happens.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import time
from dataclasses import dataclass, field

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

from games.regions import apply, is_board

VERSION = re.compile(r'id="status"[^>]*data-version="(\d*)"')
# the ready form offers a button until this seat is ready (then it only says it waits);
# read by its markup, not its words or classes, which the page's look may change
READY = re.compile(r'name="kind" value="ready">\s*<button type="submit"')
FORMS = ("swap-form", "stop-form", "pass-form", "draw-form", "take-form", "discard-form",
         "dealer-form")


def form_cards(html: str, name: str, form: str) -> list[str]:
    return re.findall(rf'name="{name}" value="([^"]+)" form="{form}"', html)


@dataclass
class Board:
    """What a frame says, as far as a player needs."""

    version: int | None
    forms: set[str]
    ready: bool
    over: bool
    html: str

    @classmethod
    def parse(cls, html: str) -> Board | None:
        match = VERSION.search(html)
        if match is None:
            return None
        version = int(match.group(1)) if match.group(1) else None
        forms = {f for f in FORMS if f'id="{f}"' in html}
        return cls(version, forms, READY.search(html) is not None,
                   'class="standings__list"' in html, html)


class Page:
    """The board a browser shows, kept from the frames as htmx applies them: a whole
    board, then the regions that changed."""

    def __init__(self):
        self.html = ""

    def board(self, frame: str) -> Board | None:
        """The board after ``frame``; None if the frame carries no board."""
        if not is_board(frame):
            return None
        self.html = apply(self.html, frame)
        return Board.parse(self.html)


def choose(board: Board, rng: random.Random, stop_chance: float = 0.3) -> dict | None:
    """A legal move from the forms on the board, or None if it is not our turn."""
    html, forms = board.html, board.forms
    if "dealer-form" in forms:
        return {"kind": "dealer_swap"}
    if "discard-form" in forms:
        return {"kind": "discard", "give": rng.choice(form_cards(html, "give", "discard-form"))}
    if "stop-form" in forms and rng.random() < stop_chance:
        return {"kind": "stop"}
    if "swap-form" in forms:
        give = form_cards(html, "give", "swap-form")
        take = form_cards(html, "take", "swap-form")
        return {"kind": "swap", "give": rng.choice(give), "take": rng.choice(take)}
    return stock_move(forms, rng)


def stock_move(forms, rng: random.Random) -> dict | None:
    """With no swap to make: take the discard now and then, else draw, pass or stop,
    whichever the board offers."""
    if "take-form" in forms and rng.random() < 0.3:
        return {"kind": "take_discard"}
    if "draw-form" in forms:
        return {"kind": "draw"}
    if "pass-form" in forms:
        return {"kind": "pass"}
    if "stop-form" in forms:
        return {"kind": "stop"}
    return None


@dataclass
class Stats:
    frames: int = 0
    bytes: int = 0
    moves: int = 0
    refusals: list[str] = field(default_factory=list)
    reconnects: list[float] = field(default_factory=list)  # seconds from drop to new view
    errors: list[str] = field(default_factory=list)


class Player:
    """Plays one seat until the game is over (or ``stop`` is set)."""

    def __init__(self, ws_url: str, table_id: int, cookie: str, origin: str, *,
                 seed: int = 0, think: float = 0.0, stop_chance: float = 0.3,
                 on_frame=None, on_send=None, ready: bool = True, play: bool = True,
                 retry_for: float = 60.0):
        self.url = f"{ws_url}/ws/table/{table_id}/"
        self.cookie = cookie
        self.origin = origin
        self.rng = random.Random(seed)
        self.think = think
        self.stop_chance = stop_chance
        self.on_frame = on_frame
        self.on_send = on_send
        self.ready = ready
        self.play = play
        self.retry_for = retry_for
        self.stats = Stats()
        self.board: Board | None = None
        self.page = Page()
        self.over = False
        self.stop = asyncio.Event()
        self._sent_for: int | None = None

    async def run(self) -> Stats:
        dropped_at = None
        while not self.over and not self.stop.is_set():
            try:
                async with connect(self.url, origin=self.origin,
                                   additional_headers={"Cookie": self.cookie},
                                   open_timeout=10, max_size=2**22) as ws:
                    first = True
                    async for frame in ws:
                        if first and dropped_at is not None:
                            self.stats.reconnects.append(time.monotonic() - dropped_at)
                            dropped_at = None
                        first = False
                        await self._frame(ws, frame)
                        if self.over or self.stop.is_set():
                            break
                if not self.over and not self.stop.is_set():
                    # the server closed cleanly (a restart): back off as after a drop
                    if dropped_at is None:
                        dropped_at = time.monotonic()
                    self._sent_for = None
                    await asyncio.sleep(0.2 + self.rng.random() * 0.3)
            except (TimeoutError, ConnectionClosed, OSError, InvalidHandshake,
                    InvalidStatus) as exc:
                if isinstance(exc, InvalidStatus) and exc.response.status_code in (403, 404):
                    self.stats.errors.append(f"refused: {exc}")
                    return self.stats
                if dropped_at is None:
                    dropped_at = time.monotonic()
                if time.monotonic() - dropped_at > self.retry_for:
                    self.stats.errors.append(f"gave up reconnecting: {exc!r}")
                    return self.stats
                self._sent_for = None
                await asyncio.sleep(0.2 + self.rng.random() * 0.3)
        return self.stats

    async def _frame(self, ws, frame: str) -> None:
        self.stats.frames += 1
        self.stats.bytes += len(frame)
        if 'id="notice"' in frame and "notice--error" in frame:
            text = re.sub(r"<[^>]+>", "", frame).strip()
            self.stats.refusals.append(text[:160])
            self._sent_for = None  # refused: look again at the next board
        board = self.page.board(frame)
        if board is None:
            return
        self.board = board
        if self.on_frame is not None:
            self.on_frame(self, board)
        if board.over:
            self.over = True
            return
        if board.ready and self.ready and self._sent_for != ("ready", board.version):
            self._sent_for = ("ready", board.version)
            await ws.send(json.dumps({"kind": "ready"}))
            return
        if not self.play or board.version is None or self._sent_for == board.version:
            return
        move = choose(board, self.rng, self.stop_chance)
        if move is None:
            return
        if self.think:
            await asyncio.sleep(self.think)
        self._sent_for = board.version
        if self.on_send is not None:
            self.on_send(self, board.version)
        await ws.send(json.dumps({**move, "version": board.version}))
        self.stats.moves += 1
