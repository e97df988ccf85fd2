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
"""

from __future__ import annotations

import logging
import time
from collections import defaultdict

from channels_redis.core import RedisChannelLayer

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


class BatchedRedisChannelLayer(RedisChannelLayer):
    """``RedisChannelLayer`` with :meth:`group_send_many`."""

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
