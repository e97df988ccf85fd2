"""The fourth visitor probe's cosmetic defects, in Debian's chromium, at 1280×800 and on a
390×844 phone, in English and Japanese.

- The dealer's disc ("D") sits clear of the avatar of its seat (it covered a corner of
  it), and still on that seat: its box meets no avatar's box, its middle is within the
  seat's box, and it is inside the window.
- A widow card lifted (picked, and the pointer over it) leaves the widow's title ("THE
  WIDOW") readable: no lifted card's box meets the title's.
- At your own turn at a post table, the bar's "Come back when it is your turn" is neither
  shown nor read (it was left to screen readers), and it comes back as the turn passes
  (table.js and the page's own state, live).
- The settings' checkboxes (the notification settings, the profile's table settings):
  each one's target (its label, the whole line) is 44 pixels tall at least on a phone,
  and clicking the line ticks the box.
- A row of ranks, "A-2-3", on the rules page on a phone still breaks at a hyphen: a strict
  expected failure (see the test).

Screenshots go to STOPBUS_SCREENSHOTS (default: the test's temporary directory), named
probe4-*.png.
"""

import re

import pytest

from tests.servers import live_site, log_in

pytestmark = [pytest.mark.browser, pytest.mark.timeout(900)]

PASSWORD = "a-long-secret-88"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
SIZES = (("desktop", DESKTOP), ("phone", PHONE))
VARIANT = {"en": "Stop the Bus (classic)", "ja": "ストップ・ザ・バス（クラシック）"}
BRAG = {"en": "Three Card Brag", "ja": "スリーカード・ブラッグ"}
SEED = f"""
from accounts.models import User
User.objects.create_user("pat", "pat@example.org", "{PASSWORD}")
hana = User.objects.create_user("hana", "hana@example.org", "{PASSWORD}")
hana.language = "ja"; hana.save()
from games.models import Variant
Variant.objects.create(name="Big bus", slug="big-bus", game="stop_the_bus", starting_lives=3,
                       min_players=2, max_players=9)
"""
USERS = {"en": "pat", "ja": "hana"}
COME_BACK = {"en": "Come back when it is your turn", "ja": "自分の番になったら戻ってきてください"}


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    with live_site(tmp_path_factory.mktemp("probe4"), SEED, STOPBUS_BOT_DELAY="0.6",
                   STOPBUS_SHOWDOWN_PAUSE="30") as server:
        yield server


def new_page(browser, size, lang, problems):
    phone = size["width"] < 600
    context = browser.new_context(
        viewport=size, locale="ja-JP" if lang == "ja" else "en-GB",
        extra_http_headers={"Accept-Language": lang}, is_mobile=phone, has_touch=phone,
        reduced_motion="reduce")
    page = context.new_page()
    page.on("pageerror", lambda exc: problems.append(str(exc)))
    page.on("console", lambda msg: msg.type == "error" and problems.append(msg.text))
    return page


def meet(a, b, air=0.5):
    """Whether two boxes overlap (by more than ``air`` pixels)."""
    return (a["x"] + air < b["x"] + b["width"] and b["x"] + air < a["x"] + a["width"]
            and a["y"] + air < b["y"] + b["height"] and b["y"] + air < a["y"] + a["height"])


def open_table(page, site, lang, seats, variant=None, pace="1d"):
    """A table of ``seats`` (the others bots), opened by the page's player: a post table
    (``pace``), so that it waits for you at your turn."""
    page.goto(site.url + "/")
    page.fill("input[name=name]", f"Probe {lang} {seats}")
    page.select_option("select[name=variant]", label=variant or VARIANT[lang])
    page.fill("input[name=seats]", str(seats))
    page.select_option("select[name=pace]", pace)
    page.click(".new-table form button[type=submit]")
    page.wait_for_url(re.compile(r".*/t/\d+/$"))
    page.wait_for_selector("body[data-live]", state="attached", timeout=15000)
    for n in range(seats - 1):
        page.click("#waiting .bot-form button")
        page.wait_for_function(
            f"() => document.querySelectorAll('.seat-list__item:not(.seat-list__item--free)')"
            f".length > {n + 1} || !!document.querySelector('#me .cards--hand')")
    page.wait_for_selector("#me .cards--hand", timeout=15000)


# every seat made the dealer's (the disc the server draws, copied into each avatar), so
# that each place a seat may have on the felt is measured
ALL_DEALERS = """() => {
  const disc = document.querySelector('.dealer-button');
  document.querySelectorAll('.seat').forEach(seat => {
    const avatar = seat.querySelector('.seat__avatar');
    if (avatar && !avatar.querySelector('.dealer-button')) avatar.appendChild(disc.cloneNode(true));
  });
}"""
DISCS = """() => [...document.querySelectorAll('.seat .dealer-button')].map(disc => {
  const box = el => { const r = el.getBoundingClientRect();
                      return {x: r.left, y: r.top, width: r.width, height: r.height}; };
  const seat = disc.closest('.seat');
  return {seat: seat.id, disc: box(disc), avatar: box(disc.closest('.seat__avatar')),
          box: box(seat), room: document.documentElement.clientWidth};
})"""


def disc_problems(page):
    found = []
    for one in page.evaluate(DISCS):
        disc, avatar, seat = one["disc"], one["avatar"], one["box"]
        assert disc["width"] > 10, one
        if meet(disc, avatar, air=0):
            found.append(("over the avatar", one))
        # on the seat: its middle within the seat's box
        middle = (disc["x"] + disc["width"] / 2, disc["y"] + disc["height"] / 2)
        if not (seat["x"] <= middle[0] <= seat["x"] + seat["width"]
                and seat["y"] <= middle[1] <= seat["y"] + seat["height"]):
            found.append(("off its seat", one))
        if disc["x"] < 0 or disc["x"] + disc["width"] > one["room"]:
            found.append(("out of the window", one))
    return found


def widow_problems(page):
    """Each widow card picked in turn, the pointer over it: whether a lifted card's box
    meets the widow's title."""
    picks = page.locator("#widow .pick")
    assert picks.count() >= 2, "the widow is not to be picked"
    title = page.locator("#middle .pile--widow .pile__title").bounding_box()
    found = []
    for n in range(picks.count()):
        picks.nth(n).click()
        picks.nth(n).hover()
        page.wait_for_timeout(300)
        assert picks.nth(n).locator("input").is_checked()
        for card in page.locator("#widow .card").all():
            shape = card.bounding_box()
            if meet(shape, title, air=0):
                found.append((n, shape, title))
        if picks.nth(n).locator("input").get_attribute("type") == "checkbox":
            picks.nth(n).click()  # picked no more
    return found


# at this moment: whether it is your turn, and whether the sentence is given to the page's
# reader (neither display: none nor hidden: a screen reader reads it, even clipped)
SENTENCE = """() => {
  const el = document.querySelector('.post-bar [data-post-when=playing]');
  return {myTurn: !!document.querySelector('#status[data-my-turn]'),
          shown: !el.hidden && getComputedStyle(el).display !== 'none'
                 && getComputedStyle(el).visibility !== 'hidden'};
}"""


def spoken(page, selector):
    """What a screen reader is given of ``selector``: its accessibility tree as text."""
    return page.locator(selector).aria_snapshot()


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_dealer_disc_the_lifted_widow_and_the_post_bar(site, browser, shots, lang):
    problems: list[str] = []
    page = new_page(browser, DESKTOP, lang, problems)
    log_in(page, site.url, USERS[lang], PASSWORD)
    open_table(page, site, lang, 4)
    page.wait_for_selector('#status[data-my-turn="1"]', timeout=30000)
    page.wait_for_selector("#widow.is-legal .pick", timeout=15000)
    page.wait_for_timeout(700)
    # the post bar at your turn: "come back when it is your turn" neither shown nor read
    sentence = page.locator(".post-bar [data-post-when=playing]")
    assert sentence.count() == 1
    assert COME_BACK[lang] not in spoken(page, ".table-notes"), spoken(page, ".table-notes")
    assert sentence.is_hidden()
    for label, size in SIZES:
        page.set_viewport_size(size)
        page.evaluate("window.scrollTo(0, 0)")
        page.wait_for_timeout(700)
        page.screenshot(path=shots / f"probe4-table-{label}-{lang}.png")
        assert not disc_problems(page), disc_problems(page)
        page.evaluate("document.querySelector('#middle').scrollIntoView({block: 'center'})")
        bad = widow_problems(page)
        picks = page.locator("#widow .pick")
        picks.nth(1).click()  # the middle one, under the title, picked (and the pointer on it)
        picks.nth(1).hover()
        page.wait_for_timeout(300)
        pile = page.locator("#middle .pile--widow").bounding_box()
        page.screenshot(path=shots / f"probe4-widow-{label}-{lang}.png", clip={
            "x": pile["x"] - 60, "y": pile["y"] - 60, "width": pile["width"] + 120,
            "height": pile["height"] + 80})
        assert not bad, f"a lifted widow card over the widow's title at {label}: {bad}"
        page.evaluate(ALL_DEALERS)
        page.wait_for_timeout(100)
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=shots / f"probe4-discs-{label}-{lang}.png")
        bad = disc_problems(page)
        assert not bad, f"the dealer's disc at {label}: {bad}"
        page.reload()
        page.wait_for_selector('#status[data-my-turn="1"]', timeout=15000)
        page.wait_for_timeout(500)
    # the turn passes (a swap, the move the hint names): the sentence is back, live (and
    # goes again as the turn comes back)
    page.set_viewport_size(DESKTOP)
    assert COME_BACK[lang] not in spoken(page, ".table-notes")
    page.locator("#me .pick").first.click()
    page.locator("#widow .pick").first.click()
    page.click("#swap-form button[type=submit]")
    page.wait_for_selector("#status:not([data-my-turn])", state="attached", timeout=15000)
    seen = set()
    for _ in range(100):
        now = page.evaluate(SENTENCE)
        seen.add(now["myTurn"])
        assert now["shown"] != now["myTurn"], now
        if len(seen) == 2:
            break
        page.wait_for_timeout(50)
    assert seen == {True, False}, seen
    assert not problems, problems


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_dealer_disc_at_a_full_table_and_at_brag(site, browser, shots, lang):
    problems: list[str] = []
    page = new_page(browser, DESKTOP, lang, problems)
    log_in(page, site.url, USERS[lang], PASSWORD)
    for seats, variant, name in ((7, "Big bus", "seven"), (2, BRAG[lang], "brag")):
        open_table(page, site, lang, seats, variant=variant)
        page.wait_for_selector(".dealer-button", timeout=15000)
        for label, size in SIZES:
            page.set_viewport_size(size)
            page.evaluate("window.scrollTo(0, 0)")
            page.wait_for_timeout(700)
            page.evaluate(ALL_DEALERS)
            page.wait_for_timeout(100)
            page.screenshot(path=shots / f"probe4-discs-{name}-{label}-{lang}.png")
            bad = disc_problems(page)
            assert not bad, f"the dealer's disc at {name}, {label}: {bad}"
            page.reload()
            page.wait_for_selector("#me .cards--hand", timeout=15000)
        page.set_viewport_size(DESKTOP)
    assert not problems, problems


TARGETS = """sel => [...document.querySelectorAll(sel)].filter(e => e.getClientRects().length)
  .map(e => { const label = e.closest('label') || e.labels[0];
              const r = label.getBoundingClientRect(), b = e.getBoundingClientRect();
              return {name: e.name || e.id, h: r.height, w: r.width,
                      box: [b.left, b.top, b.right, b.bottom]}; })"""


# points of a checkbox's line away from the box itself: at the right end of its label, and
# by the box at the top of the line (for a label beside its box, in the gap between them)
TAP_AT = """name => { const e = document.querySelector(`input[type=checkbox][name='${name}']`);
  const label = e.closest('label') || e.labels[0], r = label.getBoundingClientRect();
  return [[r.right - 4, r.top + r.height / 2],
          [label.contains(e) ? r.left + 2 : r.left - 4, r.top + 3]]; }"""


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_settings_checkboxes_are_finger_sized_lines(site, browser, shots, lang):
    problems: list[str] = []
    for label, size in SIZES:
        page = new_page(browser, size, lang, problems)
        log_in(page, site.url, USERS[lang], PASSWORD)
        for path, selector in (
                ("/notifications/preferences/", ".notify-prefs input[type=checkbox]"),
                ("/accounts/profile/", ".stacked-form input[type=checkbox]")):
            page.goto(site.url + path)
            page.screenshot(path=shots / f"probe4-{path.split('/')[1]}-{label}-{lang}.png",
                            full_page=True)
            found = page.evaluate(TARGETS, selector)
            assert len(found) >= 3, found
            for box in found:
                # the box itself keeps its size (22 pixels)
                assert 21 <= box["box"][3] - box["box"][1] <= 24, box
            if size is PHONE:
                small = [b for b in found if b["h"] < 44 - 0.5]
                assert not small, f"checkbox targets under 44 pixels on {path}: {small}"
                # a tap on its line, away from the box, ticks it
                for box in found:
                    checkbox = page.locator(f"{selector}[name='{box['name']}']")
                    checkbox.scroll_into_view_if_needed()
                    for x, y in page.evaluate(TAP_AT, box["name"]):
                        was = checkbox.is_checked()
                        page.mouse.click(x, y)
                        assert checkbox.is_checked() != was, (box, x, y)
                        page.mouse.click(x, y)
                        assert checkbox.is_checked() == was, (box, x, y)
            assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
        page.context.close()
    assert not problems, problems


# each row of ranks ("A-2-3", "Q-K-A") in the page's text, and the lines it is on
RANK_ROWS = r"""() => {
  const rows = [], walker = document.createTreeWalker(document.querySelector('main'),
                                                       NodeFilter.SHOW_TEXT);
  const pattern = /(?<![\w-])(?:10|[AKQJ2-9])(?:-(?:10|[AKQJ2-9])){2}(?![\w-])/g;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const m of node.data.matchAll(pattern)) {
      const range = document.createRange();
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      // (the hyphen may come in a font of its own, a box a little higher or lower: a row
      // is on two lines when one of its boxes starts under the foot of another)
      const boxes = [...range.getClientRects()].filter(r => r.width);
      const lines = boxes.some(a => boxes.some(b => b.top >= a.bottom - 1)) ? 2 : 1;
      rows.push({text: m[0], lines: lines, around: node.data.slice(0, 60),
                 boxes: boxes.map(r => [Math.round(r.left), Math.round(r.top),
                                        Math.round(r.bottom)])});
    }
  }
  return rows;
}"""


# Not fixed: no style keeps a row of ranks from breaking at its hyphens (hyphens: none,
# word-break: keep-all, line-break: strict, text-wrap: pretty were tried), and the rows
# are inside translated sentences. Wrapping each at render time in a no-wrap span was
# tried and taken out again: it splits the sentences' text in the page's HTML ("3-3-3</span>
# is the best prial"), which what reads the page's HTML would no longer find.
@pytest.mark.xfail(strict=True, reason="a row of ranks still breaks at its hyphen on a phone")
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_row_of_ranks_does_not_break_on_the_rules_page(site, browser, shots, lang):
    problems: list[str] = []
    for label, size in SIZES:
        page = new_page(browser, size, lang, problems)
        page.goto(site.url + "/rules/")
        rows = page.evaluate(RANK_ROWS)
        assert any(row["text"] == "A-2-3" for row in rows), rows
        page.screenshot(path=shots / f"probe4-rules-{label}-{lang}.png", full_page=True)
        broken = [row for row in rows if row["lines"] > 1]
        assert not broken, f"rows of ranks broken at {label}: {broken}"
        page.context.close()
    assert not problems, problems
