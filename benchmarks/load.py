"""Load: many tables of four real people playing through websockets, against a baseline.

    .venv/bin/python -m benchmarks.load --tables 1000 --rate 200 --duration 60
    .venv/bin/python -m benchmarks.load --tables 1000 --find-max          # raise the rate
    .venv/bin/python -m benchmarks.load --tables 50 --rate 20 --duration 15  # a quick look
    .venv/bin/python -m benchmarks.load --tables 200 --rate 50 --only app --py-spy  # profile
    .venv/bin/python -m benchmarks.load --tables 200 --find-max --overload  # 2x the clean max

Starts the real stack (``tests.support.stack``): a fresh PostgreSQL database, a
Redis of its own for channels-redis, two daphne processes on two ports. Creates
``--tables`` started tables of four users and connects every user's websocket
with their session cookie, half of each table to one process and half to the
other (so every move crosses processes through Redis), from ``--workers`` load
processes, each an asyncio loop holding whole tables.

Each client reads only the HTML it is sent (``tests.support.wsplayer``) and plays a
legal move when it is its turn. Every table makes at most one move per
``tables / rate`` seconds (phases spread at random), so the room offers
``--rate`` moves a second while the server keeps up; a table waits for the new
view before its next move, so when the server falls behind the room slows
down, and "achieved" says by how much. The clock deals the next hand after a
showdown (``--showdown-pause``); when a game ends its first seat asks for
another (``POST /t/<id>/again/``), as the page's button does. Like the page,
each client pings every ``--ping`` seconds. The tables' turn clock is
``--turn-seconds`` (600 s by default, so that the server does not play the
turns of a table paced slower than the usual 45 s clock).

A move's latency runs from its frame being sent to the *last* of the table's
four clients receiving a view with the new version. A move not seen by all
four within ``LOST_AFTER`` seconds counts as lost. Errors are refusals (error
notices), disconnects, lost moves and tracebacks in the daphne logs.

``--find-max`` also names the clean maximum: the most moves/s of a step with no
error, at least 90 % of the offered rate achieved and p99 within ``--clean-p99``
(250 ms). ``--overload`` offers twice the clean maximum for a minute, then drops
back to it, and checks every move the clients saw applied against the game log
(there once, as that seat's move at the next version; no version played twice).

The baseline (``benchmarks.baseline_app``) runs on the same kind of stack with
the same clients and pacing, but its server only sends each frame to the
table's group; the clients take turns by counting. The ratio of the two
achieved rates is the figure that holds on a shared, noisy machine.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import re
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks import spy
from games.regions import is_board
from tests.support.wsplayer import Board, Page, choose

FIRST_TURN_GRACE = 900  # seconds: connecting thousands of clients takes a while
LOST_AFTER = 5.0  # seconds without every seat seeing a move: it is lost
GRACE = LOST_AFTER + 0.5
SLOT_CHECK = 0.25  # seconds: how often a move waiting for its table's slot looks again
SLOWEST = 12  # the slowest moves of a window each load process names (--overload)
BASELINE_APP = "benchmarks.baseline_app:application"
SITE_APP = "stopbus_site.asgi:application"
ERROR_NOTICE = re.compile(r'id="notice" class="notice notice--error"[^>]*>(.*?)</div>', re.S)


# =================================================================================================
# The load workers (separate processes; no Django here)
# =================================================================================================


@dataclass
class Move:
    sent_wall: float
    sent: float  # monotonic
    at: tuple  # (game, version) the move was made on
    mover: int = 0
    kind: str = ""
    seen: set = field(default_factory=set)
    latency: float | None = None  # until the last seat has the new view
    first: float | None = None  # until the first seat has it
    own: float | None = None  # until the mover has it
    refused: bool = False


class TableRun:
    """One table's four clients: the pacing of its moves and the latency tracker.

    Views are ordered by (game, version): each client counts the games it has
    seen end, so a new game's version 0 comes after the last one's final view.
    """

    def __init__(self, worker: Worker, table_id: int, seats: int):
        self.worker = worker
        self.table_id = table_id
        self.seats = seats
        self.next_slot = 0.0
        self.pending: Move | None = None
        self.moves: list[Move] = []
        self.updates: list[float] = []  # wall times a new view first reached a seat
        self.top = (0, -1)

    def saw(self, seat: int, at: tuple) -> None:
        if at > self.top:
            self.top = at
            self.updates.append(time.time())
        move = self.pending
        if move is not None and at > move.at and seat not in move.seen:
            move.seen.add(seat)
            took = time.monotonic() - move.sent
            if move.first is None:
                move.first = took
            if seat == move.mover:
                move.own = took
            if len(move.seen) == self.seats:
                move.latency = took
                self.pending = None

    def refused(self) -> None:
        if self.pending is not None:
            self.pending.refused = True
            self.pending = None

    async def wait_for_slot(self, wanted=None) -> bool:
        """Wait for the table's next slot and take it; or, if ``wanted()`` turns false
        first (the move was chosen on a board that has moved on), give up without taking
        it (False). A move given up must not take a slot: the table's next move would
        wait a whole interval more, and the room would offer less than it says (after an
        overload, when boards moved on under moves still waiting, markedly so)."""
        await self.worker.go.wait()
        while True:
            if wanted is not None and not wanted():
                self.worker.stats["given_up"] += 1
                return False
            delay = self.next_slot - time.monotonic()
            if delay <= 0:
                break
            await asyncio.sleep(min(delay, SLOT_CHECK))
        self.next_slot = time.monotonic() + self.worker.interval
        return True

    def sent(self, at: tuple, mover: int, kind: str = "") -> None:
        move = Move(time.time(), time.monotonic(), at, mover, kind)
        self.pending = move
        self.moves.append(move)


class Client:
    """One person's websocket at a table."""

    def __init__(self, run: TableRun, seat: int, url: str, cookie: str, origin: str,
                 baseline: bool, ping: float, rng: random.Random):
        self.page = Page()  # the board as this seat's browser would show it
        self.run = run
        self.seat = seat
        self.url = url
        self.cookie = cookie
        self.origin = origin
        self.baseline = baseline
        self.ping = ping
        self.rng = rng
        self.ws = None
        self.version: int | None = None
        self.game = 0  # games this client has seen end
        self.ended = False
        self.sent_for: tuple | None = None
        self.connected = asyncio.Event()
        self.closing = False

    async def keep_connected(self) -> None:
        from websockets.asyncio.client import connect

        worker = self.run.worker
        failures = 0
        while not self.closing:
            try:
                async with connect(self.url, origin=self.origin,
                                   additional_headers={"Cookie": self.cookie} if self.cookie
                                   else None, open_timeout=60, max_size=2**22,
                                   compression=None, ping_interval=None) as ws:
                    self.ws = ws
                    self.connected.set()
                    failures = 0
                    if self.baseline and self.seat == 0 and self.run.top < (0, 0):
                        self.turn(0, {"kind": "move"})
                    pinger = asyncio.create_task(self.pinger()) if self.ping else None
                    try:
                        async for frame in ws:
                            worker.stats["frames"] += 1
                            worker.stats["bytes"] += len(frame)
                            if self.baseline or is_board(frame):
                                worker.sizes.append(len(frame.encode()))
                            self.on_frame(frame)
                    finally:
                        if pinger:
                            pinger.cancel()
                if not self.closing:
                    worker.stats["disconnects"] += 1
            except Exception as exc:  # noqa: BLE001 -- any failure is counted and retried
                if self.closing:
                    break
                failures += 1
                key = "disconnects" if self.connected.is_set() else "connect_failures"
                worker.stats[key] += 1
                worker.note(f"{type(exc).__name__}: {exc}"[:200])
                if failures > 20:
                    return
            self.ws = None
            self.sent_for = None
            if not self.closing:
                await asyncio.sleep(0.2 + self.rng.random() * 0.5)

    async def pinger(self) -> None:
        await asyncio.sleep(self.rng.random() * self.ping)
        while True:
            with contextlib.suppress(Exception):
                await self.ws.send('{"kind": "ping"}')
                self.run.worker.stats["pings"] += 1
            await asyncio.sleep(self.ping)

    def on_frame(self, frame: str) -> None:
        run = self.run
        if self.baseline:
            version = json.loads(frame)["version"] + 1
            run.saw(self.seat, (0, version))
            if version % run.seats == self.seat:
                self.turn(version, {"kind": "move"})
            return
        notice = ERROR_NOTICE.search(frame)
        if notice:
            self.run.worker.stats["refusals"] += 1
            self.run.worker.note("refused: " + notice.group(1).strip()[:160])
            run.refused()
            self.sent_for = None
        board = self.page.board(frame)
        if board is None and notice and self.page.html:
            # "try again in a moment": the move is chosen again on the board shown and
            # sent at the table's next slot, as its player would click again
            board = Board.parse(self.page.html)
        if board is None or board.version is None:
            return
        if self.ended and not board.over:
            self.game += 1  # the table plays again
            self.ended = False
        self.version = board.version
        run.saw(self.seat, (self.game, board.version))
        if board.over:
            if not self.ended and self.seat == 0:
                asyncio.create_task(self.play_again())
            self.ended = True
            return
        if self.sent_for == (self.game, board.version):
            return
        move = choose(board, self.rng)
        if move is not None:
            self.turn(board.version, move)

    def turn(self, version: int, move: dict) -> None:
        self.sent_for = (self.game, version)
        asyncio.create_task(self.play(self.game, version, move))

    async def play(self, game: int, version: int, move: dict) -> None:
        run = self.run

        def wanted() -> bool:  # not if the board moved on (or the line dropped) meanwhile
            return self.ws is not None and (self.baseline or
                                            (self.game, self.version) == (game, version))

        if not await run.wait_for_slot(wanted):
            return
        run.sent((game, version), self.seat, move.get("kind", ""))
        try:
            await self.ws.send(json.dumps({**move, "version": version}))
            self.run.worker.stats["sent"] += 1
        except Exception:  # noqa: BLE001 -- a drop: counted by keep_connected
            run.pending = None

    async def play_again(self) -> None:
        """The game is over: ask for another with the same seats, as the page's button."""
        run = self.run
        await run.wait_for_slot()
        host, port = self.origin.removeprefix("http://").split(":")
        token = "loadcsrf" * 4  # any 32 letters, sent as cookie and header, will do
        request = (f"POST /t/{run.table_id}/again/ HTTP/1.1\r\nHost: {host}:{port}\r\n"
                   f"Cookie: {self.cookie}; csrftoken={token}\r\nX-CSRFToken: {token}\r\n"
                   "HX-Request: true\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        try:
            reader, writer = await asyncio.open_connection(host, int(port))
            writer.write(request.encode())
            status = (await asyncio.wait_for(reader.readline(), 30)).decode().split()
            writer.close()
            ok = len(status) > 1 and status[1] == "204"
        except Exception:  # noqa: BLE001
            ok, status = False, ["no answer"]
        stats = run.worker.stats
        if ok:
            stats["again"] += 1
        else:
            stats["again_failed"] += 1
            run.worker.note(f"play again refused: {' '.join(status)}"[:200])


class Worker:
    def __init__(self, plan: list, baseline: bool, ping: float, seed: int):
        self.baseline = baseline
        self.interval = 1.0
        self.go = asyncio.Event()
        self.stats: dict[str, int] = dict.fromkeys(
            ("frames", "bytes", "sent", "refusals", "disconnects", "connect_failures", "again",
             "again_failed", "pings", "given_up"), 0)
        self.notes: dict[str, int] = {}
        self.sizes: list[int] = []  # bytes of each board frame a page received
        rng = random.Random(seed)
        self.runs: list[TableRun] = []
        self.clients: list[Client] = []
        for table_id, seats in plan:
            run = TableRun(self, table_id, len(seats))
            self.runs.append(run)
            for i, (url, cookie, origin) in enumerate(seats):
                self.clients.append(Client(run, i, url, cookie, origin, baseline, ping,
                                           random.Random(rng.random())))

    def note(self, text: str) -> None:
        self.notes[text] = self.notes.get(text, 0) + 1

    async def connect_all(self, at_once: int) -> None:
        limit = asyncio.Semaphore(at_once)

        async def one(client):
            async with limit:
                client.task = asyncio.create_task(client.keep_connected())
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(client.connected.wait(), 120)

        await asyncio.gather(*(one(c) for c in self.clients))

    def pace(self, interval: float) -> None:
        """One move per table every ``interval`` seconds, the tables' slots spread evenly
        over it (in a random order): any window then offers the rate to within a move or
        two. (Spread at random, as before, a 10 s window at 300 tables and 10 moves/s
        offered 97 moves give or take 8, so that "90 % of the offered rate achieved" failed
        one window in ten by chance alone.)"""
        self.interval = interval
        now = time.monotonic()
        runs = list(self.runs)
        random.shuffle(runs)
        for i, run in enumerate(runs):
            run.next_slot = now + (i + random.random()) / len(runs) * interval
        self.go.set()

    def report(self, t0: float, t1: float) -> dict:
        now = time.time()
        latencies, refused, lost, sent = [], 0, 0, 0
        firsts, owns = [], []
        slow = []  # the slowest moves seen: (latency, first, own, table, kind, sent at)
        moved = set()  # the tables that made a move in the window
        ledger = []  # (table, game, version, seat, kind, what became of it, sent) per move
        updates = 0
        for run in self.runs:
            for move in run.moves:
                if move.sent_wall >= t1:
                    continue
                if move.latency is not None:
                    outcome = "seen"
                elif move.refused:
                    outcome = "refused"
                elif now - move.sent_wall > LOST_AFTER:
                    outcome = "lost"
                else:
                    outcome = "pending"
                # every move goes in one ledger, those sent between two measured windows
                # too (a refused move's retry, say), to be checked against the game log
                ledger.append((run.table_id, move.at[0], move.at[1], move.mover, move.kind,
                               outcome, move.sent_wall))
                if move.sent_wall < t0:
                    continue  # the figures are of the window measured
                sent += 1
                moved.add(run.table_id)
                if outcome == "seen":
                    slow.append((move.latency, move.first, move.own, run.table_id, move.kind,
                                 move.sent_wall - t0))
                    latencies.append(move.latency)
                    firsts.append(move.first)
                    owns.append(move.own)
                elif outcome == "refused":
                    refused += 1
                elif outcome == "lost":
                    lost += 1
            run.moves = [m for m in run.moves if m.sent_wall >= t1]
            updates += sum(1 for t in run.updates if t0 <= t < t1)
            run.updates = [t for t in run.updates if t >= t1]
        stats, self.stats = self.stats, dict.fromkeys(self.stats, 0)
        notes, self.notes = self.notes, {}
        sizes, self.sizes = self.sizes, []
        slow = sorted(slow, reverse=True)[:SLOWEST]
        return {"sizes": sizes, "latencies": latencies, "firsts": firsts, "owns": owns,
                "slow": slow, "moved": len(moved),
                "sent": sent, "ledger": ledger,
                "refused": refused, "lost": lost, "updates": updates, "stats": stats,
                "notes": notes, "connected": sum(1 for c in self.clients if c.ws is not None)}

    async def serve(self, conn, connect_at_once: int) -> None:
        loop = asyncio.get_running_loop()
        await self.connect_all(connect_at_once)
        conn.send(("connected", sum(1 for c in self.clients if c.ws is not None),
                   dict(self.stats), dict(self.notes)))
        while True:
            command, *args = await loop.run_in_executor(None, conn.recv)
            if command == "pace":
                self.pace(*args)
                conn.send(("ok",))
            elif command == "mark":
                # the window measured starts: what came before it (each page's board on
                # connecting, the warm-up's frames) is not counted in it
                self.stats = dict.fromkeys(self.stats, 0)
                self.notes = {}
                self.sizes = []
                conn.send(("ok",))
            elif command == "report":
                conn.send(("report", self.report(*args)))
            elif command == "stop":
                for client in self.clients:
                    client.closing = True
                    if client.ws is not None:
                        with contextlib.suppress(Exception):
                            await client.ws.close()
                conn.send(("stopped",))
                return


def worker_main(conn, plan, baseline, ping, seed, connect_at_once) -> None:
    async def main():
        worker = Worker(plan, baseline, ping, seed)
        await worker.serve(conn, connect_at_once)

    asyncio.run(main())


# =================================================================================================
# Measuring processes from the outside (/proc)
# =================================================================================================

TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int, kernel_only: bool = False) -> float:
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[12]) + (0 if kernel_only else int(fields[11]))) / TICK
    except (OSError, IndexError):
        return 0.0


def memory_mb(pid: int) -> tuple[float, float]:
    """(RSS, peak RSS) in MB."""
    values = {}
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(("VmRSS:", "VmHWM:")):
                    values[line.split(":")[0]] = int(line.split()[1]) / 1024
    except OSError:
        pass
    return values.get("VmRSS", 0.0), values.get("VmHWM", 0.0)


def machine_busy() -> tuple[float, float]:
    """(busy, total) CPU seconds of the whole machine since boot."""
    with open("/proc/stat") as f:
        numbers = [int(x) for x in f.readline().split()[1:]]
    idle = numbers[3] + numbers[4]
    total = sum(numbers[:8])
    return (total - idle) / TICK, total / TICK


def load_average() -> str:
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def postgres_pids(database: str) -> list[int]:
    import psycopg

    with psycopg.connect("postgres://postgres@127.0.0.1:5432/postgres") as conn:
        return [row[0] for row in conn.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = %s", (database,))]


class CpuWatch:
    """CPU seconds of named groups of processes over a window."""

    def __init__(self, groups: dict[str, list[int]], database: str | None):
        self.groups = groups
        self.database = database
        self.start = {}

    def _sample(self) -> dict:
        sample = {name: {pid: cpu_seconds(pid) for pid in pids}
                  for name, pids in self.groups.items()}
        sample["daphne kernel"] = {pid: cpu_seconds(pid, True)
                                   for pid in self.groups.get("daphne", [])}
        if self.database:
            sample["postgres"] = {pid: cpu_seconds(pid) for pid in postgres_pids(self.database)}
        sample["machine"] = machine_busy()
        sample["time"] = time.monotonic()
        return sample

    def begin(self) -> None:
        self.start = self._sample()

    def end(self) -> dict:
        """Per group: a list of per-process shares of one core (postgres: the sum)."""
        end = self._sample()
        seconds = end["time"] - self.start["time"]
        out = {}
        for name, pids in end.items():
            if name in ("machine", "time"):
                continue
            shares = {pid: (cpu - self.start.get(name, {}).get(pid, 0.0)) / seconds
                      for pid, cpu in pids.items()}
            out[name] = [shares[pid] for pid in pids]
        busy0, total0 = self.start["machine"]
        busy1, total1 = end["machine"]
        out["machine"] = (busy1 - busy0) / seconds, (total1 - total0) / seconds
        return out


# =================================================================================================
# The stack and the run
# =================================================================================================


def _redis_server(log_dir: Path) -> tuple[subprocess.Popen, str]:
    from tests.servers import free_port

    port = free_port()
    command = ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
               "--appendonly", "no", "--dir", str(log_dir)]
    process = subprocess.Popen(  # noqa: S603
        command,  # noqa: S607
        stdout=open(log_dir / "redis.log", "ab"), stderr=subprocess.STDOUT,  # noqa: SIM115
        start_new_session=True)
    for _ in range(200):
        with contextlib.suppress(OSError):
            import socket

            with socket.create_connection(("127.0.0.1", port), timeout=1) as sock:
                sock.sendall(b"PING\r\n")
                if sock.recv(16).startswith(b"+PONG"):
                    return process, f"redis://127.0.0.1:{port}/0"
        time.sleep(0.05)
    process.kill()
    raise RuntimeError("redis-server did not start")


@contextlib.contextmanager
def own_redis():
    """A Redis server of its own for a benchmark (in a temporary folder): its URL."""
    with tempfile.TemporaryDirectory() as log_dir:
        process, url = _redis_server(Path(log_dir))
        try:
            yield url
        finally:
            process.terminate()
            process.wait(10)


def _load_stack_class():
    from tests.servers import Daphne
    from tests.support.stack import Stack

    class LoadStack(Stack):
        """The stack, serving the site or the baseline; the baseline needs no database."""

        def __init__(self, application: str, **kwargs):
            super().__init__(**kwargs)
            self.application = application

        def start_server(self, port, index):
            return Daphne(port=port, env=self.env, application=self.application,
                          log=self.log_dir / f"daphne-{index}-{port}.log").start(timeout=60)

        def _fresh_database(self):
            if self.application == SITE_APP:
                super()._fresh_database()

    return LoadStack


def make_sessions(users) -> list[str]:
    """A logged-in session per user, in one insert: ["sessionid=..."]."""
    from datetime import timedelta

    from django.conf import settings
    from django.contrib.sessions.backends.db import SessionStore
    from django.contrib.sessions.models import Session
    from django.utils import timezone
    from django.utils.crypto import get_random_string

    expires = timezone.now() + timedelta(days=1)
    rows, cookies = [], []
    for user in users:
        key = get_random_string(32, "abcdefghijklmnopqrstuvwxyz0123456789")
        data = SessionStore().encode({
            "_auth_user_id": str(user.pk),
            "_auth_user_backend": "django.contrib.auth.backends.ModelBackend",
            "_auth_user_hash": user.get_session_auth_hash()})
        rows.append(Session(session_key=key, session_data=data, expire_date=expires))
        cookies.append(f"{settings.SESSION_COOKIE_NAME}={key}")
    Session.objects.bulk_create(rows, batch_size=1000)
    return cookies


def make_started_tables(n_tables: int, per_table: int = 4, variant: str = "classic",
                        turn_seconds: int | None = None) -> list:
    """``n_tables`` started games of ``per_table`` people, written in bulk.

    ``turn_seconds``: the tables' turn clock (default: the variant's).
    The same rows ``games.actions`` writes when a table fills and its game starts
    (table, seats, game with its first snapshot, players, the log's start entry,
    the first turn's deadline and the abandon check), a thousand at a time
    instead of a few dozen queries each. Returns [(table_id, [cookie per seat])].
    """
    from datetime import timedelta

    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from django.db import transaction
    from django.utils import timezone

    from games import actions, engine
    from games.engine.fairness import new_seed
    from games.models import Action, Game, GamePlayer, Job, Seat, Table, Variant

    User = get_user_model()  # noqa: N806
    chosen = Variant.objects.get(slug=variant)
    rules = chosen.rules
    password = make_password(None)
    now = timezone.now()
    with transaction.atomic():
        users = User.objects.bulk_create([
            User(username=f"load{i}", email=f"load{i}@example.org", password=password)
            for i in range(n_tables * per_table)], batch_size=1000)
        cookies = make_sessions(users)
        groups = [users[i:i + per_table] for i in range(0, len(users), per_table)]
        tables = Table.objects.bulk_create([
            Table(name=f"Load {i + 1}", variant=chosen, host=group[0], seats=per_table,
                  status=Table.Status.PLAYING,
                  turn_seconds=turn_seconds if turn_seconds is not None else chosen.turn_seconds)
            for i, group in enumerate(groups)], batch_size=1000)
        Seat.objects.bulk_create([
            Seat(table=table, position=p, user=user)
            for table, group in zip(tables, groups, strict=True)
            for p, user in enumerate(group)], batch_size=1000)
        games, states = [], []
        for table, group in zip(tables, groups, strict=True):
            seed = new_seed()
            state, events = engine.new_game(rules, [u.username for u in group], seed)
            # the first turn's clock runs from when everyone is connected, not from now
            deadline = (now + timedelta(seconds=table.turn_seconds + FIRST_TURN_GRACE)
                        if table.turn_seconds else None)
            games.append(Game(table=table, number=1, variant=chosen, rules=rules.to_dict(),
                              rated=chosen.rated, seed=seed.hex(), state=state.to_dict(),
                              version=0, recent_events=actions.base.recent([], 0, events),
                              deadline=deadline))
            states.append((state, events))
        Game.objects.bulk_create(games, batch_size=500)
        GamePlayer.objects.bulk_create([
            GamePlayer(game=game, seat=i, user=user, name=user.username)
            for game, group in zip(games, groups, strict=True)
            for i, user in enumerate(group)], batch_size=1000)
        Action.objects.bulk_create([
            Action(game=game, seq=0, seat=None, payload={"kind": "start"},
                   events=[e.to_dict() for e in events], by="table")
            for game, (_, events) in zip(games, states, strict=True)], batch_size=500)
        after = actions.abandon_after()
        jobs = [Job(kind=Job.Kind.ABANDON_CHECK, table=table, due_at=now + after)
                for table in tables]
        jobs += [Job(kind=Job.Kind.TURN_TIMEOUT, table_id=game.table_id, game=game, version=0,
                     seat=state.turn, due_at=game.deadline)
                 for game, (state, _) in zip(games, states, strict=True) if game.deadline]
        Job.objects.bulk_create(jobs, batch_size=1000)
    by_user = dict(zip((u.pk for u in users), cookies, strict=True))
    return [(table.pk, [by_user[u.pk] for u in group])
            for table, group in zip(tables, groups, strict=True)]


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q / 100 * (len(values) - 1))))]


@dataclass
class StepResult:
    mode: str
    tables: int
    rate: float
    seconds: float
    sent: int
    achieved: int
    updates: int
    latencies: list
    firsts: list
    owns: list
    refused: int
    lost: int
    stats: dict
    notes: dict
    cpu: dict
    memory: list
    log_errors: list
    connected: int
    clients: int
    profile: str = ""
    sizes: list = field(default_factory=list)
    ledger: list = field(default_factory=list)
    slow: list = field(default_factory=list)  # the slowest moves, slowest first
    moved: int = 0  # tables that made a move in the window

    def clean(self, p99_ms: float = 250.0) -> bool:
        """No error, at least 90 % of the offered rate achieved, p99 within ``p99_ms``."""
        return (self.errors == 0 and self.achieved_rate >= 0.9 * self.rate
                and bool(self.latencies) and self.ms(99) <= p99_ms)

    @property
    def achieved_rate(self) -> float:
        return self.achieved / self.seconds

    def ms(self, q: float) -> float:
        return _percentile(self.latencies, q) * 1000

    @property
    def errors(self) -> int:
        s = self.stats
        return (self.refused + self.lost + s["disconnects"] + s["connect_failures"]
                + s["again_failed"] + len(self.log_errors))

    def summary(self) -> dict:
        return {"tables": self.tables, "offered": self.rate, "seconds": self.seconds,
                "sent": self.sent, "achieved": self.achieved,
                "achieved_rate": self.achieved_rate,
                "p50_ms": self.ms(50), "p95_ms": self.ms(95), "p99_ms": self.ms(99),
                "errors": self.errors, "lost": self.lost, "refused": self.refused,
                "log_errors": self.log_errors, "connected": self.connected,
                "clients": self.clients, "stats": self.stats,
                "median_frame_bytes": _percentile(self.sizes, 50) if self.sizes else None}

    def print(self) -> None:
        s = self.stats
        print(f"  offered {self.rate:.1f} moves/s; sent {self.sent / self.seconds:.1f}/s; "
              f"achieved {self.achieved_rate:.1f} moves/s "
              f"({self.achieved} moves in {self.seconds:.0f} s); "
              f"new views per table {self.updates / self.seconds:.1f}/s"
              + (f" (moves and the clock's deals; {s['again']} games re-dealt)"
                 if self.mode == "app" else ""))
        print(f"  latency, move sent -> last seat has the new view: p50 {self.ms(50):.1f} ms, "
              f"p95 {self.ms(95):.1f} ms, p99 {self.ms(99):.1f} ms, "
              f"max {self.ms(100):.1f} ms")
        print(f"    (to the first seat: p50 {_percentile(self.firsts, 50) * 1000:.1f} ms, p99 "
              f"{_percentile(self.firsts, 99) * 1000:.1f} ms; to the mover's own page: p50 "
              f"{_percentile(self.owns, 50) * 1000:.1f} ms, p99 "
              f"{_percentile(self.owns, 99) * 1000:.1f} ms)")
        print(f"  errors: {self.errors} (refusals {self.refused} moves / {s['refusals']} "
              f"notices, lost {self.lost}, disconnects {s['disconnects']}, failed connects "
              f"{s['connect_failures']}, failed re-deals {s['again_failed']}, tracebacks in "
              f"daphne logs {len(self.log_errors)}); connected {self.connected}/{self.clients}")
        for note, count in sorted(self.notes.items(), key=lambda kv: -kv[1])[:5]:
            print(f"    {count} x {note}")
        for line in self.log_errors[:5]:
            print(f"    log: {line}")
        cpu = self.cpu
        print("  CPU (share of one core): daphne "
              + ", ".join(f"{x:.0%}" for x in cpu["daphne"])
              + " (in the kernel " + ", ".join(f"{x:.0%}" for x in cpu["daphne kernel"]) + ")"
              + "; load workers " + ", ".join(f"{x:.0%}" for x in cpu["workers"])
              + f"; redis {sum(cpu['redis']):.0%}"
              + (f"; postgres (this database) {sum(cpu['postgres']):.0%}"
                 if "postgres" in cpu else "")
              + f"; whole machine {cpu['machine'][0]:.0%} of {cpu['machine'][1]:.0%}")
        print("  memory: daphne RSS " + ", ".join(f"{rss:.0f} MB (peak {peak:.0f})"
                                                 for rss, peak in self.memory)
              + f"; frames {s['frames'] / self.seconds:.0f}/s, "
              f"{s['bytes'] / self.seconds / 1e6:.1f} MB/s to clients; pings {s['pings']}; "
              f"moves given up before their slot (their board moved on) {s['given_up']}")
        if self.sizes:
            print(f"  bytes per viewer per update (board frames): median "
                  f"{_percentile(self.sizes, 50):.0f}, p90 {_percentile(self.sizes, 90):.0f}, "
                  f"mean {sum(self.sizes) / len(self.sizes):.0f}")
        if self.profile:
            print(self.profile)


class Room:
    """A stack serving one application, with its tables' clients connected."""

    def __init__(self, mode: str, args):
        self.mode = mode
        self.args = args
        self.baseline = mode == "baseline"
        # one directory per database: runs of other checkouts on the machine keep theirs
        self.log_dir = Path(f"/tmp/stopbus-load-{args.database}-{mode}")  # noqa: S108

    def __enter__(self) -> Room:
        self.redis = self.stack = None
        self.workers, self.pipes = [], []
        try:
            self._start()
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def _start(self) -> None:
        args = self.args
        self.log_dir.mkdir(parents=True, exist_ok=True)
        for old in self.log_dir.glob("daphne-*.log"):
            old.unlink()
        self.redis, redis_url = ((None, args.redis_url) if args.redis_url
                                 else _redis_server(self.log_dir))
        stack_class = _load_stack_class()
        env = {"STOPBUS_SHOWDOWN_PAUSE": str(args.showdown_pause),
               "DATABASE_POOL_MAX_SIZE": str(args.pool), "LOG_LEVEL": "WARNING",
               **dict(kv.split("=", 1) for kv in args.env)}
        stack = stack_class(BASELINE_APP if self.baseline else SITE_APP,
                            processes=args.processes, database=args.database,
                            redis_url=redis_url, proxy=args.proxy, env=env,
                            log_dir=self.log_dir)
        started = time.monotonic()
        try:
            stack.__enter__()
        except BaseException:
            stack.__exit__(None, None, None)
            raise
        self.stack = stack
        print(f"  stack up in {time.monotonic() - started:.1f} s: daphne on ports "
              + ", ".join(str(s.port) for s in self.stack.servers)
              + (f" behind the proxy on {self.stack.proxy.port}" if self.stack.proxy else ""),
              flush=True)
        started = time.monotonic()
        if self.baseline:
            tables = [(i + 1, [""] * 4) for i in range(args.tables)]
        else:
            tables = make_started_tables(args.tables, turn_seconds=args.turn_seconds)
            print(f"  {args.tables} started tables of 4 people made in "
                  f"{time.monotonic() - started:.1f} s", flush=True)
        self.clients = 4 * len(tables)
        self._start_workers(tables)

    def _start_workers(self, tables) -> None:
        args = self.args
        ports = [s.port for s in self.stack.servers]
        plans = [[] for _ in range(args.workers)]
        for n, (table_id, cookies) in enumerate(tables):
            seats = []
            for i, cookie in enumerate(cookies):
                port = self.stack.proxy.port if self.stack.proxy else ports[i % len(ports)]
                seats.append((f"ws://127.0.0.1:{port}/ws/table/{table_id}/", cookie,
                              f"http://127.0.0.1:{port}"))
            plans[n % args.workers].append((table_id, seats))
        context = multiprocessing.get_context("spawn")
        started = time.monotonic()
        for i, plan in enumerate(plans):
            ours, theirs = context.Pipe()
            process = context.Process(target=worker_main, name=f"load-worker-{i}",
                                      args=(theirs, plan, self.baseline,
                                            0 if self.baseline else args.ping, 1000 + i,
                                            args.connect_at_once),
                                      daemon=True)
            process.start()
            self.workers.append(process)
            self.pipes.append(ours)
        connected, notes = 0, {}
        for pipe in self.pipes:
            answer = pipe.recv()
            connected += answer[1]
            for k, v in answer[3].items():
                notes[k] = notes.get(k, 0) + v
        print(f"  {connected} of {self.clients} clients connected in "
              f"{time.monotonic() - started:.1f} s by {args.workers} load processes", flush=True)
        for note, count in list(notes.items())[:5]:
            print(f"    {count} x {note}")

    def _ask(self, *command) -> list:
        for pipe in self.pipes:
            pipe.send(command)
        return [pipe.recv() for pipe in self.pipes]

    def step(self, rate: float, seconds: float, warmup: float) -> StepResult:
        """Play at ``rate`` for ``warmup`` + ``seconds``; measure the last ``seconds``."""
        interval = self.args.tables / rate
        if not self.baseline and interval > 0.8 * self.args.turn_seconds:
            print(f"  note: a table moves every {interval:.0f} s, close to its "
                  f"{self.args.turn_seconds} s turn clock: the server may play some turns "
                  "itself", flush=True)
        self._ask("pace", interval)
        time.sleep(warmup)
        log_marks = {p: p.stat().st_size for p in self.log_dir.glob("daphne-*.log")}
        watch = CpuWatch({"daphne": [s.process.pid for s in self.stack.servers],
                          "workers": [w.pid for w in self.workers],
                          "redis": [self.redis.pid] if self.redis else []},
                         None if self.baseline else self.args.database)
        spies = (spy.start([s.process.pid for s in self.stack.servers], seconds, self.log_dir)
                 if self.args.py_spy else None)
        self._ask("mark")
        watch.begin()
        t0 = time.time()
        time.sleep(seconds)
        t1 = time.time()
        cpu = watch.end()
        profile = spy.summarise(spy.finish(spies)) if spies else ""
        memory = [memory_mb(s.process.pid) for s in self.stack.servers]
        time.sleep(GRACE)  # moves sent just before t1 may still arrive
        reports = [answer[1] for answer in self._ask("report", t0, t1)]
        stats = dict.fromkeys(reports[0]["stats"], 0)
        notes: dict[str, int] = {}
        for r in reports:
            for k, v in r["stats"].items():
                stats[k] += v
            for k, v in r["notes"].items():
                notes[k] = notes.get(k, 0) + v
        return StepResult(
            mode=self.mode, tables=self.args.tables, rate=rate, seconds=t1 - t0,
            sent=sum(r["sent"] for r in reports),
            achieved=sum(len(r["latencies"]) for r in reports),
            updates=sum(r["updates"] for r in reports),
            latencies=[x for r in reports for x in r["latencies"]],
            firsts=[x for r in reports for x in r["firsts"]],
            owns=[x for r in reports for x in r["owns"]],
            refused=sum(r["refused"] for r in reports), lost=sum(r["lost"] for r in reports),
            stats=stats, notes=notes, cpu=cpu, memory=memory,
            log_errors=self._log_errors(log_marks),
            connected=sum(r["connected"] for r in reports), clients=self.clients,
            profile=profile, sizes=[x for r in reports for x in r["sizes"]],
            ledger=[x for r in reports for x in r["ledger"]],
            slow=sorted((x for r in reports for x in r["slow"]), reverse=True),
            moved=sum(r["moved"] for r in reports))

    def _log_errors(self, marks: dict) -> list[str]:
        found = []
        for path in self.log_dir.glob("daphne-*.log"):
            with open(path, errors="replace") as f:
                f.seek(marks.get(path, 0))
                lines = f.read().splitlines()
            for i, line in enumerate(lines):
                if line.startswith("Traceback"):
                    tail = next((x for x in lines[i + 1:] if x and not x.startswith(" ")), "")
                    found.append(f"{path.name}: {tail[:200]}")
                elif " ERROR " in line or " CRITICAL " in line:
                    found.append(f"{path.name}: {line[:200]}")
        return found

    def __exit__(self, *exc) -> None:
        for pipe in self.pipes:
            with contextlib.suppress(Exception):
                pipe.send(("stop",))
        for pipe in self.pipes:
            with contextlib.suppress(Exception):
                if pipe.poll(15):
                    pipe.recv()
        for process in self.workers:
            process.join(5)
            if process.is_alive():
                process.kill()
        if self.stack:
            self.stack.__exit__(*exc)
        if self.redis:
            self.redis.terminate()
            self.redis.wait(10)


def run_fixed(mode: str, args) -> StepResult:
    print(f"\n== {mode}: {args.tables} tables x 4 clients, {args.rate:g} moves/s offered, "
          f"{args.processes} daphne processes, {args.workers} load processes", flush=True)
    with Room(mode, args) as room:
        result = room.step(args.rate, args.duration, args.warmup or _warmup(args, args.rate))
    result.print()
    return result


def _warmup(args, rate: float) -> float:
    return max(3.0, 1.5 * args.tables / rate)


def _find_max(room: Room, args) -> tuple[StepResult, StepResult | None]:
    """Raise the offered rate until the achieved rate stops following: the step with the
    most moves achieved, and the clean step (``StepResult.clean``) with the most."""
    best = clean = None
    rate = args.rate
    short = 0  # steps in a row that fell short of the offered rate
    while True:
        result = room.step(rate, args.step_duration, _warmup(args, rate))
        print(f"  offered {rate:7.1f}/s  achieved {result.achieved_rate:7.1f}/s  "
              f"p50 {result.ms(50):7.1f} ms  p99 {result.ms(99):7.1f} ms  errors "
              f"{result.errors}  {'clean' if result.clean(args.clean_p99) else 'NOT clean'}"
              "  daphne CPU " + ", ".join(f"{x:.0%}" for x in result.cpu["daphne"])
              + "  workers " + ", ".join(f"{x:.0%}" for x in result.cpu["workers"])
              + f"  machine {result.cpu['machine'][0]:.0%}", flush=True)
        if best is None or result.achieved_rate > best.achieved_rate:
            best = result
        if result.clean(args.clean_p99) and (
                clean is None or result.achieved_rate > clean.achieved_rate):
            clean = result
        # a short step at a low rate can fall short by chance (few moves, phases at
        # random): the room has stopped following after two in a row
        short = short + 1 if result.achieved_rate < 0.9 * rate else 0
        if short >= 2 or result.ms(99) > args.max_p99 or rate >= args.max_rate:
            break
        rate *= args.factor
    return best, clean


def run_find_max(mode: str, args) -> StepResult:
    """The most moves/s the room achieves, and its clean maximum (``.clean_max``)."""
    print(f"\n== {mode}: finding the most moves/s, {args.tables} tables x 4 clients, "
          f"steps of {args.step_duration:g} s", flush=True)
    with Room(mode, args) as room:
        best, clean = _find_max(room, args)
    print(f"  most achieved: {best.achieved_rate:.1f} moves/s (offered {best.rate:.1f}/s, "
          f"p99 {best.ms(99):.1f} ms)")
    if clean is not None:
        print(f"  clean maximum (0 errors, >= 90 % achieved, p99 <= {args.clean_p99:g} ms): "
              f"{clean.achieved_rate:.1f} moves/s (offered {clean.rate:.1f}/s, "
              f"p99 {clean.ms(99):.1f} ms)")
    else:
        print(f"  clean maximum: none of the steps was clean (p99 <= {args.clean_p99:g} ms)")
    best.print()
    best.clean_max = clean
    return best


def check_log(ledger: list, retry_after: float) -> dict:
    """Every move the clients saw applied against the game log in the database: it is
    there exactly once, as that seat's move of that kind at the next version; no game
    has two actions at one version; and a refused move is not there.

    A refused move is tried again at the table's next slot, as a person would, at least
    ``retry_after`` seconds later: the log's move at that version is then the retry's.
    So a refused move found in the log counts as refused yet applied unless another try
    at that version was not refused, or the log's move was made too late to be it."""
    from django.db.models import Count

    from games.models import Action

    tables = {t for t, *_ in ledger}
    actions = {}
    for table, number, seq, seat, payload, made in (
            Action.objects.filter(game__table_id__in=tables)
            .values_list("game__table_id", "game__number", "seq", "seat", "payload",
                         "created_at")):
        actions[(table, number, seq)] = (seat, payload.get("kind"), made.timestamp())
    twice = (Action.objects.filter(game__table_id__in=tables).values("game_id", "seq")
             .annotate(n=Count("id")).filter(n__gt=1).count())
    seen = missing = refused_applied = retried_late = lost_applied = 0
    tried = {(table, game, version, seat) for table, game, version, seat, _, outcome, _ in ledger
             if outcome != "refused"}
    for table, game, version, seat, kind, outcome, sent in ledger:
        found = actions.get((table, game + 1, version + 1))
        same = found is not None and found[:2] == (seat, kind)
        if outcome == "seen":
            seen += 1
            if not same:
                missing += 1
        elif outcome == "refused" and same:
            if (table, game, version, seat) in tried or found[2] - sent >= retry_after:
                retried_late += 1  # the log's move is a later try's
            else:
                refused_applied += 1  # said no, yet played: worse than a loss
        elif outcome == "lost" and same:
            lost_applied += 1  # played, but not every seat saw it within LOST_AFTER
    return {"checked": seen, "not_in_log": missing, "twice": twice,
            "refused_yet_applied": refused_applied, "refused_then_retried": retried_late,
            "lost": sum(1 for *_, outcome, _ in ledger if outcome == "lost"),
            "lost_but_in_the_log": lost_applied}


def run_overload(args) -> dict:
    """Offer ``--overload-factor`` x the clean maximum for ``--overload-seconds``, then
    drop back to the clean maximum: what is lost, refused, how slow, and how soon the
    room is clean again; every move checked against the log."""
    print(f"\n== app overload: {args.tables} tables x 4 clients", flush=True)
    with Room("app", args) as room:
        if args.find_max:
            _, clean = _find_max(room, args)
            if clean is None:
                raise SystemExit("no clean step to overload from")
            clean_rate = clean.achieved_rate
        else:
            clean_rate = args.rate
        over = clean_rate * args.overload_factor
        print(f"  clean maximum {clean_rate:.1f} moves/s: offering {over:.1f}/s for "
              f"{args.overload_seconds:g} s", flush=True)
        checkpoints = [pg_checkpoints()]
        heavy = room.step(over, args.overload_seconds, 0)
        checkpoints.append(pg_checkpoints())
        heavy.print()
        back = clean_rate * args.after_factor
        print(f"  then back to {back:.1f}/s:", flush=True)
        after = []
        for _ in range(2):
            after.append(room.step(back, 10, 0))
            checkpoints.append(pg_checkpoints())
        for i, result in enumerate(after):
            print(f"    {i * 10}-{i * 10 + 10} s after the drop: achieved "
                  f"{result.achieved_rate:.1f}/s, p99 {result.ms(99):.1f} ms, errors "
                  f"{result.errors}: {'clean' if result.clean(args.clean_p99) else 'NOT clean'}"
                  f"{_checkpointed(checkpoints[i + 1], checkpoints[i + 2])}", flush=True)
            print(f"      {result.moved} of {args.tables} tables moved, "
                  f"{result.stats['given_up']} moves given up before their slot; the slowest moves "
                  "(latency / to the first seat / to the mover, in ms; table; kind; sent "
                  "at s into the window):")
            for latency, first, own, table, kind, at in result.slow[:8]:
                print(f"        {latency * 1000:6.0f} / {first * 1000:6.0f} / "
                      f"{(own or 0) * 1000:6.0f}  table {table} {kind or '-'} at {at:4.1f} s")
        during = _checkpointed(*checkpoints[:2]) or "; no figures"
        print(f"    (during the overload itself{during})")
        # a refused move is tried again at its table's next slot: one pace's interval on
        log = check_log(heavy.ledger + [x for r in after for x in r.ledger],
                        retry_after=0.5 * args.tables / over)
    refusals = sum(heavy.notes.values())
    recovered = ("yes" if after[0].clean(args.clean_p99)
                 else "within 20 s" if after[1].clean(args.clean_p99) else "NO")
    print(f"  against the log: {log['checked']} moves seen applied checked, "
          f"{log['not_in_log']} not in the log, {log['twice']} versions with two actions, "
          f"{log['refused_yet_applied']} refused yet applied ({log['refused_then_retried']} "
          f"refused, then played by a later try); {log['lost']} not seen by "
          f"every seat within {LOST_AFTER:g} s, of which {log['lost_but_in_the_log']} are in "
          "the log (applied, seen late)")
    print(f"  overload: p99 of applied moves {heavy.ms(99):.1f} ms; refused {heavy.refused} "
          f"(each with a notice: {heavy.stats['refusals']} notices, {refusals} noted); "
          f"tracebacks {len(heavy.log_errors)}; clean again within 10 s: "
          f"{recovered}")
    return {"clean_rate": clean_rate, "overload": heavy.summary(), "log": log,
            "after": [r.summary() for r in after]}


def _pg_row(sql: str) -> tuple | None:
    """The first row ``sql`` gives on the PostgreSQL server the stack uses (its
    ``postgres`` database), or None without a server to ask."""
    from tests.support.stack import DEFAULT_PG, _with_database

    try:
        import psycopg

        url = _with_database(os.environ.get("STACK_PG_URL", DEFAULT_PG), "postgres")
        with psycopg.connect(url, connect_timeout=3) as conn:
            return conn.execute(sql).fetchone()
    except Exception:  # no server to ask: the run itself says so
        return None


def pg_checkpoints() -> tuple[int, int] | None:
    """PostgreSQL's checkpoints so far, and the buffers they wrote (``pg_stat_bgwriter``):
    a checkpoint writes out what the moves dirtied, and the moves of a window it runs in
    wait on the disk more. None without a server to ask."""
    row = _pg_row("SELECT checkpoints_timed + checkpoints_req, buffers_checkpoint "
                  "FROM pg_stat_bgwriter")
    return None if row is None else (int(row[0]), int(row[1]))


def _checkpointed(before, after) -> str:
    """What PostgreSQL checkpointed between two :func:`pg_checkpoints` (in words)."""
    if before is None or after is None:
        return ""
    done, written = after[0] - before[0], after[1] - before[1]
    if done <= 0 and written <= 0:
        return "; no checkpoint"
    # a checkpoint in progress at either end counts its buffers where it ends
    return f"; PostgreSQL checkpointed meanwhile ({done} ended, {written} buffers written)"


def autovacuum_note() -> str | None:
    """A line to print when the PostgreSQL server runs without autovacuum (as some test
    machines do): updated rows' old versions then pile up over a run (the game rows, the
    clock's jobs, the pages' presence) and queries slow down as it goes, which a
    production server, vacuuming as it runs, does not show."""
    row = _pg_row("SHOW autovacuum")
    setting = None if row is None else row[0]
    if setting in (None, "on"):
        return None
    return ("note: autovacuum is off on this PostgreSQL server: dead rows pile up over the "
            "run and later steps read more of them than a server with it on would")


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--rate", type=float, default=200.0,
                        help="moves a second the whole room offers (the first step with "
                             "--find-max)")
    parser.add_argument("--duration", type=float, default=60.0, help="seconds measured")
    parser.add_argument("--warmup", type=float, default=0.0,
                        help="seconds played before measuring (default: 1.5 move intervals)")
    parser.add_argument("--only", choices=("app", "baseline"), help="run one side only")
    parser.add_argument("--json", metavar="FILE", help="also write the figures to FILE")
    parser.add_argument("--find-max", action="store_true",
                        help="raise the offered rate step by step until it is not achieved")
    parser.add_argument("--factor", type=float, default=1.5, help="--find-max: rate step")
    parser.add_argument("--step-duration", type=float, default=20.0)
    parser.add_argument("--clean-p99", type=float, default=250.0,
                        help="a clean step: 0 errors, >= 90 %% achieved, p99 within this (ms)")
    parser.add_argument("--overload", action="store_true",
                        help="app only: offer --overload-factor x the clean maximum (found "
                             "with --find-max, else --rate) for --overload-seconds, then drop "
                             "back; every move is checked against the game log")
    parser.add_argument("--overload-factor", type=float, default=2.0)
    parser.add_argument("--overload-seconds", type=float, default=60.0)
    parser.add_argument("--after-factor", type=float, default=1.0,
                        help="--overload: the rate after the drop, as a share of the clean "
                             "maximum (1: back to it, as the issue asks)")
    parser.add_argument("--max-p99", type=float, default=2000.0,
                        help="--find-max: stop once p99 latency exceeds this (ms)")
    parser.add_argument("--max-rate", type=float, default=20000.0)
    parser.add_argument("--processes", type=int, default=2, help="daphne processes")
    parser.add_argument("--py-spy", action="store_true",
                        help="sample the daphne processes while measuring and say where "
                             "their CPU went (py-spy, from requirements-dev.txt)")
    parser.add_argument("--workers", type=int, default=2, help="load generator processes")
    parser.add_argument("--connect-at-once", type=int, default=16,
                        help="websocket handshakes in flight per load process")
    parser.add_argument("--proxy", action="store_true",
                        help="clients connect through the stack's TCP proxy, not to each port")
    parser.add_argument("--ping", type=float, default=25.0,
                        help="seconds between a client's pings, as the page's (0: none)")
    parser.add_argument("--showdown-pause", type=float, default=0.5)
    parser.add_argument("--turn-seconds", type=int, default=600,
                        help="the tables' turn clock: each table moves once every tables/rate "
                             "seconds, and a turn longer than its clock is played by the "
                             "server, not the client (default 600, the longest a table may "
                             "have; each move still schedules its deadline)")
    parser.add_argument("--pool", type=int, default=20, help="DATABASE_POOL_MAX_SIZE")
    parser.add_argument("--database", default="stopbus_load")
    parser.add_argument("--redis-url", help="default: a redis-server of our own")
    parser.add_argument("--env", action="append", default=[], metavar="NAME=VALUE",
                        help="more environment for the daphne processes")
    args = parser.parse_args(argv)

    print(f"load average before: {load_average()} ({os.cpu_count()} CPUs)", flush=True)
    note = autovacuum_note()
    if note:
        print(note, flush=True)
    if args.overload:
        figures = run_overload(args)
        print(f"\nload average after: {load_average()}")
        if args.json:
            Path(args.json).write_text(json.dumps(figures, indent=1))
        return figures
    run = run_find_max if args.find_max else run_fixed
    results = {}
    for mode in ("app", "baseline"):
        if args.only in (None, mode):
            results[mode] = run(mode, args)
    print(f"\nload average after: {load_average()}")
    if len(results) == 2:
        app, base = results["app"], results["baseline"]
        print(f"app / baseline, achieved moves/s: {app.achieved_rate:.1f} / "
              f"{base.achieved_rate:.1f} = {app.achieved_rate / base.achieved_rate:.0%}; "
              f"p99 {app.ms(99):.1f} ms vs {base.ms(99):.1f} ms")
        app_clean, base_clean = getattr(app, "clean_max", None), getattr(base, "clean_max", None)
        if args.find_max and app_clean and base_clean:
            print(f"app / baseline, clean maximum: {app_clean.achieved_rate:.1f} / "
                  f"{base_clean.achieved_rate:.1f} = "
                  f"{app_clean.achieved_rate / base_clean.achieved_rate:.0%}")
        if not args.find_max:
            verdict = ("met" if app.ms(99) <= 100 and app.errors == 0
                       and app.achieved_rate >= 0.98 * args.rate else "NOT met")
            print(f"target ({args.rate:g} moves/s, p99 <= 100 ms, no errors): {verdict}")
    if args.json:
        Path(args.json).write_text(json.dumps(
            {mode: result.summary() for mode, result in results.items()}, indent=1))
    return results


if __name__ == "__main__":
    main()
