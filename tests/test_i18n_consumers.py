"""The table's websocket speaks each reader's language: two players at one table, one
reading English and one Japanese, are each sent the board and the log in their own,
and never the other's words. A reader with no saved language gets the language their
pages are in (the cookie, then the browser's)."""

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import translation

from accounts.language import socket_language
from games import actions, render
from games.engine import GreedyBot, seat_view
from games.event_text import card_name
from games.models import Variant
from stopbus_site.asgi import application
from tests.factories import UserFactory
from tests.html_contract import cards_in
from tests.test_consumers import ORIGIN, connect, frame, get_state, latest, session_cookie
from tests.test_i18n_table import card_labels, english_in

pytestmark = [pytest.mark.django_db(transaction=True)]


def _setup(languages=("en", "ja")):
    variant, _ = Variant.objects.get_or_create(slug="classic", defaults={"name": "Classic"})
    alice = UserFactory(username="alice", language=languages[0])
    bob = UserFactory(username="bob", language=languages[1])
    table = actions.do_create_table(alice, name="T", variant=variant, seats=2)
    actions.do_join_table(table, bob)  # full: starts
    render.clear()
    return table, table.current_game(), alice, bob


async def _setup_async(languages=("en", "ja")):
    return await sync_to_async(_setup)(languages)


def _labelled_in(html, language):
    labels = card_labels(html)
    assert labels
    with translation.override(language):
        return all(label == card_name(code) for code, label in labels)


async def test_two_players_in_two_languages_each_read_the_table_in_their_own():
    table, game, alice, bob = await _setup_async()
    a, ok_a, _ = await connect(alice, table.pk)
    b, ok_b, _ = await connect(bob, table.pk)
    assert ok_a and ok_b
    first_a, first_b = "".join(await latest(a)), "".join(await latest(b))
    assert "Your hand" in first_a and "あなたの手札" not in first_a
    assert "あなたの手札" in first_b and "Your hand" not in first_b
    assert "Game log" in first_a and "ゲームの記録" in first_b
    assert english_in(first_b, {"alice", "bob", "T"}) == []
    assert _labelled_in(first_a, "en-gb") and _labelled_in(first_b, "ja")
    # a move: each is sent the changed regions -- the new log rows too -- in their language
    game, state = await get_state(game.pk)
    mover = a if state.turn == 0 else b
    action = GreedyBot(state.rules).choose(seat_view(state, state.turn)).to_dict()
    action.pop("seat")
    await mover.send_to(text_data=frame(**action, version=game.version))
    after_a, after_b = "".join(await latest(a)), "".join(await latest(b))
    cards_in(after_a)
    cards_in(after_b)
    names = {"alice", "bob"}
    assert 'class="log__item' in after_a and 'class="log__item' in after_b
    assert english_in(after_b, names) == []
    # the English page reads the engine's own English words, with no Japanese in them
    assert not any("\u3040" <= ch <= "\u30ff" for ch in after_a)
    await a.disconnect()
    await b.disconnect()


async def test_a_reader_with_no_saved_language_gets_their_browsers():
    table, game, alice, bob = await _setup_async(("", "en"))
    cookie = await sync_to_async(session_cookie)(alice)
    comm = WebsocketCommunicator(application, f"/ws/table/{table.pk}/", headers=[
        ORIGIN, (b"cookie", f"sessionid={cookie}".encode()),
        (b"accept-language", b"ja,en;q=0.5")])
    connected, _ = await comm.connect(timeout=5)
    assert connected
    board = "".join(await latest(comm))
    assert "あなたの手札" in board and english_in(board, {"alice", "bob", "T"}) == []
    await comm.disconnect()


def test_the_socket_language_follows_the_saved_one_then_cookie_then_browser():
    saved = type("U", (), {"is_authenticated": True, "language": "ja"})()
    unsaved = type("U", (), {"is_authenticated": True, "language": ""})()
    assert socket_language({"user": saved, "headers": [(b"accept-language", b"en")]}) == "ja"
    assert socket_language({"user": unsaved, "cookies": {"django_language": "ja"},
                            "headers": [(b"accept-language", b"en")]}) == "ja"
    assert socket_language({"user": unsaved,
                            "headers": [(b"accept-language", b"fr, ja;q=0.8")]}) == "ja"
    assert socket_language({"user": unsaved, "headers": []}) == "en-gb"
    assert socket_language({"user": unsaved, "cookies": {"django_language": "xx"},
                            "headers": [(b"accept-language", b"xx")]}) == "en-gb"
