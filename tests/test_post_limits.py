"""Limits on post tables: 20 at once, one more per finished post game up to 100, five for
an account younger than a day; guests none."""

from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.utils import timezone

from games import actions
from games.models import Game, GamePlayer, Table
from tests.factories import UserFactory, preset_variant
from tests.test_post_pace import old_user

pytestmark = pytest.mark.django_db


def open_post(user, n=1, pace="1d"):
    for _ in range(n):
        actions.do_create_table(user, name="Post", variant=preset_variant(), seats=3, pace=pace)


def test_a_new_account_may_sit_at_five(user):
    open_post(user, 5)
    with pytest.raises(actions.Refused) as exc:
        open_post(user)
    assert exc.value.code == "post_limit"
    assert "You are at 5 post tables" in exc.value.message
    assert Table.objects.filter(pace="1d").count() == 5
    # live tables are not counted
    actions.do_create_table(user, name="Live", variant=preset_variant(), seats=3)


def test_twenty_then_one_more_per_finished_post_game_up_to_a_hundred():
    user = old_user("veteran")
    assert actions.post_table_limit(user) == 20
    open_post(user, 20)
    with pytest.raises(actions.Refused):
        open_post(user)
    # three finished post games raise it by three
    finished = Table.objects.filter(host=user)[:3]
    for table in finished:
        game = Game.objects.create(table=table, variant=table.variant, rules={}, seed="0",
                                   state={}, status=Game.Status.FINISHED)
        GamePlayer.objects.create(game=game, seat=0, user=user, name=user.username, place=1)
    assert actions.post_table_limit(user) == 23
    open_post(user, 3)
    with pytest.raises(actions.Refused):
        open_post(user)


def test_the_limit_stops_at_a_hundred(monkeypatch):
    user = old_user("old-hand")
    monkeypatch.setattr("games.actions.post.GamePlayer.objects.filter",
                        lambda **kw: SimpleNamespace(count=lambda: 500))
    assert actions.post_table_limit(user) == 100


def test_joining_counts_too(user):
    host = old_user("host")
    open_post(user, 5)
    table = actions.do_create_table(host, name="Join me", variant=preset_variant(), seats=3,
                                    pace="2d")
    with pytest.raises(actions.Refused) as exc:
        actions.do_join_table(table, user)
    assert exc.value.code == "post_limit"
    assert not table.seat_set.filter(user=user).exists()


def test_an_account_older_than_a_day_is_not_young(user):
    user.date_joined = timezone.now() - timedelta(days=1, minutes=1)
    assert actions.post_table_limit(user) == 20


def test_guests_may_not_open_post_tables(user):
    user.is_guest = True
    assert not actions.may_open_post_table(user)
    with pytest.raises(actions.Refused) as exc:
        open_post(user)
    assert exc.value.code == "post_guest"
    assert "registered players" in exc.value.message


def test_the_limit_message_in_the_lobby_form(client):
    user = UserFactory(username="newbie")
    open_post(user, 5)
    client.force_login(user)
    response = client.post("/tables/new/", {"name": "Sixth", "variant": preset_variant().pk,
                                            "seats": 3, "pace": "1d"})
    assert response.status_code == 400
    assert "You are at 5 post tables" in response.content.decode()
