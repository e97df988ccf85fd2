"""The table in Japanese in a real browser (Debian's chromium via Playwright) on a 390×844
phone: a whole Stop the Bus game and a whole Brag game against bots. The Japanese words
fit their buttons, badges and panels, nothing overflows, the page never scrolls
sideways, and the tab's title says the turn in Japanese.

Screenshots go to STOPBUS_SCREENSHOTS (default: the test's temporary directory).
"""

import re
import time

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.servers import live_site, log_in
from tests.test_i18n_events import english_left

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

PASSWORD = "a-long-secret-88"
PHONE = {"width": 390, "height": 844}

# Players (ja) and a Brag table of two hands against two bots, made as the site makes them.
SETUP = f"""
PASSWORD = "{PASSWORD}"
from accounts.models import User
from games import actions
from games.models import Variant
for name in ("さくら", "ひろし"):
    user = User.objects.create_user(name, name.encode().hex() + "@example.org", PASSWORD)
    user.language = "ja"
    user.save()
brag = Variant.objects.get(slug="three-card-brag")
brag.pk, brag.slug, brag.name, brag.max_hands = None, "brag-short", "短いブラッグ", 2
brag.save()
table = actions.do_create_table(User.objects.get(username="ひろし"), name="ブラッグの卓",
                                variant=brag, seats=4)
actions.do_add_bot(table, table.host, "random")
actions.do_add_bot(table, table.host, "random")
print("BRAG", table.pk)
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    with live_site(tmp_path_factory.mktemp("ja-room"), SETUP, STOPBUS_BOT_DELAY="0.1",
                   STOPBUS_SHOWDOWN_PAUSE="3") as server:
        server.brag_table = int(re.search(r"BRAG (\d+)", server.made).group(1))
        yield server


def phone_page(browser, problems):
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                                  locale="ja-JP")
    page = context.new_page()
    page.on("pageerror", lambda exc: problems.append(str(exc)))
    page.on("console", lambda msg: msg.type == "error" and problems.append(msg.text))
    return page


def scroll_width(page):
    return page.evaluate("document.documentElement.scrollWidth")


# Every button, badge, pile and panel of the board whose text is wider than its box (text
# cut off or spilling over), or whose box runs past the screen's right edge.
OVERFLOWING = """() => {
  const out = [];
  const width = document.documentElement.clientWidth;
  const sel = ".board button, .board .badge, .board .btn, .board .pile__title, "
            + ".board .pile__count, .board .status > span, .board .seat__name, "
            + ".board .panel-sheet, .board .controls__hint, .board .bet__cost, "
            + ".board .showdown__result, .board .bus__line > span, .table-head, .table-tools .btn";
  for (const el of document.querySelectorAll(sel)) {
    const box = el.getBoundingClientRect();
    // not shown, or there for screen readers only (clipped to nothing)
    if (!el.offsetParent || box.width <= 1 || getComputedStyle(el).clipPath !== "none") continue;
    if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== "auto")
      out.push(["text wider than its box", el.className, el.textContent.trim().slice(0, 60)]);
    if (box.right > width + 0.5 || box.left < -0.5)
      out.push(["past the screen", el.className, el.textContent.trim().slice(0, 60),
                Math.round(box.left), Math.round(box.right)]);
  }
  return out;
}"""


def fits(page, where):
    assert scroll_width(page) <= PHONE["width"], (where, scroll_width(page))
    found = page.evaluate(OVERFLOWING)
    assert found == [], (where, found)


def shown_english(page):
    """Latin words the board shows (names, their initials and card codes aside)."""
    text = page.evaluate("""() => {
      const board = document.querySelector(".board").cloneNode(true);
      board.querySelectorAll(".avatar__initials, code").forEach(el => el.remove());
      return board.textContent;
    }""")
    for name in ("さくら", "ひろし", "ブラッグの卓"):
        text = text.replace(name, " ")
    # bots' names, and a Brag deal's first digits of its pack's commitment
    text = re.sub(r"(Beginner|Casual|Expert) bot \d+|Bot for \S+|[0-9a-f]{12}…",
                  " ", text)
    return english_left(text)


def in_view(page, selector):
    """The element is wholly on the screen (not scrolled away inside its sheet)."""
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"] + 0.5, (selector, box)
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] + 0.5, (selector, box)


def still(page):
    page.wait_for_timeout(700)


def shoot(page, shots, name):
    still(page)
    page.screenshot(path=shots / f"{name}.png")


def test_a_stop_the_bus_game_in_japanese_fits_a_phone(site, browser, shots):
    problems = []
    page = phone_page(browser, problems)
    log_in(page, site.url, "さくら", PASSWORD)
    page.click("form[action$='/tables/play-now/'] button")
    page.wait_for_url(re.compile(r".*/t/\d+/$"))
    page.wait_for_selector('#status[data-my-turn="1"]', timeout=30000)
    assert page.title().startswith("\u25cf あなたの番"), page.title()
    assert "あなたの番" in page.inner_text("#status")
    shoot(page, shots, "stb-turn")
    fits(page, "your turn")
    assert shown_english(page) == []
    # a touch phone has no keyboard: no keyboard-shortcuts panel
    assert not page.locator(".keys-help summary").is_visible()
    page.click(".leave summary")
    shoot(page, shots, "stb-leave")
    fits(page, "leave panel")
    page.click(".leave summary")

    seen = {"showdown": False}
    turns = 0
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and not page.locator("#standings h2").count():
        if page.locator("#showdown .showdown__row").count() and not seen["showdown"]:
            shoot(page, shots, "stb-showdown")
            fits(page, "showdown")
            in_view(page, "#showdown .ready-form")
            assert shown_english(page) == []
            seen["showdown"] = True
        if page.locator("#showdown .ready-form button").count():
            page.click("#showdown .ready-form button")
        elif page.locator("#stop-form").count() and turns >= 1:
            page.click("#stop-form button")
            turns = 0
        elif page.locator("#swap-form").count():
            page.locator("#me .pick").first.click()
            page.locator("#middle .pick").first.click()
            swap = "#swap-form button[type=submit]:not([disabled])"
            if page.locator(swap).count():
                if turns == 0:
                    shoot(page, shots, "stb-swap-picked")
                    fits(page, "swap picked")
                try:
                    page.click(swap, timeout=5000)
                except PlaywrightTimeout:
                    continue  # a frame redrew the board meanwhile, the picks with it: again
                turns += 1
        elif page.locator("#pass-form").count():
            page.click("#pass-form button")
        page.wait_for_timeout(250)
    assert seen["showdown"]
    page.wait_for_selector("#standings h2", timeout=10000)
    shoot(page, shots, "stb-over")
    fits(page, "game over")
    in_view(page, "#standings .standings__actions")
    assert shown_english(page) == []
    assert page.locator("#standings .standings__row").count() == 3
    page.screenshot(path=shots / "stb-over-full.png", full_page=True)
    assert not problems, problems


def test_a_brag_game_in_japanese_fits_a_phone(site, browser, shots):
    problems = []
    page = phone_page(browser, problems)
    log_in(page, site.url, "ひろし", PASSWORD)
    page.goto(f"{site.url}/t/{site.brag_table}/")
    shoot(page, shots, "brag-waiting")
    fits(page, "waiting")
    assert shown_english(page) == []
    page.click("#waiting form[action$='/start/'] button")
    page.wait_for_selector("#me .cards--hand .card", timeout=15000)

    shots_taken = set()
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and not page.locator("#standings h2").count():
        if page.locator("#showdown .ready-form").count():
            if "settled" not in shots_taken:
                shoot(page, shots, "brag-settled")
                fits(page, "hand settled")
                in_view(page, "#showdown .ready-form")
                shots_taken.add("settled")
            if page.locator("#showdown .ready-form button").count():
                page.click("#showdown .ready-form button")
        elif page.locator(".bet").count():
            if "bet" not in shots_taken:
                shoot(page, shots, "brag-bet")
                fits(page, "bet control")
                assert shown_english(page) == []
                shots_taken.add("bet")
            if page.locator("#see-form").count():
                page.click("#see-form button")
            else:
                page.locator(".bet__choice button").first.click()
        elif page.locator("#see-form").count():
            page.click("#see-form button")
        elif page.locator("#look-form").count() and "look" not in shots_taken:
            shoot(page, shots, "brag-blind")
            fits(page, "blind")
            page.click("#look-form button")
            shots_taken.add("look")
        page.wait_for_timeout(250)
    page.wait_for_selector("#standings h2", timeout=10000)
    shoot(page, shots, "brag-over")
    fits(page, "game over")
    in_view(page, "#standings .standings__actions")
    assert "bet" in shots_taken
    page.screenshot(path=shots / "brag-over-full.png", full_page=True)
    assert not problems, problems
