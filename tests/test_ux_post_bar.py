"""A post table's bar offers its ways on only when they make sense (a UX probe found "Next
table" and "Skip for now" on a table where it was not the player's turn).

"Skip for now" shows only while it is the viewer's turn at this table; "Next table" only
while another table waits for their move, and it leads there, never back to this table;
"All your turns" whenever they play the table's running game. The bar sits outside the
board (whose regions each change re-renders): it follows the player's turns live, sent
again by the table's socket whenever their list of turns changes (the turn passing here,
or coming at another table).
"""

import re

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.test import override_settings
from django.urls import reverse

from games import actions
from games.models import Seat, TableSkip
from games.turns import render_turns
from tests.factories import UserFactory, preset_variant
from tests.test_consumers import connect, latest
from tests.test_post_pace import old_user, post_game, until_persons_turn

pytestmark = pytest.mark.django_db


def bar_of(html: str) -> str:
    """The post bar's ways on as the page shows them ('' when hidden)."""
    found = re.search(r'<div id="post-bar-next"[^>]*>.*?</div>', html, re.S)
    assert found, "the ways on are always on a post table's page (the socket swaps them)"
    return "" if " hidden" in found.group(0).split(">", 1)[0] else found.group(0)


def page(client, game) -> str:
    return client.get(reverse("games:table", args=[game.table_id])).content.decode()


def my_turn(user, game) -> bool:
    return Seat.objects.get(table_id=game.table_id, user=user).turn_since is not None


def move(game, seat=0):
    game.refresh_from_db()
    state = actions.state_of(game)
    actions.do_play(game.pk, seat, actions.bot_choice(game, state, seat, "greedy"),
                    game.version)


def until_not_my_turn(user, game):
    for _ in range(4):  # a Stop the Bus draw keeps the turn for its discard
        if not my_turn(user, game):
            return
        move(game)
    raise AssertionError("the turn never passed")


@pytest.fixture
def amy(client):
    user = old_user("amy")
    client.force_login(user)
    return user


def test_at_your_turn_skip_shows_and_next_table_only_when_another_waits(amy, client):
    with override_settings(STOPBUS_POST_TABLES_NEW_ACCOUNT=20):
        first = until_persons_turn(post_game(amy, pace="4h"))
        bar = bar_of(page(client, first))
        assert "All your turns" in bar
        assert "Next table" not in bar  # no other table waits: nowhere to go
        # and no other table to put this one behind: nothing to skip
        assert "Skip for now" not in bar
        second = until_persons_turn(post_game(amy, pace="1d"))
    assert my_turn(amy, first) and my_turn(amy, second)
    bar = bar_of(page(client, first))
    assert "Skip for now" in bar
    assert f'href="/turns/next/?from={first.table_id}"' in bar


def test_when_it_is_not_your_turn_there_is_nothing_to_skip(amy, client):
    with override_settings(STOPBUS_POST_TABLES_NEW_ACCOUNT=20):
        game = until_persons_turn(post_game(amy))
        until_not_my_turn(amy, game)
        bar = bar_of(page(client, game))
        assert "Skip for now" not in bar and "Next table" not in bar
        assert "All your turns" in bar
        # another table comes to wait for the player: Next table leads there
        other = until_persons_turn(post_game(amy, pace="4h"))
    bar = bar_of(page(client, game))
    assert "Skip for now" not in bar
    assert f'href="/turns/next/?from={game.table_id}"' in bar
    response = client.get(f"/turns/next/?from={game.table_id}")
    assert response.status_code == 302 and response.url == other.table.get_absolute_url()


def test_next_table_never_leads_back_to_the_table_you_leave(amy, client):
    with override_settings(STOPBUS_POST_TABLES_NEW_ACCOUNT=20):
        urgent = until_persons_turn(post_game(amy, pace="4h"))  # the first of the list
        later = until_persons_turn(post_game(amy, pace="7d"))
    assert client.get("/turns/next/").url == urgent.table.get_absolute_url()
    assert client.get(f"/turns/next/?from={urgent.table_id}").url == (
        later.table.get_absolute_url())
    assert client.get(f"/turns/next/?from={later.table_id}").url == (
        urgent.table.get_absolute_url())
    assert client.get("/turns/next/?from=oak").url == urgent.table.get_absolute_url()
    # when only the table left waits: the list, saying so
    move(later)
    if not my_turn(amy, later):
        response = client.get(f"/turns/next/?from={urgent.table_id}", follow=True)
        assert "No other table is waiting for your move." in response.content.decode()


def test_before_the_game_and_for_a_spectator_the_bar_offers_no_way_on(amy, client):
    table = actions.do_create_table(amy, name="Slow", variant=preset_variant(), seats=3,
                                    pace="1d")
    html = client.get(reverse("games:table", args=[table.pk])).content.decode()
    assert bar_of(html) == ""
    game = until_persons_turn(post_game(amy))
    watcher = UserFactory(username="zed")
    client.force_login(watcher)
    assert bar_of(page(client, game)) == ""


def test_a_live_table_has_no_post_bar(amy, client):
    table = actions.do_create_table(amy, name="Now", variant=preset_variant(), seats=3,
                                    pace="live")
    html = client.get(reverse("games:table", args=[table.pk])).content.decode()
    assert 'id="post-bar-next"' not in html and "Skip for now" not in html


def test_skip_for_now_from_the_bar_goes_on_by_htmx(amy, client):
    """The bar as the socket sends it has no CSRF token of its own: its form posts with
    htmx (the page's header), and is answered with where to go."""
    with override_settings(STOPBUS_POST_TABLES_NEW_ACCOUNT=20):
        first = until_persons_turn(post_game(amy, pace="4h"))
        second = until_persons_turn(post_game(amy, pace="1d"))
    bar = bar_of(page(client, first))
    skip = reverse("games:skip_table", args=[first.table_id])
    assert f'hx-post="{skip}"' in bar and 'hx-swap="none"' in bar
    response = client.post(skip, HTTP_HX_REQUEST="true")
    assert response.status_code == 204
    assert response["HX-Redirect"] == second.table.get_absolute_url()
    assert TableSkip.objects.filter(user=amy, table_id=first.table_id).exists()
    # the last table waiting skipped: on to the list
    response = client.post(reverse("games:skip_table", args=[second.table_id]),
                           HTTP_HX_REQUEST="true")
    assert response["HX-Redirect"] in (first.table.get_absolute_url(), reverse("games:turns"))


def test_the_live_update_of_a_table_page_carries_its_bar(amy):
    with override_settings(STOPBUS_POST_TABLES_NEW_ACCOUNT=20):
        until_persons_turn(post_game(amy, pace="4h"))  # another table to skip this one for
        game = until_persons_turn(post_game(amy))
    html = render_turns(amy, with_list=False, post_table=game.table_id)
    found = re.search(r'<div id="post-bar-next"[^>]*hx-swap-oob="true"[^>]*>.*?</div>', html,
                      re.S)
    assert found and "Skip for now" in found.group(0)
    assert 'id="turns-block"' not in html  # a table's page has no list
    until_not_my_turn(amy, game)
    html = render_turns(amy, with_list=False, post_table=game.table_id)
    assert 'id="post-bar-next"' in html and "Skip for now" not in html
    # the lobby's and the list's updates carry no bar
    assert 'id="post-bar-next"' not in render_turns(amy)


def test_a_hidden_bar_stays_hidden():
    css = (settings.BASE_DIR / "static/css/table.css").read_text()
    # the bar's display: flex would otherwise show it (and its "All your turns") anyway
    assert ".table-page .post-bar__next[hidden] { display: none; }" in css


def _post_table_and_a_live_one():
    user = old_user("amy")
    with override_settings(STOPBUS_POST_TABLES_NEW_ACCOUNT=20):
        until_persons_turn(post_game(user, pace="4h"))  # another table to skip this one for
        post = until_persons_turn(post_game(user))
    live = actions.do_create_table(user, name="Now", variant=preset_variant(), seats=3,
                                   pace="live")
    return user, post, live


@pytest.mark.django_db(transaction=True)
async def test_the_table_socket_sends_the_bar_again_when_the_players_turns_change():
    user, post, live = await sync_to_async(_post_table_and_a_live_one)()
    at_post, ok, _ = await connect(user, post.table_id)
    at_live, ok_live, _ = await connect(user, live.pk)
    assert ok and ok_live
    await latest(at_post)
    await latest(at_live)
    await get_channel_layer().group_send(actions.user_group(user.pk), {"type": "turns.changed"})
    sent = "".join(await latest(at_post))
    assert 'id="post-bar-next"' in sent and 'hx-swap-oob="true"' in sent
    assert "Skip for now" in sent
    # a live table's page has no bar: nothing is aimed at one (an htmx error)
    sent = "".join(await latest(at_live))
    assert 'id="turns-count"' in sent and 'id="post-bar-next"' not in sent
    await at_post.disconnect()
    await at_live.disconnect()


def test_a_live_table_cannot_be_skipped(amy, client):
    """A live table is in no list of turns: "Skip for now" on one is refused and nothing is
    written (an attacker's probe found it answered 204 and kept a skip row)."""
    table = actions.do_create_table(amy, name="Now", variant=preset_variant(), seats=3,
                                    pace="live")
    response = client.post(reverse("games:skip_table", args=[table.pk]),
                           HTTP_HX_REQUEST="true")
    assert response.status_code in (200, 400, 409)
    assert not TableSkip.objects.exists()
