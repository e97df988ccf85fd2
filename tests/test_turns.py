"""/turns and the lobby's first block: the post tables waiting for you, most urgent first."""

import re
from datetime import timedelta
from unittest import mock

import pytest
from django.conf import settings
from django.db import connection
from django.test import TestCase, override_settings
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import actions
from games.models import Game, Job, Seat, TableSkip
from games.turns import next_table, tables_waiting_for, turns_count
from tests.test_post_pace import brag, old_user, pending, post_game, until_persons_turn

pytestmark = pytest.mark.django_db


def my_turn_game(user, **kwargs):
    return until_persons_turn(post_game(user, **kwargs))


def test_a_row_says_what_to_do_and_how_long_is_left(user):
    game = my_turn_game(user, pace="1d")
    [row] = tables_waiting_for(user)
    assert row.my_turn and row.table == game.table
    assert row.game_label == "Stop the Bus"
    assert sorted(row.others) == ["Casual bot 2", "Casual bot 3"]
    assert row.must_do in ("Swap or stop the bus", "Swap or pass")
    assert row.time_left_words in ("23 h 59 min left", "1 day 0 h left")
    assert row.cards and len(row.cards) == 3


def test_brag_blind_row_shows_no_cards(user, client):
    my_turn_game(user, variant=brag())
    [row] = tables_waiting_for(user)
    assert row.cards is None
    assert re.fullmatch(r"Bet \d+, see for \d+ or fold: you are blind|Bet \d+ or fold: you "
                        r"are blind", row.must_do), row.must_do
    client.force_login(user)
    page = client.get("/turns/").content.decode()
    block = page.split('id="turns-block"')[1]
    assert "data-card" not in block and "you are blind" in block
    # the game's name once, not again as its variant's ("Three Card Brag · Three Card Brag")
    game_line = re.search(r'class="turn-row__game">([^<]*)<', block).group(1)
    assert game_line.count("Three Card Brag") == 1, game_line


def test_face_up_cards_carry_their_code_and_name(user, client):
    my_turn_game(user)
    client.force_login(user)
    page = client.get("/turns/").content.decode()
    cards = re.findall(r'<span class="card" data-card="([0-9AJQK]+[CDHS])" aria-label="([^"]+)"',
                       page)
    assert len(cards) == 3
    # the game's name once, not again in its variant's ("Stop the Bus · Stop the Bus
    # (classic)"), in either language
    for language in ("en", "ja"):
        user.language = language
        user.save(update_fields=["language"])
        page = client.get("/turns/").content.decode()
        game_line = re.search(r'class="turn-row__game">([^<]*)<', page).group(1)
        name = "Stop the Bus" if language == "en" else "ストップ・ザ・バス"
        assert game_line.count(name) == 1, game_line


def test_most_urgent_first_then_the_tables_waiting_for_others(user):
    with override_settings(STOPBUS_POST_TABLES_NEW_ACCOUNT=20):
        soon = my_turn_game(user, pace="4h")
        late = my_turn_game(user, pace="7d")
        middle = my_turn_game(user, pace="1d")
        theirs = post_game(user, pace="1d")  # maybe the person's turn; made not so below
    other = until_persons_turn(theirs)
    state = actions.state_of(other)
    actions.do_play(other.pk, 0, actions.bot_choice(other, state, 0, "greedy"), other.version)
    rows = tables_waiting_for(user)
    # the person's move may end the hand, and the next (dealt at once here: no pause)
    # may start with their turn again: then that table is theirs too, in its place
    mine = [r for r in rows if r.my_turn]
    assert [r.table.pk for r in mine if r.table.pk != other.table_id] == [
        soon.table_id, middle.table_id, late.table_id]
    assert [r.deadline for r in mine] == sorted(r.deadline for r in mine)
    if not Seat.objects.get(table=other.table, user=user).turn_since:
        assert rows[-1].table.pk == other.table_id and not rows[-1].my_turn
        assert rows[-1].must_do.startswith("Waiting for")
    else:
        assert other.table_id in [r.table.pk for r in mine]


def test_skip_for_now_puts_the_table_behind_for_twelve_hours(user, client):
    with override_settings(STOPBUS_POST_TABLES_NEW_ACCOUNT=20):
        first = my_turn_game(user, pace="4h")
        second = my_turn_game(user, pace="1d")
    assert next_table(user) == first.table
    client.force_login(user)
    response = client.post(f"/t/{first.table_id}/skip/")
    assert response.status_code == 302 and response.url == second.table.get_absolute_url()
    skip = TableSkip.objects.get(user=user, table=first.table)
    assert abs((skip.until - timezone.now() - timedelta(hours=12)).total_seconds()) < 5
    rows = tables_waiting_for(user)
    assert [r.table.pk for r in rows] == [second.table_id, first.table_id]
    assert rows[1].skipped
    response = client.get("/turns/next/")
    assert response.url == second.table.get_absolute_url()


def test_skipping_a_table_you_do_not_sit_at_is_refused(user, client):
    game = my_turn_game(old_user("zed"))
    client.force_login(user)
    response = client.post(f"/t/{game.table_id}/skip/", follow=True)
    assert "You are not sitting at this table." in response.content.decode()
    assert not TableSkip.objects.exists()


def test_the_count_in_the_navigation_and_the_title(user, client):
    my_turn_game(user)
    user.refresh_from_db()  # the count is kept on the account's row
    assert turns_count(user) == 1
    client.force_login(user)
    page = client.get("/").content.decode()
    assert re.search(r'id="turns-count" class="nav-count" data-count="1"', page)
    assert "js/turns.js" in page
    # the lobby's first block is the list
    assert page.index('id="turns-block"') < page.index('id="lobby-tables"')


def test_the_lobby_block_is_hidden_when_empty(user, client):
    client.force_login(user)
    page = client.get("/").content.decode()
    assert re.search(r'<section id="turns-block"[^>]* hidden', page)


def test_the_count_follows_the_turns(user):
    game = my_turn_game(user)
    user.refresh_from_db()
    assert user.post_turns == 1
    state = actions.state_of(game)
    actions.do_play(game.pk, 0, actions.bot_choice(game, state, 0, "greedy"), game.version)
    game.refresh_from_db()
    user.refresh_from_db()
    mine = Seat.objects.get(table=game.table, user=user).turn_since is not None
    assert user.post_turns == (1 if mine else 0)


def test_next_table_with_nothing_waiting(user, client):
    client.force_login(user)
    response = client.get("/turns/next/", follow=True)
    assert "No other table is waiting for your move." in response.content.decode()


def test_the_list_is_announced_to_the_players_after_a_move(user):
    game = my_turn_game(user)
    state = actions.state_of(game)
    sent = []
    with (mock.patch("games.actions.post.group_send",
                     side_effect=lambda g, m: sent.append((g, m))),
          TestCase.captureOnCommitCallbacks(execute=True)):
        actions.do_play(game.pk, 0, actions.bot_choice(game, state, 0, "greedy"), game.version)
    assert (actions.user_group(user.pk), {"type": "turns.changed"}) in sent


def test_the_live_update_swaps_the_count_and_the_list(user):
    from games.turns import render_turns

    my_turn_game(user)
    html = render_turns(user)
    assert 'id="turns-count"' in html and 'hx-swap-oob="true"' in html
    assert html.count('hx-swap-oob="true"') == 2
    # a table's page has no list: it is sent the count alone (a swap aimed at no element
    # is an error in the page's console)
    html = render_turns(user, with_list=False)
    assert 'id="turns-count"' in html and 'id="turns-block"' not in html


def test_nothing_waiting_hides_the_count(client, user):
    client.force_login(user)
    page = client.get("/turns/").content.decode()
    assert re.search(r'<span id="turns-count"[^>]* data-count="0" hidden', page)
    css = (settings.BASE_DIR / "static/css/turns.css").read_text()
    assert ".nav-count[hidden] { display: none; }" in css  # display: inline-block would win


def test_not_signed_in_turns_page_asks_to_log_in(client):
    response = client.get("/turns/")
    assert response.status_code == 302 and "/login" in response.url


@override_settings(STOPBUS_POST_TABLES=200, STOPBUS_POST_TABLES_MOST=200, STOPBUS_BOT_DELAY=0)
def test_turns_reads_a_constant_number_of_queries(client):
    user = old_user("many")

    def tables(n):
        for _ in range(n):
            post_game(user, pace="1d", bots=("greedy", "greedy", "greedy"))

    def count():
        with CaptureQueriesContext(connection) as queries:
            rows = tables_waiting_for(user)
        return len(queries), len(rows)

    tables(10)
    few, rows = count()
    assert rows == 10
    tables(90)
    many, rows = count()
    assert rows == 100
    assert few == many <= 4
    client.force_login(user)
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/turns/")
    assert response.status_code == 200
    assert len(queries) <= 12, [q["sql"][:80] for q in queries]
    assert response.content.decode().count('<li class="turn-row') == 100


def test_the_turns_page_in_japanese(user, client):
    my_turn_game(user)
    user.language = "ja"
    user.save(update_fields=["language"])
    client.force_login(user)
    page = client.get("/turns/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "あなたの番" in page


def test_a_finished_game_leaves_the_list(user):
    game = my_turn_game(user)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    game.table.status = "finished"
    game.table.save(update_fields=["status"])
    assert tables_waiting_for(user) == []
    assert not pending(game, Job.Kind.BOT_MOVE).filter(seat=None).exists()
