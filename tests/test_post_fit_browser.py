"""A post table at 1280×800 with the hints on, in Debian's chromium: nothing on the felt
covers anything else.

At a post table the bar over the board and the hints under your cards left the felt its
least height (15rem), and what shares the felt overlapped: the bus's line ("The bus is
running.") lay over the deck's seal ("Deck sealed"), and the seat at the top of the table
over the widow's title ("THE WIDOW"). Three others (so that one of them sits at the top,
over the middle), your turn, the hints switched on with the table's own switch: the bus's
line and the seal's label do not meet, no seat box meets the widow's title or its cards,
and your hand and your moves are on the first screen. On a 390×844 phone the same, and
your hand in view.

Screenshots go to STOPBUS_SCREENSHOTS (default: the test's temporary directory), named
post-fit-*.png.
"""

import re

import pytest

from tests.servers import live_site, log_in
from tests.test_table_fit_browser import out_of_view

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

PASSWORD = "a-long-secret-88"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
SEED = f"""
from accounts.models import User
User.objects.create_user("pat", "pat@example.org", "{PASSWORD}")
"""

BUS = "#bus:not(.is-hidden) .bus__line"
SEAL = "#seal .commitment summary > span"  # the words "Deck sealed"
WIDOW_TITLE = "#middle .pile--widow .pile__title"
WIDOW = "#middle .pile--widow .cards"
SEATS = "#opponents .seat"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    with live_site(tmp_path_factory.mktemp("postfit"), SEED, STOPBUS_BOT_DELAY="0.15",
                   STOPBUS_SHOWDOWN_PAUSE="30") as server:
        yield server


def meet(a, b, air=0.5):
    """Whether two bounding boxes overlap (by more than ``air`` pixels)."""
    return (a["x"] + air < b["x"] + b["width"] and b["x"] + air < a["x"] + a["width"]
            and a["y"] + air < b["y"] + b["height"] and b["y"] + air < a["y"] + a["height"])


def box(page, selector, n=0):
    found = page.locator(selector)
    assert found.count() > n, f"{selector} missing"
    shape = found.nth(n).bounding_box()
    assert shape and shape["width"] and shape["height"], f"{selector} not shown"
    return shape


def overlaps(page):
    """Each pair of things on the felt that meet, as (what, what, box, box)."""
    found = []
    bus, seal = box(page, BUS), box(page, SEAL)
    if meet(bus, seal):
        found.append(("bus line", "deck sealed", bus, seal))
    for selector, what in ((WIDOW_TITLE, "widow's title"), (WIDOW, "widow's cards")):
        middle = box(page, selector)
        if meet(bus, middle):
            found.append(("bus line", what, bus, middle))
        for n in range(page.locator(SEATS).count()):
            seat = box(page, SEATS, n)
            if meet(seat, middle):
                found.append((f"seat {n}", what, seat, middle))
    return found


def test_a_post_table_with_the_hints_on_keeps_the_felt_apart(site, browser, shots):
    context = browser.new_context(viewport=DESKTOP, reduced_motion="reduce")
    page = context.new_page()
    problems = []
    page.on("pageerror", lambda exc: problems.append(str(exc)))
    log_in(page, site.url, "pat", PASSWORD)

    # a post table of four: three bots, one of them at the top of the felt
    page.fill("input[name=name]", "Fit by post")
    page.select_option("select[name=variant]", label="Stop the Bus (classic)")
    page.fill("input[name=seats]", "4")
    page.select_option("select[name=pace]", "1d")
    page.click(".new-table form button[type=submit]")
    page.wait_for_url(re.compile(r".*/t/\d+/$"))
    page.wait_for_selector("body[data-live]", state="attached", timeout=15000)
    for n in range(3):
        page.click("#waiting .bot-form button")
        page.wait_for_function(
            f"() => document.querySelectorAll('.seat-list__item:not(.seat-list__item--free)')"
            f".length > {n + 1} || !!document.querySelector('#me .cards--hand')")
    page.wait_for_selector("#me .cards--hand", timeout=15000)
    assert page.locator(".post-bar").count() == 1, "not a post table"

    # the hints on, with the table's own switch
    assert page.get_attribute("#hints-toggle", "aria-pressed") == "false"
    page.click("#hints-toggle")
    page.wait_for_selector('#hints-toggle[aria-pressed="true"]', timeout=15000)
    # your turn (the bots move first, and then the table waits a day for you); you come
    # back to the table for it (the switch's "saved" message is gone by then)
    page.wait_for_selector('#status[data-my-turn="1"]', timeout=30000)
    page.reload()
    page.wait_for_selector('#status[data-my-turn="1"]', timeout=15000)
    assert page.get_attribute("#hints-toggle", "aria-pressed") == "true"
    page.wait_for_selector("#me .hints", timeout=15000)
    page.wait_for_selector(BUS, timeout=15000)
    assert page.locator(".spot-3-1 .seat").count() == 1  # the one over the middle

    for size, label in ((DESKTOP, "desktop"), (PHONE, "phone")):
        page.set_viewport_size(size)
        page.evaluate("window.scrollTo(0, 0)")
        page.wait_for_timeout(700)  # table.js fits the felt to the window
        page.screenshot(path=shots / f"post-fit-hints-{label}.png", caret="initial")
        where = f"at {size['width']}×{size['height']}"
        bad = overlaps(page)
        assert not bad, f"things on the felt meet {where}: {bad}"
        assert not out_of_view(page, "#me .cards--hand"), f"your hand out of view {where}"
        if size is DESKTOP:
            bad = out_of_view(page, "#me .controls button")
            assert not bad, f"your moves out of view {where}: {bad}"
    assert not problems, problems
