"""The security checklist in one place: one small test per promise.

Some of these are also tested where the feature lives (test_settings,
test_lockout, test_consumers); here they are the list a reviewer reads.
"""

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.tokens import default_token_generator
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from games import actions
from games.frames import MAX_FRAME
from games.models import Game, Table
from stopbus_site.asgi import application
from tests.factories import PASSWORD, UserFactory, preset_variant

ROOT = Path(__file__).resolve().parent.parent
ORIGIN = (b"origin", b"http://localhost")


# -- deployment --------------------------------------------------------------------------------


def test_check_deploy_is_clean_in_production():
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("STOPBUS_", "DATABASE_", "REDIS_", "SECURE_", "DEBUG"))}
    env.update(STOPBUS_ENV="production", SECRET_KEY=secrets.token_urlsafe(50),
               ALLOWED_HOSTS="cards.example.com", DJANGO_SETTINGS_MODULE="stopbus_site.settings")
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


# -- CSRF ----------------------------------------------------------------------------------------


def _all_views(resolver=None):
    resolver = resolver or get_resolver()
    for entry in resolver.url_patterns:
        if isinstance(entry, URLResolver):
            yield from _all_views(entry)
        elif isinstance(entry, URLPattern):
            yield entry.lookup_str, entry.callback


def test_no_view_is_exempt_from_csrf():
    exempt = [name for name, view in _all_views() if getattr(view, "csrf_exempt", False)]
    assert exempt == []


@pytest.fixture
def table_setup(db):
    host, other = UserFactory(), UserFactory()
    table = actions.do_create_table(host, name="Guarded", variant=preset_variant(), seats=3)
    actions.do_add_bot(table, host, "random")
    return table, host, other


def _signed_in(user):
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    return client


def _table_posts(table):
    pk = table.pk
    return [
        (reverse("games:create_table"), {"name": "x", "variant": table.variant_id,
                                         "seats": 2}),
        (reverse("games:join", args=[pk]), {}),
        (reverse("games:leave", args=[pk]), {}),
        (reverse("games:add_bot", args=[pk]), {"level": "random"}),
        (reverse("games:remove_bot", args=[pk, 1]), {}),
        (reverse("games:start", args=[pk]), {}),
        (reverse("games:play_again", args=[pk]), {}),
        (reverse("games:spectators", args=[pk]), {"allow": "off"}),
        (reverse("accounts:profile"), {"email": "new@example.com"}),
        (reverse("logout"), {}),
        (reverse("password_change"), {"old_password": PASSWORD, "new_password1": "x" * 20,
                                      "new_password2": "x" * 20}),
    ]


def test_every_form_of_a_signed_in_user_needs_the_csrf_token(table_setup):
    table, host, _ = table_setup
    before = Table.objects.filter(pk=table.pk).values().get()
    for url, data in _table_posts(table):
        response = _signed_in(host).post(url, data)
        assert response.status_code == 403, url
    assert Table.objects.filter(pk=table.pk).values().get() == before
    assert table.seat_set.count() == 2  # no bot added, none removed


def test_the_same_post_with_the_token_goes_through(table_setup):
    """The control: the 403s above are CSRF, not something else refusing."""
    table, _, other = table_setup
    client = _signed_in(other)
    client.get(reverse("games:table", args=[table.pk]))
    token = client.cookies["csrftoken"].value
    response = client.post(reverse("games:join", args=[table.pk]),
                           {"csrfmiddlewaretoken": token})
    assert response.status_code == 302
    assert table.seat_set.filter(user=other).exists()


def test_anonymous_forms_need_the_csrf_token(db):
    user = UserFactory()
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    posts = [
        (reverse("login"), {"username": user.username, "password": PASSWORD}),
        (reverse("accounts:signup"), {"username": "newbie", "email": "n@example.com",
                                      "password1": "a-Long-passw0rd", "password2":
                                          "a-Long-passw0rd"}),
        (reverse("password_reset"), {"email": user.email}),
        (reverse("password_reset_confirm", args=[uid, "set-password"]),
         {"new_password1": "x" * 20, "new_password2": "x" * 20}),
        (reverse("password_reset_confirm", args=[uid, default_token_generator.make_token(user)]),
         {"new_password1": "x" * 20, "new_password2": "x" * 20}),
        (reverse("admin:login"), {"username": user.username, "password": PASSWORD}),
    ]
    for url, data in posts:
        assert Client(enforce_csrf_checks=True).post(url, data).status_code == 403, url
    user.refresh_from_db()
    assert user.check_password(PASSWORD)


# -- admin and log-in ----------------------------------------------------------------------------


def test_admin_is_for_staff_only(db):
    player, staff = UserFactory(), UserFactory(is_staff=True)
    client = Client()
    client.force_login(player)
    response = client.get("/admin/")
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("admin:login"))
    assert client.get("/admin/games/variant/").status_code == 302
    client.force_login(staff)
    assert client.get("/admin/").status_code == 200


def test_five_failed_logins_lock_the_account_out(db):
    user = UserFactory()
    client = Client()
    statuses = [client.post(reverse("login"), {"username": user.username,
                                               "password": f"wrong-{i}"},
                            REMOTE_ADDR="203.0.113.9").status_code for i in range(5)]
    assert statuses == [200, 200, 200, 200, 429]
    right = client.post(reverse("login"), {"username": user.username, "password": PASSWORD},
                        REMOTE_ADDR="203.0.113.9")
    assert right.status_code == 429


# -- the table's websocket -----------------------------------------------------------------------


def _cookie(user):
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}".encode()


async def _connect(user, table_id, origin=ORIGIN):
    headers = [origin] if origin else []
    if user is not None:
        headers.append((b"cookie", await sync_to_async(_cookie)(user)))
    comm = WebsocketCommunicator(application, f"/ws/table/{table_id}/", headers=headers)
    connected, code = await comm.connect(timeout=5)
    return comm, connected, code


async def _frames(comm, timeout=3):
    frames = [await comm.receive_from(timeout=timeout)]
    while not await comm.receive_nothing(timeout=0.2):
        frames.append(await comm.receive_from(timeout=timeout))
    return frames


def _two_player_game():
    alice, bob, carol = UserFactory(), UserFactory(), UserFactory()
    table = actions.do_create_table(alice, name="Sockets", variant=preset_variant(), seats=2)
    actions.do_join_table(table, bob)
    return table, table.current_game(), alice, bob, carol


def _game_row(game_id):
    game = Game.objects.get(pk=game_id)
    return game.version, game.state




@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("origin", [b"http://evil.example", b"http://localhost.evil.example",
                                    b"null", None])
async def test_a_socket_from_another_origin_is_refused(origin):
    table, game, alice, bob, _ = await sync_to_async(_two_player_game)()
    comm, connected, _ = await _connect(alice, table.pk,
                                        origin=(b"origin", origin) if origin else None)
    assert not connected
    comm, connected, _ = await _connect(alice, table.pk)  # the control: our own origin
    assert connected
    await comm.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_anonymous_cannot_connect():
    table, *_ = await sync_to_async(_two_player_game)()
    _, connected, code = await _connect(None, table.pk)
    assert not connected and code == 4401


@pytest.mark.django_db(transaction=True)
async def test_a_spectator_cannot_act_and_nothing_changes():
    table, game, alice, bob, carol = await sync_to_async(_two_player_game)()
    before = await sync_to_async(_game_row)(game.pk)
    state = await sync_to_async(lambda: actions.state_of(Game.objects.get(pk=game.pk)))()
    comm, connected, _ = await _connect(carol, table.pk)
    assert connected
    await _frames(comm)
    legal = {"kind": "stop", "version": state.version}
    for frame in (legal, {**legal, "seat": state.turn}, {"kind": "ready"}):
        await comm.send_to(text_data=json.dumps(frame))
        replies = await _frames(comm)
        assert any('class="notice notice--error"' in r for r in replies), frame
    assert await sync_to_async(_game_row)(game.pk) == before
    await comm.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_player_who_left_cannot_act_any_more():
    table, game, alice, bob, _ = await sync_to_async(_two_player_game)()
    state = await sync_to_async(lambda: actions.state_of(Game.objects.get(pk=game.pk)))()
    leaver = alice if state.turn == 0 else bob
    await sync_to_async(actions.do_leave_table)(table, leaver)
    before = await sync_to_async(_game_row)(game.pk)
    comm, connected, _ = await _connect(leaver, table.pk)
    assert connected  # players of a game may still watch it
    await _frames(comm)
    await comm.send_to(text_data=json.dumps({"kind": "stop", "version": state.version}))
    assert any("only its players can play" in r for r in await _frames(comm))
    assert await sync_to_async(_game_row)(game.pk) == before
    await comm.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_frames_over_the_size_limit_are_refused():
    table, game, alice, *_ = await sync_to_async(_two_player_game)()
    comm, _, _ = await _connect(alice, table.pk)
    await _frames(comm)
    at_limit = json.dumps({"kind": "sync", "pad": "x" * (MAX_FRAME - 30)})
    at_limit = at_limit[:-2] + "x" * (MAX_FRAME - len(at_limit)) + at_limit[-2:]
    assert len(at_limit) == MAX_FRAME
    await comm.send_to(text_data=at_limit)
    assert not any("too large" in r for r in await _frames(comm))
    await comm.send_to(text_data=at_limit[:-2] + "x" + at_limit[-2:])
    assert any("too large" in r for r in await _frames(comm))
    await comm.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_each_connection_is_rate_limited(settings):
    settings.STOPBUS_WS_BURST = 4
    settings.STOPBUS_WS_RATE = 0.01
    table, game, alice, *_ = await sync_to_async(_two_player_game)()
    comm, _, _ = await _connect(alice, table.pk)
    await _frames(comm)
    for _ in range(8):
        await comm.send_to(text_data=json.dumps({"kind": "sync"}))
    replies = await _frames(comm)
    assert sum("sending messages too fast" in r for r in replies) == 4
    # a second connection has its own bucket
    other, _, _ = await _connect(alice, table.pk)
    await _frames(other)
    await other.send_to(text_data=json.dumps({"kind": "sync"}))
    assert not any("too fast" in r for r in await _frames(other))
    await comm.disconnect()
    await other.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_chat_is_limited_per_user_per_minute(settings):
    settings.STOPBUS_CHAT_PER_MINUTE = 2
    table, game, alice, *_ = await sync_to_async(_two_player_game)()
    comm, _, _ = await _connect(alice, table.pk)
    await _frames(comm)
    replies = []
    for i in range(3):
        await comm.send_to(text_data=json.dumps({"kind": "chat", "text": f"hello {i}"}))
        replies.extend(await _frames(comm))
    assert sum("chatting too fast" in r for r in replies) == 1
    await comm.disconnect()


@pytest.mark.django_db
@pytest.mark.parametrize("change", ["none", "logout", "expired", "password", "deactivated",
                                    "another user's session"])
def test_a_sockets_session_is_checked_in_one_query(change, django_assert_num_queries):
    """Every action a socket takes first asks whether its session still holds: the
    user's row and the session's data in one query, and each way a sign-in ends says no."""
    from datetime import timedelta

    from django.contrib.auth.models import AnonymousUser
    from django.contrib.sessions.models import Session
    from django.test import Client
    from django.urls import reverse
    from django.utils import timezone

    from games.consumers import session_is_valid

    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    client = Client()
    client.force_login(alice)
    session = client.session
    user = alice
    if change == "logout":
        client.post(reverse("logout"))
    elif change == "expired":
        Session.objects.filter(pk=session.session_key).update(
            expire_date=timezone.now() - timedelta(seconds=1))
    elif change == "password":
        alice.set_password("a whole new secret")
        alice.save()
    elif change == "deactivated":
        alice.is_active = False
        alice.save()
    elif change == "another user's session":
        user = bob
    with django_assert_num_queries(1):
        valid = session_is_valid(session, user)
    assert valid is (change == "none")
    assert session_is_valid(session, AnonymousUser()) is False
    assert session_is_valid(None, alice) is False
