"""A visitor without an account who opens a table (a game under "Being played", an
invite link) is sent to log in: the page says which table and what they would do there,
and names a private table only to someone who came with its link."""

import pytest

from games import actions
from tests.factories import UserFactory, preset_variant

pytestmark = pytest.mark.django_db


def table(**options):
    return actions.do_create_table(UserFactory(), name="Oak room", variant=preset_variant(),
                                   seats=4, **options)


def test_a_waiting_table_is_named_with_a_seat_to_take(client):
    t = table()
    response = client.get(t.get_absolute_url(), follow=True)
    page = response.content.decode()
    assert response.redirect_chain[-1][0].startswith("/accounts/login/")
    assert 'id="login-for-table"' in page
    assert "<strong>Oak room</strong> is waiting for players" in page
    assert 'id="play-as-guest"' in page


def test_a_game_being_played_is_named_to_watch(client):
    t = table()
    actions.do_add_bot(t, t.host, "greedy")
    actions.do_start_game(t, t.host)
    page = client.get(t.get_absolute_url(), follow=True).content.decode()
    assert "<strong>Oak room</strong> is being played" in page


def test_a_private_table_is_named_only_with_its_link(client):
    t = table(private=True)
    page = client.get(t.get_absolute_url(), follow=True).content.decode()
    assert "Oak room" not in page
    assert "to open that table" in page
    page = client.get(f"/invite/{t.invite_code}/", follow=True).content.decode()
    assert "<strong>Oak room</strong> is waiting for players" in page


@pytest.mark.parametrize("next_url", ["/t/999999/", "/rules/", "//evil.example/t/1/",
                                      "/t/1/../admin/", "/t/%00/"])
def test_other_places_get_the_plain_log_in(client, next_url):
    table()
    response = client.get("/accounts/login/", {"next": next_url})
    assert response.status_code in (200, 400)
    assert 'id="login-for-table"' not in response.content.decode()


def test_in_japanese(client):
    t = table()
    page = client.get(t.get_absolute_url(), follow=True,
                      headers={"accept-language": "ja"}).content.decode()
    assert "<strong>Oak room</strong>" in page
    assert "is waiting for players" not in page
