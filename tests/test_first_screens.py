"""What a newcomer meets first, as a probe on a phone found it: a guest is offered
"Sign up" in the header, a notice of a moment ago says "just now", the lobby's open
tables are the ones still open, and a refused "Open a table" says why at the top."""

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games import actions
from games.models import Table
from notify.models import Notification
from tests.factories import UserFactory, preset_variant

pytestmark = pytest.mark.django_db


def test_a_guest_is_offered_sign_up_in_the_header_and_a_member_is_not():
    visitor = Client()
    visitor.post("/tables/play-now/", {"kind": "stop_the_bus"})
    header = visitor.get("/").content.decode().split("</header>")[0]
    assert 'href="/accounts/signup/"' in header and "Sign up" in header
    member = Client()
    member.force_login(UserFactory())
    header = member.get("/").content.decode().split("</header>")[0]
    assert 'href="/accounts/signup/"' not in header


@pytest.mark.parametrize("language, now, earlier", [
    ("en", "just now", "7\xa0minutes ago"), ("ja", "たった今", "7分前")])
def test_the_bell_says_just_now_for_a_notice_of_a_moment_ago(language, now, earlier):
    user = UserFactory(language=language)
    client = Client()
    client.force_login(user)
    Notification.objects.create(user=user, event="test", in_bell=True)
    Notification.objects.create(user=user, event="test", in_bell=True,
                                created_at=timezone.now() - timedelta(minutes=7, seconds=5))
    html = client.get("/notifications/", HTTP_HX_REQUEST="true").content.decode()
    assert f">{now}</time>" in html
    assert f">{earlier}</time>" in html
    assert "0 minutes" not in html and "0分" not in html


def test_open_tables_are_the_ones_still_open():
    user = UserFactory()
    variant = preset_variant()
    waiting = actions.do_create_table(user, name="Still open", variant=variant, seats=4)
    done = actions.do_create_table(user, name="All played", variant=variant, seats=4)
    Table.objects.filter(pk=done.pk).update(status=Table.Status.FINISHED)
    client = Client()
    client.force_login(user)
    html = client.get("/").content.decode()
    assert waiting.name in html and done.name not in html


def test_tables_waiting_for_players_come_first_and_games_in_play_are_listed_to_watch():
    """A newcomer's lobby was a list of other guests' full bot games: tables one may join
    come first; games being played follow under their own heading, and only those anyone
    may watch (the players of a closed one still see theirs)."""
    host, player, newcomer = UserFactory(), UserFactory(), UserFactory()
    variant = preset_variant()
    playing = actions.do_create_table(host, name="Bots game", variant=variant, seats=4)
    closed = actions.do_create_table(player, name="Closed game", variant=variant, seats=4,
                                     allow_spectators=False)
    Table.objects.filter(pk__in=[playing.pk, closed.pk]).update(status=Table.Status.PLAYING)
    waiting = actions.do_create_table(UserFactory(), name="Join us", variant=variant, seats=4)
    Table.objects.filter(pk=waiting.pk).update(updated_at=timezone.now() - timedelta(hours=1))
    client = Client()
    client.force_login(newcomer)
    html = client.get("/").content.decode()
    assert "Join us" in html and "Bots game" in html and "Closed game" not in html
    assert html.index("Join us") < html.index("Being played: watch a game") < html.index(
        "Bots game")
    client.force_login(player)
    assert "Closed game" in client.get("/").content.decode()
    # nothing waiting: the lobby says so above the games to watch
    Table.objects.filter(pk=waiting.pk).update(status=Table.Status.FINISHED)
    client.force_login(newcomer)
    html = client.get("/").content.decode()
    assert "No table is waiting for players right now" in html and "Bots game" in html


def test_a_refused_table_says_why_at_the_top_of_the_page():
    client = Client()
    client.force_login(UserFactory())
    html = client.post("/tables/new/", {"name": "Oak", "variant": preset_variant().pk,
                                        "seats": 99}).content.decode()
    summary = html[html.index('class="error-summary"'):]
    assert 'role="alert"' in html[html.index('class="error-summary"') - 10:][:200]
    assert html.index('class="error-summary"') < html.index('id="new-table"')
    assert 'href="#id_seats"' in summary[:2000]
    assert not Table.objects.exists()
