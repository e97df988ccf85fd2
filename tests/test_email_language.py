"""Mails and pushes reach a player in the language they read the site in.

A player who never pressed the language switch has the language of their sign-up (or,
for an older account or a guest, of their browser) saved, so the clock's mails and
pushes, written outside any request of theirs, are in it and not in the clock's
English. The mails give the time left in the pages' words."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games.models import Game, Table
from notify import actions
from tests.factories import PASSWORD, UserFactory
from tests.test_post_pace import post_game, until_persons_turn

pytestmark = pytest.mark.django_db

JA = {"HTTP_ACCEPT_LANGUAGE": "ja,en;q=0.5"}


def sign_up(client, mailoutbox, confirm_headers=None, **headers):
    response = client.post(reverse("accounts:signup"), {
        "username": "pcat", "email": "pcat@example.com",
        "password1": "stop-the-bus-2024!", "password2": "stop-the-bus-2024!"}, **headers)
    assert response.status_code == 302, response.content.decode()[:500]
    found = re.search(r"https?://\S+/accounts/signup/confirm/\S+/", mailoutbox[-1].body)
    assert found, mailoutbox[-1].body
    # the link opened in another browser (a phone's mail app) that says no language
    client.post(found.group(0), **(confirm_headers or {}))
    return User.objects.get(username="pcat")


def run_due(later: float = 0.0) -> None:
    actions.do_run_deliveries(actions.do_claim_due_deliveries(
        100, now=timezone.now() + timedelta(seconds=later)))


# -- the language is saved -----------------------------------------------------------------------


def test_signing_up_in_japanese_saves_japanese(client, mailoutbox):
    player = sign_up(client, mailoutbox, **JA)
    assert "Finish signing up" not in mailoutbox[0].subject  # the mail was in Japanese
    assert player.language == "ja"


def test_signing_up_in_english_saves_english(client, mailoutbox):
    player = sign_up(client, mailoutbox, HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9")
    assert player.language == "en-gb"


def test_a_guest_signing_up_in_japanese_keeps_japanese(client, mailoutbox):
    client.post(reverse("accounts:guest"), {"next": "/"}, **JA)
    guest = get_user(client)
    assert guest.is_guest
    # the guest's pushes are in Japanese already: their language was saved when they sat
    assert User.objects.get(pk=guest.pk).language == "ja"
    player = sign_up(client, mailoutbox, **JA)
    assert player.pk == guest.pk and not player.is_guest and player.language == "ja"


def test_a_guests_switch_wins_over_the_sign_up_pages(client, mailoutbox):
    client.post(reverse("accounts:guest"), {"next": "/"}, **JA)
    client.post(reverse("set_language"), {"language": "en-gb", "next": "/"}, **JA)
    player = sign_up(client, mailoutbox, **JA)
    assert player.language == "en-gb"


def sign_in(client, player, **headers):
    response = client.post(reverse("login"), {"username": player.username,
                                              "password": PASSWORD}, **headers)
    assert response.status_code == 302
    player.refresh_from_db()
    return player.language


def test_a_sign_in_saves_no_language(client):
    """An account with no saved language follows each browser it signs in from (one
    sign-in from a friend's English laptop must not make a Japanese player's pages
    English): only sign-up, a new guest and the switch save one."""
    player = UserFactory(language="")
    assert sign_in(client, player, **JA) == ""
    assert sign_in(Client(), player, HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9") == ""


def test_a_new_guest_takes_the_language_cookie_over_the_header():
    client = Client()
    client.post(reverse("set_language"), {"language": "ja", "next": "/"})  # signed out
    client.post(reverse("accounts:guest"), {"next": "/"}, HTTP_ACCEPT_LANGUAGE="en")
    assert User.objects.get(is_guest=True).language == "ja"


def test_a_new_guest_from_a_browser_that_names_no_spoken_language_has_none():
    Client().post(reverse("accounts:guest"), {"next": "/"}, HTTP_ACCEPT_LANGUAGE="fr-FR,fr")
    assert User.objects.get(is_guest=True).language == ""


def test_pages_alone_leave_the_browser_in_charge(client):
    """An account with no language follows each browser: pages save none."""
    player = UserFactory(language="")
    client.force_login(player)
    assert client.get(reverse("games:rules"), **JA)["Content-Language"] == "ja"
    assert client.get(reverse("games:rules"),
                      HTTP_ACCEPT_LANGUAGE="en")["Content-Language"] == "en-gb"
    player.refresh_from_db()
    assert player.language == ""


def test_a_chosen_language_is_never_replaced_by_the_browsers(client):
    player = UserFactory(language="en-gb")
    assert sign_in(client, player, **JA) == "en-gb"
    # and the switch still changes it
    client.post(reverse("set_language"), {"language": "ja", "next": "/"})
    player.refresh_from_db()
    assert player.language == "ja"


# -- the mails -----------------------------------------------------------------------------------


def japanese_player_at_their_turn(client, mailoutbox):
    """pcat, signed up in a Japanese browser, whose turn it is at the post table "Oak bus"."""
    player = sign_up(client, mailoutbox, **JA)
    mailoutbox.clear()
    game = until_persons_turn(post_game(player))
    Table.objects.filter(pk=game.table_id).update(name="Oak bus")
    return player, game


def test_the_daily_email_is_in_the_language_of_the_sign_up(client, mailoutbox):
    player, _game = japanese_player_at_their_turn(client, mailoutbox)
    actions.do_save_preferences(player, {}, digest=True, digest_hour=0)
    actions.do_schedule_digests()
    run_due()
    [message] = mailoutbox
    assert message.to == ["pcat@example.com"]
    assert "ストップ・ザ・バス" in message.subject
    assert "pcat さん、" in message.body and "次のテーブルであなたの番です：" in message.body
    assert "Oak bus" in message.body and "残り" in message.body
    assert "Hello" not in message.body and "It is your turn" not in message.body


def test_the_last_call_email_is_in_japanese_with_the_time_left_and_the_link(client, mailoutbox):
    player, game = japanese_player_at_their_turn(client, mailoutbox)
    actions.do_save_preferences(player, {"last_call": {"site": True, "push": True,
                                                       "email": True}})
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() + timedelta(minutes=47,
                                                                                seconds=30))
    actions.do_notify(player, "last_call", table=game.table, params={"left": "47 min"})
    run_due()
    [message] = mailoutbox
    assert "Oak bus" in message.subject and "まもなく" in message.subject
    assert "Last call" not in message.body and "nearly up" not in message.body
    assert "pcat さん、" in message.body
    assert "（残り47分）" in message.body or "(残り47分)" in message.body
    assert f"/t/{game.table_id}/" in message.body


def test_the_last_call_email_in_english_says_the_time_left_as_the_pages_do(mailoutbox):
    from tests.test_post_pace import post_game as make_game

    player = UserFactory(language="en-gb")
    game = until_persons_turn(make_game(player))
    actions.do_save_preferences(player, {"last_call": {"site": True, "push": True,
                                                       "email": True}})
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() + timedelta(hours=3,
                                                                                minutes=12,
                                                                                seconds=30))
    actions.do_notify(player, "last_call", table=game.table)
    run_due()
    [message] = mailoutbox
    assert "your time is nearly up (3 h 12 min left)" in message.body
    assert f"/t/{game.table_id}/" in message.body


def test_under_a_minute_left_is_said_as_the_pages_say_it(mailoutbox):
    player = UserFactory(language="en-gb")
    game = until_persons_turn(post_game(player))
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() + timedelta(seconds=30))
    actions.do_save_preferences(player, {}, digest=True, digest_hour=0)
    actions.do_schedule_digests()
    run_due()
    [message] = mailoutbox
    assert "(less than a minute left)" in message.body
    assert "0 min" not in message.body


def test_a_push_to_a_player_who_signed_up_in_japanese_is_in_japanese(client, mailoutbox):
    from notify.models import Notification
    from notify.texts import text_for

    player, game = japanese_player_at_their_turn(client, mailoutbox)
    table = Table.objects.get(pk=game.table_id)
    note = Notification(user=player, event="last_call", table=table, params={})
    text = text_for(note)  # what the push (and the bell) says, outside any request
    assert "まもなく" in text.title and "Oak bus" in text.title


def test_a_guest_who_came_in_japanese_gets_japanese_pushes():
    from notify.models import Notification
    from notify.texts import text_for

    client = Client()
    client.post(reverse("accounts:guest"), {"next": "/"}, **JA)
    guest = User.objects.get(is_guest=True)
    text = text_for(Notification(user=guest, event="your_turn", params={"table": "Oak bus"}))
    assert "Oak bus" in text.title and "Your turn" not in text.title
