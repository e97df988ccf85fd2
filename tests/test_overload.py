"""Graceful overload, CI-sized: more frames than a table takes at once are refused at
once with a clear message, nothing is applied twice or lost, and the table takes
moves again as soon as the burst is over."""

from __future__ import annotations

import asyncio
import json
import random
import time

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from games import actions, clock, engine, ratelimit
from games.models import Action, Game, Variant
from stopbus_site.asgi import application
from tests.factories import UserFactory

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

ORIGIN = (b"origin", b"http://localhost")
BUSY = "The table is busy"


def _setup():
    variant = Variant.objects.get_or_create(slug="classic", defaults={"name": "Classic"})[0]
    alice, bob = UserFactory(), UserFactory()
    table = actions.do_create_table(alice, name="Busy", variant=variant, seats=2)
    actions.do_join_table(table, bob)
    game = table.current_game()
    state = actions.state_of(game)
    mover = [alice, bob][state.turn]
    client = Client()
    client.force_login(mover)
    return table, game, state, client.cookies["sessionid"].value


def _move(game_id):
    game = Game.objects.get(pk=game_id)
    state = actions.state_of(game)
    bot = engine.make_bot("greedy", state.rules, random.Random(3))
    return game.version, state.turn, bot.choose(engine.seat_view(state, state.turn)).to_dict()


async def _answers(comm) -> list[str]:
    frames = []
    while not await comm.receive_nothing(timeout=0.5):
        frames.append(await comm.receive_from(timeout=3))
    return frames


async def _page(table, cookie):
    """A page of ``table`` open with the session ``cookie``, its first frames read."""
    comm = WebsocketCommunicator(application, f"/ws/table/{table.pk}/",
                                 headers=[ORIGIN, (b"cookie", f"sessionid={cookie}".encode())])
    assert (await comm.connect(timeout=5))[0]
    await _answers(comm)
    return comm


async def _move_frame(game_id) -> str:
    """The next move, as the mover's page sends it."""
    version, seat, move = await sync_to_async(_move)(game_id)
    move.pop("seat", None)
    return json.dumps({**move, "version": version})


async def test_a_burst_is_refused_clearly_and_nothing_is_lost_or_doubled(settings):
    settings.STOPBUS_TABLE_PENDING = 2
    settings.STOPBUS_WS_BURST = 100
    table, game, state, cookie = await sync_to_async(_setup)()
    sockets = []
    for _ in range(8):
        comm = WebsocketCommunicator(application, f"/ws/table/{table.pk}/",
                                     headers=[ORIGIN, (b"cookie", f"sessionid={cookie}".encode())])
        assert (await comm.connect(timeout=5))[0]
        sockets.append(comm)
    for comm in sockets:
        await _answers(comm)
    version, seat, move = await sync_to_async(_move)(game.pk)
    move.pop("seat", None)
    frame = json.dumps({**move, "version": version})
    await asyncio.gather(*(comm.send_to(text_data=frame) for comm in sockets))
    answers = [await _answers(comm) for comm in sockets]

    busy = sum(any(BUSY in f for f in frames) for frames in answers)
    stale = sum(any("moved on before your move" in f or "same moment" in f for f in frames)
                for frames in answers)
    assert busy >= 1, "the burst was over the table's limit: some frames are refused"
    assert busy + stale == len(sockets) - 1, answers  # every other frame was answered
    rows = await sync_to_async(lambda: list(Action.objects.filter(game_id=game.pk)
                                            .order_by("seq").values_list("seq", flat=True)))()
    assert rows == [0, version + 1], "exactly one copy of the move was applied"

    # each page told how late its update was (a moment, here): the process is not behind
    assert ratelimit._late[1] > 0 and not ratelimit.behind()
    # the burst is over: nothing is held, and the table answers at once again
    assert ratelimit._pending_total == 0 and not ratelimit._pending_tables
    await sockets[0].send_to(text_data=frame)
    again = await _answers(sockets[0])
    assert any("moved on before" in f for f in again) and not any(BUSY in f for f in again)
    for comm in sockets:
        await comm.disconnect()


async def test_the_work_gate_refuses_beyond_its_limits_and_lets_the_clock_wait(settings):
    settings.STOPBUS_TABLE_PENDING = 1
    settings.STOPBUS_MAX_PENDING = 4
    quiet = clock._batch()
    with ratelimit.pending(1):
        with pytest.raises(ratelimit.Busy):
            ratelimit.pending(1).__enter__()
        with ratelimit.pending(2):
            assert ratelimit.busy()  # a quarter of the process's limit: people wait
            assert clock._batch() < quiet  # and the clock takes fewer jobs a tick
    assert not ratelimit.busy()
    with ratelimit.pending(1):  # released: taken again
        pass


async def test_a_process_behind_refuses_moves_until_its_work_starts_on_time(settings):
    """Pages lately updated long after their change (a process behind its tables) turn
    new moves away with a clear message; one slow update does not, and the process
    takes moves again once its pages are updated on time."""
    settings.STOPBUS_BUSY_LATE = 0.4
    settings.STOPBUS_BUSY_PAGES = 0  # however few pages wait (the pages' count: below)
    ratelimit.late(0.0)
    ratelimit.late(1.5)  # one slow update (a template compiled): not behind
    assert not ratelimit.behind()
    for _ in range(10):
        ratelimit.late(1.0)
    assert ratelimit.behind() and ratelimit.busy()
    with pytest.raises(ratelimit.Busy):
        ratelimit.pending(1).__enter__()
    assert ratelimit._pending_total == 0  # refused: nothing was taken

    table, game, state, cookie = await sync_to_async(_setup)()
    comm = await _page(table, cookie)
    for _ in range(10):
        ratelimit.late(1.0)
    frame = await _move_frame(game.pk)
    await comm.send_to(text_data=frame)
    refused = await _answers(comm)
    assert any(BUSY in f for f in refused), refused
    count = await sync_to_async(Action.objects.filter(game_id=game.pk).count)()
    assert count == 1  # only the deal: the refused move changed nothing

    for _ in range(30):
        ratelimit.late(0.01)  # the backlog drained: pages are updated on time again
    assert not ratelimit.behind()
    await comm.send_to(text_data=frame)
    taken = await _answers(comm)
    assert not any(BUSY in f for f in taken)
    count = await sync_to_async(Action.objects.filter(game_id=game.pk).count)()
    assert count == 2
    await comm.disconnect()


async def test_a_wait_long_past_counts_for_nothing(settings):
    settings.STOPBUS_BUSY_LATE = 0.4
    settings.STOPBUS_BUSY_PAGES = 0
    for _ in range(10):
        ratelimit.late(1.0)
    assert ratelimit.behind()
    ratelimit._late[1] -= ratelimit.LATE_FORGOTTEN + 1  # no page updated since
    assert not ratelimit.behind()  # so nothing is queued
    ratelimit.late(0.0)
    assert not ratelimit.behind()


async def test_one_absurd_lateness_counts_for_little(settings):
    """A clock out of step (a change stamped in the future, or far in the past) moves the
    average by at most LATE_MOST, and a few updates on time bring it back."""
    settings.STOPBUS_BUSY_LATE = 0.4
    ratelimit.late(-50.0)
    assert ratelimit._late[0] == 0.0
    ratelimit.late(3600.0)
    assert ratelimit._late[0] <= ratelimit.LATE_WEIGHT * ratelimit.LATE_MOST
    for _ in range(8):
        ratelimit.late(0.01)
    assert not ratelimit.behind()


async def test_late_pages_refuse_moves_only_with_a_backlog(settings):
    """A few late pages are a slow machine: their players' moves are still taken. Only
    with STOPBUS_BUSY_PAGES pages waiting for their update is the process behind."""
    settings.STOPBUS_BUSY_LATE = 0.4
    settings.STOPBUS_BUSY_PAGES = 16
    for _ in range(10):
        ratelimit.late(1.0)
    for _ in range(15):
        ratelimit.updating(1)
    assert not ratelimit.behind()
    ratelimit.updating(1)
    assert ratelimit.behind()
    for _ in range(16):
        ratelimit.updating(-1)
    assert not ratelimit.behind()
    ratelimit.updating(-1)  # never below none
    assert ratelimit._updating[0] == 0


async def test_a_page_counts_as_updating_until_it_is_up_to_date(settings):
    table, game, state, cookie = await sync_to_async(_setup)()
    comm = await _page(table, cookie)
    await comm.send_to(text_data=await _move_frame(game.pk))
    await _answers(comm)
    assert ratelimit._updating[0] == 0  # the page was updated: nothing waits
    assert ratelimit._late[1] > 0
    await comm.disconnect()


async def test_a_page_gone_before_its_update_is_not_counted_as_waiting(settings):
    """A page that closes while its update waits (its task cancelled, maybe before it
    ever ran) leaves nothing counted."""
    table, game, state, cookie = await sync_to_async(_setup)()
    comm = await _page(table, cookie)
    from channels.layers import get_channel_layer

    # a frame that does not follow the page's board: the page asks for its board (an
    # update under way, counted) and closes before or while it comes
    await get_channel_layer().group_send(f"table-{table.pk}", {
        "type": "table.frame", "from": "gone", "to": "gone-too", "text": "", "at": 0.0})
    await comm.disconnect()
    await asyncio.sleep(0.2)
    assert ratelimit._updating[0] == 0


async def test_actions_that_waited_long_for_their_turn_refuse_new_ones_while_many_wait(settings):
    """A process whose actions lately began long after they were taken (a queue of them)
    turns new ones away at once while enough still wait; one slow start does not, a queue
    of a few does not, and once actions start on time it takes them again."""
    settings.STOPBUS_BUSY_LATE = 0.25
    settings.STOPBUS_BUSY_PAGES = 3
    settings.STOPBUS_MAX_PENDING = 64
    settings.STOPBUS_TABLE_PENDING = 64
    first = ratelimit.pending(1).__enter__()
    first.entered -= 1.0
    first.started()  # one slow start: not a queue
    assert not ratelimit.queued_long()
    waiting = [ratelimit.pending(1).__enter__() for _ in range(2)]
    for slot in waiting:
        for _ in range(5):
            slot.entered = time.monotonic() - 1.0
            slot.started()
    assert ratelimit.queued_long() and ratelimit.busy()  # three under way, each waited 1 s
    with pytest.raises(ratelimit.Busy):
        ratelimit.pending(2).__enter__()
    assert ratelimit._pending_total == 3  # refused: nothing more was taken
    waiting.pop().__exit__(None, None, None)
    assert not ratelimit.queued_long()  # two left: a few waiting is no queue
    with ratelimit.pending(2) as slot:
        slot.started()
    for _ in range(30):
        slot.entered = time.monotonic()
        slot.started()  # actions begin at once again
    waiting.append(ratelimit.pending(1).__enter__())
    assert not ratelimit.queued_long()
    for slot in [first, *waiting]:
        slot.__exit__(None, None, None)
    assert ratelimit._pending_total == 0
    ratelimit._queued[1] -= ratelimit.LATE_FORGOTTEN + 1
    assert ratelimit._lately(ratelimit._queued) == 0.0  # long ago: counts for nothing


async def test_a_move_notes_how_long_it_waited_for_its_turn(settings):
    table, game, state, cookie = await sync_to_async(_setup)()
    comm = await _page(table, cookie)
    frame = await _move_frame(game.pk)
    assert ratelimit._queued[1] == 0.0
    await comm.send_to(text_data=frame)
    await _answers(comm)
    assert ratelimit._queued[1] > 0 and not ratelimit.queued_long()
    count = await sync_to_async(Action.objects.filter(game_id=game.pk).count)()
    assert count == 2
    await comm.disconnect()
