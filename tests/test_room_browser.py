"""The game room in a real browser (Debian's chromium via Playwright), at 1280×800 and on a
390×844 phone: fit, attention, leaving, the live invite box, stale messages, and axe-core.

Screenshots go to STOPBUS_SCREENSHOTS (default: the test's temporary directory).
"""

import re
import time

import pytest

from tests.servers import live_site

pytestmark = [pytest.mark.browser, pytest.mark.timeout(400)]

PASSWORD = "a-long-secret-88"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
SITE: dict = {}  # url -> the Daphne serving it (its log holds the sign-up mails)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    with live_site(tmp_path_factory.mktemp("room"), STOPBUS_BOT_DELAY="0.2",
                   STOPBUS_SHOWDOWN_PAUSE="4") as server:
        SITE[server.url] = server
        yield server


def new_page(browser, size, problems, **options):
    context = browser.new_context(viewport=size, **options)
    page = context.new_page()
    page.on("pageerror", lambda exc: problems.append(str(exc)))
    page.on("console", lambda msg: msg.type == "error" and problems.append(msg.text))
    return page


def sign_up(page, site, name):
    """Sign up as a newcomer does: the form, then the link in the confirmation mail (the
    console mail backend prints it into daphne's log)."""
    base = site.url
    page.goto(base + "/accounts/signup/")
    page.fill("input[name=username]", name)
    page.fill("input[name=email]", f"{name}@example.org")
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.click("main form button[type=submit]")
    page.wait_for_url(base + "/accounts/signup/sent/")
    mail = re.search(rf"Hello {name},.*?(http://\S+/accounts/signup/confirm/\S+/)",
                     site.log_path.read_text(), re.DOTALL)
    page.goto(mail.group(1))
    page.click("main form button[type=submit]")
    page.wait_for_url(base + "/")


def serious(page):
    """axe-core's serious and critical findings on the page as it is now."""
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(page).response["violations"]
    return [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3])
            for v in found if v["impact"] in ("serious", "critical")]


def my_turn(page, timeout=30000):
    page.wait_for_selector('#status[data-my-turn="1"]', timeout=timeout)


def inside_viewport(page, selector):
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    return (box is not None and box["x"] >= 0 and box["y"] >= 0
            and box["x"] + box["width"] <= size["width"] + 0.5
            and box["y"] + box["height"] <= size["height"] + 0.5), box


def still(*pages):
    """Let the cards land (motion is short) so that a screenshot shows the table at rest."""
    for page in pages:
        page.wait_for_timeout(700)


def seats_apart(page):
    """No seat box covers another, nor the middle of the table."""
    boxes = [page.locator("#opponents .seat").nth(i).bounding_box()
             for i in range(page.locator("#opponents .seat").count())]
    boxes.append(page.locator("#middle .pile--widow .cards").bounding_box())
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            apart = (a["x"] + a["width"] <= b["x"] + 1 or b["x"] + b["width"] <= a["x"] + 1
                     or a["y"] + a["height"] <= b["y"] + 1 or b["y"] + b["height"] <= a["y"] + 1)
            assert apart, (a, b)


def scroll_width(page):
    return page.evaluate("document.documentElement.scrollWidth")


def pick(page, selector):
    """Pick a card once: clicking a picked checkbox card again would put it back."""
    label = page.locator(selector).first
    if not label.locator("input").is_checked():
        label.click()


def swap_once(page):
    """Pick a card on each side and swap. A board sent between the picks (the turn clock
    ran out on a busy machine, a bot moved) replaces the picked cards: pick again."""
    from playwright.sync_api import TimeoutError as NotYet

    for _ in range(3):
        page.locator("#me .pick").first.click()
        page.locator("#middle .pick").first.click()
        swap = page.locator("#swap-form button[type=submit]")
        try:
            page.wait_for_function(
                "() => { const b = document.querySelector('#swap-form button[type=submit]');"
                " return b && !b.disabled; }", timeout=3000)
        except NotYet:
            continue
        swap.click()
        return
    raise AssertionError("Swap never became a button after picking both cards")


def play_until(page, done, limit=150):
    """Take turns (swap, then stop on the second) and next hands until ``done(page)``."""
    deadline = time.monotonic() + limit
    turns = 0
    while time.monotonic() < deadline and not done(page):
        if page.locator("#stop-form").count() and turns >= 1:
            page.click("#stop-form button")
            turns = 0
        elif page.locator("#swap-form").count():
            swap_once(page)
            turns += 1
        elif page.locator("#pass-form").count():
            page.click("#pass-form button")
        page.wait_for_timeout(250)
    return done(page)


def test_a_game_against_bots_fits_a_phone_alerts_the_tab_and_passes_axe(site, browser, shots):
    base = site.url
    problems = []
    desk = new_page(browser, DESKTOP, problems)
    sign_up(desk, site, "carol")
    desk.screenshot(path=shots / "lobby-desktop.png", full_page=True)
    assert not serious(desk), "lobby"

    desk.click("text=Play now against bots")
    desk.wait_for_url(re.compile(r".*/t/\d+/$"))
    table_url = desk.url
    phone = new_page(browser, PHONE, problems, is_mobile=True, has_touch=True,
                     storage_state=desk.context.storage_state())
    phone.goto(base + "/")
    phone.screenshot(path=shots / "lobby-phone.png", full_page=True)
    assert not serious(phone), "lobby on a phone"
    phone.goto(table_url)

    # your turn: the title says so, and on the phone the moves are in view
    my_turn(desk)
    my_turn(phone)
    assert desk.title().startswith("\u25cf Your turn"), desk.title()
    still(desk, phone)
    desk.screenshot(path=shots / "table-turn-desktop.png")
    phone.screenshot(path=shots / "table-turn-phone.png")
    inside, box = inside_viewport(phone, "#me .controls")
    assert inside, f"the moves are not all in view on a phone: {box}"
    assert phone.evaluate("document.documentElement.scrollHeight") >= 0
    # everything a turn needs is on the first screen: hand, middle, moves
    for part in ("#me .cards--hand", "#middle .pile--widow .cards", "#swap-form button"):
        inside, box = inside_viewport(phone, part)
        assert inside, f"{part} is not in view on a phone: {box}"
    assert scroll_width(phone) <= 390

    # Swap waits for both cards
    swap = desk.locator("#swap-form button[type=submit]")
    assert swap.is_disabled()
    desk.locator("#me .pick").first.click()
    assert swap.is_disabled()
    desk.locator("#middle .pick").first.click()
    assert swap.is_enabled()
    assert not serious(desk), "table, playing"
    assert not serious(phone), "table, playing, on a phone"

    # the mute switch is remembered for the player
    assert desk.get_attribute("#sound-toggle", "aria-pressed") == "false"
    with desk.expect_response(lambda r: "/preferences/" in r.url) as answer:
        desk.click("#sound-toggle")
    assert answer.value.status == 204
    phone.reload()
    assert phone.get_attribute("#sound-toggle", "aria-pressed") == "true"
    assert phone.get_attribute("body", "data-sound") == "off"
    my_turn(phone)

    # a 300-character word in the chat widens nothing
    phone.fill("#chat-text", "w" * 300)
    phone.press("#chat-text", "Enter")
    phone.wait_for_selector("#chat-messages li")
    assert scroll_width(phone) <= 390, scroll_width(phone)
    assert scroll_width(desk) <= 1280

    # play to the showdown: a panel in view naming every hand and what each lost
    # the keyboard: 1 picks your first card, 4 the widow's first, S swaps
    my_turn(desk)
    desk.locator("body").press("1")
    desk.locator("body").press("4")
    assert desk.locator("#me .pick__input").first.is_checked()
    assert desk.locator("#middle .pick__input").first.is_checked()
    assert swap.is_enabled()
    desk.locator("body").press("s")
    desk.wait_for_selector('#status:not([data-my-turn="1"])')
    desk.locator("body").press("?")
    assert desk.locator(".keys-help[open]").count() == 1
    desk.locator("body").press("?")
    assert play_until(desk, lambda p: p.locator("#showdown .ready-form").count() > 0)
    phone.wait_for_selector("#showdown .showdown__row")
    still(desk, phone)
    desk.screenshot(path=shots / "showdown-desktop.png")
    phone.screenshot(path=shots / "showdown-phone.png")
    rows = desk.locator("#showdown .showdown__row")
    assert rows.count() == 3
    assert all(desk.locator("#showdown .showdown__row").nth(i).locator(".showdown__desc")
               .inner_text().strip() for i in range(3))
    assert "lost" in desk.inner_text("#showdown")
    inside, box = inside_viewport(phone, "#showdown .ready-form")
    assert inside, f"the showdown's button is out of view on a phone: {box}"
    assert not serious(desk), "table, showdown"
    assert not serious(phone), "table, showdown, on a phone"

    # to the end: places and one-click Play again
    def over(page):
        if page.locator("#showdown .ready-form button").count():
            page.click("#showdown .ready-form button")
        return page.locator("#standings h2").count() > 0

    assert play_until(desk, over, limit=240)
    phone.wait_for_selector("#standings h2")
    still(desk, phone)
    desk.screenshot(path=shots / "end-desktop.png")
    phone.screenshot(path=shots / "end-phone.png")
    assert desk.locator("#standings .standings__row").count() == 3
    inside, box = inside_viewport(phone, "#standings .standings__actions")
    assert inside, f"Play again is out of view on a phone: {box}"
    assert not serious(desk), "table, game over"
    assert not serious(phone), "table, game over, on a phone"
    desk.click("text=Play again with the same seats")
    desk.wait_for_selector("#me .cards--hand .card", timeout=15000)
    desk.wait_for_selector("#standings.is-hidden", state="attached")

    # the stats pages and the profile
    game_id = int(desk.evaluate(
        "fetch('/u/carol/games/').then(r => r.text()).then(t => "
        "(t.match(/games\\/(\\d+)\\/replay/) || [0, 0])[1])"))
    pages = ["/stats/", "/leaderboard/", "/u/carol/", "/u/carol/games/",
             "/accounts/profile/"]
    if game_id:
        pages.append(f"/games/{game_id}/replay/")
    for path in pages:
        response = desk.goto(base + path)
        assert response.status < 400, path
        assert not serious(desk), path
        if path == "/accounts/profile/":
            desk.screenshot(path=shots / "profile-desktop.png", full_page=True)
    assert not problems, problems


def test_leave_hands_the_seat_to_a_bot_and_the_game_goes_on(site, browser, shots):
    base = site.url
    problems = []
    dan = new_page(browser, DESKTOP, problems)
    erin = new_page(browser, PHONE, problems, is_mobile=True, has_touch=True)
    sign_up(dan, site, "dan")
    sign_up(erin, site, "erin")
    dan.fill("input[name=name]", "Leavers")
    dan.select_option("select[name=variant]", label="Stop the Bus (classic)")
    dan.fill("input[name=seats]", "3")
    dan.click("text=Open the table")
    dan.wait_for_url(re.compile(r".*/t/\d+/$"))
    # the message about the new table goes once the game has started: it is stale then
    assert dan.locator(".message--success").count() == 1
    erin.goto(dan.url)
    erin.click("text=Sit down")
    dan.wait_for_selector("text=erin")
    dan.click("text=Add a bot")
    for page in (dan, erin):
        page.wait_for_selector("#me .cards--hand .card", timeout=15000)
    dan.wait_for_selector(".message--success", state="detached", timeout=5000)

    erin.click(".leave summary")
    erin.click("#leave-confirm")
    erin.wait_for_url(base + "/")
    erin.wait_for_selector("#lobby-tables .table-row")
    still(erin)
    erin.screenshot(path=shots / "lobby-tables-phone.png", full_page=True)
    assert scroll_width(erin) <= 390
    assert not serious(erin), "lobby with tables, on a phone"
    erin_seat = dan.locator(".seat", has_text="erin")
    erin_seat.locator(".badge--bot").wait_for(timeout=10000)
    # the game goes on: dan gets turns, and the bot in erin's seat plays them too
    version = int(dan.get_attribute("#status", "data-version"))
    assert play_until(dan, lambda p: int(p.get_attribute("#status", "data-version") or 0)
                      >= version + 4, limit=60)
    assert dan.locator("#standings h2").count() == 0 or "wins" in dan.inner_text("#standings")
    assert not problems, problems


def test_the_second_player_sees_the_invite_box_appear_live(site, browser, shots):
    base = site.url
    problems = []
    fay = new_page(browser, DESKTOP, problems)
    gus = new_page(browser, DESKTOP, problems)
    sign_up(fay, site, "fay")
    sign_up(gus, site, "gus")
    fay.fill("input[name=name]", "Private room")
    fay.fill("input[name=seats]", "3")
    fay.check("input[name=private]")
    fay.click("text=Open the table")
    fay.wait_for_url(re.compile(r".*/t/\d+/$"))
    link = fay.input_value("#invite-link")
    assert link.startswith("http") and "/invite/" in link
    gus.goto(link)
    assert gus.locator("#invite-link").count() == 0
    gus.click("text=Sit down")
    gus.wait_for_selector("#invite-link", timeout=5000)  # without a reload
    assert gus.input_value("#invite-link") == link
    response = gus.goto(base + "/u/gus/vs/fay/")
    assert response.status == 200
    assert not serious(gus), "head to head"
    assert not problems, problems


def test_a_full_table_fits_a_phone_in_dark_mode_with_a_four_colour_deck(site, browser, shots):
    base = site.url
    problems = []
    hal = new_page(browser, PHONE, problems, is_mobile=True, has_touch=True,
                   color_scheme="dark")
    sign_up(hal, site, "hal")
    hal.goto(base + "/accounts/profile/")
    hal.check("#id_four_colour_deck")
    hal.click("text=Save table settings")
    hal.wait_for_selector("body.deck-4")
    hal.goto(base + "/")
    hal.fill("input[name=name]", "Six")
    hal.fill("input[name=seats]", "6")
    hal.click("text=Open the table")
    hal.wait_for_url(re.compile(r".*/t/\d+/$"))
    for _ in range(5):
        count = hal.locator(".seat-list__item:not(.seat-list__item--free)").count()
        hal.click("text=Add a bot")
        hal.wait_for_function(
            # a function, not an expression: an expression is run through eval, which the
            # page's Content-Security-Policy forbids
            f"() => document.querySelectorAll('.seat-list__item:not(.seat-list__item--free)')"
            f".length > {count} || !!document.querySelector('#me .cards--hand')")
    my_turn(hal, timeout=40000)
    still(hal)
    hal.screenshot(path=shots / "six-dark-phone.png")
    assert hal.locator("#opponents .seat").count() == 5
    for part in ("#me .controls", "#me .cards--hand", "#middle .pile--widow .cards"):
        inside, box = inside_viewport(hal, part)
        assert inside, f"{part} is not in view on a phone at a full table: {box}"
    assert scroll_width(hal) <= 390
    seats_apart(hal)
    # clubs are green in a four-colour deck
    club = hal.locator('.card[data-card$="C"]').first
    if club.count():
        assert hal.evaluate("el => getComputedStyle(el).color", club.element_handle()) \
            == "rgb(26, 127, 55)"
    assert not serious(hal), "a full table in dark mode"
    desk = new_page(browser, DESKTOP, problems, color_scheme="dark",
                    storage_state=hal.context.storage_state())
    desk.goto(hal.url)
    desk.wait_for_selector("#me .cards--hand .card")
    still(desk)
    desk.screenshot(path=shots / "six-dark-desktop.png")
    seats_apart(desk)
    assert not serious(desk), "a full table in dark mode on a desktop"
    assert not problems, problems
