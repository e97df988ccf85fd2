"""Refusals, notices and messages in the reader's language: the engine's (through
games/refusals.py), the actions', the views' and the table socket's.

English must stay word for word what it was (the engine's own message, and every
existing test that matches English refusal text); Japanese must leave no English
sentence behind.
"""

import ast
import asyncio
import json
import pathlib
import random
from unittest import mock

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.messages import get_messages
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import translation

from accounts.forms import ReaderLanguagePasswordResetForm
from games import actions
from games.engine import brag
from games.engine.bots import make_bot
from games.engine.cards import CODES, PACK
from games.engine.game import (
    ACTION_KINDS,
    OVER,
    SHOWDOWN,
    Action,
    IllegalAction,
    apply,
    check,
    new_game,
    next_hand,
)
from games.engine.views import seat_view
from games.models import Game, Variant
from games.refusals import SENTENCES, engine_refusal
from stopbus_site.asgi import application
from tests.factories import UserFactory
from tests.i18n_games import NAMES, RULE_SETS
from tests.test_i18n_events import english_left

ENGINE = pathlib.Path(__file__).resolve().parent.parent / "games" / "engine"
# refusals of frames no page sends: they name the offending field or action as sent
QUOTES_WHAT_WAS_SENT = {"unknown_action", "not_a_card_list", "not_a_card", "not_a_card_code",
                        "field_not_taken", "stake_not_taken", "not_a_position_list",
                        "stop_not_a_flag"}


def _refusals_of_stop_the_bus(rng):
    """(exc) for many refused moves of bot games under many house rules."""
    for r, rules in enumerate(RULE_SETS):
        names = NAMES[:rng.randint(rules.min_players, min(rules.max_players, len(NAMES)))]
        bots = [make_bot("random", rules, random.Random(rng.random())) for _ in names]
        state, _ = new_game(rules, names, f"refusals:{r}".encode())
        for _ in range(400):
            if state.phase == OVER:
                break
            hand = state.hands[state.turn] if state.turn is not None else []
            cards = [(), *((c,) for c in hand[:2]), *((c,) for c in state.widow[:1]),
                     (rng.choice(PACK),), tuple(hand[:2]), tuple(hand) + (rng.choice(PACK),)]
            seats = (None, -1, len(names), *range(len(names)))
            for kind in ACTION_KINDS:
                for _ in range(6):
                    action = Action(kind, rng.choice(seats), rng.choice(cards), rng.choice(cards),
                                    tuple(rng.sample(range(-1, 4), rng.randint(0, 3))),
                                    rng.random() < 0.3)
                    try:
                        check(state, action)
                    except IllegalAction as exc:
                        yield exc
            if state.phase == SHOWDOWN:
                state, _ = apply(state, next_hand())
            else:
                state, _ = apply(state, bots[state.turn].choose(seat_view(state, state.turn)))
    for data in ({"kind": "swap", "give": ["ZZ"]}, {"kind": "swap", "give": [""]},
                 {"kind": "swap", "give": [7, 8, 9, 10]}, {"kind": "fly"}, [],
                 {"kind": "stop", "seat": "1"}, {"kind": "swap", "positions": "x"},
                 {"kind": "stop", "stop": "yes"}, {"kind": "swap", "give": [99]}):
        try:
            Action.from_dict(data)
        except IllegalAction as exc:
            yield exc
    try:
        new_game(RULE_SETS[0], NAMES[:1])
    except IllegalAction as exc:
        yield exc


def _refusals_of_brag(rng):
    for p, preset in enumerate(brag.BRAG_PRESETS.values()):
        rules = preset.rules
        names = NAMES[:rng.randint(2, 4)]
        states = []
        bots = [brag.make_bot("random", rules, random.Random(rng.random())) for _ in names]
        brag.play_bot_game(rules, bots, f"refusals:{p}".encode(), names,
                           on_action=states.append)
        for state in states[:300]:
            seats = (None, -1, len(names), *range(len(names)))
            for kind in brag.ACTION_KINDS:
                for stake in (None, 0, 1, 5, 50, 10**6):
                    action = brag.BragAction(kind, rng.choice(seats), stake)
                    try:
                        brag.check(state, action)
                    except IllegalAction as exc:
                        yield exc
    for data in ({"kind": "bet", "stake": "lots"}, {"kind": "raise"}, "bet"):
        try:
            brag.BragAction.from_dict(data)
        except IllegalAction as exc:
            yield exc


@pytest.fixture(scope="module")
def refusals():
    rng = random.Random(11)
    found = list(_refusals_of_stop_the_bus(rng)) + list(_refusals_of_brag(rng))
    assert len(found) > 1000
    return found


def test_every_sentence_the_engine_names_is_known():
    """Each IllegalAction (and CardError) the engine raises names a sentence said here."""
    named = set()
    for path in ENGINE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            if node.func.id == "IllegalAction":
                reason = node.args[2] if len(node.args) > 2 else node.args[0]
                if ast.unparse(reason) == "exc.reason":
                    continue  # passes a CardError's on (below)
                assert isinstance(reason, ast.Constant), f"{path.name}:{node.lineno}"
                named.add(reason.value)
            elif node.func.id == "CardError":
                named.add(node.args[2].value if len(node.args) > 2 else "not_a_card")
    assert len(named) > 50
    assert named <= SENTENCES.keys(), named - SENTENCES.keys()


def test_english_refusals_are_exactly_the_engines(refusals):
    reasons = set()
    with translation.override("en-gb"):
        for exc in refusals:
            assert engine_refusal(exc) == exc.message, (exc.reason, exc.params)
            reasons.add(exc.reason)
    assert len(reasons) >= 40, sorted(reasons)


def test_japanese_refusals_leave_no_english_behind(refusals):
    with translation.override("ja"):
        for exc in refusals:
            words = engine_refusal(exc)
            assert words != exc.message, exc.reason
            if exc.reason not in QUOTES_WHAT_WAS_SENT:
                assert english_left(words) == [], (exc.reason, words)


def test_the_engines_illegal_move_in_japanese():
    rules = RULE_SETS[0]
    state, _ = new_game(rules, NAMES[:2], b"not your turn")
    waiting = 1 - state.turn
    with pytest.raises(IllegalAction) as refused:
        check(state, Action("stop", waiting))
    with translation.override("ja"):
        assert engine_refusal(refused.value) == (
            f"あなたの手番ではありません。いまは{NAMES[state.turn]}の手番です。")
    with translation.override("en-gb"):
        assert engine_refusal(refused.value) == (
            f"It is not your turn: it is {NAMES[state.turn]}'s turn.")


def test_a_sentence_this_site_does_not_know_is_shown_in_english():
    exc = IllegalAction("new_rule", "A rule from a newer engine.", "brand_new", count=3)
    with translation.override("ja"):
        assert engine_refusal(exc) == "A rule from a newer engine."
    exc = IllegalAction("not_your_turn", "It is not your turn.", who="x")  # unexpected params
    with translation.override("ja"):
        assert engine_refusal(exc) == "It is not your turn."


# -- over HTTP: actions' refusals and the messages framework -------------------------------------


@pytest.fixture
def classic(db):
    return Variant.objects.get_or_create(slug="classic", defaults={"name": "Classic"})[0]


def _player(language: str):
    user = UserFactory(language=language)
    client = Client()
    client.force_login(user)
    return user, client


@pytest.mark.django_db
def test_a_refusal_over_http_speaks_the_players_language(classic):
    host = UserFactory()
    table = actions.do_create_table(host, name="T", variant=classic, seats=4)
    start = reverse("games:start", args=[table.pk])

    _, japanese = _player("ja")
    response = japanese.post(start)
    assert [str(m) for m in get_messages(response.wsgi_request)] == [
        "それができるのはホストだけです。"]
    notice = japanese.post(start, HTTP_HX_REQUEST="true").content.decode()
    assert "それができるのはホストだけです。" in notice

    _, english = _player("en-gb")
    response = english.post(start)
    assert [str(m) for m in get_messages(response.wsgi_request)] == [
        "Only the host can do that."]
    assert "Only the host can do that." in english.post(
        start, HTTP_HX_REQUEST="true").content.decode()


@pytest.mark.django_db
def test_flash_messages_speak_the_players_language(classic):
    table = actions.do_create_table(UserFactory(), name="T", variant=classic, seats=4)
    join = reverse("games:join", args=[table.pk])
    _, japanese = _player("ja")
    assert [str(m) for m in get_messages(japanese.post(join).wsgi_request)] == ["席に着きました。"]
    _, english = _player("en-gb")
    assert [str(m) for m in get_messages(english.post(join).wsgi_request)] == ["You sat down."]
    # with no saved choice, the browser's language
    browser = Client(HTTP_ACCEPT_LANGUAGE="ja")
    browser.force_login(UserFactory())
    assert [str(m) for m in get_messages(browser.post(join).wsgi_request)] == ["席に着きました。"]


@pytest.mark.django_db
def test_a_plural_refusal_counts_in_the_players_language(classic, settings):
    settings.STOPBUS_CHAT_PER_MINUTE = 1
    user = UserFactory()
    table = actions.do_create_table(user, name="T", variant=classic, seats=4)
    actions.do_chat(table, user, "hello")
    for language, expected in (
            ("ja", "チャットの送信が速すぎます。1分に1件までです。数秒待ってください。"),
            ("en-gb", "You are chatting too fast: at most 1 message a minute. Wait a few "
                      "seconds.")):
        with translation.override(language), pytest.raises(actions.Refused) as refused:
            actions.do_chat(table, user, "again")
        assert refused.value.message == expected


@pytest.mark.django_db
def test_a_bad_preferences_request_is_answered_in_the_players_language():
    _, japanese = _player("ja")
    response = japanese.post(reverse("accounts:preferences"), {"nothing": "here"})
    assert response.status_code == 400
    assert response.content.decode() == (
        "sound、four_colour_deck、turn_alerts のどれかを on か off で送ってください。")


@pytest.mark.django_db
def test_a_mail_to_an_accounts_owner_is_in_their_language(client):
    owner = UserFactory(email="owner@example.com", language="ja")
    response = client.post(reverse("accounts:signup"), {
        "username": "newcomer", "email": "OWNER@example.com",
        "password1": "stop-the-bus-2024!", "password2": "stop-the-bus-2024!"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1 and mail.outbox[0].to == [owner.email]
    assert mail.outbox[0].subject == "ストップ・ザ・バスのアカウントはすでにあります"


@pytest.mark.django_db
def test_a_password_reset_mail_is_in_the_accounts_language(client):
    UserFactory(email="reader@example.com", language="ja")
    seen = []

    def send(self, subject_template_name, email_template_name, context, *args, **kwargs):
        seen.append(translation.get_language())

    with mock.patch("django.contrib.auth.forms.PasswordResetForm.send_mail", send):
        form = ReaderLanguagePasswordResetForm({"email": "reader@example.com"})
        assert form.is_valid()
        with translation.override("en-gb"):
            form.save(domain_override="testserver")
    assert seen == ["ja"]


# -- over the websocket --------------------------------------------------------------------------

ORIGIN = (b"origin", b"http://localhost")


def _session_cookie(user):
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


async def _connect(user, table_id, *headers):
    cookie = await sync_to_async(_session_cookie)(user)
    comm = WebsocketCommunicator(application, f"/ws/table/{table_id}/", headers=[
        ORIGIN, (b"cookie", f"sessionid={cookie}".encode()), *headers])
    connected, _ = await comm.connect(timeout=5)
    assert connected
    await _frames(comm)  # the board
    return comm


async def _frames(comm) -> str:
    frames = [await comm.receive_from(timeout=3)]
    while not await comm.receive_nothing(timeout=0.2):
        frames.append(await comm.receive_from(timeout=3))
    return "".join(frames)


def _two_players(first_language: str, second_language: str):
    variant = Variant.objects.get_or_create(slug="classic", defaults={"name": "Classic"})[0]
    first = UserFactory(username="alice", language=first_language)
    second = UserFactory(username="bob", language=second_language)
    table = actions.do_create_table(first, name="T", variant=variant, seats=2)
    actions.do_join_table(table, second)
    game = Game.objects.get(table=table)
    return table, game, [first, second], actions.state_of(game)


two_players = sync_to_async(_two_players)


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_refusal_over_the_websocket_speaks_the_connected_players_language():
    table, game, users, state = await two_players("ja", "ja")
    await sync_to_async(type(users[0]).objects.filter(pk=users[state.turn].pk).update)(
        language="en-gb")
    waiting, to_play = users[1 - state.turn], users[state.turn]
    japanese = await _connect(waiting, table.pk)
    english = await _connect(to_play, table.pk)

    # the engine's refusal, in each reader's language
    await japanese.send_to(text_data=json.dumps({"kind": "stop", "version": game.version}))
    said = await _frames(japanese)
    assert f"あなたの手番ではありません。いまは{to_play.username}の手番です。" in said
    # a frame no page sends, and an out-of-date move
    await english.send_to(text_data=json.dumps({"kind": "stop", "version": "new"}))
    assert "The field &#x27;version&#x27; is not valid: it must be a whole number." in (
        await _frames(english))
    await japanese.send_to(text_data=json.dumps({"kind": "stop", "version": "new"}))
    assert "項目&#x27;version&#x27;が正しくありません。整数にしてください。" in (
        await _frames(japanese))
    await english.send_to(text_data=json.dumps({"kind": "stop", "version": game.version + 5}))
    assert "The game moved on before your move arrived" in await _frames(english)
    await japanese.disconnect()
    await english.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_socket_with_no_saved_language_follows_the_browser():
    table, game, users, state = await two_players("", "")
    waiting, to_play = users[1 - state.turn], users[state.turn]
    browser = await _connect(waiting, table.pk, (b"accept-language", b"ja,en;q=0.5"))
    await browser.send_to(text_data=json.dumps({"kind": "stop", "version": game.version}))
    assert f"いまは{to_play.username}の手番です。" in await _frames(browser)
    await browser.send_to(text_data="{not json")
    assert "そのメッセージは正しいJSONではありません。" in await _frames(browser)
    plain = await _connect(to_play, table.pk)
    await plain.send_to(text_data="{not json")
    assert "That message is not valid JSON." in await _frames(plain)
    await asyncio.gather(browser.disconnect(), plain.disconnect())


def test_card_codes_stay_card_codes():
    state, _ = new_game(RULE_SETS[0], NAMES[:2], b"codes")
    seat = state.turn
    stranger = next(c for c in PACK if c not in state.hands[seat] and c not in state.widow)
    with pytest.raises(IllegalAction) as refused:
        check(state, Action("swap", seat, (stranger,), (state.widow[0],)))
    with translation.override("ja"):
        assert engine_refusal(refused.value) == f"{CODES[stranger]}はあなたの手札にありません。"


# -- impossible house rules ----------------------------------------------------------------------


def _bad_rules():
    """RulesError problems of many impossible rules of both games."""
    from dataclasses import asdict
    from types import SimpleNamespace

    from games.engine.brag.rules import BragRules, brag_rule_problems
    from games.engine.rules import HouseRules, rule_problems

    stop_the_bus = [
        {"exchange": "river"}, {"floating": "yes"}, {"swap_limit": "2"},
        {"blitz": True}, {"thirty_one": True, "blitz": True, "blitz_prials": True,
                          "ranking": "commerce"}, {"blitz_prials": True},
        {"swap_limit": 4}, {"swap_limit": 2, "exchange": "stock"},
        {"dealer_blind_swap": True, "exchange": "stock"},
        {"stop_after_swap": True, "exchange": "stock"}, {"starting_lives": 0},
        {"stopper_penalty": 99}, {"target_points": 0}, {"target_points": 51},
        {"starting_chips": 0}, {"min_players": 1}, {"max_players": 12},
        {"min_players": 5, "max_players": 3}, {"ranking": "commerce", "min_players": 2},
    ]
    brag_rules = [
        {"betting": "spread"}, {"blind_play": 1}, {"ante": "1"}, {"starting_chips": 0},
        {"ante": -1}, {"ante": 0, "max_hands": 0}, {"ante": 500}, {"min_bet": 0},
        {"max_bet": 0, "min_bet": 2}, {"max_raise": -1}, {"max_hands": -1}, {"min_players": 1},
        {"max_players": 9},
        {"min_players": 5, "max_players": 4},
    ]
    for problems, base, changes in ((rule_problems, asdict(HouseRules()), stop_the_bus),
                                    (brag_rule_problems, asdict(BragRules()), brag_rules)):
        for change in changes:
            errors = problems(SimpleNamespace(**{**base, **change}))
            assert errors, change
            yield from (m for messages in errors.values() for m in messages)


def test_every_rules_problem_the_engine_names_is_known():
    from games.refusals import RULE_SENTENCES

    named = set()
    for path in ENGINE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in ("problem", "Problem")):
                reason = node.args[2 if node.func.id == "problem" else 1]
                if isinstance(reason, ast.Name):
                    continue  # the helper passing its own argument on
                named.add(reason.value)
    assert len(named) > 25
    assert named <= RULE_SENTENCES.keys(), named - RULE_SENTENCES.keys()


def test_rules_problems_in_english_are_the_engines_and_in_japanese_are_japanese():
    from games.refusals import RULE_SENTENCES, rules_problem

    problems = list(_bad_rules())
    assert {p.reason for p in problems} == RULE_SENTENCES.keys()  # every sentence, said
    for problem in problems:
        with translation.override("en-gb"):
            assert rules_problem(problem) == problem
        with translation.override("ja"):
            words = rules_problem(problem)
        assert words != problem
        if problem.reason not in ("not_one_of", "blitz_needs_thirty_one"):  # name a field
            assert english_left(words) == [], (problem.reason, words)


@pytest.mark.django_db
def test_a_table_form_for_impossible_rules_says_why_in_the_players_language(classic):
    from games.forms import TableForm

    Variant.objects.filter(pk=classic.pk).update(starting_lives=0)  # stored before a check
    data = {"name": "T", "variant": classic.pk, "seats": 3}
    with translation.override("ja"):
        errors = TableForm(data).errors["variant"]
    assert "ライフ" in errors[0] and "lives" not in errors[0]
    with translation.override("en-gb"):
        errors = TableForm(data).errors["variant"]
    assert "Players start with 1 to 20 lives." in errors[0]


@pytest.mark.django_db
def test_the_waiting_tables_bot_levels_and_stop_button_are_in_the_readers_language(classic):
    from games.board import board_for, load_table

    host = UserFactory()
    table = actions.do_create_table(host, name="T", variant=classic, seats=4)
    with translation.override("ja"):
        levels = board_for(load_table(table.pk), host)["bot_levels"]
    assert levels["random"] == "初心者"
    with translation.override("en-gb"):
        levels = board_for(load_table(table.pk), host)["bot_levels"]
    assert levels["random"] == "Beginner"

    for _ in range(3):
        actions.do_add_bot(table, host, "random")
    assert Game.objects.filter(table=table).exists()  # full: the game has started
    with translation.override("ja"):
        assert board_for(load_table(table.pk), host)["controls"]["stop_label"] == "バスを止める"
    with translation.override("en-gb"):
        assert board_for(load_table(table.pk), host)["controls"]["stop_label"] == "Stop the bus"
