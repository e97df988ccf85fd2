"""Fixes after a usability probe, in the pages as served (the browser test,
tests/test_ux_probe_fixes_browser.py, measures them drawn).

- The hints switch says its state (aria-pressed), on and off.
- The notice and a post table's bar share one place over the board (.table-notes), so a
  swap of either never moves the other.
- At the end of a game the winner's name and each name and hand of the last hand are kept
  together (span.keep-together), escaped once, with the sentence's words unchanged.
- The style sheets: your Brag seat centred on a phone, the keyboard's help hidden on a
  touch screen, a pressed look for the hints switch.
"""

import re
from pathlib import Path

import pytest
from django.urls import reverse

from tests.factories import UserFactory, finished_game

pytestmark = pytest.mark.django_db

CSS = Path(__file__).resolve().parent.parent / "static" / "css"


def table_page(client, table_id) -> str:
    return client.get(reverse("games:table", args=[table_id])).content.decode()


@pytest.mark.parametrize("hints, pressed", [(True, "true"), (False, "false")])
def test_the_hints_switch_says_its_state(client, hints, pressed):
    user = UserFactory(hints=hints)
    game = finished_game([user], bots=["greedy"])
    client.force_login(user)
    html = table_page(client, game.table_id)
    button = re.search(r'<button[^>]*id="hints-toggle"[^>]*>', html).group(0)
    assert f'aria-pressed="{pressed}"' in button


def test_the_notice_and_the_post_bar_share_their_place(client):
    user = UserFactory()
    game = finished_game([user], bots=["greedy"])
    client.force_login(user)
    html = table_page(client, game.table_id)
    notes = re.search(r'<div class="table-notes">\s*<div id="notice"', html)
    assert notes, "the notice is the first thing in the notes over the board"


def test_the_end_of_a_game_keeps_names_and_hands_together_and_escaped(client):
    """Seen by someone not at the table, the winner is always named; a name with markup
    in it is escaped once."""
    amy = UserFactory(username="<b>amy</b>")
    game = finished_game([amy], bots=["greedy", "greedy"])
    client.force_login(UserFactory())
    html = table_page(client, game.table_id)
    standings = html[html.index('<section id="standings"'):html.index("standings__actions")]
    assert "<b>amy</b>" not in standings and "&amp;lt;" not in standings
    heading = re.search(r"<h2 id=\"standings-title\">.*?</h2>", standings, re.S).group(0)
    winner = re.search(r'<span class="keep-together">([^<]+)</span> wins!', heading)
    assert winner, heading
    assert winner.group(1) in ("&lt;b&gt;amy&lt;/b&gt;", "Casual bot 2", "Casual bot 3")
    last = re.search(r"Last hand:.*?</p>", standings, re.S).group(0)
    together = re.findall(r'<span class="keep-together">([^<]*)</span>', last)
    assert len(together) >= 4 and len(together) % 2 == 0, last
    assert "Last hand:" in last and " wins!" in heading  # the sentences' words as they were


def test_the_style_sheets():
    table = (CSS / "table.css").read_text()
    phone = table[table.index("@media (max-width: 40rem)"):]
    assert ".me__seat > .seat--brag { justify-self: center; }" in phone
    touch = re.search(r"@media \(hover: none\) and \(pointer: coarse\) \{\s*\.keys-help "
                      r"\{ display: none; \}", table)
    assert touch
    assert '#hints-toggle[aria-pressed="true"]' in table
    assert ".keep-together {" in table
