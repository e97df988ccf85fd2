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


# -- a form posted where a JSON body is read ------------------------------------------------------


@pytest.mark.parametrize("path", ["/notifications/push/subscribe/",
                                  "/notifications/push/unsubscribe/"])
@pytest.mark.parametrize("encoding", ["multipart", "urlencoded"])
def test_a_form_posted_to_a_push_endpoint_is_refused_not_a_500(user_client, user, path,
                                                               encoding):
    """The middleware reads a form's fields to refuse NULs; a multipart body read that way
    could not be read again as the view's JSON (RawPostDataException)."""
    PushSubscription.objects.create(user=user, endpoint="https://fcm.googleapis.com/fcm/send/a",
                                    **_keys())
    form = {"endpoint": "https://fcm.googleapis.com/fcm/send/a"}
    with override_settings(VAPID_PRIVATE_KEY=PRIVATE, VAPID_PUBLIC_KEY=PUBLIC):
        if encoding == "multipart":
            response = user_client.post(path, form)
        else:
            response = user_client.post(path, "endpoint=https%3A%2F%2Ffcm.googleapis.com",
                                        content_type="application/x-www-form-urlencoded")
    assert response.status_code == 400
    assert response.json()["error"]
    assert PushSubscription.objects.count() == 1


# -- more query fields than Django reads ----------------------------------------------------------


@pytest.mark.parametrize("debug", [False, True])
@pytest.mark.parametrize("path", ["/", "/rules/", "/accounts/login/"])
def test_a_query_string_of_too_many_fields_is_a_400(client, settings, debug, path):
    """1,200 fields (Django reads 1,000): a 400, also with DEBUG on (as ``make run`` has
    it), where Django's error page read the query again and answered 500."""
    settings.DEBUG = debug
    client.raise_request_exception = False
    response = client.get(path + "?" + "&".join(["b=1"] * 1200))
    assert response.status_code == 400
