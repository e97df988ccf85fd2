"""Round trips through the real services, when the environment points at them.

Locally these skip unless DATABASE_URL / REDIS_URL are set; with CI=true they must
run, so a green CI means the suite really ran on PostgreSQL and Redis.
"""

import asyncio
import uuid

import pytest
from channels.layers import get_channel_layer
from django.core.cache import caches
from django.db import connection


@pytest.mark.postgres
@pytest.mark.django_db
def test_database_is_postgresql():
    assert connection.vendor == "postgresql"
    with connection.cursor() as cursor:
        cursor.execute("SELECT version()")
        (version,) = cursor.fetchone()
    assert version.startswith("PostgreSQL")


@pytest.mark.postgres
@pytest.mark.django_db
def test_postgresql_connections_come_from_the_pool():
    assert connection.pool is not None
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_database()")
        (name,) = cursor.fetchone()
    # pytest-django's throwaway database, never the real one.
    assert name.startswith("test_")


@pytest.mark.redis
async def test_channel_layer_round_trip_through_redis():
    from channels_redis.core import RedisChannelLayer

    layer = get_channel_layer()
    assert isinstance(layer, RedisChannelLayer)

    group = f"test-{uuid.uuid4().hex}"
    channel = await layer.new_channel()
    try:
        await layer.group_add(group, channel)
        await layer.group_send(group, {"type": "table.version", "version": 7})
        message = await asyncio.wait_for(layer.receive(channel), timeout=5)
        assert message == {"type": "table.version", "version": 7}
    finally:
        await layer.group_discard(group, channel)
        await layer.close_pools()


@pytest.mark.redis
async def test_many_group_sends_at_once_reach_each_group_and_only_it():
    """stopbus_site.layers: several groups in one go, across two processes' channels (two
    layers, as two daphnes are): each channel hears its own groups' messages, once, and no
    other's; a group nobody listens to is sent nothing."""
    from stopbus_site.layers import BatchedRedisChannelLayer

    layer = get_channel_layer()
    assert isinstance(layer, BatchedRedisChannelLayer)
    other = BatchedRedisChannelLayer(hosts=layer.hosts, prefix=layer.prefix)
    tag = uuid.uuid4().hex
    public, mine, theirs, empty = (f"t-{tag}.{who}" for who in ("all", "u1", "u2", "none"))
    here, there, watcher = (await layer.new_channel(), await other.new_channel(),
                            await other.new_channel())
    try:
        await layer.group_add(mine, here)
        await other.group_add(theirs, there)
        await other.group_add(public, watcher)
        await layer.group_send_many([
            (public, {"type": "table.frame", "text": "public"}),
            (mine, {"type": "table.frame", "text": "mine"}),
            (theirs, {"type": "table.frame", "text": "theirs"}),
            (empty, {"type": "table.frame", "text": "nobody"})])

        async def heard(on, channel):
            return (await asyncio.wait_for(on.receive(channel), timeout=5))["text"]

        assert await heard(layer, here) == "mine"
        assert await heard(other, there) == "theirs"
        assert await heard(other, watcher) == "public"
        for on, channel in ((layer, here), (other, there), (other, watcher)):
            with pytest.raises(asyncio.TimeoutError):
                await asyncio.wait_for(on.receive(channel), timeout=0.3)
    finally:
        await layer.group_discard(mine, here)
        await other.group_discard(theirs, there)
        await other.group_discard(public, watcher)
        await layer.close_pools()
        await other.close_pools()


def _fresh_layer():
    """A layer of its own (its own process queue), as another daphne process has."""
    from stopbus_site.layers import BatchedRedisChannelLayer

    layer = get_channel_layer()
    return BatchedRedisChannelLayer(hosts=layer.hosts, prefix=layer.prefix)


def _pop_with(layer, bzmpop) -> None:
    """``layer``'s Redis connections, with ``bzmpop`` in place of the real one (until
    ``del layer.connection``)."""
    real = layer.connection(0)

    class Connection:
        def __getattr__(self, name):
            return getattr(real, name)

    connection = Connection()
    connection.bzmpop = bzmpop
    layer.connection = lambda index: connection


@pytest.mark.redis
@pytest.mark.timeout(60)
async def test_a_process_pages_get_each_their_own_frames_once_and_in_order():
    """stopbus_site.layers: one task takes the process's messages off Redis in batches and
    hands each to its page: sent interleaved to many pages (by group and straight to the
    channel), each page receives exactly its own, once, in the order sent."""
    layer, other = _fresh_layer(), _fresh_layer()
    tag = uuid.uuid4().hex
    pages = [await layer.new_channel() for _ in range(30)]
    got = {page: [] for page in pages}
    try:
        for n, page in enumerate(pages):
            await layer.group_add(f"t-{tag}.u{n}", page)

        async def listen(page):
            while True:
                got[page].append((await layer.receive(page))["n"])

        listeners = [asyncio.create_task(listen(page)) for page in pages]
        await asyncio.sleep(0.2)
        sent = {page: [] for page in pages}
        for n in range(600):
            page = pages[(n * 7) % len(pages)]
            sent[page].append(n)
            if n % 3:
                await other.send(page, {"type": "table.frame", "n": n})
            else:
                await other.group_send_many(
                    [(f"t-{tag}.u{pages.index(page)}", {"type": "table.frame", "n": n})])
        for _ in range(100):
            if sum(map(len, got.values())) >= 600:
                break
            await asyncio.sleep(0.1)
        await asyncio.sleep(0.3)  # nothing more may come
        for listener in listeners:
            listener.cancel()
        await asyncio.gather(*listeners, return_exceptions=True)
        assert got == sent
    finally:
        for n, page in enumerate(pages):
            await layer.group_discard(f"t-{tag}.u{n}", page)
        await layer.close_pools()
        await other.close_pools()


@pytest.mark.redis
@pytest.mark.timeout(60)
async def test_a_page_that_closes_while_waiting_takes_nobody_s_frame_with_it():
    """Pages close all the time (their receive is cancelled while it waits): the frames
    that arrive then still reach the other pages, and a frame for a page that has not
    started listening yet waits for it."""
    layer, other = _fresh_layer(), _fresh_layer()
    closing, staying, late = [await layer.new_channel() for _ in range(3)]
    try:
        for _round in range(20):
            waiting = [asyncio.ensure_future(layer.receive(c)) for c in (closing, staying)]
            await asyncio.sleep(0.01)
            waiting[0].cancel()  # the page closes
            await other.send(staying, {"type": "table.frame", "n": _round})
            await other.send(late, {"type": "table.frame", "n": _round})
            assert (await asyncio.wait_for(waiting[1], 5))["n"] == _round
            assert (await asyncio.wait_for(layer.receive(late), 5))["n"] == _round
            with pytest.raises(asyncio.CancelledError):
                await waiting[0]
    finally:
        await layer.close_pools()
        await other.close_pools()


@pytest.mark.redis
@pytest.mark.timeout(30)
async def test_a_failed_pop_reaches_the_pages_waiting_and_the_next_receive_pops_again():
    """If Redis fails under the pop, each page waiting then hears it (its socket closes and
    the page comes back, as with channels-redis); the next receive starts a new pop."""
    import redis

    layer, other = _fresh_layer(), _fresh_layer()
    pages = [await layer.new_channel() for _ in range(3)]
    calls = 0

    async def failing(*args, **kwargs):
        nonlocal calls
        calls += 1
        await asyncio.sleep(0.05)
        raise redis.ConnectionError("Redis went away")

    _pop_with(layer, failing)
    try:
        waiting = [asyncio.ensure_future(layer.receive(p)) for p in pages]
        for wait in waiting:
            with pytest.raises(redis.ConnectionError):
                await asyncio.wait_for(wait, 5)
        assert calls == 1
        del layer.connection  # Redis is back
        await other.send(pages[0], {"type": "table.frame", "n": 1})
        assert (await asyncio.wait_for(layer.receive(pages[0]), 5))["n"] == 1
    finally:
        layer.__dict__.pop("connection", None)
        await layer.close_pools()
        await other.close_pools()


@pytest.mark.redis
@pytest.mark.timeout(30)
async def test_on_a_redis_without_bzmpop_pages_receive_as_channels_redis_does():
    """Redis before 7.0 has no BZMPOP: the layer says so once and receives one message at a
    time, as channels-redis does; no page misses its frame."""
    import redis

    layer, other = _fresh_layer(), _fresh_layer()
    pages = [await layer.new_channel() for _ in range(2)]

    async def unknown(*args, **kwargs):
        raise redis.ResponseError("unknown command 'BZMPOP', with args beginning with: ")

    _pop_with(layer, unknown)
    try:
        waiting = [asyncio.ensure_future(layer.receive(p)) for p in pages]
        await asyncio.sleep(0.1)
        for n, page in enumerate(pages):
            await other.send(page, {"type": "table.frame", "n": n})
        assert [(await asyncio.wait_for(w, 5))["n"] for w in waiting] == [0, 1]
        await other.send(pages[0], {"type": "table.frame", "n": 2})
        assert (await asyncio.wait_for(layer.receive(pages[0]), 5))["n"] == 2
    finally:
        layer.__dict__.pop("connection", None)
        await layer.close_pools()
        await other.close_pools()


@pytest.mark.redis
def test_cache_round_trip_through_redis():
    from django_redis.cache import RedisCache

    cache = caches["default"]
    assert isinstance(cache, RedisCache)
    # one client, kept: Django's own backend built one for every call
    assert cache.client.get_client() is cache.client.get_client()
    key = f"test-{uuid.uuid4().hex}"
    cache.set(key, {"lives": 3}, timeout=30)
    assert cache.get(key) == {"lives": 3}
    cache.delete(key)
    assert cache.get(key) is None


@pytest.mark.redis
@pytest.mark.timeout(30)
async def test_an_idle_consumer_keeps_listening_past_the_redis_read_timeout():
    """An idle consumer waits on a blocking pop; it must not time out after 5 s
    (redis-py 8's default read timeout), or every quiet player would be dropped."""
    layer = get_channel_layer()
    channel = await layer.new_channel()
    waiting = asyncio.ensure_future(layer.receive(channel))
    await asyncio.sleep(6.5)
    assert not waiting.done(), f"receive ended early: {waiting.exception()!r}"
    await layer.send(channel, {"type": "still.here"})
    assert (await asyncio.wait_for(waiting, 5))["type"] == "still.here"
