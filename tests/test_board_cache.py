"""Boards are rendered once per distinct view and version, and never shared across views.

Every page of a table used to build its own board after every move; now the pages
in one process told of the same change read the table once and render each
distinct view (each seat, one for all spectators, per language) once. The cache
must never hand one view's board to another: a seat's render holds its hand.
"""

from __future__ import annotations

from unittest import mock

import pytest
from django.contrib.auth.models import AnonymousUser

from games import actions, render
from games.engine import GreedyBot, seat_view
from games.engine.cards import CODES
from games.models import Game, Variant
from tests.factories import UserFactory
from tests.html_contract import cards_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def table_of_three():
    variant, _ = Variant.objects.get_or_create(slug="classic", defaults={"name": "Classic"})
    people = [UserFactory(username=name) for name in ("ann", "ben", "cat")]
    table = actions.do_create_table(people[0], name="T", variant=variant, seats=3)
    for person in people[1:]:
        actions.do_join_table(table, person)
    render.clear()
    yield table, people
    render.clear()


def play_one_move(game_id: int) -> None:
    game = Game.objects.get(pk=game_id)
    state = actions.state_of(game)
    action = GreedyBot(state.rules).choose(seat_view(state, state.turn))
    actions.do_play(game.pk, state.turn, action, game.version)


def hidden_from(state, seat):
    """Cards in other seats' hands that ``seat`` (None: a spectator) may not see."""
    return {CODES[c] for s, hand in enumerate(state.hands) if s != seat
            for c in hand if seat is None or c not in state.known[seat]}


def test_a_leaver_is_not_shown_their_old_hand(table_of_three):
    table, (ann, ben, cat) = table_of_three
    game = table.current_game()
    ben_seat = game.players.get(user=ben).seat
    before = render.board(render.table_data(table.pk, "before"), ben)
    assert before.key[1] == ben_seat
    actions.do_leave_table(table, ben)  # a bot takes ben's seat
    play_one_move(game.pk)
    after = render.board(render.table_data(table.pk, "after"), ben)
    assert after.key[1] is None, "ben left: he watches now"
    data = render.table_data(table.pk, "after")
    assert after.html == render.board(data, UserFactory()).html  # what any spectator sees
    face_up, _, _ = cards_in(after.html)
    state = actions.state_of(Game.objects.get(pk=game.pk))
    if state.phase not in ("showdown", "over"):
        assert not hidden_from(state, None) & set(face_up)


def test_each_distinct_view_is_rendered_once(table_of_three):
    table, people = table_of_three
    watchers = [UserFactory() for _ in range(5)]
    data = render.table_data(table.pk, "one-change")
    assert render.table_data(table.pk, "one-change") is data  # read once per change
    with mock.patch("games.render.board_for", wraps=render.board_for) as built:
        for _ in range(3):
            for viewer in [*people, *watchers, AnonymousUser()]:
                render.board(data, viewer)
    # three seats, and one view for every spectator (signed in or not)
    assert built.call_count == 4


def test_views_of_different_seats_and_languages_never_share_a_render(table_of_three):
    table, (ann, ben, cat) = table_of_three
    data = render.table_data(table.pk, "x")
    boards = {user.username: render.board(data, user) for user in (ann, ben, cat)}
    assert len({b.html for b in boards.values()}) == 3
    state = data.state
    for user in (ann, ben, cat):
        seat = data.seat_of(user)
        face_up, _, _ = cards_in(boards[user.username].html)
        assert not hidden_from(state, seat) & set(face_up)
    one, two = UserFactory(), UserFactory()
    one.language, two.language = "en", "ja"
    assert render.view_key(data, one) != render.view_key(data, two)
    assert render.board(data, one) is not render.board(data, two)
    three = UserFactory()
    three.language = "en"
    assert render.board(data, three) is render.board(data, one)


def test_after_a_move_a_process_reads_one_row(table_of_three, django_assert_num_queries):
    """A move changes the game row only: the seats, players and spectators kept under
    the table's ``updated_at`` still hold (the table row too), and the game (with its
    table's stamp) is one query.
    A change to the seats moves ``updated_at`` on, and they are read again."""
    table, (ann, ben, cat) = table_of_three
    game = table.current_game()
    render.table_data(table.pk, "first")
    play_one_move(game.pk)
    actions.state_of(Game.objects.get(pk=game.pk))  # parsed once per process anyway
    with django_assert_num_queries(1):
        data = render.table_data(table.pk, "second")
    assert data.state.version == game.version + 1
    actions.do_leave_table(table, ben)
    with django_assert_num_queries(5):  # the game, then the table, seats, players, spectators
        data = render.table_data(table.pk, "third")
    assert data.seat_of(ben) is None
