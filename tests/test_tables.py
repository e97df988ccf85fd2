"""The lobby, opening tables, sitting down, bots, starting, and the table page."""

import pytest
from django.urls import reverse

from games import actions
from games.engine.cards import CODES
from games.models import Game, Seat, Table, Variant
from tests.factories import UserFactory
from tests.html_contract import cards_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def variant():
    return Variant.objects.get_or_create(slug="classic", defaults={"name": "Classic"})[0]


@pytest.fixture
def table(user, variant):
    return actions.do_create_table(user, name="Friday bus", variant=variant, seats=4)


def test_anonymous_lobby_invites_sign_up(client, table):
    html = client.get("/").content.decode()
    assert f'href="{reverse("accounts:signup")}"' in html
    assert "Friday bus" in html
    assert "Open a table" not in html


def test_signed_in_lobby_welcomes_and_offers_active_variants(user_client, user, variant):
    Variant.objects.create(name="Retired rules", slug="retired", active=False)
    html = user_client.get("/").content.decode()
    assert f"Welcome back, <strong>{user.username}</strong>" in html
    assert "Open a table" in html
    assert variant.name in html and "Retired rules" not in html
    assert 'ws-connect="/ws/lobby/"' in html


def test_open_a_table(user_client, user, variant):
    response = user_client.post(reverse("games:create_table"), {
        "name": "Pub night", "variant": variant.pk, "seats": 3, "allow_spectators": "on"})
    table = Table.objects.get(name="Pub night")
    assert response.status_code == 302 and response["Location"] == table.get_absolute_url()
    assert table.host == user and table.status == Table.Status.WAITING
    assert list(table.seat_set.values_list("user", flat=True)) == [user.pk]
    assert table.turn_seconds == variant.turn_seconds


@pytest.mark.parametrize("seats", [1, 7, 40, "many"])
def test_nonsense_table_forms_are_refused(user_client, variant, seats):
    response = user_client.post(reverse("games:create_table"), {"variant": variant.pk,
                                                                "seats": seats})
    assert response.status_code == 400
    assert not Table.objects.exists()


def test_an_inactive_variant_cannot_be_chosen(user_client, variant):
    variant.active = False
    variant.save()
    response = user_client.post(reverse("games:create_table"), {"variant": variant.pk,
                                                                "seats": 3})
    assert response.status_code == 400 and not Table.objects.exists()


def test_join_leave_and_host_handover(client, table, user):
    bob, carol = UserFactory(), UserFactory()
    client.force_login(bob)
    assert client.post(reverse("games:join", args=[table.pk])).status_code == 302
    client.force_login(carol)
    client.post(reverse("games:join", args=[table.pk]))
    assert table.seat_set.count() == 3
    client.force_login(user)
    client.post(reverse("games:leave", args=[table.pk]))
    table.refresh_from_db()
    assert table.host == bob, "the next player becomes host"
    client.force_login(bob)
    client.post(reverse("games:leave", args=[table.pk]))
    client.force_login(carol)
    client.post(reverse("games:leave", args=[table.pk]))
    table.refresh_from_db()
    assert table.status == Table.Status.CLOSED and table.host is None


def test_host_adds_and_removes_bots_others_cannot(client, table, user):
    client.force_login(user)
    client.post(reverse("games:add_bot", args=[table.pk]), {"level": "mc"})
    seat = table.seat_set.get(position=1)
    assert seat.bot_level == "mc" and seat.is_bot
    other = UserFactory()
    client.force_login(other)
    response = client.post(reverse("games:remove_bot", args=[table.pk, 1]), follow=True)
    assert "Only the host can do that." in response.content.decode()
    assert table.seat_set.filter(position=1).exists()
    client.force_login(user)
    client.post(reverse("games:add_bot", args=[table.pk]), {"level": "genius"})
    assert table.seat_set.count() == 2
    client.post(reverse("games:remove_bot", args=[table.pk, 1]))
    assert not table.seat_set.filter(position=1).exists()


def test_table_starts_when_full(table, user):
    for level in ("random", "greedy", "mc"):
        actions.do_add_bot(table, user, level)
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    game = table.current_game()
    assert game.version == 0 and game.players.count() == 4
    assert game.actions.get(seq=0).payload == {"kind": "start"}


def test_start_needs_the_host_and_enough_players(client, table, user):
    client.force_login(user)
    response = client.post(reverse("games:start", args=[table.pk]), follow=True)
    assert "needs at least 2 players" in response.content.decode()
    actions.do_add_bot(table, user, "greedy")
    other = UserFactory()
    client.force_login(other)
    response = client.post(reverse("games:start", args=[table.pk]), follow=True)
    assert "Only the host can do that." in response.content.decode()
    client.force_login(user)
    client.post(reverse("games:start", args=[table.pk]))
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    with pytest.raises(actions.Refused, match="already started"):
        actions.do_start_game(table, user)


def test_htmx_requests_get_an_out_of_band_notice(client, table):
    client.force_login(UserFactory())
    response = client.post(reverse("games:start", args=[table.pk]), HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert 'id="notice"' in response.content.decode() and "hx-swap-oob" in (
        response.content.decode())


def test_private_tables_need_the_invite(client, user, variant):
    table = actions.do_create_table(user, name="Secret", variant=variant, seats=3, private=True)
    stranger = UserFactory()
    client.force_login(stranger)
    assert "Secret" not in client.get("/").content.decode()
    assert client.get(table.get_absolute_url()).status_code == 403
    assert client.post(reverse("games:join", args=[table.pk])).status_code == 403
    response = client.get(reverse("games:invite", args=[table.invite_code]))
    assert response["Location"] == table.get_absolute_url()
    assert client.get(table.get_absolute_url()).status_code == 200
    client.post(reverse("games:join", args=[table.pk]))
    assert table.seat_set.filter(user=stranger).exists()


def test_anonymous_visitors_are_sent_to_log_in(client, table):
    response = client.get(table.get_absolute_url())
    assert response.status_code == 302 and reverse("login") in response["Location"]


def test_waiting_table_page(user_client, table):
    html = user_client.get(table.get_absolute_url()).content.decode()
    assert "<title>Friday bus · Stop the Bus</title>" in html
    assert f'ws-connect="/ws/table/{table.pk}/"' in html
    assert "Start the game" in html and "Add a bot" in html
    assert "django_htmx/ext/hx-ws-2.min.js" in html


def test_playing_table_page_shows_my_cards_and_hides_theirs(client, table, user):
    bob = UserFactory()
    actions.do_join_table(table, bob)
    actions.do_add_bot(table, user, "greedy")
    actions.do_start_game(table, user)
    game = table.current_game()
    state = actions.state_of(game)
    client.force_login(user)
    html = client.get(table.get_absolute_url()).content.decode()
    face_up, face_down, ids = cards_in(html)
    mine = {CODES[c] for c in state.hands[0]}
    theirs = {CODES[c] for seat in (1, 2) for c in state.hands[seat]}
    assert mine <= set(face_up)
    assert not theirs & set(face_up), "another player's card reached the page"
    assert face_down >= 6
    for seat in range(3):
        assert f"seat-{seat}" in ids, "each seat has a stable id"
    for fragment in ("status", "opponents", "middle", "bus", "me", "showdown", "log"):
        assert fragment in ids


def test_the_rules_page_lists_variants_in_plain_words(client, variant):
    html = client.get(reverse("games:rules")).content.decode()
    assert variant.name in html and "3-3-3 is the best prial" in html
    cards_in(html)


def test_a_variant_in_use_cannot_be_deleted(table, variant):
    from django.db.models import ProtectedError

    with pytest.raises(ProtectedError):
        variant.delete()
    assert Seat.objects.filter(table=table).exists()
    assert not Game.objects.exists()


def test_the_host_of_a_private_table_decides_about_spectators(client, user, variant):
    table = actions.do_create_table(user, name="Secret", variant=variant, seats=3, private=True)
    watcher = UserFactory()
    client.force_login(watcher)
    client.get(reverse("games:invite", args=[table.invite_code]))
    actions.do_add_bot(table, user, "greedy")
    actions.do_start_game(table, user)
    assert client.get(table.get_absolute_url()).status_code == 200
    response = client.post(reverse("games:spectators", args=[table.pk]), {"allow": "off"},
                           follow=True)
    assert "Only the host can do that." in response.content.decode()
    client.force_login(user)
    client.post(reverse("games:spectators", args=[table.pk]), {"allow": "off"})
    table.refresh_from_db()
    assert not table.allow_spectators
    client.force_login(watcher)
    assert client.get(table.get_absolute_url()).status_code == 403


def test_a_private_tables_invite_panel_once_its_game_is_on(client, user, variant):
    """While it waits: the link to sit down. Once the game is on: the link to watch, while
    spectators may, and the host's switch; a player who is not the host at a table closed
    to spectators has nothing to send, and no panel."""
    table = actions.do_create_table(user, name="Secret", variant=variant, seats=2, private=True)
    other = UserFactory()
    client.force_login(user)
    waiting = client.get(table.get_absolute_url()).content.decode()
    assert "the people you want at the table" in waiting
    actions.do_join_table(table, other)  # the table is full: its game starts
    table.refresh_from_db()
    assert table.status == table.Status.PLAYING

    def panel():
        html = client.get(table.get_absolute_url()).content.decode()
        start = html.index('id="invite"')
        return html[start - 40:html.index("</section>", start)]

    shown = panel()
    assert "is-hidden" not in shown and "the people you would like to watch it" in shown
    assert "Close to spectators" in shown and "the people you want at the table" not in shown
    client.post(reverse("games:spectators", args=[table.pk]), {"allow": "off"})
    shown = panel()
    assert "Let spectators watch" in shown and 'id="invite-link"' not in shown
    client.force_login(other)
    assert "is-hidden" in panel() and "Invite" not in panel()
