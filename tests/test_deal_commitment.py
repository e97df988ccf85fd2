"""The deck's SHA-256 commitment is public at the deal, kept in the log, and checked
on the replay against the deck revealed after the showdown.

The probe found it shown only with the deck, after the showdown, which proves
nothing to a player: a commitment must be seen before the cards are played.
"""

import hashlib
import html
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.urls import reverse

from games.engine import (
    PRESETS,
    GreedyBot,
    apply,
    discard,
    draw,
    new_game,
    next_hand,
    seat_view,
    view_for,
)
from games.engine.cards import parse_card
from games.engine.fairness import commitment as hash_of
from games.models import Action
from tests.conftest import CHROMIUM
from tests.factories import UserFactory, finished_game, start_table_game
from tests.rigging import play, rigged
from tests.test_csp import browser_site  # noqa: F401  (a fixture: a daphne on its own SQLite)

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()


def sealed(events):
    return [e for e in events if e.kind == "commitment"]


def test_the_deal_publishes_the_deck_commitment_in_the_log_and_every_view():
    state, events = new_game(PRESETS["classic"].rules, ["Ann", "Ben", "Cat"])
    deck = state.fairness[-1]
    [event] = sealed(events)
    assert deck["commitment"] in event.text and event.data["label"] == "hand:1"
    assert event.text_for(0) == event.text_for(None)  # the same for everyone
    for viewer in (0, 1, 2, None):
        view = view_for(state, viewer)
        assert view["commitment"] == deck["commitment"]
        # the commitment is public, the salt and the order are not
        assert deck["salt"] not in repr(view) and " ".join(deck["cards"]) not in repr(view)
    # the next hand gets its own commitment, at its own deal
    bot = GreedyBot(state.rules)
    while state.phase == "play":
        state, _ = apply(state, bot.choose(seat_view(state, state.turn)))
    state, events = apply(state, next_hand())
    assert sealed(events)[0].data["label"] == "hand:2"
    assert view_for(state, 0)["commitment"] == state.fairness[-1]["commitment"] != \
        deck["commitment"]


def test_a_reshuffle_is_sealed_in_the_log_and_becomes_the_deck_in_view():
    s = rigged(PRESETS["draw-and-discard"].rules, hands=["2C 5D 9H", "3C 6D 10H"],
               discard="4S 8S JD QS", stock="KH", dealer=1)
    s, events = play(s, draw(0), discard(0, parse_card("2C")))
    record = s.fairness[-1]
    assert ":reshuffle:" in record["label"]
    assert record["commitment"] in events[-1].text
    assert view_for(s, 1)["commitment"] == record["commitment"]


@pytest.mark.django_db
def test_the_table_shows_the_commitment_before_anyone_plays(client):
    alice, bob = UserFactory(), UserFactory()
    game = start_table_game([alice, bob])
    from games import actions

    deck = actions.state_of(game).fairness[-1]
    client.force_login(bob)
    page = client.get(reverse("games:table", args=[game.table_id])).content.decode()
    assert deck["commitment"] in page
    assert deck["salt"] not in page


@pytest.mark.django_db
def test_the_replay_recomputes_the_hash_and_matches_the_commitment_published_at_the_deal(client):
    game = finished_game([UserFactory(), UserFactory()], bots=["random"])
    start = Action.objects.get(game=game, seq=0)
    [published] = [e["data"]["commitment"] for e in start.events if e["kind"] == "commitment"]
    page = client.get(reverse("stats:replay", args=[game.pk]) + "?step=1").content.decode()
    section = page[page.index("replay-fairness"):]
    salt = re.search(r"Revealed salt</dt><dd><code[^>]*>(\w+)<", section).group(1)
    deck = re.search(r"Revealed deck, top first</dt>\s*<dd><code[^>]*>([^<]+)<", section).group(1)
    assert "Published at the deal" in section and published in section
    recomputed = hashlib.sha256(f"{salt}:{deck}".encode()).hexdigest()
    assert recomputed == published
    assert f"{recomputed}</code>" in section
    assert "equals the commitment published at the deal" in section

    # a log whose published commitment was altered afterwards fails the check, visibly
    for event in start.events:
        if event["kind"] in ("deal", "commitment"):
            event["data"]["commitment"] = "0" * 64
    start.save()
    page = client.get(reverse("stats:replay", args=[game.pk]) + "?step=1").content.decode()
    assert "differs from the commitment published at the deal" in page
    assert "Not verified" in page


def run_recipe(code: str, record: dict) -> str:
    """Run a documented recipe with a real revealed deck; returns what it prints."""
    code = (code.replace("…the 64 characters from the log at the deal…", record["commitment"])
            .replace("…the revealed salt…", record["salt"])
            .replace("…the revealed deck, e.g. QS 10H 2C …", " ".join(record["cards"])))
    printed = []
    exec(code, {"print": lambda *a: printed.append(" ".join(map(str, a)))})  # noqa: S102
    return "\n".join(printed)


@pytest.mark.django_db
def test_the_documented_python_recipe_verifies_a_real_deck(client):
    state, _ = new_game(PRESETS["classic"].rules, ["Ann", "Ben"])
    record = state.fairness[-1]
    assert hash_of(record["salt"], [parse_card(c) for c in record["cards"]]) == \
        record["commitment"]
    rules_page = client.get(reverse("games:rules")).content.decode()
    recipe = html.unescape(re.search(r'id="fair-deal".*?<pre[^>]*><code>(.*?)</code></pre>',
                                     rules_page, re.DOTALL).group(1))
    readme_recipe = re.search(r"```python\n(import hashlib\n.*?)```", README, re.DOTALL).group(1)
    for code in (recipe, readme_recipe):
        assert run_recipe(code, record) == "fair\nTrue"
        tampered = {**record, "cards": record["cards"][1:] + record["cards"][:1]}
        assert run_recipe(code, tampered).startswith("NOT the deck")


MAKE_A_FINISHED_GAME = """
from tests.factories import UserFactory, finished_game
game = finished_game([UserFactory(username="ann"), UserFactory(username="ben")], bots=["random"])
print(game.pk)
"""


@pytest.mark.browser
@pytest.mark.timeout(240)
def test_the_readers_browser_recomputes_the_hash_on_the_replay(browser_site):  # noqa: F811
    from playwright.sync_api import sync_playwright

    from tests.test_browser import ARGS

    env = {**os.environ, "DATABASE_URL": browser_site.env["DATABASE_URL"], "REDIS_URL": "",
           "STOPBUS_BOT_DELAY": "0", "STOPBUS_SHOWDOWN_PAUSE": "0", "CI": ""}
    made = subprocess.run([sys.executable, "manage.py", "shell", "-c", MAKE_A_FINISHED_GAME],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
                          check=False)
    assert made.returncode == 0, made.stderr[-3000:]
    game_id = int(made.stdout.split()[-1])
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page()
        page.goto(f"{browser_site.url}/games/{game_id}/replay/?step=1")
        page.wait_for_selector(".browser-check--ok", timeout=10000)
        check = page.locator(".browser-check").first
        computed = check.locator(".browser-check__result").inner_text().split()[0]
        assert computed == check.get_attribute("data-verify-commitment")
        assert computed == hashlib.sha256(
            check.get_attribute("data-verify-text").encode()).hexdigest()
        assert page.locator(".browser-check--bad").count() == 0
        assert "equals the commitment published at the deal" in check.inner_text()
        # and in the reader's language: the browser's verdict is the page's words, not English
        japanese = browser.new_page(extra_http_headers={"Accept-Language": "ja"})
        japanese.goto(f"{browser_site.url}/games/{game_id}/replay/?step=1")
        japanese.wait_for_selector(".browser-check--ok", timeout=10000)
        verdict = japanese.locator(".browser-check__result").first.inner_text()
        assert "配りのときに公開されたコミットメントと一致します" in verdict
        assert "equals" not in verdict
        browser.close()
