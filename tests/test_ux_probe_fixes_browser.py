"""Fixes after a usability probe, measured in Debian's chromium at 390×844 and 1280×800.

- Brag on a phone: your own seat's box is centred over your cards (it was pushed to the
  right edge); on a wide screen it keeps its place at the end of its column.
- A notice shown while the table waited (an unknown player invited) is gone once the game
  starts, and a notice no longer stays for good while the board keeps changing.
- A post table's pace sits in the same place, over the seats, before and after a notice.
- The keyboard's help is not offered on a touch phone; it is on a desktop.
- The hints switch says its state (aria-pressed) and looks pressed when the hints are on.
- The end of a game in Japanese: a player's name and a hand's cards keep to one line, and
  nothing is wider than a 360-pixel screen.
- Tap targets on a phone are 40 pixels at least: the fair deal check, "What can I do?",
  "Mark as read", a replay's links, the footer's and the table's rules links, the stats
  page's links, the profile's table settings (22-pixel boxes).

Screenshots go to STOPBUS_SCREENSHOTS (default: the test's temporary directory), named
probe-*.png.
"""

import re

import pytest

from tests.servers import live_site, log_in

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

PASSWORD = "a-long-secret-88"
PHONE = {"width": 390, "height": 844}
NARROW = {"width": 360, "height": 780}
DESKTOP = {"width": 1280, "height": 800}

SEED = f"""
from accounts.models import User
from games import actions
from games.models import GamePlayer
from tests.factories import finished_game, preset_variant
ann = User.objects.create_user("ann", "ann@example.org", "{PASSWORD}")
hana = User.objects.create_user("hana", "hana@example.org", "{PASSWORD}")
hana.language = "ja"; hana.hints = True; hana.save()
ann.hints = True; ann.save()
# a finished game of Stop the Bus that a bot won (so its name is in the heading)
for _ in range(12):
    game = finished_game([ann], bots=["greedy", "greedy"])
    if GamePlayer.objects.get(game=game, user=ann).place != 1:
        break
game.table.spectators_allowed = True
game.table.save()
print("OVER", game.table.pk, game.pk)
# hana is invited to two tables: two unread notifications
for n in range(2):
    table = actions.do_create_table(ann, name="Invite " + str(n), variant=preset_variant(),
                                    seats=3)
    actions.do_invite(table, ann, "hana")
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    with live_site(tmp_path_factory.mktemp("probe"), SEED, STOPBUS_BOT_DELAY="0.2",
                   STOPBUS_SHOWDOWN_PAUSE="30") as server:
        found = re.search(r"OVER (\d+) (\d+)", server.made)
        server.over_table, server.over_game = int(found.group(1)), int(found.group(2))
        yield server


def new_page(browser, size, language="en", problems=None):
    phone = size["width"] < 600
    context = browser.new_context(
        viewport=size, locale="ja-JP" if language == "ja" else "en-GB",
        extra_http_headers={"Accept-Language": language}, is_mobile=phone, has_touch=phone,
        reduced_motion="reduce")
    page = context.new_page()
    if problems is not None:
        page.on("pageerror", lambda exc: problems.append(str(exc)))
    return page


def open_table(page, site, variant, pace="", name="Probe"):
    """A new waiting table of four seats with one bot; ``pace`` a post pace or ""."""
    page.goto(site.url + "/")
    page.fill("input[name=name]", name)
    page.select_option("select[name=variant]", label=variant)
    page.fill("input[name=seats]", "4")
    if pace:
        page.select_option("select[name=pace]", pace)
    page.click(".new-table form button[type=submit]")
    page.wait_for_url(re.compile(r".*/t/\d+/$"))
    page.wait_for_selector("body[data-live]", state="attached", timeout=15000)
    page.click("#waiting .bot-form button")
    page.wait_for_function(
        "() => document.querySelectorAll('.seat-list__item:not(.seat-list__item--free)')"
        ".length >= 2")


def box(page, selector):
    return page.evaluate("""s => { const e = document.querySelector(s); if (!e) return null;
      const r = e.getBoundingClientRect();
      return {left: r.left, right: r.right, top: r.top, bottom: r.bottom,
              width: r.width, height: r.height}; }""", selector)


def centre(b):
    return (b["left"] + b["right"]) / 2


def test_brag_own_seat_is_centred_on_a_phone_and_the_notice_goes_at_the_start(
        site, browser, shots):
    problems = []
    page = new_page(browser, PHONE, problems=problems)
    log_in(page, site.url, "ann", PASSWORD)
    open_table(page, site, "Three Card Brag", pace="1h", name="Brag probe")
    # an unknown player invited: the notice says so, while the table waits
    page.fill("#invite-name", "nobody_yet")
    page.click(".invite-form button[type=submit]")
    page.wait_for_function("() => document.getElementById('notice').textContent.trim()")
    assert "nobody_yet" in page.locator("#notice").inner_text()
    # the pace's sentence stays over the seats with the notice shown
    pace, seats, notice = box(page, ".post-bar"), box(page, "#waiting"), box(page, "#notice")
    assert notice["bottom"] <= pace["top"] + 1 and pace["bottom"] <= seats["top"] + 1, (
        notice, pace, seats)
    page.screenshot(path=shots / "probe-brag-notice-waiting.png")
    page.click("#waiting form[action$='/start/'] button")
    page.wait_for_selector("#me .seat--brag", timeout=15000)
    page.wait_for_timeout(500)
    assert page.locator("#notice").inner_text().strip() == ""
    assert not page.locator("#notice").is_visible()
    seat, hand = box(page, "#me .seat--brag"), box(page, "#hand .cards--hand")
    middle = PHONE["width"] / 2
    assert abs(centre(seat) - middle) <= 4, seat
    assert abs(centre(seat) - centre(hand)) <= 4, (seat, hand)
    page.screenshot(path=shots / "probe-brag-phone.png")

    # on a desktop the seat keeps its place at the end of its column, by the cards
    desk = new_page(browser, DESKTOP, problems=problems)
    log_in(desk, site.url, "ann", PASSWORD)
    desk.goto(page.url)
    desk.wait_for_selector("#me .seat--brag", timeout=15000)
    seat, hand = box(desk, "#me .seat--brag"), box(desk, "#hand .cards--hand")
    assert seat["right"] <= hand["left"] + 1, (seat, hand)
    desk.screenshot(path=shots / "probe-brag-desktop.png")
    assert problems == []


def test_a_notice_fades_while_the_board_keeps_changing(site, browser):
    """Bots' moves come every fraction of a second: a notice used to wait six seconds from
    the last of them, so it stayed for the whole game."""
    page = new_page(browser, DESKTOP)
    log_in(page, site.url, "ann", PASSWORD)
    open_table(page, site, "Stop the Bus (classic)", name="Fade probe")
    page.click("#waiting .bot-form button")
    page.wait_for_function(
        "() => document.querySelectorAll('.seat-list__item:not(.seat-list__item--free)')"
        ".length >= 3")
    page.click("#waiting form[action$='/start/'] button")
    page.wait_for_selector("#me .cards--hand", timeout=15000)
    # a notice put in, as a form's answer or the socket would (then the bots play on)
    page.evaluate("""() => { const n = document.getElementById('notice');
      const m = n.cloneNode(false); m.textContent = 'A test notice';
      n.replaceWith(m); htmx.trigger(document.body, 'htmx:oobAfterSwap', {}); }""")
    page.wait_for_function("() => !document.getElementById('notice').textContent.trim()",
                           timeout=9000)


def test_the_keyboard_help_is_for_keyboards_and_the_hints_switch_shows_its_state(
        site, browser, shots):
    for size in (PHONE, DESKTOP):
        page = new_page(browser, size)
        log_in(page, site.url, "ann", PASSWORD)
        page.goto(f"{site.url}/t/{site.over_table}/")
        page.wait_for_selector("body[data-live]", state="attached", timeout=15000)
        keys = page.locator(".keys-help summary")
        if size is PHONE:
            assert not keys.is_visible()
        else:
            assert keys.is_visible()
            page.keyboard.press("?")
            assert page.locator(".keys-help__panel").is_visible()
            page.keyboard.press("?")
        toggle = page.locator("#hints-toggle")
        assert toggle.get_attribute("aria-pressed") == "true"
        on = toggle.evaluate("e => getComputedStyle(e).backgroundColor")
        toggle.click()
        page.wait_for_selector('#hints-toggle[aria-pressed="false"]', timeout=15000)
        page.mouse.move(0, 0)
        off = page.locator("#hints-toggle").evaluate("e => getComputedStyle(e).backgroundColor")
        assert on != off, (on, off)
        page.locator(".table-tools").screenshot(
            path=shots / f"probe-tools-{size['width']}.png")
        page.click("#hints-toggle")
        page.wait_for_selector('#hints-toggle[aria-pressed="true"]', timeout=15000)


KEPT_TOGETHER = """() => [...document.querySelectorAll('#standings .keep-together')].map(e => ({
  text: e.textContent, lines: e.getClientRects().length, height: e.getBoundingClientRect().height,
  line: parseFloat(getComputedStyle(e).lineHeight)
        || parseFloat(getComputedStyle(e).fontSize) * 1.5,
  width: e.getBoundingClientRect().width, room: e.parentElement.getBoundingClientRect().width}))"""


@pytest.mark.parametrize("size", [PHONE, NARROW])
def test_the_end_of_a_game_in_japanese_keeps_names_and_cards_whole(site, browser, shots, size):
    page = new_page(browser, size, "ja")
    log_in(page, site.url, "hana", PASSWORD)
    page.goto(f"{site.url}/t/{site.over_table}/")
    page.wait_for_selector("#standings h2", timeout=15000)
    page.wait_for_timeout(500)
    spans = page.evaluate(KEPT_TOGETHER)
    # the winner's name in the heading, and each name and hand of the last hand's line
    assert page.locator("#standings h2 .keep-together").count() == 1
    assert page.locator("#standings p .keep-together").count() >= 4, spans
    # the heading clear of the button that folds the panel
    name, fold = box(page, "#standings h2 .keep-together"), box(page, ".panel-sheet__fold")
    assert name["right"] <= fold["left"] or name["top"] >= fold["bottom"], (name, fold)
    for span in spans:
        if span["width"] < span["room"] - 1:
            assert span["height"] < span["line"] * 1.6, span
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
    page.screenshot(path=shots / f"probe-over-ja-{size['width']}.png")


TARGETS = """sel => [...document.querySelectorAll(sel)].filter(e => e.getClientRects().length)
  .map(e => { const r = e.getBoundingClientRect();
              return {text: e.textContent.trim().slice(0, 30), w: r.width, h: r.height}; })"""


def targets(page, selector):
    found = page.evaluate(TARGETS, selector)
    assert found, selector
    return found


def small(found, least=40):
    return [t for t in found if t["h"] < least - 0.5]


def test_tap_targets_on_a_phone(site, browser, shots):
    page = new_page(browser, PHONE)
    log_in(page, site.url, "ann", PASSWORD)
    # the profile's table settings: 22-pixel boxes, lines 40 pixels tall
    page.goto(site.url + "/accounts/profile/")
    boxes = targets(page, ".stacked-form .field--check > input[type=checkbox]")
    assert all(b["w"] >= 22 and b["h"] >= 22 for b in boxes), boxes
    assert small(targets(page, ".stacked-form .field--check > label")) == []
    assert small(targets(page, ".site-footer a")) == []
    page.screenshot(path=shots / "probe-profile-phone.png", full_page=True)
    # the stats page of a player with no game yet of a variant; the leaderboard's link
    page.goto(site.url + "/stats/")
    assert small(targets(page, ".stats-head ~ p > a")) == []
    # a replay's steps and hands
    page.goto(f"{site.url}/games/{site.over_game}/replay/?step=3")
    assert small(targets(page, ".replay-nav a")) == []
    page.screenshot(path=shots / "probe-replay-phone.png")
    # a player with no game yet: "Find a table."
    other = new_page(browser, PHONE)
    log_in(other, site.url, "hana", PASSWORD)
    other.goto(site.url + "/stats/")
    assert small(targets(other, ".stats-head ~ .card-panel p > a")) == []
    other.screenshot(path=shots / "probe-stats-empty-phone.png")
    # the table: "All the rules" (opened), "What can I do?" (the hints of a live game)
    page.goto(f"{site.url}/t/{site.over_table}/")
    page.wait_for_selector("body[data-live]", state="attached", timeout=15000)
    page.click(".rules-in-force summary")
    assert small(targets(page, ".rules-in-force p > a")) == []


def test_tap_targets_in_play_and_the_notifications(site, browser, shots):
    page = new_page(browser, PHONE)
    log_in(page, site.url, "ann", PASSWORD)
    open_table(page, site, "Stop the Bus (classic)", name="Tap probe")
    page.click("#waiting form[action$='/start/'] button")
    page.wait_for_selector('#status[data-my-turn="1"]', timeout=30000)
    assert small(targets(page, ".hints__help > summary")) == []
    # stop the bus (or, stopped already, pass): the others play once more, the showdown
    for _ in range(40):
        if page.locator("#showdown:not(.is-hidden) .fairness").count():
            break
        for move in ("#stop-form button", "#pass-form button"):
            if page.locator(move).count():
                page.click(move)
                break
        page.wait_for_timeout(500)
    page.wait_for_selector("#showdown:not(.is-hidden) .fairness", timeout=30000)
    assert small(targets(page, "#showdown .fairness > summary")) == []
    page.screenshot(path=shots / "probe-showdown-phone.png")


def test_the_notifications_list_on_a_phone(site, browser, shots):
    page = new_page(browser, PHONE)
    log_in(page, site.url, "hana", PASSWORD)
    page.goto(site.url + "/notifications/")
    assert small(targets(page, "main .bell-list__item .link-button")) == []
    mark_all = box(page, "main form:has(input[value=all]) .btn")
    settings = box(page, "main a[href$='/notifications/preferences/']")
    assert mark_all["height"] >= 40 and settings["height"] >= 40
    apart = (settings["left"] - mark_all["right"] if settings["top"] < mark_all["bottom"]
             else settings["top"] - mark_all["bottom"])
    assert apart >= 8, (mark_all, settings)
    page.screenshot(path=shots / "probe-notifications-phone.png", full_page=True)
