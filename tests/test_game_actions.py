"""games.actions: the one way a game changes -- validation, the log, versions, races."""

import pytest
from django.db import transaction

from games import actions, clock, engine, render
from games.engine import GreedyBot, HouseRules, replay, seat_view
from games.models import Action, Game, GamePlayer, Job, Seat, Table, Variant
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def variant():
    return Variant.objects.get_or_create(slug="classic", defaults={"name": "Classic"})[0]


@pytest.fixture
def game(user, variant):
    """Two people (user, bob) and a greedy bot, started."""
    table = actions.do_create_table(user, name="T", variant=variant, seats=3)
    actions.do_join_table(table, UserFactory(username="bob"))
    actions.do_add_bot(table, user, "greedy")
    return table.current_game()


def fresh(game):
    return Game.objects.get(pk=game.pk)


def human_move(game):
    state = actions.state_of(game)
    bot = GreedyBot(state.rules)
    return state.turn, bot.choose(seat_view(state, state.turn))


def advance_to_human(game):
    """Let the clock play bots (and deal) until a person is to move."""
    for _ in range(50):
        game = fresh(game)
        state = actions.state_of(game)
        if game.status != Game.Status.PLAYING:
            return game
        if state.turn is None:
            seat = None
        else:
            seat = Seat.objects.get(table=game.table, position=state.turn)
        if state.phase == "play" and seat is not None and seat.user_id:
            return game
        assert clock.run_due_jobs() > 0
    raise AssertionError("the clock did not move the game on")


def test_a_move_is_logged_under_the_next_number_and_versions_the_game(game):
    game = advance_to_human(game)
    seat, action = human_move(game)
    before = game.version
    played = actions.do_play(game.pk, seat, action, before)
    game = fresh(game)
    assert game.version == before + 1 == played.state.version
    row = Action.objects.get(game=game, seq=game.version)
    assert row.payload == action.to_dict() and row.seat == seat and row.by == "player"
    assert row.events and row.events[0]["text"].startswith(
        GamePlayer.objects.get(game=game, seat=seat).name)


def test_an_illegal_move_changes_nothing(game):
    game = advance_to_human(game)
    state = actions.state_of(game)
    seat = state.turn
    not_mine = next(c for c in range(52) if c not in state.hands[seat] and c not in state.widow)
    with pytest.raises(actions.Refused) as info:
        actions.do_play(game.pk, seat, {"kind": "swap", "give": [engine.code(not_mine)],
                                     "take": [engine.code(state.widow[0])]}, game.version)
    assert info.value.code == "card_not_in_hand"
    assert "is not in your hand" in info.value.message
    assert fresh(game).version == game.version
    assert fresh(game).state == game.state
    assert not Action.objects.filter(game=game, seq=game.version + 1).exists()


def test_out_of_turn_and_stale_moves_are_refused(game):
    game = advance_to_human(game)
    state = actions.state_of(game)
    other = next(s for s in range(3) if s != state.turn)
    with pytest.raises(actions.Refused) as info:
        actions.do_play(game.pk, other, {"kind": "stop"}, game.version)
    assert info.value.code == "not_your_turn"
    with pytest.raises(actions.Refused) as info:
        actions.do_play(game.pk, state.turn, {"kind": "stop"}, game.version - 1)
    assert info.value.code == "stale" and "moved on before your move" in info.value.message
    assert fresh(game).version == game.version


def test_a_racing_duplicate_fails_instead_of_applying_twice(game):
    game = advance_to_human(game)
    seat, action = human_move(game)
    # another process got there first and wrote the next log entry
    Action.objects.create(game=game, seq=game.version + 1, seat=seat, payload={"kind": "x"})
    with pytest.raises(actions.Refused) as info:
        actions.do_play(game.pk, seat, action, game.version)
    assert info.value.code == "stale"
    assert fresh(game).version == game.version


def test_only_your_own_seat(game):
    game = advance_to_human(game)
    seat, action = human_move(game)
    with pytest.raises(actions.Refused):
        actions.do_play(game.pk, (seat + 1) % 3, action, game.version)


def play_out(game):
    """People play greedily, bots by the clock, until the game ends."""
    for _ in range(3000):
        game = fresh(game)
        if game.status != Game.Status.PLAYING:
            return game
        if clock.run_due_jobs():
            continue
        seat, action = human_move(game)
        actions.do_play(game.pk, seat, action, game.version)
    raise AssertionError("the game did not end")


def test_a_whole_game_to_the_end_and_play_again(game, user):
    game = play_out(game)
    assert game.status == Game.Status.FINISHED and game.finished_at
    places = sorted(p.place for p in game.players.all())
    assert places[0] == 1 and all(places)
    table = Table.objects.get(pk=game.table_id)
    assert table.status == Table.Status.FINISHED
    # the log is the truth: replaying it gives the stored state
    rows = list(game.actions.filter(seq__gte=1).order_by("seq").values_list("payload", flat=True))
    rebuilt = replay(HouseRules.from_dict(game.rules),
                     [p.name for p in game.players.order_by("seat")],
                     bytes.fromhex(game.seed), rows)
    assert rebuilt.to_dict() == game.state
    assert list(game.actions.values_list("seq", flat=True)) == list(range(game.version + 1))
    second = actions.do_play_again(table, user)
    assert second.number == 2 and second.version == 0
    assert Table.objects.get(pk=table.pk).status == Table.Status.PLAYING


def test_leaving_a_running_game_hands_the_seat_to_a_bot(game, user):
    table = game.table
    bob = GamePlayer.objects.get(game=game, name="bob")
    actions.do_leave_table(table, bob.user)
    bob.refresh_from_db()
    seat = Seat.objects.get(table=table, position=bob.seat)
    assert seat.is_bot and seat.bot_level == "greedy"
    assert bob.left_early and bob.place == 3, "last among the three still in"
    assert actions.seat_of_player(game, bob.user) is None
    game = play_out(game)
    bob.refresh_from_db()
    assert bob.place == 3, "the leaver keeps the place they left with"


def test_ready_deals_the_next_hand_when_every_person_is_ready(game, user):
    game = advance_to_human(game)
    for _ in range(200):
        game = fresh(game)
        state = actions.state_of(game)
        if state.phase == "showdown":
            break
        if clock.run_due_jobs():
            continue
        seat, action = human_move(game)
        actions.do_play(game.pk, seat, action, game.version)
    else:
        raise AssertionError("no showdown")
    Job.objects.filter(game=game).update(done_at=game.started_at)  # no clock: only clicks
    people = [p.seat for p in game.players.all() if p.user_id]
    assert actions.do_ready(game.pk, people[0]) is False
    assert fresh(game).ready == [people[0]]
    assert actions.do_ready(game.pk, people[1]) is True
    game = fresh(game)
    assert actions.state_of(game).phase in ("play", "dealer_swap")
    assert game.ready == []


def test_moves_run_in_one_transaction(game, monkeypatch):
    game = advance_to_human(game)
    seat, action = human_move(game)

    def explode(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(actions.moves, "schedule_after", explode)
    with pytest.raises(RuntimeError), transaction.atomic():
        actions.do_play(game.pk, seat, action, game.version)
    assert fresh(game).version == game.version
    assert not Action.objects.filter(game=game, seq=game.version + 1).exists()


def test_a_move_costs_a_fixed_number_of_queries(game, django_assert_num_queries):
    """A person's move: lock the game row, insert the action, read the seats, make the
    waiting job the next one (one query), update the game -- and the savepoint around
    them (8 before the waiting job was reused)."""
    game = advance_to_human(game)
    seat, action = human_move(game)
    actions.state_of(game)  # parsed once per process: not what a move costs
    with django_assert_num_queries(7) as captured:
        actions.do_play(game.pk, seat, action, game.version)
    statements = " ".join(q["sql"] for q in captured.captured_queries)
    assert "FOR UPDATE" in statements or "SAVEPOINT" in statements



def test_a_move_from_a_players_page_finds_their_seat_in_the_same_queries(
        game, django_assert_num_queries):
    """``player=``: the page's user, whose seat is found in the seat rows the move reads
    anyway -- no query of its own -- and whose move is theirs whatever seat it names."""
    game = advance_to_human(game)
    seat, action = human_move(game)
    user = Seat.objects.get(table=game.table, position=seat).user
    data = {k: v for k, v in action.to_dict().items() if k != "seat"}
    actions.state_of(game)
    with django_assert_num_queries(7):
        played = actions.do_play(game.pk, None, data, game.version, player=user)
    assert Action.objects.get(game=game, seq=game.version + 1).seat == seat
    assert played.state.version == game.version + 1


@pytest.mark.parametrize("who", ["spectator", "leaver", "signed out"])
def test_a_move_from_a_page_of_nobody_seated_is_refused_and_changes_nothing(game, who):
    from django.contrib.auth.models import AnonymousUser

    game = advance_to_human(game)
    seat, action = human_move(game)
    if who == "spectator":
        user = UserFactory(username="carol")
    elif who == "leaver":
        user = Seat.objects.get(table=game.table, position=seat).user
        actions.do_leave_table(game.table, user)  # a bot plays their seat now
        game = fresh(game)
    else:
        user = AnonymousUser()
    data = {k: v for k, v in action.to_dict().items() if k != "seat"}
    with pytest.raises(actions.Refused) as refused:
        actions.do_play(game.pk, None, data, game.version, player=user)
    assert refused.value.code == "spectator"
    assert fresh(game).version == game.version

# -- issue 16.12 and 16.10: leavers' bots and chat ------------------------------------


def test_a_leavers_bot_is_named_as_a_bot_and_the_log_says_who_left():
    variant = Variant.objects.get(slug="classic")
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    table = actions.do_create_table(alice, name="T", variant=variant, seats=2)
    actions.do_join_table(table, bob)
    actions.do_leave_table(Table.objects.get(pk=table.pk), alice)
    data = render.table_data(table.pk)
    html = render.board(data, bob).html
    assert "Bot for alice" in html
    assert "alice left the table" in html
    seat = next(p for p in data.players if p.name == "alice").seat
    assert f'id="seat-{seat}" aria-label="Bot for alice' in html


def test_bidirectional_controls_are_removed_from_chat():
    variant = Variant.objects.get(slug="classic")
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    table = actions.do_create_table(alice, name="T", variant=variant, seats=2)
    actions.do_join_table(table, bob)
    line = actions.do_chat(table, alice, "\u202egnp.exe\u202c and \u2066isolated\u2069 \u200fmark")
    assert line.text == "gnp.exe and isolated mark"
