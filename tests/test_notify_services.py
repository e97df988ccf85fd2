"""Notifications on PostgreSQL and Redis, and across real processes: deliveries are
claimed under row locks (SKIP LOCKED), so two processes never send one twice; a
process killed while holding some loses none of them (its lease runs out); one key
makes one notification however many callers race; the bell's news crosses the Redis
channel layer."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections import Counter

import pytest
from django.db import close_old_connections, connection, transaction
from django.test import override_settings

from notify import actions
from notify.keys import new_vapid_pair
from notify.models import Delivery, Notification
from tests.factories import UserFactory
from tests.fake_push import FakePushService
from tests.servers import ROOT

PRIVATE, PUBLIC = new_vapid_pair()


@pytest.fixture
def push_service():
    service = FakePushService().start()
    with override_settings(VAPID_PRIVATE_KEY=PRIVATE, VAPID_PUBLIC_KEY=PUBLIC,
                           NOTIFY_PLAIN_HTTP_PUSH_HOSTS=["127.0.0.1"]):
        yield service
    service.stop()


def many_notifications(service, people=20, each=3):
    users = []
    for _ in range(people):
        user = UserFactory()
        sub = service.subscribe()
        actions.do_subscribe(user, sub.endpoint, sub.p256dh, sub.auth_b64)
        users.append(user)
        for n in range(each):
            actions.do_notify(user, "invited", params={"table": f"T{n}"}, key=f"inv:{n}")
    return users


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_racing_senders_never_send_one_twice(push_service):
    assert connection.vendor == "postgresql"
    many_notifications(push_service)
    barrier = threading.Barrier(4)

    def send(name):
        barrier.wait()
        try:
            while batch := actions.do_claim_due_deliveries(5, worker=name):
                actions.do_run_deliveries(batch)
        finally:
            close_old_connections()

    threads = [threading.Thread(target=send, args=(f"w{i}",)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    got = push_service.wait_for(60)
    ids = Counter(r.payload["id"] for r in got)
    assert len(ids) == 60 and set(ids.values()) == {1}
    assert Delivery.objects.filter(done_at__isnull=True).count() == 0


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_one_key_one_notification_however_many_race():
    assert connection.vendor == "postgresql"
    user = UserFactory()
    barrier = threading.Barrier(6)
    made = []

    def notify():
        barrier.wait()
        try:
            with transaction.atomic():
                made.append(actions.do_notify(user, "your_turn", key="turn:1:1"))
        finally:
            close_old_connections()

    threads = [threading.Thread(target=notify) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert Notification.objects.filter(user=user).count() == 1
    assert sum(1 for m in made if m is not None) == 1


def run_clock(env):
    return subprocess.Popen([sys.executable, "manage.py", "run_clock"], cwd=ROOT,
                            env={**os.environ, **env}, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)


@pytest.mark.postgres
@pytest.mark.timeout(180)
@pytest.mark.django_db(transaction=True)
def test_two_processes_send_each_once_and_a_killed_one_loses_none(push_service, settings):
    """Two ``run_clock`` processes (each runs the sending loop) share the due
    deliveries; then one of them is killed while holding claims, and the other sends
    what it held once the lease runs out."""
    db_name = settings.DATABASES["default"]["NAME"]  # the test database, on the server
    url = os.environ["DATABASE_URL"].rsplit("/", 1)[0] + f"/{db_name}"
    env = {"DATABASE_URL": url, "VAPID_PRIVATE_KEY": PRIVATE, "VAPID_PUBLIC_KEY": PUBLIC,
           "NOTIFY_LEASE_SECONDS": "3", "NOTIFY_POLL": "0.1", "CI": "",
           "NOTIFY_PLAIN_HTTP_PUSH_HOSTS": "127.0.0.1"}
    many_notifications(push_service, people=20, each=3)
    processes = [run_clock(env), run_clock(env)]
    try:
        got = push_service.wait_for(60, timeout=60)
        ids = Counter(r.payload["id"] for r in got)
        assert len(ids) == 60 and set(ids.values()) == {1}, "sent twice or lost"
        workers = set(Delivery.objects.values_list("claimed_by", flat=True))
        assert len(workers) == 2, workers  # both processes took a share

        # a push is received before its sender marks it done: wait for the marks
        deadline = time.monotonic() + 30
        while (Delivery.objects.filter(done_at__isnull=True).exists()
               and time.monotonic() < deadline):
            time.sleep(0.05)
        held = list(Delivery.objects.filter(done_at__isnull=True).values_list("pk", flat=True))
        assert held == []

        # now one process dies holding claims: deliveries it claimed but never sent
        os.kill(processes[0].pid, signal.SIGKILL)
        processes[0].wait()
        push_service.received.clear()
        with transaction.atomic():  # the survivor sees them claimed from the start
            users = many_notifications(push_service, people=5, each=1)
            # a dead process's claim, as if it took them just before dying
            Delivery.objects.filter(user__in=users).update(
                claimed_by="dead:1", claimed_at=actions.timezone.now())
        started = time.monotonic()
        got = push_service.wait_for(5, timeout=30)
        assert len(got) == 5
        assert time.monotonic() - started >= 2.0  # only after the 3 s lease ran out
    finally:
        for p in processes:
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGTERM)
                p.wait(timeout=20)


@pytest.mark.redis
@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_bell_crosses_the_redis_layer(fresh_channel_layer):
    from asgiref.sync import sync_to_async
    from channels.layers import get_channel_layer
    from channels.testing import WebsocketCommunicator
    from channels_redis.core import RedisChannelLayer

    from stopbus_site.asgi import application
    from tests.test_consumers import ORIGIN, session_cookie

    assert isinstance(get_channel_layer(), RedisChannelLayer)
    user = await sync_to_async(UserFactory)()
    cookie = await sync_to_async(session_cookie)(user)
    lobby = WebsocketCommunicator(application, "/ws/lobby/",
                                  headers=[ORIGIN, (b"cookie", f"sessionid={cookie}".encode())])
    assert (await lobby.connect())[0]
    await sync_to_async(actions.do_notify)(user, "test")
    frame = await lobby.receive_from(timeout=5)
    assert 'id="bell-count"' in frame and 'data-unread="1"' in frame
    await lobby.disconnect()
