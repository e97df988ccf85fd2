"""Two daphne processes on PostgreSQL and channels-redis serve one table together."""

import asyncio
import json
import os
import re
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.db import connection
from django.test import Client
from websockets.asyncio.client import connect

from games import actions
from games.engine import GreedyBot, seat_view
from games.engine.cards import CODES
from games.models import Game, Variant
from tests.factories import UserFactory
from tests.servers import Daphne

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.multiprocess,
              pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]


def database_url_of_this_run():
    """The DATABASE_URL of the database this test run uses (pytest-django's test_...)."""
    parts = urlsplit(os.environ["DATABASE_URL"])
    return urlunsplit(parts._replace(path="/" + connection.settings_dict["NAME"]))


def server_env():
    return {"DATABASE_URL": database_url_of_this_run(), "REDIS_URL": os.environ["REDIS_URL"],
            "STOPBUS_CLOCK_AUTOSTART": "false", "STOPBUS_BOT_DELAY": "0"}


def cookie_for(user):
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}"


async def receive_version(ws, version, timeout=10.0):
    """Frames until one shows the game at ``version``."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        frame = await asyncio.wait_for(ws.recv(), deadline - loop.time())
        if f'data-version="{version}"' in frame:
            return frame


def test_a_move_made_through_one_process_reaches_a_client_of_the_other():
    assert connection.vendor == "postgresql"
    variant, _ = Variant.objects.get_or_create(slug="classic", defaults={"name": "Classic"})
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    table = actions.do_create_table(alice, name="Two servers", variant=variant, seats=2)
    actions.do_join_table(table, bob)
    game = table.current_game()
    state = actions.state_of(game)
    action = GreedyBot(state.rules).choose(seat_view(state, state.turn)).to_dict()
    action.pop("seat")
    mover, watcher = (alice, bob) if state.turn == 0 else (bob, alice)
    cookies = {mover: cookie_for(mover), watcher: cookie_for(watcher)}
    path = f"/ws/table/{table.pk}/"

    async def scenario(one, two):
        async with connect(one.ws_url + path, origin=one.url,
                           additional_headers={"Cookie": cookies[mover]}) as a, \
                connect(two.ws_url + path, origin=two.url,
                        additional_headers={"Cookie": cookies[watcher]}) as b:
            await receive_version(a, 0)
            await receive_version(b, 0)
            await a.send(json.dumps({**action, "version": 0}))
            return await receive_version(b, 1)

    with Daphne(env=server_env()) as one, Daphne(env=server_env()) as two:
        frame = asyncio.run(scenario(one, two))
    assert Game.objects.get(pk=game.pk).version == 1
    shown = set(re.findall(r'data-card="([0-9JQKA]+[CDHS])"', frame))
    watcher_seat = 1 - state.turn
    after = actions.state_of(Game.objects.get(pk=game.pk))
    assert {CODES[c] for c in after.hands[watcher_seat]} <= shown
    assert not {CODES[c] for c in after.hands[state.turn]
                if c not in after.known[state.turn]} & shown
