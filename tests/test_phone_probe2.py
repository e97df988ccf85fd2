"""The second phone probe's defects that the HTML shows (the layout ones are in
tests/test_phone_probe2_browser.py).

Brag's showdown speaks to the viewer ("You saw …; your hand is not shown.", "… saw you")
and of the others by name; once a game is over the invite box and the post table's bar say
nothing that belongs to a game still on; each numbered bot's avatar tells it from the others
("c2", "カ3"), people keep their initials; each box of the notification grid is in a label (a
40-pixel target); the stats tables' links carry the class that makes them 40 pixels tall on
a phone; the footer names both games; a row of ranks ("A-2-3") does not break on the rules
page.
"""

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games import actions
from games.models import Game, Table
from games.templatetags.cards import initials
from tests.factories import UserFactory
from tests.test_brag_table import board_html, brag_table, brag_variant, play_for, state

pytestmark = pytest.mark.django_db

NBH = "\u2011"  # a non-breaking hyphen


def see_game(**table):
    """A two-seat Brag game played to its see: (table, seer, seen, whether the seer won)."""
    table_row, game, ann, bob = brag_table(bot=False, seats=2, max_hands=1)
    if table:
        Table.objects.filter(pk=table_row.pk).update(**table)
        table_row.refresh_from_db()
    game, s = state(game)
    first = ann if s.turn == 0 else bob
    second = bob if first is ann else ann
    play_for(game, first, {"kind": "bet", "stake": 2})
    played = play_for(game, second, {"kind": "see"})
    assert played.state.phase == "over"
    return table_row, second, first, played.state.settlement["see"]["seer_won"]


def see_line(html: str) -> str:
    found = re.search(r'<ul class="settlement">.*?</ul>\s*<p class="muted">(.*?)</p>', html, re.S)
    assert found, "the settlement's line on the see"
    return found.group(1)


def test_the_showdown_speaks_to_the_seer_and_to_the_seen_and_of_them_to_others():
    table, seer, seen, seer_won = see_game()
    cost = re.search(r"for (\d+)", see_line(board_html(table, UserFactory(username="cy"))))
    with translation.override("en"):
        mine = see_line(board_html(table, seer))
        theirs = see_line(board_html(table, seen))
        watcher = see_line(board_html(table, UserFactory(username="di")))
    assert cost
    if seer_won:
        assert mine == f"You saw {seen.username} for {cost.group(1)}."
        assert theirs == f"{seer.username} saw you for {cost.group(1)}."
        assert watcher == f"{seer.username} saw {seen.username} for {cost.group(1)}."
    else:
        assert mine == f"You saw {seen.username} for {cost.group(1)}; your hand is not shown."
        assert theirs == (f"{seer.username} saw you for {cost.group(1)}; "
                          f"{seer.username}&#x27;s hand is not shown.")
        assert watcher == (f"{seer.username} saw {seen.username} for {cost.group(1)}; "
                           f"{seer.username}&#x27;s hand is not shown.")
    assert seer.username not in mine.split(" saw ")[0]


def test_after_the_game_the_invite_box_and_the_post_bar_say_nothing_of_a_game_on():
    ann, bob = UserFactory(username="ann"), UserFactory(username="bob")
    table = actions.do_create_table(ann, name="Post brag", variant=brag_variant(max_hands=1),
                                    seats=2, private=True, pace="1d")
    actions.do_join_table(table, bob)
    table.refresh_from_db()
    game = table.current_game()
    client = Client()
    client.force_login(ann)
    url = reverse("games:table", args=[table.pk])
    during = client.get(url).content.decode()
    assert "The game is on: send this link" in during  # (as it was: true while it is on)
    # the bar holds both sentences, the one that fits shown (table.js switches them live)
    assert re.search(r'data-post-when="playing">A post table: [^<]*Come back when it is your turn',
                     during)
    assert 'data-post-when="over" hidden>' in during
    game, s = state(game)
    first = ann if s.turn == 0 else bob
    play_for(game, first, {"kind": "bet", "stake": 2})
    play_for(game, bob if first is ann else ann, {"kind": "see"})
    assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    after = client.get(url).content.decode()
    assert "The game is on" not in after
    assert re.search(r'<section id="invite" class="invite is-hidden"', after)
    assert 'data-post-when="playing" hidden>' in after
    assert re.search(r'data-post-when="over">A post table: [^<]*This game is over\.', after)


@pytest.mark.parametrize(("name", "language", "want"), [
    ("Casual bot 2", "en", "c2"), ("Casual bot 6", "en", "c6"), ("Expert bot 3", "en", "e3"),
    ("Beginner bot 12", "en", "b12"), ("Bot 4", "en", "b4"),
    ("カジュアル・ボット3", "ja", "カ3"), ("エキスパート・ボット5", "ja", "エ5"),
    # people (and a stand-in) keep their initials
    ("alice", "en", "al"), ("Ash Smith", "en", "as"), ("Bot for bob", "en", "bb"),
    ("Greedy bot 3", "en", "g3"), ("はなこ", "ja", "はな"),  # (an older game's bot)
])
def test_a_numbered_bot_is_told_apart_by_its_number(name, language, want):
    with translation.override(language):
        assert initials(name) == want


def test_the_bots_of_a_standings_list_have_different_avatars():
    with translation.override("en"):
        assert len({initials(f"Casual bot {n}") for n in range(2, 7)}) == 5
    with translation.override("ja"):
        assert len({initials(f"カジュアル・ボット{n}") for n in range(2, 7)}) == 5


def test_each_box_of_the_notification_grid_is_in_a_label(user_client):
    html = user_client.get("/notifications/preferences/").content.decode()
    grid = re.search(r'<table class="notify-grid">.*?</table>', html, re.S).group(0)
    boxes = re.findall(r'<input type="checkbox"', grid)
    held = re.findall(r'<label class="notify-grid__hit"><input type="checkbox"[^>]*></label>',
                      grid)
    assert boxes and len(held) == len(boxes)


def test_the_stats_links_and_the_dismiss_button_are_finger_sized():
    from pathlib import Path

    from django.conf import settings

    css = (Path(settings.BASE_DIR) / "static/css/site.css").read_text()
    assert re.search(r"\.stats-table a\.stats-link \{[^}]*min-height: 2\.5rem", css)
    assert re.search(r"\.ios-home-hint \.link-button \{[^}]*min-height: 2\.5rem", css)
    assert re.search(r"\.notify-grid__hit \{[^}]*min-height: 2\.5rem", css)
    results = (Path(settings.BASE_DIR) / "templates/stats/_results_table.html").read_text()
    assert results.count('class="stats-link"') == 2  # a player's name, and Replay


def test_the_footer_names_both_games(client):
    with translation.override("en"):
        html = client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    footer = re.search(r'<footer class="site-footer">.*?</footer>', html, re.S).group(0)
    assert "Stop the Bus and Three Card Brag" in footer
    assert "for three-card Brag." not in footer


