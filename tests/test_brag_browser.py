"""Issue 14, "How it is proven": two people and a bot play Three Card Brag to its end in
Debian's chromium, with a blind bet, a look, a see and a cover.

The table's variant starts everybody with 10 chips, and the bot is the casual one. The
people follow the plan of tests/brag_script.py (checked over thousands of deals by
tests/test_brag_script.py): Ann never looks and bets blind; Bob looks on his turn. In the
first hand Bob folds once the bot has looked and stays in, so that two are left and Ann,
blind, sees; from then on nobody sees until a person has covered: Bob bets the most,
and in the second hand Bob or Ann cannot pay the stake and covers the pot. Screenshots
(1280×800 and a 390×844 phone) go to STOPBUS_SCREENSHOTS (default: the test's
temporary directory), named brag-*.png.
"""

import re
import time

import pytest

from tests.brag_script import (
    BET_MIN,
    COVER,
    FOLD,
    LOOK,
    PERSON_COVERS,
    PERSON_SEES,
    SEE,
    scripted_move,
)
from tests.servers import live_site
from tests.test_browser import sign_up  # with the confirmation mail
from tests.test_room_browser import (
    DESKTOP,
    PHONE,
    inside_viewport,
    scroll_width,
    serious,
    still,
)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(400)]

QUICK_BRAG = ("from games.models import Variant; Variant.objects.create(name='Quick Brag', "
              "slug='quick-brag', game='brag', starting_chips=10, ante=1, min_bet=1, "
              "max_bet=10, max_raise=10, max_hands=8, min_players=2, max_players=8)")

# where the board offers each move to the viewer
MOVES = {"look": "#look-form", "see": "#see-form", "cover": "#cover-form",
         "fold": "#fold-form", "bet": "#me .bet__choice button"}
# the bot has looked and is still betting: its seat's badge says "seen"
BOT_SEEN_BETTING = "#opponents .seat:has(.badge--bot) .badge--seen"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    with live_site(tmp_path_factory.mktemp("brag"), QUICK_BRAG, STOPBUS_BOT_DELAY="0.2",
                   STOPBUS_SHOWDOWN_PAUSE="30") as server:
        yield server


def new_page(browser, size, problems, **options):
    page = browser.new_context(viewport=size, **options).new_page()
    page.add_init_script("document.addEventListener('securitypolicyviolation', function (e) {"
                         " console.error('CSP ' + e.violatedDirective + ' ' + "
                         "(e.target && e.target.outerHTML || '').slice(0, 300)); });")
    page.on("pageerror", lambda exc: problems.append(str(exc)))
    page.on("console", lambda msg: msg.type == "error" and problems.append(
        f"{msg.text} at {msg.location}"))
    return page


def click_if(page, selector) -> bool:
    """Click ``selector`` if the board shows it now (it may be replaced under us)."""
    target = page.locator(selector)
    if not target.count():
        return False
    try:
        target.last.click(timeout=1500) if selector.endswith(":last") else (
            target.first.click(timeout=1500))
    except Exception:  # the board was sent again between the look and the click
        return False
    return True


def quick_bet(page, which: str) -> bool:
    buttons = page.locator("#me .bet__choice button")
    if not buttons.count():
        return False
    try:
        (buttons.first if which == "min" else buttons.last).click(timeout=1500)
    except Exception:
        return False
    return True


def log_lines(page) -> set[str]:
    if not page.locator("#log .log__item").count():
        return set()
    try:
        return {line.strip() for line in page.inner_text("#log", timeout=1500).splitlines()
                if line.strip()}
    except Exception:
        return set()


def over(page) -> bool:
    return page.locator("#standings h2").count() > 0


def test_two_people_and_a_bot_play_brag_to_the_end(site, browser, shots):
    problems = []
    ann = new_page(browser, DESKTOP, problems)
    bob = new_page(browser, PHONE, problems, is_mobile=True, has_touch=True)
    sign_up(ann, site, "ann")
    sign_up(bob, site, "bob")
    ann.fill("input[name=name]", "Brag night")
    ann.select_option("select[name=variant]", label="Quick Brag")
    ann.fill("input[name=seats]", "3")
    ann.click("text=Open the table")
    ann.wait_for_url(re.compile(r".*/t/\d+/$"))
    bob.goto(ann.url)
    bob.click("text=Sit down")
    ann.wait_for_selector("text=bob")
    ann.select_option("#bot-level", "greedy")  # the plan counts on the casual bot's rules
    ann.click("text=Add a bot")
    for page in (ann, bob):
        page.wait_for_selector("#middle .pile--pot", timeout=15000)
    still(ann, bob)
    ann.screenshot(path=shots / "brag-deal-desktop.png")
    bob.screenshot(path=shots / "brag-deal-phone.png")
    # everybody is blind at the deal: no card face anywhere, three backs in each hand
    for page in (ann, bob):
        assert page.locator("#me .card[data-card]").count() == 0
        assert page.locator("#me .card--back").count() == 3
        assert "blind" in page.inner_text("#me .seat__badges")
    assert scroll_width(bob) <= 390

    seen: set[str] = set()
    shot = {}
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and not (over(ann) and over(bob)):
        for page, name in ((ann, "ann"), (bob, "bob")):
            seen |= log_lines(page)
            if over(page):
                continue
            if page.locator("#showdown .showdown__rows").count() and "settled" not in shot:
                still(ann, bob)
                ann.screenshot(path=shots / "brag-settled-desktop.png")
                bob.screenshot(path=shots / "brag-settled-phone.png")
                shot["settled"] = True
            if click_if(page, "#showdown .ready-form button"):
                continue
            if page.get_attribute("#status", "data-my-turn") != "1":
                continue
            move = scripted_move(
                name, {kind for kind, where in MOVES.items() if page.locator(where).count()},
                bot_seen_betting=page.locator(BOT_SEEN_BETTING).count() > 0,
                person_saw=any(re.search(PERSON_SEES, line) for line in seen),
                person_covered=any(re.search(PERSON_COVERS, line) for line in seen))
            if move == LOOK:
                # his first turn, blind: the bet control on a phone, then he looks
                if "bob-blind-turn" not in shot and page.locator("#me .bet").count():
                    still(page)
                    inside, box = inside_viewport(page, "#me .controls")
                    assert inside, f"Bob's moves are not all in view on a phone: {box}"
                    page.screenshot(path=shots / "brag-bet-phone.png")
                    shot["bob-blind-turn"] = True
                click_if(page, "#look-form button")
                continue
            if move == COVER:
                if "cover" not in shot:
                    still(page)
                    page.screenshot(path=shots / f"brag-cover-{name}.png")
                    shot["cover"] = True
                if click_if(page, "#cover-form button") and "closed" not in shot:
                    try:  # the others play on for a new pot, the closed one beside it
                        ann.wait_for_selector("#middle .pile--closed", timeout=3000)
                        still(ann, bob)
                        ann.screenshot(path=shots / "brag-closed-pot-desktop.png")
                        bob.screenshot(path=shots / "brag-closed-pot-phone.png")
                        shot["closed"] = True
                    except Exception:  # the cover left one player betting: settled at once
                        shot["closed-skipped"] = True
                continue
            if move in (SEE, FOLD):
                click_if(page, MOVES[move] + " button")
                continue
            if name == "ann" and "ann-turn" not in shot and page.locator("#me .bet").count():
                page.screenshot(path=shots / "brag-turn-desktop.png")
                assert not serious(page), "Brag table, Ann to bet"
                shot["ann-turn"] = True
            quick_bet(page, "min" if move == BET_MIN else "max")
        ann.wait_for_timeout(200)
    for page in (ann, bob):
        page.wait_for_selector("#standings h2", timeout=20000)
        seen |= log_lines(page)
    still(ann, bob)
    ann.screenshot(path=shots / "brag-end-desktop.png")
    bob.screenshot(path=shots / "brag-end-phone.png")

    text = "\n".join(sorted(seen))
    assert re.search(r"ann, blind, bets \d+ \(stake \d+\)", text), text
    assert "bob looks at their cards" in text, text
    assert re.search(PERSON_SEES, text, re.M), text
    assert re.search(PERSON_COVERS, text, re.M), text
    # the end: places by chips, every seat, and Play again
    assert ann.locator("#standings .standings__row").count() == 3
    inside, box = inside_viewport(bob, "#standings .standings__actions")
    assert inside or bob.locator("#standings .standings__actions").count(), box
    assert not serious(ann), "Brag table, game over"
    assert not serious(bob), "Brag table, game over, on a phone"
    ann.click("text=Play again with the same seats")
    ann.wait_for_selector("#standings.is-hidden", state="attached", timeout=15000)
    assert not problems, problems
