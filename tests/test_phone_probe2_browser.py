"""The second phone probe, in Debian's chromium: the layout defects it found.

At Brag on a 390×844 phone with six at the table (the felt at its least), your own cards
come clear of the bar of moves at your turn (they are no longer half under it), and the
showdown's sheet leaves the page room to scroll them clear. On a 1280×800 desktop the
chat's Send button stays inside the table's side column. Screenshots go to
STOPBUS_SCREENSHOTS (default: the test's temporary directory), named probe2-*.png.
"""

import contextlib
import re
import time

import pytest

from tests.servers import live_site
from tests.test_browser import sign_up
from tests.test_room_browser import new_page, still

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
BRAG = ("from games.models import Variant; Variant.objects.create(name='Probe brag', "
        "slug='probe-brag', game='brag', starting_chips=100, ante=1, min_bet=2, "
        "max_bet=12, max_raise=12, max_hands=2, min_players=2, max_players=8)")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    with live_site(tmp_path_factory.mktemp("probe2"), BRAG, STOPBUS_BOT_DELAY="0.2",
                   STOPBUS_SHOWDOWN_PAUSE="30") as server:
        yield server


def open_table(page, name, variant, seats):
    page.goto(page.url.split("/", 3)[0] + "//" + page.url.split("/", 3)[2] + "/")
    page.fill("input[name=name]", name)
    page.select_option("select[name=variant]", label=variant)
    page.fill("input[name=seats]", str(seats))
    page.click(".new-table form button[type=submit]")
    page.wait_for_url(re.compile(r".*/t/\d+/$"))
    for n in range(seats - 1):
        page.click("#waiting .bot-form button")
        page.wait_for_function(
            f"() => document.querySelectorAll('.seat-list__item:not(.seat-list__item--free)')"
            f".length > {n + 1} || !!document.querySelector('#me .cards--hand')")
    page.wait_for_selector("#me .cards--hand", timeout=15000)


def hand_and_bar(page):
    """Where your cards end and where the bar of moves (or an open sheet) begins, in the
    window, and how far the page may still scroll."""
    return page.evaluate("""() => {
      const hand = document.querySelector('#me .cards--hand').getBoundingClientRect();
      const bar = document.querySelector('#me .controls');
      const sheet = [...document.querySelectorAll('.panel-sheet')]
        .find(el => !el.classList.contains('is-hidden') && el.getBoundingClientRect().height);
      const top = el => el ? el.getBoundingClientRect().top : Infinity;
      return {hand: hand.bottom, bar: top(bar), sheet: top(sheet),
              more: document.documentElement.scrollHeight - window.innerHeight - window.scrollY};
    }""")


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_brag_on_a_phone_your_cards_clear_the_bar_and_the_sheet(site, browser, shots, lang):
    problems: list[str] = []
    page = new_page(browser, PHONE, problems)
    sign_up(page, site, f"phoebe{lang}")  # (the mail is read in English)
    if lang == "ja":  # the same session, read in Japanese
        cookies = page.context.cookies()
        page = new_page(browser, PHONE, problems, locale="ja-JP")
        page.context.add_cookies(cookies)
        page.goto(site.url + "/")
    open_table(page, "Probe brag", "Probe brag", 6)
    page.wait_for_selector('#status[data-my-turn="1"]', timeout=30000)
    still(page)
    # as the turn comes, before any scroll of the page's own: the page's top in view
    page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_timeout(150)
    at = hand_and_bar(page)
    page.screenshot(path=shots / f"probe2-brag-turn-phone-{lang}.png")
    assert at["hand"] <= at["bar"] + 0.5, f"your cards run under the bar of moves: {at}"

    # the showdown: the sheet may open over your cards, but the page scrolls them clear
    deadline = time.time() + 120
    while time.time() < deadline and not page.locator("#showdown:not(.is-hidden)").count():
        if page.locator('#status[data-my-turn="1"]').count():
            for move in ("#see-form button", "#me .bet__choice button", "#fold-form button"):
                if page.locator(move).count():
                    with contextlib.suppress(Exception):  # the board was sent again
                        page.locator(move).first.click(timeout=1500)
                    break
        page.wait_for_timeout(300)
    assert page.locator("#showdown:not(.is-hidden)").count(), "no showdown"
    still(page)
    page.screenshot(path=shots / f"probe2-brag-showdown-phone-{lang}.png")
    at = hand_and_bar(page)
    assert at["hand"] - at["sheet"] <= at["more"] + 0.5, f"no room to scroll clear: {at}"
    assert not problems, problems


def test_the_chat_send_button_stays_in_the_side_column(site, browser, shots):
    problems: list[str] = []
    page = new_page(browser, DESKTOP, problems)
    sign_up(page, site, "desmond")
    page.goto(site.url + "/")
    page.fill("input[name=name]", "Probe desk")
    page.select_option("select[name=variant]", label="Probe brag")
    page.check("input[name=private]")  # the invite panel over the chat, as the probe had it
    page.select_option("select[name=pace]", value="1d")  # and a post table's bar
    page.click(".new-table form button[type=submit]")
    page.wait_for_url(re.compile(r".*/t/\d+/$"))
    still(page)
    page.screenshot(path=shots / "probe2-table-waiting-desk.png")
    out = page.evaluate("""() => {
      const send = document.querySelector('#chat-form button[type=submit]');
      const invite = document.querySelector('#invite');
      // the right edge of the column: the invite panel's over it, the page's own content
      const edge = Math.min(invite.getBoundingClientRect().right,
                            document.querySelector('.table-page').getBoundingClientRect().right);
      return [send.getBoundingClientRect().right,
              document.querySelector('.table-side').getBoundingClientRect().right, edge];
    }""")
    assert max(out[0], out[1]) <= out[2] + 0.5, f"Send and its column past the edge: {out}"
    assert not problems, problems
