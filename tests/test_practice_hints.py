"""Hints at a practice table: only ever in the player's own private view.

A practice table (beginner bots, no clock) shows its player what their hand is worth,
what each move they may make does, and after each hand a line on the best move at their
last decision. Never to a spectator or another seat; a blind Brag player is told
nothing about cards they have not looked at. Off elsewhere unless the player turns
them on; a player may turn them off at a practice table too.
"""

import re

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games import actions, render
from games.board import load_table
from games.engine.brag.game import look
from games.models import Game, Table
from tests.factories import UserFactory, preset_variant

pytestmark = pytest.mark.django_db

HAND_LINE = re.compile(r"You hold .+: it beats \d+% of all hands\.")


def practice_table(kind="stop_the_bus"):
    client = Client()
    client.post(reverse("games:play_now"), {"kind": kind, "practice": "1"})
    player = User.objects.get(is_guest=True)
    table = Table.objects.get(host=player)
    return client, player, table


def board_html(table, user):
    render.clear()
    return render.board(load_table(table.pk), user).html


def state(game):
    game = Game.objects.get(pk=game.pk)
    return game, actions.state_of(game)


def bots_until(table, done, limit=400):
    """Let the bots (and the table) play until ``done(state)`` (the player moves greedily
    when it is their turn and ``done`` is not yet true)."""
    game = table.games.get()
    levels = {p.seat: p.bot_level or "greedy" for p in game.players.all()}
    for _ in range(limit):
        game, now = state(game)
        if done(now) or game.status != Game.Status.PLAYING:
            return game, now
        if now.phase == "showdown":
            actions.do_play(game.pk, None, _next_hand(game), game.version, by="table")
            continue
        seat = now.turn
        actions.do_play(game.pk, seat, actions.bot_choice(game, now, seat, levels[seat]),
                        game.version, by="bot" if seat else "player")
    raise AssertionError("never got there")


def _next_hand(game):
    from games.kinds import kind_for
    return kind_for(game).next_hand()


def test_a_practice_table_has_beginner_bots_no_clock_and_is_unrated():
    _client, player, table = practice_table()
    assert table.practice and table.turn_seconds is None
    assert list(table.seat_set.exclude(user=player).values_list("bot_level", flat=True)) == [
        "random", "random"]
    assert not table.games.get().rated


def test_stop_the_bus_hints_show_only_in_the_players_own_view():
    client, player, table = practice_table()
    game, now = bots_until(table, lambda s: s.phase == "play" and s.turn == 0)
    mine = board_html(table, player)
    assert 'class="hints"' in mine and HAND_LINE.search(mine)
    assert "Give one of yours for one in the middle" in mine  # the swap, explained
    # the hint sits in the player's private region (the hand), never elsewhere
    hand = mine[mine.index('id="hand"'):mine.index('id="controls"')]
    assert 'class="hints"' in hand
    # a spectator and a member watching see none of it
    watcher = UserFactory()
    for viewer in (AnonymousUser(), watcher):
        html = board_html(table, viewer)
        assert 'class="hints"' not in html and not HAND_LINE.search(html)
    # the page itself, as the player gets it
    page = client.get(table.get_absolute_url()).content.decode()
    assert HAND_LINE.search(page) and 'id="hints-toggle"' in page


def test_after_a_hand_one_line_says_what_the_best_move_was():
    _client, player, table = practice_table()
    game, now = bots_until(table, lambda s: s.phase in ("showdown", "over"))
    # the player made at least one decision in the hand (the clock does not play here)
    html = board_html(table, player)
    after = re.search(r'<p class="hints__after">(.+?)</p>', html)
    assert after, html[html.index('id="hand"'):][:3000]
    assert re.search(r"(Your last move \(.+\) was the best you could make|Best last move: )",
                     after.group(1))
    assert "hints__after" not in board_html(table, AnonymousUser())


def test_hints_are_off_elsewhere_unless_turned_on_and_can_be_turned_off_at_practice():
    member = UserFactory()
    table = actions.do_create_table(member, name="Plain", variant=preset_variant(), seats=2)
    actions.do_add_bot(table, member, "greedy")
    assert 'class="hints"' not in board_html(table, member)
    client = Client()
    client.force_login(member)
    page = client.get(table.get_absolute_url()).content.decode()
    assert "Show hints" in page
    # the table's toggle: on, here and everywhere
    response = client.post(reverse("accounts:preferences"),
                           {"hints": "on", "next": table.get_absolute_url()})
    assert response["Location"] == table.get_absolute_url()
    member.refresh_from_db()
    assert member.hints is True
    assert 'class="hints"' in board_html(table, member)
    # at a practice table a player may turn them off
    _client, player, practice = practice_table()
    User.objects.filter(pk=player.pk).update(hints=False)
    player.refresh_from_db()
    assert 'class="hints"' not in board_html(practice, player)


def test_a_blind_brag_player_gets_no_hint_about_their_cards():
    client, player, table = practice_table("brag")
    game, now = bots_until(table, lambda s: s.phase == "betting" and s.turn == 0)
    html = board_html(table, player)
    assert 'class="hints"' in html
    assert not HAND_LINE.search(html)  # blind: nothing about the cards
    assert "See your cards." in html  # what Look does
    assert "data-card" not in html[html.index('id="hand"'):html.index('id="controls"')]
    # once looked, the hand is theirs to know
    actions.do_play(game.pk, 0, look(0), game.version)
    html = board_html(table, player)
    assert HAND_LINE.search(html)
    assert "Put in the stake" in html  # what a bet means
    # another seat, a spectator: nothing
    for viewer in (AnonymousUser(), UserFactory()):
        assert 'class="hints"' not in board_html(table, viewer)


def test_after_a_brag_hand_the_line_judges_the_last_move_by_the_hands_chance():
    _client, player, table = practice_table("brag")
    lines = []
    for _hand in range(6):  # until a hand in which the player looked and then bet or folded
        game, now = bots_until(table, lambda s: s.phase == "betting" and s.turn == 0)
        if game.status != Game.Status.PLAYING:
            break
        hand_no = now.hand_no
        if not now.seen[0]:
            actions.do_play(game.pk, 0, look(0), game.version)
        game, now = bots_until(table, lambda s, h=hand_no: s.phase in ("showdown", "over")
                               and s.hand_no == h)
        html = board_html(table, player)
        assert "hints__after" not in board_html(table, AnonymousUser())
        lines += re.findall(r'<p class="hints__after">(.+?)</p>', html)
        if lines or game.status != Game.Status.PLAYING:
            break
        actions.do_play(game.pk, None, _next_hand(game), game.version, by="table")
    assert lines
    assert re.fullmatch(r"With .+, (seeing|betting|covering|folding) (was right|was risky|"
                        r"gave up a good hand): you beat (only )?\d+% of hands\.", lines[0])


def test_hints_speak_the_readers_language():
    _client, player, table = practice_table()
    bots_until(table, lambda s: s.phase == "play" and s.turn == 0)
    render.clear()
    html = render.board(load_table(table.pk), player, "ja").html
    assert re.search(r"あなたの手札は.+：全手札の\d+%に勝ちます。", html)
    assert "自分のカード1枚を場の1枚と取り替えます" in html and "何ができる？" in html
    assert "You hold" not in html
