"""What a usability probe found in the room's words: a replay's cards, table names in the
reader's language, the empty list of post tables, the rules' Python sample and the
notification settings."""

import pickle
import re

import pytest
from django.contrib.admin.sites import site as admin_site
from django.test import Client, RequestFactory, override_settings
from django.urls import reverse
from django.utils import translation

from games.models import Action, Table
from notify.models import NotificationPreference
from tests.factories import UserFactory, finished_game
from tests.test_notify_pages import KEYS

pytestmark = pytest.mark.django_db

# a card as the engine writes it ("10D"), standing on its own
RAW_CODE = re.compile(r"(?<![0-9A-Za-z])(10|[2-9JQKA])[CDHS](?![0-9A-Za-z])")
SUITS = re.compile("[\u2663\u2666\u2665\u2660]")


def signed_in(user):
    client = Client()
    client.force_login(user)
    return client


def get(client, url, language):
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200, url
    assert response["Content-Language"].startswith(language[:2])
    return response.content.decode()


def replay_events(html):
    found = re.search(r'<ol class="replay-events">(.*?)</ol>', html, re.S)
    return found.group(1) if found else ""


# -- 1. a replay's log writes cards as the table's log does -------------------------------------


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_replay_writes_cards_with_their_suits(language):
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    game = finished_game([alice, bob], bots=["greedy"])
    client = signed_in(alice)
    seen_cards = 0
    for seq in Action.objects.filter(game=game).order_by("seq").values_list("seq", flat=True):
        events = replay_events(get(client, reverse("stats:replay", args=[game.pk])
                                   + f"?step={seq}", language))
        assert not RAW_CODE.search(events), (seq, events)
        seen_cards += len(SUITS.findall(events))
    assert seen_cards  # the cut, the deals and the swaps name cards
    start = replay_events(get(client, reverse("stats:replay", args=[game.pk]) + "?step=0",
                              language))
    assert SUITS.search(start), start  # "Cut for the deal: alice 5♠, …"


# -- 2. a name the site gave a table reads in the reader's language ------------------------------


def test_play_now_names_the_table_in_each_readers_language():
    user = UserFactory(username="carla")
    assert signed_in(user).post(reverse("games:play_now"),
                                HTTP_ACCEPT_LANGUAGE="ja").status_code == 302
    table = Table.objects.get(host=user)
    assert table.auto_name == "v_bots"
    assert table.stored_name == "carla v bots"  # stored in one language, whoever opened it
    assert Table.objects.filter(name="carla v bots").exists()
    with translation.override("en"):
        assert table.name == "carla v bots" and str(table) == "carla v bots"
    with translation.override("ja"):
        assert table.name == "carla 対 ボット"
        assert Table.objects.filter(name=table.name).get() == table  # looked up as stored

    reader = signed_in(UserFactory(username="dora"))
    assert "carla v bots" in get(reader, reverse("games:lobby"), "en")
    lobby_ja = get(reader, reverse("games:lobby"), "ja")
    assert "carla 対 ボット" in lobby_ja and "carla v bots" not in lobby_ja
    page = get(signed_in(user), table.get_absolute_url(), "ja")
    assert "<title>carla 対 ボット" in page and "carla v bots" not in page
    page = get(signed_in(user), table.get_absolute_url(), "en")
    assert "carla v bots" in page and "対 ボット" not in page


def test_a_practice_table_and_a_typed_name():
    user = UserFactory(username="erin")
    client = signed_in(user)
    client.post(reverse("games:play_now"), {"practice": "1"})
    practice = Table.objects.get(host=user, practice=True)
    with translation.override("ja"):
        assert practice.name == "erinの練習"
    with translation.override("en"):
        assert practice.name == "erin's practice"
    variant = practice.variant
    client.post(reverse("games:create_table"), {
        "name": "erin v bots", "variant": variant.pk, "seats": 3, "pace": "live",
        "allow_spectators": "on"})
    typed = Table.objects.get(host=user, practice=False)
    assert typed.auto_name == ""
    with translation.override("ja"):
        assert typed.name == "erin v bots"  # typed: as typed, even in the site's words


def test_a_renamed_table_shows_its_new_name_and_saving_keeps_the_stored_words():
    user = UserFactory(username="fern")
    signed_in(user).post(reverse("games:play_now"))
    table = Table.objects.get(host=user)
    with translation.override("ja"):
        table.full_clean()
        table.save()
        copy = pickle.loads(pickle.dumps(table))  # noqa: S301 -- our own bytes
        assert copy.name == "fern 対 ボット" and copy.stored_name == "fern v bots"
        table.name = table.name  # set back as read: the stored words stay
        Table.objects.bulk_update([table], ["name"])
    table.refresh_from_db()
    assert table.stored_name == "fern v bots"
    Table.objects.filter(pk=table.pk).update(name="Fern's evening")
    table.refresh_from_db()
    with translation.override("ja"):
        assert table.name == "Fern's evening"  # no longer the site's words


def test_the_admin_edits_the_stored_name():
    admin = UserFactory(username="root", is_staff=True, is_superuser=True)
    signed_in(UserFactory(username="gus")).post(reverse("games:play_now"))
    table = Table.objects.get(host__username="gus")
    html = get(signed_in(admin), reverse("admin:games_table_change", args=[table.pk]), "ja")
    assert 'value="gus v bots"' in html
    request = RequestFactory().get("/")
    request.user = admin
    form = admin_site._registry[Table].get_form(request, table)(instance=table)
    assert form.initial["name"] == "gus v bots"


def test_a_replay_heading_names_the_table_in_the_readers_language():
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    game = finished_game([alice, bob], bots=["random"])
    Table.objects.filter(pk=game.table_id).update(name="alice v bots", auto_name="v_bots")
    url = reverse("stats:replay", args=[game.pk])
    assert "リプレイ：alice 対 ボット" in get(signed_in(alice), url, "ja")
    assert "Replay: alice v bots" in get(signed_in(alice), url, "en")
    history = reverse("stats:history", args=["alice"])
    assert "alice 対 ボット" in get(signed_in(alice), history, "ja")
    assert "alice v bots" in get(signed_in(alice), history, "en")


# -- 3. the empty list of post tables links to where one is opened ------------------------------


def test_no_post_tables_links_to_the_lobbys_form():
    html = get(signed_in(UserFactory()), reverse("games:turns"), "en")
    link = f'<a href="{reverse("games:lobby")}#new-table">'
    assert link in html
    assert 'id="new-table"' in get(signed_in(UserFactory()), reverse("games:lobby"), "en")


# -- 4. the rules' Python sample in the reader's language ----------------------------------------


def test_the_fair_deal_sample_reads_in_japanese():
    html = get(Client(), reverse("games:rules"), "ja")
    assert "NOT the deck that was sealed" not in html
    assert "print(&quot;fair&quot;" not in html
    english = get(Client(), reverse("games:rules"), "en")
    assert "NOT the deck that was sealed" in english


# -- 5. notification settings without browser notifications -------------------------------------


@override_settings(VAPID_PUBLIC_KEY="", VAPID_PRIVATE_KEY="")
def test_without_push_there_is_no_browser_column_and_saving_works():
    user = UserFactory()
    client = signed_in(user)
    html = get(client, "/notifications/preferences/", "en")
    assert "Browser notifications are not set up on this site." in html
    assert "<th scope=\"col\">Browser notification</th>" not in html
    assert "__push" not in html
    assert '<fieldset class="stacked-form">' in html  # the site's form look for its selects
    response = client.post("/notifications/preferences/", {
        "your_turn__site": "on", "digest": "on", "digest_hour": "7", "time_zone": ""})
    assert response.status_code == 302
    assert user.digest_setting.hour == 7


def test_with_push_the_browser_column_shows_and_saves():
    user = UserFactory()
    client = signed_in(user)
    with KEYS:
        html = get(client, "/notifications/preferences/", "en")
        assert "<th scope=\"col\">Browser notification</th>" in html
        assert 'name="your_turn__push"' in html
        response = client.post("/notifications/preferences/", {
            "your_turn__site": "on", "digest_hour": "8"})
    assert response.status_code == 302
    assert NotificationPreference.objects.filter(
        user=user, event="your_turn", channel="push", enabled=False).exists()
