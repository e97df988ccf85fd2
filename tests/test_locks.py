"""Lock order: a move locks its game's row, not its table's (PostgreSQL).

Leaving a running table locks the game and then the table. A move that locked the
game with its table joined (one ``SELECT … FOR UPDATE``) took both rows at once, in
whatever order the plan read them; meeting a leave, each held a row the other
waited for, and PostgreSQL killed one as a deadlock (the 1,000-game audit saw three).
"""

from __future__ import annotations

import threading
from unittest import mock

import pytest
from django.db import connection, connections, transaction

from games import actions
from games.engine import GreedyBot, seat_view
from games.models import Game, Table, Variant
from tests.factories import UserFactory

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_a_move_in_progress_leaves_the_table_row_free():
    variant, _ = Variant.objects.get_or_create(slug="classic", defaults={"name": "Classic"})
    ann, ben, cat = (UserFactory(username=n) for n in ("ann", "ben", "cat"))
    table = actions.do_create_table(ann, name="T", variant=variant, seats=3)
    actions.do_join_table(table, ben)
    actions.do_join_table(table, cat)
    game = table.current_game()
    state = actions.state_of(game)
    move = GreedyBot(state.rules).choose(seat_view(state, state.turn))

    holding, release = threading.Event(), threading.Event()
    real_state_of = actions.state_of
    failures = []

    def state_of_then_wait(g):
        holding.set()  # play() holds its lock now
        release.wait(10)
        return real_state_of(g)

    def mover():
        try:
            with mock.patch.object(actions.moves, "state_of", state_of_then_wait):
                actions.do_play(game.pk, state.turn, move, game.version)
        except Exception as exc:  # noqa: BLE001 -- reported below
            failures.append(exc)
        finally:
            connections.close_all()

    thread = threading.Thread(target=mover)
    thread.start()
    try:
        assert holding.wait(10)
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(f"SELECT id FROM {Table._meta.db_table} WHERE id = %s "  # noqa: S608
                           "FOR UPDATE NOWAIT", [table.pk])
            assert cursor.fetchone() == (table.pk,)
            with pytest.raises(Exception, match="could not obtain lock"), transaction.atomic():
                cursor.execute(f"SELECT id FROM {Game._meta.db_table} "  # noqa: S608
                               "WHERE id = %s FOR UPDATE NOWAIT", [game.pk])
    finally:
        release.set()
        thread.join(10)
    assert not failures
    assert Game.objects.get(pk=game.pk).version == game.version + 1
