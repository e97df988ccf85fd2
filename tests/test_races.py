"""Races for one turn, CI-sized: exactly one submission counts, the log stays whole.

Threads calling ``games.actions.do_play`` at once need real row locks: those
tests are PostgreSQL-marked. The websocket ones run anywhere (in process the
consumer's database calls are serialised, so they check the refusals and the
single broadcast more than the lock).
"""

import json
import threading

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connection, connections
from django.test import Client

from games import actions, engine
from games.engine import Action, HouseRules, legal_actions, replay
from games.models import Action as LogRow
from games.models import Game
from stopbus_site.asgi import application
from tests.factories import UserFactory, preset_variant

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(120),
              pytest.mark.usefixtures("fresh_channel_layer")]

ORIGIN = (b"origin", b"http://localhost")
THREADS = 24


def _game(slug="classic"):
    alice, bob = UserFactory(), UserFactory()
    table = actions.do_create_table(alice, name="Race", variant=preset_variant(slug), seats=2)
    actions.do_join_table(table, bob)
    return table, table.current_game(), {0: alice, 1: bob}


def assert_log_is_whole(game_id):
    game = Game.objects.get(pk=game_id)
    seqs = list(LogRow.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(game.version + 1))
    payloads = LogRow.objects.filter(game=game, seq__gt=0).order_by("seq").values_list(
        "payload", flat=True)
    state = replay(HouseRules.from_dict(game.rules), game.state["names"],
                   bytes.fromhex(game.seed), list(payloads))
    assert json.loads(json.dumps(state.to_dict())) == game.state


def _race_threads(game_id, seat, version, moves, call=None):
    """Run ``len(moves)`` submissions at once; returns their outcomes."""
    barrier = threading.Barrier(len(moves))
    outcomes = [None] * len(moves)

    def submit(i):
        try:
            barrier.wait(30)
            if call is not None:
                call()
            else:
                actions.do_play(game_id, seat, moves[i], version)
            outcomes[i] = "applied"
        except actions.Refused as exc:
            outcomes[i] = exc.code
        except Exception as exc:  # noqa: BLE001 -- reported by the assertion
            outcomes[i] = repr(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=submit, args=(i,)) for i in range(len(moves))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return outcomes


@pytest.mark.postgres
@pytest.mark.parametrize("identical", [True, False], ids=["identical", "conflicting"])
def test_threads_racing_for_one_turn_apply_exactly_one_move(identical):
    assert connection.vendor == "postgresql"
    table, game, _ = _game()
    for _ in range(3):
        game = Game.objects.get(pk=game.pk)
        state = actions.state_of(game)
        legal = list(legal_actions(state, state.turn))
        moves = ([legal[0]] * THREADS if identical
                 else [legal[i % len(legal)] for i in range(THREADS)])
        outcomes = _race_threads(game.pk, state.turn, game.version, moves)
        assert outcomes.count("applied") == 1, outcomes
        assert set(outcomes) <= {"applied", "stale"}, outcomes
        assert Game.objects.get(pk=game.pk).version == game.version + 1
        if actions.state_of(Game.objects.get(pk=game.pk)).phase != "play":
            break
    assert_log_is_whole(game.pk)


@pytest.mark.postgres
def test_threads_racing_without_a_version_still_apply_one_move_per_turn():
    """``version=None`` (the clock's "any") leans on the turn check alone."""
    table, game, _ = _game()
    state = actions.state_of(game)
    move = next(a for a in legal_actions(state, state.turn) if a.kind == "swap")
    outcomes = _race_threads(game.pk, state.turn, None, [move] * THREADS)
    assert outcomes.count("applied") == 1, outcomes
    assert Game.objects.get(pk=game.pk).version == 1
    assert_log_is_whole(game.pk)


@pytest.mark.postgres
def test_everyone_ready_at_once_deals_the_next_hand_once():
    table, game, _ = _game()
    for _ in range(40):  # play to the showdown
        state = actions.state_of(Game.objects.get(pk=game.pk))
        if state.phase != "play":
            break
        kinds = {a.kind: a for a in legal_actions(state, state.turn)}
        actions.do_play(game.pk, state.turn, kinds.get("stop") or kinds["pass"], state.version)
    game = Game.objects.get(pk=game.pk)
    assert actions.state_of(game).phase == "showdown"
    seats = [i % 2 for i in range(THREADS)]
    counter = iter(range(THREADS))
    lock = threading.Lock()

    def ready():
        with lock:
            seat = seats[next(counter)]
        actions.do_ready(game.pk, seat)

    outcomes = _race_threads(game.pk, None, None, [None] * THREADS, call=ready)
    assert set(outcomes) <= {"applied", "wrong_phase"}, outcomes
    after = Game.objects.get(pk=game.pk)
    assert after.version == game.version + 1  # dealt once
    assert actions.state_of(after).hand_no == actions.state_of(game).hand_no + 1
    assert_log_is_whole(game.pk)


def _cookie(user):
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}".encode()


async def test_many_sockets_of_the_player_to_move_sending_at_once_apply_one_move():
    table, game, people = await sync_to_async(_game)("draw-and-discard")
    state = await sync_to_async(lambda: actions.state_of(Game.objects.get(pk=game.pk)))()
    cookie = await sync_to_async(_cookie)(people[state.turn])
    sockets = []
    for _ in range(10):
        comm = WebsocketCommunicator(application, f"/ws/table/{table.pk}/",
                                     headers=[ORIGIN, (b"cookie", cookie)])
        assert (await comm.connect(timeout=5))[0]
        await comm.receive_from(timeout=5)
        sockets.append(comm)
    moves = [{"kind": "draw"}, {"kind": "take_discard"}, {"kind": "stop"}]
    for i, comm in enumerate(sockets):
        await comm.send_to(text_data=json.dumps({**moves[i % 3], "version": state.version}))
    notices = 0
    for comm in sockets:
        while not await comm.receive_nothing(timeout=0.5):
            frame = await comm.receive_from(timeout=3)
            notices += 'class="notice notice--error"' in frame
    after = await sync_to_async(Game.objects.get)(pk=game.pk)
    assert after.version == state.version + 1
    assert notices == len(sockets) - 1
    await sync_to_async(assert_log_is_whole)(game.pk)
    for comm in sockets:
        await comm.disconnect()


def test_a_move_in_the_log_cannot_be_played_twice():
    """The unique (game, seq) constraint is the last line: a second row for a seq fails."""
    from django.db import IntegrityError, transaction

    table, game, _ = _game()
    state = actions.state_of(game)
    move = engine.stop_bus(state.turn)
    actions.do_play(game.pk, state.turn, move, 0)
    with pytest.raises(IntegrityError), transaction.atomic():
        LogRow.objects.create(game=game, seq=1, seat=state.turn,
                              payload=Action.to_dict(move), events=[])
    assert_log_is_whole(game.pk)
