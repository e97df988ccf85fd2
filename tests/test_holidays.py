"""Holidays: up to 14 days a calendar year; while on one, a bot plays the player's post turns
at once, and the others see until when."""

from datetime import date, timedelta
from unittest import mock

import pytest
from django.utils import timezone

from accounts.holidays import days_left, days_used, on_holiday
from accounts.models import Holiday
from games import actions
from games.models import Job, Seat
from tests.factories import UserFactory, preset_variant
from tests.test_post_pace import old_user, pending, post_game, until_persons_turn

pytestmark = pytest.mark.django_db


def today():
    return timezone.localdate()


def test_a_holiday_from_the_profile(user, client):
    client.force_login(user)
    response = client.post("/accounts/holiday/", {"start": today().isoformat(), "days": 5})
    assert response.status_code == 302
    holiday = Holiday.objects.get(user=user)
    assert holiday.start == today() and holiday.end == today() + timedelta(days=4)
    assert on_holiday(user.pk)
    page = client.get("/accounts/profile/").content.decode()
    assert "5 days used, 9 days left" in page


@pytest.mark.parametrize("language", ["en-gb", "ja"])
def test_the_holiday_form_shows_its_first_day_as_a_date_input_reads_it(user, client, language):
    """A date input takes only ISO dates: in English the first day was written
    "27/11/2026", and the browser showed the field blank."""
    user.language = language
    user.save(update_fields=["language"])
    client.force_login(user)
    page = client.get("/accounts/profile/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    field = page[page.index('name="start"') - 200:page.index('name="start"') + 200]
    assert 'type="date"' in field
    assert f'value="{today().isoformat()}"' in field, field


@pytest.mark.parametrize("data, says", [
    ({"start": "yesterday", "days": 3}, "Enter a valid date"),
    ({"start": "2026-02-30", "days": 3}, "Enter a valid date"),
    ({"start": "TODAY", "days": 0}, "greater than or equal to 1"),
    ({"start": "TODAY", "days": 15}, "less than or equal to 14"),
    ({"start": "TODAY", "days": "lots"}, "Enter a whole number"),
    ({"start": "PAST", "days": 2}, "cannot start in the past"),
    ({"start": "FAR", "days": 2}, "at most a year from today"),
    ({}, "This field is required"),
])
def test_bad_holidays_are_refused_in_words(user, client, data, says):
    words = {"TODAY": today(), "PAST": today() - timedelta(days=1),
             "FAR": today() + timedelta(days=400)}
    data = {k: words.get(v, v) if isinstance(v, str) else v for k, v in data.items()}
    client.force_login(user)
    response = client.post("/accounts/holiday/", data)
    assert response.status_code == 400
    assert says in response.content.decode()
    assert not Holiday.objects.exists()


def test_fourteen_days_a_calendar_year_and_no_overlap(user):
    start = date(today().year + 1, 3, 1)
    actions.do_take_holiday(user, start, 10)
    with pytest.raises(actions.Refused) as exc:
        actions.do_take_holiday(user, start + timedelta(days=20), 5)
    assert exc.value.code == "holiday_too_long"
    assert "you have 4 of your 14 holiday days left" in exc.value.message
    with pytest.raises(actions.Refused) as exc:
        actions.do_take_holiday(user, start + timedelta(days=9), 2)
    assert exc.value.code == "holiday_overlap"
    actions.do_take_holiday(user, start + timedelta(days=20), 4)
    assert days_used(user, start.year) == 14 and days_left(user, start.year) == 0


def test_a_holiday_over_new_year_counts_in_each_year(user):
    year = today().year + 1
    with mock.patch("games.actions.post.today", return_value=date(year, 1, 1)):
        actions.do_take_holiday(user, date(year, 12, 25), 14)
    assert days_used(user, year) == 7 and days_used(user, year + 1) == 7


def test_a_bot_plays_at_once_for_a_player_on_holiday(user):
    game = until_persons_turn(post_game(user))
    assert pending(game, Job.Kind.TURN_TIMEOUT).exists()
    actions.do_take_holiday(user, today(), 3)
    # the waiting turn is handed to the bot now, not at its deadline
    job = pending(game, Job.Kind.BOT_MOVE).get()
    assert job.seat == 0 and (job.due_at - timezone.now()).total_seconds() < 5
    actions.do_run_job(job)
    assert game.actions.filter(by="bot", seat=0).exists()
    # and the next turns of the seat too; no turn is counted as missed
    game = until_persons_turn(game)
    assert not pending(game, Job.Kind.TURN_TIMEOUT).exists()
    seat = Seat.objects.get(table=game.table, user=user)
    assert seat.timeouts == 0 and not seat.away


def test_a_deadline_during_a_holiday_is_not_a_missed_turn(user):
    game = until_persons_turn(post_game(user))
    Holiday.objects.create(user=user, start=today(), end=today() + timedelta(days=2))
    result = actions.do_run_job(pending(game, Job.Kind.TURN_TIMEOUT).get())
    assert result.startswith("on holiday")
    assert Seat.objects.get(table=game.table, user=user).timeouts == 0


def test_opponents_see_until_when(client):
    ann, bob = old_user("ann"), old_user("bob")
    table = actions.do_create_table(ann, name="Postal", variant=preset_variant(), seats=3,
                                    pace="2d")
    actions.do_add_bot(table, ann, "greedy")
    actions.do_join_table(table, bob)
    actions.do_take_holiday(bob, today(), 4)
    end = today() + timedelta(days=3)
    client.force_login(ann)
    page = client.get(table.get_absolute_url()).content.decode()
    assert "bob is on holiday until" in page
    assert f"{end.day}" in page
    turns = client.get("/turns/").content.decode()
    assert "bob is on holiday until" in turns


def test_holiday_days_in_japanese(client):
    user = UserFactory(username="hanako", language="ja")
    client.force_login(user)
    page = client.get("/accounts/profile/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "休暇" in page


def test_a_holiday_from_a_later_day_applies_when_that_day_comes(user):
    """Taken ahead, a holiday changes nothing until its first day; from then on the turn
    waiting at its deadline, and every later turn at once, are the bot's, and none counts
    as missed."""
    game = until_persons_turn(post_game(user))
    first = today() + timedelta(days=1)
    actions.do_take_holiday(user, first, 3)
    assert not on_holiday(user.pk)
    assert pending(game, Job.Kind.TURN_TIMEOUT).exists()  # still the player's own turn
    assert not pending(game, Job.Kind.BOT_MOVE).exists()
    with mock.patch("accounts.holidays.today", return_value=first):
        assert on_holiday(user.pk)
        result = actions.do_run_job(pending(game, Job.Kind.TURN_TIMEOUT).get())
        assert result.startswith("on holiday"), result
        game = until_persons_turn(game)
        assert pending(game, Job.Kind.BOT_MOVE).filter(seat=0).exists()
        assert not pending(game, Job.Kind.TURN_TIMEOUT).exists()
    seat = Seat.objects.get(table=game.table, user=user)
    assert seat.timeouts == 0 and not seat.away


def test_a_holiday_that_begins_during_a_turn_takes_it_at_the_last_call(user):
    """The first day of a holiday comes while the player's turn waits: its last call
    reminds nobody, and the bot plays the turn then."""
    from notify.models import Notification

    game = until_persons_turn(post_game(user))
    first = today() + timedelta(days=1)
    actions.do_take_holiday(user, first, 2)
    with mock.patch("accounts.holidays.today", return_value=first):
        result = actions.do_run_job(pending(game, Job.Kind.LAST_CALL).get())
        assert result == "on holiday: the bot plays the turn"
        job = pending(game, Job.Kind.BOT_MOVE).get()
        assert job.seat == 0
        actions.do_run_job(job)
    assert game.actions.filter(by="bot", seat=0).exists()
    assert not Notification.objects.filter(user=user, event="last_call").exists()


def test_the_last_call_still_reminds_before_the_holiday_begins(user):
    from notify.models import Notification

    game = until_persons_turn(post_game(user))
    actions.do_take_holiday(user, today() + timedelta(days=1), 2)
    result = actions.do_run_job(pending(game, Job.Kind.LAST_CALL).get())
    assert result == "last call sent"
    assert Notification.objects.filter(user=user, event="last_call").exists()


def test_a_guest_takes_no_holiday(client):
    """A guest plays no post table: the profile offers no holiday, and one asked for
    anyway is refused in words and saves nothing."""
    guest = UserFactory(username="guest-4821", is_guest=True)
    client.force_login(guest)
    assert 'id="holidays"' not in client.get("/accounts/profile/").content.decode()
    response = client.post("/accounts/holiday/", {"start": today().isoformat(), "days": 5},
                           follow=True)
    assert response.redirect_chain == [("/accounts/profile/", 302)]
    assert "Post tables are for registered players" in response.content.decode()
    assert not Holiday.objects.exists()
    with pytest.raises(actions.Refused):
        actions.do_take_holiday(guest, today(), 3)
    assert not Holiday.objects.exists()
