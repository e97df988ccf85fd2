"""What a page says of the last game goes when the next one's board arrives, even when
both games are at hand 1 (a game of Brag of one hand): a notice (the page knew a new game
only by its hand number starting again), and a post table's "This game is over", which
follows the game live both ways."""

import re

import pytest

from tests.servers import live_site, log_in

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

PASSWORD = "a-long-secret-88"

SEED = f"""
from accounts.models import User
from games import actions
from games.models import Table, Variant
from tests.factories import finished_game
ann = User.objects.create_user("ann", "ann@example.org", "{PASSWORD}")
variant = Variant.objects.get(slug="three-card-brag")
variant.pk, variant.slug, variant.name, variant.max_hands = None, "brag-1", "Brag, 1 hand", 1
variant.save()
game = finished_game([ann], bots=["greedy"], variant=variant)
state = actions.state_of(game)
print("OVER", game.table.pk, game.pk, state.hand_no)
post = finished_game([ann], bots=["greedy"], variant=variant)
Table.objects.filter(pk=post.table_id).update(pace="1d")
print("POST", post.table.pk, post.pk)
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    with live_site(tmp_path_factory.mktemp("again"), SEED, STOPBUS_BOT_DELAY="0.3",
                   STOPBUS_SHOWDOWN_PAUSE="1") as server:
        found = re.search(r"OVER (\d+) (\d+) (\d+)", server.made)
        server.table, server.game, server.hands = (int(found.group(n)) for n in (1, 2, 3))
        found = re.search(r"POST (\d+) (\d+)", server.made)
        server.post_table, server.post_game = int(found.group(1)), int(found.group(2))
        yield server


def open_table(site, browser, table_id):
    """ann's page of the table, live, at 1280x800: (context, page, the page's errors)."""
    context = browser.new_context(viewport={"width": 1280, "height": 800},
                                  reduced_motion="reduce")
    page = context.new_page()
    problems = []
    page.on("pageerror", lambda exc: problems.append(str(exc)))
    log_in(page, site.url, "ann", PASSWORD)
    page.goto(f"{site.url}/t/{table_id}/")
    page.wait_for_selector("body[data-live]", state="attached", timeout=15000)
    return context, page, problems


def wait_for_another_game(page, game_id):
    """Until the board names a game other than ``game_id``."""
    page.wait_for_function(
        "g => { const s = document.getElementById('status'); "
        "return s && s.dataset.game && s.dataset.game !== g; }", arg=str(game_id),
        timeout=15000)


def test_a_notice_goes_when_another_game_starts_at_the_same_hand_number(site, browser):
    assert site.hands == 1  # the game ended with its first hand
    context, page, problems = open_table(site, browser, site.table)
    again = page.locator("form[action$='/again/'] button")
    again.wait_for()
    assert page.get_attribute("#status", "data-game") == str(site.game)
    assert page.get_attribute("#status", "data-hand") == "1"
    # a notice the last game left (as a refusal or a form's answer would), with no timer
    # to fade it yet: the new game's board must take it away, not the fade six seconds on
    page.evaluate("""() => { const n = document.getElementById('notice');
      const m = n.cloneNode(false); m.textContent = 'From the last game';
      n.replaceWith(m); }""")
    again.click()
    wait_for_another_game(page, site.game)
    assert page.get_attribute("#status", "data-hand") == "1"
    assert page.locator("#notice").inner_text().strip() == ""
    assert problems == []
    context.close()


OVER = ".post-bar [data-post-when='over']"
PLAYING = ".post-bar [data-post-when='playing']"


def test_the_post_bar_follows_the_game_to_its_end_and_into_the_next(site, browser):
    context, page, problems = open_table(site, browser, site.post_table)
    assert page.locator(OVER).is_visible()
    assert "This game is over." in page.locator(OVER).inner_text()
    assert not page.locator(PLAYING).is_visible()
    # the next game, on the same post table: come back at your turn
    page.locator("form[action$='/again/'] button").click()
    wait_for_another_game(page, site.post_game)
    page.wait_for_function(f"() => document.querySelector(\"{OVER}\").hidden", timeout=5000)
    assert page.locator(PLAYING).get_attribute("hidden") is None
    assert "Come back when it is your turn" in page.locator(PLAYING).text_content()
    # ann folds at her first turn (unless the bot folded first): the one hand is over, and
    # so is the game
    page.wait_for_selector("#fold-form button, #standings:not(.is-hidden)", timeout=20000)
    if page.locator("#fold-form button").count():
        page.locator("#fold-form button").click()
    page.wait_for_selector("#standings:not(.is-hidden)", timeout=20000)
    page.wait_for_function(f"() => !document.querySelector(\"{OVER}\").hidden", timeout=5000)
    assert page.locator(OVER).is_visible()
    assert page.locator(PLAYING).get_attribute("hidden") is not None
    assert problems == []
    context.close()
