"""What the keyboard-and-screen-reader probe found at the table, in Debian's chromium:

- an update swapped the region holding the focus and the focus fell to the page's body
  (25 Tabs back to your cards after every move); it now comes back to the same control
  in the new region, and when your turn comes while it is nowhere, to your cards;
- nothing told a screen reader that it was their turn or what the others played: the
  log's new rows and "Your turn" are now said in a polite live region (#announcer) that
  no update replaces;
- words on the felt (the piles' titles, the pot, the seal) read at 4.5:1 or better.
"""

import pytest

from tests.servers import live_site, log_in
from tests.test_cosmetics_probe4_browser import (
    DESKTOP,
    PASSWORD,
    PHONE,
    new_page,
    open_table,
)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

SEED = f"""
from accounts.models import User
User.objects.create_user("kit", "kit@example.org", "{PASSWORD}")
"""

ACTIVE = """() => { const a = document.activeElement;
  return a && a !== document.body ? {tag: a.tagName, text: (a.textContent || '').trim(),
    name: a.getAttribute('name'), region: (a.closest('[id]') || {}).id || ''} : null; }"""


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    with live_site(tmp_path_factory.mktemp("keys"), SEED, STOPBUS_BOT_DELAY="0.6",
                   STOPBUS_SHOWDOWN_PAUSE="30") as server:
        yield server


def my_turn_at_a_new_table(page, site, seats):
    """kit opens a post table of ``seats`` (the others bots) and it is their turn."""
    log_in(page, site.url, "kit", PASSWORD)
    open_table(page, site, "en", seats)
    page.wait_for_selector('#status[data-my-turn="1"]', timeout=30000)


def test_the_focus_stays_on_the_waiting_panels_button_after_the_update(site, browser):
    problems: list[str] = []
    page = new_page(browser, PHONE, "en", problems)
    try:
        log_in(page, site.url, "kit", PASSWORD)
        page.goto(site.url + "/")
        page.fill("input[name=name]", "Keys waiting")
        page.fill("input[name=seats]", "4")
        page.click(".new-table form button[type=submit]")
        page.wait_for_selector("body[data-live]", state="attached", timeout=15000)
        page.locator("#waiting .bot-form button").focus()
        page.keyboard.press("Enter")
        page.wait_for_function("() => document.querySelectorAll("
                               "'.seat-list__item:not(.seat-list__item--free)').length === 2")
        page.wait_for_timeout(300)
        active = page.evaluate(ACTIVE)
        assert active is not None, "the focus fell to the page's body"
        assert active["tag"] == "BUTTON" and active["text"] == "Add a bot", active
        assert not problems, problems
    finally:
        page.context.close()


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_keyboard_player_keeps_the_focus_and_hears_the_turn(site, browser, size):
    problems: list[str] = []
    page = new_page(browser, size, "en", problems)
    try:
        my_turn_at_a_new_table(page, site, 4)
        # the announcer is on the page, outside every region an update replaces
        assert page.evaluate("""() => { const a = document.getElementById('announcer');
            return !!a && a.getAttribute('aria-live') === 'polite'
                   && !a.parentElement.closest('.board'); }""")
        # a swap of your first card for the widow's first, by the keyboard only
        page.locator("#me .pick__input").first.focus()
        page.keyboard.press("Space")
        page.locator("#middle .pick__input").first.focus()
        page.keyboard.press("Space")
        page.locator('#controls button[data-key="s"]').focus()
        version = page.get_attribute("#status", "data-version")
        page.keyboard.press("Enter")
        page.wait_for_function(
            f"() => document.getElementById('status').dataset.version !== '{version}'")
        page.wait_for_timeout(300)
        assert page.evaluate(ACTIVE) is not None, "the focus fell to the page's body"
        # the bots play; your turn comes again: it is said, with what they played
        page.wait_for_function(
            "() => document.getElementById('status').dataset.myTurn === '1' && "
            "document.getElementById('announcer').textContent.includes('Your turn')",
            timeout=30000)
        said = page.text_content("#announcer")
        # with the move that made it yours, from the log ("Casual bot 4 swapped Q♣ for 7♦.
        # Your turn")
        assert said.endswith("Your turn") and "bot" in said.split("Your turn")[0], said
        assert page.evaluate(ACTIVE) is not None
        assert not problems, problems
    finally:
        page.context.close()


CONTRAST = """() => {
  const lum = c => { const [r, g, b] = c.map(v => { v /= 255;
      return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const rgb = s => s.match(/[\\d.]+/g).map(Number);
  // the felt at its lightest (the gradient's centre) under each label's own backing
  const felt = [0x2a, 0x9a, 0x5c];
  const words = '.pile__title, .pile__count, .pot, .commitment summary > span';
  return [...document.querySelectorAll(words)]
    .filter(el => el.getClientRects().length).map(el => {
      const s = getComputedStyle(el), bg = rgb(s.backgroundColor), fg = rgb(s.color);
      const a = bg.length > 3 ? bg[3] : 1;
      const under = felt.map((f, i) => f * (1 - a) + bg[i] * a);
      const L1 = lum(fg.slice(0, 3)), L2 = lum(under);
      const ratio = (Math.max(L1, L2) + 0.05) / (Math.min(L1, L2) + 0.05);
      return {text: el.textContent.trim(), ratio: ratio};
    });
}"""


def test_words_on_the_felt_read_at_four_and_a_half_to_one(site, browser):
    problems: list[str] = []
    page = new_page(browser, DESKTOP, "en", problems)
    try:
        my_turn_at_a_new_table(page, site, 3)
        labels = page.evaluate(CONTRAST)
        assert labels, "no words on the felt were found"
        low = [one for one in labels if one["ratio"] < 4.5]
        assert not low, low
    finally:
        page.context.close()


def test_a_page_that_was_offline_says_so_and_catches_up_when_back(site, browser):
    """The post-table probe: a second device that went offline said nothing, its stale
    board still offering "Your turn". Offline, the page shows its "Reconnecting…" line;
    back online, it connects afresh and shows the move the other device made meanwhile."""
    problems: list[str] = []
    first = new_page(browser, PHONE, "en", problems)
    second = new_page(browser, DESKTOP, "en", problems)
    try:
        log_in(first, site.url, "kit", PASSWORD)
        open_table(first, site, "en", 2)
        first.wait_for_selector('#status[data-my-turn="1"]', timeout=30000)
        log_in(second, site.url, "kit", PASSWORD)
        second.goto(first.url)
        second.wait_for_selector('#status[data-my-turn="1"]', timeout=30000)
        first.context.set_offline(True)
        first.wait_for_selector("#connection:not([hidden])", timeout=5000)
        version = second.get_attribute("#status", "data-version")
        second.click('#controls button[data-key="b"]')
        second.wait_for_function(
            f"() => document.getElementById('status').dataset.version !== '{version}'")
        now = second.get_attribute("#status", "data-version")
        first.context.set_offline(False)
        first.wait_for_function(
            f"() => Number(document.getElementById('status').dataset.version) >= {now} && "
            "document.getElementById('connection').hidden", timeout=15000)
        assert not [p for p in problems if "WebSocket" not in p and "ERR_INTERNET" not in p]
    finally:
        first.context.close()
        second.context.close()
