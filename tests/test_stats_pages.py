"""The stats pages: profile, leaderboard, history, head-to-head and replays."""

import re

import pytest
from django.urls import reverse

from games.models import Action, Game
from games.templatetags.cards import pretty_card
from stats.models import PlayerGame, PlayerStats
from stats.views import LEADERBOARD_MIN_GAMES
from tests.factories import UserFactory, finished_game, preset_variant, start_table_game
from tests.html_contract import cards_in
from tests.test_pages import DocumentOutline

pytestmark = pytest.mark.django_db


def assert_well_formed(html, title):
    page = DocumentOutline()
    page.feed(html)
    page.close()
    assert page.doctype == "doctype html"
    assert page.problems == []
    assert page.open_tags == [], f"left open: {page.open_tags}"
    assert {"html", "head", "body", "header", "main", "footer", "nav", "h1"} <= page.seen
    assert " ".join(page.title.split()) == f"{title} · Stop the Bus"


def face_up_cards(html):
    """The face-up card codes; asserts the card contract and that ids are unique."""
    codes, _, ids = cards_in(html)
    assert len(ids) == len(set(ids)), "an id is used twice"
    return codes


@pytest.fixture
def players():
    return UserFactory(username="alice"), UserFactory(username="bob")


@pytest.fixture
def one_game(players):
    return finished_game(list(players), bots=["random"])


# -- a player's page -----------------------------------------------------------------------------


def test_profile_of_a_player_with_no_games(client, players):
    response = client.get(reverse("stats:profile", args=["alice"]))
    html = response.content.decode()
    assert response.status_code == 200
    assert_well_formed(html, "alice: stats")
    assert "has not finished a game" in html
    assert "games against bots too" in html


def test_my_stats_needs_a_log_in_and_shows_my_record(client, one_game):
    response = client.get(reverse("stats:mine"))
    assert response.status_code == 302 and reverse("login") in response["Location"]
    client.force_login(one_game.players.get(seat=0).user)
    response = client.get(reverse("stats:mine"))
    html = response.content.decode()
    assert_well_formed(html, "My stats")
    assert 'href="/u/alice/"' in html
    assert 'aria-current="page"' in html  # the nav's "My stats" link


def test_profile_with_one_game(client, one_game):
    alice = PlayerStats.objects.get(user__username="alice", variant=None)
    response = client.get(reverse("stats:profile", args=["alice"]))
    html = response.content.decode()
    assert_well_formed(html, "alice: stats")
    assert f">{round(alice.rating)}" in html
    assert "1 rated game, provisional" in html
    for chart in ("rating-chart", "places-chart", "categories-chart"):
        assert re.search(rf'<svg class="chart" id="{chart}" role="img"[^>]*'
                         rf'aria-labelledby="{chart}-title {chart}-desc"', html)
        assert f'<title id="{chart}-title">' in html and f'<desc id="{chart}-desc">' in html
    assert face_up_cards(html) == alice.best_hand
    assert alice.best_hand_description in html
    assert reverse("stats:replay", args=[one_game.pk]) in html
    assert "Random bot" in html or "Beginner bot" in html


def test_profile_filtered_by_variant(client, one_game):
    url = reverse("stats:profile", args=["alice"])
    html = client.get(url + "?variant=classic").content.decode()
    assert '<option value="classic" selected>' in html
    html = client.get(url + "?variant=race-to-five").content.decode()
    assert "No finished games of Race to Five yet" in html
    assert client.get(url + "?variant=no-such-thing").status_code == 404
    assert client.get(reverse("stats:profile", args=["nobody"])).status_code == 404


def test_the_rating_chart_follows_the_games(client, players):
    for _ in range(3):
        finished_game(list(players))
    html = client.get(reverse("stats:profile", args=["alice"])).content.decode()
    chart = re.search(r'<svg class="chart" id="rating-chart".*?</svg>', html, re.S).group(0)
    points = re.search(r'<polyline[^>]*points="([^"]+)"', chart).group(1).split()
    assert len(points) == 3
    assert "3 rated games" in chart


# -- leaderboard and history ---------------------------------------------------------------------


def test_leaderboard_lists_players_with_enough_rated_games(client, players):
    carol = UserFactory(username="carol")
    for _ in range(LEADERBOARD_MIN_GAMES):
        finished_game(list(players))
    finished_game([players[0], carol])
    response = client.get(reverse("stats:leaderboard"))
    html = response.content.decode()
    assert_well_formed(html, "Leaderboard")
    assert 'href="/u/alice/"' in html and 'href="/u/bob/"' in html
    assert "carol" not in html, "one rated game is not enough"
    ranked = PlayerStats.objects.filter(variant=None, rated_games__gte=5).order_by("-rating")
    first = html.index(f'href="/u/{ranked[0].user.username}/"')
    assert first < html.index(f'href="/u/{ranked[1].user.username}/"')
    html = client.get(reverse("stats:leaderboard") + "?variant=race-to-five").content.decode()
    assert "Nobody has played 5 rated games of Race to Five yet" in html
    assert_well_formed(html, "Leaderboard: Race to Five")


def test_leaderboard_with_nobody(client, db):
    html = client.get(reverse("stats:leaderboard")).content.decode()
    assert "Nobody has played" in html


def test_history_is_paginated_newest_first(client, players, settings):
    games = [finished_game(list(players)) for _ in range(3)]
    from stats import views

    views_page, views.HISTORY_PAGE = views.HISTORY_PAGE, 2
    try:
        html = client.get(reverse("stats:history", args=["alice"])).content.decode()
        assert_well_formed(html, "Games of alice")
        replays = re.findall(r'href="/games/(\d+)/replay/"', html)
        assert [int(g) for g in replays] == [games[2].pk, games[1].pk]
        assert "Page 1 of 2" in html and 'rel="next" href="?page=2"' in html
        html = client.get(reverse("stats:history", args=["alice"]) + "?page=2").content.decode()
        assert [int(g) for g in re.findall(r'href="/games/(\d+)/replay/"', html)] == [games[0].pk]
    finally:
        views.HISTORY_PAGE = views_page


def test_history_of_a_player_with_no_games(client, players):
    html = client.get(reverse("stats:history", args=["bob"])).content.decode()
    assert_well_formed(html, "Games of bob")
    assert "No finished games" in html


# -- head to head --------------------------------------------------------------------------------


def test_head_to_head_counts_who_finished_ahead(client, players):
    alice, bob = players
    carol = UserFactory(username="carol")
    finished_game([alice, bob])
    finished_game([alice, bob, carol])
    finished_game([bob, alice], variant=preset_variant("race-to-five"))
    finished_game([alice, carol])  # bob was not there
    ahead = behind = 0
    for result in PlayerGame.objects.filter(user=alice, game__results__user=bob):
        theirs = PlayerGame.objects.get(game=result.game, user=bob).place
        ahead += result.place < theirs
        behind += result.place > theirs
    response = client.get(reverse("stats:head_to_head", args=["alice", "bob"]))
    html = response.content.decode()
    assert_well_formed(html, "alice vs bob")
    assert "3 games together" in html
    assert f"alice finished ahead {ahead} time" in html
    assert f"bob {behind} time" in html
    assert "Race to Five" in html and "Stop the Bus (classic)" in html
    assert len(re.findall(r'href="/games/\d+/replay/"', html)) == 3


def test_head_to_head_with_no_shared_games_and_bad_names(client, players):
    html = client.get(reverse("stats:head_to_head", args=["alice", "bob"])).content.decode()
    assert "have not finished a game together" in html
    assert client.get(reverse("stats:head_to_head", args=["alice", "zed"])).status_code == 404
    assert client.get(reverse("stats:head_to_head", args=["alice", "alice"])).status_code == 404


# -- replays -------------------------------------------------------------------------------------


def test_replay_steps_forwards_and_backwards(client, one_game):
    url = reverse("stats:replay", args=[one_game.pk])
    last = Action.objects.filter(game=one_game).count() - 1
    start = client.get(url).content.decode()
    assert_well_formed(start, "Replay: Test table, game 1, step 0")
    assert "Cut for the deal" in start
    assert f"Step 0 of {last}" in start
    assert 'rel="next" href="?step=1"' in start and 'rel="prev"' not in start
    middle = client.get(url + "?step=2").content.decode()
    assert 'rel="prev" href="?step=1"' in middle and 'rel="next" href="?step=3"' in middle
    second = Action.objects.get(game=one_game, seq=2)
    for event in second.events:  # cards read as the table's log shows them ("10♦")
        assert pretty_card(event["text"]).replace("'", "&#x27;") in middle
    end = client.get(url + f"?step={last}").content.decode()
    assert "Game over" in end and 'rel="next"' not in end
    assert client.get(url + "?step=99999").content.decode().count(f"Step {last} of {last}") == 1
    assert "Step 0 of" in client.get(url + "?step=abc").content.decode()


def test_replay_shows_every_hand_as_contract_cards(client, one_game):
    url = reverse("stats:replay", args=[one_game.pk])
    html = client.get(url + "?step=1").content.decode()
    seats = one_game.players.count()
    assert len(face_up_cards(html)) == 3 * seats + 3, "every hand and the widow face up"
    for seat in one_game.players.all():
        assert f'aria-label="{seat.name}\'s cards"' in html


def test_replay_verifies_each_hand_against_the_announced_commitment(client, one_game):
    url = reverse("stats:replay", args=[one_game.pk])
    html = client.get(url + "?step=1").content.decode()
    deal = next(e for e in Action.objects.get(game=one_game, seq=0).events
                if e["kind"] == "deal")
    assert deal["data"]["commitment"] in html
    assert "Verified." in html and "Not verified" not in html
    assert "all " in html and " verified" in html

    # a log whose announced commitment differs from the revealed deck's: flagged
    start = Action.objects.get(game=one_game, seq=0)
    for event in start.events:
        if event["kind"] == "deal":
            event["data"]["commitment"] = "0" * 64
    start.save()
    html = client.get(url + "?step=1").content.decode()
    assert "Not verified" in html
    assert "not the commitment announced" in html


def test_a_running_game_has_no_replay(client, players):
    game = start_table_game(list(players))
    assert game.status == Game.Status.PLAYING
    assert client.get(reverse("stats:replay", args=[game.pk])).status_code == 404
    assert client.get(reverse("stats:replay", args=[987654])).status_code == 404


# -- cheap to serve ------------------------------------------------------------------------------


# a profile reads one row more than it did: the player's Brag numbers (stats.brag)
PAGES = {
    "mine": (lambda g: reverse("stats:mine"), 9),
    "profile": (lambda g: reverse("stats:profile", args=["alice"]), 9),
    "profile-variant": (lambda g: reverse("stats:profile", args=["alice"]) + "?variant=classic",
                        9),
    "leaderboard": (lambda g: reverse("stats:leaderboard"), 5),
    "history": (lambda g: reverse("stats:history", args=["alice"]), 8),
    "history-page-2": (lambda g: reverse("stats:history", args=["alice"]) + "?page=2", 8),
    "head-to-head": (lambda g: reverse("stats:head_to_head", args=["alice", "bob"]), 5),
    "replay": (lambda g: reverse("stats:replay", args=[g.pk]) + "?step=4", 5),
}


def test_pages_run_a_fixed_number_of_queries(client, players, django_assert_max_num_queries):
    """The same bound for one game as for many: nothing is counted per game."""
    client.force_login(players[0])
    game = finished_game(list(players), bots=["greedy"])

    def check_every_page():
        for page, (url_of, bound) in PAGES.items():
            with django_assert_max_num_queries(bound, info=page):
                assert client.get(url_of(game)).status_code == 200, page

    check_every_page()
    carol = UserFactory(username="carol")
    stock = preset_variant("draw-and-discard")
    for i in range(24):
        finished_game([*players, carol] if i % 3 else list(players),
                      variant=stock if i % 2 else None)
    assert PlayerGame.objects.filter(user=players[0]).count() == 25
    check_every_page()


@pytest.mark.parametrize("username", ["alice", "a.b@c+d-e_f", "ünï"])
def test_list_links_match_reverse(username):
    from stats.templatetags.stats_format import profile_url, replay_url

    assert profile_url(username) == reverse("stats:profile", args=[username])
    assert replay_url(42) == reverse("stats:replay", args=[42])


def test_replay_of_a_draw_and_discard_game_shows_the_piles(client, players):
    game = finished_game(list(players), variant=preset_variant("draw-and-discard"))
    html = client.get(reverse("stats:replay", args=[game.pk]) + "?step=1").content.decode()
    codes, backs, _ = cards_in(html)
    assert "Discard pile" in html and "face down" in html
    assert backs == 1, "the stock is one face-down card and a count"
    assert len(codes) >= 2 * 3 + 1


def test_a_private_tables_replay_is_for_its_players_and_invitees(client):
    from games.models import Table

    alice, stranger = UserFactory(), UserFactory()
    game = finished_game([alice], bots=["greedy"])
    Table.objects.filter(pk=game.table_id).update(private=True)
    url = reverse("stats:replay", args=[game.pk])
    client.force_login(stranger)
    assert client.get(url).status_code == 404
    client.get(reverse("games:invite", args=[game.table.invite_code]))
    assert client.get(url).status_code == 200
    client.force_login(alice)
    assert client.get(url).status_code == 200
