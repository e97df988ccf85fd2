"""Races: many submissions for one turn, at the same moment. Exactly one may count.

    .venv/bin/python -m benchmarks.races --clients 100 --rounds 5

On the real stack (a fresh PostgreSQL database, channels-redis, two daphne
processes) two people sit at a table. Each of them opens ``--clients``
websockets (half to each server), and then, round after round:

* **identical** -- every socket of the player to move sends the same legal move
  for the same version at once;
* **conflicting** -- every socket sends a different legal move (a random one of
  the turn's legal moves) for the same version at once;
* **ready** -- at a showdown, every socket of both players asks for the next
  hand at once: it must be dealt once;
* **threads** -- ``--clients`` threads of this process call
  ``games.actions.do_play`` directly on PostgreSQL for the same version, released
  together by a barrier (identical and conflicting moves).

After each round: the game's version went up by exactly one, the log by exactly
one row, and every other submission was refused (with a notice, over
websockets). At the end, every game's log runs 0..N without gaps or
duplicates and replays, with the engine, to the stored snapshot.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import signal
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

VERSION = re.compile(r'id="status"[^>]*data-version="(\d+)"')
NOTICE = 'class="notice notice--error"'


class Sock:
    """A websocket that tracks the newest board version it saw and the notices it got."""

    def __init__(self, url: str, cookie: str, origin: str):
        self.url, self.cookie, self.origin = url, cookie, origin
        self.version = -1
        self.notices: list[str] = []
        self.changed = asyncio.Event()
        self.ws = None
        self.retries = 0

    async def open(self, attempts: int = 5) -> None:
        from websockets.asyncio.client import connect
        from websockets.exceptions import InvalidHandshake

        for attempt in range(attempts):
            try:
                self.ws = await connect(self.url, origin=self.origin, open_timeout=30,
                                        additional_headers={"Cookie": self.cookie},
                                        max_size=None)
                break
            except (InvalidHandshake, OSError, TimeoutError):
                # a busy server drops a handshake it cannot finish in its 5 s: try again
                self.retries += 1
                if attempt == attempts - 1:
                    raise
                await asyncio.sleep(1 + attempt)
        self.task = asyncio.create_task(self._read())

    async def _read(self) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            async for frame in self.ws:
                match = VERSION.search(frame)
                if match:
                    self.version = max(self.version, int(match.group(1)))
                if NOTICE in frame:
                    self.notices.append(re.sub(r"<[^>]+>", "", frame).strip())
                self.changed.set()
        except ConnectionClosed:
            pass

    async def close(self) -> None:
        await self.ws.close()


@dataclass
class Round:
    kind: str
    submissions: int
    applied: int
    refused: int
    seconds: float
    reasons: Counter = field(default_factory=Counter)

    @property
    def ok(self) -> bool:
        if self.kind.endswith("ready at a showdown"):
            # a "ready" that finds everyone ready already asks for the deal and is quietly
            # told "too late" (actions.do_ready): only the deal must happen exactly once
            return self.applied == 1
        return self.applied == 1 and self.refused == self.submissions - 1


def reason_of(message: str) -> str:
    for key, words in (("out-of-date version", "out-of-date"),
                       ("another move at the same moment", "same moment"),
                       ("not your turn", "not your turn"), ("game over", "over"),
                       ("no hand to move on from", "no hand to move on")):
        if words in message:
            return key
    return message[:60]


# -- the game, through Django ----------------------------------------------------------------------


def game_now(game_id: int):
    from django.db import close_old_connections

    from games import actions
    from games.models import Action, Game

    try:
        game = Game.objects.get(pk=game_id)
        return game.version, actions.state_of(game), Action.objects.filter(game=game).count()
    finally:
        close_old_connections()


def deal_next(game_id: int) -> None:
    from django.db import close_old_connections

    from games import actions, engine

    try:
        version, state, _ = game_now(game_id)
        if state.phase == "showdown":
            actions.do_play(game_id, None, engine.next_hand(), version, by="table")
    finally:
        close_old_connections()


def drive_to_showdown(game_id: int) -> None:
    """Stop the bus and play the final round out, straight through actions.do_play."""
    from django.db import close_old_connections

    from games import actions
    from games.engine import legal_actions

    try:
        for _ in range(50):
            version, state, _ = game_now(game_id)
            if state.phase != "play":
                return
            legal = legal_actions(state, state.turn)
            by_kind = {a.kind: a for a in reversed(legal)}
            action = by_kind.get("stop") or by_kind.get("pass") or legal[0]
            actions.do_play(game_id, state.turn, action, version)
    finally:
        close_old_connections()


def moves_for(state, rng: random.Random, count: int, identical: bool) -> list[dict]:
    """``count`` legal moves for the player to move (all the same, or each at random)."""
    from games.engine import legal_actions

    legal = [a.to_dict() for a in legal_actions(state, state.turn)]
    for move in legal:
        move.pop("seat", None)
    if identical:
        return [rng.choice(legal)] * count
    return [rng.choice(legal) for _ in range(count)]


def thread_round(game_id: int, clients: int, rng: random.Random, identical: bool) -> Round:
    """``clients`` threads call ``actions.do_play`` for the same version, released together."""
    from django.db import connections

    from games import actions
    from games.engine import Action

    version, state, rows = game_now(game_id)
    seat = state.turn
    moves = moves_for(state, rng, clients, identical)
    barrier = threading.Barrier(clients)
    outcomes: list = [None] * clients

    def submit(i: int) -> None:
        try:
            action = Action.from_dict({**moves[i], "seat": seat})
            barrier.wait(30)
            actions.do_play(game_id, seat, action, version)
            outcomes[i] = "applied"
        except actions.Refused as exc:
            outcomes[i] = reason_of(exc.message)
        except Exception as exc:  # noqa: BLE001 -- counted, and it fails the run
            outcomes[i] = f"error: {exc!r}"
        finally:
            connections.close_all()

    started = time.monotonic()
    threads = [threading.Thread(target=submit, args=(i,)) for i in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    seconds = time.monotonic() - started
    after, _, rows_after = game_now(game_id)
    applied = sum(1 for o in outcomes if o == "applied")
    kind = "threads, identical" if identical else "threads, conflicting"
    result = Round(kind, clients, applied, clients - applied, seconds,
                   Counter(o for o in outcomes if o != "applied"))
    if after != version + 1 or rows_after != rows + 1:
        result.applied = -1  # the database disagrees with what the threads were told
        result.reasons[f"version {version} -> {after}, log {rows} -> {rows_after}"] += 1
    return result


async def socket_round(socks: list[Sock], frames: list[str], version: int, game_id: int,
                       kind: str, timeout: float = 60.0) -> Round:
    """Every socket sends its frame at once; then count what happened."""
    loop = asyncio.get_running_loop()
    _, _, rows = await loop.run_in_executor(None, game_now, game_id)
    await wait_for_version(socks, version, timeout)
    before = [len(s.notices) for s in socks]
    started = time.monotonic()
    await asyncio.gather(*(s.ws.send(frame) for s, frame in zip(socks, frames, strict=True)))
    deadline = started + timeout
    expected = 0 if kind.endswith("ready at a showdown") else len(socks) - 1
    while time.monotonic() < deadline:
        got = sum(len(s.notices) - b for s, b in zip(socks, before, strict=True))
        if got >= expected and all(s.version >= version + 1 for s in socks):
            break
        await asyncio.sleep(0.05)
    await asyncio.sleep(1.0)  # a late extra refusal or a second deal would show up now
    seconds = time.monotonic() - started
    new = [m for s, b in zip(socks, before, strict=True) for m in s.notices[b:]]
    after, _, rows_after = await loop.run_in_executor(None, game_now, game_id)
    result = Round(kind, len(socks), after - version, len(new), seconds,
                   Counter(reason_of(m) for m in new))
    if rows_after - rows != after - version:
        result.applied = -1
        result.reasons[f"log grew by {rows_after - rows}, version by {after - version}"] += 1
    return result


async def wait_for_version(socks: list[Sock], version: int, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while any(s.version < version for s in socks):
        if time.monotonic() > deadline:
            behind = sum(1 for s in socks if s.version < version)
            raise TimeoutError(f"{behind} sockets never saw version {version}")
        await asyncio.sleep(0.05)


def check_logs(game_ids: list[int]) -> list[str]:
    """Every game's log: 0..N, no gaps or duplicates, and it replays to the snapshot."""
    from django.db import close_old_connections

    from games.engine import HouseRules, replay
    from games.models import Action, Game

    problems = []
    try:
        for game in Game.objects.filter(pk__in=game_ids):
            seqs = list(Action.objects.filter(game=game).order_by("seq")
                        .values_list("seq", flat=True))
            if seqs != list(range(len(seqs))):
                problems.append(f"game {game.pk}: log sequence is not 0..N")
            if game.version != len(seqs) - 1:
                problems.append(f"game {game.pk}: version {game.version}, log {len(seqs)} rows")
            payloads = list(Action.objects.filter(game=game, seq__gt=0).order_by("seq")
                            .values_list("payload", flat=True))
            state = replay(HouseRules.from_dict(game.rules), game.state["names"],
                           bytes.fromhex(game.seed), payloads)
            if json.loads(json.dumps(state.to_dict())) != game.state:
                problems.append(f"game {game.pk}: the log does not replay to the snapshot")
    finally:
        close_old_connections()
    return problems


def new_table(stack, people, slug: str):
    from django.db import close_old_connections

    try:
        (table, _), = stack.make_tables(people, per_table=len(people), variant=slug)
        game = table.current_game()
        return table.pk, game.pk, dict(game.players.values_list("user_id", "seat"))
    finally:
        close_old_connections()


async def race(stack, clients: int, rounds: int, seed: int) -> tuple[list[Round], list[int]]:
    loop = asyncio.get_running_loop()
    rng = random.Random(seed)
    people = await loop.run_in_executor(None, stack.make_people, 2, "racer")
    results: list[Round] = []
    games = []
    ports = [s.port for s in stack.servers]
    stats = Counter()

    async def open_sockets(table_id):
        socks = {}
        for user, cookie in people:
            socks[user.pk] = []
            for i in range(clients):
                port = ports[i % len(ports)]
                socks[user.pk].append(Sock(f"ws://127.0.0.1:{port}/ws/table/{table_id}/",
                                           cookie, f"http://127.0.0.1:{port}"))
        everyone = [s for group in socks.values() for s in group]
        for start in range(0, len(everyone), 10):  # not all at once: it is not the race
            await asyncio.gather(*(s.open() for s in everyone[start:start + 10]))
        await wait_for_version(everyone, 0)
        stats["sockets"] += len(everyone)
        stats["handshake retries"] += sum(s.retries for s in everyone)
        return socks, everyone

    for slug in ("classic", "draw-and-discard"):
        table_id, game_id, seats = await loop.run_in_executor(None, new_table, stack, people,
                                                              slug)
        games.append(game_id)
        by_seat = {seat: user_id for user_id, seat in seats.items()}
        socks, everyone = await open_sockets(table_id)
        for r in range(rounds * 2):
            version, state, _ = await loop.run_in_executor(None, game_now, game_id)
            if state.phase == "over":
                break
            if state.phase == "showdown":
                await wait_for_version(everyone, version)
                frames = [json.dumps({"kind": "ready"})] * len(everyone)
                results.append(await socket_round(everyone, frames, version, game_id,
                                                  "websockets, ready at a showdown"))
                continue
            identical = r % 2 == 0
            mover = socks[by_seat[state.turn]]
            moves = moves_for(state, rng, len(mover), identical)
            frames = [json.dumps({**m, "version": version}) for m in moves]
            kind = "websockets, identical" if identical else "websockets, conflicting"
            results.append(await socket_round(mover, frames, version, game_id, kind))
        await loop.run_in_executor(None, drive_to_showdown, game_id)
        version, state, _ = await loop.run_in_executor(None, game_now, game_id)
        if state.phase == "showdown":
            await wait_for_version(everyone, version)
            frames = [json.dumps({"kind": "ready"})] * len(everyone)
            results.append(await socket_round(everyone, frames, version, game_id,
                                              "websockets, ready at a showdown"))
        for sock in everyone:
            await sock.close()

    # threads straight into actions.do_play, on a table of their own
    table_id, game_id, _ = await loop.run_in_executor(None, new_table, stack, people, "classic")
    games.append(game_id)
    for r in range(rounds * 2):
        version, state, _ = await loop.run_in_executor(None, game_now, game_id)
        if state.phase == "over":
            break
        if state.phase == "showdown":
            await loop.run_in_executor(None, deal_next, game_id)
            continue
        results.append(await loop.run_in_executor(None, thread_round, game_id, clients, rng,
                                                  r % 2 == 0))
    print(f"websockets opened: {stats['sockets']} (handshakes retried: "
          f"{stats['handshake retries']})")
    return results, games


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=5,
                        help="rounds of each kind (identical, conflicting) per scenario")
    parser.add_argument("--seed", type=int, default=8)
    parser.add_argument("--database", default="stopbus_races")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/14")
    args = parser.parse_args(argv)

    from tests.support.stack import Stack, wipe_redis

    wipe_redis(args.redis)

    env = {"STOPBUS_SHOWDOWN_PAUSE": "36000", "STOPBUS_ABANDON_AFTER": "36000",
           "DATABASE_POOL_MAX_SIZE": "25"}
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # stop the servers on the way out
    started = time.monotonic()
    with Stack(processes=2, database=args.database, redis_url=args.redis, proxy=False,
               env=env, log_dir=Path(tempfile.mkdtemp(prefix="races-"))) as stack:
        from games.models import Variant

        Variant.objects.update(turn_seconds=None)
        results, games = asyncio.run(race(stack, args.clients, args.rounds, args.seed))
        problems = check_logs(games)
        tracebacks = sum(server.log_path.read_text(errors="replace").count("Traceback")
                         for server in stack.servers)
    by_kind: dict[str, list[Round]] = {}
    for result in results:
        by_kind.setdefault(result.kind, []).append(result)
    print(f"{'race':36} {'rounds':>6} {'sent':>7} {'applied':>8} {'refused':>8} {'ok':>4}"
          f" {'slowest s':>9}")
    for kind, rounds in by_kind.items():
        print(f"{kind:36} {len(rounds):6} {sum(r.submissions for r in rounds):7} "
              f"{sum(max(r.applied, 0) for r in rounds):8} {sum(r.refused for r in rounds):8} "
              f"{sum(r.ok for r in rounds):4} {max(r.seconds for r in rounds):9.1f}")
        reasons = Counter()
        for r in rounds:
            reasons.update(r.reasons)
        print("    refusals: " + ", ".join(f"{k} {v}" for k, v in reasons.most_common()))
    bad = [r for r in results if not r.ok]
    for r in bad:
        print(f"  NOT OK: {r.kind}: applied {r.applied}, refused {r.refused} of "
              f"{r.submissions} ({dict(r.reasons)})")
    print(f"games checked:  {len(games)}; log problems: {problems or 0}")
    print(f"server tracebacks: {tracebacks}")
    print(f"time: {time.monotonic() - started:.0f} s")
    return 1 if bad or problems or tracebacks or not results else 0


if __name__ == "__main__":
    sys.exit(main())
