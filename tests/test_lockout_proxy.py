"""The log-in lockout counts the address the client cannot choose.

The probe sent a different X-Forwarded-For with each attempt and was never
locked out: the README ran daphne with ``--proxy-headers``, which takes the
header's first entry. These tests run the README's own deployment: the daphne
flags and STOPBUS_TRUSTED_PROXIES are read from it, and REMOTE_ADDR is what
daphne (with those flags, through its own parser) would hand Django.
"""

import re
import shlex
from pathlib import Path

import pytest
from daphne.utils import parse_x_forwarded_for
from django.urls import reverse

from accounts.client_address import client_address
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

README = (Path(__file__).resolve().parent.parent / "README.md").read_text()
NGINX = "127.0.0.1"  # the proxy in the README, on the same machine as daphne


def readme_daphne_flags() -> set[str]:
    lines = [line for line in README.splitlines() if line.startswith(".venv/bin/daphne ")]
    assert lines, "the README no longer shows how daphne is started"
    return {word for line in lines for word in shlex.split(line) if word.startswith("--")}


def readme_trusted_proxies() -> list[str]:
    found = re.search(r"^export STOPBUS_TRUSTED_PROXIES=(\S+)", README, re.MULTILINE)
    return found.group(1).split(",") if found else []


def remote_addr(peer: str, forwarded_for: str) -> str:
    """REMOTE_ADDR as daphne, started as the README says, sets it for this request."""
    if "--proxy-headers" in readme_daphne_flags():
        headers = {b"x-forwarded-for": [forwarded_for.encode()]}
        return parse_x_forwarded_for(headers, original_addr=[peer, 40000])[0]
    return peer


def attempt(client, username, password, peer, forwarded_for):
    return client.post(reverse("login"), {"username": username, "password": password},
                       REMOTE_ADDR=remote_addr(peer, forwarded_for),
                       HTTP_X_FORWARDED_FOR=forwarded_for).status_code


def test_twenty_attempts_straight_to_daphne_with_a_new_header_each_time_are_locked_out(
        client, settings):
    settings.STOPBUS_TRUSTED_PROXIES = []  # nothing in front: the header means nothing
    user = UserFactory()
    statuses = [attempt(client, user.username, f"wrong-{i}", "203.0.113.9",
                        f"10.{i}.{i}.1") for i in range(20)]
    assert statuses == [200] * 4 + [429] * 16
    assert attempt(client, user.username, PASSWORD, "203.0.113.9", "10.99.0.1") == 429


def test_twenty_attempts_through_the_proxy_with_a_new_header_each_time_are_locked_out(
        client, settings):
    settings.STOPBUS_TRUSTED_PROXIES = readme_trusted_proxies()
    assert NGINX in settings.STOPBUS_TRUSTED_PROXIES, "the README must trust its nginx"
    user = UserFactory()
    # the client's own header, then the address nginx appends ($proxy_add_x_forwarded_for)
    statuses = [attempt(client, user.username, f"wrong-{i}", NGINX,
                        f"10.{i}.{i}.1, 198.51.100.7") for i in range(20)]
    assert statuses == [200] * 4 + [429] * 16
    # another player behind the same proxy is a different address, and not locked out
    assert attempt(client, user.username, PASSWORD, NGINX, "10.0.0.1, 198.51.100.8") == 302


def test_a_header_from_a_peer_that_is_not_a_trusted_proxy_is_ignored(settings):
    settings.STOPBUS_TRUSTED_PROXIES = ["127.0.0.1", "10.0.0.0/8"]
    assert client_address("203.0.113.9", "198.51.100.1") == "203.0.113.9"
    assert client_address("127.0.0.1", "198.51.100.1") == "198.51.100.1"
    # right to left past our own proxies, never the client's left-hand entries
    assert client_address("127.0.0.1", "1.2.3.4, 198.51.100.1, 10.1.2.3") == "198.51.100.1"
    assert client_address("127.0.0.1", "") == "127.0.0.1"
    assert client_address("127.0.0.1", "198.51.100.1, not-an-address") == "127.0.0.1"
    settings.STOPBUS_TRUSTED_PROXIES = []
    assert client_address("127.0.0.1", "198.51.100.1") == "127.0.0.1"
