"""Old guests are removed by a job: idle for STOPBUS_GUEST_DAYS and not at a waiting or
running table. Their finished games stay (with their names) for the other players."""

from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone

from accounts.models import User
from games import actions
from games.models import Game, GamePlayer, Table
from tests.factories import UserFactory, play_out_game, preset_variant

pytestmark = pytest.mark.django_db


def guest(name, days_ago=0):
    when = timezone.now() - timedelta(days=days_ago)
    user = User.objects.create(username=name, email=f"{name.replace(' ', '')}@guest.invalid",
                               is_guest=True)
    User.objects.filter(pk=user.pk).update(date_joined=when, last_login=when)
    return User.objects.get(pk=user.pk)


def age(days):
    """Move every game, seat and sign-in ``days`` into the past."""
    then = timezone.now() - timedelta(days=days)
    Game.objects.update(started_at=then, finished_at=then)
    from games.models import Seat
    Seat.objects.update(joined_at=then)


def test_idle_guests_go_and_everyone_else_stays(settings):
    settings.STOPBUS_GUEST_DAYS = 30
    member = UserFactory()
    User.objects.filter(pk=member.pk).update(date_joined=timezone.now() - timedelta(days=400))
    old = guest("Guest 1001", days_ago=45)
    recent = guest("Guest 1002", days_ago=3)
    out = StringIO()
    call_command("clean_guests", stdout=out)
    assert "removed 1 idle guest" in out.getvalue()
    assert not User.objects.filter(pk=old.pk).exists()
    assert set(User.objects.values_list("pk", flat=True)) == {member.pk, recent.pk}


def test_a_guest_at_a_running_or_waiting_table_stays():
    playing = guest("Guest 2001")
    waiting = guest("Guest 2002")
    table = actions.do_create_table(playing, name="Running", variant=preset_variant(), seats=2)
    actions.do_add_bot(table, playing, "greedy")  # full: starts
    actions.do_create_table(waiting, name="Waiting", variant=preset_variant(), seats=3)
    age(90)
    User.objects.filter(is_guest=True).update(date_joined=timezone.now() - timedelta(days=90),
                                              last_login=timezone.now() - timedelta(days=90))
    assert Table.objects.get(name="Running").status == Table.Status.PLAYING
    assert actions.do_forget_guests(days=30) == 0
    assert User.objects.filter(is_guest=True).count() == 2


def test_a_removed_guests_finished_game_stays_for_the_others():
    member = UserFactory()
    old = guest("Guest 3001")
    table = actions.do_create_table(member, name="Finished", variant=preset_variant(), seats=2)
    actions.do_join_table(table, old)
    game = play_out_game(table.games.get())
    assert game.status == Game.Status.FINISHED
    age(60)
    User.objects.filter(pk=old.pk).update(date_joined=timezone.now() - timedelta(days=60),
                                          last_login=timezone.now() - timedelta(days=60))
    out = StringIO()
    call_command("clean_guests", "--days", "30", "--dry-run", stdout=out)
    assert "1 idle guest would be removed" in out.getvalue()
    assert User.objects.filter(pk=old.pk).exists()  # a dry run removes nothing
    assert actions.do_forget_guests(days=30) == 1
    assert not User.objects.filter(pk=old.pk).exists()
    names = list(GamePlayer.objects.filter(game=game).order_by("seat").values_list(
        "name", "user_id"))
    assert names == [(member.username, member.pk), ("Guest 3001", None)]
    assert User.objects.filter(pk=member.pk).exists()


def test_a_guest_who_played_lately_stays_though_they_joined_long_ago():
    player = guest("Guest 4001", days_ago=90)
    table = actions.do_create_table(player, name="Lately", variant=preset_variant(), seats=2)
    actions.do_add_bot(table, player, "greedy")
    play_out_game(table.games.get())  # finished today
    assert actions.do_forget_guests(days=30) == 0
    assert User.objects.filter(pk=player.pk).exists()


def test_a_member_is_never_removed():
    member = UserFactory()
    User.objects.filter(pk=member.pk).update(date_joined=timezone.now() - timedelta(days=900),
                                             last_login=None)
    assert actions.do_forget_guests(days=1) == 0
    assert User.objects.filter(pk=member.pk).exists()


def test_the_clock_sweeps_idle_guests_once_an_hour_across_processes(settings):
    from django.core.cache import cache

    from games.clock import sweep_guests

    settings.STOPBUS_GUEST_DAYS = 30
    cache.delete("clock:guest-sweep")
    guest("Guest 3001", days_ago=45)
    assert sweep_guests() == 1
    assert not User.objects.filter(username="Guest 3001").exists()
    guest("Guest 3002", days_ago=45)
    assert sweep_guests() == 0  # swept within the hour already (by this or another process)
    cache.delete("clock:guest-sweep")
    assert sweep_guests() == 1
