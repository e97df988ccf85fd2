"""Choosing the language: the player's saved choice, then the browser, then English."""

import pytest
from django.conf import settings
from django.urls import reverse

from accounts.models import User
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

JAPANESE_TITLE = "ストップ・ザ・バスの遊び方"
ENGLISH_TITLE = "How to play Stop the Bus"


def rules_page(client, **headers):
    response = client.get(reverse("games:rules"), **headers)
    assert response.status_code == 200
    return response


def test_settings_speak_english_and_japanese():
    assert [code for code, _ in settings.LANGUAGES] == ["en-gb", "ja"]
    middleware = settings.MIDDLEWARE
    locale = middleware.index("django.middleware.locale.LocaleMiddleware")
    assert middleware.index("django.contrib.sessions.middleware.SessionMiddleware") < locale
    assert locale < middleware.index("django.middleware.common.CommonMiddleware")
    assert (middleware.index("django.contrib.auth.middleware.AuthenticationMiddleware")
            < middleware.index("accounts.language.UserLanguageMiddleware"))


def test_english_without_any_preference(client):
    response = rules_page(client)
    assert ENGLISH_TITLE in response.content.decode()
    assert response["Content-Language"] == "en-gb"


def test_the_browsers_accept_language_is_followed(client):
    response = rules_page(client, HTTP_ACCEPT_LANGUAGE="ja,en;q=0.5")
    assert JAPANESE_TITLE in response.content.decode()
    assert response["Content-Language"] == "ja"
    assert "Accept-Language" in response["Vary"]
    # a language the site does not speak falls back to English
    response = rules_page(client, HTTP_ACCEPT_LANGUAGE="fr-FR,fr;q=0.9")
    assert ENGLISH_TITLE in response.content.decode()
    response = rules_page(client, HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9,ja;q=0.5")
    assert response["Content-Language"] == "en-gb"


def test_a_saved_preference_wins_over_the_browser(client):
    player = UserFactory(language="ja")
    client.force_login(player)
    response = rules_page(client, HTTP_ACCEPT_LANGUAGE="en-GB,en;q=0.9")
    assert JAPANESE_TITLE in response.content.decode()
    assert response["Content-Language"] == "ja"
    player.language = "en-gb"
    player.save()
    response = rules_page(client, HTTP_ACCEPT_LANGUAGE="ja")
    assert ENGLISH_TITLE in response.content.decode()


def test_no_saved_preference_leaves_the_browser_in_charge(client):
    client.force_login(UserFactory())
    assert JAPANESE_TITLE in rules_page(client, HTTP_ACCEPT_LANGUAGE="ja").content.decode()


def test_switching_saves_the_preference_for_a_signed_in_player(client):
    player = UserFactory()
    client.force_login(player)
    response = client.post(reverse("set_language"), {"language": "ja", "next": "/rules/"})
    assert response.status_code == 302 and response["Location"] == "/rules/"
    player.refresh_from_db()
    assert player.language == "ja"
    # another browser, no cookie, an English browser: the account's choice still holds
    other = client.__class__()
    other.force_login(player)
    assert JAPANESE_TITLE in rules_page(other, HTTP_ACCEPT_LANGUAGE="en").content.decode()


def test_switching_without_an_account_sets_the_cookie_only(client):
    response = client.post(reverse("set_language"), {"language": "ja", "next": "/rules/"})
    assert response.status_code == 302
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "ja"
    assert JAPANESE_TITLE in rules_page(client).content.decode()
    assert not User.objects.exclude(language="").exists()


def test_a_bad_switch_changes_nothing(client):
    player = UserFactory(language="ja")
    client.force_login(player)
    for language in ("xx", "", "ja<script>", "en" * 20):
        response = client.post(reverse("set_language"), {"language": language, "next": "/"})
        assert response.status_code == 302
        player.refresh_from_db()
        assert player.language == "ja"
        assert settings.LANGUAGE_COOKIE_NAME not in response.cookies
    # a GET never switches, and an outside "next" is not followed
    assert client.get(reverse("set_language"), {"language": "en-gb"}).status_code == 405
    response = client.post(reverse("set_language"),
                           {"language": "en-gb", "next": "https://evil.example/"})
    assert response["Location"] == "/"
    player.refresh_from_db()
    assert player.language == "en-gb"


def test_the_header_offers_the_switch_in_each_languages_own_name(client):
    html = rules_page(client).content.decode()
    assert f'action="{reverse("set_language")}"' in html
    assert 'value="ja" lang="ja"' in html and ">日本語</button>" in html
    assert 'value="en-gb" lang="en-gb" aria-pressed="true" disabled>English</button>' in html
    assert 'name="next" value="/rules/"' in html
    html = rules_page(client, HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert 'value="ja" lang="ja" aria-pressed="true" disabled>日本語</button>' in html
    assert 'value="en-gb" lang="en-gb" aria-pressed="false">English</button>' in html
    assert ">言語</span>" in html


def test_a_request_leaves_no_language_behind_on_its_thread(client):
    from django.utils import translation

    rules_page(client, HTTP_ACCEPT_LANGUAGE="ja")
    client.force_login(UserFactory(language="ja"))
    rules_page(client)
    assert translation.get_language() == settings.LANGUAGE_CODE


def test_the_language_field_accepts_only_languages_the_site_speaks():
    field = User._meta.get_field("language")
    assert [code for code, _ in field.choices] == ["en-gb", "ja"]
    player = UserFactory()
    player.language = "xx"
    with pytest.raises(Exception, match="not a valid choice"):
        player.full_clean()
