"""The fifth visitor probe's layout defects, measured in Debian's chromium at 1280×800 and
on a 390×844 phone, in English and Japanese (the HTML ones are in tests/test_ui_probe5.py):

- the turn clock's ring is a square round its avatar, concentric with it, on your own
  seat and on the others' (the site's "svg { max-width: 100% }" narrowed it, and turned a
  quarter it stood off to the left, through your initials);
- the end of the game's sheet: its Minimise button covers no letter of the title (long
  names wrap) and keeps inside the sheet's padding;
- the hints toggle on a phone is a light bulb, not a "?";
- the mute toggle is not the turn alerts' bell, and shows its state;
- the lobby's Play-now buttons never start a line with the "·" before the game's name;
- the lobby's heading of post tables has room over it.

Screenshots go to STOPBUS_SCREENSHOTS (default: the test's temporary directory), named
probe5-*.png.
"""

import re

import pytest

from tests.servers import live_site, log_in
from tests.test_cosmetics_probe4_browser import (
    BRAG,
    DESKTOP,
    PASSWORD,
    PHONE,
    SIZES,
    new_page,
    open_table,
)


def meet(a, b, air=0.0):
    """Whether two boxes overlap (by more than ``air`` pixels)."""
    return (a["x"] + air < b["x"] + b["width"] and b["x"] + air < a["x"] + a["width"]
            and a["y"] + air < b["y"] + b["height"] and b["y"] + air < a["y"] + a["height"])


pytestmark = [pytest.mark.browser, pytest.mark.timeout(900)]

LONG = {"en": "Bartholomew_Featherstone", "ja": "Wilhelmina_Featherstonehaugh"}
SEED = f"""
from accounts.models import User
User.objects.create_user("pat", "pat@example.org", "{PASSWORD}")
hana = User.objects.create_user("hana", "hana@example.org", "{PASSWORD}")
hana.language = "ja"; hana.save()
long_en = User.objects.create_user("{LONG['en']}", "b@example.org", "{PASSWORD}")
long_ja = User.objects.create_user("{LONG['ja']}", "w@example.org", "{PASSWORD}")
long_ja.language = "ja"; long_ja.save()
from tests.factories import finished_game
game = finished_game([long_en, long_ja])
print("FINISHED", game.table_id)
from games import actions
from tests.factories import preset_variant, start_table_game
zed = User.objects.create_user("zed", "z@example.org", "{PASSWORD}")
actions.do_create_table(zed, name="Elm", variant=preset_variant(), seats=4, pace="1d")
start_table_game([User.objects.create_user("yve", "y@example.org", "{PASSWORD}")],
                 bots=["greedy", "greedy"], name="Oak")
"""
USERS = {"en": "pat", "ja": "hana"}


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    with live_site(tmp_path_factory.mktemp("probe5"), SEED, STOPBUS_BOT_DELAY="0.6",
                   STOPBUS_SHOWDOWN_PAUSE="30") as server:
        server.finished = int(re.search(r"FINISHED (\d+)", server.made).group(1))
        yield server


BOX = """el => { const r = el.getBoundingClientRect();
                 return {x: r.left, y: r.top, width: r.width, height: r.height}; }"""

# a ring (the one table.js draws, copied) round every seat's avatar, so that each place a
# seat may have is measured; each ring's box and its avatar's
ALL_RINGS = """() => {
  const ring = document.querySelector('.seat .ring');
  document.querySelectorAll('.seat .seat__avatar').forEach(avatar => {
    if (!avatar.querySelector('.ring'))
      avatar.insertBefore(ring.cloneNode(true), avatar.firstChild);
  });
  const box = el => { const r = el.getBoundingClientRect();
                      return {x: r.left, y: r.top, width: r.width, height: r.height}; };
  return [...document.querySelectorAll('.seat .seat__avatar')]
    .filter(a => a.getClientRects().length)
    .map(a => ({seat: a.closest('.seat').id, me: a.closest('.seat').classList.contains('seat--me'),
                avatar: box(a), ring: box(a.querySelector('.ring')),
                name: box(a.closest('.seat').querySelector('.seat__name'))}));
}"""


def ring_problems(rings):
    found = []
    for one in rings:
        avatar, ring = one["avatar"], one["ring"]
        centre = (avatar["x"] + avatar["width"] / 2, avatar["y"] + avatar["height"] / 2)
        middle = (ring["x"] + ring["width"] / 2, ring["y"] + ring["height"] / 2)
        if abs(centre[0] - middle[0]) > 0.75 or abs(centre[1] - middle[1]) > 0.75:
            found.append(("not concentric", one))
        if abs(ring["width"] - ring["height"]) > 0.75:
            found.append(("not round", one))
        if ring["width"] < avatar["width"] + 6 or ring["height"] < avatar["height"] + 6:
            found.append(("not round the avatar", one))
        if one.get("name") and meet(ring, one["name"], air=0.5):
            found.append(("over the name", one))
    return found


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_turn_ring_is_round_the_avatar(site, browser, shots, lang):
    problems: list[str] = []
    page = new_page(browser, DESKTOP, lang, problems)
    log_in(page, site.url, USERS[lang], PASSWORD)
    for seats, variant, name in ((4, None, "stb"), (3, BRAG[lang], "brag")):
        open_table(page, site, lang, seats, variant=variant)
        page.wait_for_selector('#status[data-my-turn="1"]', timeout=30000)
        page.wait_for_selector("#me .seat .ring", timeout=15000)
        for label, size in SIZES:
            page.set_viewport_size(size)
            page.evaluate("window.scrollTo(0, 0)")
            page.wait_for_timeout(600)
            # your own seat first, alone: the ring table.js drew
            mine = page.evaluate(BOX, page.locator("#me .seat .ring").element_handle())
            avatar = page.evaluate(BOX, page.locator("#me .seat .seat__avatar").element_handle())
            name_box = page.evaluate(BOX, page.locator("#me .seat .seat__name").element_handle())
            me = page.locator("#me .seat")
            me.scroll_into_view_if_needed()
            me.screenshot(path=shots / f"probe5-ring-me-{name}-{label}-{lang}.png")
            alone = {"seat": "me", "avatar": avatar, "ring": mine, "name": name_box}
            assert not ring_problems([alone]), (
                name, label, avatar, mine)
            rings = page.evaluate(ALL_RINGS)
            assert len(rings) == seats and any(r["me"] for r in rings), rings
            page.evaluate("window.scrollTo(0, 0)")
            page.screenshot(path=shots / f"probe5-rings-{name}-{label}-{lang}.png")
            bad = ring_problems(rings)
            assert not bad, f"rings at {name}, {label}: {bad}"
            page.reload()
            page.wait_for_selector("#me .seat .ring", timeout=15000)
        page.set_viewport_size(DESKTOP)
    assert not problems, problems


# the title's letters (each text box of the heading) and the Minimise button's box
SHEET = """() => {
  const sheet = document.querySelector('#standings'), h2 = sheet.querySelector('h2');
  const fold = sheet.querySelector('.panel-sheet__fold');
  const box = r => ({x: r.left, y: r.top, width: r.width, height: r.height});
  const range = document.createRange();
  range.selectNodeContents(h2);
  const style = getComputedStyle(sheet), s = sheet.getBoundingClientRect();
  return {text: h2.innerText, letters: [...range.getClientRects()].filter(r => r.width).map(box),
          fold: box(fold.getBoundingClientRect()), sheet: box(s),
          inner: {left: s.left + parseFloat(style.paddingLeft) + parseFloat(style.borderLeftWidth),
                  right: s.right - parseFloat(style.paddingRight)
                         - parseFloat(style.borderRightWidth)}};
}"""




@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_minimise_button_covers_no_letter_of_the_title(site, browser, shots, lang):
    problems: list[str] = []
    for label, size in SIZES:
        page = new_page(browser, size, lang, problems)
        log_in(page, site.url, LONG[lang], PASSWORD)
        page.goto(f"{site.url}/t/{site.finished}/")
        page.wait_for_selector("#standings .panel-sheet__fold", timeout=15000)
        page.wait_for_timeout(500)
        for title in (None, "Maximilian_Featherstonehaugh wins!",
                      "ボット・マクシミリアン・フェザーストーンの勝ち！"):
            if title:  # longer names than the game's own, and a Japanese one
                page.evaluate("t => { const h = document.querySelector('#standings h2');"
                              " h.lastChild.textContent = t; }", title)
            now = page.evaluate(SHEET)
            assert now["letters"], now
            page.locator("#standings").screenshot(
                path=shots / f"probe5-sheet-{label}-{lang}-{'long' if title else 'game'}.png")
            covered = [r for r in now["letters"] if meet(r, now["fold"])]
            assert not covered, f"Minimise over the title at {label}: {now}"
            assert now["fold"]["x"] + now["fold"]["width"] <= now["inner"]["right"] + 0.5, now
            right = now["inner"]["right"] + 0.5
            assert all(r["x"] + r["width"] <= right for r in now["letters"]), now
        # folded and unfolded again, it still works and stays clear
        page.click("#standings .panel-sheet__fold")
        page.wait_for_selector('#standings .panel-sheet__fold[aria-expanded="false"]')
        folded = page.evaluate(SHEET)
        assert not [r for r in folded["letters"] if meet(r, folded["fold"])], folded
        page.click("#standings .panel-sheet__fold")
        page.wait_for_selector('#standings .panel-sheet__fold[aria-expanded="true"]')
        page.context.close()
    assert not problems, problems


def at_a_post_table(browser, site, lang, problems):
    """A phone's page of a player of ``lang`` at a new post table of two (the other a bot)."""
    page = new_page(browser, PHONE, lang, problems)
    log_in(page, site.url, USERS[lang], PASSWORD)
    open_table(page, site, lang, 2, pace="1d")
    return page


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_hints_toggle_is_a_light_bulb_on_a_phone(site, browser, shots, lang):
    problems: list[str] = []
    page = at_a_post_table(browser, site, lang, problems)
    for label, size in (("phone", PHONE), ("desktop", DESKTOP)):
        page.set_viewport_size(size)
        page.evaluate("window.scrollTo(0, 0)")
        page.wait_for_timeout(300)
        button = page.locator("#hints-toggle")
        page.locator(".table-head").screenshot(path=shots / f"probe5-tools-{label}-{lang}.png")
        bulb = page.locator("#hints-toggle svg.hints-toggle__short")
        label_el = page.locator("#hints-toggle .hints-toggle__label")
        if size is PHONE:
            assert bulb.is_visible() and bulb.bounding_box()["width"] >= 14, button.inner_html()
            assert label_el.bounding_box()["width"] <= 1  # said, not shown
            assert "?" not in page.evaluate(
                "b => [...b.querySelectorAll('*')].filter(e => e.getClientRects().length &&"
                " e.getBoundingClientRect().width > 2).map(e => e.textContent).join('')",
                button.element_handle())
            # the row of buttons fits the window
            tools = page.locator(".table-tools").bounding_box()
            assert tools["x"] >= 0 and tools["x"] + tools["width"] <= size["width"], tools
        else:
            assert not bulb.is_visible() and label_el.is_visible()
        assert button.get_attribute("aria-pressed") in ("true", "false")
        assert spoken_name(page, "#hints-toggle") in ({"en": "Show hints", "ja": None}[lang],
                                                      label_el.text_content())
    # pressed, the bulb is lit, and aria-pressed says so
    page.set_viewport_size(PHONE)
    was = page.get_attribute("#hints-toggle", "aria-pressed")
    page.click("#hints-toggle")
    page.wait_for_selector(f'#hints-toggle[aria-pressed="{"false" if was == "true" else "true"}"]')
    page.locator(".table-head").screenshot(
        path=shots / f"probe5-tools-phone-{lang}-hints-{was}.png")
    page.click("#hints-toggle")  # back as it was (the setting is the account's)
    page.wait_for_selector(f'#hints-toggle[aria-pressed="{was}"]')
    assert not problems, problems


def spoken_name(page, selector):
    """The accessible name of ``selector``, as a screen reader is given it."""
    snapshot = page.locator(selector).aria_snapshot()
    found = re.search(r'button "([^"]*)"', snapshot)
    return found.group(1) if found else snapshot


STRUCK = """() => { const b = document.querySelector('#table-mute'), s = getComputedStyle(b);
  return {pressed: b.getAttribute('aria-pressed'), struck: !!b.querySelector('.table-mute__strike'),
          old: !!b.querySelector('.icon--bell-off, .icon--bell'),
          background: s.backgroundColor, shadow: s.boxShadow, title: b.title}; }"""


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_mute_toggle_shows_its_state_and_is_not_the_alerts_bell(site, browser, shots, lang):
    problems: list[str] = []
    page = at_a_post_table(browser, site, lang, problems)
    alerts = page.locator("#notify-toggle")
    looks = {}
    for step in ("before", "muted", "unmuted"):
        now = page.evaluate(STRUCK)
        page.locator(".table-tools").screenshot(path=shots / f"probe5-bells-{step}-{lang}.png")
        muted = step == "muted"
        assert now["pressed"] == ("true" if muted else "false"), now
        assert now["struck"] == muted and not now["old"], now
        if muted:  # pressed in: a shade inside, not the alerts' red
            assert "inset" in now["shadow"], now
        else:  # plain and quiet
            assert now["background"] in ("rgba(0, 0, 0, 0)", "transparent"), now
            assert "inset" not in now["shadow"], now
        assert page.locator("#table-mute").screenshot() != alerts.screenshot()
        looks[step] = page.locator("#table-mute").screenshot()
        if step != "unmuted":
            page.click("#table-mute")
            page.wait_for_selector(f'#table-mute[aria-pressed="{"false" if muted else "true"}"]')
    assert looks["before"] == looks["unmuted"] != looks["muted"]
    # the alerts' bell off (struck, red) is still not the mute toggle muted
    page.click("#table-mute")
    page.wait_for_selector('#table-mute[aria-pressed="true"]')
    # (its look when off, without asking the browser's permission)
    page.evaluate("document.querySelector('#notify-toggle').setAttribute('aria-pressed', 'false')")
    page.locator(".table-tools").screenshot(path=shots / f"probe5-bells-both-off-{lang}.png")
    assert page.locator("#table-mute").screenshot() != alerts.screenshot()
    page.click("#table-mute")
    page.wait_for_selector('#table-mute[aria-pressed="false"]')
    assert not problems, problems


# each Play-now button: the game's name's own "·" (none now) and, where the name went to
# a line of its own, whether the first part ends with the "·"
PLAY_NOW = """() => [...document.querySelectorAll('.play-now button[data-kind]')].map(b => {
  const kind = b.querySelector('.play-now__kind'), first = kind.previousElementSibling;
  const k = kind.getBoundingClientRect(), f = first.getBoundingClientRect();
  return {before: getComputedStyle(kind, '::before').content,
          after: getComputedStyle(first, '::after').content,
          wrapped: k.top >= f.bottom - 1, text: b.innerText};
})"""


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_no_line_of_play_now_starts_with_its_dot_and_the_lobby_headings(site, browser, shots,
                                                                          lang):
    problems: list[str] = []
    for label, size in SIZES:
        page = new_page(browser, size, lang, problems)
        page.goto(site.url + "/")
        page.screenshot(path=shots / f"probe5-lobby-guest-{label}-{lang}.png")
        buttons = page.evaluate(PLAY_NOW)
        assert len(buttons) == 2, buttons
        for one in buttons:
            assert one["before"] in ("none", "normal", '""'), one
            assert "·" in one["after"], one
        if size is PHONE and lang == "en":
            assert any(one["wrapped"] for one in buttons), buttons  # the case is met
        # the headings of the lists have room over them
        sentence = page.locator("#lobby-tables p.empty")
        assert sentence.count() == 1
        for heading in ("#games-in-play", "#post-tables"):
            top = page.locator(heading).bounding_box()["y"]
            over = page.evaluate(
                "h => h.previousElementSibling.getBoundingClientRect().bottom",
                page.locator(heading).element_handle())
            assert top - over >= 16, (heading, label, top, over)
        page.locator("#lobby-tables").screenshot(
            path=shots / f"probe5-lobby-tables-{label}-{lang}.png")
        page.context.close()
    assert not problems, problems
