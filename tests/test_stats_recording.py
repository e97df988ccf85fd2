"""Aggregates written when a game ends: crafted showdowns, real games, leavers, rebuild."""

from datetime import UTC, datetime, timedelta

import pytest
from django.core.management import call_command
from django.db.models import Sum

from games import actions, engine
from games.engine import HouseRules, pass_turn, stop_bus
from games.engine.game import OVER, SHOWDOWN
from games.models import Action, Game, GamePlayer
from stats.models import PlayerGame, PlayerStats
from stats.recording import (
    GameFacts,
    Ledger,
    SeatFacts,
    SeatResult,
    record_finished_game,
    replay_log,
    seat_facts,
)
from tests.factories import (
    UserFactory,
    finished_game,
    play_out_game,
    preset_variant,
    start_table_game,
)
from tests.rigging import play, rigged

# -- crafted showdowns ---------------------------------------------------------------------------


def showdown(rules=None, hands=(), **kw):
    """Seat 0 stops the bus at once; everyone else passes. Returns the state after."""
    rules = rules or HouseRules()
    s = rigged(rules, hands=hands, widow="2S 7S 9S", dealer=len(hands) - 1, **kw)
    n = len(hands)
    assert s.turn == 0
    s, _ = play(s, stop_bus(0), *[pass_turn(i) for i in range(1, n)])
    assert s.phase in (SHOWDOWN, OVER)
    return s


def facts(state, seat):
    return seat_facts(state.rules, [state.showdown], seat)


def test_a_stopper_who_loses():
    s = showdown(hands=["2C 5D 8H", "AC AD 4H", "KC KD 3H"])
    stopper = facts(s, 0)
    assert (stopper.hands, stopper.survived, stopper.lives_lost) == (1, 0, 1)
    assert (stopper.stops, stopper.stops_lost) == (1, 1)
    assert stopper.categories == {"high_card": 1}
    other = facts(s, 1)
    assert (other.hands, other.survived, other.lives_lost, other.stops) == (1, 1, 0, 0)
    assert other.categories == {"pair": 1}
    assert other.best.cards == ["AD", "AC", "4H"]
    assert other.best.description == "Pair of aces, four kicker"


def test_a_stopper_who_loses_pays_the_penalty_in_lives():
    s = showdown(HouseRules(stopper_penalty=2), hands=["2C 5D 8H", "AC AD 4H"])
    assert facts(s, 0).lives_lost == 2
    assert facts(s, 0).stops_lost == 1


def test_a_stopper_who_survives():
    s = showdown(hands=["AC AD 4H", "2C 5D 8H"])
    assert (facts(s, 0).stops, facts(s, 0).stops_lost, facts(s, 0).survived) == (1, 0, 1)


def test_tied_worst_hands_all_lose():
    s = showdown(hands=["2C 5D 8H", "AC AD 4H", "2D 5H 8C"])
    assert [facts(s, i).lives_lost for i in range(3)] == [1, 0, 1]
    assert [facts(s, i).survived for i in range(3)] == [0, 1, 0]
    assert facts(s, 0).stops_lost == 1


def test_tied_worst_hands_with_suits_only_one_loses():
    s = showdown(HouseRules(tie_rule="suits"), hands=["2C 5D 8H", "AC AD 4H", "2D 5H 8C"])
    assert [facts(s, i).lives_lost for i in range(3)] == [0, 0, 1]
    assert facts(s, 0).stops_lost == 0


def test_floating_counts_the_life_and_the_float():
    s = showdown(hands=["AC AD 4H", "2C 5D 8H", "KC KD 3H"], lives=[3, 1, 3])
    f = facts(s, 1)
    assert (f.lives_lost, f.floats, f.survived) == (1, 1, 0)
    assert facts(s, 0).floats == 0


def test_elimination_in_the_same_showdown_shares_the_place():
    s = showdown(hands=["AC AD 4H", "2C 5D 8H", "2D 5H 8C"], lives=[3, 0, 0])
    assert s.phase == OVER and s.places == [1, 2, 2]
    assert facts(s, 1).lives_lost == facts(s, 2).lives_lost == 1
    game = GameFacts(1, 1, datetime(2025, 1, 1, tzinfo=UTC), True, [
        SeatResult(i, 100 + i, "", s.places[i], False, facts(s, i)) for i in range(3)])
    ledger = Ledger()
    results = {r.seat: r for r in ledger.add(game)}
    assert results[1].place == results[2].place == 2
    # equal ratings before and a shared place: equal ratings after
    assert results[1].rating_after == pytest.approx(results[2].rating_after)
    assert results[0].rating_after > results[1].rating_after


def test_a_showdown_that_would_put_everyone_out_loses_nobody_anything():
    s = showdown(hands=["2D 5H 8C", "2C 5D 8H"], lives=[0, 0])
    assert s.showdown["void"]
    for seat in (0, 1):
        f = facts(s, seat)
        assert (f.survived, f.lives_lost, f.stops_lost) == (1, 0, 0)


def test_with_points_the_stopper_loses_unless_theirs_is_a_best_hand():
    rules = engine.PRESETS["race-to-five"].rules
    s = showdown(rules, hands=["2C 5D 8H", "AC AD 4H", "KC KD 3H"])
    assert (facts(s, 0).stops, facts(s, 0).stops_lost, facts(s, 0).survived) == (1, 1, 0)
    assert facts(s, 1).survived == 1 and facts(s, 2).survived == 0


def test_the_best_hand_is_kept_across_showdowns():
    first = showdown(hands=["AC AD 4H", "2C 5D 8H"])
    second = showdown(hands=["3C 3D 3H", "2C 5D 8H"])
    third = showdown(hands=["KC KD 4H", "2C 5D 8H"])
    f = seat_facts(first.rules, [first.showdown, second.showdown, third.showdown], 0)
    assert f.best.description == "Prial of threes"
    assert f.categories == {"pair": 2, "prial": 1}
    assert f.hands == 3


def test_hands_after_the_last_hand_of_a_leaver_do_not_count():
    first = showdown(hands=["AC AD 4H", "2C 5D 8H"])
    later = dict(showdown(hands=["2C 5D 8H", "AC AD 4H"]).showdown, hand=2)
    f = seat_facts(first.rules, [first.showdown, later], 0, last_hand=1)
    assert (f.hands, f.lives_lost) == (1, 0)


# -- the ledger: counting and ratings ------------------------------------------------------------


def game_facts(game_id, places, users, rated=True, variant=1, bots=None, when=None):
    bots = bots or {}
    seats = [SeatResult(i, users[i], bots.get(i, ""), place, False, SeatFacts())
             for i, place in enumerate(places)]
    return GameFacts(game_id, variant, when or datetime(2025, 1, 1, tzinfo=UTC), rated, seats)


def test_places_wins_and_averages_per_scope():
    ledger = Ledger()
    ledger.add(game_facts(1, [1, 2], [10, 11], variant=1))
    ledger.add(game_facts(2, [3, 1, 2], [10, 11, 12], variant=2))
    overall, v1, v2 = ledger.rows[(10, None)], ledger.rows[(10, 1)], ledger.rows[(10, 2)]
    assert (overall.games, overall.wins, overall.place_counts) == (2, 1, {"1": 1, "3": 1})
    assert overall.average_place == 2
    assert (v1.games, v1.wins, v2.games, v2.wins) == (1, 1, 1, 0)


def test_bots_get_no_rows():
    ledger = Ledger()
    results = ledger.add(game_facts(1, [2, 1], [10, None], bots={1: "greedy"}))
    assert [r.user_id for r in results] == [10]
    assert set(ledger.rows) == {(10, None), (10, 1)}


# -- real games through games.actions ------------------------------------------------------------


@pytest.fixture
def classic(db):
    return preset_variant("classic")


def independent_tally(game):
    """Per seat: (hands, lost, lives lost, stops, stops lost), straight from a replay."""
    rules = HouseRules.from_dict(game.rules)
    names = [p.name for p in game.players.order_by("seat")]
    state, _ = engine.new_game(rules, names, bytes.fromhex(game.seed))
    tally = {seat: [0, 0, 0, 0, 0] for seat in range(len(names))}
    for row in game.actions.filter(seq__gte=1).order_by("seq"):
        before = state.phase
        state, _ = engine.apply(state, engine.Action.from_dict(row.payload))
        if state.phase in (SHOWDOWN, OVER) and before == "play":
            sd = state.showdown
            for key in sd["hands"]:
                seat = int(key)
                lost = seat in sd["losers"] and not sd["void"]
                t = tally[seat]
                t[0] += 1
                t[1] += lost
                t[2] += sd["lives_lost"].get(key, 0)
                t[3] += sd["stopper"] == seat
                t[4] += sd["stopper"] == seat and lost
    return tally


def test_a_finished_game_is_counted_for_its_people(classic):
    a, b = UserFactory(), UserFactory()
    game = finished_game([a, b], bots=["random"], variant=classic)
    assert game.status == Game.Status.FINISHED and game.rated
    results = {r.user_id: r for r in PlayerGame.objects.filter(game=game)}
    assert set(results) == {a.pk, b.pk}, "bots have no results"
    tally = independent_tally(game)
    for player in game.players.exclude(user=None):
        overall = PlayerStats.objects.get(user=player.user, variant=None)
        scoped = PlayerStats.objects.get(user=player.user, variant=classic)
        hands, lost, lives, stops, stops_lost = tally[player.seat]
        for row in (overall, scoped):
            assert row.games == 1
            assert row.wins == (player.place == 1)
            assert row.place_counts == {str(player.place): 1}
            assert (row.hands, row.hands_survived, row.lives_lost) == (hands, hands - lost, lives)
            assert (row.stops, row.stops_lost) == (stops, stops_lost)
            assert sum(row.categories.values()) == hands
            assert row.rated_games == 1
            assert len(row.best_hand) == 3 and row.best_hand_description
        result = results[player.user_id]
        assert result.place == player.place and result.players == 3
        assert (result.hands, result.lives_lost, result.stops) == (hands, lives, stops)
        assert result.rating_before == 1000
        assert result.rating_after == overall.rating
    # the random bot may win now and then: compare the two people with each other
    better, worse = sorted(results.values(), key=lambda r: r.place)
    if better.place < worse.place:
        assert better.rating_after > worse.rating_after
    else:  # put out by the same showdown: a tie, rated alike
        assert better.rating_after == worse.rating_after


def test_the_log_replays_to_the_stored_state(classic):
    a, b = UserFactory(), UserFactory()
    game = finished_game([a, b], variant=classic)
    rows = game.actions.filter(seq__gte=1).order_by("seq").values_list("seat", "payload", "by")
    state, showdowns, _ = replay_log(HouseRules.from_dict(game.rules),
                                     [p.name for p in game.players.all()],
                                     bytes.fromhex(game.seed), rows)
    assert state.to_dict() == game.state
    assert len(showdowns) == state.hand_no


def test_a_game_with_one_person_is_counted_but_not_rated(classic):
    a = UserFactory()
    game = finished_game([a], bots=["greedy", "random"], variant=classic)
    assert not game.rated
    row = PlayerStats.objects.get(user=a, variant=None)
    assert row.games == 1 and row.rated_games == 0 and row.rating == 1000
    result = PlayerGame.objects.get(game=game)
    assert result.rating_before is None and result.rating_after is None


def test_an_unrated_variant_changes_no_rating(db):
    variant = preset_variant("double-or-nothing", rated=False)
    a, b = UserFactory(), UserFactory()
    finished_game([a, b], variant=variant)
    assert list(PlayerStats.objects.values_list("rating", "rated_games").distinct()) == [(1000, 0)]
    assert PlayerStats.objects.filter(games=1).count() == 4


def test_recording_twice_counts_once(classic):
    a, b = UserFactory(), UserFactory()
    game = finished_game([a, b], variant=classic)
    record_finished_game(game, actions.state_of(game))
    assert PlayerStats.objects.get(user=a, variant=None).games == 1
    assert PlayerGame.objects.filter(game=game).count() == 2


def test_a_player_who_leaves_keeps_their_place_and_only_their_own_hands(classic):
    a, b, c = UserFactory(), UserFactory(), UserFactory()
    game = start_table_game([a, b, c], variant=classic)
    leaver_seat = game.players.get(user=c).seat
    # play until the second hand is dealt, then c leaves
    while actions.state_of(Game.objects.get(pk=game.pk)).hand_no < 2:
        game = Game.objects.get(pk=game.pk)
        state = actions.state_of(game)
        if state.phase == SHOWDOWN:
            actions.do_play(game.pk, None, engine.next_hand(), game.version, by="table")
            continue
        actions.do_play(game.pk, state.turn, actions.bot_choice(game, state, state.turn, "greedy"),
                     game.version, by="player")
    actions.do_leave_table(game.table, c)
    leaver = GamePlayer.objects.get(game=game, user=c)
    assert leaver.left_early
    recorded_place = leaver.place
    game = play_out_game(game, by_seat=lambda seat: "bot" if seat == leaver_seat else "player")
    leaver.refresh_from_db()
    assert leaver.place == recorded_place
    result = PlayerGame.objects.get(game=game, user=c)
    assert result.left_early and result.place == recorded_place
    assert result.hands == 1, "only the hand they finished themselves"
    assert PlayerStats.objects.get(user=c, variant=None).place_counts == {str(recorded_place): 1}


def test_rebuild_equals_what_was_written_game_by_game(db):
    classic = preset_variant("classic")
    points = preset_variant("race-to-five")
    stock = preset_variant("draw-and-discard")
    users = [UserFactory() for _ in range(4)]
    finished_game(users[:2], bots=["random"], variant=classic)
    finished_game(users[1:4], variant=points)
    finished_game([users[0]], bots=["greedy"], variant=classic)
    finished_game([users[2], users[0]], bots=["mc"], variant=stock)
    finished_game(users[:3], bots=["greedy"], variant=classic)
    running = start_table_game(users[:2], variant=classic)  # not finished: not counted
    before = snapshot()
    assert before["results"] and before["stats"]
    call_command("rebuild_stats", verbosity=0)
    assert snapshot() == before
    assert not PlayerGame.objects.filter(game=running).exists()
    totals = PlayerGame.objects.filter(user=users[0]).aggregate(Sum("hands"))
    assert PlayerStats.objects.get(user=users[0], variant=None).hands == totals["hands__sum"]


def snapshot():
    stats = [
        {k: v for k, v in row.items() if k != "id"}
        for row in PlayerStats.objects.order_by("user_id", "variant_id").values()
    ]
    results = [
        {k: v for k, v in row.items() if k != "id"}
        for row in PlayerGame.objects.order_by("game_id", "user_id").values()
    ]
    return {"stats": stats, "results": results}


def test_rebuild_orders_games_by_when_they_finished(classic):
    a, b = UserFactory(), UserFactory()
    first = finished_game([a, b], variant=classic)
    second = finished_game([a, b], variant=classic)
    # pretend the second game finished first: the rebuild rates it first
    Game.objects.filter(pk=second.pk).update(finished_at=first.finished_at - timedelta(hours=1))
    call_command("rebuild_stats", verbosity=0)
    rows = PlayerGame.objects.filter(user=a).order_by("finished_at")
    assert [r.game_id for r in rows] == [second.pk, first.pk]
    assert rows[0].rating_before == 1000
    assert Action.objects.filter(game=first).exists()
