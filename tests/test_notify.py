"""Notifications (issue 29, item 5): the one writer, preferences and mutes, the bell's
count, and deliveries -- web push through a fake push service on 127.0.0.1 that decrypts
what it gets, emails -- claimed like the clock's jobs."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.test import override_settings
from django.utils import timezone

from games import presence
from games.models import Table
from notify import actions
from notify.keys import new_vapid_pair
from notify.models import (
    Delivery,
    DigestSetting,
    Notification,
    NotificationPreference,
    PushSubscription,
    TableMute,
)
from tests.factories import UserFactory, preset_variant
from tests.fake_push import FakePushService

PRIVATE, PUBLIC = new_vapid_pair()

pytestmark = pytest.mark.django_db


@pytest.fixture
def push_service():
    service = FakePushService().start()
    with override_settings(VAPID_PRIVATE_KEY=PRIVATE, VAPID_PUBLIC_KEY=PUBLIC,
                           VAPID_SUBJECT="mailto:test@example.com", NOTIFY_PUSH_TIMEOUT=1.0,
                           NOTIFY_PLAIN_HTTP_PUSH_HOSTS=["127.0.0.1"]):
        yield service
    service.stop()


def make_table(host, name="Oak table"):
    return Table.objects.create(name=name, variant=preset_variant(), host=host, seats=4)


def subscribe(service, user):
    fake = service.subscribe()
    actions.do_subscribe(user, fake.endpoint, fake.p256dh, fake.auth_b64)
    return fake


def run_due(later: float = 0.0) -> int:
    """Claim and send what is due ``later`` seconds from now."""
    deliveries = actions.do_claim_due_deliveries(
        100, now=timezone.now() + timedelta(seconds=later))
    actions.do_run_deliveries(deliveries)
    return len(deliveries)


# -- the one writer ------------------------------------------------------------------------------


def test_do_notify_writes_one_notification_per_key():
    user = UserFactory()
    table = make_table(user)
    first = actions.do_notify(user, "your_turn", table=table, params={"table": table.name},
                              key="turn:1:5")
    again = actions.do_notify(user, "your_turn", table=table, params={"table": table.name},
                              key="turn:1:5")
    assert first is not None and again is None
    assert Notification.objects.filter(user=user).count() == 1
    assert actions.unread_count(user.pk) == 1


def test_an_unknown_event_is_refused():
    with pytest.raises(ValueError):
        actions.do_notify(UserFactory(), "lottery_win")


def test_a_muted_table_tells_nothing():
    user = UserFactory()
    table = make_table(user)
    actions.do_mute_table(user, table.pk, True)
    assert actions.do_notify(user, "missed_turn", table=table) is None
    actions.do_mute_table(user, table.pk, False)
    assert actions.do_notify(user, "missed_turn", table=table) is not None
    assert not TableMute.objects.exists()


def test_preferences_turn_channels_off():
    user = UserFactory()
    actions.do_save_preferences(user, {"game_over": {"site": False, "push": False}})
    assert actions.do_notify(user, "game_over") is None
    actions.do_save_preferences(user, {"game_over": {"site": False, "push": True}})
    note = actions.do_notify(user, "game_over")
    assert note is not None and not note.in_bell  # kept for the push, not in the bell
    assert actions.unread_count(user.pk) == 0


def test_the_bell_is_told_after_commit(django_capture_on_commit_callbacks, monkeypatch):
    told = []
    monkeypatch.setattr(actions, "group_send", lambda group, msg: told.append((group, msg)))
    user = UserFactory()
    with django_capture_on_commit_callbacks(execute=True):
        actions.do_notify(user, "invited", params={"table": "Elm", "host": "ann"})
        assert told == []  # nothing before commit
    assert told == [(f"user-{user.pk}", {"type": "notify.changed", "unread": 1})]


def test_withdraw_drops_undelivered_pushes_and_marks_read(push_service):
    user = UserFactory()
    subscribe(push_service, user)
    table = make_table(user)
    actions.do_notify(user, "your_turn", table=table, key="turn:7:1")
    assert Delivery.objects.filter(done_at__isnull=True).count() == 1
    actions.do_withdraw(user, "turn:7:1")
    assert not Delivery.objects.filter(done_at__isnull=True).exists()
    assert Notification.objects.get(key="turn:7:1").read_at is not None
    assert run_due(later=5) == 0
    assert push_service.received == []


# -- web push ------------------------------------------------------------------------------------


def test_a_push_reaches_the_service_encrypted_and_is_decrypted(push_service):
    user = UserFactory()
    subscribe(push_service, user)
    table = make_table(user, "Birch")
    actions.do_notify(user, "missed_turn", table=table, params={"table": "Birch"})
    assert push_service.received == []  # nothing is sent inside the writer
    assert run_due() == 1
    (got,) = push_service.wait_for(1)
    assert got.payload["title"] == "You missed a turn at Birch"
    assert got.payload["url"] == f"/t/{table.pk}/"
    assert got.payload["table"] == "Birch"
    assert f"k={PUBLIC}" in got.headers["authorization"]  # signed with the site's VAPID key
    assert push_service.errors == []
    assert Delivery.objects.get().result.startswith("sent")


def test_a_push_is_in_the_receivers_language(push_service):
    user = UserFactory(language="ja")
    subscribe(push_service, user)
    actions.do_notify(user, "game_over", params={"table": "Birch", "place": 2, "players": 5})
    run_due()
    (got,) = push_service.wait_for(1)
    assert got.payload["title"] == "Birchで5人中2位でした"


def test_english_ordinals():
    from notify.texts import ordinal

    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st"]


def test_your_turn_waits_two_seconds(push_service):
    user = UserFactory()
    subscribe(push_service, user)
    actions.do_notify(user, "your_turn", table=make_table(user), key="t:1")
    assert run_due() == 0
    assert run_due(later=2.5) == 1
    assert len(push_service.wait_for(1)) == 1


def test_no_push_while_a_page_of_the_table_is_visible(push_service):
    user = UserFactory()
    subscribe(push_service, user)
    table = make_table(user)
    presence.note_page(table.pk, "page-1", user.pk, "en")
    actions.do_notify(user, "your_turn", table=table, key="t:1")
    run_due(later=3)
    assert push_service.received == []
    assert Delivery.objects.get().result == "page visible: not pushed"


def test_a_hidden_page_does_not_stop_the_push(push_service):
    user = UserFactory()
    subscribe(push_service, user)
    table = make_table(user)
    presence.note_page(table.pk, "page-1", user.pk, "en", visible=False)
    actions.do_notify(user, "your_turn", table=table, key="t:1")
    run_due(later=3)
    assert len(push_service.wait_for(1)) == 1


def test_a_page_of_another_table_does_not_stop_the_push(push_service):
    user = UserFactory()
    subscribe(push_service, user)
    table = make_table(user)
    presence.note_page(make_table(user, "Other").pk, "p", user.pk, "en")
    actions.do_notify(user, "your_turn", table=table, key="t:1")
    run_due(later=3)
    assert len(push_service.wait_for(1)) == 1


def test_pending_turns_collapse_into_one_push(push_service):
    user = UserFactory()
    subscribe(push_service, user)
    for n in range(3):
        table = make_table(user, f"T{n}")
        actions.do_notify(user, "your_turn", table=table, params={"table": table.name},
                          key=f"turn:{table.pk}:1")
    run_due(later=3)
    got = push_service.wait_for(1)
    assert len(got) == 1
    assert got[0].payload["title"] == "Your turn at 3 tables"
    assert got[0].payload["url"] == "/notifications/"
    assert Delivery.objects.filter(done_at__isnull=False).count() == 3


def test_one_push_per_table_per_turn(push_service):
    user = UserFactory()
    subscribe(push_service, user)
    table = make_table(user)
    for _ in range(3):
        actions.do_notify(user, "your_turn", table=table, key=f"turn:{table.pk}:9")
    run_due(later=3)
    run_due(later=30)
    assert len(push_service.wait_for(1)) == 1


def test_a_gone_endpoint_removes_the_subscription(push_service):
    user = UserFactory()
    subscribe(push_service, user)
    push_service.status = 410
    actions.do_notify(user, "invited", params={"table": "Ash"})
    run_due()
    assert not PushSubscription.objects.exists()
    assert not Delivery.objects.exists()  # went with its subscription


def test_a_failing_push_service_is_retried_with_backoff_then_dropped(push_service):
    user = UserFactory()
    subscribe(push_service, user)
    push_service.status = 500
    actions.do_notify(user, "invited", params={"table": "Ash"})
    run_due()
    delivery = Delivery.objects.get()
    assert delivery.done_at is None and delivery.attempts == 1
    first_wait = delivery.due_at - timezone.now()
    assert first_wait > timedelta(seconds=5)
    run_due(later=first_wait.total_seconds() + 1)
    delivery.refresh_from_db()
    assert delivery.attempts == 2 and delivery.due_at - timezone.now() > first_wait * 2
    for _ in range(3):
        run_due(later=10_000)
    delivery.refresh_from_db()
    assert delivery.done_at is not None and delivery.result.startswith("dropped")
    assert PushSubscription.objects.exists()  # a failing service is not a gone endpoint


def test_a_push_service_that_times_out_is_retried(push_service):
    user = UserFactory()
    subscribe(push_service, user)
    push_service.delay = 1.5  # the timeout is 1 s
    actions.do_notify(user, "invited", params={"table": "Ash"})
    run_due()
    delivery = Delivery.objects.get()
    assert delivery.done_at is None and delivery.attempts == 1
    assert "Timeout" in delivery.result or "timed out" in delivery.result


def test_a_push_succeeds_after_a_retry(push_service):
    user = UserFactory()
    subscribe(push_service, user)
    push_service.statuses = [503]
    actions.do_notify(user, "invited", params={"table": "Ash"})
    run_due()
    run_due(later=60)
    assert len(push_service.wait_for(1)) == 1
    assert Delivery.objects.get().result.startswith("sent")


def test_without_keys_nothing_is_queued_for_push(push_service):
    user = UserFactory()
    subscribe(push_service, user)
    with override_settings(VAPID_PRIVATE_KEY="", VAPID_PUBLIC_KEY=""):
        actions.do_notify(user, "invited", params={"table": "Ash"})
    assert not Delivery.objects.exists()


# -- claiming: once, and nothing lost ------------------------------------------------------------


def test_two_processes_never_claim_the_same_delivery(push_service):
    user = UserFactory()
    subscribe(push_service, user)
    actions.do_notify(user, "invited", params={"table": "Ash"})
    now = timezone.now()
    first = actions.do_claim_due_deliveries(10, now=now, worker="a")
    second = actions.do_claim_due_deliveries(10, now=now, worker="b")
    assert len(first) == 1 and second == []


def test_a_killed_process_loses_nothing(push_service):
    user = UserFactory()
    subscribe(push_service, user)
    actions.do_notify(user, "invited", params={"table": "Ash"})
    now = timezone.now()
    assert len(actions.do_claim_due_deliveries(10, now=now, worker="dead")) == 1
    # the claiming process died before sending: once its lease runs out another sends
    later = now + actions.lease() + timedelta(seconds=1)
    taken = actions.do_claim_due_deliveries(10, now=later, worker="alive")
    assert len(taken) == 1
    actions.do_run_deliveries(taken)
    assert len(push_service.wait_for(1)) == 1


# -- email ---------------------------------------------------------------------------------------


def test_last_call_email_is_optional_and_in_the_readers_language():
    user = UserFactory(language="ja")
    actions.do_notify(user, "last_call", params={"table": "Pine"})
    assert not Delivery.objects.exists()  # off by default
    actions.do_save_preferences(user, {"last_call": {"site": True, "push": True, "email": True}})
    actions.do_notify(user, "last_call", params={"table": "Pine"})
    run_due()
    assert len(mail.outbox) == 1
    assert "Pine" in mail.outbox[0].subject and "まもなく" in mail.outbox[0].subject


@override_settings(EMAIL_BACKEND="tests.test_notify.BrokenMail")
def test_a_mail_server_that_is_down_is_retried():
    user = UserFactory()
    actions.do_save_preferences(user, {"last_call": {"site": True, "push": True, "email": True}})
    actions.do_notify(user, "last_call", params={"table": "Pine"})
    run_due()
    delivery = Delivery.objects.get()
    assert delivery.done_at is None and delivery.attempts == 1
    assert "ConnectionRefusedError" in delivery.result


class BrokenMail:
    def __init__(self, *args, **kwargs):
        pass

    def send_messages(self, messages):
        raise ConnectionRefusedError("mail server down")


def test_the_digest_is_off_by_default_and_skipped_when_empty():
    user = UserFactory()
    assert actions.do_schedule_digests() == 0
    actions.do_save_preferences(user, {}, digest=True, digest_hour=0)
    assert actions.do_schedule_digests() == 1
    assert actions.do_schedule_digests() == 0  # once a day
    run_due()
    assert mail.outbox == []
    assert Delivery.objects.get().result == "no tables waiting: skipped"
    assert DigestSetting.objects.get().sent_on is not None


def _digest_at(user, hour=8):
    actions.do_save_preferences(user, {}, digest=True, digest_hour=hour)


def test_the_digest_hour_is_read_on_the_players_clock():
    """A Tokyo player's 08:00 is 23:00 UTC the day before, and "once a day" is Tokyo's
    day, whatever the site's clock (UTC) says."""
    from datetime import UTC, datetime

    user = UserFactory(time_zone="Asia/Tokyo")
    _digest_at(user)
    evening = datetime(2026, 3, 1, 22, 59, tzinfo=UTC)  # 07:59 in Tokyo: not yet
    assert actions.do_schedule_digests(now=evening) == 0
    assert actions.do_schedule_digests(now=evening + timedelta(minutes=1)) == 1  # 08:00
    assert DigestSetting.objects.get().sent_on.isoformat() == "2026-03-02"  # Tokyo's day
    assert Delivery.objects.filter(kind=Delivery.Kind.DIGEST).count() == 1
    # the rest of Tokyo's day, the site's own 08:00 among it (17:00 in Tokyo): no more
    for hours in (1, 3, 9, 15):
        assert actions.do_schedule_digests(now=evening + timedelta(hours=hours, minutes=1)) == 0
    # the next Tokyo morning
    assert actions.do_schedule_digests(now=datetime(2026, 3, 2, 22, 59, tzinfo=UTC)) == 0
    assert actions.do_schedule_digests(now=datetime(2026, 3, 2, 23, 0, tzinfo=UTC)) == 1
    assert DigestSetting.objects.get().sent_on.isoformat() == "2026-03-03"


@pytest.mark.parametrize(("utc_hour", "day"), [
    (7, "2026-07-15"),   # summer: British Summer Time, 08:00 in London is 07:00 UTC
    (8, "2026-01-15"),   # winter: GMT, 08:00 in London is 08:00 UTC
])
def test_the_digest_comes_at_eight_in_london_summer_and_winter(utc_hour, day):
    from datetime import UTC, date, datetime

    user = UserFactory(time_zone="Europe/London")
    _digest_at(user)
    on = date.fromisoformat(day)
    at = datetime(on.year, on.month, on.day, utc_hour, 0, tzinfo=UTC)
    assert actions.do_schedule_digests(now=at - timedelta(minutes=1)) == 0
    assert actions.do_schedule_digests(now=at) == 1
    assert DigestSetting.objects.get().sent_on == on
    assert actions.do_schedule_digests(now=at + timedelta(hours=15)) == 0


def test_the_digest_across_the_clock_change_goes_once_a_day():
    """The hour a clock change skips counts as come; the hour it repeats sends once."""
    from datetime import UTC, datetime

    user = UserFactory(time_zone="Europe/London")
    _digest_at(user, hour=1)  # 29 March 2026: 01:00 GMT becomes 02:00 BST
    assert actions.do_schedule_digests(now=datetime(2026, 3, 29, 0, 59, tzinfo=UTC)) == 0
    assert actions.do_schedule_digests(now=datetime(2026, 3, 29, 1, 0, tzinfo=UTC)) == 1  # 02:00
    # 25 October 2026: 01:00-02:00 BST, then 01:00-02:00 GMT again
    assert actions.do_schedule_digests(now=datetime(2026, 10, 25, 0, 0, tzinfo=UTC)) == 1
    assert actions.do_schedule_digests(now=datetime(2026, 10, 25, 1, 0, tzinfo=UTC)) == 0
    assert Delivery.objects.filter(kind=Delivery.Kind.DIGEST).count() == 2


@override_settings(TIME_ZONE="Asia/Tokyo")
@pytest.mark.parametrize("zone", ["", "Mars/Olympus_Mons"])
def test_without_a_zone_the_digest_hour_is_the_sites(zone):
    """Blank (or a zone the tz database no longer knows): the site's TIME_ZONE."""
    from datetime import UTC, datetime

    user = UserFactory()
    type(user).objects.filter(pk=user.pk).update(time_zone=zone)
    _digest_at(user)
    evening = datetime(2026, 3, 1, 22, 30, tzinfo=UTC)  # 07:30 in Tokyo: not yet
    assert actions.do_schedule_digests(now=evening) == 0
    assert actions.do_schedule_digests(now=evening + timedelta(hours=1)) == 1
    assert DigestSetting.objects.get().sent_on.isoformat() == "2026-03-02"  # Tokyo's day
    assert actions.do_schedule_digests(now=evening + timedelta(hours=3)) == 0


def test_players_in_different_zones_get_theirs_at_their_own_hour():
    from datetime import UTC, datetime

    tokyo, london, site = (UserFactory(time_zone="Asia/Tokyo"),
                           UserFactory(time_zone="Europe/London"), UserFactory())
    for user in (tokyo, london, site):
        _digest_at(user)
    # 07:00 UTC: 16:00 in Tokyo, 07:00 in London and on the site
    assert actions.do_schedule_digests(now=datetime(2026, 1, 15, 7, 0, tzinfo=UTC)) == 1
    assert Delivery.objects.get().user_id == tokyo.pk
    assert actions.do_schedule_digests(now=datetime(2026, 1, 15, 8, 0, tzinfo=UTC)) == 2
    assert set(Delivery.objects.values_list("user_id", flat=True)) == {
        tokyo.pk, london.pk, site.pk}


def test_the_digest_lists_the_tables_waiting():
    from tests.test_post_pace import post_game, until_persons_turn

    turn_user = UserFactory()
    game = until_persons_turn(post_game(turn_user))  # the digest lists post tables
    Table.objects.filter(pk=game.table_id).update(name="Cedar")
    actions.do_save_preferences(turn_user, {}, digest=True, digest_hour=0)
    actions.do_schedule_digests()
    run_due()
    assert len(mail.outbox) == 1
    assert "Cedar" in mail.outbox[0].body
    assert mail.outbox[0].to == [turn_user.email]


def test_preferences_store_only_changed_cells():
    user = UserFactory()
    actions.do_save_preferences(user, {"your_turn": {"site": True, "push": False}})
    assert list(NotificationPreference.objects.values_list("event", "channel", "enabled")) == [
        ("your_turn", "push", False)]
