"""The channel layer: channels-redis's ``RedisChannelLayer``, with many group sends in
one go.

A change is published as one frame per audience of the table (the public one of each
language, each seated player's own: ``games.actions.publish``), five or six groups a
move. channels-redis sends to a group in four round trips to Redis (drop stale members,
read the members, drop expired messages, the script that queues the message): twenty or
more a move, each one a turn of the event loop and a few hundred microseconds of
Python. :meth:`BatchedRedisChannelLayer.group_send_many` sends them all in two round
trips per Redis server (the members of every group, then every message), with the
layer's own rules: the same keys, the same message per channel key naming its
channels, the same capacity and expiry, a message over capacity dropped and logged.

Every group is still sent its own message: a player's frame is queued only for the
channels of their own group, as with ``group_send``.

On the receiving side, a process's pages share one queue in Redis (channels-redis's
"specific" channel of the process). channels-redis has each page's receive take turns
under a lock to pop one message off it, in four round trips (a script that puts back
what a cancelled receive left in a backup queue, the blocking pop, the copy into the
backup queue, and a task that removes it again), and every receive waits on the lock
and on its buffer at once: two tasks a page per message. Here one task per process
queue (:meth:`BatchedRedisChannelLayer._read`) takes every message waiting, up to
``RECEIVE_BATCH``, in one blocking ``BZMPOP`` (Redis 7), and puts each in its page's
inbox, in order; a page's receive only waits on its inbox. No page's receive runs the
pop, so a page that closes cancels nothing (channels-redis's backup queue was filled
only after its pop had returned, so a pop cancelled in flight lost its message there).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import defaultdict

from channels_redis.core import BoundedQueue, RedisChannelLayer
from redis.exceptions import ResponseError

log = logging.getLogger(__name__)

# the same script channels-redis runs for one group, for the messages of many: each
# (key, message, capacity) queued unless its channel key is full
_QUEUE = """
local over_capacity = 0
local n = #KEYS
local current_time = ARGV[2 * n + 1]
local expiry = ARGV[2 * n + 2]
for i = 1, n do
    if redis.call('ZCOUNT', KEYS[i], '-inf', '+inf') < tonumber(ARGV[i + n]) then
        redis.call('ZADD', KEYS[i], current_time, ARGV[i])
        redis.call('EXPIRE', KEYS[i], expiry)
    else
        over_capacity = over_capacity + 1
    end
end
return over_capacity
"""


RECEIVE_BATCH = 100  # messages at most one pop takes off a process's queue
INBOX_IDLE = 600.0  # seconds: an inbox nobody has read for this long belongs to a page gone


class _Failed:
    """What a receive raises when the pop that would have brought its message failed."""

    def __init__(self, error: BaseException):
        self.error = error


_OLD_REDIS = object()  # put in the inboxes waiting when Redis has no BZMPOP (before 7.0)


class _Room:
    """A process's receiving side on one event loop: an inbox per channel of the
    process, the task that fills them, and which channels are waiting now."""

    def __init__(self, capacity: int):
        self.capacity = capacity
        self.inboxes: dict[str, BoundedQueue] = {}
        self.read_at: dict[str, float] = {}
        self.waiting: set[str] = set()
        self.readers: dict[str, asyncio.Task] = {}  # per process queue ("...!")
        self.swept = time.monotonic()

    def inbox(self, channel: str) -> BoundedQueue:
        inbox = self.inboxes.get(channel)
        if inbox is None:
            inbox = self.inboxes[channel] = BoundedQueue(self.capacity)
            self.read_at[channel] = time.monotonic()
        return inbox

    def tell_waiting(self, item) -> None:
        """Hand ``item`` to every receive waiting now (a failure, or: receive otherwise)."""
        for channel in self.waiting:
            self.inbox(channel).put_nowait(item)

    def forget(self, channel: str) -> None:
        self.inboxes.pop(channel, None)
        self.read_at.pop(channel, None)

    def sweep(self) -> None:
        """Drop the inboxes of pages gone: messages that came after their page closed."""
        now = self.swept = time.monotonic()
        for channel, at in list(self.read_at.items()):
            if channel not in self.waiting and now - at > INBOX_IDLE:
                self.forget(channel)


class BatchedRedisChannelLayer(RedisChannelLayer):
    """``RedisChannelLayer`` with :meth:`group_send_many`, and a receive that takes every
    message waiting for the process at once and hands each to its page."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._rooms: dict[asyncio.AbstractEventLoop, _Room] = {}
        self._old_redis = False  # no BZMPOP: channels-redis's receive

    def _room(self) -> _Room:
        loop = asyncio.get_running_loop()
        room = self._rooms.get(loop)
        if room is None:
            for old in [old for old in self._rooms if old.is_closed()]:
                del self._rooms[old]
            room = self._rooms[loop] = _Room(self.capacity)
        return room

    async def receive(self, channel):
        """The next message of ``channel``. A channel of this process ("...!<page>")
        reads its inbox, which one task per process queue fills (:meth:`_read`); any
        other channel is received as channels-redis does."""
        if "!" not in channel or self._old_redis:
            return await super().receive(channel)
        self.require_valid_channel_name(channel)  # raises on a bad name
        room = self._room()
        inbox = room.inbox(channel)
        if inbox.empty():
            real = self.non_local_name(channel)
            reader = room.readers.get(real)
            if reader is None or reader.done():
                reader = room.readers[real] = asyncio.ensure_future(self._read(room, real))
                reader.add_done_callback(_retrieve)
            room.waiting.add(channel)
            try:
                item = await inbox.get()
            except asyncio.CancelledError:
                # the page is closing: its inbox goes with it, unless something came
                if inbox.empty() and room.inboxes.get(channel) is inbox:
                    room.forget(channel)
                raise
            finally:
                room.waiting.discard(channel)
        else:
            item = inbox.get_nowait()
        room.read_at[channel] = time.monotonic()
        if isinstance(item, _Failed):
            raise item.error
        if item is _OLD_REDIS:
            return await super().receive(channel)
        return item

    async def _read(self, room: _Room, real: str) -> None:
        """Fill the inboxes of a process queue's channels while any of them waits: one
        blocking pop takes every message queued (up to ``RECEIVE_BATCH``), in order.
        If the pop fails, each receive waiting now raises what it raised (the page
        closes and comes back, as with channels-redis)."""
        key = self.prefix + real
        try:
            connection = self.connection(self.consistent_hash(real))
            while True:
                popped = await connection.bzmpop(self.brpop_timeout, 1, [key], min=True,
                                                 count=RECEIVE_BATCH)
                if popped:
                    for member, _score in popped[1]:
                        message = self.deserialize(member)
                        to = message.pop("__asgi_channel__", None)
                        for channel in to if isinstance(to, list) else [to]:
                            if channel is not None:
                                room.inbox(channel).put_nowait(message)
                elif not room.waiting:
                    return  # nobody listens: what comes waits in Redis for a receive
                if time.monotonic() - room.swept > 60:
                    room.sweep()
        except ResponseError as error:
            if "unknown command" not in str(error).lower():
                room.tell_waiting(_Failed(error))
                raise
            # Redis before 7.0: channels-redis's own receive, from now on
            log.warning("Redis has no BZMPOP (7.0 and later): pages receive one message "
                        "at a time")
            self._old_redis = True
            room.tell_waiting(_OLD_REDIS)
        except Exception as error:
            room.tell_waiting(_Failed(error))
            raise

    async def close_pools(self):
        room = self._rooms.pop(asyncio.get_running_loop(), None)
        if room is not None:
            for reader in room.readers.values():
                reader.cancel()
            await asyncio.gather(*room.readers.values(), return_exceptions=True)
        await super().close_pools()

    async def group_send_many(self, messages: list[tuple[str, dict]]) -> None:
        """``group_send(group, message)`` for each pair, in two round trips per Redis
        server. Raises what Redis raises (the caller may send them again: a page drops
        a frame it has shown already)."""
        if not messages:
            return
        for group, _message in messages:
            self.require_valid_group_name(group)  # raises on a name no layer takes
        now = time.time()
        # 1. every group's members, one pipeline per server holding groups
        by_server: dict[int, list[int]] = defaultdict(list)
        for index, (group, _message) in enumerate(messages):
            by_server[self.consistent_hash(group)].append(index)
        members: dict[int, list[str]] = {}
        for server, indexes in by_server.items():
            pipe = self.connection(server).pipeline(transaction=False)
            for index in indexes:
                key = self._group_key(messages[index][0])
                pipe.zremrangebyscore(key, min=0, max=int(now) - self.group_expiry)
                pipe.zrange(key, 0, -1)
            replies = await pipe.execute()
            for n, index in enumerate(indexes):
                members[index] = [x.decode("utf8") for x in replies[2 * n + 1]]
        # 2. every message, each as channels-redis would queue it for its group
        queued: dict[int, list[tuple[bytes, bytes, int]]] = defaultdict(list)
        for index, (_group, message) in enumerate(messages):
            if not members[index]:
                continue
            to_server, payloads, capacities = self._map_channel_keys_to_connection(
                members[index], message)
            for server, keys in to_server.items():
                queued[server].extend((k, payloads[k], capacities[k]) for k in keys)
        for server, items in queued.items():
            pipe = self.connection(server).pipeline(transaction=False)
            for key in dict.fromkeys(k for k, _, _ in items):
                pipe.zremrangebyscore(key, min=0, max=int(now) - int(self.expiry))
            keys = [k for k, _, _ in items]
            args = [p for _, p, _ in items] + [c for _, _, c in items]
            pipe.eval(_QUEUE, len(keys), *keys, *args, now, self.expiry)
            over = (await pipe.execute())[-1]
            if over:
                log.info("%s of %s messages over capacity", over, len(items))


def _retrieve(reader: asyncio.Future) -> None:
    """A reader's failure was handed to the receives waiting on it; nobody else needs it
    (the next receive starts a reader again, and raises if Redis is still down)."""
    if not reader.cancelled():
        reader.exception()
