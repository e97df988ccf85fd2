"""The clock: jobs with a due time (bot moves, turn deadlines, the next deal).

Jobs are rows, so they survive a restart. Any server process may run them:
``claim_due_jobs`` takes due rows under a row lock with SKIP LOCKED (on
PostgreSQL; SQLite serialises writers with immediate transactions) and stamps
them with its worker id, so that two processes never take the same job. A
claim is a lease: if the claiming process dies, the job is claimed again once
the lease runs out. Running a job twice can never apply a move twice anyway:
each job names the game version it was made for, and ``actions.play``
refuses a move for any other version.

Every daphne process runs the clock as a background task on its event loop
(started by :class:`ClockMiddleware` on the first request or connection), so
the embedded single process needs nothing more; ``manage.py run_clock`` runs
it as a process of its own.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import threading
from datetime import timedelta

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import close_old_connections, connection, transaction
from django.utils import timezone

from . import actions, engine
from .models import Game, Job, Seat, Table

log = logging.getLogger(__name__)

WORKER_ID = f"{socket.gethostname()}:{os.getpid()}"
LEASE = timedelta(seconds=30)
TIMEOUTS_BEFORE_AWAY = 2


def claim_due_jobs(limit: int = 20, now=None, worker: str = WORKER_ID) -> list[Job]:
    now = now or timezone.now()
    if connection.vendor == "postgresql":
        ids = _claim_ids_postgresql(limit, now, worker)
    else:
        with transaction.atomic():
            due = (Job.objects.filter(done_at__isnull=True, due_at__lte=now)
                   .exclude(claimed_at__gt=now - LEASE).order_by("due_at"))
            ids = list(due.values_list("pk", flat=True)[:limit])
            if ids:
                Job.objects.filter(pk__in=ids).update(claimed_at=now, claimed_by=worker)
    if not ids:
        return []
    return list(Job.objects.filter(pk__in=ids, claimed_by=worker, claimed_at=now)
                .select_related("game", "table").order_by("due_at"))


# Every process polls for due jobs several times a second, nearly always to find
# none: on PostgreSQL the claim is one statement (the rows are locked, skipping any
# another process holds, and stamped in the same step), not a transaction of three.
_CLAIM_SQL = (
    f"UPDATE {Job._meta.db_table} SET claimed_at = %s, claimed_by = %s "  # noqa: S608
    f"WHERE id IN (SELECT id FROM {Job._meta.db_table} "  # names from the model; values bound
    "WHERE done_at IS NULL AND due_at <= %s AND (claimed_at IS NULL OR claimed_at <= %s) "
    "ORDER BY due_at LIMIT %s FOR UPDATE SKIP LOCKED) RETURNING id")


def _claim_ids_postgresql(limit: int, now, worker: str) -> list[int]:
    with connection.cursor() as cursor:
        cursor.execute(_CLAIM_SQL, [now, worker, now, now - LEASE, limit])
        return [row[0] for row in cursor.fetchall()]


def run_job(job: Job) -> str:
    """Do what ``job`` is for, if it still applies. Returns what happened, in words."""
    try:
        result = _run(job)
    except actions.Refused as exc:
        result = f"refused: {exc.message}"
    Job.objects.filter(pk=job.pk).update(done_at=timezone.now(), result=result[:200])
    return result


def _run(job: Job) -> str:
    if job.kind == Job.Kind.ABANDON_CHECK:
        from .abandon import check_abandoned

        return check_abandoned(job.table_id)
    game = Game.objects.select_related("table").get(pk=job.game_id)
    if game.status != Game.Status.PLAYING or game.version != job.version:
        return "stale"
    state = actions.state_of(game)
    if job.kind == Job.Kind.NEXT_HAND:
        actions.play(game.pk, None, engine.next_hand(), job.version, by="table")
        return "dealt"
    if state.turn != job.seat:
        return "stale"
    seat = Seat.objects.get(table_id=game.table_id, position=_position(game, job.seat))
    if job.kind == Job.Kind.BOT_MOVE:
        level = seat.bot_level or "greedy"  # an away player's seat plays greedily
        played = actions.play(game.pk, job.seat, actions.bot_choice(game, state, job.seat, level),
                              job.version, by="bot")
        return f"bot played {played.events[0].kind if played.events else 'a move'}"
    if job.kind == Job.Kind.TURN_TIMEOUT:
        return _play_for_absent_player(game, state, seat, job)
    return f"unknown job kind {job.kind}"


def _position(game: Game, engine_seat: int) -> int:
    return actions.seats_by_index(game)[engine_seat].position


def _play_for_absent_player(game: Game, state, seat: Seat, job: Job) -> str:
    """The turn ran out: play the greedy bot's move (the whole turn), count the timeout."""
    version = job.version
    moves = 0
    while state.turn == job.seat and state.phase == "play":
        action = actions.bot_choice(game, state, job.seat, "greedy")
        played = actions.play(game.pk, job.seat, action, version, by="clock")
        state, version = played.state, played.state.version
        moves += 1
    with transaction.atomic():
        actions.lock_game(game.pk)  # the game first (see actions.lock_game)
        seat = Seat.objects.select_for_update().get(pk=seat.pk)
        seat.timeouts += 1
        if seat.timeouts >= TIMEOUTS_BEFORE_AWAY and not seat.away:
            seat.away = True
        seat.save(update_fields=["timeouts", "away"])
        if seat.away:  # the seats changed: pages re-read them (see board.load_table)
            Table.objects.filter(pk=game.table_id).update(updated_at=timezone.now())
        actions.announce_table(game.table_id, version, lobby=False)
    return f"timed out; played {moves} move{'s' if moves != 1 else ''}" + (
        "; seat marked away" if seat.away else "")


def run_due_jobs(limit: int = 20) -> int:
    """Claim and run what is due now. Returns how many jobs ran."""
    jobs = claim_due_jobs(limit)
    for job in jobs:
        try:
            run_job(job)
        except Exception:
            log.exception("job %s failed", job.pk)
            Job.objects.filter(pk=job.pk).update(done_at=timezone.now(), result="error")
    return len(jobs)


_NEXT_DUE_SQL = f"SELECT MIN(due_at) FROM {Job._meta.db_table} WHERE done_at IS NULL"  # noqa: S608


def next_due_in(default: float) -> float:
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(_NEXT_DUE_SQL)
            due = cursor.fetchone()[0]
    else:
        due = (Job.objects.filter(done_at__isnull=True).order_by("due_at")
               .values_list("due_at", flat=True).first())
    if due is None:
        return default
    return max(0.0, min(default, (due - timezone.now()).total_seconds()))


def _tick() -> tuple[int, float]:
    close_old_connections()
    try:
        ran = run_due_jobs()
        return ran, next_due_in(_poll_seconds())
    finally:
        close_old_connections()


def _poll_seconds() -> float:
    return float(getattr(settings, "STOPBUS_CLOCK_POLL", 0.25))


async def run_forever() -> None:
    tick = sync_to_async(_tick, thread_sensitive=False)
    while True:
        try:
            ran, wait = await tick()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the clock failed a tick; trying again")
            ran, wait = 0, 1.0
        if not ran:
            await asyncio.sleep(wait)


_started_loops: set[int] = set()
_start_lock = threading.Lock()


def ensure_running() -> None:
    """Start the clock on the running event loop, once per loop."""
    if not getattr(settings, "STOPBUS_CLOCK_AUTOSTART", True):
        return
    loop = asyncio.get_running_loop()
    with _start_lock:
        if id(loop) in _started_loops:
            return
        _started_loops.add(id(loop))
    task = loop.create_task(run_forever(), name="stopbus-clock")
    task.add_done_callback(lambda t: _started_loops.discard(id(loop)))
    log.info("clock started in %s", WORKER_ID)


class ClockMiddleware:
    """ASGI middleware: the first request or connection starts this process's clock."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] in ("http", "websocket"):
            ensure_running()
        return await self.app(scope, receive, send)
