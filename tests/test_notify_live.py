"""Notifications live: the bell on every open page follows the count, and the sending
loop beside the clock never holds up the event loop (a push service that hangs delays
no move, no deadline, no page)."""

from __future__ import annotations

import asyncio
import time

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import transaction
from django.test import override_settings

from notify import actions, loop
from notify.keys import new_vapid_pair
from notify.models import Delivery
from stopbus_site.asgi import application
from tests.factories import UserFactory
from tests.fake_push import FakePushService
from tests.test_consumers import ORIGIN, session_cookie

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]
PRIVATE, PUBLIC = new_vapid_pair()


async def test_the_bell_updates_live_on_open_pages():
    user = await sync_to_async(UserFactory)()
    cookie = await sync_to_async(session_cookie)(user)
    lobby = WebsocketCommunicator(application, "/ws/lobby/",
                                  headers=[ORIGIN, (b"cookie", f"sessionid={cookie}".encode())])
    connected, _ = await lobby.connect()
    assert connected

    def notify():
        with transaction.atomic():
            actions.do_notify(user, "invited", params={"table": "Elm"})
            actions.do_notify(user, "table_started", params={"table": "Elm"})

    await sync_to_async(notify)()
    frames = [await lobby.receive_from(timeout=3), await lobby.receive_from(timeout=3)]
    assert 'id="bell-count"' in frames[-1] and 'hx-swap-oob="true"' in frames[-1]
    assert 'data-unread="2"' in frames[-1]
    await sync_to_async(actions.do_mark_read)(user)
    frame = await lobby.receive_from(timeout=3)
    assert 'data-unread="0"' in frame
    await lobby.disconnect()


async def test_a_hanging_push_service_never_holds_up_the_event_loop():
    service = FakePushService(delay=1.5).start()
    with override_settings(VAPID_PRIVATE_KEY=PRIVATE, VAPID_PUBLIC_KEY=PUBLIC,
                           NOTIFY_PUSH_TIMEOUT=3.0, NOTIFY_PLAIN_HTTP_PUSH_HOSTS=["127.0.0.1"]):
        def setup():
            user = UserFactory()
            sub = service.subscribe()
            actions.do_subscribe(user, sub.endpoint, sub.p256dh, sub.auth_b64)
            started = time.monotonic()
            with transaction.atomic():  # as a move would: the writer only writes rows
                actions.do_notify(user, "invited", params={"table": "Elm"})
            return time.monotonic() - started

        took = await sync_to_async(setup)()
        assert took < 0.5
        task = asyncio.create_task(loop.run_forever())
        try:
            # while the push is in flight (1.5 s), the event loop answers at once
            worst = 0.0
            for _ in range(30):
                before = time.monotonic()
                await asyncio.sleep(0.02)
                worst = max(worst, time.monotonic() - before - 0.02)
            # a push sent on the loop would hold it for the service's 1.5 s; a busy
            # machine's scheduling (other tests' threads, a collection) for a few tenths
            assert worst < 0.75
            # the service keeps the message before it answers: wait for the loop to
            # have written what the answer was, not only for the message to arrive
            result = sync_to_async(lambda: Delivery.objects.get().result)
            for _ in range(100):
                if service.received and await result():
                    break
                await asyncio.sleep(0.05)
            assert len(service.received) == 1
        finally:
            task.cancel()
            service.stop()
    assert (await result()).startswith("sent")


async def test_a_new_delivery_wakes_the_loop():
    service = FakePushService().start()
    with override_settings(VAPID_PRIVATE_KEY=PRIVATE, VAPID_PUBLIC_KEY=PUBLIC,
                           NOTIFY_POLL=30.0, NOTIFY_PLAIN_HTTP_PUSH_HOSTS=["127.0.0.1"]):
        task = asyncio.create_task(loop.run_forever())
        await asyncio.sleep(0.3)  # the loop is now waiting (for up to 30 s)

        def notify():
            user = UserFactory()
            sub = service.subscribe()
            actions.do_subscribe(user, sub.endpoint, sub.p256dh, sub.auth_b64)
            with transaction.atomic():
                actions.do_notify(user, "invited", params={"table": "Elm"})
            return time.monotonic()

        committed = await sync_to_async(notify)()
        try:
            for _ in range(200):
                if service.received:
                    break
                await asyncio.sleep(0.01)
            assert service.received and service.received[0].at - committed < 1.0
        finally:
            task.cancel()
            service.stop()


async def test_a_page_says_when_it_is_hidden_and_shown():
    import json

    from games.models import Table
    from games.presence import has_visible_page
    from tests.factories import preset_variant
    from tests.test_consumers import connect

    def make():
        user = UserFactory()
        table = Table.objects.create(name="Yew", variant=preset_variant(), host=user, seats=4)
        return user, table

    user, table = await sync_to_async(make)()
    comm, connected, _ = await connect(user, table.pk)
    assert connected
    await comm.receive_from(timeout=5)  # the board
    visible = sync_to_async(lambda: has_visible_page(user.pk, table.pk))
    assert await visible()
    await comm.send_to(text_data=json.dumps({"kind": "ping", "visible": False}))
    for _ in range(50):
        if not await visible():
            break
        await asyncio.sleep(0.05)
    assert not await visible()
    await comm.send_to(text_data=json.dumps({"kind": "ping", "visible": True}))
    for _ in range(50):
        if await visible():
            break
        await asyncio.sleep(0.05)
    assert await visible()
    await comm.send_to(text_data=json.dumps({"kind": "ping", "visible": "maybe"}))
    assert "not valid" in await comm.receive_from(timeout=3)
    assert await visible()  # the nonsense changed nothing
    await comm.disconnect()
