"""The fourth outside probe, as an attacker: what it found, each with its regression test.

* A number field written with extra minus signs (``"version": "--1"``, ``"positions":
  ["--1"]``, a Brag ``"stake": "--3"``) passed the frame's check and broke ``int()``: the
  socket died with a traceback, and its disconnect never ran (the user's count of open
  pages, its presence row and its groups were left behind, and after a dozen such
  frames the user could open no page for ten minutes). Now it is refused by name, and
  a frame that breaks the reading in any other way is refused too: the socket lives.
* A player of an earlier game at a table closed to spectators (or private) could still
  open it, and chat there, in every later game played without them.
* A form too big was answered 400, but the 400 page read the form again and logged two
  tracebacks; a request for another host logged one.
* One address could try a password against any number of accounts (the lock is per
  account and address): now 20 failed log-ins in 15 minutes from one address pause
  log-ins from it.
* The lobby's socket answered every frame sent to it.
"""

from __future__ import annotations

import json
import logging
from unittest import mock

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth import get_user
from django.test import RequestFactory
from django.urls import reverse

from games import actions
from games.access import may_watch, plays_at
from games.frames import BadFrame, parse
from games.models import ChatMessage, Game
from stopbus_site.middleware import OneLine, RefuseUnreadableRequests
from tests.factories import PASSWORD, UserFactory, preset_variant
from tests.test_brag_consumers import _mover, snapshot, three_people
from tests.test_live_loop_hardening import _login as logged_in
from tests.test_live_loop_hardening import (
    _version,
    drain,
    open_socket,
    two_at_a_table,
)

# -- frames ----------------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["--1", "---5", "-", "1_0", " 1", "1 ", "\u0663", "+1",
                                   "0x1", "1e3", "", "9" * 10])
def test_a_number_field_is_digits_with_at_most_one_minus(value):
    with pytest.raises(BadFrame, match="The field 'version'"):
        parse(json.dumps({"kind": "stop", "version": value}))
    with pytest.raises(BadFrame, match="The field 'positions'"):
        parse(json.dumps({"kind": "discard", "version": 1, "positions": [value]}))


@pytest.mark.parametrize("value", ["12", "-3", "0", 7])
def test_a_number_field_still_takes_numbers(value):
    assert parse(json.dumps({"kind": "stop", "version": value})).version == int(value)


async def _alices_socket():
    """A socket of alice's at a two-player table, drained; with the table."""
    table, alice, _bob = await two_at_a_table()
    comm, connected, _ = await open_socket(f"/ws/table/{table.pk}/", await sync_to_async(
        logged_in)(alice))
    assert connected
    await drain(comm)
    return table, comm


async def _still_heard(comm, text: str) -> None:
    """The socket is open and heard: a chat it sends is saved."""
    await comm.send_to(text_data=json.dumps({"kind": "chat", "text": text}))
    await drain(comm, timeout=0.5)
    assert await sync_to_async(ChatMessage.objects.filter(text=text).count)() == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@pytest.mark.parametrize("field", ["version", "positions"])
async def test_a_frame_with_two_minus_signs_is_refused_and_the_socket_lives(field):
    table, comm = await _alices_socket()
    game = await sync_to_async(lambda: table.current_game())()
    message = {"kind": "stop", "version": game.version}
    message[field] = "--1" if field == "version" else ["--1"]
    await comm.send_to(text_data=json.dumps(message))
    frames = await drain(comm)
    assert not any(isinstance(f, tuple) for f in frames), frames  # not closed
    assert any(f"The field &#x27;{field}&#x27;" in f for f in frames), frames
    assert await sync_to_async(_version)(table.pk) == game.version
    await _still_heard(comm, "still here")
    await comm.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_brag_stake_with_two_minus_signs_is_refused_and_the_socket_lives():
    table, game, people = await three_people()
    comm, state = await _mover(table, game, people)
    before = await snapshot(game.pk)
    await comm.send_to(text_data=json.dumps({"kind": "bet", "stake": "--3",
                                             "version": state.version}))
    frames = await drain(comm)
    assert not any(isinstance(f, tuple) for f in frames), frames
    assert any("The field &#x27;stake&#x27;" in f for f in frames), frames
    assert await snapshot(game.pk) == before
    await comm.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_frame_that_breaks_the_reading_is_refused_and_the_socket_lives():
    _table, comm = await _alices_socket()
    with mock.patch("games.consumers.parse", side_effect=ValueError("a reader's bug")):
        await comm.send_to(text_data=json.dumps({"kind": "ping"}))
        frames = await drain(comm)
    assert not any(isinstance(f, tuple) for f in frames), frames
    assert any("nothing was changed" in f for f in frames), frames
    await _still_heard(comm, "after")
    await comm.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_lobby_socket_answers_a_few_frames_and_drops_a_flood():
    comm, connected, _ = await open_socket("/ws/lobby/")
    assert connected
    await drain(comm)
    for _ in range(30):
        await comm.send_to(text_data="x")
    frames = await drain(comm, timeout=0.5)
    told = [f for f in frames if "The lobby only listens." in f]
    assert 1 <= len(told) <= 4, frames
    assert not any(isinstance(f, tuple) for f in frames)
    await comm.disconnect()


# -- who may open a table --------------------------------------------------------------------


def _a_second_game_without_erin(**options):
    """carol's table (``options``): erin plays its first game and leaves it; the game
    ends; carol plays again with a bot in erin's place."""
    carol, erin = UserFactory(username="carol"), UserFactory(username="erin")
    table = actions.do_create_table(carol, name="Closed", variant=preset_variant(),
                                    seats=2, **options)
    actions.do_join_table(table, erin)
    first = table.current_game()
    assert first is not None
    actions.do_leave_table(table, erin)
    return table, carol, erin, first


def _finish(game):
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)


@pytest.mark.django_db
@pytest.mark.parametrize("private", [False, True])
def test_a_player_of_an_earlier_game_only_is_a_stranger_to_the_next(private):
    table, carol, erin, first = _a_second_game_without_erin(
        private=private, allow_spectators=False, spectator_chat=False)
    table.refresh_from_db()
    # the game erin left is still theirs to watch to its end
    assert plays_at(table, erin)
    assert may_watch(table.pk, erin, []) is True
    _finish(first)
    table.refresh_from_db()
    assert may_watch(table.pk, erin, []) is True  # its standings
    second = Game.objects.create(table=table, number=first.number + 1,
                                 variant=first.variant, rules=first.rules,
                                 state=first.state, status=Game.Status.PLAYING)
    second.players.create(seat=0, user=carol, name=carol.username)
    assert not plays_at(table, erin)
    assert may_watch(table.pk, erin, []) is False
    assert plays_at(table, carol)
    assert may_watch(table.pk, carol, []) is True
    # and a stranger's chat rules: the players only
    table.refresh_from_db()
    with pytest.raises(actions.Refused, match="Only the players can chat"):
        actions.do_chat(table, erin, "I can still see and chat here")
    # the page and the replay of the game erin played are still theirs
    client = logged_in(erin)
    assert client.get(table.get_absolute_url()).status_code == 403
    _finish(second)
    assert client.get(reverse("stats:replay", args=[first.pk])).status_code == 200
    if table.private:
        assert client.get(reverse("stats:replay", args=[second.pk])).status_code == 404


# -- the log ---------------------------------------------------------------------------------


def test_a_form_too_big_is_answered_400_without_reading_it_again(settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    # a browser's request: the CSRF cookie sent, the check on (the 400 page checks the
    # token, reading the form, unless it was read already)
    request = RequestFactory(enforce_csrf_checks=True).post("/tables/new/",
                                                            {"name": "x" * 5000})
    request.COOKIES["csrftoken"] = "a" * 32
    response = RefuseUnreadableRequests(lambda r: pytest.fail("reached the view"))(request)
    assert response.status_code == 400


def test_the_security_log_keeps_one_line_without_the_traceback(settings):
    assert settings.LOGGING["loggers"]["django.security"]["handlers"] == ["security"]
    try:
        raise ValueError("a bad Host")
    except ValueError as exc:
        record = logging.LogRecord("django.security.DisallowedHost", logging.ERROR, __file__,
                                   1, "Invalid HTTP_HOST header", (), (type(exc), exc, None))
    assert OneLine().filter(record)
    assert record.exc_info is None
    assert "Traceback" not in logging.Formatter().format(record)


@pytest.mark.django_db
def test_a_request_for_another_host_is_400(client):
    assert client.get("/", HTTP_HOST="evil.example").status_code == 400


# -- log-ins from one address ------------------------------------------------------------------


def _log_in(client, username, password, ip="203.0.113.9"):
    return client.post(reverse("login"), {"username": username, "password": password},
                       REMOTE_ADDR=ip)


@pytest.mark.django_db
def test_one_address_trying_many_accounts_is_paused(client, settings):
    settings.STOPBUS_LOGIN_FAILURES_PER_ADDRESS = 6
    people = [UserFactory() for _ in range(3)]
    for person in people:  # two wrong passwords each: no account is locked by itself
        for attempt in range(2):
            assert _log_in(client, person.username, f"wrong-{attempt}").status_code == 200
    fresh = UserFactory()
    response = _log_in(client, fresh.username, PASSWORD)
    assert response.status_code == 429
    assert b"Too many failed log-in attempts" in response.content
    assert not get_user(client).is_authenticated
    # another address is not paused
    assert _log_in(client, fresh.username, PASSWORD, ip="198.51.100.4").status_code == 302


@pytest.mark.django_db
def test_an_empty_password_is_not_counted(client, settings):
    settings.STOPBUS_LOGIN_FAILURES_PER_ADDRESS = 2
    person = UserFactory()
    for _ in range(5):
        assert _log_in(client, person.username, "").status_code == 200
    assert _log_in(client, person.username, PASSWORD).status_code == 302
