"""Issue 14, "Stats": Brag games are counted apart from Stop the Bus, with a ladder of
their own, and rebuilt from the logs the same."""

import random

import pytest
from django.core.management import call_command

from games import actions
from games.kinds import BRAG
from games.models import Game
from stats.brag import brag_game_facts, replay_brag
from stats.models import BragResult, BragStats, PlayerGame, PlayerStats
from tests.test_brag_table import brag_table

pytestmark = pytest.mark.django_db


def play_to_the_end(game, rng):
    """Every seat plays the casual bot's moves; the table deals each next hand."""
    for _ in range(5000):
        game = Game.objects.get(pk=game.pk)
        if game.status == Game.Status.FINISHED:
            return game
        state = actions.state_of(game)
        if state.phase == "showdown":
            actions.do_play(game.pk, None, BRAG.next_hand(), game.version, by="table")
            continue
        seat = state.turn
        people = set(game.players.filter(user__isnull=False, left_early=False)
                     .values_list("seat", flat=True))
        bot = BRAG.make_bot("greedy", state.rules, rng)
        move = BRAG.to_action(bot.choose(BRAG.seat_view(state, seat)))
        actions.do_play(game.pk, seat, move, game.version,
                        by="player" if seat in people else "bot")
    raise AssertionError("the game did not end")


def expected_facts(game):
    """The facts, worked out again from the engine's settlements, hand by hand."""
    players = list(game.players.order_by("seat"))
    log = list(game.actions.filter(seq__gte=1).order_by("seq")
               .values_list("seat", "payload", "by"))
    state, per_hand, _ = replay_brag(BRAG.rules_from(game.rules), [p.name for p in players],
                                     bytes.fromhex(game.seed), log)
    return state, per_hand


def test_a_finished_brag_game_is_counted_in_brag_stats_only():
    table, game, ann, bob = brag_table(bot=True, max_hands=6)
    game = play_to_the_end(game, random.Random(4))
    assert not PlayerStats.objects.exists() and not PlayerGame.objects.exists()
    state, per_hand = expected_facts(game)
    assert len(per_hand) == state.hand_no
    for user in (ann, bob):
        player = game.players.get(user=user)
        result = BragResult.objects.get(game=game, user=user)
        overall = BragStats.objects.get(user=user, variant__isnull=True)
        in_variant = BragStats.objects.get(user=user, variant=game.variant)
        seat = player.seat
        assert result.place == player.place == state.places[seat]
        assert result.net_chips == state.chips[seat] - 100 == overall.net_chips
        assert result.hands == sum(h[seat].hands for h in per_hand) == overall.hands
        assert result.hands_won == sum(h[seat].hands_won for h in per_hand)
        assert result.biggest_pot == max(h[seat].biggest_pot for h in per_hand)
        assert result.sees_won + result.sees_lost == sum(
            1 for h in per_hand if h[seat].sees_won or h[seat].sees_lost)
        assert result.blind_hands == sum(h[seat].blind_hands for h in per_hand)
        assert (overall.games, in_variant.games) == (1, 1)
        assert overall.wins == (player.place == 1)
        # a ladder of its own: only rated games move it, and a rated game moves it
        assert overall.rated_games == (1 if game.rated else 0)


def test_settlements_make_the_counts():
    # hands won, sees and blind hands come from the engine's own settlement records
    table, game, ann, bob = brag_table(bot=False, seats=2, max_hands=1)
    state = actions.state_of(game)
    first = state.turn
    actions.do_play(game.pk, first, BRAG.action_from_dict({"kind": "bet", "seat": first,
                                                           "stake": 2}), game.version)
    game.refresh_from_db()
    second = 1 - first
    actions.do_play(game.pk, second, BRAG.action_from_dict({"kind": "see", "seat": second}),
                    game.version)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    state = actions.state_of(game)
    see = state.settlement["see"]
    seer = BragResult.objects.get(game=game, seat=second)
    seen = BragResult.objects.get(game=game, seat=first)
    assert (seer.sees_won, seer.sees_lost) == ((1, 0) if see["seer_won"] else (0, 1))
    assert (seen.sees_won, seen.sees_lost) == (0, 0)
    assert seer.blind_hands == 1 and seen.blind_hands == 1  # both played the hand blind
    winner = state.settlement["pots"][0]["winner"]
    by_seat = {r.seat: r for r in (seer, seen)}
    assert by_seat[winner].hands_won == 1 and by_seat[1 - winner].hands_won == 0
    assert by_seat[winner].biggest_pot == state.settlement["pots"][0]["chips"]
    assert seer.hands == seen.hands == 1


def test_rebuilding_gives_what_was_written_game_by_game():
    table, game, ann, bob = brag_table(bot=True, max_hands=4)
    play_to_the_end(game, random.Random(7))
    before = {(r.user_id, r.variant_id): [getattr(r, f) for f in
                                          ("games", "wins", "net_chips", "biggest_pot", "hands",
                                           "hands_won", "sees_won", "sees_lost", "blind_hands",
                                           "rating")]
              for r in BragStats.objects.all()}
    call_command("rebuild_stats", verbosity=0)
    after = {(r.user_id, r.variant_id): [getattr(r, f) for f in
                                         ("games", "wins", "net_chips", "biggest_pot", "hands",
                                          "hands_won", "sees_won", "sees_lost", "blind_hands",
                                          "rating")]
             for r in BragStats.objects.all()}
    assert before == after and before
    assert not PlayerStats.objects.exists()


def test_a_leaver_is_counted_up_to_their_own_last_hand():
    table, game, ann, bob = brag_table(bot=True, max_hands=5)
    actions.do_leave_table(table, bob)
    game = play_to_the_end(game, random.Random(3))
    players = list(game.players.order_by("seat"))
    log = list(game.actions.filter(seq__gte=1).order_by("seq").values_list("seat", "payload",
                                                                            "by"))
    facts = brag_game_facts(game, players, log)
    bob_facts = next(s for s in facts.seats if s.user_id == bob.pk)
    assert bob_facts.left_early and bob_facts.facts.hands == 0
    assert BragResult.objects.get(game=game, user=bob).hands == 0


# -- the pages: profile, history, the Brag ladder, replays ------------------------------------


def finished_brag_game(seed=5, hands=4):
    table, game, ann, bob = brag_table(bot=True, max_hands=hands)
    return play_to_the_end(game, random.Random(seed)), ann, bob


def test_a_profile_shows_brag_apart_and_lists_brag_games(client):
    from django.urls import reverse

    game, ann, bob = finished_brag_game()
    row = BragStats.objects.get(user=ann, variant__isnull=True)
    page = client.get(reverse("stats:profile", args=["ann"])).content.decode()
    assert "Three Card Brag" in page and "Hands played blind" in page
    assert f"Biggest pot won</dt><dd>{row.biggest_pot}<" in page
    assert reverse("stats:replay", args=[game.pk]) in page
    history = client.get(reverse("stats:history", args=["ann"]) + "?game=brag")
    assert history.status_code == 200
    assert "1 finished game of Three Card Brag" in history.content.decode()
    # Stop the Bus's own history knows nothing of it
    plain = client.get(reverse("stats:history", args=["ann"])).content.decode()
    assert reverse("stats:replay", args=[game.pk]) not in plain


def test_the_brag_ladder_is_its_own(client):
    from django.urls import reverse

    from stats.views import LEADERBOARD_MIN_GAMES

    finished_brag_game()
    BragStats.objects.filter(variant__isnull=True).update(rated_games=LEADERBOARD_MIN_GAMES)
    page = client.get(reverse("stats:leaderboard") + "?game=brag").content.decode()
    assert "Leaderboard: Three Card Brag" in page and ">ann<" in page and ">bob<" in page
    plain = client.get(reverse("stats:leaderboard")).content.decode()
    assert ">ann<" not in plain


def test_a_brag_replay_verifies_every_shuffle_commitment(client):
    from django.urls import reverse

    from stats.brag_replay import brag_replay
    from stats.replay import replay as stop_the_bus_replay  # noqa: F401 -- the other kind's

    game, ann, bob = finished_brag_game(seed=9, hands=6)
    players = list(game.players.select_related("user").order_by("seat"))
    log = list(game.actions.order_by("seq"))
    view = brag_replay(game, players, log, 0)
    state = actions.state_of(game)
    assert len(view.shuffles) == state.shuffles + 1  # the cut and every shuffle
    assert view.all_verified and all(s.matches for s in view.shuffles)
    response = client.get(reverse("stats:replay", args=[game.pk]) + f"?step={view.last_step}")
    assert response.status_code == 200
    page = response.content.decode()
    assert f"all {len(view.shuffles)} verified" in page
    # a pack changed after its commitment was published is caught
    first_deal = next(a for a in log if any(e.get("kind") == "deal" for e in a.events))
    for event in first_deal.events:
        if event.get("kind") == "deal":
            event["data"]["commitment"] = "0" * 64
    tampered = brag_replay(game, players, log, 0)
    assert not tampered.all_verified
    assert not next(s for s in tampered.shuffles if s.label == "shuffle:1").ok


def test_a_profile_with_brag_games_runs_a_fixed_number_of_queries(
        client, django_assert_max_num_queries):
    from django.urls import reverse

    finished_brag_game(seed=1, hands=2)
    url = reverse("stats:profile", args=["ann"])
    with django_assert_max_num_queries(12):  # the Stop the Bus profile's 9, and Brag's 3
        assert client.get(url).status_code == 200
    table, game, _, _ = brag_table(bot=True, max_hands=3)  # the same people, again
    play_to_the_end(game, random.Random(2))
    assert BragResult.objects.filter(user__username="ann").count() == 2
    with django_assert_max_num_queries(12):
        assert client.get(url).status_code == 200


def test_a_replay_of_a_game_stored_before_events_carried_their_facts_reads_the_same(client):
    """The log's events of an older game lack the facts the data carries now (the ante, the
    hands shown...): the replay reads them back from their words and says the same."""
    from django.urls import reverse
    from django.utils import translation

    from stats.brag_replay import brag_replay
    from tests.test_i18n_brag_events import as_stored_before

    game, ann, bob = finished_brag_game(seed=9, hands=6)
    players = list(game.players.select_related("user").order_by("seat"))
    log = list(game.actions.order_by("seq"))

    def said(log):
        with translation.override("ja"):
            return [brag_replay(game, players, log, row.seq).events for row in log]

    now = said(log)
    assert any("アンティ" in text for texts in now for text in texts)
    for row in log:
        row.events = [as_stored_before(e) for e in row.events]
        row.save(update_fields=["events"])
    old_log = list(game.actions.order_by("seq"))
    assert not any("ante" in e.get("data", {}) for row in old_log for e in row.events)
    assert said(old_log) == now
    deal = next(row.seq for row in old_log if row.seq and any(
        e["kind"] == "deal" for e in row.events))
    page = client.get(reverse("stats:replay", args=[game.pk]) + f"?step={deal}",
                      HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "全員がアンティとしてチップ1枚を出し" in page
