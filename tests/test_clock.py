"""The clock: bot moves, turn deadlines, away seats, next deals -- rows with a due time."""

import threading
from datetime import timedelta

import pytest
from django.db import close_old_connections, connection
from django.utils import timezone

from games import actions, clock
from games.models import Game, Job, Seat, Variant
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def variant():
    v, _ = Variant.objects.get_or_create(slug="classic", defaults={"name": "Classic"})
    v.turn_seconds = 30
    v.save()
    return v


def start(user, variant, bots=("greedy",), people=()):
    table = actions.do_create_table(user, name="T", variant=variant,
                                    seats=1 + len(bots) + len(people))
    for person in people:
        actions.do_join_table(table, person)
    for level in bots:
        table.refresh_from_db()
        if table.status == "waiting":
            actions.do_add_bot(table, user, level)
    table.refresh_from_db()
    if table.status == "waiting":
        actions.do_start_game(table, user)
    return table.current_game()


def pending(game, kind=None):
    jobs = Job.objects.filter(game=game, done_at__isnull=True)
    return jobs.filter(kind=kind) if kind else jobs


def later(seconds):
    return timezone.now() + timedelta(seconds=seconds)


def test_the_next_turn_is_scheduled_as_a_row(user, variant):
    game = start(user, variant)
    state = actions.state_of(game)
    job = pending(game).get()
    if state.turn == 0:
        assert job.kind == Job.Kind.TURN_TIMEOUT and job.seat == 0
        assert abs((job.due_at - timezone.now()).total_seconds() - 30) < 5
        assert game.deadline == job.due_at
    else:
        assert job.kind == Job.Kind.BOT_MOVE


def to_the_bots_turn(game):
    """Play on until the bot at seat 1 is to move: the person at seat 0 stops the bus
    straight away to hand the turn on, and the clock runs what else is due."""
    for _ in range(20):
        game = Game.objects.get(pk=game.pk)
        state = actions.state_of(game)
        if state.turn == 1 and state.phase == "play":
            break
        job = pending(game).get()
        if job.kind == Job.Kind.TURN_TIMEOUT:
            actions.do_play(game.pk, 0, {"kind": "stop"} if state.stopper is None
                         else {"kind": "pass"}, game.version)
        else:
            clock.run_due_jobs()
    return game


def test_a_bot_moves_when_its_job_is_due(user, variant):
    game = to_the_bots_turn(start(user, variant))
    job = pending(game, Job.Kind.BOT_MOVE).get()
    assert clock.run_due_jobs() == 1
    job.refresh_from_db()
    assert job.done_at and job.result.startswith("bot played")
    assert Game.objects.get(pk=game.pk).version == game.version + 1
    assert game.actions.get(seq=game.version + 1).by == "bot"


def test_a_bot_that_chooses_a_move_the_engine_refuses_still_plays_its_turn(
        user, variant, monkeypatch, caplog):
    """A bot's mistake (a move the engine does not take) must not stop the game: the
    clock plays a legal move for the seat instead, and the mistake is logged."""
    from games.engine.bots import CasualBot
    from games.engine.game import Action

    game = to_the_bots_turn(start(user, variant))
    monkeypatch.setattr(CasualBot, "choose",
                        lambda self, view: Action("discard", view.viewer, give=(None,)))
    with caplog.at_level("ERROR", logger="games.actions.moves"):
        assert clock.run_due_jobs() == 1
    job = Job.objects.filter(game=game, kind=Job.Kind.BOT_MOVE).latest("done_at")
    assert job.result.startswith("bot played"), job.result
    assert Game.objects.get(pk=game.pk).version == game.version + 1
    assert "does not take" in caplog.text


def test_nothing_runs_before_it_is_due(user, variant, settings):
    settings.STOPBUS_BOT_DELAY = 60
    start(user, variant, bots=("greedy", "greedy"))
    assert clock.claim_due_jobs() == []
    assert clock.claim_due_jobs(now=later(120))


def test_a_timeout_plays_greedily_and_two_in_a_row_mark_the_seat_away(user, variant):
    game = start(user, variant, bots=("greedy",))
    timeouts = 0
    for _ in range(100):
        game = Game.objects.get(pk=game.pk)
        if game.status != Game.Status.PLAYING:
            break
        job = pending(game).first()
        if job.kind == Job.Kind.TURN_TIMEOUT:
            jobs = clock.claim_due_jobs(now=later(31))
            assert [j.pk for j in jobs] == [job.pk]
            result = clock.run_job(jobs[0])
            assert result.startswith("timed out")
            timeouts += 1
            if timeouts == 2:
                assert "seat marked away" in result
                break
        else:
            clock.run_due_jobs()
    seat = Seat.objects.get(table=game.table, user=user)
    assert seat.away and seat.timeouts == 2
    assert game.actions.filter(by="clock").exists()
    # while away, the person's turns are bot moves, due quickly
    for _ in range(30):
        game = Game.objects.get(pk=game.pk)
        state = actions.state_of(game)
        if state.turn == 0 and state.phase == "play":
            break
        clock.run_due_jobs()
    assert pending(game).get().kind == Job.Kind.BOT_MOVE
    actions.do_take_seat_back(game, user)
    seat.refresh_from_db()
    assert not seat.away and seat.timeouts == 0
    assert pending(game).get().kind == Job.Kind.TURN_TIMEOUT


def test_a_job_run_without_a_claim_leaves_the_next_turn_its_deadline(user, variant):
    """A bot's job run straight away (not claimed by a clock first): the move it plays
    schedules the person's deadline, and that job stays, apart from the one that ran."""
    game = start(user, variant)
    for _ in range(20):
        game = Game.objects.get(pk=game.pk)
        state = actions.state_of(game)
        job = pending(game).get()
        if job.kind == Job.Kind.BOT_MOVE:
            break
        if job.kind == Job.Kind.TURN_TIMEOUT:  # the person hands the turn on
            actions.do_play(game.pk, 0, {"kind": "stop"} if state.stopper is None
                            else {"kind": "pass"}, game.version)
        else:
            clock.run_job(job)
    assert job.kind == Job.Kind.BOT_MOVE and job.claimed_at is None
    assert clock.run_job(job).startswith("bot played")
    job.refresh_from_db()
    assert job.done_at and job.kind == Job.Kind.BOT_MOVE
    game = Game.objects.get(pk=game.pk)
    state = actions.state_of(game)
    after = pending(game).get()
    if state.phase == "play":  # the person's turn, with its own deadline
        assert state.turn == 0 and after.kind == Job.Kind.TURN_TIMEOUT and after.seat == 0
        assert after.version == game.version and game.deadline == after.due_at
    else:  # the bot's move ended the hand: the next deal waits
        assert after.kind == Job.Kind.NEXT_HAND and after.version == game.version
    assert after.pk != job.pk


def test_a_job_for_an_old_version_does_nothing(user, variant):
    game = start(user, variant, bots=("greedy",))
    job = Job.objects.create(kind=Job.Kind.BOT_MOVE, table=game.table, game=game,
                             version=game.version + 5, seat=1, due_at=timezone.now())
    assert clock.run_job(job) == "stale"
    assert Game.objects.get(pk=game.pk).version == game.version


def test_a_job_is_claimed_once(user, variant, settings):
    settings.STOPBUS_BOT_DELAY = 0
    game = start(user, variant, bots=("greedy",))
    Job.objects.filter(game=game).update(due_at=timezone.now() - timedelta(seconds=1))
    first = clock.claim_due_jobs(worker="one")
    second = clock.claim_due_jobs(worker="two")
    assert first and second == []
    # the claimer died: after the lease another process takes it over
    third = clock.claim_due_jobs(worker="three", now=timezone.now() + clock.LEASE
                                 + timedelta(seconds=1))
    assert [j.pk for j in third] == [j.pk for j in first]


def test_reminders_and_deadlines_are_claimed_before_bot_moves_due_earlier(user, variant):
    """A busy clock makes bots slower before it makes a promise to a person late: of the
    jobs due, last calls are taken first, then turn deadlines, then the rest, each by its
    due time."""
    game = start(user, variant, bots=("greedy",))
    Job.objects.filter(game=game).update(done_at=timezone.now(), result="test")
    now = timezone.now()

    def job(kind, seconds_ago):
        return Job.objects.create(kind=kind, table=game.table, game=game, version=999, seat=1,
                                  due_at=now - timedelta(seconds=seconds_ago))

    bots = [job(Job.Kind.BOT_MOVE, 30 - n) for n in range(4)]
    dealt = job(Job.Kind.NEXT_HAND, 25)
    deadline = job(Job.Kind.TURN_TIMEOUT, 2)
    call = job(Job.Kind.LAST_CALL, 1)
    first = clock.claim_due_jobs(limit=3, now=now, worker="one")
    assert [j.pk for j in first] == [call.pk, deadline.pk, bots[0].pk]
    rest = clock.claim_due_jobs(limit=10, now=now, worker="two")
    assert [j.pk for j in rest] == [j.pk for j in (*bots[1:], dealt)]
    assert clock.claim_due_jobs(now=now, worker="three") == []


def test_a_deadline_survives_a_restart(user, variant):
    """Jobs are rows: a new process (nothing in memory) finds and runs them."""
    game = start(user, variant, bots=("greedy",))
    due = pending(game).get()
    actions.base._STATES.clear()  # a restarted process has no cached state
    ran = clock.claim_due_jobs(now=due.due_at + timedelta(seconds=1), worker="restarted")
    assert [j.pk for j in ran] == [due.pk]
    clock.run_job(ran[0])
    assert Game.objects.get(pk=game.pk).version > game.version


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_processes_racing_for_due_jobs_never_share_one(user, variant):
    """Row locks with SKIP LOCKED: concurrent claimers get disjoint jobs."""
    assert connection.vendor == "postgresql"
    game = start(user, variant, bots=("greedy",))
    Job.objects.bulk_create([
        Job(kind=Job.Kind.BOT_MOVE, table=game.table, game=game, version=999, seat=1,
            due_at=timezone.now() - timedelta(seconds=1)) for _ in range(60)])
    claimed = {}
    barrier = threading.Barrier(4)

    def claim(name):
        barrier.wait()
        try:
            got = []
            while batch := clock.claim_due_jobs(limit=5, worker=name):
                got.extend(j.pk for j in batch)
            claimed[name] = got
        finally:
            close_old_connections()

    threads = [threading.Thread(target=claim, args=(f"w{i}",)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    everything = [pk for got in claimed.values() for pk in got]
    assert len(everything) == len(set(everything)), "a job was claimed twice"
    assert len(everything) >= 60


def test_people_ready_or_the_clock_deals_the_next_hand(user, variant, settings):
    game = start(user, variant, bots=("greedy",))
    for _ in range(200):
        game = Game.objects.get(pk=game.pk)
        state = actions.state_of(game)
        if state.phase == "showdown":
            break
        job = pending(game).first()
        if job.kind == Job.Kind.TURN_TIMEOUT:
            actions.do_play(game.pk, 0, {"kind": "stop"} if state.stopper is None
                         else {"kind": "pass"}, game.version)
        else:
            clock.run_due_jobs()
    deal = pending(game).get()
    assert deal.kind == Job.Kind.NEXT_HAND
    assert clock.run_due_jobs() == 1
    assert actions.state_of(Game.objects.get(pk=game.pk)).hand_no == state.hand_no + 1


def test_abandoned_tables(user, variant, settings):
    settings.STOPBUS_ABANDON_AFTER = 0
    table = actions.do_create_table(user, name="Lonely", variant=variant, seats=3)
    check = Job.objects.get(table=table, kind=Job.Kind.ABANDON_CHECK, done_at__isnull=True)
    assert clock.run_job(check) == "closed an unstarted table"
    table.refresh_from_db()
    assert table.status == "closed"
    game = start(UserFactory(), variant, bots=("greedy",))
    assert actions.do_check_abandoned(game.table_id) == "bots play out the game"
    assert Seat.objects.get(table=game.table, user__isnull=False).away
    for _ in range(3000):
        if Game.objects.get(pk=game.pk).status != Game.Status.PLAYING:
            break
        clock.run_due_jobs()
    assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED


def test_run_clock_once_runs_what_is_due(user, variant):
    from io import StringIO

    from django.core.management import call_command

    game = start(user, variant, bots=("greedy", "greedy"))
    Job.objects.filter(game=game, done_at__isnull=True).update(due_at=timezone.now())
    out = StringIO()
    call_command("run_clock", "--once", stdout=out)
    assert out.getvalue().startswith("ran ")
    assert not Job.objects.filter(game=game, done_at__isnull=True,
                                  due_at__lte=timezone.now() - timedelta(seconds=1)).exists()


def test_a_tick_with_nothing_due_costs_one_query(user, variant, django_assert_num_queries,
                                                 monkeypatch):
    """The clock looks every quarter second in every process: when nothing is due it
    asks once when the next job is, and claims nothing; when a job is due it runs it;
    a job another process holds under its lease is not waited for."""
    # a tick starts and ends by closing stale connections: not inside this test's
    # transaction, which holds the rows it made
    monkeypatch.setattr(clock, "close_old_connections", lambda: None)
    game = start(user, variant, bots=("greedy",), people=())
    job = pending(game).get()
    job.due_at = later(60)
    job.save()
    with django_assert_num_queries(1):
        ran, wait = clock._tick()
    assert (ran, wait) == (0, clock._poll_seconds())
    assert pending(game).get().claimed_at is None
    Job.objects.filter(pk=job.pk).update(due_at=later(-1))
    ran, wait = clock._tick()
    assert ran == 1 and wait == 0.0
    assert Job.objects.get(pk=job.pk).done_at is not None
    # a due job claimed a moment ago by another process: its lease holds it
    other = pending(game).get()
    Job.objects.filter(pk=other.pk).update(due_at=later(-1), claimed_at=timezone.now(),
                                           claimed_by="elsewhere:1")
    assert actions.next_due_in(0.25) == 0.25
    with django_assert_num_queries(1):
        assert clock._tick() == (0, 0.25)
    # its lease run out, it is this process's to claim again
    Job.objects.filter(pk=other.pk).update(claimed_at=timezone.now() - actions.LEASE * 2)
    assert actions.next_due_in(0.25) == 0.0
    assert clock._tick()[0] == 1
