"""Games through faults: kill -9 a server and restart Redis mid-game, then audit the log.

The machinery of ``python -m benchmarks.fault`` (its command line and printed
figures are in benchmarks/fault.py); tests/test_resilience.py uses its players
and its audit too. The command starts a Redis of its own (the shared one on 6379
is never touched), two daphne processes on a fresh PostgreSQL database
(``--database``, default ``stopbus_fault``) and that Redis, behind the
round-robin proxy of :mod:`tests.support.stack`; seats ``--players`` people
(plus ``--bots`` greedy bots) at each of ``--tables`` tables, and connects one
websocket client per person through the proxy. Each client plays from the HTML
only (:mod:`tests.support.wsplayer`), reconnects after a drop and pings every
``--ping`` seconds as the page does. While the games run:

* at ``--kill-at`` seconds, server 1 gets kill -9; its clients reconnect
  through the proxy to server 0. It is started again ``--down-for`` seconds
  later (``--no-restart``: never; server 0 then finishes every game alone);
* at ``--redis-at`` seconds, Redis is killed, stays down ``--redis-down``
  seconds and comes back empty: no groups, no queued messages.

Every game is then played to its end, and the log is audited:

* **lost**: a move the client sent and saw acknowledged -- it later saw a
  version after the one it moved on, and no refusal came for it -- that is not
  the log's next action. Must be 0.
* **gaps**: each game's log must be seq 0..version without a hole.
* **replay**: replaying each log from its seed with the engine must give the
  stored snapshot exactly.
* moves that were not applied are counted by why: refused (the client was
  told, e.g. stale after a reconnect), resent (the connection dropped before an
  answer and the client chose again on the fresh view), or unanswered; moves
  made for a version nobody ever played on are counted too.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import re
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from websockets.exceptions import ConnectionClosed

from games.regions import apply, is_board
from tests.support.stack import RedisServer, Stack
from tests.support.wsplayer import Board, Player

MOVE_KINDS = {"swap", "stop", "pass", "draw", "take_discard", "discard", "dealer_swap"}
STALE_VERSION = re.compile(r"\(version (\d+), now \d+\)")


@dataclass
class SentMove:
    """One move frame a client sent, and what the client learnt of it."""

    table_id: int
    user_id: int
    version: int
    frame: dict
    connection: int
    sent_at: float
    refused: str | None = None
    saw_later: bool = False  # the client later saw a version after ``version``


@dataclass
class Fault:
    name: str
    at: float  # seconds since the games began
    seconds: float = 0.0  # how long it took (down time)
    playing: int = 0  # games still running when it struck


class _Recording:
    """The websocket as the player sees it, noting each move it sends."""

    def __init__(self, ws, player: FaultPlayer):
        self._ws = ws
        self._player = player

    async def send(self, text: str) -> None:
        data = json.loads(text)
        if data.get("kind") in MOVE_KINDS:
            self._player.moves.append(SentMove(
                self._player.table_id, self._player.user_id, int(data["version"]), data,
                self._player.connection, time.monotonic()))
        await self._ws.send(text)


class FaultPlayer(Player):
    """A :class:`Player` that records its moves, its connections and pings like the page."""

    def __init__(self, *args, table_id: int, user_id: int, ping_every: float, **kwargs):
        super().__init__(*args, **kwargs)
        self.table_id = table_id
        self.user_id = user_id
        self.ping_every = ping_every
        self.moves: list[SentMove] = []
        self.connection = 0
        self.reconnected_at: list[float] = []  # monotonic times a new connection showed a view
        self.pings = 0
        self._ws = None

    async def _frame(self, ws, frame: str) -> None:
        if ws is not self._ws:
            self._ws = ws
            self.connection += 1
        while len(self.reconnected_at) < len(self.stats.reconnects):  # run() just timed one
            self.reconnected_at.append(time.monotonic())
        if 'id="notice"' in frame and "notice--error" in frame:
            self._note_refusal(re.sub(r"<[^>]+>", "", frame).strip())
        board = Board.parse(apply(self.page.html, frame)) if is_board(frame) else None
        if board is not None and board.version is not None:
            for move in reversed(self.moves):
                if move.saw_later:
                    break
                if move.version < board.version:
                    move.saw_later = True
        await super()._frame(_Recording(ws, self), frame)

    def _note_refusal(self, text: str) -> None:
        """Pin a refusal on the move it answers: the stale one names its version,
        others answer the last move sent on this connection."""
        if "hand to move on from" in text or "deal the next hand" in text:
            return  # a refused "ready": not a move
        mine = [m for m in self.moves if m.connection == self.connection and m.refused is None]
        named = STALE_VERSION.search(text)
        if named:
            mine = [m for m in mine if m.version == int(named.group(1))] or mine[-1:]
        if mine:
            mine[-1].refused = text

    async def keep_pinging(self) -> None:
        """``{"kind": "ping"}`` every so often, as the page does: the server re-joins
        the table's group and sends what changed (heals a lost group after Redis
        restarts)."""
        while not self.over and not self.stop.is_set():
            await asyncio.sleep(self.ping_every)
            ws = self._ws
            if ws is None:
                continue
            with contextlib.suppress(ConnectionClosed, OSError, RuntimeError):
                await ws.send(json.dumps({"kind": "ping"}))
                self.pings += 1


# -- the run ---------------------------------------------------------------------------------


@dataclass
class Run:
    tables: list
    players: list[FaultPlayer] = field(default_factory=list)
    faults: list[Fault] = field(default_factory=list)
    began: float = 0.0
    began_wall: float = 0.0
    ended: float = 0.0
    timed_out: bool = False
    fault_error: str | None = None


def _playing_games(table_ids: list[int]) -> int:
    from games.models import Game

    return Game.objects.filter(table_id__in=table_ids, status=Game.Status.PLAYING).count()


async def _faults(stack: Stack, redis: RedisServer, run: Run, args) -> None:
    """Strike at the set times; blocking steps run in threads so the clients play on."""
    from asgiref.sync import sync_to_async

    playing = sync_to_async(_playing_games)
    ids = [table.pk for table, _ in run.tables]

    async def at(seconds: float) -> None:
        await asyncio.sleep(max(0.0, run.began + seconds - time.monotonic()))

    schedule = [("kill", args.kill_at), ("redis", args.redis_at)]
    if not args.no_restart:
        schedule.append(("start", args.kill_at + args.down_for))
    for what, when in sorted(schedule, key=lambda item: item[1]):
        await at(when)
        fault = Fault(what, time.monotonic() - run.began, playing=await playing(ids))
        started = time.monotonic()
        if what == "kill":
            fault.name = f"kill -9 server 1 (port {stack.servers[1].port})"
            await asyncio.to_thread(stack.servers[1].kill)
        elif what == "start":
            fault.name = "start server 1 again"
            await asyncio.to_thread(stack.servers[1].start)
        else:
            fault.name = f"restart Redis (down {args.redis_down:g} s)"
            await asyncio.to_thread(redis.restart, args.redis_down)
        fault.seconds = time.monotonic() - started
        run.faults.append(fault)
        print(f"  t={fault.at:6.1f}s  {fault.name}: {fault.playing} games playing, "
              f"took {fault.seconds:.1f}s", flush=True)


async def _progress(run: Run) -> None:
    while True:
        await asyncio.sleep(10)
        done = sum(p.over for p in run.players)
        moves = sum(len(p.moves) for p in run.players)
        print(f"  t={time.monotonic() - run.began:6.1f}s  {done}/{len(run.players)} clients "
              f"saw their game end, {moves} moves sent", flush=True)


async def play_through_faults(stack: Stack, redis: RedisServer, run: Run, args) -> None:
    for t, (table, group) in enumerate(run.tables):
        for s, (user, cookie) in enumerate(group):
            run.players.append(FaultPlayer(
                stack.ws_url, table.pk, cookie, stack.url, seed=args.seed * 100_003 + t * 17 + s,
                think=args.think, retry_for=120.0, table_id=table.pk, user_id=user.pk,
                ping_every=args.ping))
    run.began, run.began_wall = time.monotonic(), time.time()
    helpers = [asyncio.create_task(p.keep_pinging()) for p in run.players]
    helpers.append(asyncio.create_task(_progress(run)))
    faults = asyncio.create_task(_faults(stack, redis, run, args))
    games = asyncio.gather(*(p.run() for p in run.players))
    try:
        await asyncio.wait_for(asyncio.shield(games), args.timeout)
    except TimeoutError:
        run.timed_out = True
    finally:
        run.ended = time.monotonic()
        for player in run.players:
            player.stop.set()
        games.cancel()
        await asyncio.gather(games, return_exceptions=True)
        for task in helpers:
            task.cancel()
        if not faults.done():
            print("  (play stopped before every fault struck; the rest were skipped)")
            faults.cancel()
        await asyncio.gather(*helpers, faults, return_exceptions=True)
        if not faults.cancelled() and faults.exception() is not None:
            run.fault_error = repr(faults.exception())


# -- the audit -------------------------------------------------------------------------------


@dataclass
class Audit:
    expected: int = 0
    games: int = 0
    finished: int = 0
    log_actions: int = 0
    by: Counter = field(default_factory=Counter)
    gaps: list[str] = field(default_factory=list)
    mismatches: list[str] = field(default_factory=list)
    sent: int = 0
    applied: int = 0
    refused: int = 0
    resent: int = 0
    unanswered: int = 0
    played_by_nobody: int = 0
    acknowledged: int = 0
    lost: list[str] = field(default_factory=list)
    # per game, the longest: (seconds, table, after seq, starting at t)
    pauses: list[tuple[float, int, int, float]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return (not self.lost and not self.gaps and not self.mismatches
                and self.finished == self.games == self.expected)


def _normal(payload) -> dict:
    return json.loads(json.dumps(payload))


def audit(run: Run) -> Audit:
    """Check the log of every game against itself, the engine and what clients saw."""
    from games.engine import Action as EngineAction
    from games.engine import HouseRules, replay
    from games.frames import parse
    from games.models import Game

    result = Audit(expected=len(run.tables))
    logs: dict[int, dict[int, tuple]] = {}
    seats: dict[tuple[int, int], int] = {}
    for table, _ in run.tables:
        game = Game.objects.filter(table_id=table.pk).order_by("-number").first()
        if game is None:
            continue
        result.games += 1
        result.finished += game.status == Game.Status.FINISHED
        logged = list(game.actions.order_by("seq").values_list(
            "seq", "seat", "payload", "by", "created_at"))
        rows = [row[:4] for row in logged]
        if len(logged) > 2:  # the longest silence in play: a stalled clock, a slow recovery
            gap, after, since = max(((b[4] - a[4]).total_seconds(), a[0], a[4].timestamp())
                                    for a, b in itertools.pairwise(logged[1:]))
            result.pauses.append((gap, table.pk, after, since - run.began_wall))
        result.log_actions += len(rows) - 1
        result.by.update(by for seq, _, _, by in rows if seq > 0)
        seqs = [seq for seq, *_ in rows]
        if seqs != list(range(game.version + 1)):
            missing = sorted(set(range(game.version + 1)) - set(seqs))
            result.gaps.append(f"table {table.pk}: version {game.version}, "
                               f"missing seq {missing[:10]}")
        players = list(game.players.order_by("seat"))
        names = [p.name for p in players]
        for p in players:
            if p.user_id:
                seats[(table.pk, p.user_id)] = p.seat
        replayed = replay(HouseRules.from_dict(game.rules), names, bytes.fromhex(game.seed),
                          [payload for seq, _, payload, _ in rows if seq > 0])
        if _normal(replayed.to_dict()) != _normal(game.state):
            result.mismatches.append(f"table {table.pk}: the replay of {len(rows) - 1} "
                                     "actions differs from the stored state")
        logs[table.pk] = {seq: (seat, _normal(payload), by) for seq, seat, payload, by in rows}

    by_decision: dict[tuple[int, int, int], list[SentMove]] = defaultdict(list)
    for player in run.players:
        for move in player.moves:
            by_decision[(move.table_id, move.user_id, move.version)].append(move)
    for (table_id, user_id, version), moves in by_decision.items():
        seat = seats.get((table_id, user_id))
        following = logs.get(table_id, {}).get(version + 1)

        def applied(move, seat=seat, following=following) -> bool:
            if following is None or seat is None:
                return False
            action = parse(json.dumps(move.frame)).action
            expected = EngineAction.from_dict({**action, "seat": seat}).to_dict()
            return following == (seat, _normal(expected), "player")

        hits = [applied(m) for m in moves]
        # a client that resent the very same move after a drop: one of them is the log's
        chosen = max((i for i, hit in enumerate(hits) if hit), default=None)
        for i, move in enumerate(moves):
            result.sent += 1
            if following is None:
                result.played_by_nobody += 1
            if i == chosen:
                result.applied += 1
            elif move.refused:
                result.refused += 1
            elif i < len(moves) - 1:
                result.resent += 1
            else:
                result.unanswered += 1
        last = moves[-1]
        if last.saw_later and last.refused is None:
            result.acknowledged += 1
            if chosen is None:
                result.lost.append(
                    f"table {table_id} user {user_id}: {last.frame} on version {version}; "
                    f"the log has {following} at seq {version + 1}")
    return result
