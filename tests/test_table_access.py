"""Who hears a table is decided again whenever it changes: the action that changes it
sends the roster, and a page no longer allowed closes, saying why, and hears nothing
more of the game; a page whose user sat down or left moves to its new audience."""

from __future__ import annotations

from importlib import import_module

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings as django_settings

from games import actions
from games.models import Variant
from stopbus_site.asgi import application
from tests.factories import UserFactory
from tests.test_consumers import ORIGIN, connect, latest, session_cookie

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def _waiting_table(private=False, allow_spectators=False):
    variant, _ = Variant.objects.get_or_create(slug="classic", defaults={"name": "Classic"})
    host, guest, stranger = UserFactory(), UserFactory(), UserFactory()
    table = actions.do_create_table(host, name="A", variant=variant, seats=3,
                                    private=private, allow_spectators=allow_spectators)
    return table, host, guest, stranger


async def _closed_with_a_reason(comm) -> list[dict]:
    outputs = []
    while not outputs or outputs[-1]["type"] != "websocket.close":
        outputs.append(await comm.receive_output(timeout=5))
    assert outputs[-1]["code"] == 4403
    texts = [o.get("text", "") for o in outputs]
    assert any("not open to spectators" in t or "closed this table" in t for t in texts)
    # nothing of the game reached the page: no board after the start
    assert not any('data-version="0"' in t for t in texts), texts
    return outputs


async def _start(table, host, guest, third):
    def start():
        actions.do_join_table(table, guest)
        actions.do_join_table(table, third)  # the table is full: the game starts
    await sync_to_async(start)()


async def test_a_page_opened_on_a_waiting_table_closed_to_spectators_stops_at_the_start():
    table, host, guest, stranger = await sync_to_async(_waiting_table)()
    comm, ok, _ = await connect(stranger, table.pk)
    assert ok  # anyone may look at a waiting table, to sit down
    await latest(comm)
    third = await sync_to_async(UserFactory)()
    await _start(table, host, guest, third)
    await _closed_with_a_reason(comm)
    await comm.disconnect()


async def test_a_private_tables_invitee_who_did_not_sit_stops_at_the_start():
    table, host, guest, invitee = await sync_to_async(_waiting_table)(private=True)
    cookie = await sync_to_async(session_cookie)(invitee)

    def remember_invite():
        store = import_module(django_settings.SESSION_ENGINE).SessionStore(session_key=cookie)
        store["invites"] = [table.invite_code]
        store.save()

    await sync_to_async(remember_invite)()
    comm = WebsocketCommunicator(application, f"/ws/table/{table.pk}/",
                                 headers=[ORIGIN, (b"cookie", f"sessionid={cookie}".encode())])
    ok, _ = await comm.connect(timeout=5)
    assert ok
    await latest(comm)
    third = await sync_to_async(UserFactory)()
    await _start(table, host, guest, third)
    await _closed_with_a_reason(comm)
    await comm.disconnect()


async def test_spectators_may_stay_when_the_table_allows_them():
    table, host, guest, stranger = await sync_to_async(_waiting_table)(allow_spectators=True)
    comm, ok, _ = await connect(stranger, table.pk)
    assert ok
    await latest(comm)
    third = await sync_to_async(UserFactory)()
    await _start(table, host, guest, third)
    frames = await latest(comm)
    assert any('data-version="0"' in f for f in frames)  # the game, as a spectator sees it
    assert all("me__hand" not in f or "data-card" not in f.split('id="hand"')[1][:200]
               for f in frames)
    await comm.disconnect()


async def test_a_host_closing_a_running_table_sends_its_spectators_away():
    table, host, guest, stranger = await sync_to_async(_waiting_table)(allow_spectators=True)
    third = await sync_to_async(UserFactory)()
    await _start(table, host, guest, third)
    comm, ok, _ = await connect(stranger, table.pk)
    assert ok
    await latest(comm)
    await sync_to_async(actions.do_set_spectators)(table, host, False)
    await _closed_with_a_reason(comm)
    await comm.disconnect()


async def test_a_watcher_who_sits_down_is_sent_their_own_board():
    table, host, guest, _ = await sync_to_async(_waiting_table)(allow_spectators=True)
    comm, ok, _ = await connect(guest, table.pk)
    assert ok
    await latest(comm)
    await sync_to_async(actions.do_join_table)(table, guest)
    frames = await latest(comm)
    # their own board: they sit (the waiting panel offers them to leave their seat)
    assert any(f.startswith("<!--board-->") for f in frames)
    await comm.disconnect()


async def test_a_player_who_leaves_hears_the_game_as_a_spectator():
    table, host, guest, _ = await sync_to_async(_waiting_table)(allow_spectators=True)
    third = await sync_to_async(UserFactory)()
    await _start(table, host, guest, third)
    comm, ok, _ = await connect(guest, table.pk)
    assert ok
    first = "".join(await latest(comm))
    assert 'id="hand"' in first and "data-card" in first.split('id="hand"')[1][:400]
    await sync_to_async(actions.do_leave_table)(table, guest)
    frames = await latest(comm)
    board = next(f for f in reversed(frames) if f.startswith("<!--board-->"))
    hand = board.split('id="hand"')[1].split("</div>")[0]
    assert "data-card" not in hand  # a spectator's board: no hand of theirs
    await comm.disconnect()
