"""A game keeps the rules it started with, whatever admins later do to its variant."""

import pytest

from games import actions
from games.engine import PRESETS, HouseRules, seat_view
from games.engine.bots import GreedyBot
from games.engine.game import OVER
from games.models import Game, Variant
from tests.factories import UserFactory, play_out_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def host():
    return UserFactory()


@pytest.fixture
def classic():
    return Variant.objects.get(slug="classic")


def start(host, variant, bots=1) -> Game:
    # One seat stays empty: a full table would start on its own, before start_game.
    table = actions.do_create_table(host, name="Frozen", variant=variant, seats=bots + 2)
    for _ in range(bots):
        actions.do_add_bot(table, host, "greedy")
    return actions.do_start_game(table, host)


def edit_variant(variant):
    variant.starting_lives = 7
    variant.stopper_penalty = 2
    variant.floating = False
    variant.active = False
    variant.full_clean()
    variant.save()


def test_starting_copies_the_variants_rules_into_the_game(host, classic):
    game = start(host, classic)
    assert game.rules == classic.rules.to_dict()
    assert HouseRules.from_dict(game.rules) == PRESETS["classic"].rules


def test_editing_the_variant_leaves_a_running_game_alone(host, classic):
    game = start(host, classic)
    before = dict(game.rules)
    edit_variant(classic)

    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING
    assert game.rules == before
    assert HouseRules.from_dict(game.rules) == PRESETS["classic"].rules
    assert game.house_rules.starting_lives == 3
    assert actions.state_of(game).rules == PRESETS["classic"].rules
    # The variant itself did change.
    assert Variant.objects.get(slug="classic").rules.starting_lives == 7


def test_the_game_plays_on_under_its_own_rules_after_the_edit(host, classic):
    game = start(host, classic)
    edit_variant(classic)
    state = actions.state_of(game)
    # The host's first move, chosen by a greedy bot, is applied through the one door.
    seat = state.turn
    move = GreedyBot(state.rules).choose(seat_view(state, seat))
    played = actions.do_play(game.pk, seat, move, state.version)

    assert played.state.rules == PRESETS["classic"].rules
    game.refresh_from_db()
    assert game.version == state.version + 1
    assert HouseRules.from_dict(game.rules) == PRESETS["classic"].rules


def test_a_finished_game_keeps_its_rules(host, classic):
    game = play_out_game(start(host, classic))
    assert game.status == Game.Status.FINISHED
    edit_variant(classic)

    game.refresh_from_db()
    assert HouseRules.from_dict(game.rules) == PRESETS["classic"].rules
    assert HouseRules.from_dict(game.state["rules"]) == PRESETS["classic"].rules
    assert actions.state_of(game).phase == OVER


def test_a_new_game_after_the_edit_uses_the_new_rules(host, classic):
    old = start(host, classic)
    edit_variant(classic)
    classic.active = True
    classic.save()

    new = start(UserFactory(), classic)
    assert new.house_rules.starting_lives == 7
    assert new.house_rules.stopper_penalty == 2
    old.refresh_from_db()
    assert old.house_rules.starting_lives == 3


def test_create_table_refuses_an_inactive_variant(host, classic):
    classic.active = False
    classic.save()
    with pytest.raises(actions.Refused) as refused:
        actions.do_create_table(host, name="Late", variant=classic, seats=4)
    assert refused.value.code == "inactive_variant"
    assert "not offered" in refused.value.message
