"""Issue 14, "Two games, one room" and "Table": a Brag game at a live table, through the
same actions, clock and board as Stop the Bus, each reached through the game's kind."""

from unittest import mock

import pytest
from django.test import Client
from django.urls import reverse

from games import actions, render
from games.engine import brag
from games.engine.brag import BragRules
from games.kinds import BRAG, kind_for
from games.models import Action, Game, Job, Seat, Variant
from tests.factories import UserFactory
from tests.html_contract import cards_in

pytestmark = pytest.mark.django_db

SEED = bytes.fromhex("5eed" * 16)


def brag_variant(**rules):
    variant = Variant.objects.get(slug="three-card-brag")
    if rules:
        variant.pk = None
        variant.slug = "brag-" + "-".join(f"{k}{v}" for k, v in rules.items())
        variant.name = "Brag " + variant.slug
        for name, value in rules.items():
            setattr(variant, name, value)
        variant.save()
    return variant


def brag_table(bot=True, seats=3, **rules):
    """Ann (host) and Bob, and a bot: the game starts with a known seed."""
    ann, bob = UserFactory(username="ann"), UserFactory(username="bob")
    table = actions.do_create_table(ann, name="Brag night", variant=brag_variant(**rules),
                                    seats=seats)
    with mock.patch("games.actions.tables.new_seed", return_value=SEED):
        actions.do_join_table(table, bob)  # two seats: full, the game starts
        if bot:
            actions.do_add_bot(table, ann, "greedy")  # the last seat: the game starts
    table.refresh_from_db()
    return table, table.current_game(), ann, bob


def state(game):
    game = Game.objects.get(pk=game.pk)
    return game, actions.state_of(game)


def board_html(table, user):
    render.clear()
    return render.board(render.table_data(table.pk), user).html


def test_a_brag_table_deals_a_brag_game_through_its_kind():
    table, game, ann, bob = brag_table()
    assert kind_for(table) is BRAG and kind_for(game) is BRAG
    game, s = state(game)
    assert isinstance(s, brag.BragState)
    assert s.to_dict() == brag.new_game(BragRules(), ["ann", "bob", s.names[2]], SEED)[0].to_dict()
    assert game.state["game"] == "brag"


def play_for(game, user, data):
    game, s = state(game)
    seat = actions.seat_of_player(game, user)
    return actions.do_play(game.pk, seat, data, game.version)


def person_to_move(game, ann, bob):
    _, s = state(game)
    return {0: ann, 1: bob}.get(s.turn)


def test_moves_bets_and_looks_reach_the_engine_and_the_log():
    table, game, ann, bob = brag_table(bot=False, seats=2)
    game, s = state(game)
    mover = ann if s.turn == 0 else bob
    other = bob if mover is ann else ann
    played = play_for(game, mover, {"kind": "bet", "stake": 4})
    assert played.events[0].text.endswith("blind, bets 2 (stake 4)")
    played = play_for(game, other, {"kind": "look"})
    assert played.state.seen[1 - s.turn]
    payloads = list(Action.objects.filter(game=game).order_by("seq").values_list("payload",
                                                                                  flat=True))
    assert payloads[1:] == [{"kind": "bet", "seat": s.turn, "stake": 4},
                            {"kind": "look", "seat": 1 - s.turn}]
    replayed = BRAG.replay(BragRules(), ["ann", "bob"], SEED, payloads[1:])
    assert replayed.to_dict() == state(game)[1].to_dict()


@pytest.mark.parametrize(("data", "message"), [
    ({"kind": "bet", "stake": 99}, "The stake may be at most 10."),
    ({"kind": "bet", "stake": 0}, "The stake must be at least 1."),
    ({"kind": "cover"}, "You can still pay the smallest bet"),
    ({"kind": "swap", "give": ["2C"]}, "Unknown action 'swap'."),
])
def test_refused_moves_say_why_and_change_nothing(data, message):
    table, game, ann, bob = brag_table(bot=False, seats=2)
    game, s = state(game)
    mover = ann if s.turn == 0 else bob
    before = (game.version, game.state, Action.objects.count())
    with pytest.raises(actions.Refused) as refused:
        play_for(game, mover, data)
    assert message in refused.value.message
    game, _ = state(game)
    assert (game.version, game.state, Action.objects.count()) == before


def test_a_brag_timeout_folds_and_two_hand_the_seat_to_a_bot_named_as_one():
    table, game, ann, bob = brag_table(bot=True)
    Seat.objects.filter(table=table).update(timeouts=0)
    for round_ in range(2):
        game, s = state(game)
        while s.phase == "showdown" or (s.turn is not None and s.turn == 2):
            if s.phase == "showdown":
                actions.do_play(game.pk, None, BRAG.next_hand(), game.version, by="table")
            else:  # the bot's move, made now instead of after its delay
                job = Job.objects.get(game=game, done_at__isnull=True)
                actions.do_run_job(job)
            game, s = state(game)
        seat = s.turn
        job = Job.objects.get(game=game, done_at__isnull=True)
        assert job.kind == Job.Kind.TURN_TIMEOUT and job.seat == seat
        result = actions.do_run_job(job)
        assert result.startswith("timed out; played 1 move"), result
        last = Action.objects.filter(game=game).order_by("-seq").first()
        assert last.payload == {"kind": "fold", "seat": seat} and last.by == "clock"
        if round_ == 0:
            first_seat = seat
            person = ann if seat == 0 else bob
            # the next hand, so that the same seat times out again
            while state(game)[1].turn != first_seat or state(game)[1].phase != "betting":
                game, s = state(game)
                if s.phase == "showdown":
                    actions.do_play(game.pk, None, BRAG.next_hand(), game.version, by="table")
                elif s.turn == first_seat:
                    break
                else:
                    actions.do_play(game.pk, s.turn, brag.fold(s.turn), game.version)
    seat_row = Seat.objects.get(table=table, user=person)
    assert seat_row.away and seat_row.timeouts == 2
    html = board_html(table, person)
    assert f"Bot for {person.username}" in html
    assert "You timed out twice" in html


def test_the_board_shows_chips_badges_pot_and_a_bet_control_with_its_cost():
    table, game, ann, bob = brag_table(bot=False, seats=2)
    game, s = state(game)
    mover = ann if s.turn == 0 else bob
    html = board_html(table, mover)
    # blind: no own cards in the page, three backs instead
    face_up, face_down, _ = cards_in(html)
    assert face_up == [] and face_down == 6  # theirs and the other's, all backs
    assert 'id="look-form"' in html and 'id="fold-form"' in html
    assert "costs you 1" in html and 'name="stake"' in html and 'max="10"' in html
    assert "badge--blind" in html and 'class="pot__chips">2<' in html
    assert 'id="cover-form"' not in html
    other_name = "bob" if mover is ann else "ann"
    assert f"See {other_name} <span class=\"bet__cost\">costs you 2<" in html  # blind, two in
    play_for(game, mover, {"kind": "look"})
    html = board_html(table, mover)
    mine = [brag.game.CODES[c] for c in s.hands[s.turn]]
    assert cards_in(html)[0] == mine and 'id="look-form"' not in html
    assert "badge--seen" in html
    other = bob if mover is ann else ann
    assert cards_in(board_html(table, other))[0] == []  # the looker's cards reach only them


def test_a_see_shows_only_the_hands_the_rules_show_and_the_game_ends_with_places():
    table, game, ann, bob = brag_table(bot=False, seats=2, max_hands=1)
    game, s = state(game)
    first = ann if s.turn == 0 else bob
    second = bob if first is ann else ann
    play_for(game, first, {"kind": "bet", "stake": 2})  # blind
    played = play_for(game, second, {"kind": "see"})  # a blind player may see a blind one
    assert played.state.phase == "over"
    game = Game.objects.get(pk=game.pk)
    assert game.status == Game.Status.FINISHED
    settled = played.state.settlement
    html = board_html(table, first)
    assert "Play again with the same seats" in html
    shown = {code for seat in settled["shown"].values() for code in seat["cards"]}
    assert set(cards_in(html)[0]) >= shown
    loser_hidden = not settled["see"]["seer_won"]
    if loser_hidden:
        seer_cards = {brag.game.CODES[c] for c in played.state.hands[1 - s.turn]}
        # the losing seer's hand is in no page, not even their own... once the game is
        # over the revealed pack tells it, as the rules accept; the settlement does not
        assert str(1 - s.turn) not in settled["shown"]
        assert seer_cards
    places = sorted(game.players.values_list("place", flat=True))
    assert places in ([1, 2], [1, 1])


def test_the_table_page_of_a_brag_game_renders_for_players_and_spectators():
    table, game, ann, bob = brag_table()
    client = Client()
    client.force_login(ann)
    page = client.get(reverse("games:table", args=[table.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    assert 'id="middle"' in html and "Pot" in html
    assert "look at your cards" in html and "pick widow cards" not in html  # Brag's keys
    watcher = UserFactory(username="cy")
    client.force_login(watcher)
    page = client.get(reverse("games:table", args=[table.pk]))
    assert page.status_code == 200
    assert cards_in(page.content.decode())[0] == []


def test_you_cant_see_a_blind_man_and_nothing_changes():
    table, game, ann, bob = brag_table(bot=False, seats=2)
    game, s = state(game)
    mover = ann if s.turn == 0 else bob
    play_for(game, mover, {"kind": "look"})  # seen now; the other is still blind
    game, _ = state(game)
    before = (game.version, game.state)
    with pytest.raises(actions.Refused) as refused:
        play_for(game, mover, {"kind": "see"})
    assert refused.value.message.startswith("You can't see a blind man")
    game, _ = state(game)
    assert (game.version, game.state) == before
    assert 'id="see-form"' not in board_html(table, mover)
