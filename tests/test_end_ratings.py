"""The end of a game: each player's place and the rating change the game made for them,
read through the game kind (``GameKind.rating_changes``) only once the game is over."""

import random
import re

import pytest

from games import actions, render
from games.kinds import BRAG, STOP_THE_BUS
from stats.models import BragResult, PlayerGame
from stats.rating import RatingChange
from tests.factories import (
    UserFactory,
    finished_game,
    play_out_game,
    preset_variant,
    start_table_game,
)
from tests.test_brag_stats import play_to_the_end
from tests.test_brag_table import brag_table

pytestmark = pytest.mark.django_db

ROW = re.compile(r'<tr class="end-ratings__row[^"]*" data-seat="(\d+)">(.*?)</tr>', re.S)


def board_html(game, user):
    render.clear()
    return render.board(render.table_data(game.table_id), user).html


def panel(html):
    """The rating part of the end panel: {seat: the row's HTML}."""
    assert '<section class="end-ratings"' in html
    start = html.index('<section class="end-ratings"')
    part = html[start:html.index("</section>", start)]
    return {int(seat): row for seat, row in ROW.findall(part)}, part


def assert_shows(row, change: RatingChange):
    sign = f"+{change.change}" if change.change > 0 else (
        f"\u2212{-change.change}" if change.change < 0 else "\u00b10")
    word = {"up": f"rating up {change.size}", "down": f"rating down {change.size}",
            "same": "rating unchanged"}[change.direction]
    assert (f'{change.before} <span class="end-ratings__arrow">&rarr;</span> '
            f"<strong>{change.after}</strong>") in row
    assert f'<span aria-hidden="true">{sign}</span>' in row
    assert f'<span class="visually-hidden">{word}</span>' in row  # not said by colour alone
    assert f"end-ratings__change--{change.direction}" in row


def test_a_rated_stop_the_bus_game_ends_with_each_players_rating_before_after_and_change():
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    game = finished_game([alice, bob], bots=["greedy"])
    assert game.rated
    rows, _ = panel(board_html(game, alice))
    results = {r.seat: r for r in PlayerGame.objects.filter(game=game)}
    assert len(results) == 2 and len(rows) == 3
    for seat, result in results.items():
        change = RatingChange.shown(result.rating_before, result.rating_after)
        assert_shows(rows[seat], change)
        ordinal = {1: "1st", 2: "2nd", 3: "3rd"}[result.place]
        assert f'<td class="end-ratings__place">{ordinal}</td>' in rows[seat]
    bot_seat = game.players.get(user__isnull=True).seat
    assert "bot: not rated" in rows[bot_seat] and "&rarr;" not in rows[bot_seat]
    # finishing order, and the viewer's own row marked
    places = [game.players.get(seat=s).place for s in rows]
    assert places == sorted(places)
    alice_seat = game.players.get(user=alice).seat
    assert re.findall(r'<tr class="end-ratings__row is-me" data-seat="(\d+)"',
                      board_html(game, alice)) == [str(alice_seat)]
    assert "is-me" not in panel(board_html(game, UserFactory(username="watcher")))[1]


def test_a_rated_brag_game_ends_with_each_players_brag_rating_change():
    table, game, ann, bob = brag_table(bot=True, max_hands=4)
    game = play_to_the_end(game, random.Random(5))
    assert game.rated
    html = board_html(game, bob)
    rows, _ = panel(html)
    results = {r.seat: r for r in BragResult.objects.filter(game=game)}
    assert len(results) == 2 and len(rows) == 3
    for seat, result in results.items():
        assert_shows(rows[seat], RatingChange.shown(result.rating_before, result.rating_after))
    assert "bot: not rated" in rows[game.players.get(user__isnull=True).seat]
    # the chips stay in the standings above
    assert "standings__list" in html and 'class="stack chips"' in html


@pytest.mark.parametrize("how", ["unrated variant", "one person and bots"])
def test_an_unrated_game_shows_no_rating_numbers(how):
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    if how == "unrated variant":
        game = finished_game([alice, bob], bots=["greedy"],
                             variant=preset_variant("classic", rated=False))
    else:
        game = finished_game([alice], bots=["greedy", "random"])
    assert not game.rated
    rows, part = panel(board_html(game, alice))
    assert rows == {}
    assert "Unrated game" in part
    assert "&rarr;" not in part and not re.search(r"[+\u2212]\d", part)


def test_a_leaver_keeps_the_rating_change_of_the_place_they_left_in():
    """Stats rate a leaver at the place they left in: the panel shows that change under
    their own name (their seat was played on by a bot, named as one in the standings)."""
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    game = start_table_game([alice, bob], bots=["greedy"])
    actions.do_leave_table(game.table, bob)
    game = play_out_game(game)
    result = PlayerGame.objects.get(game=game, user=bob)
    assert result.left_early and result.rated
    html = board_html(game, alice)
    rows, _ = panel(html)
    row = rows[result.seat]
    assert "bob" in row and "Bot for bob" not in row and "(left)" in row
    assert_shows(row, RatingChange.shown(result.rating_before, result.rating_after))
    assert "Bot for bob" in html  # the standings name the seat as it was played


def test_the_change_is_the_difference_of_the_numbers_shown():
    change = RatingChange.shown(1012.4, 1035.6)
    assert (change.before, change.after, change.change, change.direction) == (
        1012, 1036, 24, "up")
    assert RatingChange.shown(1000.4, 999.6).direction == "same"  # 1000 -> 1000
    down = RatingChange.shown(1100.0, 1088.2)
    assert (down.change, down.size, down.direction) == (-12, 12, "down")


def test_the_kinds_read_their_own_rating_rows():
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    game = finished_game([alice, bob])
    changes = STOP_THE_BUS.hook("rating_changes")(game)
    assert set(changes) == {0, 1}
    assert BRAG.hook("rating_changes")(game) == {}  # Brag's rows: none for this game


def test_ratings_are_read_once_for_every_viewer_and_never_during_play(
        django_assert_num_queries):
    """A board during play costs no query for ratings (the game is not over); at the end
    one query serves every viewer of that read of the table, and an unrated game none."""
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    watcher = UserFactory(username="watcher")
    game = start_table_game([alice, bob], bots=["greedy"])
    render.clear()
    data = render.table_data(game.table_id)
    with django_assert_num_queries(0):
        for viewer in (alice, bob, watcher):
            render.board(data, viewer)
    game = play_out_game(game)
    render.clear()
    data = render.table_data(game.table_id)
    with django_assert_num_queries(1) as captured:
        boards = [render.board(data, viewer) for viewer in (alice, bob, watcher)]
    assert "stats_playergame" in captured.captured_queries[0]["sql"]
    assert all("end-ratings__numbers" in b.html for b in boards)

    carol = UserFactory(username="carol")
    unrated = finished_game([carol], bots=["greedy"])
    render.clear()
    data = render.table_data(unrated.table_id)
    with django_assert_num_queries(0):
        assert "Unrated game" in render.board(data, carol).html


def test_the_panel_speaks_the_viewers_language():
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    game = finished_game([alice, bob], bots=["greedy"])
    alice.language = "ja"
    html = board_html(game, alice)
    rows, part = panel(html)
    assert "レーティングの変動" in part
    change = next(c for c in STOP_THE_BUS.hook("rating_changes")(game).values())
    word = {"up": "上昇", "down": "下降", "same": "変動なし"}[change.direction]
    assert word in part and "ボット" in part
