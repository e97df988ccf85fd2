"""Issue 14, "How it is proven": the Brag frames through the table's websocket.

A Brag table's page sends look, bet (with an integer stake), see, fold and cover,
declared in the Brag kind's frame schema. A stake out of range, a see that is not
allowed and a cover by a player with chips enough each get a clear message and
change nothing."""

import json
from html import unescape
from unittest import mock

import pytest
from asgiref.sync import sync_to_async

from games import actions
from games.engine.brag import BRAG_PRESETS
from games.engine.brag.game import CODES
from games.models import Action, Game, Variant
from tests.factories import UserFactory
from tests.html_contract import cards_in
from tests.test_consumers import connect, latest

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

SEED = bytes.fromhex("b7a9" * 16)


def _three_people():
    # transactional tests empty the tables the migrations filled: the preset again
    preset = BRAG_PRESETS["three-card-brag"]
    variant, _ = Variant.objects.get_or_create(
        slug="three-card-brag", defaults={"name": preset.name, "game": "brag",
                                          **preset.rules.to_dict()})
    ann, bob, cy = (UserFactory(username=n) for n in ("ann", "bob", "cy"))
    table = actions.do_create_table(ann, name="Brag", variant=variant, seats=3)
    actions.do_join_table(table, bob)
    with mock.patch("games.actions.tables.new_seed", return_value=SEED):
        actions.do_join_table(table, cy)  # full: starts
    return table, table.current_game(), [ann, bob, cy]


def _snapshot(game_id):
    game = Game.objects.get(pk=game_id)
    return game.version, game.state, Action.objects.filter(game_id=game_id).count()


def _state(game_id):
    return actions.state_of(Game.objects.get(pk=game_id))


three_people = sync_to_async(_three_people)
snapshot = sync_to_async(_snapshot)
get_state = sync_to_async(_state)


def frame(**data):
    return json.dumps(data)


async def _mover(table, game, people):
    state = await get_state(game.pk)
    comm, ok, _ = await connect(people[state.turn], table.pk)
    assert ok
    await latest(comm)
    return comm, state


@pytest.mark.parametrize(("data", "message"), [
    ({"kind": "bet", "stake": 11}, "The stake may be at most 10."),
    ({"kind": "bet", "stake": "11"}, "The stake may be at most 10."),
    ({"kind": "bet", "stake": 0}, "The stake must be at least 1."),
    ({"kind": "bet", "stake": "lots"}, "The field 'stake' is not valid: it must be a whole "
                                       "number."),
    ({"kind": "bet", "stake": True}, "it must be a whole number"),
    ({"kind": "bet"}, "Name a stake for your bet"),
    ({"kind": "see"}, "You may see only when two players are still betting (3 are)."),
    ({"kind": "cover"}, "You can still pay the smallest bet (1 chip): you may cover the pot "
                        "only when you cannot."),
    ({"kind": "fold", "stake": 3}, "The field 'stake' does not belong in a 'fold' message."),
    ({"kind": "swap", "give": ["2C"]}, "Unknown action 'swap'."),
])
async def test_a_refused_brag_frame_gets_a_clear_message_and_changes_nothing(data, message):
    table, game, people = await three_people()
    comm, state = await _mover(table, game, people)
    before = await snapshot(game.pk)
    await comm.send_to(text_data=frame(version=state.version, **data))
    replies = await latest(comm)
    assert any(message in unescape(reply) for reply in replies), replies
    assert await snapshot(game.pk) == before
    await comm.disconnect()


async def test_a_brag_bet_and_a_look_reach_every_page_with_each_ones_own_view():
    table, game, people = await three_people()
    state = await get_state(game.pk)
    pages = []
    for person in people:
        comm, ok, _ = await connect(person, table.pk)
        assert ok
        pages.append(comm)
        await latest(comm)
    mover = state.turn
    await pages[mover].send_to(text_data=frame(kind="bet", stake=4, version=state.version))
    for comm in pages:
        html = "".join(await latest(comm))
        assert "blind, bets 2 (stake 4)" in html
        assert cards_in(html)[0] == []  # everybody is blind: no card face anywhere
    state = await get_state(game.pk)
    looker = (mover + 2) % 3  # not the one to play: looking takes no turn
    await pages[looker].send_to(text_data=frame(kind="look", version=state.version))
    hands = {s: [CODES[c] for c in state.hands[s]] for s in range(3)}
    for seat, comm in enumerate(pages):
        html = "".join(await latest(comm))
        up = set(cards_in(html)[0])
        if seat == looker:
            assert set(hands[looker]) <= up
        else:
            assert not up & set(hands[looker])
        for other in range(3):
            if other != looker:
                assert not up & set(hands[other])
    for comm in pages:
        await comm.disconnect()
