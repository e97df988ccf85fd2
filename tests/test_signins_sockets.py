"""A table's socket checks its sign-in as it connects: the answer is kept for the page's
first move, and a sign-in found over closes the socket as signed out."""

from __future__ import annotations

from unittest import mock

import pytest
from asgiref.sync import sync_to_async
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import actions, signins
from games.consumers import CLOSE_UNAUTHENTICATED
from games.models import Variant
from tests.factories import UserFactory
from tests.test_consumers import connect

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def _table():
    variant, _ = Variant.objects.get_or_create(slug="classic", defaults={"name": "Classic"})
    alice = UserFactory(username="alice")
    table = actions.do_create_table(alice, name="T", variant=variant, seats=2)
    return alice, table


async def test_the_sign_in_is_read_at_connect_and_kept_for_the_first_move():
    alice, table = await sync_to_async(_table)()
    await sync_to_async(cache.clear)()
    kept = []
    real = signins.session_is_valid

    def spy(session, user):
        kept.append(session)
        return real(session, user)

    with mock.patch("games.consumers.session_is_valid", spy):
        comm, connected, _ = await connect(alice, table.pk)
    assert connected
    await comm.disconnect()
    assert len(kept) == 1

    def again():
        with CaptureQueriesContext(connection) as queries:
            assert real(kept[0], alice) is True
        return len(queries)

    assert await sync_to_async(again)() == 0  # the page's first move reads nothing
    assert signins.KEPT >= 4 * 45  # longer than a round of four at the usual live clock


async def test_a_sign_in_found_over_at_connect_closes_the_socket_as_signed_out():
    alice, table = await sync_to_async(_table)()
    # the middleware read the user as signed in; the session's own check, a moment later,
    # finds the sign-in over (the account switched off between the two reads)
    with mock.patch("games.consumers.session_is_valid", return_value=False):
        _comm, connected, code = await connect(alice, table.pk)
    assert not connected and code == CLOSE_UNAUTHENTICATED
