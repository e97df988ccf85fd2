"""Fill a database with many real, finished games, fast: for the stats benchmark.

Games are played by the engine with greedy bots in worker processes (each
person gets a bot with their own stopping threshold, so that people differ in
strength and the leaderboard means something), then written in batches:
tables, games and players with ``bulk_create``, the action log (the big one,
about a hundred rows a game) with PostgreSQL's COPY, and the stats through the
same :class:`stats.recording.Ledger` that records a live game, fed in finish
order. The result is what the site would hold after those games were played
live, without the hours that would take.

Used by ``benchmarks.stats_pages``; needs PostgreSQL and ``django.setup()``.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import random
import time
from dataclasses import dataclass
from datetime import timedelta

from django.db import connection, transaction
from django.utils import timezone

from games.engine import HouseRules, apply, make_bot, new_game, next_hand, seat_view
from games.engine.bots import GreedyBot
from games.engine.game import OVER, SHOWDOWN
from stats.recording import GameFacts, Ledger, SeatFacts, SeatResult, seat_facts

# Commerce is left out: greedy bots play it for hundreds of hands a game.
VARIANT_WEIGHTS = {
    "classic": 40,
    "draw-and-discard": 20,
    "race-to-five": 15,
    "double-or-nothing": 10,
    "thirty-one-blitz": 10,
    "aces-high": 5,
}
HUMAN_SEAT_CHANCE = 0.85
GAMES_PER_TABLE = 100
SPAN = timedelta(days=365)
MAX_ACTIONS = 50_000


def username(i: int) -> str:
    return f"bench{i:04d}"


def threshold_of(user: int) -> float:
    """Each person's bot stops at its own bar: 0.55 to 0.90, spread evenly."""
    return 0.55 + 0.35 * ((user * 0.6180339887) % 1.0)


@dataclass
class Played:
    """One generated game, ready to write."""

    index: int
    variant: str
    seed: str
    users: list[int | None]  # per seat: a person (by number) or None for a bot
    places: list[int]
    state: dict
    start_events: str  # JSON
    actions: list[tuple[int | None, str, str, str]]  # seat, payload JSON, events JSON, by
    facts: list[SeatFacts]


_CONFIG: dict = {}


def _init(users: int, salt: str, rules: dict[str, dict]) -> None:
    _CONFIG.update(users=users, salt=salt, rules={k: HouseRules.from_dict(v)
                                                  for k, v in rules.items()})


def play(index: int) -> Played:
    """Play game ``index``: everything is deterministic from the index and the salt."""
    rng = random.Random(f"{_CONFIG['salt']}:{index}")
    slugs = list(VARIANT_WEIGHTS)
    slug = rng.choices(slugs, weights=[VARIANT_WEIGHTS[s] for s in slugs])[0]
    rules = _CONFIG["rules"][slug]
    n = rng.randint(max(2, rules.min_players), min(6, rules.max_players))
    humans = [rng.random() < HUMAN_SEAT_CHANCE for _ in range(n)]
    if not any(humans):
        humans[0] = True
    people = iter(rng.sample(range(_CONFIG["users"]), sum(humans)))
    users = [next(people) if human else None for human in humans]
    names = [username(u) if u is not None else f"Casual bot {i + 1}"
             for i, u in enumerate(users)]
    bots = [GreedyBot(rules, random.Random(rng.random()), threshold=threshold_of(u))
            if u is not None else make_bot("greedy", rules, random.Random(rng.random()))
            for u in users]
    seed = hashlib.sha256(f"bench:{_CONFIG['salt']}:{index}".encode()).digest()

    state, events = new_game(rules, names, seed)
    start_events = json.dumps([e.to_dict() for e in events])
    log, showdowns = [], []
    for _ in range(MAX_ACTIONS):
        if state.phase == OVER:
            break
        if state.phase == SHOWDOWN:
            action, by = next_hand(), "table"
        else:
            action = bots[state.turn].choose(seat_view(state, state.turn))
            by = "player" if users[state.turn] is not None else "bot"
        before = state.phase
        state, events = apply(state, action)
        log.append((action.seat, json.dumps(action.to_dict()),
                    json.dumps([e.to_dict() for e in events]), by))
        if state.phase in (SHOWDOWN, OVER) and before not in (SHOWDOWN, OVER):
            showdowns.append(state.showdown)
    else:
        raise RuntimeError(f"benchmark game {index} did not end")
    facts = [seat_facts(rules, showdowns, seat) for seat in range(n)]
    return Played(index, slug, seed.hex(), users, list(state.places), state.to_dict(),
                  start_events, log, facts)


def fill(games: int, users: list, variants: dict, salt: str = "1", workers: int = 2,
         batch: int = 500, progress=print) -> dict:
    """Generate ``games`` finished games among ``users`` and write them with their stats."""
    from games.models import Game, GamePlayer, Table
    from stats.models import PlayerGame, PlayerStats

    started = time.perf_counter()
    now = timezone.now()
    first = now - SPAN
    step = SPAN / max(games, 1)
    rules = {slug: variants[slug].rule_values() for slug in VARIANT_WEIGHTS}
    tables: dict[tuple[str, int], Table] = {}
    table_games: dict[int, int] = {}
    ledger = Ledger()
    counts = {"games": 0, "actions": 0, "players": 0, "results": 0}

    def write(chunk: list[Played]) -> None:
        with transaction.atomic():
            new_tables = []
            for p in chunk:
                key = (p.variant, p.index // GAMES_PER_TABLE)
                if key not in tables:
                    host = next((users[u] for u in p.users if u is not None), None)
                    tables[key] = Table(name=f"Bench {p.variant} {key[1]}",
                                        variant=variants[p.variant], host=host, seats=6,
                                        status=Table.Status.FINISHED)
                    new_tables.append(tables[key])
            Table.objects.bulk_create(new_tables)
            rows = []
            for p in chunk:
                table = tables[(p.variant, p.index // GAMES_PER_TABLE)]
                number = table_games[table.pk] = table_games.get(table.pk, 0) + 1
                finished = first + step * p.index
                humans = sum(u is not None for u in p.users)
                variant = variants[p.variant]
                rows.append(Game(
                    table=table, number=number, variant=variant, rules=rules[p.variant],
                    rated=variant.rated and humans >= 2, seed=p.seed, state=p.state,
                    version=len(p.actions), status=Game.Status.FINISHED,
                    started_at=finished - timedelta(minutes=3 + len(p.actions) // 10),
                    finished_at=finished))
            Game.objects.bulk_create(rows)
            players = []
            for p, game in zip(chunk, rows, strict=True):
                for seat, u in enumerate(p.users):
                    players.append(GamePlayer(
                        game=game, seat=seat, user=users[u] if u is not None else None,
                        bot_level="" if u is not None else "greedy",
                        name=username(u) if u is not None else f"Casual bot {seat + 1}",
                        place=p.places[seat]))
            GamePlayer.objects.bulk_create(players)
            _copy_actions(chunk, rows)
            results = []
            for p, game in zip(chunk, rows, strict=True):
                seats = [SeatResult(seat, users[u].pk if u is not None else None,
                                    "" if u is not None else "greedy", p.places[seat], False,
                                    p.facts[seat])
                         for seat, u in enumerate(p.users)]
                results.extend(ledger.add(GameFacts(game.pk, game.variant_id, game.finished_at,
                                                    game.rated, seats)))
            PlayerGame.objects.bulk_create(results)
        counts["games"] += len(chunk)
        counts["actions"] += sum(len(p.actions) + 1 for p in chunk)
        counts["players"] += len(players)
        counts["results"] += len(results)

    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(workers, initializer=_init, initargs=(len(users), salt, rules)) as pool:
        chunk: list[Played] = []
        for played in pool.imap(play, range(games), chunksize=25):
            chunk.append(played)
            if len(chunk) >= batch:
                write(chunk)
                chunk = []
                elapsed = time.perf_counter() - started
                progress(f"  {counts['games']:>7} games, {counts['actions']:>9} actions "
                         f"in {elapsed:6.0f}s ({counts['games'] / elapsed:.0f} games/s)")
        if chunk:
            write(chunk)
    with transaction.atomic():
        PlayerStats.objects.bulk_create(list(ledger.rows.values()), batch_size=2000)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    counts["stats_rows"] = len(ledger.rows)
    counts["seconds"] = time.perf_counter() - started
    return counts


def _copy_actions(chunk: list[Played], games) -> None:
    """The log rows, seq 0 (the start) to the end, with COPY: a hundred rows a game."""
    connection.ensure_connection()
    raw = connection.connection
    columns = "game_id, seq, seat, payload, events, by, created_at"
    with raw.cursor() as cursor, cursor.copy(
            f"COPY games_action ({columns}) FROM STDIN") as copy:
        for p, game in zip(chunk, games, strict=True):
            at = game.finished_at
            copy.write_row((game.pk, 0, None, '{"kind": "start"}', p.start_events, "table", at))
            for seq, (seat, payload, events, by) in enumerate(p.actions, start=1):
                copy.write_row((game.pk, seq, seat, payload, events, by, at))
