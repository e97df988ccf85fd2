"""Mail limits (an outside probe sent 25 "signup_taken" mails to one address, 25
confirmation mails from one client, and 40 mails to one address through password resets
and address changes): at most a few account mails an hour to an address, and a limit on
sign-ups and resets from one client address. Past the address's limit the page says what
it always says (nothing tells whether the address has an account); past the client's,
it says to try again later."""

import re

import pytest
from django.test import Client, override_settings
from django.urls import reverse

from accounts.models import User
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

SIGNUP_URL = reverse("accounts:signup")
TO_AN_ADDRESS = 3
FROM_AN_IP = 10


def signup_data(n, email):
    return {"username": f"newcomer{n}", "email": email,
            "password1": "stop-the-bus-2024!", "password2": "stop-the-bus-2024!"}


def from_ip(n):
    return Client(REMOTE_ADDR=f"10.1.{n // 250}.{n % 250 + 1}")


def page(response, email):
    html = response.content.decode().replace(email, "EMAIL")
    html = re.sub(r"newcomer\d+", "NAME", html)
    return response.status_code, re.sub(r"\b[A-Za-z0-9]{64}\b", "CSRF-TOKEN", html)


def test_sign_ups_with_a_registered_address_mail_its_owner_a_few_times_only(mailoutbox):
    owner = UserFactory(email="owner@example.com")
    answers = set()
    for n in range(25):
        client = from_ip(n)
        response = client.post(SIGNUP_URL, signup_data(n, "OWNER@example.com"), follow=True)
        answers.add(page(response, "OWNER@example.com"))
    assert len(answers) == 1  # the same page every time, past the limit too
    assert [m.to for m in mailoutbox] == [[owner.email]] * TO_AN_ADDRESS


def test_past_the_limit_a_registered_and_a_fresh_address_still_look_the_same(mailoutbox):
    UserFactory(email="owner@example.com")
    registered, fresh = set(), set()
    for n in range(6):
        registered.add(page(from_ip(n).post(SIGNUP_URL, signup_data(n, "owner@example.com"),
                                            follow=True), "owner@example.com"))
        fresh.add(page(from_ip(100 + n).post(SIGNUP_URL, signup_data(n, "fresh@example.com"),
                                             follow=True), "fresh@example.com"))
    assert registered == fresh and len(registered) == 1
    assert len(mailoutbox) == 2 * TO_AN_ADDRESS
    assert User.objects.count() == 1


def test_sign_ups_from_one_client_are_limited_with_a_message(mailoutbox):
    client = Client(REMOTE_ADDR="203.0.113.9")
    for n in range(25):
        response = client.post(SIGNUP_URL, signup_data(n, f"fresh{n}@example.com"))
        if n < FROM_AN_IP:
            assert response.status_code == 302
        else:
            assert response.status_code == 429  # the form again, saying why
            assert "too many sign-ups from your network" in response.content.decode()
    assert len(mailoutbox) == FROM_AN_IP
    # another client is not held up
    assert Client(REMOTE_ADDR="203.0.113.10").post(
        SIGNUP_URL, signup_data(99, "other@example.com")).status_code == 302
    assert len(mailoutbox) == FROM_AN_IP + 1


def test_resets_and_address_changes_to_one_address_mail_it_a_few_times_only(mailoutbox):
    victim = UserFactory(email="victim@example.com")
    for n in range(20):
        response = from_ip(n).post(reverse("password_reset"), {"email": victim.email})
        assert response.status_code == 302 and response.url == reverse("password_reset_done")
    for n in range(20):
        client = from_ip(100 + n)
        client.force_login(UserFactory())
        response = client.post(reverse("accounts:profile"), {"email": "VICTIM@example.com"},
                               follow=True)
        assert b"We have sent a link to VICTIM@example.com" in response.content
    assert [m.to for m in mailoutbox] == [[victim.email]] * TO_AN_ADDRESS


def test_address_changes_to_a_fresh_address_are_limited_too(mailoutbox):
    for n in range(10):
        client = from_ip(n)
        client.force_login(UserFactory())
        client.post(reverse("accounts:profile"), {"email": "fresh@example.com"})
    assert len(mailoutbox) == TO_AN_ADDRESS


def test_password_resets_from_one_client_are_limited_with_a_message(mailoutbox):
    users = [UserFactory(email=f"player{n}@example.com") for n in range(15)]
    client = Client(REMOTE_ADDR="203.0.113.9")
    for n, user in enumerate(users):
        response = client.post(reverse("password_reset"), {"email": user.email}, follow=True)
        said = "too many password reset requests" in response.content.decode()
        assert said == (n >= FROM_AN_IP)
    assert len(mailoutbox) == FROM_AN_IP


def test_password_resets_for_unknown_addresses_count_for_the_client_too(mailoutbox):
    """Otherwise the message would come sooner or later depending on which addresses
    have accounts."""
    user = UserFactory(email="known@example.com")
    client = Client(REMOTE_ADDR="203.0.113.9")
    for n in range(FROM_AN_IP):
        client.post(reverse("password_reset"), {"email": f"nobody{n}@example.com"})
    response = client.post(reverse("password_reset"), {"email": user.email}, follow=True)
    assert "too many password reset requests" in response.content.decode()
    assert mailoutbox == []


def test_one_account_changing_its_address_over_and_over_is_told_to_wait(mailoutbox):
    client = Client()
    client.force_login(UserFactory())
    for n in range(8):
        response = client.post(reverse("accounts:profile"), {"email": f"new{n}@example.com"})
        if n < 5:
            assert response.status_code == 302
        else:
            assert response.status_code == 429
            assert "too many times" in response.content.decode()
    assert len(mailoutbox) == 5


def test_the_limits_are_settings(mailoutbox):
    UserFactory(email="owner@example.com")
    with override_settings(STOPBUS_MAILS_TO_AN_ADDRESS=1, STOPBUS_MAIL_REQUESTS_FROM_AN_IP=2):
        client = Client(REMOTE_ADDR="203.0.113.9")
        for n in range(3):
            client.post(SIGNUP_URL, signup_data(n, "owner@example.com"))
    assert len(mailoutbox) == 1


def test_normal_use_still_mails(client, mailoutbox):
    """A sign-up, a second try, and a password reset a little later: all sent."""
    client.post(SIGNUP_URL, signup_data(1, "new@example.com"))
    client.post(SIGNUP_URL, signup_data(1, "new@example.com"))
    user = UserFactory(email="player@example.com")
    client.post(reverse("password_reset"), {"email": user.email})
    assert [m.to for m in mailoutbox] == [["new@example.com"]] * 2 + [[user.email]]
