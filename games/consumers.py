"""Websocket consumers, thin: check who is asking, parse the frame (``games.frames``),
call one action (``games.actions``) and send what ``games.render`` hands back.

A table's channel group only ever carries "something changed" (with the new
version and a stamp); each page then sends its own viewer the regions of that
viewer's board that changed. A rendered board is never sent to a group, because
it would show one player's hand to everybody.

Everything a socket sends (boards, notices, refusals) speaks its reader's
language, as their pages do: each message a socket handles is handled with that
language active (``Socket.dispatch``).
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from importlib import import_module

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.db.models import Subquery
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.crypto import constant_time_compare
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.language import socket_language

from . import actions, ratelimit, render
from .access import may_watch
from .board import recent_chat
from .frames import BadFrame, parse
from .kinds import kind_for
from .models import ChatMessage, Game, Table, Variant

try:  # what daphne raises when a frame is sent on a socket that has just closed
    from autobahn.exception import Disconnected as SocketGone
except ImportError:  # served by something else than daphne

    class SocketGone(Exception):
        pass

log = logging.getLogger(__name__)

CLOSE_UNAUTHENTICATED = 4401
CLOSE_FORBIDDEN = 4403
CLOSE_NOT_FOUND = 4404
CLOSE_TOO_MANY = 4429
BUSY = gettext_lazy("The table is busy, try again in a moment; your move was not played.")
TOO_MANY_RELOADS = gettext_lazy("Too many reloads; wait a minute.")
SIGNED_OUT = gettext_lazy("You were signed out; sign in again to go on.")
CLOSE_REASON_BYTES = 123  # what a websocket close frame may carry
# frames a page may have waiting to be handled: past that it is sending faster than its
# moves can be played, and is told so (its rate limit lets a burst of 16 through)
INBOX = 8


def _setting(name: str, default):
    return getattr(settings, name, default)


DB_THREADS = 3  # threads for a process's database work (with a pool); see ``db``
_executor: ThreadPoolExecutor | None = None
_executor_lock = threading.Lock()


def db(fn):
    """``fn`` as a coroutine that runs it in a thread with a database connection.

    Channels runs all of a process's database work in one thread by default, one query
    at a time: measured, a few hundred pages connecting at once then wait tens of
    seconds for their handshakes (``benchmarks.load``, README). With a connection
    pool (PostgreSQL) a few threads share it; without one (SQLite), the default.

    A few, not many: rendering a board is Python holding the GIL, and every thread
    doing it delays the event loop that reads and writes every socket of the process.
    Measured on two cores (README, Performance), 2 or 3 threads bring a move to every
    page sooner and for less CPU than 8 (``STOPBUS_DB_THREADS`` sets another number).
    """
    pool = settings.DATABASES["default"].get("OPTIONS", {}).get("pool")
    if not pool:
        return database_sync_to_async(fn)
    global _executor
    if _executor is None:
        with _executor_lock:
            if _executor is None:
                size = pool.get("max_size", 10) if isinstance(pool, dict) else 10
                threads = _setting("STOPBUS_DB_THREADS", 0) or max(1, min(DB_THREADS, size - 2))
                _executor = ThreadPoolExecutor(threads, thread_name_prefix="db")
    return database_sync_to_async(fn, thread_sensitive=False, executor=_executor)


def notice(message: str, level: str = "error") -> str:
    return render_to_string("games/_notice.html", {"message": message, "level": level})


def close_reason(text: str, english: str) -> str:
    """``text`` if a close frame can carry it, else its English (``english``)."""
    return text if len(text.encode()) <= CLOSE_REASON_BYTES else english


def session_is_valid(session, user) -> bool:
    """Is the session this socket opened with still the user's, signed in and current?
    (Logging out deletes it; a password change or reset changes the user's hash.)

    Asked before every action a socket takes: with sessions in the database (the
    default), the user's row and the session's data come back in one query."""
    key = getattr(session, "session_key", None)
    if not key or not getattr(user, "is_authenticated", False):
        return False
    store = import_module(settings.SESSION_ENGINE).SessionStore(session_key=key)
    users = get_user_model().objects.filter(pk=user.pk, is_active=True)
    if hasattr(store, "get_model_class"):  # database-backed sessions
        live = store.get_model_class().objects.filter(session_key=key,
                                                      expire_date__gt=timezone.now())
        fresh = users.annotate(open_session=Subquery(live.values("session_data")[:1])).first()
        data = store.decode(fresh.open_session) if fresh and fresh.open_session else {}
    else:
        data = store.load()  # {} once deleted or expired
        fresh = users.first() if data else None
    if fresh is None or str(data.get(SESSION_KEY)) != str(user.pk):
        return False
    return constant_time_compare(data.get(HASH_SESSION_KEY, ""), fresh.get_session_auth_hash())


class Socket(AsyncWebsocketConsumer):
    """What both sockets share: who holds them (capped), and closing them on logout."""

    holder: str | None = None
    language: str | None = None

    async def dispatch(self, message):
        """Handle ``message`` in the language of the page's reader: whatever is rendered or
        refused meanwhile (in the database threads too, and in the tasks started here)
        speaks it."""
        if self.language is None:
            self.language = socket_language(self.scope)
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']!r}")
        # Channels' own dispatch first hands every message to the process's one
        # synchronous thread to close stale database connections: a thread hand-off per
        # frame and per change told, queued behind every other. Every database call here
        # goes through ``database_sync_to_async`` (``db``), which closes them before and
        # after its own work, so the handler is called directly.
        with translation.override(self.language):
            await handler(message)

    async def hold(self, holder: str, limit: int) -> bool:
        """Count this socket for ``holder``; refuse it (closed, with a reason) past ``limit``."""
        if not ratelimit.socket_opened(holder, self.channel_name, limit):
            await self.close(code=CLOSE_TOO_MANY, reason=close_reason(
                _("Too many open pages (at most %(limit)d); close some.") % {"limit": limit},
                f"Too many open pages (at most {limit}); close some."))
            return False
        self.holder = holder
        return True

    async def release(self) -> None:
        if self.holder is not None:
            ratelimit.socket_closed(self.holder, self.channel_name)
            self.holder = None

    async def follow_user(self) -> None:
        if getattr(self.user, "is_authenticated", False):
            await self.channel_layer.group_add(actions.user_group(self.user.pk),
                                               self.channel_name)

    async def unfollow_user(self) -> None:
        if getattr(self.user, "is_authenticated", False):
            await self.channel_layer.group_discard(actions.user_group(self.user.pk),
                                                   self.channel_name)

    async def session_ended(self, event):
        """The user logged out, changed their password or was deactivated."""
        await self.send(text_data=notice(str(SIGNED_OUT)))
        await self.close(code=CLOSE_UNAUTHENTICATED)

    async def send(self, text_data=None, bytes_data=None, close=False):
        """Send, unless the page has gone meanwhile (its disconnect is on its way)."""
        try:
            await super().send(text_data=text_data, bytes_data=bytes_data, close=close)
        except SocketGone:
            log.debug("socket of %s closed before a frame could be sent",
                      getattr(self, "user", None))


class TableConsumer(Socket):
    async def connect(self):
        self.user = self.scope.get("user")
        self.table_id = self.scope["url_route"]["kwargs"]["table_id"]
        self.sent: render.Board | None = None  # the board this page shows
        # one update of this page at a time (each is compared with ``self.sent``); a change
        # told of while one is under way waits, and a newer one takes its place
        self.showing = asyncio.Lock()
        self.waiting: tuple | None = None  # (stamp,) of the newest change not yet shown
        self.catching_up: asyncio.Task | None = None
        self.inbox: deque = deque()  # frames from the page still to handle, oldest first
        self.working: asyncio.Task | None = None  # handling them
        self.counted_at = time.monotonic()  # when ratelimit last heard this socket is open
        self.written: float | None = None  # when this page's presence was last written
        self.bucket = ratelimit.Bucket(_setting("STOPBUS_WS_RATE", 8.0),
                                       _setting("STOPBUS_WS_BURST", 16))
        if self.user is None or not self.user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        session = self.scope.get("session") or {}
        allowed = await db(may_watch)(
            self.table_id, self.user, list(session.get("invites", [])))
        if allowed is None:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        if not allowed:
            await self.close(code=CLOSE_FORBIDDEN)
            return
        if not self._may_ask_for_a_board():
            await self.close(code=CLOSE_TOO_MANY, reason=close_reason(
                str(TOO_MANY_RELOADS), "Too many reloads; wait a minute."))
            return
        if not await self.hold(f"user:{self.user.pk}",
                               _setting("STOPBUS_SOCKETS_PER_USER", 12)):
            return
        # the frames this page may send are those of the table's game kind
        self.schema = await database_sync_to_async(self._schema)()
        self.group = f"table-{self.table_id}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.follow_user()
        await self.accept()
        async with self.showing:
            await self.send(text_data=await db(self._arrive)())

    def _schema(self):
        variant = Variant.objects.filter(tables__pk=self.table_id).only("game").first()
        return kind_for(variant).hook("frame_schema")

    def _arrive(self) -> str:
        actions.do_arrive(self.table_id, self.user, self.channel_name)
        self.written = time.monotonic()
        # chat lines sent while this page was away (or lost in a reconnect) come back too
        chat = render_to_string("games/_chat_list.html",
                                {"chat": recent_chat(Table(pk=self.table_id))})
        return self._update(None, full=True) + chat

    async def disconnect(self, code):
        await self.release()
        if getattr(self, "catching_up", None) is not None:
            self.catching_up.cancel()
        group = getattr(self, "group", None)
        if group:
            await self.channel_layer.group_discard(group, self.channel_name)
            await self.unfollow_user()
            await db(actions.do_depart)(self.table_id, self.channel_name)

    def _may_ask_for_a_board(self) -> bool:
        """Full boards (connecting, "sync") cost the most: a few a second per user,
        across all their sockets."""
        return ratelimit.allow(f"boards:{self.user.pk}",
                               _setting("STOPBUS_BOARDS_PER_MINUTE", 120), 60)

    # -- from the page ---------------------------------------------------------------------------

    async def receive(self, text_data=None, bytes_data=None):
        """A frame from the page: checked and answered at once if it is refused, else
        queued for :meth:`_work_through`, which handles this page's frames one at a time,
        in the order they came. The consumer itself never waits on a frame's work (a move,
        a ping's read): changes to show keep reaching the page meanwhile."""
        if not self.bucket.allow() or len(self.inbox) >= INBOX:
            await self.send(text_data=notice(_("You are sending messages too fast; wait a "
                                               "moment.")))
            return
        try:
            frame = parse(text_data, self.schema)
        except BadFrame as exc:
            await self.send(text_data=notice(str(exc)))
            return
        self.inbox.append(frame)
        if self.working is None or self.working.done():
            self.working = asyncio.create_task(self._work_through())

    async def _work_through(self) -> None:
        while self.inbox:
            frame = self.inbox.popleft()
            with translation.override(self.language):
                await self._handle(frame)

    async def _handle(self, frame) -> None:
        try:
            if frame.kind == "ping":
                if await db(self._ping)():
                    # changes that never reached this page: its group membership may be
                    # lost (say Redis restarted empty), so it joins again
                    await self.channel_layer.group_add(self.group, self.channel_name)
                    await self.follow_user()
                    await self.show(None)
            elif frame.kind == "sync":
                if not self._may_ask_for_a_board():
                    raise actions.Refused("boards", str(TOO_MANY_RELOADS))
                await self.show(None, full=True)
            else:
                with ratelimit.pending(self.table_id):
                    await db(self._act)(frame)
        except ratelimit.Busy:
            await self.send(text_data=notice(str(BUSY)))
        except actions.Refused as exc:
            await self.send(text_data=notice(exc.message))
            if exc.code == "stale":
                await self.show(None, full=True)
            elif exc.code == "signed_out":
                await self.close(code=CLOSE_UNAUTHENTICATED)
        except Exception:
            # Whatever a frame does, the connection survives it: a crashed consumer would
            # never leave its group, and the page would lose its view.
            log.exception("frame from %s at table %s failed", self.user, self.table_id)
            await self.send(text_data=notice(_("Something went wrong with that message; "
                                               "nothing was changed.")))

    def _act(self, frame) -> None:
        """One action for one frame, if this socket's session still holds."""
        if not session_is_valid(self.scope.get("session"), self.user):
            raise actions.Refused("signed_out", str(SIGNED_OUT))
        if frame.kind == "chat":
            actions.do_chat(Table.objects.get(pk=self.table_id), self.user, frame.text)
            return
        game = self._game()
        if frame.kind == "back":
            actions.do_take_seat_back(game, self.user)
            return
        if frame.kind == "ready":
            actions.do_ready(game.pk, actions.player_seat(game, self.user))
        else:
            actions.do_play(game.pk, None, frame.action, frame.version, player=self.user)

    def _game(self):
        # the game of the board this page shows: a move is made on it (``do_play``
        # refuses it if that game or version is no longer current)
        if self.sent is not None and self.sent.game_id is not None:
            return Game(pk=self.sent.game_id, table_id=self.table_id)
        game = actions.current_game(self.table_id)
        if game is None:
            raise actions.Refused("no_game", _("The game has not started yet."))
        return game

    def _ping(self) -> bool:
        """Every ~25 s from the page: still here. Has the table changed since the board
        this page was last sent? (One small query; an update already on its way makes it
        say yes too, and then brings nothing more.)"""
        self.written = actions.do_ping(self.channel_name, self.table_id, self.written)
        now = time.monotonic()
        if self.holder is not None and now - self.counted_at > ratelimit.SOCKET_STALE / 3:
            ratelimit.socket_seen(self.holder, self.channel_name)  # still open: still counted
            self.counted_at = now
        sent = self.sent
        return sent is None or sent.revision[1:6] != _fingerprint(self.table_id)

    # -- from the group --------------------------------------------------------------------------

    async def table_changed(self, event):
        """A change to show. The page is brought up to date in the background, one update
        at a time: changes told of meanwhile are not each rendered in turn -- the newest
        replaces the one waiting -- so a page that falls behind a busy table skips to its
        newest view, and the work per page stays bounded however fast the table moves."""
        self.waiting = (event.get("stamp"), event.get("at"))
        if self.catching_up is None or self.catching_up.done():
            # counted until this page is up to date, or gone (how far behind: ratelimit)
            ratelimit.updating(1)
            self.catching_up = asyncio.create_task(self._catch_up())
            self.catching_up.add_done_callback(lambda _: ratelimit.updating(-1))

    async def _catch_up(self) -> None:
        while self.waiting is not None:
            (stamp, committed), self.waiting = self.waiting, None
            try:
                await self.show(stamp)
            except Exception:
                log.exception("updating a page of %s at table %s failed", self.user,
                              self.table_id)
            if isinstance(committed, int | float):
                ratelimit.late(time.time() - committed)

    async def show(self, stamp: str | None, full: bool = False) -> None:
        """Bring this page up to date (after change ``stamp``, or as committed now)."""
        async with self.showing:
            await self.send_text(await db(self._update)(stamp, full))

    async def watch_revoked(self, event):
        await self.send(text_data=notice(_("The players have closed this table to "
                                           "spectators.")))
        await self.close(code=CLOSE_FORBIDDEN)

    async def chat_message(self, event):
        await self.send_text(await db(self._chat_html)(event["id"]))

    def _chat_html(self, message_id: int) -> str:
        message = ChatMessage.objects.select_related("user").filter(pk=message_id).first()
        if message is None:
            return ""
        return render_to_string("games/_chat_append.html", {"message": message})

    async def send_text(self, html: str) -> None:
        if html:
            await self.send(text_data=html)

    def _update(self, stamp: str | None, full: bool = False) -> str:
        """What this page needs to show the table as committed now (or after ``stamp``):
        the whole board, the regions that changed, or nothing."""
        data = render.table_data(self.table_id, stamp)
        sent = self.sent
        if (not full and sent is not None and data.game is not None
                and data.game.pk == sent.game_id and sent.version is not None
                and data.state.version < sent.version):
            return ""  # news of a change older than the board shown
        new = render.board(data, self.user, self.language)
        out = new.full if full else render.frame(sent, new)
        self.sent = new
        return out


def _fingerprint(table_id: int) -> tuple:
    """What a board's revision says of the table and its game, in one query."""
    row = (Game.objects.filter(table_id=table_id).order_by("-number")
           .values_list("table__updated_at", "table__status", "pk", "version", "ready")
           .first())
    if row is None:
        return ()
    return (*row[:4], tuple(row[4] or ()))


class LobbyConsumer(Socket):
    async def connect(self):
        self.user = self.scope.get("user")
        if getattr(self.user, "is_authenticated", False):
            holder, limit = f"user:{self.user.pk}", _setting("STOPBUS_SOCKETS_PER_USER", 12)
        else:
            client = self.scope.get("client") or ("?", 0)
            holder, limit = f"addr:{client[0]}", _setting("STOPBUS_LOBBY_SOCKETS_PER_ADDRESS", 8)
        if not await self.hold(holder, limit):
            return
        await self.channel_layer.group_add(actions.LOBBY_GROUP, self.channel_name)
        await self.follow_user()
        await self.accept()

    async def disconnect(self, code):
        await self.release()
        await self.channel_layer.group_discard(actions.LOBBY_GROUP, self.channel_name)
        await self.unfollow_user()

    async def receive(self, text_data=None, bytes_data=None):
        await self.send(text_data=notice(_("The lobby only listens.")))

    async def lobby_changed(self, event):
        html = await db(render.lobby)(self.user, event.get("stamp"))
        await self.send(text_data=html)


class NoSuchSocket(AsyncWebsocketConsumer):
    """Any other websocket path: refused quietly (4404) instead of a traceback per try."""

    async def connect(self):
        await self.close(code=CLOSE_NOT_FOUND)
