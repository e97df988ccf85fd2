"""Issue 32, item 3: the table at every size, in Debian's chromium.

On your turn your hand, the middle and every move (Brag's stake field and "Bet this"
included) are inside the window without scrolling at 1280×800, 1366×768, 1440×900 and on a
390×844 phone, with no sideways scroll, for both games and in every phase the games reach:
the swap and the last turns of Stop the Bus, the draw, the take and the discard of its
stock variant, Brag's look, bets, fold, see and cover. The showdown and the end panels fold
to a bar and come back (kept folded across the board's live updates); on a phone what they
hold is in view and the chat sends while the end panel shows.

Short variants (one life, one Brag hand) keep the games short. Screenshots (your turn,
showdown, end; 1280×800 and 390×844, English and Japanese) go to STOPBUS_SCREENSHOTS
(default: the test's temporary directory), named fit-*.png.
"""

import contextlib
import os
import re
import time
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as NotYet

from tests.servers import live_site
from tests.test_browser import sign_up
from tests.test_room_browser import new_page as plain_page
from tests.test_room_browser import scroll_width, serious, still

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

SIZES = [{"width": 1280, "height": 800}, {"width": 1366, "height": 768},
         {"width": 1440, "height": 900}, {"width": 390, "height": 844}]
DESKTOP, PHONE = SIZES[0], SIZES[3]

VARIANTS = (
    "from games.models import Variant\n"
    "Variant.objects.create(name='Short bus', slug='short-bus', game='stop_the_bus', "
    "starting_lives=1)\n"
    "Variant.objects.create(name='Short draw', slug='short-draw', game='stop_the_bus', "
    "exchange='stock', starting_lives=1)\n"
    "Variant.objects.create(name='Short commerce', slug='short-commerce', game='stop_the_bus', "
    "ranking='commerce', scoring='pot', starting_chips=2, swap_limit=3, dealer_blind_swap=True, "
    "stop_after_swap=True, may_pass=True, min_players=3, max_players=10)\n"
    "Variant.objects.create(name='Short brag', slug='short-brag', game='brag', "
    "starting_chips=6, ante=1, min_bet=1, max_bet=4, max_raise=4, max_hands=2, "
    "min_players=2, max_players=8)\n")

# what a turn needs in view
HAND = "#me .cards--hand"
MIDDLE = "#middle"
MOVES = ("#me .controls button, #me .controls input:not([type=hidden]), "
         "#me .controls .check")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    with live_site(tmp_path_factory.mktemp("fit"), VARIANTS, STOPBUS_BOT_DELAY="0.15",
                   STOPBUS_SHOWDOWN_PAUSE="30") as server:
        yield server


def new_page(browser, size, problems, **options):
    """A page whose refusals by the Content-Security-Policy name the element refused."""
    page = plain_page(browser, size, problems, **options)
    page.add_init_script("document.addEventListener('securitypolicyviolation', function (e) {"
                         " console.error('CSP ' + e.violatedDirective + ' ' + "
                         "(e.target && e.target.outerHTML || '').slice(0, 300)); });")
    return page


def open_table(page, variant, bots=2, private=False):
    page.goto(page.url.split("/", 3)[0] + "//" + page.url.split("/", 3)[2] + "/")
    page.fill("input[name=name]", variant)
    page.select_option("select[name=variant]", label=variant)
    page.fill("input[name=seats]", str(bots + 1))
    if private:  # the invite panel shows all game long
        page.check("input[name=private]")
    page.click(".new-table form button[type=submit]")
    page.wait_for_url(re.compile(r".*/t/\d+/$"))
    for n in range(bots):
        page.click("#waiting .bot-form button")
        page.wait_for_function(
            f"() => document.querySelectorAll('.seat-list__item:not(.seat-list__item--free)')"
            f".length > {n + 1} || !!document.querySelector('#me .cards--hand')")
    page.wait_for_selector("#me .cards--hand", timeout=15000)


def my_turn(page):
    return page.locator('#status[data-my-turn="1"]').count() > 0


def out_of_view(page, selector):
    """The visible elements matching ``selector`` not wholly inside the window."""
    return page.evaluate("""(selector) => {
      const w = document.documentElement.clientWidth, h = window.innerHeight, out = [];
      for (const el of document.querySelectorAll(selector)) {
        const r = el.getBoundingClientRect();
        if (!r.width && !r.height) continue;
        if (r.left < -0.5 || r.top < -0.5 || r.right > w + 0.5 || r.bottom > h + 0.5)
          out.push([el.id || el.className || el.tagName, el.textContent.trim().slice(0, 30),
                    Math.round(r.left), Math.round(r.top), Math.round(r.right),
                    Math.round(r.bottom)]);
      }
      return out;
    }""", selector)


def covered(page, selector):
    """The visible elements matching ``selector`` whose middle or foot is under something
    else (the phone's bar of moves, a panel): in the window, but not to be seen or
    clicked. (The foot too: a probe found cards whose lower half the bar hid.)"""
    return page.evaluate("""(selector) => {
      const out = [];
      for (const el of document.querySelectorAll(selector)) {
        const r = el.getBoundingClientRect();
        if (!r.width || !r.height) continue;
        const holder = el.closest("label") || el;
        for (const y of [r.top + r.height / 2, r.bottom - Math.min(4, r.height / 4)]) {
          const top = document.elementFromPoint(r.left + r.width / 2, y);
          if (!top || !(holder.contains(top) || top.contains(el))) {
            out.push([el.className || el.tagName, top ? (top.id || top.className) : null,
                      Math.round(y)]);
            break;
          }
        }
      }
      return out;
    }""", selector)


def check_fit(page, where):
    """At each size, scrolled to the top as the page opens: hand, middle, every move in
    view, nothing wider than the window. Returns the moves seen."""
    seen = set()
    still(page)  # the cards have landed
    for size in SIZES:
        page.set_viewport_size(size)
        page.evaluate("window.scrollTo(0, 0)")
        page.wait_for_timeout(120)
        if not my_turn(page):
            return seen
        label = f"{where} at {size['width']}×{size['height']}"
        if os.environ.get("STOPBUS_FIT_DEBUG"):  # a folder: every size of every turn
            page.screenshot(path=Path(os.environ["STOPBUS_FIT_DEBUG"]) / f"{size['width']}.png",
                            caret="initial")
        for part in (HAND, MIDDLE):
            assert page.locator(part).count(), f"{part} missing, {label}"
            assert not out_of_view(page, part), f"{part} out of view, {label}"
        bad = out_of_view(page, MOVES)
        assert not bad, f"moves out of view, {label}: {bad}"
        bad = covered(page, f"{HAND} .card, #me .hand-value, #middle .cards, #middle .pot, "
                            f"{MOVES}")
        assert not bad, f"covered, {label}: {bad}"
        assert scroll_width(page) <= size["width"], f"sideways scroll, {label}"
        seen.update(page.evaluate(
            "() => [...document.querySelectorAll('#me .controls form[id]')].map(f => f.id)"))
    page.set_viewport_size(DESKTOP)
    return seen


def take_a_turn(page, turns):
    """One move of a simple player: swap (or draw and discard) and stop on the second
    turn at Stop the Bus; look, bet, then see at Brag."""
    def click(selector):
        if page.locator(selector).count():
            page.locator(selector).first.click(timeout=3000)
            return True
        return False

    if page.locator("#swap-form").count():
        if turns >= 1 and click("#stop-form button"):
            return
        page.locator("#me .pick").first.click(timeout=3000)
        page.locator("#middle .pick").first.click(timeout=3000)
        page.wait_for_timeout(100)
        if not page.locator("#swap-form button[type=submit]").is_disabled():
            click("#swap-form button[type=submit]")
        return
    if page.locator("#discard-form").count():
        page.locator("#me .pick").last.click(timeout=3000)
        click("#discard-form button")
        return
    if page.locator("#draw-form").count():
        if turns >= 1 and click("#stop-form button"):
            return
        click("#take-form button" if turns % 2 else "#draw-form button")
        return
    if click("#pass-form button") or click("#keep-form button"):
        return
    # Brag
    if turns >= 2 and (click("#see-form button") or click("#cover-form button")):
        return
    if turns == 0 and click("#look-form button"):
        return
    if turns >= 4 and click("#fold-form button"):
        return
    if click("#me .bet__choice button") or click("#see-form button") or \
            click("#cover-form button") or click("#fold-form button"):
        return


def play(page, done, on_turn, limit=150):
    """Take turns until ``done(page)``, calling ``on_turn(page)`` at each of them."""
    deadline = time.monotonic() + limit
    turns, version = 0, None
    while time.monotonic() < deadline and not done(page):
        if page.locator("#showdown:not(.is-hidden) .ready-form button").count():
            with contextlib.suppress(NotYet):  # the panel may be sent again under the click
                page.click("#showdown .ready-form button", timeout=2000)
        if my_turn(page) and page.get_attribute("#status", "data-version") != version:
            version = page.get_attribute("#status", "data-version")
            on_turn(page)
            if my_turn(page):
                try:  # a board sent under the click (a bot, the clock) replaces the button
                    take_a_turn(page, turns)
                except NotYet:
                    version = None
                turns += 1
        page.wait_for_timeout(200)
    return done(page)


def shoot(page, shots, name):
    for size, label in ((DESKTOP, "desktop"), (PHONE, "phone")):
        page.set_viewport_size(size)
        page.evaluate("window.scrollTo(0, 0)")
        still(page)
        # caret="initial": hiding the caret leaves style="" on a text field, which htmx
        # then copies onto the field's next version, against the page's policy
        page.screenshot(path=shots / f"fit-{name}-{label}.png", caret="initial")
    page.set_viewport_size(DESKTOP)


def over(page):
    return page.locator("#standings h2").count() > 0


def folded(page, panel_id):
    return panel_id in (page.get_attribute(".table-page", "data-folded") or "").split()


def reconnect(page):
    """The connection drops and comes back: the whole board is sent again and every region
    of it swapped in."""
    page.evaluate("() => { window.boardSwaps = 0; document.body.addEventListener("
                  "'htmx:wsAfterMessage', () => { window.boardSwaps += 1; }); }")
    page.evaluate("() => { const data = document.querySelector('.table-page')"
                  "['htmx-internal-data']; data.webSocket.init(); }")
    page.wait_for_function("() => window.boardSwaps > 0", timeout=15000)


def fold_and_back(page, panel_id, live_update=None):
    """On a phone: the panel is in view whole (scrolling inside itself), folds to a bar,
    stays folded through a live update and a reload, and comes back."""
    panel = f"#{panel_id}"
    page.set_viewport_size(PHONE)
    page.evaluate("window.scrollTo(0, 0)")
    assert not out_of_view(page, panel), f"{panel} out of view on a phone"
    inner = page.evaluate(f"""() => {{ const p = document.querySelector('{panel}');
        return [p.scrollHeight, p.clientHeight, getComputedStyle(p).overflowY]; }}""")
    assert inner[0] <= inner[1] + 1 or inner[2] == "auto", inner
    full = page.locator(panel).bounding_box()["height"]
    page.click(f"{panel} .panel-sheet__fold")
    assert folded(page, panel_id)
    assert page.get_attribute(f"{panel} .panel-sheet__fold", "aria-expanded") == "false"
    bar = page.locator(panel).bounding_box()
    assert bar["height"] < 80 < full, (bar, full)
    assert bar["x"] == 0 and bar["width"] == PHONE["width"], bar  # a bar across the foot
    assert not out_of_view(page, panel)
    if live_update:
        live_update(page)
        assert folded(page, panel_id), "unfolded by a live update"
        assert page.locator(f"{panel} .panel-sheet__fold").count() == 1
        assert page.locator(panel).bounding_box()["height"] < 80
    page.reload()
    page.wait_for_selector(f"{panel} .panel-sheet__fold")
    assert folded(page, panel_id), "unfolded by a reload"
    return full


def unfold(page, panel_id):
    page.click(f"#{panel_id} .panel-sheet__fold")
    assert not folded(page, panel_id)
    still(page)  # it rises back into place
    assert page.locator(f"#{panel_id}").bounding_box()["height"] > 80


def play_a_game(page, shots, name, problems):
    """Play to the end, checking the fit on every turn; screenshots of the first turn, the
    first showdown and the end. Returns the moves met."""
    met = set()
    shot = {"turn": False}

    def on_turn(p):
        met.update(check_fit(p, f"{name}, turn"))
        if not shot["turn"]:
            shoot(p, shots, f"{name}-turn")
            shot["turn"] = True

    def showdown_or_over(p):
        return over(p) or p.locator("#showdown:not(.is-hidden) h2").count() > 0

    assert play(page, showdown_or_over, on_turn)
    if not over(page):
        shoot(page, shots, f"{name}-showdown")

        fold_and_back(page, "showdown", reconnect)
        if page.locator("#showdown:not(.is-hidden)").count():
            unfold(page, "showdown")
        page.set_viewport_size(DESKTOP)
    assert play(page, over, on_turn, limit=240)
    shoot(page, shots, f"{name}-end")
    # the end panel and its way on in view at every size, under the title as the board was
    for size in SIZES:
        page.set_viewport_size(size)
        page.evaluate("window.scrollTo(0, 0)")
        still(page)
        bad = out_of_view(page, "#standings h2, #standings .standings__actions .btn")
        assert not bad, f"the end out of view at {size}: {bad}"

    # the end on a phone: the panel folds, and the chat beneath it sends
    fold_and_back(page, "standings", reconnect)
    page.set_viewport_size(PHONE)
    shoot_phone = shots / f"fit-{name}-end-folded-phone.png"
    page.screenshot(path=shoot_phone, caret="initial")
    assert not problems, problems
    assert not serious(page), "the end, folded, on a phone"
    problems.clear()  # axe-core's own probes, refused by the page's policy
    page.fill("#chat-text", f"good game {name}")
    page.click("#chat-form button[type=submit]", timeout=5000)
    page.wait_for_selector(f"#chat-messages li:has-text('good game {name}')", timeout=5000)
    unfold(page, "standings")
    assert not out_of_view(page, "#standings .standings__actions")
    page.set_viewport_size(DESKTOP)
    return met


def test_stop_the_bus_fits_every_size_on_every_turn(site, browser, shots):
    """At a private table, where the invite panel once pushed the board down 250 px."""
    problems = []
    page = new_page(browser, DESKTOP, problems)
    sign_up(page, site, "fitter")
    open_table(page, "Short bus", private=True)
    assert page.locator("#invite:not(.is-hidden)").count() == 1
    met = play_a_game(page, shots, "bus", problems)
    assert {"swap-form", "stop-form"} <= met, met
    print("moves met at Stop the Bus:", sorted(met))
    assert not problems, problems


def test_the_draw_and_discard_variant_fits_in_japanese_too(site, browser, shots):
    """Draw, take the discard, discard and stop; the table in Japanese on a phone."""
    problems = []
    page = new_page(browser, DESKTOP, problems)
    sign_up(page, site, "drawer")
    page.click(".language-switch button[value=ja]")
    page.wait_for_selector("html[lang=ja]")
    open_table(page, "Short draw")
    met = play_a_game(page, shots, "draw-ja", problems)
    assert {"draw-form", "discard-form", "stop-form"} <= met, met
    print("moves met at the draw variant:", sorted(met))
    assert not problems, problems


def test_brag_fits_every_size_on_every_turn(site, browser, shots):
    """Look, the bets (the stake field and "Bet this" too), fold, see and cover; in
    Japanese."""
    problems = []
    page = new_page(browser, DESKTOP, problems)
    sign_up(page, site, "bragger")
    page.click(".language-switch button[value=ja]")  # the longer words of the two
    page.wait_for_selector("html[lang=ja]")
    open_table(page, "Short brag")
    met = play_a_game(page, shots, "brag-ja", problems)
    assert {"look-form", "bet-form", "fold-form"} <= met, met
    print("moves met at Brag:", sorted(met))
    assert not problems, problems


def test_commerce_fits_with_several_cards_to_swap_a_pass_and_the_dealers_swap(site, browser,
                                                                               shots):
    """Up to three cards to pick, "and stop the bus" beside Swap, Pass, Knock, and the
    dealer's unseen swap (when the cut makes you the dealer)."""
    problems = []
    page = new_page(browser, DESKTOP, problems)
    sign_up(page, site, "merchant")
    open_table(page, "Short commerce")
    met = play_a_game(page, shots, "commerce", problems)
    assert "swap-form" in met, met  # a short game: the bots may knock before you do
    print("moves met at Commerce:", sorted(met))
    assert not problems, problems
