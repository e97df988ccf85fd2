"""Push subscriptions go only to the browsers' own push services (an outside probe
subscribed https://127.0.0.1:8163/internal/admin, and the test button then made the
server connect there): refused when subscribing, checked again when sending, and a
push service's redirect is not followed."""

from __future__ import annotations

import json
import threading
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
import requests
from django.test import override_settings
from django.utils import timezone

from notify import actions
from notify.forms import Invalid, parse_subscription
from notify.keys import b64url, new_vapid_pair
from notify.models import Delivery, PushSubscription
from tests.fake_push import FakePushService

pytestmark = pytest.mark.django_db
PRIVATE, PUBLIC = new_vapid_pair()
KEYS = override_settings(VAPID_PRIVATE_KEY=PRIVATE, VAPID_PUBLIC_KEY=PUBLIC,
                         NOTIFY_PUSH_TIMEOUT=1.0)


def keys():
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    point = ec.generate_private_key(ec.SECP256R1()).public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return {"p256dh": b64url(point), "auth": b64url(b"0" * 16)}


def subscribe(client, endpoint):
    return client.post("/notifications/push/subscribe/",
                       json.dumps({"endpoint": endpoint, "keys": keys()}),
                       content_type="application/json")


@pytest.fixture
def outbound(monkeypatch):
    """Every HTTP request the site makes (none goes out: each is refused here)."""
    made = []

    def send(self, request, **kwargs):
        made.append(request.url)
        raise requests.ConnectionError("no network in this test")

    monkeypatch.setattr(requests.adapters.HTTPAdapter, "send", send)
    return made


def run_due() -> None:
    actions.do_run_deliveries(actions.do_claim_due_deliveries(
        100, now=timezone.now() + timedelta(seconds=60)))


REFUSED = [
    "https://127.0.0.1:8163/internal/admin",
    "https://127.0.0.1/x",
    "https://10.0.0.7/x",
    "https://169.254.169.254/latest/meta-data/",
    "https://[::1]/x",
    "https://2130706433/x",
    "https://localhost/x",
    "https://intranet.example/x",
    "https://fcm.googleapis.com.evil.example/x",
    "https://evil.example/fcm.googleapis.com/x",
    "https://fcm.googleapis.com:8443/fcm/send/x",
    "https://fcm.googleapis.com:0/fcm/send/x",
    "https://user@fcm.googleapis.com/fcm/send/x",
    "https://@fcm.googleapis.com/fcm/send/x",
    "https://evil.example\\@fcm.googleapis.com/x",
    "https://fcm.googleapis.com./fcm/send/x",
    "https://push.apple.com/x",  # only its subdomains
    "https://evilpush.apple.com/x",
    "https://a_b.notify.windows.com/x",
    "http://fcm.googleapis.com/fcm/send/x",
    "ftp://fcm.googleapis.com/x",
]

ACCEPTED = [
    "https://fcm.googleapis.com/fcm/send/dWm3W4Vf:APA91bH",
    "https://fcm.googleapis.com/wp/dWm3W4Vf:APA91bH",
    "https://fcm.googleapis.com:443/fcm/send/x",
    "https://updates.push.services.mozilla.com/wpush/v2/gAAAAABk",
    "https://web.push.apple.com/QGuQyavXutnMfpZ7",
    "https://wns2-par02p.notify.windows.com/w/?token=BQYAAAD",
]


@pytest.mark.parametrize("endpoint", REFUSED)
def test_an_endpoint_off_the_push_services_is_refused_and_nothing_kept(user_client, endpoint):
    with KEYS:
        response = subscribe(user_client, endpoint)
    assert response.status_code == 400
    assert response.json()["error"]
    assert not PushSubscription.objects.exists()


def test_the_refusal_says_why(user_client):
    with KEYS:
        response = subscribe(user_client, "https://127.0.0.1:8163/internal/admin")
    assert "push service" in response.json()["error"]


@pytest.mark.parametrize("endpoint", ACCEPTED)
def test_the_browsers_push_services_are_accepted(user_client, user, endpoint):
    with KEYS:
        assert subscribe(user_client, endpoint).status_code == 200
    assert PushSubscription.objects.get().endpoint == endpoint


def test_the_push_services_are_a_setting(user_client):
    with KEYS, override_settings(STOPBUS_PUSH_HOSTS=["push.example.net", "*.push.example.org"]):
        assert subscribe(user_client, "https://push.example.net/1").status_code == 200
        assert subscribe(user_client, "https://eu.push.example.org/1").status_code == 200
        assert subscribe(user_client, "https://fcm.googleapis.com/fcm/send/1").status_code == 400
    assert PushSubscription.objects.count() == 2


def test_unsubscribing_an_old_endpoint_still_works(user_client, user):
    endpoint = "https://127.0.0.1:8163/internal/admin"
    PushSubscription.objects.create(user=user, endpoint=endpoint, **keys())
    response = user_client.post("/notifications/push/unsubscribe/",
                                json.dumps({"endpoint": endpoint, "keys": keys()}),
                                content_type="application/json")
    assert response.status_code == 200
    assert not PushSubscription.objects.exists()


def test_the_probe_subscribe_then_test_button_connects_nowhere(user_client, outbound):
    with KEYS:
        assert subscribe(user_client, "https://127.0.0.1:8163/internal/admin").status_code == 400
        assert user_client.post("/notifications/test/").status_code == 302
        run_due()
    assert outbound == []


def test_an_endpoint_stored_before_the_check_is_never_sent_to(user, outbound):
    """Rows kept before endpoints were checked: checked again when sending, and dropped."""
    PushSubscription.objects.create(user=user, endpoint="https://127.0.0.1:8163/internal/admin",
                                    **keys())
    with KEYS:
        actions.do_notify(user, "invited", params={"table": "Elm"})
        assert Delivery.objects.filter(kind=Delivery.Kind.PUSH).exists()
        run_due()
    assert outbound == []
    assert not PushSubscription.objects.exists()
    assert not Delivery.objects.filter(kind=Delivery.Kind.PUSH, done_at__isnull=True).exists()


def test_the_send_itself_refuses_an_endpoint_off_the_push_services(outbound):
    from notify import push

    with KEYS:
        sent = push.send({"endpoint": "https://127.0.0.1:8163/x", "keys": keys()}, {"title": "x"})
    assert not sent.ok and not sent.retry
    assert outbound == []


class _Recorder(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_POST(self):  # noqa: N802 (http.server's name)
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.server.hits.append(self.path)
        self.send_response(201)
        self.send_header("Content-Length", "0")
        self.end_headers()


def test_a_redirect_from_the_push_service_is_not_followed(user):
    inside = ThreadingHTTPServer(("127.0.0.1", 0), _Recorder)
    inside.hits = []
    threading.Thread(target=inside.serve_forever, daemon=True).start()
    service = FakePushService().start()
    target = f"http://localhost:{inside.server_address[1]}/internal/admin"

    def redirect(request, body):
        request.send_response(307)
        request.send_header("Location", target)
        request.send_header("Content-Length", "0")
        request.end_headers()

    service.handle = redirect
    try:
        sub = service.subscribe()
        actions.do_subscribe(user, sub.endpoint, sub.p256dh, sub.auth_b64)
        with KEYS, override_settings(NOTIFY_PLAIN_HTTP_PUSH_HOSTS=["127.0.0.1"]):
            actions.do_notify(user, "invited", params={"table": "Elm"})
            run_due()
    finally:
        service.stop()
        inside.shutdown()
        inside.server_close()
    assert inside.hits == []
    delivery = Delivery.objects.get(kind=Delivery.Kind.PUSH)
    assert not delivery.result.startswith("sent")


@pytest.mark.parametrize("endpoint", REFUSED)
def test_parse_subscription_refuses(endpoint):
    with pytest.raises(Invalid):
        parse_subscription(json.dumps({"endpoint": endpoint, "keys": keys()}).encode())
