"""What post tables tell their players through the notify app: your turn, a last call, a
missed turn, a bot sitting in, where they finished, a table that started."""

import pytest

from games import actions
from games.kinds import kind_for
from games.models import Job
from notify.models import Notification
from tests.factories import finished_game, preset_variant
from tests.test_post_pace import miss, old_user, pending, post_game, until_persons_turn

pytestmark = pytest.mark.django_db


def events(user, event=None):
    rows = Notification.objects.filter(user=user)
    return rows.filter(event=event) if event else rows


def test_your_turn_once_per_turn_and_withdrawn_when_played(user):
    game = until_persons_turn(post_game(user))
    [notice] = events(user, "your_turn")
    assert notice.key == f"turn:{game.pk}:{game.version}" and notice.table_id == game.table_id
    state = actions.state_of(game)
    actions.do_play(game.pk, 0, actions.bot_choice(game, state, 0, "greedy"), game.version)
    notice.refresh_from_db()
    assert notice.read_at is not None  # the turn is over: nothing more is sent for it
    game = until_persons_turn(game)
    if game.status == "playing":
        assert events(user, "your_turn").count() == 2


def test_a_continuing_turn_is_not_told_twice(user):
    # a stock-and-discard variant: the draw and its discard are one turn
    game = until_persons_turn(post_game(user, variant=preset_variant(exchange="stock")))
    state = actions.state_of(game)
    before = game.deadline
    draw = next(a for a in kind_for(game).legal_actions(state, 0)
                if a.kind in ("draw", "take_discard"))
    actions.do_play(game.pk, 0, draw, game.version)
    game.refresh_from_db()
    assert game.deadline == before
    assert events(user, "your_turn").count() == 1
    assert pending(game, Job.Kind.LAST_CALL).count() == 1


def test_the_last_call_is_a_job_that_tells_once(user):
    game = until_persons_turn(post_game(user))
    job = pending(game, Job.Kind.LAST_CALL).get()
    assert actions.do_run_job(job) == "last call sent"
    [notice] = events(user, "last_call")
    assert notice.key == f"last_call:{game.pk}:{game.version}"


def test_missed_turns_and_the_bot_sitting_in_are_told(user):
    game = post_game(user)
    game, _result = miss(game)
    assert events(user, "missed_turn").count() == 1
    game, _result = miss(game)
    assert events(user, "missed_turn").count() == 2
    assert events(user, "bot_sat_in").count() == 1
    game, _result = miss(game)  # the bot plays on: no more notices for it
    assert events(user, "missed_turn").count() == 2
    assert events(user, "bot_sat_in").count() == 1


def test_the_start_and_the_end_are_told_with_the_place(user):
    other = old_user("other")
    game = finished_game([user, other], bots=("greedy",))
    # the host is told the game began; the other, whose sitting down began it, is not
    assert events(user, "table_started").count() == 1
    assert events(other, "table_started").count() == 0
    for person in (user, other):
        [over] = events(person, "game_over")
        player = game.players.get(user=person)
        assert over.params == {"place": player.place, "players": 3}

