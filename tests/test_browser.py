"""Two people in two browsers (Debian's chromium, driven by Playwright) play a whole game.

The site runs as a newcomer runs it: one daphne process, SQLite, the in-memory
channel layer. Screenshots of every stage go to STOPBUS_SCREENSHOTS (default: the
test's temporary directory) so people can look at them.
"""

import contextlib
import re
import time

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.servers import live_site

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

ARGS = CHROMIUM_ARGS
PASSWORD = "a-long-secret-88"


@pytest.fixture
def site(tmp_path):
    with live_site(tmp_path, STOPBUS_BOT_DELAY="0.3", STOPBUS_SHOWDOWN_PAUSE="3") as server:
        yield server


CONTRACT = """() => {
  const bad = [];
  for (const el of document.querySelectorAll('.card')) {
    const back = el.classList.contains('card--back');
    const code = el.getAttribute('data-card'), label = el.getAttribute('aria-label');
    if (back && (code || label)) bad.push('back with ' + code + ' ' + label);
    if (!back && (!code || !label)) bad.push('face-up card without code or label');
  }
  return bad;
}"""


def sign_up(page, site, name):
    base = site.url
    page.goto(base + "/accounts/signup/")
    page.fill("input[name=username]", name)
    page.fill("input[name=email]", f"{name}@example.org")
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.click("main form button[type=submit]")
    page.wait_for_url(base + "/accounts/signup/sent/")
    # the confirmation mail, printed by the console mail backend into daphne's log
    mail = re.search(rf"Hello {name},.*?(http://\S+/accounts/signup/confirm/\S+/)",
                     site.log_path.read_text(), re.DOTALL)
    page.goto(mail.group(1))
    page.click("main form button[type=submit]")
    page.wait_for_url(base + "/")


def take_turn(page, turns_taken):
    """Swap the first card with the first middle card; stop on the third turn."""
    if page.locator("#stop-form").count() and turns_taken >= 2:
        page.click("#stop-form button")
    elif page.locator("#swap-form").count():
        page.locator("#me .pick").first.click()
        page.locator("#middle .pick").first.click()
        page.click("#swap-form button[type=submit]")
    elif page.locator("#pass-form").count():
        page.click("#pass-form button")
    else:
        return False
    return True


def test_two_people_play_a_game_with_a_bot_to_its_end(site, shots):
    from playwright.sync_api import sync_playwright

    base = site.url
    problems = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        alice = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        bob = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                  has_touch=True).new_page()
        for page in (alice, bob):
            page.on("pageerror", lambda exc: problems.append(str(exc)))
            page.on("console", lambda msg: msg.type == "error" and problems.append(msg.text))
        sign_up(alice, site, "alice")
        sign_up(bob, site, "bob")

        alice.fill("input[name=name]", "Browser bus")
        alice.select_option("select[name=variant]", label="Stop the Bus (classic)")
        alice.fill("input[name=seats]", "3")
        alice.click("text=Open the table")
        alice.wait_for_url(re.compile(r".*/t/\d+/$"))
        alice.screenshot(path=shots / "1-table-waiting.png", full_page=True)

        bob.goto(base + "/")
        bob.wait_for_selector("text=Browser bus")  # the lobby lists it
        bob.click("text=Browser bus")
        bob.click("text=Sit down")
        alice.wait_for_selector("text=bob")  # alice's page updates live
        alice.select_option("#bot-level", "greedy")
        alice.click("text=Add a bot")  # the table is full: the game starts
        for page in (alice, bob):
            page.wait_for_selector("#me .cards--hand .card", timeout=15000)
        alice.screenshot(path=shots / "2-alice-first-hand.png", full_page=True)
        bob.screenshot(path=shots / "3-bob-first-hand-phone.png", full_page=True)

        turns = {"alice": 0, "bob": 0}
        saw_showdown = False
        deadline = time.monotonic() + 200
        while time.monotonic() < deadline:
            if alice.locator("#standings h2").count():
                break
            for name, page in (("alice", alice), ("bob", bob)):
                if take_turn(page, turns[name]):
                    turns[name] += 1
                    page.wait_for_timeout(300)
                if page.locator("#showdown .ready-form button").count():
                    if not saw_showdown:
                        alice.screenshot(path=shots / "4-showdown.png", full_page=True)
                        bob.screenshot(path=shots / "5-showdown-phone.png", full_page=True)
                        for view in (alice, bob):
                            problems.extend(view.evaluate(CONTRACT))
                        saw_showdown = True
                    # the showdown's pause may run out first (the next hand dealt)
                    with contextlib.suppress(PlaywrightTimeout):
                        page.click("#showdown .ready-form button", timeout=2000)
            for view in (alice, bob):
                problems.extend(view.evaluate(CONTRACT))
            alice.wait_for_timeout(150)
        assert saw_showdown, "no showdown was reached"
        alice.wait_for_selector("#standings h2", timeout=10000)
        bob.wait_for_selector("#standings h2", timeout=10000)
        alice.screenshot(path=shots / "6-game-over.png", full_page=True)
        bob.screenshot(path=shots / "7-game-over-phone.png", full_page=True)
        # whoever won (a bot sits here too): "You win!" on the winner's own page, "<name>
        # wins!" on the others'
        headings = [alice.inner_text("#standings h2").strip(),
                    bob.inner_text("#standings h2").strip()]
        assert all(h == "You win!" or h.endswith(" wins!") for h in headings), headings
        assert headings.count("You win!") <= 1, headings
        assert alice.locator("text=Play again with the same seats").count()
        phone_width = bob.evaluate("document.documentElement.scrollWidth")
        assert phone_width <= 390, f"the phone page scrolls sideways ({phone_width}px)"
        browser.close()
    assert turns["alice"] + turns["bob"] > 2
    assert not problems, problems
