"""A bot's name in the reader's language (a UX probe found "Casual bot 2" on Japanese pages).

A bot is named by its level, in the words of the table's list of bots, and its place:
"Casual bot 2" in English, "カジュアル・ボット2" in Japanese; the bot that plays a
leaver's seat is "Bot for bob" / "bobの代打ちボット". What a game stores (its players'
names, the engine's names, a leaver's event) stays as it was, in English for everyone:
every page -- the board and its log, the frames sent over the socket, the list of turns,
the lobby, the waiting panel, the admin -- names bots in the language it is rendered in,
and a name rendered for one language never reaches a page in the other, however the
process's caches (boards, log rows, turn rows, lobbies) are shared.
"""

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

from games import actions, render
from games.bot_names import (
    BOT_NAMES,
    bot_name,
    shown_name,
    shown_names,
    stand_in_name,
    stored_bot_name,
)
from games.engine import GreedyBot, seat_view
from games.engine.bots import BOT_LEVELS
from games.kinds import BRAG_BOT_LEVELS
from games.models import Game, GamePlayer, Job, Seat, Variant
from games.turns import tables_waiting_for
from tests.factories import UserFactory, preset_variant, start_table_game
from tests.test_consumers import connect, frame, get_state, latest
from tests.test_post_pace import brag, pending, post_game, until_persons_turn

pytestmark = pytest.mark.django_db

JA = {"random": "初心者ボット", "greedy": "カジュアル・ボット", "mc": "エキスパート・ボット"}
EN = {"random": "Beginner bot", "greedy": "Casual bot", "mc": "Expert bot"}


def japanese_bots(html):
    return [word for word in JA.values() if word in html] + (
        ["代打ちボット"] if "代打ちボット" in html else [])


def english_bots(html):
    return [word for word in EN.values() if word in html] + (
        ["Bot for"] if "Bot for" in html else [])


# -- the names --------------------------------------------------------------------------------


def test_each_level_names_its_bots_in_the_words_of_the_list_of_bots():
    # both games name the levels alike, and a name is there for each of them
    assert set(BOT_NAMES) == set(BOT_LEVELS) == set(BRAG_BOT_LEVELS)
    assert dict(BRAG_BOT_LEVELS) == dict(BOT_LEVELS)
    for level, label in BOT_LEVELS.items():
        with translation.override("en"):
            assert bot_name(level, 2) == f"{label} bot 2" == f"{EN[level]} 2"
            # what a game stores is the English name, so stored and shown agree in English
            assert stored_bot_name(level, 1) == bot_name(level, 2)
        with translation.override("ja"):
            name = bot_name(level, 2)
            assert name == f"{JA[level]}2"
            # the level's word is the one the table's "Add a bot" list shows in Japanese
            assert name.startswith(gettext(label)), (name, gettext(label))
            assert "ボット" in name and not any("a" <= c.lower() <= "z" for c in name)
    with translation.override("ja"):
        assert stand_in_name("bob") == "bobの代打ちボット"
        assert bot_name("unknown", 4) == "ボット4"
    with translation.override("en"):
        assert stand_in_name("bob") == "Bot for bob"
        assert bot_name("unknown", 4) == "Bot 4"


def test_a_seat_is_named_in_the_readers_language_and_recorded_in_english():
    seat = Seat(position=2, bot_level="mc")
    with translation.override("ja"):
        assert seat.display_name == "エキスパート・ボット3"
        assert seat.game_name == "Expert bot 3"
    with translation.override("en"):
        assert seat.display_name == "Expert bot 3" == seat.game_name


def test_a_game_started_in_japanese_stores_the_same_english_names():
    """Nothing a game stores changes with the language of whoever started it."""
    alice = UserFactory(username="alice", language="ja")
    with translation.override("ja"):
        game = start_table_game([alice], ["greedy", "random"])
    expected = ["alice", "Casual bot 2", "Beginner bot 3"]
    assert list(GamePlayer.objects.filter(game=game).values_list("name", flat=True)) == expected
    assert list(actions.state_of(game).names) == expected
    players = list(game.players.all())
    with translation.override("ja"):
        assert [p.shown_name for p in players] == ["alice", "カジュアル・ボット2", "初心者ボット3"]
        assert shown_names(expected, players) == [p.shown_name for p in players]
        assert shown_names(dict(enumerate(expected)), players) == dict(
            enumerate(["alice", "カジュアル・ボット2", "初心者ボット3"]))
        assert "カジュアル・ボット2" in str(players[1])
    with translation.override("en"):
        assert [p.shown_name for p in players] == expected


def test_only_a_bots_record_is_renamed():
    """A player's name (however it reads), a deleted account's, and a name the game did
    not write the way bots' are written stay as they are."""
    bot = GamePlayer(seat=1, name="Casual bot 2", bot_level="greedy")
    gone = GamePlayer(seat=1, name="Casual bot 2", bot_level="")  # an account deleted since
    person = GamePlayer(seat=1, name="Casual bot 2", bot_level="greedy", user_id=7)
    odd = GamePlayer(seat=1, name="Robot", bot_level="greedy")
    with translation.override("ja"):
        assert shown_name(bot) == "カジュアル・ボット2"
        assert shown_name(gone) == shown_name(person) == "Casual bot 2"
        assert shown_name(odd) == "Robot"
        assert shown_name(None, "alice") == "alice"


# -- the table's pages ------------------------------------------------------------------------


def _boards(game):
    """The spectators' board in English, in Japanese, then in English again: one process,
    its caches shared (the log rows are said once per language)."""
    render.clear()
    data = render.table_data(game.table_id)
    return [render.board(data, None, language).html for language in ("en", "ja", "en")]


@pytest.mark.parametrize("variant", ["classic", "three-card-brag"])
def test_the_board_and_its_log_name_bots_in_each_readers_language(variant):
    alice = UserFactory(username="alice", language="ja")
    chosen = Variant.objects.get(slug=variant) if variant != "classic" else preset_variant()
    with translation.override("ja"):  # started by a Japanese reader
        game = start_table_game([alice], ["greedy", "random"], chosen)
    en, ja, en_again = _boards(game)
    assert en == en_again
    for html, ours, theirs in ((en, english_bots, japanese_bots), (ja, japanese_bots,
                                                                    english_bots)):
        log = html[html.index('id="log"'):]
        assert ours(html) and not theirs(html), (ours(html), theirs(html))
        assert ours(log), "the log names the bots (the cut for the deal names every seat)"
    assert "カジュアル・ボット2" in ja and "初心者ボット3" in ja
    assert "Casual bot 2" in en and "Beginner bot 3" in en


def test_a_leavers_bot_is_named_in_each_readers_language():
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    game = start_table_game([alice, bob], ["greedy"])
    actions.do_leave_table(game.table, bob)
    game.refresh_from_db()
    # what was stored stays English: the record, the event, its data
    left = [e for _, e in game.recent_events if e["kind"] == "left"]
    assert left and left[-1]["data"] == {"bot": "Bot for bob"}
    assert GamePlayer.objects.get(game=game, user=bob).name == "bob"
    en, ja, _ = _boards(game)
    assert "Bot for bob" in en and "代打ち" not in en
    assert "bobの代打ちボット" in ja and "Bot for" not in ja
    assert "bob left the table; Bot for bob plays their seat." in en
    log = ja[ja.index('id="log"'):]
    assert "bobの代打ちボット" in log


def test_the_lobby_and_the_waiting_panel_name_bots_in_the_readers_language():
    host = UserFactory(username="alice")
    table = actions.do_create_table(host, name="Oak", variant=preset_variant(), seats=4)
    actions.do_add_bot(table, host, "mc")
    table_url = reverse("games:table", args=[table.pk])
    pages = {}
    for language in ("ja", "en", "ja"):
        client = Client(HTTP_ACCEPT_LANGUAGE=language)
        client.force_login(UserFactory(language=language))
        lobby = client.get("/").content.decode()
        page = client.get(table_url).content.decode()
        pages.setdefault(language, []).append((lobby, page))
    for lobby, page in pages["ja"]:
        assert "エキスパート・ボット2" in lobby and "Expert bot" not in lobby
        assert "エキスパート・ボット2" in page and "Expert bot" not in page
    for lobby, page in pages["en"]:
        assert "Expert bot 2" in lobby and "ボット2" not in lobby
        assert "Expert bot 2" in page and "ボット2" not in page


def test_the_list_of_turns_names_bots_in_the_readers_language():
    from tests.test_post_pace import old_user

    user = old_user("amy")
    until_persons_turn(post_game(user, pace="1d"))
    for language, names in (("ja", ["カジュアル・ボット2", "カジュアル・ボット3"]),
                            ("en", ["Casual bot 2", "Casual bot 3"]),
                            ("ja", ["カジュアル・ボット2", "カジュアル・ボット3"])):
        with translation.override(language):
            [row] = tables_waiting_for(user)
            assert sorted(row.others) == names, language


def test_a_brag_seat_handed_to_a_bot_is_named_in_the_readers_language():
    from tests.test_post_pace import old_user

    user = old_user("amy")
    game = until_persons_turn(post_game(user, variant=brag(), pace="1d"))
    Seat.objects.filter(table=game.table, user=user).update(away=True)
    game.table.save()  # the change stamp the board's parts are kept by
    en, ja, _ = _boards(Game.objects.get(pk=game.pk))
    assert "Bot for amy" in en and "amyの代打ちボット" in ja and "Bot for" not in ja


def test_the_admin_names_bots_in_the_admins_language(admin_client):
    alice = UserFactory(username="alice")
    game = start_table_game([alice], ["greedy"])
    url = reverse("admin:games_game_change", args=[game.pk])
    ja = admin_client.get(url, HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    en = admin_client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "カジュアル・ボット2" in ja and "Casual bot 2" not in ja
    assert "Casual bot 2" in en and "カジュアル" not in en
    table_url = reverse("admin:games_table_change", args=[game.table_id])
    assert "Casual bot 2" not in admin_client.get(
        table_url, HTTP_ACCEPT_LANGUAGE="ja").content.decode()


# -- the frames -------------------------------------------------------------------------------


def _two_readers():
    alice = UserFactory(username="alice", language="en")
    bob = UserFactory(username="bob", language="ja")
    variant = preset_variant()
    table = actions.do_create_table(alice, name="T", variant=variant, seats=3)
    actions.do_add_bot(table, alice, "greedy")
    actions.do_join_table(table, bob)  # full: starts
    game = table.current_game()
    # the deal may give the bot (seat 1) the first turn: it plays it, as the clock would,
    # so that a person moves first over the sockets
    for _ in range(10):
        if actions.state_of(game).turn != 1:
            break
        actions.do_run_job(pending(game, Job.Kind.BOT_MOVE).order_by("due_at").first())
        game = Game.objects.get(pk=game.pk)
    assert actions.state_of(game).turn in (0, 2)
    render.clear()
    return table, game, alice, bob


@pytest.mark.django_db(transaction=True)
async def test_the_frames_of_each_language_name_bots_in_it_alone():
    """The public regions are rendered once per language by the publishing pass: a
    Japanese page is never sent the English name, nor an English page the Japanese."""
    table, game, alice, bob = await sync_to_async(_two_readers)()
    a, ok_a, _ = await connect(alice, table.pk)
    b, ok_b, _ = await connect(bob, table.pk)
    assert ok_a and ok_b
    sent_a, sent_b = ["".join(await latest(a))], ["".join(await latest(b))]
    pages = {0: a, 2: b}  # alice sat first, then the bot, then bob
    for _ in range(3):  # the people's moves; the bot moves between them (its own frames)
        game, state = await get_state(game.pk)
        if state.turn not in pages:
            break
        mover = pages[state.turn]
        action = GreedyBot(state.rules).choose(seat_view(state, state.turn)).to_dict()
        action.pop("seat")
        await mover.send_to(text_data=frame(**action, version=game.version))
        sent_a.append("".join(await latest(a)))
        sent_b.append("".join(await latest(b)))
    assert len(sent_a) >= 2, "a move was made and sent"
    english, japanese = "".join(sent_a), "".join(sent_b)
    assert "Casual bot 2" in english and not japanese_bots(english)
    assert "カジュアル・ボット2" in japanese and not english_bots(japanese)
    await a.disconnect()
    await b.disconnect()


@pytest.mark.parametrize("level", sorted(BOT_NAMES))
def test_a_bot_wears_the_same_colour_in_every_language(level):
    """Two players who read different languages see one bot in one colour."""
    from games.templatetags.cards import avatar_colour

    colours = {}
    for language in ("en", "ja"):
        with translation.override(language):
            colours[language] = (avatar_colour(bot_name(level, 3)),
                                 avatar_colour(stand_in_name("sakura")))
    assert colours["en"] == colours["ja"]
    assert colours["en"][0] == avatar_colour(stored_bot_name(level, 2))
    # a person's colour is their name's, whatever a bot's words it contains
    import zlib

    from games.templatetags.cards import AVATAR_COLOURS
    with translation.override("ja"):
        for person in ("sakura", "Bot", "ボット", "の代打ちボット"):
            assert avatar_colour(person) == zlib.crc32(person.encode()) % AVATAR_COLOURS
