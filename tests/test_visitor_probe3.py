"""What a third outside probe, a first-time visitor on a phone, saw: a guest was offered
email it could never get, a chat box that refused them only once they had written, a
bell ringing for the game they had just started themselves, and "Email: None"."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games import actions
from games.kinds import STOP_THE_BUS
from games.models import Table
from notify.models import Channel, DigestSetting, Notification, NotificationPreference
from notify.preferences import channels_for
from tests.factories import UserFactory, preset_variant

pytestmark = pytest.mark.django_db


def _guest_client():
    client = Client()
    client.post(reverse("games:play_now"), {"kind": STOP_THE_BUS.slug})
    return client, User.objects.get(is_guest=True)


def test_a_guest_is_offered_no_email_and_a_forged_form_saves_none():
    client, guest = _guest_client()
    page = client.get(reverse("notify:preferences")).content.decode()
    assert "__email" not in page and 'name="digest"' not in page
    assert 'id="no-email-note"' in page and "Sign up" in page
    # every box ticked by hand, email ones included
    data = {f"{event}__{channel}": "on" for event in ("your_turn", "last_call", "game_over")
            for channel in ("site", "email") if not (channel == "email" and event != "last_call")}
    data.update(digest="on", digest_hour="8", time_zone="")
    response = client.post(reverse("notify:preferences"), data)
    assert response.status_code == 302
    assert not NotificationPreference.objects.filter(user=guest, channel=Channel.EMAIL,
                                                     enabled=True).exists()
    assert not DigestSetting.objects.filter(user=guest, enabled=True).exists()
    assert Channel.EMAIL not in channels_for(guest, "last_call")


def test_a_member_still_gets_the_email_column_and_the_daily_email():
    member = UserFactory(username="mia")
    client = Client()
    client.force_login(member)
    page = client.get(reverse("notify:preferences")).content.decode()
    assert 'name="last_call__email"' in page and 'name="digest"' in page
    client.post(reverse("notify:preferences"), {"last_call__email": "on", "digest": "on",
                                                "digest_hour": "7", "time_zone": ""})
    assert Channel.EMAIL in channels_for(member, "last_call")
    assert DigestSetting.objects.get(user=member).enabled


def test_a_guest_sees_why_they_cannot_chat_instead_of_a_chat_box(settings):
    client, guest = _guest_client()
    table = Table.objects.get(host=guest)
    page = client.get(table.get_absolute_url()).content.decode()
    assert 'id="chat-form"' not in page
    assert re.search(r'Guests cannot chat here\. <a href="/accounts/signup/[^"]*">Sign up</a>',
                     page)
    settings.STOPBUS_GUEST_CHAT = True
    page = client.get(table.get_absolute_url()).content.decode()
    assert 'id="chat-form"' in page and "Guests cannot chat" not in page


def test_the_player_who_starts_a_game_is_not_told_it_started():
    client, guest = _guest_client()  # play now: the guest's own bots started it
    assert not Notification.objects.filter(user=guest, event="table_started").exists()
    host, joiner = UserFactory(username="hal"), UserFactory(username="jo")
    table = actions.do_create_table(host, name="T", variant=preset_variant(), seats=2)
    actions.do_join_table(table, joiner)  # full: the joiner's sitting down starts it
    assert Notification.objects.filter(user=host, event="table_started").count() == 1
    assert not Notification.objects.filter(user=joiner, event="table_started").exists()


def test_a_guests_profile_says_it_has_no_address_not_none():
    client, _guest = _guest_client()
    page = client.get(reverse("accounts:profile")).content.decode()
    assert "None:" not in page
    assert "No address: you are playing as a guest." in page


def test_a_guests_daily_email_left_on_from_before_is_never_queued():
    from notify.actions import do_schedule_digests

    _client, guest = _guest_client()
    member = UserFactory(username="mo")
    for user in (guest, member):
        DigestSetting.objects.create(user=user, enabled=True, hour=0)
    assert do_schedule_digests() == 1  # the member's alone


def test_a_post_table_left_before_its_game_says_it_is_closed_not_that_a_game_is_over():
    host = UserFactory(username="pat")
    table = actions.do_create_table(host, name="Slow", variant=preset_variant(), seats=4,
                                    pace="1h")
    actions.do_leave_table(table, host)
    table.refresh_from_db()
    assert table.status == Table.Status.CLOSED
    client = Client()
    client.force_login(host)
    page = client.get(table.get_absolute_url()).content.decode()
    assert re.search(r'data-post-when="closed">A post table: [^<]*This table is closed\.', page)
    assert "This game is over" not in page
    assert "Come back when it is your turn" not in page
