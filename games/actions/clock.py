"""Jobs with a due time (bot moves, turn deadlines, the next deal), run by the clock.

Jobs are rows, so they survive a restart. Any server process may run them:
``do_claim_due_jobs`` takes due rows under a row lock that skips rows another
process holds (SQLite, which has no row locks, serialises writers instead) and
stamps them with its worker id, so that two processes never take the same job. A
claim is a lease: if the claiming process dies, the job is claimed again once the
lease runs out. Running a job twice can never apply a move twice anyway: each job
names the game version it was made for, and ``do_play`` refuses any other version.
"""

from __future__ import annotations

import logging
import os
import socket
from datetime import timedelta

from django.db import transaction
from django.db.models import Case, Value, When
from django.utils import timezone

from ..kinds import kind_for
from ..models import Game, Job, Seat
from .base import Refused, announce_table, lock_game, seats_in_order, state_of, touch_table
from .moves import bot_choice, do_play
from .post import do_last_call, play_post_deadline
from .presence import do_check_abandoned

log = logging.getLogger(__name__)

WORKER_ID = f"{socket.gethostname()}:{os.getpid()}"
LEASE = timedelta(seconds=30)
TIMEOUTS_BEFORE_AWAY = 2


def _claimable(now):
    """Jobs not done and not held by a process under its lease at ``now``."""
    return Job.objects.filter(done_at__isnull=True).exclude(claimed_at__gt=now - LEASE)


# What people were promised comes first: a last call (a reminder, worth only on time,
# and cheap: one notification) before a turn's deadline (a move or two), and both before
# the bot moves and deals that are due with them, so that a busy clock makes bots slower
# before it makes a reminder or a deadline late.
PROMISED = (Job.Kind.LAST_CALL, Job.Kind.TURN_TIMEOUT)


def do_claim_due_jobs(limit: int = 20, now=None, worker: str = WORKER_ID) -> list[Job]:
    now = now or timezone.now()
    first = Case(*(When(kind=kind, then=Value(n)) for n, kind in enumerate(PROMISED)),
                 default=Value(len(PROMISED)))
    with transaction.atomic():
        due = (_claimable(now).select_for_update(skip_locked=True).filter(due_at__lte=now)
               .order_by(first, "due_at"))
        ids = list(due.values_list("pk", flat=True)[:limit])
        if ids:
            Job.objects.filter(pk__in=ids).update(claimed_at=now, claimed_by=worker)
    if not ids:
        return []
    return list(Job.objects.filter(pk__in=ids, claimed_by=worker, claimed_at=now)
                .select_related("game", "table").order_by(first, "due_at"))


def do_run_job(job: Job, worker: str = WORKER_ID) -> str:
    """Do what ``job`` is for, if it still applies. Returns what happened, in words.

    A job run without the clock's claim (``do_claim_due_jobs``) is claimed here first: a
    move it plays turns the game's unclaimed waiting job into the next turn's job
    (``schedule_after``), and that must not be this one, which is marked done below."""
    if job.claimed_at is None:
        now = timezone.now()
        Job.objects.filter(pk=job.pk, claimed_at__isnull=True).update(claimed_at=now,
                                                                       claimed_by=worker)
        job.claimed_at, job.claimed_by = now, worker
    try:
        result = _run(job)
    except Refused as exc:
        result = f"refused: {exc.message}"
    Job.objects.filter(pk=job.pk).update(done_at=timezone.now(), result=result[:200])
    return result


def do_run_due_jobs(limit: int = 20) -> int:
    """Claim and run what is due now. Returns how many jobs ran."""
    jobs = do_claim_due_jobs(limit)
    for job in jobs:
        try:
            do_run_job(job)
        except Exception:
            log.exception("job %s failed", job.pk)
            Job.objects.filter(pk=job.pk).update(done_at=timezone.now(), result="error")
    return len(jobs)


def next_due_in(default: float) -> float:
    """Seconds until the next job that may be claimed is due (at most ``default``): a
    job another process holds under its lease is not this process's to wait for."""
    now = timezone.now()
    due = _claimable(now).order_by("due_at").values_list("due_at", flat=True).first()
    if due is None:
        return default
    return max(0.0, min(default, (due - now).total_seconds()))


def _run(job: Job) -> str:
    if job.kind == Job.Kind.ABANDON_CHECK:
        return do_check_abandoned(job.table_id)
    if job.kind == Job.Kind.LAST_CALL:
        return do_last_call(job)
    game = Game.objects.select_related("table").get(pk=job.game_id)
    if game.status != Game.Status.PLAYING or game.version != job.version:
        return "stale"
    state = state_of(game)
    if job.kind == Job.Kind.NEXT_HAND:
        do_play(game.pk, None, kind_for(game).next_hand(), job.version, by="table")
        return "dealt"
    if state.turn != job.seat:
        return "stale"
    seat = seats_in_order(game.table_id)[job.seat]
    if job.kind == Job.Kind.BOT_MOVE:
        level = seat.bot_level or "greedy"  # an away player's seat plays greedily
        played = do_play(game.pk, job.seat, bot_choice(game, state, job.seat, level),
                         job.version, by="bot")
        return f"bot played {played.events[0].kind if played.events else 'a move'}"
    if job.kind == Job.Kind.TURN_TIMEOUT and game.table.is_post:
        return play_post_deadline(game, state, seat, job)
    if job.kind == Job.Kind.TURN_TIMEOUT:
        return _play_for_absent_player(game, state, seat, job)
    return f"unknown job kind {job.kind}"


def _play_for_absent_player(game: Game, state, seat: Seat, job: Job) -> str:
    """The turn ran out: play the kind's timeout move until the seat's turn ends (Stop
    the Bus: the casual bot's moves; Brag: a fold), and count the timeout."""
    kind = kind_for(game)
    timeout_move = kind.hook("timeout_move")
    version = job.version
    moves = 0
    while state.turn == job.seat and state.phase == kind.play_phase:
        action = timeout_move(kind, game, state, job.seat)
        played = do_play(game.pk, job.seat, action, version, by="clock")
        state, version = played.state, played.state.version
        moves += 1
    with transaction.atomic():
        lock_game(game.pk)  # the game first (see base.lock_game)
        seat = Seat.objects.select_for_update().get(pk=seat.pk)
        seat.timeouts += 1
        if seat.timeouts >= TIMEOUTS_BEFORE_AWAY and not seat.away:
            seat.away = True
        seat.save(update_fields=["timeouts", "away"])
        if seat.away:  # the seats changed: pages read them again
            touch_table(game.table_id)
        announce_table(game.table_id, version, lobby=False)
    return f"timed out; played {moves} move{'s' if moves != 1 else ''}" + (
        "; seat marked away" if seat.away else "")
