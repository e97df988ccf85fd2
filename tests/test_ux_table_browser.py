"""The table page after a UX probe, in Debian's chromium: a post table's bar, the scroll at
your turn on a phone, and the seats' layout, in English and Japanese.

- A post Brag table on a 390×844 phone (one bot: "See <name>" is offered): at your turn the
  page stays at its top (the header whole), your cards clear of the bar of moves; the bar
  over the board offers no "Skip for now" while the player has no other table to put this
  one behind, through the turn passing and coming back.
- When your cards are under the bar, the page scrolls by what they need and no further;
  when they are in view already (only the lines under them, their value, are under the
  bar), it does not scroll at all.
- At 1280×800, in Japanese, the one other of a game of two and the seats round the top of
  a table of five sit clear of the status line and of the pot's title, and a bot's name
  breaks between its words ("カジュアル・/ボット2") if it breaks.

Screenshots go to STOPBUS_SCREENSHOTS (default: the test's temporary directory), named
ux-*.png.
"""

import re
import time

import pytest

from tests.servers import live_site

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

PASSWORD = "a-long-secret-88"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
BRAG = {"en": "Three Card Brag", "ja": "スリーカード・ブラッグ"}
BUS = {"en": "Stop the Bus (classic)", "ja": "ストップ・ザ・バス（クラシック）"}


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    with live_site(tmp_path_factory.mktemp("ux"), STOPBUS_BOT_DELAY="0.2",
                   STOPBUS_SHOWDOWN_PAUSE="4") as server:
        yield server


def new_page(browser, size, language, problems, css=None):
    """A page in ``language`` (the browser's, then the account's); ``css``: a style sheet
    adopted by every page it opens, before the page's own script runs."""
    phone = size["width"] < 600
    context = browser.new_context(
        viewport=size, locale="ja-JP" if language == "ja" else "en-GB",
        extra_http_headers={"Accept-Language": language}, is_mobile=phone, has_touch=phone,
        reduced_motion="reduce")
    page = context.new_page()
    page.on("pageerror", lambda exc: problems.append(str(exc)))
    page.on("console", lambda msg: msg.type == "error" and problems.append(msg.text))
    if css:  # in force from the first layout, as the page's own style sheets are
        page.add_init_script(
            "(css => { const s = new CSSStyleSheet(); s.replaceSync(css);"
            " document.adoptedStyleSheets = [...document.adoptedStyleSheets, s]; })("
            + repr(css) + ")")
    return page


def reopen(page):
    """The table opened again at the turn, as from the list of turns (not reloaded: the
    browser would put the page back where it was scrolled to, after the page's own
    scroll)."""
    url = page.url
    page.goto(url.split("/t/")[0] + "/turns/")
    page.goto(url)
    page.wait_for_selector("body[data-live]", state="attached")
    my_turn(page)


def sign_up(page, site, name):
    """Sign up through the form and the link of the mail (printed into daphne's log, in
    the reader's language)."""
    page.goto(site.url + "/accounts/signup/")
    page.fill("input[name=username]", name)
    page.fill("input[name=email]", f"{name}@example.org")
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.click("main form button[type=submit]")
    page.wait_for_url(site.url + "/accounts/signup/sent/")
    for _ in range(50):
        mail = re.search(rf"To: {name}@example\.org.*?(http://\S+/accounts/signup/confirm/\S+/)",
                         site.log_path.read_text(), re.DOTALL)
        if mail:
            break
        time.sleep(0.1)
    page.goto(mail.group(1))
    page.click("main form button[type=submit]")
    page.wait_for_url(site.url + "/")


def open_table(page, site, variant, pace, bots=1, name="Oak"):
    page.goto(site.url + "/")
    page.fill("input[name=name]", name)
    page.select_option("select[name=variant]", label=variant)
    page.fill("input[name=seats]", str(bots + 1))
    page.select_option("select[name=pace]", pace)
    page.click(".new-table form button[type=submit]")
    page.wait_for_url(re.compile(r".*/t/\d+/$"))
    page.wait_for_selector("body[data-live]", state="attached", timeout=15000)
    for n in range(bots):
        page.click("#waiting .bot-form button")
        page.wait_for_function(
            f"() => document.querySelectorAll('.seat-list__item:not(.seat-list__item--free)')"
            f".length > {n + 1} || !!document.querySelector('#me .cards--hand')")
    page.wait_for_selector("#me .cards--hand", timeout=15000)
    return page.url


def my_turn(page, timeout=30000):
    page.wait_for_selector('#status[data-my-turn="1"]', timeout=timeout)


def settle(page):
    """The cards have landed, the felt is fitted, any scroll is done."""
    page.wait_for_timeout(900)


def boxes(page):
    return page.evaluate("""() => {
      const box = s => { const e = document.querySelector(s); if (!e) return null;
                         const r = e.getBoundingClientRect();
                         return {top: r.top, bottom: r.bottom}; };
      return {scrollY: window.scrollY, header: box('.site-header'), head: box('.table-head'),
              cards: box('#hand .cards--hand'), hand: box('#hand'),
              bar: box('#controls .controls')};
    }""")


def ways_on(page) -> str:
    return " ".join(page.locator("#post-bar-next").inner_text().split()) if (
        page.locator("#post-bar-next:not([hidden])").count()) else ""


def bet_or_fold(page):
    for selector in ("#me .bet__choice button", "#fold-form button"):
        if page.locator(selector).count():
            page.locator(selector).first.click(timeout=3000)
            return
    raise AssertionError("no bet and no fold at my turn")


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_post_brag_table_on_a_phone_keeps_its_top_and_its_ways_on_follow_the_turn(
        site, browser, shots, language):
    problems: list[str] = []
    page = new_page(browser, PHONE, language, problems)
    sign_up(page, site, f"pia{language}")
    open_table(page, site, BRAG[language], "1d")
    my_turn(page)
    # the bar's ways on arrived with the game, over the socket (the page was opened before
    # it); "Skip for now" is not among them: the player has no other table to put it behind
    page.wait_for_function("() => { const b = document.getElementById('post-bar-next');"
                           " return b && !b.hidden && b.innerText.trim(); }", timeout=10000)
    for visit in ("live", "reloaded"):
        if visit == "reloaded":
            reopen(page)
        settle(page)
        seen = boxes(page)
        page.screenshot(path=shots / f"ux-post-brag-{language}-phone-{visit}.png")
        assert page.locator("#see-form").count(), "one other: See is offered from the start"
        # nothing scrolled: the header is whole, the cards clear of the bar of moves
        assert seen["scrollY"] == 0 and seen["header"]["top"] == 0, (visit, seen)
        assert seen["cards"]["bottom"] <= seen["bar"]["top"] + 0.5, (visit, seen)
        assert ("All your turns" if language == "en" else "あなたの番の一覧") in ways_on(page), (
            ways_on(page))
        assert "Skip" not in ways_on(page) and "後回し" not in ways_on(page)
        assert "Next table" not in ways_on(page) and "次のテーブル" not in ways_on(page)
    # the turn passes and comes back: the bar stays, with nothing to skip
    version = page.get_attribute("#status", "data-version")
    bet_or_fold(page)
    page.wait_for_function("v => document.getElementById('status').dataset.version !== v",
                           arg=version, timeout=10000)
    if not page.locator('#status[data-my-turn="1"]').count():
        page.screenshot(path=shots / f"ux-post-brag-{language}-phone-their-turn.png")
    my_turn(page, timeout=30000)
    assert "Skip" not in ways_on(page) and "後回し" not in ways_on(page)
    assert not problems, problems


def test_under_the_bar_the_page_scrolls_by_what_the_cards_need_and_no_further(site, browser,
                                                                             shots):
    """A head made taller than any table's (a style sheet of the test's) leaves the cards
    under the bar at the turn: the page scrolls them out, just clear of it."""
    problems: list[str] = []
    page = new_page(browser, PHONE, "en", problems, css=".table-head { margin-bottom: 16rem; }")
    sign_up(page, site, "quin")
    open_table(page, site, BUS["en"], "live", bots=2)
    my_turn(page)
    reopen(page)  # at the turn as the page opens: the scroll is the page's first
    settle(page)
    seen = boxes(page)
    page.screenshot(path=shots / "ux-scroll-needed-phone.png")
    assert seen["scrollY"] > 0, seen
    gap = seen["bar"]["top"] - seen["cards"]["bottom"]
    assert -0.5 <= gap <= 5.5, f"scrolled too little or too far: {seen}"
    assert seen["cards"]["top"] >= 0, seen


def test_with_the_cards_in_view_the_page_does_not_scroll(site, browser, shots):
    """Only the line under the cards (their value, made tall by the test) is under the bar:
    the cards are in view, the page stays at its top. (It scrolled by the whole of the
    hand's box, value and hints included.)"""
    problems: list[str] = []
    page = new_page(browser, PHONE, "en", problems,
                    css="#hand .hand-value { padding-bottom: 8rem; }")
    sign_up(page, site, "rory")
    open_table(page, site, BUS["en"], "live", bots=2)
    my_turn(page)
    reopen(page)
    settle(page)
    seen = boxes(page)
    page.screenshot(path=shots / "ux-scroll-not-needed-phone.png")
    assert seen["hand"]["bottom"] > seen["bar"]["top"], f"the test's premise: {seen}"
    assert seen["cards"]["bottom"] <= seen["bar"]["top"] + 0.5, seen
    assert seen["scrollY"] == 0, seen


def overlap(a, b) -> bool:
    return not (a["x"] + a["width"] <= b["x"] + 0.5 or b["x"] + b["width"] <= a["x"] + 0.5
                or a["y"] + a["height"] <= b["y"] + 0.5 or b["y"] + b["height"] <= a["y"] + 0.5)


@pytest.mark.parametrize(("game", "bots"), [("brag", 1), ("bus", 1), ("brag", 4)])
def test_the_seats_at_the_top_clear_the_status_and_the_middle(site, browser, shots, game,
                                                              bots):
    """At 1280×800, in Japanese (longer names and badges): the one other of a game of two
    (its cards beside its name), and the seats round the top of a table of five."""
    problems: list[str] = []
    page = new_page(browser, DESKTOP, "ja", problems)
    sign_up(page, site, f"sora{game}{bots}")
    open_table(page, site, (BRAG if game == "brag" else BUS)["ja"], "live", bots=bots)
    my_turn(page)
    settle(page)
    page.screenshot(path=shots / f"ux-top-seats-{game}-{bots + 1}-ja-desktop.png")
    seats = page.locator("#opponents .seat")
    words = page.locator("#status > *")
    title = page.locator("#middle .pile__title").first.bounding_box()
    for n in range(seats.count()):
        seat = seats.nth(n).bounding_box()
        for i in range(words.count()):
            assert not overlap(seat, words.nth(i).bounding_box()), (n, words.nth(i).inner_text())
        assert not overlap(seat, title), (n, seat, title)
    # a bot's name in Japanese: whole words to a line
    name = page.locator("#opponents .seat__name").first
    assert name.inner_text().strip() == "カジュアル・ボット2"
    lines = page.evaluate("""() => {
      const el = document.querySelector('#opponents .seat__name'), text = el.firstChild;
      const tops = new Map();
      for (let i = 0; i < text.length; i++) {
        const range = document.createRange(); range.setStart(text, i); range.setEnd(text, i + 1);
        const top = Math.round(range.getBoundingClientRect().top);
        tops.set(top, (tops.get(top) || '') + text.data[i]);
      }
      return [...tops.values()];
    }""")
    assert lines in (["カジュアル・ボット2"], ["カジュアル・", "ボット2"]), lines
    assert not problems, problems
