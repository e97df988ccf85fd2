"""Guests: a visitor plays at once, without an account, within a guest's limits.

Play now deals a visitor into a table with bots as a guest ("Guest 4821"), of the game
they chose; they may sit at public tables too. A guest is unrated and on no
leaderboard, cannot open private tables or chat (unless STOPBUS_GUEST_CHAT), and
guests are made at most STOPBUS_GUESTS_PER_HOUR an hour per address. A forged session
is a visitor; a guest's name never collides with a member's.
"""

import re

import pytest
from django.conf import settings as django_settings
from django.contrib.auth import SESSION_KEY
from django.test import Client
from django.urls import reverse

from accounts import guests
from accounts.models import User
from games import actions
from games.kinds import BRAG, STOP_THE_BUS
from games.models import ChatMessage, Game, Table
from stats.models import PlayerStats
from tests.factories import UserFactory, play_out_game, preset_variant

pytestmark = pytest.mark.django_db

PLAY_NOW = reverse("games:play_now")


def play_now(client, **data):
    return client.post(PLAY_NOW, data)


def the_guest():
    return User.objects.get(is_guest=True)


@pytest.mark.parametrize("kind", [STOP_THE_BUS, BRAG])
def test_play_now_deals_a_visitor_in_as_a_guest_at_the_game_they_chose(kind):
    client = Client()
    response = play_now(client, kind=kind.slug)
    guest = the_guest()
    table = Table.objects.get(host=guest)
    assert response.status_code == 302 and response["Location"] == table.get_absolute_url()
    assert re.fullmatch(r"Guest \d{4}", guest.username)
    assert not guest.has_usable_password()
    assert table.variant.game == kind.slug and table.status == Table.Status.PLAYING
    assert not table.games.get().rated
    # the session holds the guest: the table page is theirs, the lobby greets them
    page = client.get(table.get_absolute_url())
    assert page.status_code == 200 and page.context["user"].pk == guest.pk
    lobby = client.get(reverse("games:lobby")).content.decode()
    assert guest.username in lobby and "You are playing as a guest" in lobby


def test_the_lobby_remembers_the_game_chosen_last():
    client = Client()
    play_now(client, kind=BRAG.slug)
    assert the_guest().last_kind == BRAG.slug
    html = client.get(reverse("games:lobby")).content.decode()
    first = html.index('data-kind="brag"')
    assert first < html.index('data-kind="stop_the_bus"')
    assert 'class="btn btn-primary" data-kind="brag"' in html
    # the header's Play now (no kind) deals the last one again
    play_now(client)
    assert Table.objects.filter(host=the_guest(), variant__game=BRAG.slug).count() == 2
    # a member's choice is kept on the account
    member = UserFactory()
    client = Client()
    client.force_login(member)
    play_now(client, kind=BRAG.slug)
    member.refresh_from_db()
    assert member.last_kind == BRAG.slug


def test_an_unknown_kind_is_refused_with_a_message_and_nothing_made():
    client = Client()
    response = play_now(client, kind="poker")
    assert response.status_code == 302
    assert "Choose a game to play" in client.get(reverse("games:lobby")).content.decode()
    # a NUL in a form is refused before any view reads it (stopbus_site.middleware)
    assert play_now(client, kind="poker\x00").status_code == 400
    assert not User.objects.exists() and not Table.objects.exists()


def test_a_guest_may_sit_at_a_public_table_from_the_log_in_page():
    host = UserFactory()
    table = actions.do_create_table(host, name="Open", variant=preset_variant(), seats=3)
    client = Client()
    login_page = client.get(table.get_absolute_url(), follow=True).content.decode()
    assert 'id="play-as-guest"' in login_page
    response = client.post(reverse("accounts:guest"), {"next": table.get_absolute_url()})
    assert response["Location"] == table.get_absolute_url()
    client.post(reverse("games:join", args=[table.pk]))
    assert table.seat_set.filter(user=the_guest()).exists()
    # somewhere else than this site: the lobby
    other = Client()
    response = other.post(reverse("accounts:guest"), {"next": "https://evil.example/"})
    assert response["Location"] == reverse("games:lobby")


def test_a_game_with_a_guest_is_unrated_and_guests_are_on_no_leaderboard():
    member = UserFactory()
    client = Client()
    client.post(reverse("accounts:guest"), {"next": "/"})
    guest = the_guest()
    variant = preset_variant()
    assert variant.rated
    table = actions.do_create_table(member, name="Mixed", variant=variant, seats=2)
    actions.do_join_table(table, guest)  # full: starts
    game = play_out_game(table.games.get())
    assert game.status == Game.Status.FINISHED and not game.rated
    assert PlayerStats.objects.filter(user=guest, variant__isnull=True).get().rated_games == 0
    # even a stats row that says otherwise keeps a guest off the ladder
    PlayerStats.objects.filter(user=guest).update(rated_games=99, rating=9999)
    board = Client().get(reverse("stats:leaderboard")).content.decode()
    assert guest.username not in board


def test_a_guest_cannot_open_a_private_table():
    client = Client()
    client.post(reverse("accounts:guest"), {"next": "/"})
    response = client.post(reverse("games:create_table"), {
        "name": "Secret", "variant": preset_variant().pk, "seats": 3, "private": "on",
        "allow_spectators": "on", "spectator_chat": "on"})
    assert response.status_code == 400
    assert "Guests cannot open private tables" in response.content.decode()
    assert not Table.objects.exists()
    # and directly at the one writer
    with pytest.raises(actions.Refused, match="Guests cannot open private tables"):
        actions.do_create_table(the_guest(), name="x", variant=preset_variant(), seats=3,
                                private=True)


def test_a_guest_may_not_chat_unless_the_site_allows_it(settings):
    client = Client()
    play_now(client, kind=STOP_THE_BUS.slug)
    guest = the_guest()
    table = Table.objects.get(host=guest)
    with pytest.raises(actions.Refused, match="Guests cannot chat"):
        actions.do_chat(table, guest, "hello")
    assert not ChatMessage.objects.exists()
    settings.STOPBUS_GUEST_CHAT = True
    actions.do_chat(table, guest, "hello")
    assert ChatMessage.objects.get().text == "hello"


def test_guest_chat_is_off_by_default():
    assert django_settings.STOPBUS_GUEST_CHAT is False


def test_guests_are_limited_per_address_each_hour(settings):
    settings.STOPBUS_GUESTS_PER_HOUR = 2
    for _ in range(2):
        assert play_now(Client(REMOTE_ADDR="203.0.113.9"), kind="brag").status_code == 302
    refused = Client(REMOTE_ADDR="203.0.113.9")
    play_now(refused, kind="brag")
    assert "Too many guests from your address" in refused.get(
        reverse("games:lobby")).content.decode()
    assert User.objects.filter(is_guest=True).count() == 2
    assert Table.objects.count() == 2
    # another address is not held back; nor is a guest who already has a session
    play_now(Client(REMOTE_ADDR="198.51.100.7"), kind="brag")
    assert User.objects.filter(is_guest=True).count() == 3


def test_a_forged_session_is_a_visitor_and_changes_nothing():
    client = Client()
    play_now(client, kind="brag")
    guest = the_guest()
    forged = Client()
    forged.cookies[django_settings.SESSION_COOKIE_NAME] = "forged" + "x" * 26
    page = forged.get(reverse("games:lobby"))
    assert page.status_code == 200 and not page.context["user"].is_authenticated
    # a session naming the guest but not signed by the site is not one: still a visitor
    assert forged.post(reverse("games:join", args=[Table.objects.get().pk])).status_code == 302
    assert Table.objects.get().seat_set.count() == 3
    # and a session of a guest who is gone (cleaned up) is a visitor too
    session = client.session
    assert session[SESSION_KEY] == str(guest.pk)
    User.objects.filter(pk=guest.pk).delete()
    assert not client.get(reverse("games:lobby")).context["user"].is_authenticated


def test_a_guest_name_never_looks_like_a_members(monkeypatch):
    UserFactory(username="Guest 1234")  # an old account (names like this are refused now)
    draws = iter([234, 4678])  # "Guest 1234": taken, drawn again; then "Guest 5678"
    monkeypatch.setattr(guests.secrets, "randbelow", lambda n: next(draws))
    assert guests.guest_name() == "Guest 5678"


def test_a_guest_name_that_reads_as_a_members_is_drawn_again(monkeypatch):
    UserFactory(username="Guest 4O21")  # letter O: reads as "Guest 4021"
    draws = iter([3021, 3022])
    monkeypatch.setattr(guests.secrets, "randbelow", lambda n: next(draws))
    assert guests.guest_name() == "Guest 4022"


def test_members_cannot_take_a_guest_style_name(client):
    response = client.post(reverse("accounts:signup"), {
        "username": "Guest 4821", "email": "g@example.com",
        "password1": "stop-the-bus-2024!", "password2": "stop-the-bus-2024!"})
    assert response.status_code == 200
    assert "are given to guests" in response.content.decode()


def test_hints_and_how_to_play_preferences_refuse_odd_values():
    client = Client()
    play_now(client, kind="brag")
    url = reverse("accounts:preferences")
    assert client.post(url, {"hints": "maybe"}).status_code == 400
    assert the_guest().hints is None
    client.post(url, {"hints": "on"})
    client.post(url, {"how_to_play_seen": "on"})
    guest = the_guest()
    assert guest.hints is True and guest.how_to_play_seen


def test_a_guest_has_no_address_to_change_and_is_pointed_to_sign_up():
    client = Client()
    play_now(client, kind="brag")
    guest = the_guest()
    page = client.get(reverse("accounts:profile")).content.decode()
    assert "you are playing as a guest" in page and "guest.invalid" not in page
    response = client.post(reverse("accounts:profile"), {"email": "mine@example.com"})
    assert response["Location"] == reverse("accounts:signup")
    assert User.objects.get(pk=guest.pk).email == guest.email


def test_the_profile_saves_the_hints_setting_with_the_others():
    member = UserFactory()
    client = Client()
    client.force_login(member)
    client.post(reverse("accounts:preferences"), {
        "form": "all", "sound": "on", "four_colour_deck": "on", "hints": "on",
        "next": reverse("accounts:profile")})
    member.refresh_from_db()
    assert member.hints is True and member.four_colour_deck and member.sound
    page = client.get(reverse("accounts:profile")).content.decode()
    assert '<option value="on" selected>' in page


def test_a_guests_log_out_asks_first_and_offers_to_keep_the_games(client):
    """A guest cannot log in again: "Log out" in their header opens a page that says so,
    with "Sign up" to keep their games; "Log out anyway" logs them out. A member's header
    logs out at once, and the page sends a member on."""
    from tests.factories import UserFactory

    guest = UserFactory(is_guest=True, username="Guest 4821")
    client.force_login(guest)
    header = client.get("/rules/").content.decode()
    assert 'href="/accounts/guest/leave/"' in header
    assert 'action="/accounts/logout/"' not in header
    page = client.get("/accounts/guest/leave/").content.decode()
    assert "<strong>Guest 4821</strong>, a guest" in page
    assert 'href="/accounts/signup/"' in page and 'id="guest-log-out"' in page
    client.post("/accounts/logout/")
    assert "_auth_user_id" not in client.session

    member = UserFactory()
    client.force_login(member)
    assert 'action="/accounts/logout/"' in client.get("/rules/").content.decode()
    assert client.get("/accounts/guest/leave/")["Location"] == "/"
    assert client.post("/accounts/guest/leave/").status_code == 405
