"""A move's own transaction stays lean: its queries are counted here, so that a change
that adds one is seen (the turn's deadline is written in the move's transaction)."""

from __future__ import annotations

import pytest

from games import actions
from games.engine import GreedyBot, seat_view
from games.models import Job
from tests.factories import UserFactory, preset_variant

pytestmark = pytest.mark.django_db


def test_a_move_is_five_queries_in_its_transaction_with_the_next_deadline(
        django_assert_num_queries):
    people = [UserFactory() for _ in range(3)]
    table = actions.do_create_table(people[0], name="Q", variant=preset_variant("classic"),
                                    seats=3)
    for person in people[1:]:
        actions.do_join_table(table, person)
    game = table.current_game()
    state = actions.state_of(game)
    move = GreedyBot(state.rules).choose(seat_view(state, state.turn))
    # the savepoint and its release, the game locked, the seats, the action logged, the
    # waiting turn job made the next one (its deadline), the game row
    with django_assert_num_queries(7):
        actions.do_play(game.pk, state.turn, move, game.version)
    after = actions.state_of(table.current_game())
    pending = Job.objects.filter(game_id=game.pk, done_at__isnull=True)
    assert [(j.kind, j.seat, j.version) for j in pending] == [
        (Job.Kind.TURN_TIMEOUT, after.turn, after.version)]
