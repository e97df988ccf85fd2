"""The per-process table cache behind "game only" changes never shows a stale seating.

A move announced as "game only" re-reads just the game and keeps the seats and
players this process read last. If that read is older than a player leaving (a
full read that began before the leave and finished after it), the leaver would
still count as seated and be shown the hand their seat holds: the hidden-information
audit caught this once in 1,000 games. The table's ``updated_at`` says whether the
kept read still holds.
"""

from __future__ import annotations

from unittest import mock

import pytest
from django.template.loader import render_to_string

from games import actions, board
from games.engine import GreedyBot, seat_view
from games.engine.cards import CODES
from games.models import Game, Table, Variant
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
    board._KNOWN.clear()
    board._SHARED.clear()
    yield table, people
    board._KNOWN.clear()
    board._SHARED.clear()


def play_one_move(game_id: int) -> None:
    game = Game.objects.get(pk=game_id)
    state = actions.state_of(game)
    action = GreedyBot(state.rules).choose(seat_view(state, state.turn))
    actions.do_play(game.pk, state.turn, action, game.version)


def seat_of(game: Game, user) -> int:
    return game.players.get(user=user).seat


def test_a_leaver_is_not_shown_their_old_hand_after_a_stale_read(table_of_three):
    table, (ann, ben, cat) = table_of_three
    game = table.current_game()
    board.load_table(table.pk, "before")  # this process reads the table in full
    stale = board._KNOWN[table.pk]
    ben_seat = seat_of(game, ben)

    actions.do_leave_table(table, ben)  # a bot takes ben's seat
    # the race: a full read that began before the leave finishes after it
    board._KNOWN[table.pk] = stale
    play_one_move(game.pk)

    data = board.load_table(table.pk, "after", game_only=True)
    assert data.seat_of(ben) is None, "ben left: he watches now"
    context = board.board_for(data, ben)
    assert context["me"] is None
    html = render_to_string("games/_board.html", context)
    face_up, _, _ = cards_in(html)
    state = actions.state_of(Game.objects.get(pk=game.pk))
    hidden = {CODES[c] for c in state.hands[ben_seat] if c not in state.known[ben_seat]}
    if state.phase not in ("showdown", "over"):
        assert not hidden & set(face_up), "the seat ben left holds cards he may not see"


def test_a_game_only_change_keeps_a_read_that_still_holds(table_of_three):
    table, (ann, ben, cat) = table_of_three
    game = table.current_game()
    board.load_table(table.pk, "first")
    known = board._KNOWN[table.pk][1]
    play_one_move(game.pk)
    data = board.load_table(table.pk, "second", game_only=True)
    assert data.seats is known.seats and data.players is known.players
    assert data.state.version == game.version + 1


def test_an_older_read_never_replaces_a_newer_one(table_of_three):
    table, (ann, ben, cat) = table_of_three
    before = Table.objects.select_related("variant", "host").get(pk=table.pk)
    board.load_table(table.pk, "first")
    (stamp, _), _ = board._KNOWN[table.pk]
    actions.do_leave_table(table, ben)
    board.load_table(table.pk, "second")
    (newer_stamp, _), data = board._KNOWN[table.pk]
    assert newer_stamp > stamp and data.seat_of(ben) is None

    class Before:  # a read that got the table row before the leave, finishing last
        def get(self, pk):
            return before

    with mock.patch.object(Table.objects, "select_related", return_value=Before()):
        board._read_table(table.pk)
    (kept_stamp, _), kept = board._KNOWN[table.pk]
    assert kept_stamp == newer_stamp and kept is data
