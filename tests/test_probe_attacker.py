"""What an attacker's probe of a private copy of the site found: each a 500 on input a
client chose, now a clear answer that changes nothing."""

from __future__ import annotations

import json

import pytest
from django.test import override_settings

from notify.keys import b64url, new_vapid_pair
from notify.models import PushSubscription

pytestmark = pytest.mark.django_db

PRIVATE, PUBLIC = new_vapid_pair()


def _keys():
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    point = ec.generate_private_key(ec.SECP256R1()).public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return {"p256dh": b64url(point), "auth": b64url(b"0" * 16)}


# -- /turns/next/?from=: "²" is a digit to str.isdigit() but not to int() -----------------------


@pytest.mark.parametrize("leaving", ["²", "١٢", "9" * 5000, "-3", "1e3", " 7"])
def test_next_table_reads_only_a_table_id_from_the_query(user_client, leaving):
    response = user_client.get("/turns/next/", {"from": leaving})
    assert response.status_code == 302
    assert response["Location"] == "/turns/"


# -- a push endpoint with a bracket that opens no IPv6 address -----------------------------------


@pytest.mark.parametrize("endpoint", ["https://[x", "https://[::1/push", "https://push]x/"])
@pytest.mark.parametrize("path", ["/notifications/push/subscribe/",
                                  "/notifications/push/unsubscribe/"])
def test_a_malformed_push_endpoint_is_refused_not_a_500(user_client, user, endpoint, path):
    PushSubscription.objects.create(user=user, endpoint="https://fcm.googleapis.com/fcm/send/a",
                                    **_keys())
    with override_settings(VAPID_PRIVATE_KEY=PRIVATE, VAPID_PUBLIC_KEY=PUBLIC):
        response = user_client.post(path, json.dumps({"endpoint": endpoint, "keys": _keys()}),
                                    content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"] == "A push endpoint must be an https address."
    assert PushSubscription.objects.count() == 1  # nothing added, nothing removed
