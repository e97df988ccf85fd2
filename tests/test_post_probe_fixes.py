"""An outside tester's findings at post tables.

- A seat the clock handed to a bot shows ONE way back at a post table (the board's status
  bar, live): "You missed two turns in a row, so “Bot for pann” plays your seat at each
  deadline. [Take my seat back]"; the post bar no longer repeats it under another name
  ("You timed out twice… [I'm back]" is a live table's alone). On a phone the bar wraps:
  the sentence takes a line of its own (tests/test_post_probe_fixes_browser.py measures).
- A player's own move takes their seat back from the bot, as "Take my seat back" does.
- The list of turns names a leaver's bot as the table does: "Bot for pben", not "Casual
  bot 2", in the reader's language.
- A move made on a page behind the game is refused in a player's words.
"""

from datetime import timedelta

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone, translation

from games import actions
from games.kinds import kind_for
from games.models import Game, Seat, Table
from games.turns import row_html, tables_waiting_for
from tests.factories import preset_variant, start_table_game
from tests.test_post_pace import brag, miss, old_user, post_game, until_persons_turn

pytestmark = pytest.mark.django_db

EN_BACK = "Take my seat back"
JA_BACK = "自分の席に戻る"
EN_LIVE_BACK = "I'm back"
JA_LIVE_BACK = "戻りました"


def away_at_a_post_table(user, variant=None):
    game = post_game(user, variant=variant)
    for _ in range(2):
        game, _result = miss(game)
    assert Seat.objects.get(table=game.table, user=user).away
    return until_persons_turn(game)


def page_of(user, table, language):
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    user.language = language
    user.save(update_fields=["language"])
    client.force_login(user)
    return client.get(table.get_absolute_url()).content.decode()


# -- one way back -------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["stop_the_bus", "brag"])
def test_a_post_table_shows_one_way_back_in_either_language(kind):
    user = old_user("pann")
    game = away_at_a_post_table(user, brag() if kind == "brag" else None)
    en = page_of(user, game.table, "en")
    assert en.count(EN_BACK) == 1, kind
    assert "You missed two turns in a row, so “Bot for pann” plays your seat" in en
    assert EN_LIVE_BACK not in en and "timed out twice" not in en
    # the way back is the board's own, sent again live as the seat's state changes
    tools = en[en.index('id="tools"'):en.index('id="opponents"')]
    assert EN_BACK in tools
    ja = page_of(user, game.table, "ja")
    assert ja.count(JA_BACK) == 1, kind
    assert "「pannの代打ちボット」があなたの席をプレイします" in ja
    assert JA_LIVE_BACK not in ja and "2回時間切れ" not in ja


def test_a_live_table_keeps_its_own_way_back():
    user = old_user("lana")
    game = start_table_game([user], ["greedy"])
    Seat.objects.filter(table=game.table, user=user).update(away=True, timeouts=2)
    Table.objects.filter(pk=game.table_id).update(updated_at=timezone.now())
    en = page_of(user, game.table, "en")
    assert en.count(EN_LIVE_BACK) == 1 and "timed out twice" in en
    assert EN_BACK not in en


def test_the_status_bar_wraps_and_the_way_back_takes_a_line_of_its_own():
    css = (settings.BASE_DIR / "static/css/table.css").read_text()
    assert ".statusbar:has(> .statusbar__tools > .away-form) { flex-wrap: wrap; }" in css
    assert ".statusbar__tools:has(> .away-form) { display: contents; }" in css
    assert ".away-form { order: 1; flex: 1 1 100%; min-width: 0;" in css


# -- a move takes the seat back -----------------------------------------------------------------


def _a_move(game, seat):
    kind = kind_for(game)
    state = actions.state_of(game)
    return kind.legal_actions(state, seat)[0]


@pytest.mark.parametrize("kind", ["stop_the_bus", "brag"])
def test_a_players_own_move_takes_their_seat_back(kind):
    user = old_user("pann")
    game = away_at_a_post_table(user, brag() if kind == "brag" else None)
    table = Table.objects.get(pk=game.table_id)
    Table.objects.filter(pk=table.pk).update(updated_at=timezone.now() - timedelta(hours=1))
    before = Table.objects.get(pk=table.pk).updated_at
    actions.do_play(game.pk, None, _a_move(game, 0).to_dict(), game.version, player=user)
    seat = Seat.objects.get(table=table, user=user)
    assert not seat.away and seat.timeouts == 0 and seat.missed_since is None
    # the table's pages are told its seats changed, as "Take my seat back" tells them
    assert Table.objects.get(pk=table.pk).updated_at > before
    page = page_of(user, table, "en")
    assert EN_BACK not in page and "Bot for pann" not in page


def test_a_bots_move_for_the_away_seat_keeps_it_away():
    user = old_user("pann")
    game = away_at_a_post_table(user)
    actions.do_play(game.pk, 0, _a_move(game, 0), game.version, by="bot")
    assert Seat.objects.get(table=game.table, user=user).away


# -- the list of turns names a leaver's bot -----------------------------------------------------


def test_the_list_of_turns_names_a_leavers_bot_as_the_table_does():
    pann, pben = old_user("pann"), old_user("pben")
    table = actions.do_create_table(pann, name="By post", variant=preset_variant(), seats=3,
                                    pace="1d")
    actions.do_add_bot(table, pann, "greedy")
    actions.do_join_table(table, pben)  # full: starts
    game = table.current_game()
    assert game is not None
    with translation.override("en"):
        [row] = tables_waiting_for(pann)  # kept, until the seats change
        assert sorted(row.others) == ["Casual bot 2", "pben"]
    actions.do_leave_table(Table.objects.get(pk=table.pk), pben)
    for language, bot, leaver in (("en", "Casual bot 2", "Bot for pben"),
                                  ("ja", "カジュアル・ボット2", "pbenの代打ちボット")):
        with translation.override(language):
            [row] = tables_waiting_for(pann)
            assert sorted(row.others) == sorted([bot, leaver]), language
            html = row_html(row)
            assert leaver in html and "ボット3" not in html and "bot 3" not in html
            if not row.my_turn and actions.state_of(Game.objects.get(pk=game.pk)).turn == 2:
                assert leaver in row.must_do
    client = Client(HTTP_ACCEPT_LANGUAGE="ja")
    pann.language = "ja"
    pann.save(update_fields=["language"])
    client.force_login(pann)
    for url in ("/turns/", "/"):
        page = client.get(url).content.decode()
        assert "pbenの代打ちボット" in page and "カジュアル・ボット3" not in page, url


# -- a move on a page behind the game -----------------------------------------------------------


def test_a_stale_move_is_refused_in_a_players_words():
    user = old_user("pann")
    game = until_persons_turn(post_game(user))
    move = _a_move(game, 0).to_dict()
    with translation.override("en"), pytest.raises(actions.Refused) as refused:
        actions.do_play(game.pk, None, move, game.version - 1, player=user)
    assert refused.value.code == "stale"
    said = str(refused.value.message)
    assert said == ("The game moved on before your move arrived (another tab or device may "
                    "have played); it was not played. The table now shows where the game is.")
    assert "version" not in said and "out-of-date" not in said
