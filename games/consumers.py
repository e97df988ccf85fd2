"""Websocket consumers: thin. Check who is asking, parse the frame, call
``games.actions``, and render *this* viewer's board.

A table's channel group only ever carries "something changed" (with the new
version); each consumer then renders its own viewer's view. A rendered board is
never sent to a group, because it would show one player's hand to everybody.

Frames come from htmx's websocket extension: a JSON object of the form's fields
(plus htmx's ``HEADERS``, ignored). Anything else gets a clear message back and
changes nothing.
"""

from __future__ import annotations

import gc
import json
import logging
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer as ChannelsWebsocketConsumer
from django.conf import settings
from django.db import connection
from django.template.loader import render_to_string

from . import actions, presence
from .access import may_watch
from .board import board_for, load_table, recent_chat
from .engine.game import ACTION_KINDS, NEXT_HAND
from .models import ChatMessage, Game, Table

try:  # what daphne raises when a frame is sent on a socket that has just closed
    from autobahn.exception import Disconnected as SocketGone
except ImportError:  # served by something else than daphne

    class SocketGone(Exception):
        pass

log = logging.getLogger(__name__)

MAX_FRAME = 4096
CLOSE_UNAUTHENTICATED = 4401
CLOSE_FORBIDDEN = 4403
CLOSE_NOT_FOUND = 4404


class RateLimit:
    """A token bucket: ``rate`` frames a second, bursts up to ``burst``."""

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


_executor: ThreadPoolExecutor | None = None
_executor_lock = threading.Lock()


def _db_threads() -> int:
    """Threads for database work: 0 without a connection pool (SQLite)."""
    pool = settings.DATABASES["default"].get("OPTIONS", {}).get("pool")
    if not pool:
        return 0
    size = pool.get("max_size", 10) if isinstance(pool, dict) else 10
    return getattr(settings, "STOPBUS_DB_THREADS", 0) or max(1, min(8, size - 2))


_memory_settled = False


def settle_memory() -> None:
    """Once per process, when it starts serving websockets: tune the cyclic collector.

    A full collection walks every object the process holds -- modules, templates,
    caches: a few hundred thousand -- and under load it ran every few seconds,
    stopping every thread for 100-300 ms each time (the slowest moves' latency).
    What the process loaded to start is never garbage, so it is frozen out of those
    walks, and young objects (a board's context, a table just read) get the time to
    die young instead of being promoted into the generations the walks cover.
    """
    global _memory_settled
    if _memory_settled:
        return
    _memory_settled = True
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 20, 20)


def in_db_thread(fn):
    """``fn`` as a coroutine that runs it with a database connection.

    Channels' default runs every consumer's database work in one thread per
    process, so a process waits for one query at a time. With a connection pool
    (PostgreSQL) several threads share the pool instead; each call is its own
    transaction, and what the calls share in memory (``board``, ``actions``
    caches) has its locks. Without a pool, the default.
    """
    global _executor
    threads = _db_threads()
    if not threads:
        return database_sync_to_async(fn)
    if _executor is None:
        with _executor_lock:
            if _executor is None:
                _executor = ThreadPoolExecutor(threads, thread_name_prefix="db")
    return database_sync_to_async(fn, thread_sensitive=False, executor=_executor)


class AsyncWebsocketConsumer(ChannelsWebsocketConsumer):
    """Channels' consumer, without a thread hop on every message.

    Channels' ``dispatch`` closes stale database connections before each handler,
    by running ``close_old_connections`` in the process's one thread-sensitive
    thread: every frame and group message of every connection in the process
    queues for that thread, whether or not its handler touches the database.
    Here no handler queries on the event loop; all database work goes through
    ``in_db_thread`` (``database_sync_to_async``), which closes stale
    connections before and after each call in the thread that uses them.
    """

    async def dispatch(self, message):
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def send(self, text_data=None, bytes_data=None, close=False):
        """Send, unless the page has gone meanwhile: a board rendered while its socket
        closed is dropped here (the disconnect is already on its way to this consumer),
        not raised through daphne as an application error."""
        try:
            await super().send(text_data=text_data, bytes_data=bytes_data, close=close)
        except SocketGone:
            log.debug("socket of %s closed before a frame could be sent",
                      getattr(self, "user", None))


def _notice(message: str, level: str = "error") -> str:
    return render_to_string("games/_notice.html", {"message": message, "level": level})


def _cards(value) -> list[str]:
    if value is None or value == "":
        return []
    if isinstance(value, str):
        return [value]
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return value
    raise ValueError("cards must be codes")


def action_from_frame(data: dict) -> tuple[dict, int | None]:
    """The engine action and the version a frame names. Raises ValueError in words."""
    kind = data.get("kind")
    if kind not in ACTION_KINDS or kind == NEXT_HAND:
        raise ValueError(f"Unknown action {str(kind)[:30]!r}.")
    raw_version = data.get("version")
    try:
        version = int(raw_version)
    except (TypeError, ValueError, OverflowError):  # Overflow: JSON's Infinity
        raise ValueError("The message does not say which version of the game it was "
                         "made for.") from None
    action: dict = {"kind": kind}
    try:
        for key in ("give", "take"):
            cards = _cards(data.get(key))
            if cards:
                action[key] = cards
        positions = data.get("positions")
        if positions not in (None, ""):
            values = positions if isinstance(positions, list) else [positions]
            action["positions"] = [int(p) for p in values]
    except (TypeError, ValueError, OverflowError):
        raise ValueError("The cards in that message are not valid.") from None
    if data.get("stop") in (True, "on", "true", "1"):
        action["stop"] = True
    return action, version


_FINGERPRINT_SQL = (
    f"SELECT g.id, g.version, g.ready, t.updated_at FROM {Game._meta.db_table} g "  # noqa: S608
    f"JOIN {Table._meta.db_table} t ON t.id = g.table_id "  # names from the models
    "WHERE g.table_id = %s ORDER BY g.number DESC LIMIT 1")

# A ping on PostgreSQL: presence's two updates (``presence.seen``) and the fingerprint
# in one statement. Every open page pings twice a minute, so with thousands of them
# this is most of what an idle room costs. (The SELECT reads the rows as they were
# before the updates, which change neither the game nor ``updated_at``.)
_PING_SQL = f"WITH {presence.SEEN_CTE} {_FINGERPRINT_SQL}"


def _fingerprint(table_id: int, seen_channel: str | None = None) -> tuple | None:
    """(game, version, ready, table's updated_at) of the table's current game, as
    ``_board_html`` notes what it showed. ``seen_channel``: also note a ping from
    that connection (``presence.seen``)."""
    if connection.vendor != "postgresql":
        if seen_channel is not None:
            presence.seen(seen_channel, table_id)
        return (Game.objects.filter(table_id=table_id).order_by("-number")
                .values_list("pk", "version", "ready", "table__updated_at").first())
    with connection.cursor() as cursor:  # the ORM's share of this small query is most of it
        if seen_channel is None:
            cursor.execute(_FINGERPRINT_SQL, [table_id])
        else:
            cursor.execute(_PING_SQL, [*presence.seen_params(seen_channel, table_id),
                                       table_id])
        row = cursor.fetchone()
    if row is None:
        return None
    ready = json.loads(row[2]) if isinstance(row[2], str) else row[2]
    return (row[0], row[1], ready, row[3])


class TableConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        settle_memory()
        self.user = self.scope.get("user")
        self.table_id = self.scope["url_route"]["kwargs"]["table_id"]
        if self.user is None or not self.user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        session = self.scope.get("session") or {}
        allowed = await in_db_thread(may_watch)(
            self.table_id, self.user, list(session.get("invites", [])))
        if allowed is None:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        if not allowed:
            await self.close(code=CLOSE_FORBIDDEN)
            return
        self.group = f"table-{self.table_id}"
        self.rate = RateLimit(getattr(settings, "STOPBUS_WS_RATE", 8.0),
                              getattr(settings, "STOPBUS_WS_BURST", 16))
        self.last_rendered = None
        self.fingerprint = None
        self.playing = None  # (game id, engine seat) as last shown to this viewer
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        html = await in_db_thread(self._arrive)()
        if html:
            await self.send(text_data=html)
        # A change whose announcement was lost (its server died between commit and
        # group_send, or Redis was down) would leave the others behind until their next
        # ping; a page (re)connecting is the moment to tell them. Viewers whose board
        # did not change send nothing.
        await self.channel_layer.group_send(self.group, {
            "type": "table.changed", "version": None, "stamp": uuid.uuid4().hex})

    def _arrive(self) -> str:
        presence.arrive(self.table_id, self.user, self.channel_name)
        # chat lines sent while this page was away (or lost in a reconnect) come back too
        chat = render_to_string("games/_chat_list.html",
                                {"chat": recent_chat(Table.objects.get(pk=self.table_id))})
        return self._board_html(False, None) + chat

    async def disconnect(self, code):
        group = getattr(self, "group", None)
        if group:
            await self.channel_layer.group_discard(group, self.channel_name)
            await in_db_thread(presence.leave)(self.table_id, self.channel_name)

    # -- from the client -------------------------------------------------------------------------

    async def receive(self, text_data=None, bytes_data=None):
        if text_data is None:
            await self.send(text_data=_notice("Send text frames only."))
            return
        if len(text_data) > MAX_FRAME:
            await self.send(text_data=_notice(f"That message is too large (the limit is "
                                              f"{MAX_FRAME} characters)."))
            return
        if not self.rate.allow():
            await self.send(text_data=_notice("You are sending messages too fast; wait a "
                                              "moment."))
            return
        try:
            data = json.loads(text_data)
        except (ValueError, RecursionError):  # RecursionError: nesting a thousand deep
            await self.send(text_data=_notice("That message is not valid JSON."))
            return
        if not isinstance(data, dict):
            await self.send(text_data=_notice("A message must be a JSON object."))
            return
        kind = data.get("kind")
        handler = {
            "chat": self.on_chat,
            "ready": self.on_ready,
            "back": self.on_back,
            "sync": self.on_sync,
            "ping": self.on_ping,
        }.get(kind, self.on_action) if isinstance(kind, str) else self.on_action
        try:
            await handler(data)
        except actions.Refused as exc:
            await self.send(text_data=_notice(exc.message))
            if exc.code == "stale":
                await self.send_board(force=True)
        except Exception:
            # Whatever a frame does, the connection survives it: a crashed consumer would
            # never leave its group, and the page would lose its view.
            log.exception("frame from %s at table %s failed", self.user, self.table_id)
            await self.send(text_data=_notice("Something went wrong with that message; "
                                              "nothing was changed."))

    async def on_action(self, data):
        try:
            action, version = action_from_frame(data)
        except ValueError as exc:
            await self.send(text_data=_notice(str(exc)))
            return
        await in_db_thread(self._play)(action, version)

    def _play(self, action: dict, version: int) -> None:
        # the game and seat of the last board this viewer was sent: a move is made on it
        # (``play`` refuses it if that game or version is no longer current)
        if self.playing is not None:
            game_id, seat = self.playing
        else:
            game = Game.objects.filter(table_id=self.table_id).order_by("-number").first()
            if game is None:
                raise actions.Refused("no_game", "The game has not started yet.")
            game_id, seat = game.pk, actions.seat_of_player(game, self.user)
        if seat is None:
            raise actions.Refused("spectator", "You are watching this table: only its "
                                  "players can play.")
        actions.play(game_id, seat, action, version)

    async def on_chat(self, data):
        text = data.get("text")
        if not isinstance(text, str):
            await self.send(text_data=_notice("Write a message first."))
            return
        await in_db_thread(self._chat)(text)

    def _chat(self, text: str) -> None:
        table = Table.objects.get(pk=self.table_id)
        actions.post_chat(table, self.user, text)

    async def on_ready(self, data):
        await in_db_thread(self._ready)()

    def _ready(self) -> None:
        game = Game.objects.filter(table_id=self.table_id).order_by("-number").first()
        seat = actions.seat_of_player(game, self.user) if game else None
        if seat is None:
            raise actions.Refused("spectator", "Only players deal the next hand.")
        actions.mark_ready(game.pk, seat)

    async def on_back(self, data):
        await in_db_thread(self._back)()

    def _back(self) -> None:
        game = Game.objects.filter(table_id=self.table_id).order_by("-number").first()
        if game is None:
            raise actions.Refused("no_game", "The game has not started yet.")
        actions.take_seat_back(game, self.user)

    async def on_sync(self, data):
        await self.send_board(force=True)

    async def on_ping(self, data):
        """Every ~25 s from the page: still here. Also heals a lost group membership
        (say Redis restarted) and catches up on anything missed meanwhile."""
        await self.channel_layer.group_add(self.group, self.channel_name)
        html = await in_db_thread(self._ping)()
        if html:
            await self.send(text_data=html)

    def _ping(self) -> str:
        # one small statement notes the ping and says whether anything was missed;
        # only then read the table
        now = _fingerprint(self.table_id, seen_channel=self.channel_name)
        if self.fingerprint is not None and now == self.fingerprint:
            return ""
        return self._board_html(False, None)

    # -- from the group --------------------------------------------------------------------------

    async def table_changed(self, event):
        await self.send_board(stamp=event.get("stamp"), game_only=event.get("game_only", False))

    async def watch_revoked(self, event):
        await self.send(text_data=_notice("The players have closed this table to "
                                          "spectators."))
        await self.close(code=CLOSE_FORBIDDEN)

    async def chat_message(self, event):
        html = await in_db_thread(self._chat_html)(event["id"])
        if html:
            await self.send(text_data=html)

    def _chat_html(self, message_id: int) -> str:
        message = ChatMessage.objects.select_related("user").filter(pk=message_id).first()
        if message is None:
            return ""
        return render_to_string("games/_chat_append.html", {"message": message})

    async def send_board(self, force: bool = False, stamp: str | None = None,
                         game_only: bool = False):
        html = await in_db_thread(self._board_html)(force, stamp, game_only)
        if html:
            await self.send(text_data=html)

    def _board_html(self, force: bool, stamp: str | None, game_only: bool = False) -> str:
        data = load_table(self.table_id, stamp, game_only)
        game = data.game
        key = (game.pk if game else None, data.state.version if data.state else None,
               data.table.updated_at, tuple(
                   (s.position, s.user_id, s.bot_level, s.away) for s in data.seats),
               tuple(game.ready) if game else (), len(data.spectators))
        last = self.last_rendered
        if not force and (key == last or (
                last is not None and key[0] == last[0] and key[1] is not None
                and last[1] is not None and key[1] < last[1])):
            return ""  # nothing new; or news of a change older than the board shown
        self.last_rendered = key
        context = board_for(data, self.user)
        if game is not None:
            self.fingerprint = (game.pk, game.version, list(game.ready or ()),
                                data.table.updated_at)
            playing = game.status == Game.Status.PLAYING
            self.playing = (game.pk, context["me"]) if playing else None
        else:
            self.fingerprint = self.playing = None
        return render_to_string("games/_board.html", context)


class LobbyConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        self.user = self.scope.get("user")
        await self.channel_layer.group_add(actions.LOBBY_GROUP, self.channel_name)
        await self.accept()

    async def disconnect(self, code):
        await self.channel_layer.group_discard(actions.LOBBY_GROUP, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        await self.send(text_data=_notice("The lobby only listens."))

    async def lobby_changed(self, event):
        html = await database_sync_to_async(self._lobby_html)()
        await self.send(text_data=html)

    def _lobby_html(self) -> str:
        from .views import lobby_tables

        return render_to_string("games/_lobby_tables.html",
                                {"tables": lobby_tables(self.user), "user": self.user})


class NoSuchSocket(AsyncWebsocketConsumer):
    """Any other websocket path: refused quietly (4404) instead of a traceback per try."""

    async def connect(self):
        await self.close(code=CLOSE_NOT_FOUND)
