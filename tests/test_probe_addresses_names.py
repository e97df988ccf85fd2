"""What a second attacker probe found: signed-out lobby sockets counted by the proxy's
address (one visitor could take every visitor's budget behind it), and table names or
usernames holding terminal escapes, invisible characters or nothing visible at all."""

from __future__ import annotations

import pytest
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import reverse

from accounts.client_address import limit_group, socket_client
from accounts.names import unreadable, username_problem
from games.models import Table
from stopbus_site.asgi import application
from tests.factories import UserFactory, preset_variant

ORIGIN = (b"origin", b"http://localhost")
PROXY = "127.0.0.1"


async def _lobby(forwarded_for: str | None, peer: str = PROXY):
    headers = [ORIGIN]
    if forwarded_for:
        headers.append((b"x-forwarded-for", forwarded_for.encode()))
    comm = WebsocketCommunicator(application, "/ws/lobby/", headers=headers)
    comm.scope["client"] = (peer, 40000)
    connected, code = await comm.connect(timeout=5)
    return comm, connected, code


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_signed_out_lobby_sockets_are_counted_per_visitor_behind_a_trusted_proxy(
        settings):
    settings.STOPBUS_TRUSTED_PROXIES = [PROXY]
    settings.STOPBUS_LOBBY_SOCKETS_PER_ADDRESS = 3
    mine = [await _lobby("203.0.113.66") for _ in range(3)]
    assert all(ok for _, ok, _ in mine)
    _, ok, code = await _lobby("203.0.113.66")
    assert not ok and code == 4429  # the same visitor, past the limit
    others = [await _lobby(address) for address in ("198.51.100.7", "192.0.2.99")]
    assert all(ok for _, ok, _ in others)  # other visitors behind the same proxy
    # a client's own left-hand entries change nothing: the proxy appended the real one
    _, ok, code = await _lobby("10.9.9.9, 203.0.113.66")
    assert not ok and code == 4429
    for comm, _, _ in mine + others:
        await comm.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_without_a_trusted_proxy_the_header_is_ignored(settings):
    settings.STOPBUS_TRUSTED_PROXIES = []
    settings.STOPBUS_LOBBY_SOCKETS_PER_ADDRESS = 2
    mine = [await _lobby(f"198.51.100.{n}", peer="192.0.2.5") for n in range(2)]
    assert all(ok for _, ok, _ in mine)
    _, ok, code = await _lobby("198.51.100.99", peer="192.0.2.5")  # a header of its own
    assert not ok and code == 4429
    for comm, _, _ in mine:
        await comm.disconnect()


def test_a_sockets_address_is_read_as_a_requests_is(settings):
    settings.STOPBUS_TRUSTED_PROXIES = [PROXY]
    scope = {"client": (PROXY, 1), "headers": [(b"X-Forwarded-For", b"1.2.3.4, 5.6.7.8")]}
    assert socket_client(scope) == "5.6.7.8"
    assert socket_client({"client": ("9.9.9.9", 1), "headers": scope["headers"]}) == "9.9.9.9"
    assert socket_client({}) == ""


def test_an_ipv6_visitor_is_counted_by_their_64():
    assert limit_group("2001:db8:1:2:aaaa::1") == limit_group("2001:db8:1:2:bbbb::9")
    assert limit_group("2001:db8:1:2::1") == "2001:db8:1:2::/64"
    assert limit_group("2001:db8:1:3::1") != limit_group("2001:db8:1:2::1")
    assert limit_group("::ffff:192.0.2.1") == "192.0.2.1"
    assert limit_group("192.0.2.1") == "192.0.2.1"
    assert limit_group("not an address") == "not an address"


BAD_NAMES = ["a\x07\x1b[31mb", "a\u200bb", "line\u2028break", "x\ufeff", "\u3164\u3164",
             "a\tb\nc", "\u2800", "\u200d", "a \u200db"]
GOOD_NAMES = ["Friday night", "金曜の夜", "\U0001f468\u200d\U0001f469\u200d\U0001f467 family",
              "Tom & Jerry", "Cafe\u0301"]


@pytest.mark.parametrize("name", BAD_NAMES)
def test_unreadable_text_is_found(name):
    assert unreadable(name)


@pytest.mark.parametrize("name", GOOD_NAMES)
def test_readable_names_pass(name):
    assert not unreadable(name)


@pytest.mark.django_db
@pytest.mark.parametrize("name", BAD_NAMES)
def test_a_table_name_with_control_or_invisible_characters_is_refused(name):
    user = UserFactory(username="dave")
    client = Client()
    client.force_login(user)
    variant = preset_variant()
    response = client.post(reverse("games:create_table"),
                           {"name": name, "variant": variant.pk, "seats": 4})
    assert response.status_code in (200, 400)
    assert not Table.objects.exists()
    if response.status_code == 200:
        assert "control characters or invisible ones" in response.content.decode()


@pytest.mark.django_db
def test_a_table_name_with_an_emoji_sequence_is_taken():
    user = UserFactory(username="dave")
    client = Client()
    client.force_login(user)
    response = client.post(reverse("games:create_table"),
                           {"name": GOOD_NAMES[2], "variant": preset_variant().pk, "seats": 4})
    assert response.status_code == 302
    assert Table.objects.get().name == GOOD_NAMES[2]


@pytest.mark.parametrize("name", ["\u3164\u3164", "ab\u200bc"])
def test_a_username_that_looks_blank_or_hides_characters_is_refused(name):
    assert "invisible" in username_problem(name, [])
