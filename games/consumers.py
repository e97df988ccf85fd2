"""Websocket consumers, thin: check who is asking, parse the frame (``games.frames``),
call one action (``games.actions``) and forward what the actions rendered.

A change is rendered once, by the action that made it (``games.actions.publish``):
the public board once per language, a seated player's own regions only when their
part changed. A table page listens on one audience group -- the public frames of its
language, or its own user's at that table -- and on the table's group (who may hear
the table, chat). On a change it checks the frame follows the board it shows and sends
the text it was handed: no query, no render. A page that missed a frame asks for its
whole board (one read, one render, for that page only).

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

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.client_address import limit_group, socket_client
from accounts.language import socket_language

from . import actions, presence, ratelimit, render
from .access import may_watch
from .actions import publish
from .board import recent_chat
from .frames import BadFrame, parse
from .kinds import kind_for
from .models import Game, Table
from .regions import FULL
from .signins import session_is_valid
from .turns import render_turns

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
BAD_FRAME = gettext_lazy("Something went wrong with that message; nothing was changed.")
CLOSED_TO_SPECTATORS = gettext_lazy("The players have closed this table to spectators.")
GAME_STARTED_CLOSED = gettext_lazy("The game has started and this table is not open to "
                                   "spectators.")
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

    # does this socket's page show the list of post tables (the lobby, /turns), or only
    # the navigation's count (a table's page: a swap aimed at no list is an htmx error)?
    shows_turn_list = True
    # the post table whose page this is (its bar's ways on follow the player's turns)
    post_table: int | None = None

    async def follow_user(self) -> None:
        if getattr(self.user, "is_authenticated", False):
            await self.channel_layer.group_add(actions.user_group(self.user.pk),
                                               self.channel_name)

    async def unfollow_user(self) -> None:
        if getattr(self.user, "is_authenticated", False):
            await self.channel_layer.group_discard(actions.user_group(self.user.pk),
                                                   self.channel_name)

    async def turns_changed(self, event):
        """The player's list of post tables changed (``games.actions.post``): the count in
        the navigation, and the list where the page shows it."""
        in_lobby = b"page=turns" not in (self.scope.get("query_string") or b"")
        html = await db(render_turns)(self.user, in_lobby, self.shows_turn_list,
                                      self.post_table)
        await self.send(text_data=html)

    # does this socket's page have the notice line (a table's page)? The lobby and /turns
    # have none: told their sign-in ended by the close alone, they load again, signed out
    # (static/js/site.js)
    shows_notices = False

    async def session_ended(self, event):
        """The user logged out, changed their password or was deactivated."""
        if self.shows_notices:
            await self.send(text_data=notice(str(SIGNED_OUT)))
        await self.close(code=CLOSE_UNAUTHENTICATED)

    async def notify_changed(self, event):
        """The player's notifications changed: the bell in the page's header shows the count."""
        await self.send(text_data=render_to_string("notify/_bell_count.html",
                                                   {"unread": int(event.get("unread") or 0),
                                                    "oob": True}))

    async def send(self, text_data=None, bytes_data=None, close=False):
        """Send, unless the page has gone meanwhile (its disconnect is on its way)."""
        try:
            await super().send(text_data=text_data, bytes_data=bytes_data, close=close)
        except SocketGone:
            log.debug("socket of %s closed before a frame could be sent",
                      getattr(self, "user", None))


class TableConsumer(Socket):
    """One table page. On a change it forwards the fragments the action rendered for its
    audience (``games.actions.publish``): no query, no render. Its own database work --
    arriving, a move, a board when it fell behind, the presence row once a minute --
    goes through :meth:`db_work`, one small bounded path."""

    shows_notices = True

    shows_turn_list = False

    async def connect(self):
        self.user = self.scope.get("user")
        self.table_id = self.scope["url_route"]["kwargs"]["table_id"]
        self.rev: str | None = None  # the revision of the board this page shows
        self.game_id: int | None = None  # its game
        self.audience: str | None = None  # the group its frames come on
        self.private = False  # does it show a board of its own (its user sits here)?
        self.waited = False  # was it opened while the table waited for its game?
        self.closed = False  # told to go: it hears nothing more
        self.fetching: asyncio.Task | None = None  # a whole board on its way
        self.held: list = []  # frames heard while it comes
        self.inbox: deque = deque()  # frames from the page still to handle, oldest first
        self.working: asyncio.Task | None = None  # handling them
        self.counted_at = time.monotonic()  # when ratelimit last heard this socket is open
        self.noted = time.monotonic()  # when this page's presence was last written
        self.visible = True
        self.bucket = ratelimit.Bucket(_setting("STOPBUS_WS_RATE", 8.0),
                                       _setting("STOPBUS_WS_BURST", 16))
        if self.user is None or not self.user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        session = self.scope.get("session") or {}
        allowed = await self.db_work(self._admit, list(session.get("invites", [])))
        if allowed == "signed out":
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
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
        self.schema = await self.db_work(self._schema)
        self.group = publish.table_group(self.table_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.follow_user()
        await self.accept()
        self.fetching = asyncio.current_task()
        try:
            # listening before the board is read: a change published meanwhile is heard
            # (and held), not missed until a ping
            await self._listen_to_both()
            html, board = await self.db_work(self._arrive)
            await self._shows(board)
            await self.send(text_data=html)
        finally:
            self.fetching = None
        await self._replay()

    def _schema(self):
        table = (Table.objects.select_related("variant").only("pace", "variant__game")
                 .filter(pk=self.table_id).first())
        variant = table.variant if table is not None else None
        if table is not None and table.is_post:
            self.post_table = self.table_id
        return kind_for(variant).hook("frame_schema")

    def _arrive(self):
        # noted first: the change announced on arriving keeps this page's regions
        presence.note_page(self.table_id, self.channel_name, self.user.pk, self.language,
                           self.visible)
        self.noted = time.monotonic()
        actions.do_arrive(self.table_id, self.user, self.channel_name)
        # chat lines sent while this page was away (or lost in a reconnect) come back too
        chat = render_to_string("games/_chat_list.html",
                                {"chat": recent_chat(Table(pk=self.table_id))})
        board = self._board()
        return board[0] + chat, board

    async def disconnect(self, code):
        await self.release()
        if getattr(self, "fetching", None) is not None and self.fetching is not (
                asyncio.current_task()):
            self.fetching.cancel()
        group = getattr(self, "group", None)
        if group:
            await self.channel_layer.group_discard(group, self.channel_name)
            await self._leave_audiences()
            await self.unfollow_user()
            presence.forget_page(self.table_id, self.channel_name, self.user.pk)
            await self.db_work(actions.do_depart, self.table_id, self.channel_name)

    def _may_ask_for_a_board(self) -> bool:
        """Full boards (connecting, "sync") cost the most: a few a second per user,
        across all their sockets."""
        return ratelimit.allow(f"boards:{self.user.pk}",
                               _setting("STOPBUS_BOARDS_PER_MINUTE", 120), 60)

    async def db_work(self, fn, *args):
        """The one way this consumer reaches the database: ``fn`` in a database thread,
        at most DB_THREADS at once per process (``db``)."""
        return await db(fn)(*args)

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
        except Exception:
            # a frame the checks missed must not take the socket down with it (its
            # disconnect would never run: its count, presence and groups left behind)
            log.exception("a frame from %s at table %s could not be read", self.user,
                          self.table_id)
            await self.send(text_data=notice(str(BAD_FRAME)))
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
                await self._ping(frame.visible)
            elif frame.kind == "sync":
                if not self._may_ask_for_a_board():
                    raise actions.Refused("boards", str(TOO_MANY_RELOADS))
                await self.fetch()
            else:
                with ratelimit.pending(self.table_id) as slot:
                    await self.db_work(self._act, frame, slot)
        except ratelimit.Busy:
            await self.send(text_data=notice(str(BUSY)))
        except actions.Refused as exc:
            await self.send(text_data=notice(exc.message))
            if exc.code == "stale":
                await self.fetch()
            elif exc.code == "signed_out":
                await self.close(code=CLOSE_UNAUTHENTICATED)
        except Exception:
            # Whatever a frame does, the connection survives it: a crashed consumer would
            # never leave its group, and the page would lose its view.
            log.exception("frame from %s at table %s failed", self.user, self.table_id)
            await self.send(text_data=notice(str(BAD_FRAME)))

    def _admit(self, invites: list[str]) -> bool | str | None:
        """May this socket open the table (``may_watch``), or is its sign-in over
        ("signed out")? The sign-in is checked first, and its answer kept for the page's
        first move (``games.signins``)."""
        if not session_is_valid(self.scope.get("session"), self.user):
            return "signed out"
        return may_watch(self.table_id, self.user, invites)

    def _act(self, frame, slot: ratelimit.pending) -> None:
        """One action for one frame, if this socket's session still holds."""
        slot.started()
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
        if self.game_id is not None:
            return Game(pk=self.game_id, table_id=self.table_id)
        game = actions.current_game(self.table_id)
        if game is None:
            raise actions.Refused("no_game", _("The game has not started yet."))
        return game

    async def _ping(self, visible: bool | None) -> None:
        """Every ~25 s from the page, and when it is shown or hidden: still here. No
        query unless this page's presence row is a minute old. The page's revision is
        compared with the table's in the cache (Redis): a page that missed changes (its
        group membership lost, say Redis restarted empty) joins its groups again and is
        sent its board."""
        now = time.monotonic()
        # the in-band check against Redis: if it forgot this page's record, it forgot its
        # group memberships too (say it restarted empty): the page joins again
        # (read with the table's revision: one cache read for a ping that finds nothing)
        noted, found = presence.noted_and(self.table_id, self.channel_name, self.user.pk,
                                          publish.rev_keys(self.table_id))
        forgotten = not noted
        if forgotten or (visible is not None and visible != self.visible):
            self.visible = self.visible if visible is None else visible
            presence.note_page(self.table_id, self.channel_name, self.user.pk,
                               self.language, self.visible)
        if now - self.noted >= actions.presence.PING_REFRESH.total_seconds():
            self.noted = now
            presence.note_page(self.table_id, self.channel_name, self.user.pk,
                               self.language, self.visible)
            await self.db_work(actions.do_ping, self.channel_name, self.table_id)
            found = None  # a moment has passed: the table's revision is read again
        if self.holder is not None and now - self.counted_at > ratelimit.SOCKET_STALE / 3:
            ratelimit.socket_seen(self.holder, self.channel_name)  # still open: still counted
            self.counted_at = now
        # a revision published a moment ago may have its frame on the way still
        current, published, wanted = publish.current_rev(self.table_id, found)
        if publish.left_over(published, wanted) and self.fetching is None:
            # a change nobody published (its process died in the pass): published now,
            # for every page of the table
            await self.db_work(publish.publish_left_over, self.table_id)
        if self.fetching is None and (forgotten or (
                current != self.rev and time.time() - published > publish.IN_FLIGHT)):
            await self.channel_layer.group_add(self.group, self.channel_name)
            await self.follow_user()
            if self.audience:
                await self.channel_layer.group_add(self.audience, self.channel_name)
            await self.fetch()

    # -- a whole board, for this page only ---------------------------------------------------

    def _board(self) -> tuple[str, str, bool, int | None, str]:
        """(the whole board as sent, its revision, is it the user's own, its game, the
        table's status): one read, one render."""
        data = render.table_data(self.table_id)
        own = publish.is_private(data, self.user.pk)
        board = render.board(data, self.user if own else None, self.language)
        rev = render.rev_of(data)
        cache.add(publish.rev_key(self.table_id), (rev, 0.0), publish.STATE_TTL)
        return board.full, rev, own, board.game_id, data.table.status

    def _audiences(self) -> tuple[str, str]:
        """The two groups this page's frames may come on: the public one of its language,
        and its own user's (while they sit at the table)."""
        return (publish.audience_group(self.table_id, None, self.language),
                publish.audience_group(self.table_id, self.user.pk, self.language))

    async def _listen_to_both(self) -> None:
        """Before a board is read: whichever audience it shows, the frames of a change
        published while it is read and sent reach this page (held until the board is
        sent; those of the other audience are dropped by their label)."""
        for group in self._audiences():
            await self.channel_layer.group_add(group, self.channel_name)

    async def _leave_audiences(self, keep: str | None = None) -> None:
        """Stop listening to this page's possible audiences (and the one it had), but
        ``keep``."""
        for group in {*self._audiences(), self.audience} - {keep, None}:
            await self.channel_layer.group_discard(group, self.channel_name)

    async def _shows(self, board) -> None:
        """This page now shows ``board`` (from :meth:`_board`): its group follows, and it
        stops listening to the other."""
        _, self.rev, private, self.game_id, status = board
        self.waited = self.waited or status == Table.Status.WAITING
        group = publish.audience_group(self.table_id, self.user.pk if private else None,
                                       self.language)
        await self._leave_audiences(keep=group)
        if group != self.audience:
            await self.channel_layer.group_add(group, self.channel_name)
        self.audience, self.private = group, private

    async def fetch(self) -> None:
        """Send this page its whole board (one read, one render); frames heard meanwhile
        are held and applied after it if they follow."""
        if self.fetching is not None and self.fetching is not asyncio.current_task():
            return
        self.fetching = asyncio.current_task()
        ratelimit.updating(1)
        try:
            await self._listen_to_both()
            board = await self.db_work(self._board)
            await self._shows(board)
            await self.send(text_data=board[0])
        finally:
            self.fetching = None
            ratelimit.updating(-1)
        await self._replay()

    async def _replay(self) -> None:
        """The frames heard while a board came: those that follow it are sent; older ones
        are dropped. If the newest of them does not end where the page now is, the page
        missed a change, and asks again."""
        held, self.held = self.held, []
        for event in held:
            if event.get("to") == self.rev:
                continue  # the board sent shows it already (a change published as it was read)
            if event.get("from") == self.rev or event.get("text", "").startswith(FULL):
                await self.table_frame(event)
        if held and held[-1].get("to") != self.rev:
            await self.fetch()

    # -- from the groups -------------------------------------------------------------------------

    async def table_frame(self, event):
        """Fragments the action rendered for this page's audience: sent as they are if they
        apply to the board this page shows; a page that missed one asks for its board."""
        if self.closed:
            return
        if self.fetching is not None:
            self.held.append(event)
            return
        mine = getattr(self, "audience", None)
        if mine is not None and event.get("audience", mine) != mine:
            # heard while the page still listened to its old audience (its user sat down
            # as the game began, say): another viewer's board, never this page's
            return
        text = event.get("text", "")
        if event.get("to") == self.rev:
            return  # the page shows it already (its board was read after the change)
        if event.get("from") == self.rev or text.startswith(FULL):
            if text:
                await self.send(text_data=text)
            self.rev = event["to"]
            if text.startswith(FULL):
                self.game_id = event.get("game")
            at = event.get("at")
            if isinstance(at, int | float):
                ratelimit.late(time.time() - at)
        elif event.get("to") != self.rev:
            self.held.append(event)  # applied after the board if it follows it
            self.fetching = asyncio.create_task(self.fetch())

    async def table_roster(self, event):
        """Who may hear the table now. A page no longer allowed closes, saying why; a page
        whose user sat down or left their seat moves to its new audience."""
        me = self.user.pk
        if me not in event.get("allowed", ()) and not event.get("open"):
            if self.waited and event.get("playing") and not event.get("spectators"):
                message = str(GAME_STARTED_CLOSED)
            else:
                message = str(CLOSED_TO_SPECTATORS)
            await self._leave_groups()
            await self.send(text_data=notice(message))
            await self.close(code=CLOSE_FORBIDDEN)
            return
        if (me in event.get("private", ())) != self.private:
            await self.fetch()

    async def _leave_groups(self) -> None:
        """Hear nothing more of the table (before closing: frames already queued for this
        socket are dropped, ``table_frame``)."""
        self.closed = True
        await self._leave_audiences()
        self.audience = None

    async def watch_revoked(self, event):
        await self._leave_groups()
        await self.send(text_data=notice(str(CLOSED_TO_SPECTATORS)))
        await self.close(code=CLOSE_FORBIDDEN)

    async def chat_message(self, event):
        await self.send_text(event.get("html", ""))

    async def send_text(self, html: str) -> None:
        if html:
            await self.send(text_data=html)


class LobbyConsumer(Socket):
    async def connect(self):
        self.user = self.scope.get("user")
        if getattr(self.user, "is_authenticated", False):
            holder, limit = f"user:{self.user.pk}", _setting("STOPBUS_SOCKETS_PER_USER", 12)
        else:
            # the visitor's address (behind a trusted proxy, the one it saw; every visitor
            # would otherwise share the proxy's budget)
            address = limit_group(socket_client(self.scope)) or "?"
            holder, limit = f"addr:{address}", _setting("STOPBUS_LOBBY_SOCKETS_PER_ADDRESS", 8)
        if not await self.hold(holder, limit):
            return
        self.told = ratelimit.Bucket(0.2, 3)  # answers to frames sent here (none should be)
        # /turns shows the player's list, not the lobby's tables: it hears only its user
        self.lobby = b"page=turns" not in (self.scope.get("query_string") or b"")
        if self.lobby:
            await self.channel_layer.group_add(actions.LOBBY_GROUP, self.channel_name)
        await self.follow_user()
        await self.accept()

    async def disconnect(self, code):
        await self.release()
        if getattr(self, "lobby", False):
            await self.channel_layer.group_discard(actions.LOBBY_GROUP, self.channel_name)
        await self.unfollow_user()

    async def receive(self, text_data=None, bytes_data=None):
        # a page of ours sends nothing here: a few frames are told so, a flood is dropped
        if self.told.allow():
            await self.send(text_data=notice(_("The lobby only listens.")))

    async def lobby_changed(self, event):
        html = await db(render.lobby)(self.user, event.get("stamp"))
        await self.send(text_data=html)


class NoSuchSocket(AsyncWebsocketConsumer):
    """Any other websocket path: refused quietly (4404) instead of a traceback per try."""

    async def connect(self):
        await self.close(code=CLOSE_NOT_FOUND)
