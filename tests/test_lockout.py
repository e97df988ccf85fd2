"""Brute-force protection on the log-in form (django-axes)."""

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import get_user
from django.urls import reverse

from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

LOCKOUT_MESSAGE = b"Too many failed log-in attempts. Try again in 15 minutes"


def log_in(client, username, password, ip="203.0.113.7"):
    return client.post(
        reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=ip
    )


def fail_five_times(client, username, ip="203.0.113.7"):
    for attempt in range(1, 6):
        response = log_in(client, username, f"wrong-{attempt}", ip=ip)
        assert not get_user(client).is_authenticated
    return response


def test_four_failures_still_show_the_form(client, user):
    for attempt in range(4):
        response = log_in(client, user.username, f"wrong-{attempt}")
        assert response.status_code == 200
        assert b"Please enter a correct username and password" in response.content


def test_sixth_attempt_is_locked_out_even_with_the_right_password(client, user):
    fail_five_times(client, user.username)

    response = log_in(client, user.username, PASSWORD)

    assert response.status_code == 429
    assert LOCKOUT_MESSAGE in response.content
    assert b"<title>Too many attempts \xc2\xb7 Stop the Bus</title>" in response.content
    assert not get_user(client).is_authenticated


def test_fifth_failure_already_answers_with_the_lockout_page(client, user):
    response = fail_five_times(client, user.username)
    assert response.status_code == 429
    assert LOCKOUT_MESSAGE in response.content


def test_lockout_is_per_username_and_address(client, user):
    other = UserFactory()
    fail_five_times(client, user.username)

    # Another player on the same address is not locked out...
    assert log_in(client, other.username, PASSWORD).status_code == 302
    client.post(reverse("logout"))
    # ...nor is the same player from another address.
    assert log_in(client, user.username, PASSWORD, ip="198.51.100.20").status_code == 302
    assert get_user(client).pk == user.pk


def test_success_resets_the_count(client, user):
    for attempt in range(4):
        log_in(client, user.username, f"wrong-{attempt}")
    assert log_in(client, user.username, PASSWORD).status_code == 302
    client.post(reverse("logout"))
    assert not AccessAttempt.objects.filter(username=user.username).exists()

    for attempt in range(4):
        assert log_in(client, user.username, f"again-{attempt}").status_code == 200
    assert log_in(client, user.username, PASSWORD).status_code == 302
