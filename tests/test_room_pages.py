"""The room's server side: lobby counts and avatars, play now, preferences, the board's
markup contracts, and the Makefile's site-only install and terminal-less superuser."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from games import actions
from games.board import board_for, load_table
from games.models import Table
from games.templatetags.cards import around, avatar_colour, initials, pretty_card
from tests.factories import UserFactory, preset_variant, start_table_game
from tests.servers import ROOT

pytestmark = pytest.mark.django_db


def signed_in(user):
    client = Client()
    client.force_login(user)
    return client


def test_the_lobby_counts_every_seat_of_a_table_one_sits_at():
    """Three sit at a private four-seat table (listed for those seated): "3 of 4", not the
    "1/4" of a count taken over a join filtered to one's own seat."""
    host, guest = UserFactory(username="host"), UserFactory(username="guest")
    variant = preset_variant()
    table = actions.do_create_table(host, name="Counted", variant=variant, seats=4,
                                    private=True)
    actions.do_join_table(table, guest)
    actions.do_add_bot(table, host, "greedy")
    html = signed_in(guest).get(reverse("games:lobby")).content.decode()
    assert "3 of 4 seats taken" in html
    row = html[html.index("Counted"):]
    row = row[:row.index("</li>")]
    assert row.count('class="avatar ') == 3  # the seats, as avatars
    assert variant.description[:30] in row  # the variant's summary


def test_play_now_seats_bots_and_starts_the_game():
    user = UserFactory()
    response = signed_in(user).post(reverse("games:play_now"))
    table = Table.objects.get(host=user)
    assert response.status_code == 302 and response["Location"] == table.get_absolute_url()
    assert table.status == Table.Status.PLAYING
    assert [s.is_bot for s in table.seat_set.all()] == [False, True, True]


def test_a_player_sits_at_only_so_many_live_tables_at_once(settings):
    """*Play now* over and over (each table walked away from is a game its bots play out)
    stops at STOPBUS_LIVE_TABLES, with a message in words, and so do opening and joining
    a live table; leaving one frees a place. Post tables have their own limit."""
    settings.STOPBUS_LIVE_TABLES = 3
    user = UserFactory()
    client = signed_in(user)
    for _ in range(3):
        assert client.post(reverse("games:play_now")).status_code == 302
    assert Table.objects.filter(host=user).count() == 3
    response = client.post(reverse("games:play_now"), follow=True)
    assert Table.objects.filter(host=user).count() == 3  # nothing made
    assert "You are sitting at 3 live tables already" in response.content.decode()
    other = UserFactory()
    waiting = actions.do_create_table(other, name="Elm", variant=preset_variant(), seats=4)
    with pytest.raises(actions.Refused) as refused:
        actions.do_join_table(waiting, user)
    assert refused.value.code == "live_limit"
    with pytest.raises(actions.Refused):
        actions.do_create_table(user, name="Ash", variant=preset_variant(), seats=4)
    # a post table is not a live one
    actions.do_create_table(user, name="Yew", variant=preset_variant(), seats=4, pace="1d")
    # left (a bot plays on for them): a place again
    actions.do_leave_table(Table.objects.filter(host=user, pace="live").first(), user)
    actions.do_join_table(waiting, user)
    assert waiting.seat_set.filter(user=user).exists()


def test_a_player_opens_only_so_many_tables_an_hour(settings):
    """Opening a table and leaving it, over and over (the probe's 30 in 1.3 s): past
    STOPBUS_TABLES_PER_HOUR the form and *Play now* are refused in words, nothing made."""
    settings.STOPBUS_TABLES_PER_HOUR = 3
    user = UserFactory()
    client = signed_in(user)
    form = {"name": "Oak", "variant": preset_variant().pk, "seats": 4, "pace": "live"}
    for _ in range(3):
        response = client.post(reverse("games:create_table"), form)
        assert response.status_code == 302, response.content.decode()[:2000]
        actions.do_leave_table(Table.objects.filter(host=user).latest("pk"), user)
    made = Table.objects.count()
    response = client.post(reverse("games:create_table"), form)
    assert response.status_code == 400
    assert "You have opened 3 tables this hour" in response.content.decode()
    response = client.post(reverse("games:play_now"), follow=True)
    assert "You have opened 3 tables this hour" in response.content.decode()
    assert Table.objects.count() == made  # nothing made
    # someone else is not held up by it
    assert signed_in(UserFactory()).post(reverse("games:play_now")).status_code == 302


def test_play_now_is_a_post():
    assert signed_in(UserFactory()).get(reverse("games:play_now")).status_code == 405
    assert Client().get(reverse("games:play_now")).status_code == 405
    assert not Table.objects.exists()  # (a visitor's POST deals them in as a guest:
    # tests/test_guests.py)


def test_preferences_are_remembered_per_user_and_bad_input_changes_nothing():
    user = UserFactory()
    client = signed_in(user)
    assert user.sound and not user.four_colour_deck
    assert client.post(reverse("accounts:preferences"), {"sound": "off"},
                       HTTP_HX_REQUEST="true").status_code == 204
    user.refresh_from_db()
    assert not user.sound and not user.four_colour_deck
    client.post(reverse("accounts:preferences"), {"form": "all", "four_colour_deck": "on",
                                               "next": "/accounts/profile/"})
    user.refresh_from_db()
    assert user.four_colour_deck and not user.sound
    assert client.post(reverse("accounts:preferences"), {}).status_code == 400
    page = client.get(reverse("games:lobby")).content.decode()
    assert 'class="deck-4"' in page and 'data-sound="off"' in page
    # an outside "next" is not followed
    response = client.post(reverse("accounts:preferences"),
                           {"form": "all", "next": "https://example.org/"})
    assert response["Location"] == reverse("games:lobby")


def test_preferences_live_in_accounts_and_their_first_address_still_takes_a_post():
    """A table page loaded before the move posts its mute switch to /preferences/: the
    switch is still saved there (a redirect would drop the POST)."""
    user = UserFactory()
    client = signed_in(user)
    assert reverse("accounts:preferences") == "/accounts/preferences/"
    assert client.post("/preferences/", {"sound": "off"},
                       HTTP_HX_REQUEST="true").status_code == 204
    user.refresh_from_db()
    assert not user.sound
    assert client.get("/preferences/").status_code == 405
    assert Client().post("/preferences/", {"sound": "on"}).status_code == 302  # to log in
    # the pages that send them use the new address
    profile = client.get(reverse("accounts:profile")).content.decode()
    assert 'action="/accounts/preferences/"' in profile
    game = start_table_game([user], bots=["greedy"])
    table_page = client.get(game.table.get_absolute_url()).content.decode()
    assert 'data-preferences="/accounts/preferences/"' in table_page


def test_the_board_marks_its_regions_keeps_the_card_contract_and_fixes_the_axe_findings():
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    game = start_table_game([alice, bob], bots=["greedy"])
    html = signed_in(alice).get(game.table.get_absolute_url()).content.decode()
    for region in ("waiting", "status", "tools", "widow", "seal", "bus", "me-seat", "hand",
                   "controls", "showdown", "standings", "log", "spectators", "invite"):
        assert f'id="{region}"' in html
    # each region is found by its id (a named partial); nothing sent carries markers
    assert "<!--fragment:" not in html
    # the middle and your place hold regions; they are not regions themselves
    assert 'id="middle"' in html and 'id="me"' in html
    # the opponents sit around the table, each spot its own region (a move resends the mover's)
    assert 'id="opponents"' in html
    for player in game.players.exclude(user=alice):
        spot = f"spot-{player.seat}"
        assert f'id="{spot}"' in html
    # lives tokens: a label only with a role that takes one
    for tokens in re.findall(r'<span class="stack tokens"[^>]*>', html):
        assert 'role="img"' in tokens
    # headings in order: no h3 under the h1 without an h2
    assert "<h3" not in html[html.index('id="middle"'):html.index('id="bus"')]
    # no emoji bus stop; inline SVG instead
    assert "\U0001f68f" not in html and "&#128655;" not in html
    # Swap waits for both cards (table.js enables it)
    if 'id="swap-form"' in html:
        swap = re.search(r'<button type="submit" class="btn btn-primary" data-key="s"[^>]*>', html)
        assert swap and "disabled" in swap.group(0)
    # no inline script or handler: a Content-Security-Policy is coming
    assert not re.search(r"<script(?![^>]*\bsrc=)", html)
    assert not re.search(r"\son[a-z]+=", html) and "hx-on" not in html


def test_the_invite_box_is_part_of_the_board_for_every_seated_player():
    host, guest = UserFactory(), UserFactory()
    table = actions.do_create_table(host, name="Secret", variant=preset_variant(), seats=3,
                                    private=True)
    data = load_table(table.pk)
    assert board_for(data, guest)["my_table_seat"] is None
    actions.do_join_table(table, guest)
    from django.template.loader import render_to_string

    context = board_for(load_table(table.pk), guest)
    html = render_to_string("games/_board.html", context)
    assert 'id="invite-link"' in html and table.invite_code in html


def test_seat_helpers():
    assert initials("alice") == "al"
    assert initials("Greedy bot 3") == "g3"  # a numbered bot by its number (probe 2)
    assert initials("Bot for bob") == "bb"
    assert initials("Ash Smith") == "as"  # shown as AS by CSS, never a card in the text
    assert avatar_colour("alice") == avatar_colour("alice")
    assert pretty_card("QD") == "Q\u2666" and pretty_card("10S") == "10\u2660"
    # in a Japanese sentence the code sits right against the words (it stayed "6C")
    assert pretty_card("最初の捨て札は6Cです。") == "最初の捨て札は6\u2663です。"
    assert pretty_card("QS、10Hと交換") == "Q\u2660、10\u2665と交換"
    # but not inside a name or a number
    assert pretty_card("Guest10H and AS2 and 310H") == "Guest10H and AS2 and 310H"
    players = [{"seat": s} for s in (0, 1, 3)]
    # seen from seat 2: seat 3 on the left, then 0, then 1
    assert [p["seat"] for _, p in around(players, 2)] == [3, 0, 1]
    assert [spot for spot, _ in around(players, 2)] == ["spot-3-0", "spot-3-1", "spot-3-2"]


# -- the Makefile ---------------------------------------------------------------------------------


@pytest.fixture
def venv(tmp_path):
    """A stand-in venv whose requirements count as installed, so make runs no pip."""
    bin_dir = tmp_path / "venv" / "bin"
    bin_dir.mkdir(parents=True)
    python = bin_dir / "python"  # a script, not a link: the real venv's packages come along
    python.write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n')
    python.chmod(0o755)
    for marker in (".installed", ".installed-dev"):
        (tmp_path / "venv" / marker).touch()
    return tmp_path / "venv"


MAKE = shutil.which("make") or "make"
needs_make = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")


@needs_make
def test_make_run_installs_only_what_the_site_needs():
    plan = subprocess.run([MAKE, "-n", "-B", "run", "VENV=/nonexistent/venv"], cwd=ROOT,
                          capture_output=True, text=True, check=True).stdout
    assert "-r requirements.txt" in plan and "requirements-dev.txt" not in plan
    tests = subprocess.run([MAKE, "-n", "-B", "test", "VENV=/nonexistent/venv"], cwd=ROOT,
                           capture_output=True, text=True, check=True).stdout
    assert "-r requirements-dev.txt" in tests


@needs_make
def test_make_superuser_without_a_terminal_fails_clearly(venv, tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_SUPERUSER_")}
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    done = subprocess.run([MAKE, "superuser", f"VENV={venv}"], cwd=ROOT, env=env,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)
    assert done.returncode != 0
    assert "DJANGO_SUPERUSER_USERNAME" in done.stderr and "no terminal" in done.stderr

    partial = {**env, "DJANGO_SUPERUSER_USERNAME": "boss"}
    done = subprocess.run([MAKE, "superuser", f"VENV={venv}"], cwd=ROOT, env=partial,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)
    assert done.returncode != 0 and "DJANGO_SUPERUSER_PASSWORD" in done.stderr


@needs_make
def test_make_superuser_takes_the_account_from_the_environment(venv, tmp_path):
    db = tmp_path / "db.sqlite3"
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{db}",
           "DJANGO_SUPERUSER_USERNAME": "boss", "DJANGO_SUPERUSER_EMAIL": "boss@example.org",
           "DJANGO_SUPERUSER_PASSWORD": "a-long-secret-88"}
    done = subprocess.run([MAKE, "superuser", f"VENV={venv}"], cwd=ROOT, env=env,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr
    import sqlite3

    with sqlite3.connect(Path(db)) as conn:
        rows = conn.execute("SELECT username, is_superuser FROM accounts_user").fetchall()
    assert rows == [("boss", 1)]
