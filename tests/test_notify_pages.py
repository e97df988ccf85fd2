"""The bell, the notifications' pages and what they accept (issue 29, items 5 and 6):
bad input gets a clear message and changes nothing; the manifest and the service worker."""

from __future__ import annotations

import json

import pytest
from django.test import override_settings

from games.models import Table
from notify import actions
from notify.keys import b64url, new_vapid_pair
from notify.models import Notification, NotificationPreference, PushSubscription, TableMute
from tests.factories import UserFactory, preset_variant

pytestmark = pytest.mark.django_db
PRIVATE, PUBLIC = new_vapid_pair()
KEYS = override_settings(VAPID_PRIVATE_KEY=PRIVATE, VAPID_PUBLIC_KEY=PUBLIC)


def a_subscription(**changes):
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    point = ec.generate_private_key(ec.SECP256R1()).public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    sub = {"endpoint": "https://fcm.googleapis.com/fcm/send/abc123",
           "expirationTime": None, "keys": {"p256dh": b64url(point), "auth": b64url(b"0" * 16)}}
    sub.update(changes)
    return sub


def post_json(client, url, data):
    body = data if isinstance(data, bytes | str) else json.dumps(data)
    return client.post(url, body, content_type="application/json")


# -- the bell ------------------------------------------------------------------------------------


def test_the_header_bell_counts_unread(user_client, user):
    actions.do_notify(user, "invited", params={"table": "Elm", "host": "ann"})
    actions.do_notify(user, "table_started", params={"table": "Elm"})
    page = user_client.get("/").content.decode()
    assert 'id="bell-count"' in page and 'data-unread="2"' in page
    listing = user_client.get("/notifications/").content.decode()
    assert "ann invited you to Elm" in listing and "The game at Elm has started" in listing


def test_the_bell_dropdown_is_a_fragment(user_client, user):
    actions.do_notify(user, "test")
    html = user_client.get("/notifications/", headers={"HX-Request": "true"}).content.decode()
    assert html.lstrip().startswith('<div id="bell-list"') and "<html" not in html


def test_mark_read_one_and_all(user_client, user):
    first = actions.do_notify(user, "test")
    actions.do_notify(user, "invited", params={"table": "Elm"})
    assert user_client.post("/notifications/read/", {"id": str(first.pk)}).status_code == 302
    assert actions.unread_count(user.pk) == 1
    user_client.post("/notifications/read/", {"id": "all"})
    assert actions.unread_count(user.pk) == 0


@pytest.mark.parametrize("ids", [["abc"], ["-1"], ["1e3"], ["٣"], ["9" * 30], [], ["1"] * 300])
def test_forged_ids_are_refused(user_client, user, ids):
    actions.do_notify(user, "test")
    response = user_client.post("/notifications/read/", {"id": ids})
    assert response.status_code == 400
    assert actions.unread_count(user.pk) == 1


def test_someone_elses_notification_cannot_be_marked(user_client, user):
    other = actions.do_notify(UserFactory(), "test")
    mine = actions.do_notify(user, "test")
    response = user_client.post("/notifications/read/", {"id": [str(mine.pk), str(other.pk)]})
    assert response.status_code == 404
    assert "no such notification" in response.content.decode()
    assert Notification.objects.filter(read_at__isnull=False).count() == 0


def test_pages_need_a_login(client):
    assert client.get("/notifications/").status_code == 302
    assert client.post("/notifications/read/", {"id": "all"}).status_code == 302


# -- preferences ---------------------------------------------------------------------------------


def test_the_preferences_page_shows_the_grid_with_defaults(user_client):
    html = user_client.get("/notifications/preferences/").content.decode()
    assert ('name="your_turn__site" id="pref-your_turn-site" '
            'aria-label="Your turn: On the site" checked') in html
    assert ('name="last_call__email" id="pref-last_call-email" '
            'aria-label="Last call: Email">') in html  # offered, off
    assert 'name="your_turn__email"' not in html
    assert "Send me a test notification" in html
    assert "Browser notifications are not set up on this site." in html  # no keys
    assert "data-vapid-key" not in html


def test_with_keys_the_push_option_shows(user_client):
    with KEYS:
        html = user_client.get("/notifications/preferences/").content.decode()
    assert f'data-vapid-key="{PUBLIC}"' in html


def test_saving_preferences(user_client, user):
    response = user_client.post("/notifications/preferences/", {
        "your_turn__site": "on", "last_call__email": "on", "last_call__site": "on",
        "digest": "on", "digest_hour": "19"})
    assert response.status_code == 302
    assert user.digest_setting.enabled and user.digest_setting.hour == 19
    cells = set(NotificationPreference.objects.values_list("event", "channel", "enabled"))
    assert ("last_call", "email", True) in cells and ("your_turn", "push", False) in cells


@pytest.mark.parametrize("data", [
    {"your_turn__site": "yes"}, {"your_turn__email": "on"}, {"lottery__site": "on"},
    {"digest_hour": "25"}, {"digest_hour": "x"}, {"digest": "maybe", "digest_hour": "3"},
    {"your_turn__site": ["on", "on"], "digest_hour": "3"},
])
def test_nonsense_preferences_change_nothing(user_client, user, data):
    data = {"digest_hour": "8", **data}
    response = user_client.post("/notifications/preferences/", data)
    assert response.status_code == 400
    assert response.content.decode().strip()
    assert not NotificationPreference.objects.exists()


def test_saving_a_time_zone(user_client, user):
    response = user_client.post("/notifications/preferences/", {
        "digest": "on", "digest_hour": "8", "time_zone": "Europe/London"})
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.time_zone == "Europe/London" and user.digest_setting.hour == 8
    html = user_client.get("/notifications/preferences/").content.decode()
    assert '<option value="Europe/London" selected>London</option>' in html
    assert '<span data-zone-name lang="en">Europe/London</span>' in html
    assert "data-offer-browser-zone" not in html
    profile = user_client.get("/accounts/profile/").content.decode()
    assert '<span lang="en">Europe/London</span>' in profile
    # not sent: kept; sent blank: back to the site's
    user_client.post("/notifications/preferences/", {"digest_hour": "9"})
    user.refresh_from_db()
    assert user.time_zone == "Europe/London"
    user_client.post("/notifications/preferences/", {"digest_hour": "9", "time_zone": ""})
    user.refresh_from_db()
    assert user.time_zone == ""


@override_settings(TIME_ZONE="Asia/Tokyo")
def test_without_a_zone_the_page_says_the_sites(user_client):
    html = user_client.get("/notifications/preferences/").content.decode()
    assert '<span data-zone-name lang="en">Asia/Tokyo</span>' in html
    assert '<option value="" selected>' in html
    assert "data-offer-browser-zone" in html
    assert "js/time-zone" in html and "Intl.DateTimeFormat" not in html  # no inline script
    profile = user_client.get("/accounts/profile/").content.decode()
    assert "The site's time zone (" in profile


@pytest.mark.parametrize("zone", [
    "Mars/Olympus_Mons", "europe/london", "Europe/London ", "../../etc/passwd", "Europe/\x00",
    "Europe/Lon\u00addon", "\U0001f68c", "A" * 65, "Europe/London" * 100, "posix/Europe/London",
    ["Europe/London", "Asia/Tokyo"],
])
def test_nonsense_time_zones_change_nothing(user_client, user, zone):
    response = user_client.post("/notifications/preferences/", {
        "digest": "on", "digest_hour": "8", "time_zone": zone})
    assert response.status_code == 400
    assert response.content.decode().strip()
    user.refresh_from_db()
    assert user.time_zone == ""
    assert not hasattr(user, "digest_setting") or not user.digest_setting.enabled


def test_odd_bytes_as_a_time_zone_are_refused(user_client, user):
    response = user_client.post(
        "/notifications/preferences/", b"digest_hour=8&time_zone=%FF%FE%00Asia%2FTokyo",
        content_type="application/x-www-form-urlencoded")
    assert response.status_code == 400
    user.refresh_from_db()
    assert user.time_zone == ""


def test_the_zone_is_checked_on_the_model_too(user):
    from django.core.exceptions import ValidationError

    user.time_zone = "Mars/Olympus_Mons"
    with pytest.raises(ValidationError):
        user.full_clean()
    user.time_zone = "Asia/Tokyo"
    user.full_clean()


def _zone_seen(user):
    from django.test import RequestFactory
    from django.utils import timezone

    from accounts.timezones import UserTimeZoneMiddleware

    seen = []

    def view(request):
        seen.append(timezone.get_current_timezone_name())
        from django.http import HttpResponse
        return HttpResponse("")

    request = RequestFactory().get("/")
    request.user = user
    UserTimeZoneMiddleware(view)(request)
    return seen[0], timezone.get_current_timezone_name()


def test_the_middleware_activates_the_players_zone(user):
    from django.conf import settings
    from django.contrib.auth.models import AnonymousUser

    user.time_zone = "Asia/Tokyo"
    assert _zone_seen(user) == ("Asia/Tokyo", "UTC")  # and put back after the request
    user.time_zone = ""
    assert _zone_seen(user) == ("UTC", "UTC")
    assert _zone_seen(AnonymousUser()) == ("UTC", "UTC")
    middleware = settings.MIDDLEWARE
    assert (middleware.index("django.contrib.auth.middleware.AuthenticationMiddleware")
            < middleware.index("accounts.timezones.UserTimeZoneMiddleware"))


def test_pages_show_clock_times_in_the_players_zone(client):
    """Through the whole stack: a replay's "finished 08:00" is the reader's clock."""
    from datetime import UTC, datetime

    from django.urls import reverse

    from games.models import Game
    from tests.factories import finished_game

    alice, bob = UserFactory(time_zone="Asia/Tokyo"), UserFactory()
    game = finished_game([alice, bob], bots=["random"])
    Game.objects.filter(pk=game.pk).update(finished_at=datetime(2026, 3, 1, 23, 5, tzinfo=UTC))
    url = reverse("stats:replay", args=[game.pk])
    client.force_login(alice)
    assert "08:05</time>" in client.get(url).content.decode()
    client.force_login(bob)
    assert "23:05</time>" in client.get(url).content.decode()


def test_the_test_button(user_client, user):
    response = user_client.post("/notifications/test/")
    assert response.status_code == 302
    assert Notification.objects.get(user=user).event == "test"


def test_mute_a_table_from_its_page(user_client, user):
    table = Table.objects.create(name="Fir", variant=preset_variant(), host=user, seats=4)
    html = user_client.get(f"/t/{table.pk}/").content.decode()
    assert "Mute notifications" in html
    user_client.post(f"/notifications/mute/{table.pk}/", {"muted": "on",
                                                          "next": f"/t/{table.pk}/"})
    assert TableMute.objects.filter(user=user, table=table).exists()
    assert "Unmute notifications" in user_client.get(f"/t/{table.pk}/").content.decode()
    assert user_client.post(f"/notifications/mute/{table.pk}/",
                            {"muted": "maybe"}).status_code == 400
    assert user_client.post("/notifications/mute/999999/", {"muted": "on"}).status_code == 404
    assert TableMute.objects.count() == 1


def test_a_private_table_cannot_be_muted_by_someone_who_may_not_open_it(client, user):
    """Muting a table lists its name on the settings page: a stranger to a private table
    is told there is no such table, and its name never reaches their page. The host's
    invitee (by link or by name) may mute it, and a mute made before may be turned off."""
    from games.models import Invitation

    host = UserFactory()
    table = Table.objects.create(name="Hidden oak", variant=preset_variant(), host=host,
                                 seats=4, private=True, allow_spectators=False)
    client.force_login(user)
    url = f"/notifications/mute/{table.pk}/"
    response = client.post(url, {"muted": "on"})
    assert response.status_code == 404
    assert not TableMute.objects.exists()
    assert "Hidden oak" not in client.get("/notifications/preferences/").content.decode()
    # with the invite link, as the table's page would have let them in
    session = client.session
    session["invites"] = [table.invite_code]
    session.save()
    assert client.post(url, {"muted": "on"}).status_code == 302
    assert TableMute.objects.filter(user=user, table=table).exists()
    # the link forgotten (a new session): what they muted they may still turn on again
    client.logout()
    client.force_login(user)
    assert client.post(url, {"muted": "off"}).status_code == 302
    # invited by name
    other = UserFactory()
    Invitation.objects.create(table=table, user=other, invited_by=host)
    client.force_login(other)
    assert client.post(url, {"muted": "on"}).status_code == 302


# -- push subscriptions --------------------------------------------------------------------------


def test_subscribe_and_unsubscribe(user_client, user):
    sub = a_subscription()
    with KEYS:
        assert post_json(user_client, "/notifications/push/subscribe/", sub).status_code == 200
        assert post_json(user_client, "/notifications/push/subscribe/", sub).status_code == 200
    assert PushSubscription.objects.get().user == user
    assert post_json(user_client, "/notifications/push/unsubscribe/", sub).status_code == 200
    assert not PushSubscription.objects.exists()


def test_without_keys_subscribing_says_so(user_client):
    response = post_json(user_client, "/notifications/push/subscribe/", a_subscription())
    assert response.status_code == 404 and "not set up" in response.json()["error"]


@pytest.mark.parametrize("bad", [
    b"not json", b"\xff\xfe", b"[]", json.dumps({"endpoint": "https://x.example/1"}),
    json.dumps(a_subscription(endpoint="http://push.example.net/1")),
    json.dumps(a_subscription(endpoint="javascript:alert(1)")),
    json.dumps(a_subscription(endpoint="https://user:pw@push.example.net/1")),
    json.dumps(a_subscription(endpoint="https://push.example.net/a b")),
    json.dumps(a_subscription(endpoint=12)),
    json.dumps(a_subscription(keys={"p256dh": "AAAA", "auth": b64url(b"0" * 16)})),
    json.dumps(a_subscription(keys={"p256dh": b64url(b"\x04" + b"\x01" * 64),
                                    "auth": b64url(b"0" * 16)})),  # not on the curve
    json.dumps(a_subscription(keys={"p256dh": a_subscription()["keys"]["p256dh"],
                                    "auth": "short"})),
    json.dumps(a_subscription(keys={"p256dh": "<script>", "auth": "x"})),
    json.dumps(a_subscription(keys="none")),
    json.dumps(a_subscription(endpoint="https://push.example.net/" + "a" * 5000)),
])
def test_bad_subscriptions_are_refused(user_client, bad):
    with KEYS:
        response = post_json(user_client, "/notifications/push/subscribe/", bad)
    assert response.status_code == 400
    assert response.json()["error"]
    assert not PushSubscription.objects.exists()


def test_a_huge_body_is_refused(user_client):
    sub = a_subscription()
    sub["padding"] = "x" * 10_000
    with KEYS:
        response = post_json(user_client, "/notifications/push/subscribe/", sub)
    assert response.status_code == 400 and "too large" in response.json()["error"]


# -- the installable app -------------------------------------------------------------------------


def test_the_manifest(client):
    response = client.get("/manifest.webmanifest")
    assert response["Content-Type"].startswith("application/manifest+json")
    data = json.loads(response.content)
    assert data["display"] == "standalone" and data["start_url"].startswith("/")
    assert data["name"] and data["short_name"] and data["theme_color"] and data["background_color"]
    sizes = {(icon["sizes"], icon["purpose"]) for icon in data["icons"]}
    assert {("192x192", "maskable"), ("512x512", "maskable"), ("192x192", "any"),
            ("512x512", "any")} <= sizes


def test_the_icons_are_real_pngs_of_their_size():
    import struct

    from django.conf import settings

    for name, size in (("icon-192", 192), ("icon-512", 512), ("maskable-192", 192),
                       ("maskable-512", 512)):
        data = (settings.BASE_DIR / "static" / "img" / "app" / f"{name}.png").read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n"
        assert struct.unpack(">II", data[16:24]) == (size, size)


def test_the_service_worker_is_served_from_the_root(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    body = response.content.decode()
    assert 'addEventListener("push"' in body and "notificationclick" in body


def test_the_offline_page(client):
    assert "You are offline" in client.get("/offline/").content.decode()


def test_pages_link_the_manifest_and_keep_the_csp(client):
    response = client.get("/")
    html = response.content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in html
    csp = response["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert "<script>" not in html  # only src= scripts


@pytest.mark.parametrize("url", ["/notifications/", "/notifications/preferences/", "/offline/"])
def test_the_pages_in_japanese(url):
    from django.test import Client

    from tests.test_i18n_site_pages import english_on_page

    user = UserFactory(language="ja")
    actions.do_notify(user, "game_over", params={"table": "Oak", "place": 1, "players": 3})
    actions.do_notify(user, "test")
    client = Client()
    client.force_login(user)
    with KEYS:
        html = client.get(url).content.decode()
    assert english_on_page(html, ["Oak", user.username]) == []


@pytest.mark.parametrize("target", ["abc", "notify:list", "https://evil.example/",
                                    "//evil.example/"])
def test_mute_follows_only_a_local_path(user_client, user, target):
    """A bare word was taken for a URL name (NoReverseMatch: a 500)."""
    table = Table.objects.create(name="Fir", variant=preset_variant(), host=user, seats=4)
    response = user_client.post(f"/notifications/mute/{table.pk}/", {"muted": "off",
                                                                      "next": target})
    assert response.status_code == 302
    assert response["Location"] == "/notifications/preferences/"
    response = user_client.post(f"/notifications/mute/{table.pk}/",
                                {"muted": "off", "next": f"/t/{table.pk}/"})
    assert response["Location"] == f"/t/{table.pk}/"


@pytest.mark.parametrize("table_id", [2 ** 63 - 1, 2 ** 63, 2 ** 64, 10 ** 30])
def test_muting_a_table_id_past_the_databases_integers_is_no_such_table(user_client, table_id):
    """An id of 2**63 or more raised OverflowError on SQLite (a 500)."""
    response = user_client.post(f"/notifications/mute/{table_id}/", {"muted": "off"})
    assert response.status_code == 404
    assert "There is no such table." in response.content.decode()
