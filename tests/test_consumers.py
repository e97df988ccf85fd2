"""The table's websocket: one view per viewer, clear refusals, nothing hidden leaks."""

import asyncio
import json
import time
from datetime import timedelta
from unittest import mock

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from games import actions, clock
from games.engine import GreedyBot, seat_view
from games.engine.cards import CODES
from games.models import Game, Table, Variant
from stopbus_site.asgi import application
from tests.factories import UserFactory
from tests.html_contract import cards_in

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

# the origin validator reads ALLOWED_HOSTS when the app is built, before the test
# runner adds "testserver", so the test client speaks from localhost
ORIGIN = (b"origin", b"http://localhost")


def session_cookie(user):
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


async def connect(user, table_id, origin=ORIGIN):
    headers = [origin]
    if user is not None:
        cookie = await sync_to_async(session_cookie)(user)
        headers.append((b"cookie", f"sessionid={cookie}".encode()))
    comm = WebsocketCommunicator(application, f"/ws/table/{table_id}/", headers=headers)
    connected, code = await comm.connect(timeout=5)
    return comm, connected, code


async def latest(comm, timeout=3):
    """Every frame waiting, the last one last."""
    frames = [await comm.receive_from(timeout=timeout)]
    while not await comm.receive_nothing(timeout=0.2):
        frames.append(await comm.receive_from(timeout=timeout))
    return frames


def _setup_two_people():
    variant, _ = Variant.objects.get_or_create(slug="classic", defaults={"name": "Classic"})
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    table = actions.do_create_table(alice, name="T", variant=variant, seats=2)
    actions.do_join_table(table, bob)  # full: starts
    game = table.current_game()
    return table, game, alice, bob


setup_two_people = sync_to_async(_setup_two_people)


def _state(game_id):
    game = Game.objects.get(pk=game_id)
    return game, actions.state_of(game)


get_state = sync_to_async(_state)


def frame(**data):
    return json.dumps(data)


async def test_each_player_receives_their_own_hand_and_never_the_others():
    table, game, alice, bob = await setup_two_people()
    a, ok_a, _ = await connect(alice, table.pk)
    b, ok_b, _ = await connect(bob, table.pk)
    assert ok_a and ok_b
    game, state = await get_state(game.pk)
    html_a = (await latest(a))[-1]
    html_b = (await latest(b))[-1]
    up_a, down_a, ids_a = cards_in(html_a)
    up_b, _, _ = cards_in(html_b)
    hand = {0: {CODES[c] for c in state.hands[0]}, 1: {CODES[c] for c in state.hands[1]}}
    assert hand[0] <= set(up_a) and not hand[1] & set(up_a)
    assert hand[1] <= set(up_b) and not hand[0] & set(up_b)
    assert down_a == 3 and "seat-1" in ids_a and "me" in ids_a
    await a.disconnect()
    await b.disconnect()


async def test_a_spectator_sees_only_face_up_cards():
    table, game, alice, bob = await setup_two_people()
    watcher = await sync_to_async(UserFactory)(username="watcher")
    s, ok, _ = await connect(watcher, table.pk)
    assert ok
    game, state = await get_state(game.pk)
    html = (await latest(s))[-1]
    up, down, _ = cards_in(html)
    assert set(up) == {CODES[c] for c in state.widow}
    assert down == 6
    assert "You are watching" in html
    await s.send_to(text_data=frame(kind="stop", version=game.version))
    assert "only its players can play" in (await latest(s))[-1]
    await s.disconnect()


async def test_anonymous_and_foreign_origins_cannot_connect():
    table, game, alice, bob = await setup_two_people()
    _, ok, code = await connect(None, table.pk)
    assert not ok and code == 4401
    _, ok, _ = await connect(alice, table.pk, origin=(b"origin", b"http://evil.example"))
    assert not ok
    _, ok, code = await connect(alice, 999999)
    assert not ok and code == 4404


async def test_a_private_table_refuses_strangers():
    def make():
        variant, _ = Variant.objects.get_or_create(slug="classic",
                                                   defaults={"name": "Classic"})
        host = UserFactory()
        table = actions.do_create_table(host, name="P", variant=variant, seats=3, private=True,
                                     allow_spectators=False)
        return table, UserFactory()

    table, stranger = await sync_to_async(make)()
    _, ok, code = await connect(stranger, table.pk)
    assert not ok and code == 4403


async def two_pages_and_a_move():
    """Both players' pages connected and shown their boards; the game and its state; the
    pages of the player to move and of the other; a legal move for the mover's frame."""
    table, game, alice, bob = await setup_two_people()
    a, _, _ = await connect(alice, table.pk)
    b, _, _ = await connect(bob, table.pk)
    await latest(a)
    await latest(b)
    game, state = await get_state(game.pk)
    mover, waiter = (a, b) if state.turn == 0 else (b, a)
    action = GreedyBot(state.rules).choose(seat_view(state, state.turn)).to_dict()
    action.pop("seat")
    return game, state, mover, waiter, action


async def test_a_move_reaches_both_players_with_their_own_views():
    game, state, mover, waiter, action = await two_pages_and_a_move()
    await mover.send_to(text_data=frame(**action, version=game.version,
                                        HEADERS={"HX-Request": "true"}))
    after_mover = (await latest(mover))[-1]
    after_waiter = (await latest(waiter))[-1]
    game2, state2 = await get_state(game.pk)
    assert game2.version == game.version + 1
    assert f'data-version="{game2.version}"' in after_mover
    assert f'data-version="{game2.version}"' in after_waiter
    waiter_seat = 1 - state.turn
    up, _, _ = cards_in(after_waiter)
    assert {CODES[c] for c in state2.hands[waiter_seat]} <= set(up)
    assert not {CODES[c] for c in state2.hands[state.turn]
                if c not in state2.known[state.turn]} & set(up)
    await mover.disconnect()
    await waiter.disconnect()


async def test_a_frame_and_a_change_told_reach_their_handlers_without_a_thread_hand_off():
    """Channels' own dispatch hands every message to the one synchronous thread first, to
    close stale connections; the sockets' database calls already do that themselves, so
    a move and the change it tells both pages go straight to their handlers."""
    import channels.consumer

    game, _, mover, waiter, action = await two_pages_and_a_move()
    handed = mock.AsyncMock()
    with mock.patch.object(channels.consumer, "aclose_old_connections", handed):
        await mover.send_to(text_data=frame(**action, version=game.version))
        for page in (mover, waiter):
            assert f'data-version="{game.version + 1}"' in (await latest(page))[-1]
    assert handed.await_count == 0
    await mover.disconnect()
    await waiter.disconnect()


async def test_illegal_out_of_turn_stale_and_malformed_frames_change_nothing():
    table, game, alice, bob = await setup_two_people()
    a, _, _ = await connect(alice, table.pk)
    b, _, _ = await connect(bob, table.pk)
    await latest(a)
    await latest(b)
    game, state = await get_state(game.pk)
    me, other = (a, b) if state.turn == 0 else (b, a)
    not_mine = next(CODES[c] for c in range(52)
                    if c not in state.hands[state.turn] and c not in state.widow)
    cases = [
        (me, frame(kind="swap", give=not_mine, take=CODES[state.widow[0]],
                   version=game.version), "is not in your hand"),
        (other, frame(kind="stop", version=game.version), "It is not your turn"),
        (me, frame(kind="stop", version=game.version - 1), "moved on before your move"),
        (me, frame(kind="pass", version=game.version), "Passing is allowed only after"),
        (me, "{not json", "not valid JSON"),
        (me, json.dumps([1, 2]), "must be a JSON object"),
        (me, frame(kind="teleport", version=game.version), "Unknown action"),
        (me, frame(kind="stop"), "which version"),
        (me, frame(kind="swap", give=["QS", 7], take="2C", version=game.version),
         "not valid"),
        (me, frame(kind="swap", give="ZZ", take="2C", version=game.version),
         "is not a card code"),
        (me, "x" * 5000, "too large"),
    ]
    for comm, text, expected in cases:
        await comm.send_to(text_data=text)
        frames = await latest(comm)
        assert any(expected in f for f in frames), (expected, frames)
        assert any('id="notice"' in f for f in frames)
    game2, _ = await get_state(game.pk)
    assert game2.version == game.version and game2.state == game.state
    await a.disconnect()
    await b.disconnect()


async def test_too_many_frames_are_slowed_down(settings):
    settings.STOPBUS_WS_BURST = 3
    settings.STOPBUS_WS_RATE = 0.1
    table, game, alice, bob = await setup_two_people()
    a, _, _ = await connect(alice, table.pk)
    await latest(a)
    replies = []
    for _ in range(6):
        await a.send_to(text_data=frame(kind="sync"))
        replies.extend(await latest(a))
    assert any("too fast" in r for r in replies)
    await a.disconnect()


async def test_a_whole_hand_played_through_the_websocket_to_the_showdown():
    table, game, alice, bob = await setup_two_people()
    socks = {}
    socks[0], _, _ = await connect(alice, table.pk)
    socks[1], _, _ = await connect(bob, table.pk)
    for comm in socks.values():
        await latest(comm)
    for _ in range(60):
        game, state = await get_state(game.pk)
        if state.phase != "play":
            break
        action = GreedyBot(state.rules).choose(seat_view(state, state.turn)).to_dict()
        action.pop("seat")
        await socks[state.turn].send_to(text_data=frame(**action, version=game.version))
        for comm in socks.values():
            await latest(comm)
    game, state = await get_state(game.pk)
    assert state.phase in ("showdown", "over")
    html = (await latest(socks[0], timeout=3) if not await socks[0].receive_nothing(0.1)
            else [None])[-1]
    if html is None:
        await socks[0].send_to(text_data=frame(kind="sync"))
        html = (await latest(socks[0]))[-1]
    up, _, _ = cards_in(html)
    for seat in (0, 1):
        assert {CODES[c] for c in state.hands[seat]} <= set(up), "all hands face up"
    assert "Showdown" in html and "Fair deal check" in html
    await socks[0].send_to(text_data=frame(kind="ready"))
    await socks[1].send_to(text_data=frame(kind="ready"))
    await latest(socks[0])
    game2, state2 = await get_state(game.pk)
    assert state.phase == "over" or state2.hand_no == state.hand_no + 1
    for comm in socks.values():
        await comm.disconnect()


async def test_chat_is_escaped_limited_and_shared():
    table, game, alice, bob = await setup_two_people()
    a, _, _ = await connect(alice, table.pk)
    b, _, _ = await connect(bob, table.pk)
    await latest(a)
    await latest(b)
    await a.send_to(text_data=frame(kind="chat", text="<script>alert(1)</script> hello"))
    got = (await latest(b))[-1]
    assert "&lt;script&gt;" in got and "<script>" not in got
    assert 'hx-swap-oob="beforeend"' in got
    await a.send_to(text_data=frame(kind="chat", text="x" * 301))
    assert any("at most 300" in f for f in await latest(a))
    await a.disconnect()
    await b.disconnect()


async def test_the_clock_moves_bots_and_everyone_sees_it():
    def make():
        variant, _ = Variant.objects.get_or_create(slug="classic",
                                                   defaults={"name": "Classic"})
        alice = UserFactory()
        table = actions.do_create_table(alice, name="B", variant=variant, seats=3)
        actions.do_add_bot(table, alice, "greedy")
        actions.do_add_bot(table, alice, "random")
        return table, alice, table.current_game()

    table, alice, game = await sync_to_async(make)()
    a, _, _ = await connect(alice, table.pk)
    await latest(a)
    for _ in range(10):  # bots move until it is alice's turn
        if not await sync_to_async(clock.run_due_jobs)():
            break
        game, state = await get_state(game.pk)
        assert any(f'data-version="{game.version}"' in f for f in await latest(a))
    game, state = await get_state(game.pk)
    assert state.turn == 0 or state.phase != "play"
    await a.disconnect()


async def test_the_lobby_updates_live():
    def make():
        variant, _ = Variant.objects.get_or_create(slug="classic",
                                                   defaults={"name": "Classic"})
        return variant, UserFactory()

    variant, host = await make_async(make)
    cookie = await sync_to_async(session_cookie)(host)
    lobby = WebsocketCommunicator(application, "/ws/lobby/",
                                  headers=[ORIGIN, (b"cookie", f"sessionid={cookie}".encode())])
    connected, _ = await lobby.connect()
    assert connected
    await make_async(lambda: actions.do_create_table(host, name="Fresh table", variant=variant,
                                                  seats=3))
    frame = await lobby.receive_from(timeout=3)
    assert 'id="lobby-tables"' in frame and "Fresh table" in frame
    await lobby.disconnect()


async def test_spectators_are_sent_away_when_the_host_closes_the_table():
    def make():
        variant, _ = Variant.objects.get_or_create(slug="classic",
                                                   defaults={"name": "Classic"})
        host, watcher = UserFactory(), UserFactory()
        table = actions.do_create_table(host, name="P", variant=variant, seats=2, private=True)
        return table, host, watcher

    table, host, watcher = await make_async(make)
    cookie = await sync_to_async(session_cookie)(watcher)
    comm = WebsocketCommunicator(application, f"/ws/table/{table.pk}/",
                                 headers=[ORIGIN, (b"cookie", f"sessionid={cookie}".encode())])
    # the watcher came with the invite link
    from importlib import import_module

    from django.conf import settings as django_settings

    def remember_invite():
        store = import_module(django_settings.SESSION_ENGINE).SessionStore(session_key=cookie)
        store["invites"] = [table.invite_code]
        store.save()

    await make_async(remember_invite)
    connected, _ = await comm.connect()
    assert connected
    await latest(comm)
    await make_async(lambda: actions.do_set_spectators(table, host, False))
    outputs = []
    while not outputs or outputs[-1]["type"] != "websocket.close":
        outputs.append(await comm.receive_output(timeout=3))
    assert any("closed this table to spectators" in o.get("text", "") for o in outputs)
    assert outputs[-1]["code"] == 4403
    # The server closed the socket; the connection's end (its disconnect handler, which
    # writes the watcher's presence away) runs only when the client side says it is gone.
    # Left running, it raced the teardown's flush of the tables ("database table is
    # locked" on SQLite): see it to its end before the test does.
    await comm.disconnect()


async def make_async(fn):
    return await sync_to_async(fn)()


def _seen_times(table_id):
    from games.models import Presence

    return (Table.objects.get(pk=table_id).humans_last_seen,
            sorted(Presence.objects.filter(table_id=table_id).values_list("last_seen", flat=True)))


async def test_a_ping_notes_the_page_and_sends_only_what_was_missed():
    table, game, alice, bob = await setup_two_people()
    a, _, _ = await connect(alice, table.pk)
    await latest(a)
    table_seen, presences = await sync_to_async(_seen_times)(table.pk)

    await a.send_to(text_data=frame(kind="ping"))
    assert await a.receive_nothing(timeout=0.5), "nothing changed: a ping sends nothing"
    # the page's presence and the table's time were written on arriving, a moment ago: a
    # ping leaves them be (most pings write nothing) ...
    assert await sync_to_async(_seen_times)(table.pk) == (table_seen, presences)
    # ... and writes them once this page's last write is older than PING_REFRESH
    with mock.patch.object(actions.presence, "PING_REFRESH", timedelta(seconds=1)):
        await asyncio.sleep(1.1)
        await a.send_to(text_data=frame(kind="ping"))
        assert await a.receive_nothing(timeout=0.3)
        table_seen2, presences2 = await sync_to_async(_seen_times)(table.pk)
        assert presences2[0] > presences[0]
        assert table_seen2 > table_seen
        # the next ping, within PING_REFRESH of that write, writes nothing again
        await a.send_to(text_data=frame(kind="ping"))
        assert await a.receive_nothing(timeout=0.1)
        assert await sync_to_async(_seen_times)(table.pk) == (table_seen2, presences2)

    # a move this page never heard of (its announcement lost): the next ping brings it
    game, state = await get_state(game.pk)
    action = GreedyBot(state.rules).choose(seat_view(state, state.turn))
    with mock.patch.object(actions.base, "group_send_many"):  # the announcement is lost
        await sync_to_async(actions.do_play)(game.pk, state.turn, action, game.version)
    assert await a.receive_nothing(timeout=0.3)
    from games.actions import publish

    # a revision published less than IN_FLIGHT ago may still have its frame on the way
    with mock.patch.object(publish, "IN_FLIGHT", 0.2):
        await a.send_to(text_data=frame(kind="ping"))
        board = (await latest(a))[-1]
    assert f'data-version="{game.version + 1}"' in board
    await a.disconnect()


async def test_a_change_whose_publisher_died_in_its_pass_reaches_the_pages_at_a_ping():
    """A server killed while it published a table (its pass under way, the table's lock
    held) leaves a committed change nobody publishes: the moves that follow find the
    lock held and leave it to the dead pass. The table's pages find out at their next
    ping, once the lock has run out, and are sent it."""
    from django.core.cache import cache

    from games.actions import publish

    table, game, alice, bob = await setup_two_people()
    a, _, _ = await connect(alice, table.pk)
    await latest(a)
    cache.add(f"loop-lock:{table.pk}", "a process that died", publish.LOCK_TTL)
    game, state = await get_state(game.pk)
    action = GreedyBot(state.rules).choose(seat_view(state, state.turn))
    await sync_to_async(actions.do_play)(game.pk, state.turn, action, game.version)
    assert await a.receive_nothing(timeout=0.3), "the dead process never published it"
    await a.send_to(text_data=frame(kind="ping"))
    assert await a.receive_nothing(timeout=0.3), "a pass may still be under way"
    # the dead process's lock runs out; the change was asked for longer ago than a pass
    # may take
    cache.delete(f"loop-lock:{table.pk}")
    with mock.patch.object(publish, "LOCK_TTL", 0.2):
        await asyncio.sleep(0.3)
        await a.send_to(text_data=frame(kind="ping"))
        board = "".join(await latest(a))
    assert f'data-version="{game.version + 1}"' in board
    await a.disconnect()


@pytest.mark.postgres  # with SQLite, Channels runs all database work in one thread
@pytest.mark.parametrize("slow", ["ping", "move"])
async def test_a_pages_slow_frame_does_not_hold_back_the_tables_changes(slow):
    """A page's frames are handled one at a time, beside the consumer: while its ping (or
    its own move) is slow -- a busy database -- the changes others make still reach it."""
    from games.consumers import TableConsumer

    table, game, alice, bob = await setup_two_people()
    a, _, _ = await connect(alice, table.pk)
    await latest(a)
    gate = "_act" if slow == "move" else "_ping"
    payload = frame(kind="pass", version=0) if slow == "move" else frame(kind="ping")
    slow_work = getattr(TableConsumer, gate)

    def slowly(self, *args):
        time.sleep(1.5)
        return slow_work(self, *args)

    with mock.patch.object(TableConsumer, gate, slowly):
        await a.send_to(text_data=payload)
        await asyncio.sleep(0.1)  # the slow frame's work is under way
        # meanwhile the table changes (the seat to play moves, as the clock plays a bot)
        game, state = await get_state(game.pk)
        action = GreedyBot(state.rules).choose(seat_view(state, state.turn))
        await sync_to_async(actions.do_play)(game.pk, state.turn, action, game.version)
        shown = await a.receive_from(timeout=1.0)  # well before the slow frame is done
        assert f'data-version="{game.version + 1}"' in shown
        await asyncio.sleep(1.5)  # the slow frame ends (a move made on version 0: stale)
    await a.disconnect()


async def test_a_page_behind_a_busy_table_forwards_each_change_and_ends_on_the_newest():
    """Five quick changes: the page forwards the five frames the actions rendered (it
    renders nothing itself), and applied in order they give the newest board."""
    from games import render
    from games.regions import apply, is_board

    table, game, alice, bob = await setup_two_people()
    a, ok, _ = await connect(alice, table.pk)
    assert ok
    arrived = (await latest(a))[-1]  # the board, then the chat list (swapped elsewhere)
    page = apply("", arrived[:arrived.index('<ol id="chat-messages"')])

    def five_changes():
        for _ in range(5):
            game, state = _state(table.current_game().pk)
            if state.phase != "play":
                actions.do_play(game.pk, None, {"kind": "next_hand"}, game.version, by="table")
                continue
            move = GreedyBot(state.rules).choose(seat_view(state, state.turn))
            actions.do_play(game.pk, state.turn, move, game.version)

    from games import consumers

    with mock.patch.object(consumers.TableConsumer, "_board",
                           side_effect=AssertionError("a page rendered")):
        await sync_to_async(five_changes)()
        frames = [f for f in await latest(a, timeout=2) if is_board(f)]
    assert len(frames) == 5
    for f in frames:
        page = apply(page, f)
    newest = await sync_to_async(lambda: render.board(render.table_data(table.pk), alice))()
    assert page == newest.html
    await a.disconnect()


def _up_to_the_last_move(game_id):
    """Play the game on (the greedy bot's moves for both people) until the next move
    ends it; return that move's seat, its frame data and the version it is made on."""
    from games.engine import GameState, apply

    for _ in range(5000):
        game, state = _state(game_id)
        if state.phase == "showdown":
            actions.do_play(game.pk, None, {"kind": "next_hand"}, game.version, by="table")
            continue
        move = GreedyBot(state.rules).choose(seat_view(state, state.turn))
        after, _ = apply(GameState.from_dict(game.state), move)
        if after.phase == "over":
            data = move.to_dict()
            data.pop("seat")
            return state.turn, data, game.version
        actions.do_play(game.pk, state.turn, move, game.version)
    raise AssertionError("the game did not end")


def _rating_rows(game_id):
    from stats.models import PlayerGame
    from stats.rating import RatingChange

    return {r.seat: RatingChange.shown(r.rating_before, r.rating_after)
            for r in PlayerGame.objects.filter(game_id=game_id)}


async def test_the_board_sent_after_the_last_move_already_shows_the_rating_changes():
    """The stats are written in the transaction of the game's last move, and the board
    is announced after it commits: the first board anyone gets of the finished game
    carries each player's rating change, with no reload."""
    from games.regions import apply

    table, game, alice, bob = await setup_two_people()
    seat, move, version = await sync_to_async(_up_to_the_last_move)(game.pk)
    socks = {}
    socks[0], _, _ = await connect(alice, table.pk)
    socks[1], _, _ = await connect(bob, table.pk)
    pages = {}
    for i, comm in socks.items():
        pages[i] = apply("", (await latest(comm))[-1])
        assert "end-ratings" not in pages[i]  # not over yet: no rating panel
    await socks[seat].send_to(text_data=frame(**move, version=version))
    received = {i: await latest(comm) for i, comm in socks.items()}
    changes = await sync_to_async(_rating_rows)(game.pk)
    assert set(changes) == {0, 1}
    for i, messages in received.items():
        for message in messages:  # every page a player is shown after the move
            pages[i] = apply(pages[i], message)
            if 'id="standings-title"' not in pages[i]:
                continue  # not the finished game's board
            assert '<section class="end-ratings"' in pages[i]
            for change in changes.values():
                assert (f'{change.before} <span class="end-ratings__arrow">&rarr;</span> '
                        f"<strong>{change.after}</strong>") in pages[i]
        assert 'id="standings-title"' in pages[i]
    for comm in socks.values():
        await comm.disconnect()


async def test_a_change_published_while_a_page_reads_its_board_reaches_it():
    """A page listens before it reads its board: a move committed and published between
    that read and the board's sending reaches it as a frame at once (held, then sent),
    not after a ping."""
    from games import consumers

    table, game, alice, bob = await setup_two_people()
    _, state = await get_state(game.pk)
    mover = (alice, bob)[state.turn]
    watcher = (alice, bob)[1 - state.turn]
    real_arrive = consumers.TableConsumer._arrive

    def arrive_then_a_move(self):
        shown = real_arrive(self)  # the board as it was
        g, s = _state(game.pk)
        action = GreedyBot(s.rules).choose(seat_view(s, s.turn)).to_dict()
        action.pop("seat", None)
        actions.do_play(g.pk, None, action, g.version, player=mover)  # published now
        return shown

    with mock.patch.object(consumers.TableConsumer, "_arrive", arrive_then_a_move):
        page, connected, _ = await connect(watcher, table.pk)
        assert connected
        frames = await latest(page)
    game2, _ = await get_state(game.pk)
    assert game2.version == game.version + 1
    assert f'data-version="{game.version}"' in frames[0]
    assert any(f'data-version="{game2.version}"' in f for f in frames[1:]), frames[1:]
    await page.disconnect()
