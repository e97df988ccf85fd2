"""Guests and the practice table in a real browser (Debian's chromium via Playwright).

A visitor plays a whole game of each kind as a guest at once (short games: one life
each in Stop the Bus, one hand of Brag, bots that move fast), then signs up with the
link from the mail and finds the game in their history. The lobby's first-visit "How
to play" shows once; a practice table shows its player hints. Screenshots of the lobby
and a practice table at 1280×800 and 390×844 go to STOPBUS_SCREENSHOTS (default: the
test's temporary directory).
"""

import re
import time

import pytest

from tests.servers import live_site

pytestmark = [pytest.mark.browser, pytest.mark.timeout(500)]

PASSWORD = "a-long-secret-88"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}

# Short games: one life and no floating in Stop the Bus (two hands at three seats), one
# hand of Brag.
SHORT_GAMES = """
from games.models import Variant
Variant.objects.filter(slug="classic").update(starting_lives=1, floating=False)
Variant.objects.filter(slug="three-card-brag").update(max_hands=1)
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    with live_site(tmp_path_factory.mktemp("guests"), SHORT_GAMES, STOPBUS_BOT_DELAY="0.05",
                   STOPBUS_SHOWDOWN_PAUSE="1") as server:
        yield server


def new_page(browser, size, problems, **options):
    context = browser.new_context(viewport=size, **options)
    page = context.new_page()
    page.on("pageerror", lambda exc: problems.append(str(exc)))
    page.on("console", lambda msg: msg.type == "error" and problems.append(msg.text))
    return page


def over(page) -> bool:
    return page.locator("#standings h2").count() > 0


def click_if(page, selector) -> bool:
    button = page.locator(selector)
    if not button.count():
        return False
    try:
        button.first.click(timeout=2000)
    except Exception:  # a board replaced under the click: the next round looks again
        return False
    return True


def play_stop_the_bus(page, limit=200):
    """Stop the bus whenever we may (else swap or pass) until the game is over."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline and not over(page):
        if page.locator('#status[data-my-turn="1"]').count():
            (click_if(page, "#stop-form button") or click_if(page, "#pass-form button")
             or (click_if(page, "#me .pick") and click_if(page, "#middle .pick")
                 and click_if(page, "#swap-form button[type=submit]")))
        if page.locator("#showdown:not(.is-hidden) .ready-form button").count():
            click_if(page, "#showdown .ready-form button")
        page.wait_for_timeout(300)
    assert over(page), "the game did not end"


def play_brag(page, limit=200):
    """Look, then fold on our turn: one hand, and the game is over."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline and not over(page):
        if page.locator('#status[data-my-turn="1"]').count():
            click_if(page, "#fold-form button")
        page.wait_for_timeout(300)
    assert over(page), "the game did not end"


def sign_up_from_here(page, site, name):
    """The guest signs up; the link in the mail (daphne's log) makes the account."""
    base = site.url
    page.goto(base + "/accounts/signup/")
    assert "your games and stats move to your new account" in page.content()
    page.fill("input[name=username]", name)
    page.fill("input[name=email]", f"{name}@example.org")
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.click("main form button[type=submit]")
    page.wait_for_url(base + "/accounts/signup/sent/")
    mail = None
    for _ in range(20):
        mail = re.search(rf"Hello {name},.*?(http://\S+/accounts/signup/confirm/\S+/)",
                         site.log_path.read_text(), re.DOTALL)
        if mail:
            break
        time.sleep(0.25)
    page.goto(mail.group(1))
    page.click("main form button[type=submit]")
    page.wait_for_url(base + "/")


@pytest.mark.parametrize("kind, name", [("stop_the_bus", "bus_rider"), ("brag", "brag_pro")])
def test_a_visitor_plays_a_game_as_a_guest_then_signs_up_and_keeps_it(
        site, browser, kind, name):
    problems = []
    page = new_page(browser, DESKTOP, problems)
    page.goto(site.url + "/")
    page.click(f'#play-now button[data-kind="{kind}"]')
    page.wait_for_url(re.compile(r".*/t/\d+/$"))
    guest_name = page.locator("h1").first.inner_text()
    assert re.search(r"Guest \d{4}", guest_name), guest_name
    (play_stop_the_bus if kind == "stop_the_bus" else play_brag)(page)
    sign_up_from_here(page, site, name)
    history = f"{site.url}/u/{name}/games/" + ("?game=brag" if kind == "brag" else "")
    page.goto(history)
    assert page.locator("main a[href*='/replay/']").count() == 1, page.content()[:3000]
    # the game is theirs: its replay opens for them (the log keeps the name it was
    # played under)
    page.click("main a[href*='/replay/']")
    page.wait_for_url(re.compile(r".*/replay/$"))
    page.wait_for_load_state()
    assert page.locator("main").count() and "Guest" in page.content()
    assert problems == []


def test_how_to_play_shows_once_and_a_practice_table_shows_hints(site, browser, shots):
    problems = []
    desk = new_page(browser, DESKTOP, problems)
    desk.goto(site.url + "/")
    intro = desk.locator("#how-to-intro")
    assert intro.is_visible() and intro.locator("li").count() == 3
    desk.screenshot(path=shots / "guest-lobby-desktop.png", full_page=True)
    phone = new_page(browser, PHONE, problems, is_mobile=True, has_touch=True)
    phone.goto(site.url + "/")
    phone.screenshot(path=shots / "guest-lobby-phone.png", full_page=True)
    desk.click("#how-to-intro-dismiss")
    assert not intro.is_visible()
    desk.reload()
    assert not desk.locator("#how-to-intro").is_visible()  # remembered in this browser

    # a practice table: beginner bots, hints in the player's own hand
    desk.select_option("#practice-kind", "stop_the_bus")
    desk.click("#practice-button")
    desk.wait_for_url(re.compile(r".*/t/\d+/$"))
    desk.wait_for_selector('#status[data-my-turn="1"]', timeout=30000)
    hints = desk.locator("#hand .hints")
    assert hints.is_visible()
    assert re.search(r"You hold .+: it beats \d+% of all hands\.", hints.inner_text())
    desk.click("#hand .hints__help summary")  # the moves explained, on a click or tap
    assert "Give one of yours for one in the middle" in hints.inner_text()
    assert desk.locator("#hints-toggle").inner_text().strip() == "Hide hints"
    desk.wait_for_timeout(700)
    desk.screenshot(path=shots / "practice-desktop.png")
    phone_table = new_page(browser, PHONE, problems, is_mobile=True, has_touch=True,
                           storage_state=desk.context.storage_state())
    phone_table.goto(desk.url)
    phone_table.wait_for_selector("#hand .hints", timeout=30000)
    phone_table.wait_for_timeout(700)
    phone_table.screenshot(path=shots / "practice-phone.png", full_page=True)
    # the player's first visit to the lobby is over: as a guest now, the steps are gone
    desk.goto(site.url + "/")
    assert not desk.locator("#how-to-intro").is_visible()
    # hints off at the table's toggle, and the hand shows none
    desk.goto(phone_table.url)
    desk.click("#hints-toggle")
    desk.locator("#hints-toggle", has_text="Show hints").wait_for(timeout=15000)
    desk.wait_for_selector("#hand .cards--hand", timeout=15000)  # the board, from the socket
    desk.wait_for_timeout(500)
    assert desk.locator("#hand .hints").count() == 0
    assert problems == []


def test_a_brag_practice_table_hints_nothing_of_unseen_cards(site, browser, shots):
    problems = []
    page = new_page(browser, DESKTOP, problems)
    page.goto(site.url + "/")
    page.select_option("#practice-kind", "brag")
    page.click("#practice-button")
    page.wait_for_url(re.compile(r".*/t/\d+/$"))
    page.wait_for_selector('#status[data-my-turn="1"]', timeout=30000)
    hints = page.locator("#hand .hints")
    assert hints.is_visible()
    assert "You hold" not in hints.inner_text()  # blind: nothing about the cards
    page.click("#hand .hints__help summary")
    assert "See your cards." in hints.inner_text()
    page.click("#look-form button")
    page.wait_for_selector("#hand .hints__hand", timeout=15000)
    assert re.search(r"You hold .+: it beats \d+% of all hands\.",
                     page.locator("#hand .hints__hand").inner_text())
    page.wait_for_timeout(700)
    page.screenshot(path=shots / "practice-brag-desktop.png")
    phone = new_page(browser, PHONE, problems, is_mobile=True, has_touch=True,
                     storage_state=page.context.storage_state())
    phone.goto(page.url)
    phone.wait_for_selector("#hand .hints__hand", timeout=30000)
    phone.wait_for_timeout(700)
    phone.screenshot(path=shots / "practice-brag-phone.png")
    assert problems == []
