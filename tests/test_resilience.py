"""What a table survives: dropped sockets, stale pages, a killed server, a Redis restart,
and a server restart between a turn's start and its deadline.

The first two run in this process against the ASGI application. The others start
real daphne processes (``tests.support.stack``) on this run's PostgreSQL test
database; the Redis ones start a Redis of their own, because restarting the
shared one would break everybody else's tests.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import shutil
import time

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connection
from django.test import Client
from django.utils import timezone
from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from games import actions, engine
from games.engine import GreedyBot, seat_view
from games.engine.cards import CODES
from games.models import Action, Game, Job, Variant
from stopbus_site.asgi import application
from tests.conftest import IN_CI
from tests.factories import UserFactory
from tests.html_contract import cards_in
from tests.support.fault import FaultPlayer, Run, SentMove, audit
from tests.support.stack import RedisServer, Stack

pytestmark = [pytest.mark.django_db(transaction=True)]

VERSION = re.compile(r'id="status"[^>]*data-version="(\d*)"')


def version_in(html: str) -> int | None:
    match = VERSION.search(html)
    return int(match.group(1)) if match and match.group(1) else None


def short_variant(turn_seconds: int | None = None) -> Variant:
    """Classic rules with one life each: a game of a few hands, over in seconds."""
    return Variant.objects.create(name="Short", slug="short", starting_lives=1,
                                  turn_seconds=turn_seconds)


def next_move(game_id: int) -> tuple[int, dict, int]:
    """(seat to move, a legal move for it as a frame's fields, the game's version)."""
    game = Game.objects.get(pk=game_id)
    state = actions.state_of(game)
    move = GreedyBot(state.rules).choose(seat_view(state, state.turn)).to_dict()
    move.pop("seat")
    return state.turn, move, game.version


def game_row(game_id: int) -> Game:
    return Game.objects.get(pk=game_id)


# -- in this process: a dropped socket, a stale page ----------------------------------------

ORIGIN = (b"origin", b"http://localhost")  # see test_consumers: ALLOWED_HOSTS at build time


def _session_cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


async def open_table(user, table_id):
    cookie = await sync_to_async(_session_cookie)(user)
    comm = WebsocketCommunicator(application, f"/ws/table/{table_id}/",
                                 headers=[ORIGIN, (b"cookie", f"sessionid={cookie}".encode())])
    connected, _ = await comm.connect(timeout=5)
    assert connected
    return comm


async def waiting_frames(comm, timeout=3.0) -> list[str]:
    frames = [await comm.receive_from(timeout=timeout)]
    while not await comm.receive_nothing(timeout=0.2):
        frames.append(await comm.receive_from(timeout=timeout))
    return frames


def _two_people_playing():
    variant = short_variant()
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    table = actions.do_create_table(alice, name="Drops", variant=variant, seats=2)
    actions.do_join_table(table, bob)
    return table, table.current_game(), {0: alice, 1: bob}


def _play_next(game_id: int, by: str = "player") -> int:
    game = Game.objects.get(pk=game_id)
    if actions.state_of(game).phase == "showdown":
        return actions.do_play(game_id, None, engine.next_hand(), game.version,
                            by="table").state.version
    seat, move, version = next_move(game_id)
    return actions.do_play(game_id, seat, move, version, by=by).state.version


@pytest.mark.asyncio
async def test_a_page_that_reconnects_gets_the_whole_current_view_at_once():
    table, game, people = await sync_to_async(_two_people_playing)()
    alice = people[0]
    page = await open_table(alice, table.pk)
    assert version_in((await waiting_frames(page))[-1]) == 0
    await page.disconnect()  # the socket drops (the laptop lid closes)

    for _ in range(3):  # the game goes on without her
        await sync_to_async(_play_next)(game.pk)

    page = await open_table(alice, table.pk)
    first = await page.receive_from(timeout=3)  # the very first frame is the whole board
    now = await sync_to_async(game_row)(game.pk)
    assert now.version == 3
    assert version_in(first) == now.version
    state = actions.state_of(now)
    face_up, _, _ = cards_in(first)
    assert {CODES[c] for c in state.hands[0]} <= set(face_up), "her hand is on the board"
    assert 'id="seat-1"' in first and 'id="status"' in first
    await page.disconnect()


@pytest.mark.asyncio
async def test_a_move_from_a_stale_page_after_reconnecting_is_refused_and_changes_nothing():
    table, game, people = await sync_to_async(_two_people_playing)()
    seat, old_move, old_version = await sync_to_async(next_move)(game.pk)
    mover = people[seat]
    page = await open_table(mover, table.pk)
    assert version_in((await waiting_frames(page))[-1]) == old_version
    await page.disconnect()

    # while the socket is down the clock plays the turn for them
    await sync_to_async(_play_next)(game.pk, by="clock")
    before = await sync_to_async(game_row)(game.pk)
    count = await Action.objects.filter(game=game).acount()

    page = await open_table(mover, table.pk)
    assert version_in(await page.receive_from(timeout=3)) == before.version
    # the form of the page as it was before the drop, sent once more
    await page.send_to(text_data=json.dumps({**old_move, "version": old_version}))
    frames = await waiting_frames(page)
    refusals = [f for f in frames if 'id="notice"' in f and "notice--error" in f]
    assert refusals, frames
    assert "moved on before your move" in refusals[0] and "it was not played" in refusals[0]
    # in a player's words: no version numbers, and the board that follows is the game's now
    assert "The table now shows where the game is." in refusals[0]
    assert version_in(frames[-1]) == before.version, "a fresh board follows the refusal"

    after = await sync_to_async(game_row)(game.pk)
    assert (after.version, after.state) == (before.version, before.state)
    assert await Action.objects.filter(game=game).acount() == count
    await page.disconnect()


@pytest.mark.asyncio
async def test_a_change_whose_announcement_was_lost_reaches_the_others_when_a_page_reconnects(
        monkeypatch):
    """A server that dies between COMMIT and its group_send (or a Redis that is down then)
    leaves the other pages on the old version until their next ping, up to 25 s later; the
    mover's page reconnecting elsewhere is the moment someone knows the table changed."""
    table, game, people = await sync_to_async(_two_people_playing)()
    pages = {seat: await open_table(user, table.pk) for seat, user in people.items()}
    for page in pages.values():
        await waiting_frames(page)
    monkeypatch.setattr(actions.base, "group_send_many", lambda *args, **kwargs: False)
    seat, move, version = await sync_to_async(next_move)(game.pk)
    await sync_to_async(actions.do_play)(game.pk, seat, move, version)  # told to nobody
    monkeypatch.undo()

    await pages[seat].disconnect()
    pages[seat] = await open_table(people[seat], table.pk)
    assert version_in(await pages[seat].receive_from(timeout=3)) == version + 1
    others = await waiting_frames(pages[1 - seat], timeout=2) if not await pages[
        1 - seat].receive_nothing(timeout=2) else []
    for page in pages.values():
        await page.disconnect()
    assert version + 1 in [version_in(f) for f in others], "the other page is stuck"


def test_the_fault_audit_notices_a_lost_move_a_gap_and_a_replay_mismatch():
    """The benchmark's and the tests' "nothing lost" means something: here it is not so."""
    table, game, people = _two_people_playing()
    seat, move, version = next_move(game.pk)
    actions.do_play(game.pk, seat, move, version)

    def player(user, *moves):
        fake = FaultPlayer("ws://nowhere", table.pk, "", "", table_id=table.pk,
                           user_id=user.pk, ping_every=25)
        fake.moves = [SentMove(table.pk, user.pk, v, {**m, "version": v}, 1, 0.0,
                               saw_later=True) for v, m in moves]
        return fake

    run = Run([(table, [])])
    run.players = [player(people[seat], (version, move)),
                   player(people[1 - seat], (version + 1, {"kind": "stop"}))]
    result = audit(run)
    assert (result.sent, result.applied, result.acknowledged) == (2, 1, 2)
    assert len(result.lost) == 1 and "stop" in result.lost[0]
    assert result.played_by_nobody == 1
    assert not result.gaps and not result.mismatches

    Action.objects.filter(game=game, seq=1).delete()
    result = audit(run)
    assert len(result.gaps) == 1 and len(result.mismatches) == 1 and len(result.lost) == 2


# -- real servers ---------------------------------------------------------------------------


class StackOnTestDatabase(Stack):
    """The stack's servers and proxy on pytest-django's test database: already
    migrated, emptied after the test, and what this process's ORM already uses."""

    def __init__(self, tmp_path, processes: int, redis_url: str, proxy: bool = True):
        super().__init__(processes=processes, database=connection.settings_dict["NAME"],
                         pg_url=os.environ["DATABASE_URL"], redis_url=redis_url, proxy=proxy,
                         log_dir=tmp_path / "servers")

    def _fresh_database(self) -> None:
        assert connection.vendor == "postgresql"

    def _configure_django(self) -> None:
        pass  # pytest-django did


@contextlib.contextmanager
def servers(tmp_path, processes: int, redis_url: str, proxy: bool = True):
    stack = StackOnTestDatabase(tmp_path, processes, redis_url, proxy)
    try:
        stack.__enter__()
        yield stack
    except BaseException:
        for log in sorted((tmp_path / "servers").glob("daphne-*.log")):
            print(f"--- {log.name}\n{log.read_text(errors='replace')[-4000:]}")
        raise
    finally:
        stack.__exit__(None, None, None)


@pytest.fixture
def own_redis(tmp_path):
    """A Redis of this test's own, to restart or empty at will."""
    if shutil.which("redis-server") is None:
        if IN_CI:
            pytest.fail("redis-server is required when CI=true", pytrace=False)
        pytest.skip("needs the redis-server program")
    server = RedisServer(log=tmp_path / "redis.log").start()
    yield server
    server.stop()


def players_for(stack, tables, think: float = 0.1) -> list[FaultPlayer]:
    return [FaultPlayer(stack.ws_url, table.pk, cookie, stack.url, seed=table.pk * 10 + i,
                        think=think, retry_for=60.0, table_id=table.pk, user_id=user.pk,
                        ping_every=25.0)
            for table, group in tables for i, (user, cookie) in enumerate(group)]


@contextlib.asynccontextmanager
async def playing_all(players: list[FaultPlayer]):
    """The players play in the background and ping as the page does (a change whose
    publisher died with its server reaches the pages at a ping); whatever happens, they
    stop at the end."""
    games = asyncio.gather(*(p.run() for p in players))
    pings = [asyncio.create_task(p.keep_pinging()) for p in players]
    try:
        yield games
    finally:
        for player in players:
            player.stop.set()
        games.cancel()
        for task in pings:
            task.cancel()
        await asyncio.gather(games, *pings, return_exceptions=True)


def _versions(table_ids) -> list[tuple[int, str]]:
    return list(Game.objects.filter(table_id__in=table_ids).values_list("version", "status"))


async def every_game_reaches(table_ids, version: int, timeout: float = 30.0) -> int:
    """Wait until every game is at least at ``version``; returns how many still play."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        rows = await sync_to_async(_versions)(table_ids)
        if len(rows) == len(table_ids) and all(v >= version or s != "playing"
                                               for v, s in rows):
            return sum(s == "playing" for _, s in rows)
        await asyncio.sleep(0.1)
    raise AssertionError(f"the games did not reach version {version}: {rows}")


def assert_nothing_lost(run: Run) -> None:
    result = audit(run)
    assert result.finished == len(run.tables), "every game finished"
    assert not result.lost, result.lost
    assert not result.gaps, result.gaps
    assert not result.mismatches, result.mismatches
    assert result.applied == result.by["player"], "each person's log row is a move they sent"
    assert not [e for p in run.players for e in p.stats.errors]


@pytest.mark.timeout(150)
@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.multiprocess
def test_a_server_killed_mid_game_loses_no_action(tmp_path):
    with servers(tmp_path, 2, os.environ["REDIS_URL"]) as stack:
        short_variant()
        people = stack.make_people(9)
        run = Run(stack.make_tables(people, per_table=3, variant="short"))
        run.players = players_for(stack, run.tables)
        ids = [table.pk for table, _ in run.tables]

        async def scenario():
            async with playing_all(run.players) as games:
                playing = await every_game_reaches(ids, 4)
                await asyncio.to_thread(stack.servers[1].kill)
                await asyncio.sleep(2)
                await asyncio.to_thread(stack.servers[1].start)
                await asyncio.wait_for(games, 100)
            return playing

        playing = asyncio.run(scenario())
    assert playing == len(run.tables), "the kill struck while every game was running"
    dropped = [p for p in run.players if p.stats.reconnects]
    assert dropped, "the killed server had clients, and they came back through the proxy"
    assert max(r for p in dropped for r in p.stats.reconnects) < 10
    assert_nothing_lost(run)


class Page:
    """A test-driven table page over a real socket: reconnects when told, like the page."""

    def __init__(self, stack, table_id: int, cookie: str):
        self.url = f"{stack.ws_url}/ws/table/{table_id}/"
        self.origin = stack.url
        self.cookie = cookie
        self.ws = None
        self.closed = False

    async def open(self) -> str:
        """Connect and return the first frame: the whole board."""
        for _ in range(50):
            try:
                self.ws = await ws_connect(self.url, origin=self.origin,
                                           additional_headers={"Cookie": self.cookie},
                                           open_timeout=5)
                self.closed = False
                return await asyncio.wait_for(self.ws.recv(), 5)
            except (OSError, ConnectionClosed, InvalidHandshake, TimeoutError) as exc:
                last = exc
                await asyncio.sleep(0.2)
        raise AssertionError(f"could not reconnect: {last!r}")

    async def drain(self, quiet: float = 0.5) -> list[str]:
        """Whatever has arrived; notes whether the server closed the socket."""
        frames = []
        try:
            while True:
                frames.append(await asyncio.wait_for(self.ws.recv(), quiet))
        except TimeoutError:
            pass
        except ConnectionClosed:
            self.closed = True
        return frames

    async def send(self, data: dict) -> None:
        await self.ws.send(json.dumps(data))

    async def version(self, wanted: int, timeout: float = 5.0) -> str:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            frame = await asyncio.wait_for(self.ws.recv(), deadline - loop.time())
            if version_in(frame) == wanted:
                return frame

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()


async def play_one_move(game_id: int, pages: dict[int, Page]) -> int:
    """The seat whose turn it is moves through its page; returns the new version."""
    seat, move, version = await sync_to_async(next_move)(game_id)
    page = pages[seat]
    await page.drain(0.1)
    if page.closed:
        await page.open()
    await page.send({**move, "version": version})
    for _ in range(100):
        if (await sync_to_async(game_row)(game_id)).version > version:
            return version + 1
        await asyncio.sleep(0.05)
    raise AssertionError(f"the move at version {version} was not played")


async def resync_idle_watcher(game_id: int, pages: dict[int, Page], watcher: Page) -> None:
    """After Redis lost everything, a move is made; the watcher, idle until now, gets it."""
    version = await play_one_move(game_id, pages)
    # a page reconnects if its socket was closed, and pings every 25 s; either way
    # the view it gets now is the current one
    await watcher.drain()
    print("the idle watcher's socket was", "closed: it reconnects" if watcher.closed
          else "kept: it pings")
    if watcher.closed:
        assert version_in(await watcher.open()) == version
    else:
        await watcher.send({"kind": "ping"})
        await watcher.version(version)
    # and it is back in the table's group: the next move reaches it unasked
    version = await play_one_move(game_id, pages)
    await watcher.version(version)


def _pair_and_watcher(stack):
    (table, pair), = stack.make_tables(stack.make_people(2, prefix="pair"), per_table=2,
                                       variant="short")
    game = table.current_game()
    seats = dict(game.players.values_list("user_id", "seat"))
    cookies = {seats[user.pk]: cookie for user, cookie in pair}
    _, watcher_cookie = stack.make_people(1, prefix="watcher")[0]
    return table, game, cookies, watcher_cookie


@pytest.mark.timeout(150)
@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.multiprocess
def test_after_redis_restarts_every_client_resyncs_and_the_games_finish(tmp_path, own_redis):
    with servers(tmp_path, 2, own_redis.url) as stack:
        short_variant()
        run = Run(stack.make_tables(stack.make_people(4), per_table=2, variant="short"))
        run.players = players_for(stack, run.tables)
        ids = [table.pk for table, _ in run.tables]
        # and a table the test plays by hand, with a spectator who stays idle throughout
        table, game, cookies, watcher_cookie = _pair_and_watcher(stack)

        async def scenario():
            pages = {seat: Page(stack, table.pk, cookie) for seat, cookie in cookies.items()}
            watcher = Page(stack, table.pk, watcher_cookie)
            for page in (*pages.values(), watcher):
                assert version_in(await page.open()) == 0
            async with playing_all(run.players) as games:
                playing = await every_game_reaches(ids, 3)
                down = await asyncio.to_thread(own_redis.restart, 1.0)
                await resync_idle_watcher(game.pk, pages, watcher)
                await asyncio.wait_for(games, 100)
            for page in (*pages.values(), watcher):
                await page.close()
            return playing, down

        playing, down = asyncio.run(scenario())
    assert playing == len(run.tables), "Redis went down while every game was running"
    assert down >= 1.0
    assert_nothing_lost(run)


@pytest.mark.timeout(90)
@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.multiprocess
def test_a_page_whose_group_redis_forgot_is_healed_by_its_next_ping(tmp_path, own_redis):
    """Redis came back empty under a connection that survived: the consumer is no longer
    in its table's group, so nothing reaches the page, until its ping re-joins it."""
    import redis

    with servers(tmp_path, 1, own_redis.url, proxy=False) as stack:
        short_variant()
        table, game, cookies, watcher_cookie = _pair_and_watcher(stack)

        async def scenario():
            pages = {seat: Page(stack, table.pk, cookie) for seat, cookie in cookies.items()}
            watcher = Page(stack, table.pk, watcher_cookie)
            for page in (*pages.values(), watcher):
                assert version_in(await page.open()) == 0
            client = redis.Redis.from_url(own_redis.url)
            client.flushall()  # every group forgotten; every socket still open
            client.close()

            version = await play_one_move(game.pk, pages)
            missed = await watcher.drain(1.5)
            assert not watcher.closed
            assert version not in [version_in(f) for f in missed], "the group is gone"
            await watcher.send({"kind": "ping"})
            await watcher.version(version)  # the ping re-renders the view
            version = await play_one_move(game.pk, pages)
            await watcher.version(version)  # and re-joined the group
            for page in (*pages.values(), watcher):
                await page.close()

        asyncio.run(scenario())


@pytest.mark.timeout(90)
@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.multiprocess
def test_a_turn_deadline_fires_after_the_only_server_was_killed_and_started_again(tmp_path):
    with servers(tmp_path, 1, os.environ["REDIS_URL"], proxy=False) as stack:
        short_variant(turn_seconds=5)
        (table, _), = stack.make_tables(stack.make_people(2), per_table=2, variant="short")
        server = stack.servers[0]
        server.kill()  # the only process, with its clock, dies before the deadline
        game = table.current_game()
        assert game.deadline is not None
        job = Job.objects.get(game=game, kind=Job.Kind.TURN_TIMEOUT, version=0)
        assert job.claimed_at is None and job.due_at == game.deadline

        time.sleep((game.deadline - timezone.now()).total_seconds() + 1.0)
        assert Action.objects.filter(game=game).count() == 1, "nobody ran it: no server"

        server.start()  # its first request starts its clock
        deadline = time.monotonic() + 20
        while not job.result.startswith("timed out"):  # the job's word once its turn is played
            assert time.monotonic() < deadline, f"the deadline never fired ({job.result!r})"
            time.sleep(0.2)
            job.refresh_from_db()
        timed_out = Action.objects.filter(game=game, by="clock").order_by("seq").first()
    assert timed_out.seq == 1 and timed_out.seat == actions.state_of(game).turn
    assert job.done_at is not None
    assert job.claimed_by.endswith(f":{server.process.pid}"), "the new process ran it"
    seqs = list(Action.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(len(seqs))), "no gap, nothing twice"

