"""Signing up from a guest session keeps the guest's games and stats, exactly once.

The account is made when the emailed link is opened: the guest's own row becomes the
member (renamed, address and password set, no longer a guest), so every game, seat and
stat is theirs already. Opening the link twice, or in two tabs at once, moves nothing
twice; the guest's games were unrated and stay unrated.
"""

import re
import threading

import pytest
from django.db import connection, connections
from django.test import Client
from django.urls import reverse

from accounts.guests import become_member
from accounts.models import User
from games.models import Game, GamePlayer, Table
from stats.models import PlayerGame, PlayerStats
from tests.factories import UserFactory, play_out_game, preset_variant

PASSWORD = "stop-the-bus-2024!"


def guest_with_a_finished_game():
    # a test run in transactions (the two tabs) starts from a flushed database, without
    # the variants the migrations made: Play now needs one
    preset_variant()
    client = Client()
    client.post(reverse("games:play_now"), {"kind": "stop_the_bus"})
    guest = User.objects.get(is_guest=True)
    game = play_out_game(Table.objects.get(host=guest).games.get())
    assert game.status == Game.Status.FINISHED and not game.rated
    return client, guest, game


def sign_up(client, mailoutbox, username="river_card"):
    response = client.post(reverse("accounts:signup"), {
        "username": username, "email": f"{username}@example.com",
        "password1": PASSWORD, "password2": PASSWORD})
    assert response.status_code == 302, response.content.decode()[:2000]
    found = re.search(r"https?://\S+/accounts/signup/confirm/\S+/", mailoutbox[-1].body)
    return found.group(0)


@pytest.mark.django_db
def test_signing_up_from_a_guest_session_keeps_the_games_and_stats(mailoutbox):
    client, guest, game = guest_with_a_finished_game()
    games_before = PlayerStats.objects.get(user=guest, variant__isnull=True).games
    assert games_before == 1
    link = sign_up(client, mailoutbox)
    assert User.objects.get(pk=guest.pk).is_guest  # nothing changes until the link
    response = client.post(link)
    assert response.status_code == 302
    member = User.objects.get(pk=guest.pk)
    assert (member.username, member.email, member.is_guest) == (
        "river_card", "river_card@example.com", False)
    assert member.check_password(PASSWORD)
    assert User.objects.count() == 1  # no second row
    assert GamePlayer.objects.get(game=game, user__isnull=False).user_id == member.pk
    assert PlayerGame.objects.get(game=game).user_id == member.pk
    stats = PlayerStats.objects.get(user=member, variant__isnull=True)
    assert stats.games == 1 and stats.rated_games == 0  # unrated, and stays so
    assert not Game.objects.get(pk=game.pk).rated
    # signed in as the member now, and the game is in their history
    lobby = client.get(reverse("games:lobby"))
    assert lobby.context["user"].username == "river_card"
    history = client.get(reverse("stats:history", args=["river_card"])).content.decode()
    assert reverse("stats:replay", args=[game.pk]) in history
    # they log in with the new name and password from then on
    login = Client().post(reverse("login"), {"username": "river_card", "password": PASSWORD})
    assert login.status_code == 302


@pytest.mark.django_db
def test_opening_the_link_twice_moves_the_games_once(mailoutbox):
    client, guest, _game = guest_with_a_finished_game()
    link = sign_up(client, mailoutbox)
    assert client.post(link).status_code == 302
    again = client.post(link)
    assert again.status_code == 404  # the link is used up
    assert User.objects.count() == 1
    # the same link from another browser: nothing changes
    assert Client().post(link).status_code == 404
    member = User.objects.get()
    assert not member.is_guest and member.username == "river_card"


@pytest.mark.django_db
def test_a_second_converting_at_once_finds_no_guest_and_changes_nothing(mailoutbox):
    """Two tabs both read the pending sign-up before either finished: the second finds
    the guest a member already (the row lock serialises them) and says the account is
    ready; it changes nothing."""
    client, guest, _game = guest_with_a_finished_game()
    sign_up(client, mailoutbox)
    hashed = User.objects.get(pk=guest.pk).password
    first = become_member(guest.pk, username="river_card", email="river_card@example.com",
                          password="x")
    second = become_member(guest.pk, username="river_card", email="river_card@example.com",
                           password="y")
    assert first is not None and second is None
    member = User.objects.get(pk=guest.pk)
    assert member.password == "x" != hashed


@pytest.mark.django_db
def test_a_name_taken_since_signing_up_leaves_the_guest_as_it_was(mailoutbox):
    client, guest, _game = guest_with_a_finished_game()
    link = sign_up(client, mailoutbox)
    UserFactory(username="River_Card")  # taken in the meantime, in other letter case
    response = client.post(link)
    assert response.status_code == 409
    still = User.objects.get(pk=guest.pk)
    assert still.is_guest and still.username == guest.username


@pytest.mark.django_db
def test_a_second_tab_is_told_the_account_is_ready(mailoutbox, monkeypatch):
    """The second tab's request read the pending sign-up before the first removed it."""
    from django.core.cache import cache

    client, guest, _game = guest_with_a_finished_game()
    link = sign_up(client, mailoutbox)
    token = link.rstrip("/").rsplit("/", 1)[1]
    pending = cache.get(f"signup:{token}")
    assert client.post(link).status_code == 302
    cache.set(f"signup:{token}", pending)  # as the second tab saw it
    response = client.post(link, follow=True)
    assert "Your account is ready already" in response.content.decode()
    assert User.objects.count() == 1 and not User.objects.get().is_guest


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_tabs_at_once_convert_the_guest_exactly_once(mailoutbox):
    assert connection.vendor == "postgresql"
    client, guest, game = guest_with_a_finished_game()
    link = sign_up(client, mailoutbox)
    session = client.cookies[next(iter(client.cookies))].value
    barrier = threading.Barrier(6)
    answers = []

    def tab():
        try:
            tab_client = Client()
            tab_client.cookies[next(iter(client.cookies))] = session
            barrier.wait()
            answers.append(tab_client.post(link).status_code)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=tab) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(answers) == 6 and all(code in (302, 404) for code in answers), answers
    assert User.objects.count() == 1
    member = User.objects.get()
    assert member.pk == guest.pk and not member.is_guest
    assert member.username == "river_card"
    assert PlayerGame.objects.filter(game=game).count() == 1
    assert PlayerStats.objects.get(user=member, variant__isnull=True).games == 1


@pytest.mark.django_db
def test_a_guest_cleaned_up_before_the_link_is_opened_still_gets_an_account(mailoutbox):
    client, guest, _game = guest_with_a_finished_game()
    link = sign_up(client, mailoutbox)
    User.objects.filter(pk=guest.pk).delete()
    assert Client().post(link).status_code == 302
    member = User.objects.get()
    assert member.username == "river_card" and not member.is_guest
