"""Ratings: OpenSkill Plackett-Luce over places, with fixed-strength bots."""

from datetime import UTC, datetime

import pytest

from stats.rating import BOT_MU, Entrant, bot_rating, display_rating, rate
from stats.recording import GameFacts, Ledger, SeatFacts, SeatResult

WHEN = datetime(2025, 1, 1, tzinfo=UTC)


def game(game_id, places, users, rated=True, bots=None, variant=1):
    bots = bots or {}
    seats = [SeatResult(i, users[i], bots.get(i, ""), place, False, SeatFacts())
             for i, place in enumerate(places)]
    return GameFacts(game_id, variant, WHEN, rated, seats)


def test_a_newcomer_starts_at_1000():
    assert display_rating(25.0, 25.0 / 3) == pytest.approx(1000)


def test_the_winner_goes_up_and_the_loser_down():
    ledger = Ledger()
    results = {r.user_id: r for r in ledger.add(game(1, [1, 2], [10, 11]))}
    assert results[10].rating_after > 1000 > results[11].rating_after
    winner, loser = ledger.rows[(10, None)], ledger.rows[(11, None)]
    assert winner.rating_mu > 25 > loser.rating_mu
    assert winner.rated_games == loser.rated_games == 1
    assert results[10].rating_before == results[11].rating_before == 1000
    assert results[10].rating_after == winner.rating


def test_the_ordinal_of_a_winner_goes_up():
    ledger = Ledger()
    before = ledger.row(10, None).rating
    ledger.add(game(1, [1, 2, 3], [10, 11, 12]))
    assert ledger.rows[(10, None)].rating > before


def test_a_shared_place_is_a_tie():
    ledger = Ledger()
    results = {r.user_id: r for r in ledger.add(game(1, [2, 2, 1], [10, 11, 12]))}
    assert results[10].rating_after == pytest.approx(results[11].rating_after)
    assert results[12].rating_after > results[10].rating_after
    tied = {r.user_id: r for r in Ledger().add(game(1, [1, 1], [10, 11]))}
    assert tied[10].rating_after == pytest.approx(tied[11].rating_after)


def test_unrated_games_do_not_change_ratings():
    ledger = Ledger()
    results = ledger.add(game(1, [1, 2], [10, 11], rated=False))
    row = ledger.rows[(10, None)]
    assert (row.rating, row.rating_mu, row.rated_games, row.games) == (1000, 25, 0, 1)
    assert all(r.rating_before is None and r.rating_after is None for r in results)


def test_bots_take_part_at_a_fixed_strength_and_are_never_updated():
    entrants = [Entrant(25, 25 / 3, 1), Entrant(*bot_rating("mc"), 2, fixed=True)]
    (human_mu, _), (bot_mu, bot_sigma) = rate(entrants)
    assert human_mu > 25
    assert (bot_mu, bot_sigma) == bot_rating("mc") == (BOT_MU["mc"], 1.0)


def test_beating_a_stronger_bot_is_worth_more():
    over_random = Ledger().add(game(1, [1, 2, 3], [10, 11, None], bots={2: "random"}))
    over_expert = Ledger().add(game(1, [1, 2, 3], [10, 11, None], bots={2: "mc"}))
    assert over_expert[0].rating_after > over_random[0].rating_after


def test_overall_and_per_variant_ratings_are_separate():
    ledger = Ledger()
    ledger.add(game(1, [1, 2], [10, 11], variant=1))
    ledger.add(game(2, [2, 1], [10, 11], variant=2))
    assert ledger.rows[(10, 1)].rating > 1000 > ledger.rows[(10, 2)].rating
    assert ledger.rows[(10, None)].rated_games == 2
    assert ledger.rows[(10, 1)].rated_games == ledger.rows[(10, 2)].rated_games == 1


def test_a_leaver_is_rated_at_the_place_recorded_for_them():
    ledger = Ledger()
    facts = game(1, [1, 3, 2], [10, 11, 12])
    facts.seats[1].left_early = True
    results = {r.user_id: r for r in ledger.add(facts)}
    assert results[11].left_early and results[11].place == 3
    assert results[11].rating_after < results[12].rating_after
