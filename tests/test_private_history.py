"""A private table's games are listed only to its players and the people it invited."""

import pytest
from django.urls import reverse

from games.models import Table
from tests.factories import UserFactory, finished_game

pytestmark = pytest.mark.django_db

SECRET = "Secret Friday bus"
OPEN = "Open Saturday bus"


@pytest.fixture
def host_games():
    host, guest, outsider = (UserFactory(username=n) for n in ("hostess", "guest", "outsider"))
    private = finished_game([host, guest], bots=["random"])
    Table.objects.filter(pk=private.table_id).update(private=True, name=SECRET)
    public = finished_game([host], bots=["random"])
    Table.objects.filter(pk=public.table_id).update(name=OPEN)
    return host, guest, outsider, Table.objects.get(pk=private.table_id)


def pages(client):
    return [client.get(url).content.decode() for url in (
        reverse("stats:history", args=["hostess"]),
        reverse("stats:profile", args=["hostess"]),
        reverse("stats:head_to_head", args=["hostess", "guest"]))]


def test_outsiders_and_anonymous_visitors_do_not_see_the_private_table(client, host_games):
    host, guest, outsider, table = host_games
    history, profile, _ = pages(client)
    assert OPEN in history and OPEN in profile  # the control: the public game is listed
    assert SECRET not in history and SECRET not in profile
    assert "1 finished game," in history
    client.force_login(outsider)
    history, profile, h2h = pages(client)
    assert SECRET not in history and SECRET not in profile
    assert "/replay/" not in h2h  # the two only played together at the private table
    # nor is the game counted: the two have no game together that an outsider may know of
    assert "have not finished a game together" in h2h and "1 game together" not in h2h


@pytest.mark.parametrize("who", ["hostess", "guest"])
def test_its_players_see_it(client, host_games, who):
    host, guest, *_ = host_games
    client.force_login(host if who == "hostess" else guest)
    history, profile, h2h = pages(client)
    assert SECRET in history and SECRET in profile
    assert "2 finished games," in history
    assert "/replay/" in h2h and "1 game together" in h2h


def test_someone_holding_its_invite_sees_it(client, host_games):
    *_, outsider, table = host_games
    client.force_login(outsider)
    client.get(reverse("games:invite", args=[table.invite_code]))
    history, profile, _ = pages(client)
    assert SECRET in history and SECRET in profile
