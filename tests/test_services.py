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
