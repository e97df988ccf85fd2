"""Hostile frames, CI-sized: every one gets a clear answer and no game changes.

The frames come from ``tests.support.fuzz`` (the same generator the 10,000-frame
run uses) and from hypothesis; they go through in-process websockets to the
table consumer. A frame is handled when it is answered with an error notice, or
(chat) with the line escaped; the consumer must never raise. Markup typed as a
table name comes back escaped too.
"""

import json
import random

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import reverse
from django.utils.html import escape
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from games import actions
from games.engine.cards import CODES
from games.models import Game, Table
from stopbus_site.asgi import application
from tests.factories import UserFactory, preset_variant
from tests.support.fuzz import Frame, Lane, hostile_frame, judge, would_change_the_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(120),
              pytest.mark.usefixtures("fresh_channel_layer")]

ORIGIN = (b"origin", b"http://localhost")
NOTICE = 'class="notice notice--error"'


@pytest.fixture(autouse=True)
def _every_frame_reaches_the_parser(settings):
    settings.STOPBUS_WS_RATE = 100_000
    settings.STOPBUS_WS_BURST = 100_000
    settings.STOPBUS_CHAT_PER_MINUTE = 100_000


def _cookie(user):
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}".encode()


def _table():
    alice, bob, carol = UserFactory(), UserFactory(), UserFactory()
    table = actions.do_create_table(alice, name="Fuzzed", variant=preset_variant(), seats=2)
    actions.do_join_table(table, bob)
    game = table.current_game()
    state = actions.state_of(game)
    return table.pk, game.pk, state, {0: alice, 1: bob, None: carol}


def _lanes(state, people):
    hands = [[CODES[c] for c in hand] for hand in state.hands]
    middle = [CODES[c] for c in state.widow]
    lanes = []
    for role, seat in (("mover", state.turn), ("waiting", 1 - state.turn), ("spectator", None)):
        own = hands[seat] if seat is not None else []
        others = [c for s, hand in enumerate(hands) if s != seat for c in hand]
        lanes.append((Lane(role, "fuzzed", seat, state.version, own, others, middle),
                      people[seat]))
    return lanes


def _game_row(game_id):
    game = Game.objects.get(pk=game_id)
    return game.version, json.dumps(game.state, sort_keys=True), game.ready, \
        game.actions.count()


class Socket:
    """One in-process websocket; reconnects after the consumer closed or crashed."""

    def __init__(self, table_id, user):
        self.table_id, self.user = table_id, user
        self.comm = None

    async def open(self):
        cookie = await sync_to_async(_cookie)(self.user)
        self.comm = WebsocketCommunicator(application, f"/ws/table/{self.table_id}/",
                                          headers=[ORIGIN, (b"cookie", cookie)])
        connected, _ = await self.comm.connect(timeout=5)
        assert connected
        await self.comm.receive_from(timeout=5)  # the board

    async def exchange(self, frame: Frame, timeout: float = 3.0):
        """(answers, None) or (answers, "crash: ...") when the consumer raised."""
        if isinstance(frame.data, bytes):
            # the test communicator cannot send an empty binary frame; a NUL byte will do
            await self.comm.send_to(bytes_data=frame.data or b"\x00")
        else:
            await self.comm.send_to(text_data=frame.data)
        answers = []
        loop_time = 0.0
        while loop_time < timeout:
            if await self.comm.receive_nothing(timeout=0.02):
                loop_time += 0.02
                if self.comm.future.done():
                    break
                continue
            output = await self.comm.receive_output(timeout=1)
            if output["type"] == "websocket.close":
                return answers, output.get("code", 1000)
            answers.append(output.get("text") or "")
            if (frame.marker and frame.marker in answers[-1]) or NOTICE in answers[-1]:
                return answers, None
        if self.comm.future.done() and self.comm.future.exception() is not None:
            error = self.comm.future.exception()
            await self.open()
            return answers, f"crash: {type(error).__name__}: {str(error)[:80]}"
        return answers, None

    async def close(self):
        if self.comm is not None and not self.comm.future.done():
            await self.comm.disconnect()


async def _send_all(table_id, lanes, frames_per_lane, state, seed):
    failures = []
    for i, (lane, user) in enumerate(lanes):
        socket = Socket(table_id, user)
        await socket.open()
        rng = random.Random(seed + i)
        for n in range(frames_per_lane):
            frame = hostile_frame(rng, lane, n)
            while await sync_to_async(would_change_the_game)(frame.data, lane, state):
                frame = hostile_frame(rng, lane, n)
            if frame.expect == "close":  # in process there is no 1 MiB limit: a notice then
                frame.expect = "notice"
            answers, closed = await socket.exchange(frame)
            outcome = judge(frame, answers, closed if isinstance(closed, int) else None)
            if isinstance(closed, str):
                outcome = closed
            if outcome not in ("notice", "chat"):
                failures.append((lane.role, frame.category, str(frame.data)[:100], outcome))
        await socket.close()
    return failures


async def test_hundreds_of_hostile_frames_get_clear_answers_and_change_nothing():
    table_id, game_id, state, people = await sync_to_async(_table)()
    before = await sync_to_async(_game_row)(game_id)
    failures = await _send_all(table_id, _lanes(state, people), 110, state, seed=8)
    assert await sync_to_async(_game_row)(game_id) == before
    kinds = sorted({f"{category}: {outcome}" for _, category, _, outcome in failures})
    assert failures == [], kinds


KNOWN = {
    "deeply nested array": "[" * 1500 + "]" * 1500,
    "deeply nested cards": '{"kind": "swap", "version": 0, "give": ' + "[" * 1200 + "]" * 1200
                           + "}",
    "kind is a list": '{"kind": ["swap"], "version": 0}',
    "kind is an object": '{"kind": {"a": 1}, "version": 0}',
    "version is Infinity": '{"kind": "stop", "version": Infinity}',
    "position is -1e400": '{"kind": "dealer_swap", "version": 0, "positions": [-1e400]}',
    "version is a huge number": '{"kind": "stop", "version": ' + "9" * 4000 + "}",
    "chat with NUL": json.dumps({"kind": "chat", "text": "a\u0000b"}),
    "chat with a lone surrogate": json.dumps({"kind": "chat", "text": "x\ud800y"}),
    "duplicate keys": '{"kind": "chat", "kind": "stop", "version": -1, "version": "x"}',
    "binary": b"\x00\xff\x10",
    "too large": "x" * 5000,
    "not an object": "[1, 2, 3]",
    "not JSON": "{kind: stop}",
}


@pytest.mark.parametrize("name", KNOWN)
async def test_a_known_hostile_frame_is_answered_without_a_crash(name):
    table_id, game_id, state, people = await sync_to_async(_table)()
    before = await sync_to_async(_game_row)(game_id)
    socket = Socket(table_id, people[None])
    await socket.open()
    answers, closed = await socket.exchange(Frame(name, KNOWN[name]))
    await socket.close()
    assert closed is None, closed
    assert any(NOTICE in a or "chat-messages" in a for a in answers), name
    assert await sync_to_async(_game_row)(game_id) == before


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                 max_size=4),
    max_leaves=12)
frame_objects = st.fixed_dictionaries(
    {"kind": st.sampled_from(["swap", "stop", "pass", "draw", "take_discard", "discard",
                              "dealer_swap", "ready", "back", "nope"]) | json_values},
    optional={"version": json_values, "give": json_values, "take": json_values,
              "positions": json_values, "stop": json_values, "seat": json_values})


@pytest.fixture
def hypothesis_table(transactional_db):
    return _table()


@settings(max_examples=4, deadline=None, derandomize=True,
          phases=[Phase.explicit, Phase.generate],  # a failure is reported as found, unshrunk
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(frames=st.lists(frame_objects, min_size=25, max_size=25))
def test_arbitrary_json_from_a_player_out_of_turn_changes_nothing(hypothesis_table, frames):
    table_id, game_id, state, people = hypothesis_table
    waiting = 1 - state.turn
    before = _game_row(game_id)

    async def scenario():
        socket = Socket(table_id, people[waiting])
        await socket.open()
        outcomes = []
        for data in frames:
            if data.get("kind") in ("back", "sync", "ping"):
                continue  # not hostile: a board (or, for "back", silence) is the answer
            text = json.dumps(data)
            answers, closed = await socket.exchange(Frame("hypothesis", text))
            if closed is not None or not any(NOTICE in a for a in answers):
                outcomes.append((text[:100], closed))
        await socket.close()
        return outcomes

    assert async_to_sync(scenario)() == []
    assert _game_row(game_id) == before


def test_markup_in_a_table_name_comes_back_escaped(db):
    user = UserFactory()
    client = Client()
    client.force_login(user)
    variant = preset_variant()
    for name in ("<script>alert(1)</script>", '"><img src=x onerror=alert(1)>',
                 "Friday <b>night</b>"):
        response = client.post(reverse("games:create_table"),
                               {"name": name, "variant": variant.pk, "seats": 3})
        assert response.status_code == 302
        table = Table.objects.get(name=name)
        for page in (client.get(reverse("games:table", args=[table.pk])),
                     client.get(reverse("games:lobby"))):
            html = page.content.decode()
            assert name not in html
            assert escape(name) in html


def test_hostile_urls_are_answered_without_a_server_error(db):
    client = Client(raise_request_exception=False)
    client.force_login(UserFactory())
    for url in ("/invite/%00/", "/invite/" + "x" * 3000 + "/", "/t/99999999999999999999/",
                "/games/99999999999999999999/replay/", "/u/%3Cscript%3E/"):
        assert client.get(url).status_code < 500, url


@pytest.mark.parametrize("path", ["/ws/nothing/", "/ws/table/abc/", "/ws/table/-1/"])
async def test_a_socket_to_an_unknown_path_is_refused_without_a_traceback(path):
    comm = WebsocketCommunicator(application, path, headers=[ORIGIN])
    try:
        connected, _ = await comm.connect(timeout=5)
    except ValueError as exc:  # channels' URLRouter: "No route found", logged as a traceback
        pytest.fail(f"{path}: {exc}")
    assert not connected
