"""Names that read as something else are refused: usernames and table names."""

import pytest
from django.urls import reverse
from django.utils.html import escape

from accounts.models import User
from accounts.names import look_alike, reserved
from games.models import Table
from tests.factories import UserFactory, preset_variant

pytestmark = pytest.mark.django_db

SIGNUP_URL = reverse("accounts:signup")
RTL_OVERRIDE = "\u202e"


def sign_up(client, username, email="new@example.com"):
    return client.post(SIGNUP_URL, {"username": username, "email": email,
                                    "password1": "stop-the-bus-2024!",
                                    "password2": "stop-the-bus-2024!"})


def username_errors(response):
    return response.context["form"].errors.get("username", []) if response.context else []


@pytest.mark.parametrize("name", [
    "You", "yOU", "Y0U", "QS", "qs", "10H", "Q\u2660", "TS", "admin", "ADMIN",
    "\u0430dmin",  # Cyrillic а
    "system", "Casual_bot_2", "Expert-bot", "bot", "Bot_for_alice", "mcbot7",
])
def test_names_that_read_as_the_room_are_refused_at_sign_up(client, name):
    response = sign_up(client, name)
    assert response.status_code == 200
    assert any("reads as something the card room" in e for e in username_errors(response))
    assert not User.objects.exists()


@pytest.mark.parametrize("name", ["alice", "Queenie", "bottle", "ace_of_clubs", "Yoyo", "10_pints"])
def test_ordinary_names_are_still_welcome(client, name):
    response = sign_up(client, name)
    assert response.status_code == 302 and response["Location"] == reverse("accounts:signup_sent")


@pytest.mark.parametrize("existing,newcomer", [
    ("alice", "\u0430lice"),  # Cyrillic а for Latin a
    ("alice", "AIice"),  # capital i for l
    ("alice", "a1ice"),
    ("alice", "\uff41lice"),  # fullwidth a (NFKC)
    ("Oscar", "0scar"),
    ("bobby", "BOBBY"),
])
def test_a_name_that_looks_like_an_existing_one_is_refused(client, existing, newcomer):
    UserFactory(username=existing)
    response = sign_up(client, newcomer)
    assert response.status_code == 200
    assert username_errors(response), newcomer
    assert not User.objects.filter(username=newcomer).exists()


def test_look_alikes_are_symmetric_and_case_blind():
    assert look_alike("Alice", "\u0430lice") and look_alike("\u0430lice", "Alice")
    assert look_alike("ADMIN", "admin")
    assert not look_alike("alice", "alise")
    assert reserved("You") and not reserved("Yolanda")


def test_bidi_controls_are_refused_in_usernames(client):
    response = sign_up(client, f"eve{RTL_OVERRIDE}sdrawkcab")
    assert response.status_code == 200
    assert username_errors(response)
    assert not User.objects.exists()


def test_the_admin_add_user_form_refuses_look_alikes(admin_client):
    UserFactory(username="alice")
    response = admin_client.post(reverse("admin:accounts_user_add"), {
        "username": "\u0430lice", "email": "a2@example.com", "usable_password": "true",
        "password1": "stop-the-bus-2024!", "password2": "stop-the-bus-2024!"})
    assert response.status_code == 200
    assert not User.objects.filter(username="\u0430lice").exists()


def test_bidi_controls_are_refused_in_table_names(user_client):
    variant = preset_variant()
    response = user_client.post(reverse("games:create_table"), {
        "name": f"Friday {RTL_OVERRIDE}gnineve", "variant": variant.pk, "seats": 3,
        "allow_spectators": "on"})
    assert response.status_code == 400
    assert "change the direction of text" in response.content.decode()
    assert not Table.objects.exists()
    # the control: the same name without the override opens the table
    response = user_client.post(reverse("games:create_table"), {
        "name": "Friday evening", "variant": variant.pk, "seats": 3, "allow_spectators": "on"})
    assert response.status_code == 302
    assert Table.objects.filter(name="Friday evening").exists()


# -- the reasons, in the reader's language -----------------------------------------------------

REFUSED = {  # what is typed -> (the reason in English, in Japanese)
    "admin": ("“admin” reads as something the card room itself shows (you, a card, a bot or "
              "the staff). Pick another name.",
              "「admin」はこのカードルーム自体が表示する言葉（あなた、カード、ボット、スタッフ）と"
              "紛らわしい名前です。別の名前を選んでください。"),
    "\u0430lice": ("That name looks the same as another player's name. Pick another name.",
                   "その名前はほかのプレイヤーの名前と見分けがつきません。別の名前を選んでください。"),
    f"eve{RTL_OVERRIDE}sdrawkcab": (
        "Names may not contain characters that change the direction of text.",
        "名前には文字の向きを変える文字を使えません。"),
}


@pytest.mark.parametrize("name", list(REFUSED))
@pytest.mark.parametrize(("accept_language", "which"), [("ja", 1), ("en", 0)])
def test_a_refused_name_is_explained_in_the_readers_language(client, name, accept_language,
                                                             which):
    UserFactory(username="alice")
    response = client.post(SIGNUP_URL, {"username": name, "email": "new@example.com",
                                        "password1": "stop-the-bus-2024!",
                                        "password2": "stop-the-bus-2024!"},
                           HTTP_ACCEPT_LANGUAGE=accept_language)
    assert response.status_code == 200
    assert username_errors(response) == [REFUSED[name][which]]
    assert escape(REFUSED[name][which]) in response.content.decode()  # as the page shows it
    assert not User.objects.filter(username=name).exists()


def test_a_japanese_admin_adding_a_look_alike_reads_why_in_japanese(admin_client):
    UserFactory(username="alice")
    response = admin_client.post(reverse("admin:accounts_user_add"), {
        "username": "\u0430lice", "email": "a2@example.com", "usable_password": "true",
        "password1": "stop-the-bus-2024!", "password2": "stop-the-bus-2024!"},
        HTTP_ACCEPT_LANGUAGE="ja")
    assert response.status_code == 200
    assert escape(REFUSED["\u0430lice"][1]) in response.content.decode()
    assert not User.objects.filter(username="\u0430lice").exists()
