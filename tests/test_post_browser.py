"""Two registered people finish post games against each other in Debian's chromium, moving
only the way a post player does: from the list of their turns (Alice, at 1280×800, from
/turns; Bob, on a 390×844 phone, from the lobby's first block) and, after each move, the
table's **Next table** button (shown while another table waits for them). Two tables run
at once, a short Stop the Bus (one life, no floating: one hand decides), public, and a
short Brag (four chips, three hands), private, which Bob reaches through Alice's
invitation by name (the bell's "alice invited you to …"), so *Next table* really goes from
one table to the other. At every visit of the list the count in the navigation and the
"(n)" at the head of the tab's title are checked against the rows that wait for the
player; the game-over screen is reached by both, the one who did not make the last move
through the bell's "You finished … at <table>".

Screenshots of /turns at both sizes go to STOPBUS_SCREENSHOTS (default: the test's
temporary directory), named post-*.png.
"""

import contextlib
import re
import subprocess
import sys
import time

import pytest

from tests.servers import ROOT
from tests.test_brag_browser import click_if, new_page, quick_bet
from tests.test_room_browser import (
    DESKTOP,
    PHONE,
    scroll_width,
    serious,
    sign_up,
    still,
    swap_once,
)
from tests.test_room_browser import site as site  # noqa: PLC0414 -- a fixture, used by name

pytestmark = [pytest.mark.browser, pytest.mark.timeout(500)]

SHORT_VARIANTS = (
    "from games.models import Variant; "
    "Variant.objects.create(name='One life by post', slug='one-life-post', starting_lives=1, "
    "floating=False, min_players=2, max_players=4, pace='1d'); "
    "Variant.objects.create(name='Short Brag by post', slug='short-brag-post', game='brag', "
    "starting_chips=4, ante=1, min_bet=1, max_bet=2, max_raise=2, max_hands=3, min_players=2, "
    "max_players=4, pace='1d')")
STB, BRAG = "Bus by post", "Brag by post"
PHONE_UA = ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
            "Chrome/126.0 Mobile Safari/537.36")


def nav_count(page) -> int:
    return int(page.get_attribute("#turns-count", "data-count") or 0)


def title_count(page) -> int:
    found = re.match(r"\((\d+)\) ", page.title())
    return int(found.group(1)) if found else 0


def counts_agree(page, rows: int) -> None:
    """The navigation's count and the title's "(n)" say how many tables wait for the
    player, as the list does (the title follows the count once the page's script ran)."""
    page.wait_for_function(
        "n => { const c = document.getElementById('turns-count');"
        " const m = /^\\((\\d+)\\) /.exec(document.title);"
        " return c && +c.dataset.count === n && (m ? +m[1] : 0) === n; }", arg=rows,
        timeout=5000)
    assert nav_count(page) == rows == title_count(page)
    assert page.locator("#turns-count").is_visible() == (rows > 0)


def open_first_turn(page, base: str, where: str):
    """The player's list (``/turns/`` or the lobby's first block): check the counts, then
    open the first row if it waits for them. Returns the table's name, or None."""
    page.goto(base + where)
    block = page.locator("#turns-block")
    block.wait_for(state="attached")
    rows = block.locator(".turn-row--mine")
    counts_agree(page, rows.count())
    if not rows.count():
        return None
    first = rows.first.locator(".turn-row__name")
    name = first.inner_text()
    first.click()
    page.wait_for_url(re.compile(r".*/t/\d+/$"))
    # at the table the title says the turn and still starts with the count, once
    page.wait_for_selector('#status[data-my-turn="1"]', timeout=10000)
    page.wait_for_function("() => document.title.startsWith('(') && "
                           "document.title.includes('\u25CF')", timeout=5000)
    assert len(re.findall(r"\(\d+\) ", page.title())) == 1, page.title()
    assert title_count(page) == nav_count(page) >= 1, page.title()
    return name


def table_name(page) -> str:
    return page.locator("h1").first.inner_text().strip()


def over(page) -> bool:
    return page.locator("#standings h2").count() > 0


def stb_move(page, moves: int) -> bool:
    """Swap on the first turns, stop the bus on the third; pass in the final round."""
    if page.locator("#stop-form").count() and moves >= 2:
        return click_if(page, "#stop-form button")
    if page.locator("#swap-form").count():
        swap_once(page)
        return True
    return click_if(page, "#pass-form button")


def brag_move(page, moves: int) -> bool:
    """See when two are left and it may be seen; otherwise a small bet, then fold."""
    if page.locator("#see-form").count():
        return click_if(page, "#see-form button")
    if moves % 2 == 0 and quick_bet(page, "min"):
        return True
    return click_if(page, "#fold-form button")


def play_at_the_table(page, made: dict) -> bool:
    """Make one move at the table now shown, if it is the player's turn there; True if a
    move was made."""
    try:
        page.wait_for_selector('#status[data-my-turn="1"]', timeout=8000)
    except Exception:
        return False
    for _ in range(5):
        if over(page):
            return False
        brag = page.locator("#middle .pile--pot").count() > 0
        key = "brag" if brag else "stb"
        before = page.get_attribute("#status", "data-version")
        if (brag_move if brag else stb_move)(page, made[key]):
            made[key] += 1
            page.wait_for_function(  # the move is on the board: the game moved on
                "v => { const s = document.getElementById('status');"
                " return !s || s.dataset.version !== v; }", arg=before, timeout=10000)
            page.wait_for_timeout(400)
            return True
        page.wait_for_timeout(300)
    return False


def open_table(page, base: str, name: str, variant: str, private: bool = False) -> None:
    page.goto(base + "/")
    page.fill("input[name=name]", name)
    page.select_option("select[name=variant]", label=variant)
    page.fill("input[name=seats]", "2")
    page.select_option("select[name=pace]", "1d")
    if private:
        page.check("input[name=private]")
    page.click("text=Open the table")
    page.wait_for_url(re.compile(r".*/t/\d+/$"))


def sit_down(page) -> None:
    """Sit at a table whose last seat this is, once the page has its board from the
    socket (clicked sooner, the board's first redraw can replace the button between the
    press and the release: no click), then see the game's cards. The wait is longer than
    a ping (25 s): a page that missed a change hears of it at its next ping."""
    page.wait_for_selector("body[data-live]", state="attached", timeout=15000)
    page.click("text=Sit down")
    page.wait_for_selector("#me .card", timeout=30000)


def invite(page, name: str, answer: str) -> None:
    """Invite ``name`` from the table's seats and wait for ``answer``. (The page's board
    may come over its socket just after the page loaded, redrawing the form: that board is
    waited for, and if a redraw still comes between typing and the answer, type again.)"""
    page.evaluate("() => { const f = document.querySelector('.invite-form');"
                  " if (f) { f.dataset.drawn = 'before'; } }")
    # the socket's first board replaces the one the page loaded with (unless it came already)
    with contextlib.suppress(Exception):
        page.wait_for_function("() => { const f = document.querySelector('.invite-form');"
                               " return f && !f.dataset.drawn; }", timeout=5000)
    for _ in range(3):
        page.fill("#invite-name", name)
        page.click(".invite-form button")
        try:
            page.wait_for_selector(f"text={answer}", timeout=5000)
        except Exception:  # noqa: S112 -- typed into a form redrawn under us: again
            continue
        return
    raise AssertionError(f"inviting {name} never said {answer!r}")


def test_two_players_finish_post_games_through_their_turns_and_next_table(site, browser, shots):
    subprocess.run([sys.executable, "manage.py", "shell", "-c", SHORT_VARIANTS], cwd=ROOT,
                   env=site.env, check=True, timeout=120)
    base = site.url
    problems: dict[str, list[str]] = {"alice": [], "bob": []}
    alice = new_page(browser, DESKTOP, problems["alice"])
    bob = new_page(browser, PHONE, problems["bob"], is_mobile=True, has_touch=True,
                   user_agent=PHONE_UA)
    for who, page in (("alice", alice), ("bob", bob)):  # where each error was seen
        page.on("console", lambda msg, who=who, page=page: msg.type == "error" and problems[
            who].append(f"(on {page.url})"))
    sign_up(alice, site, "alice")
    sign_up(bob, site, "bob")

    # both sit at nothing yet: no count, no "(n)", and the lobby's block is hidden
    counts_agree(alice, 0)
    assert bob.locator("#turns-block").is_hidden()

    # the Bus is public: Bob finds it in the lobby
    open_table(alice, base, STB, "One life by post")
    bob.goto(base + "/")
    bob.locator(f"text={STB}").first.click()
    bob.wait_for_url(re.compile(r".*/t/\d+/$"))
    sit_down(bob)  # the table is full: its game starts
    # the Brag table is private: Alice invites Bob by name, and the bell brings him there
    open_table(alice, base, BRAG, "Short Brag by post", private=True)
    invite(alice, "nobody", "There is no player called “nobody”.")
    invite(alice, "BOB", "bob is invited: they are told")
    assert alice.input_value("#invite-name") == ""  # ready for the next name
    alice.screenshot(path=shots / "post-invite-desktop.png")
    bob.goto(base + "/notifications/")
    bob.locator(".bell-list__item a", has_text=f"alice invited you to {BRAG}").click()
    bob.wait_for_url(re.compile(r".*/t/\d+/$"))
    sit_down(bob)

    # each game's first turn is someone's: two tables wait between them
    alice.goto(base + "/turns/")
    bob.goto(base + "/")
    waiting = (alice.locator("#turns-block .turn-row--mine").count()
               + bob.locator("#turns-block .turn-row--mine").count())
    assert waiting == 2, waiting
    assert alice.locator("#turns-block .turn-row").count() == 2
    still(alice, bob)
    alice.screenshot(path=shots / "post-turns-desktop.png", full_page=True)
    bob.goto(base + "/turns/")
    still(bob)
    bob.screenshot(path=shots / "post-turns-phone.png", full_page=True)
    assert scroll_width(bob) <= PHONE["width"], "/turns scrolls sideways on a phone"
    assert not serious(alice), "/turns at 1280×800"
    assert not serious(bob), "/turns on a phone"

    made = {"stb": 0, "brag": 0}
    finished: dict[str, str] = {}  # table -> the player who saw its end at the table
    led_on: list[tuple[str, str]] = []  # (from, to) where Next table took a player
    players = ((alice, "alice", "/turns/"), (bob, "bob", "/"))
    deadline = time.monotonic() + 360
    while len(finished) < 2 and time.monotonic() < deadline:
        anyone = False
        for page, who, where in players:
            name = open_first_turn(page, base, where)
            while name is not None:
                anyone = True
                assert play_at_the_table(page, made), f"{who} could not move at {name}"
                if over(page):
                    finished.setdefault(name, who)
                    break
                # the bar follows the player's turns, live: once the turn has passed here
                # there is nothing to skip, and Next table shows only while another
                # table waits for this player
                if not page.locator('#status[data-my-turn="1"]').count():
                    page.locator("#post-bar-next button", has_text="Skip for now").wait_for(
                        state="detached", timeout=10000)
                next_link = page.locator("#post-bar-next a", has_text="Next table")
                if not next_link.count():  # nothing else waits for this player
                    break
                next_link.click()
                page.wait_for_load_state()
                if "/turns/" in page.url:  # the other table was moved on meanwhile
                    assert "No other table is waiting for your move." in page.content()
                    break
                following = table_name(page)
                led_on.append((name, following))
                name = following
        if not anyone:
            alice.wait_for_timeout(300)
    assert len(finished) == 2, (finished, made)
    assert any(a != b for a, b in led_on), ("Next table never took a player on to "
                                            f"another table: {led_on}")

    # the end for both: the one who moved last saw it at the table; the other is told
    for page, who, _where in players:
        page.goto(base + "/notifications/")
        for name in (STB, BRAG):
            link = page.locator(".bell-list__item a", has_text=re.compile(
                rf"You finished (1st|2nd) of 2 at {name}"))
            assert link.count() == 1, (who, name, page.inner_text("#bell-list"))
            if finished[name] != who:
                link.click()
                page.wait_for_selector("#standings h2", timeout=10000)
                still(page)
                kind = "brag" if name == BRAG else "stb"
                page.screenshot(path=shots / f"post-over-{who}-{kind}.png")
                page.goto(base + "/notifications/")
        # nothing waits any more: no count, no "(n)"
        page.goto(base + "/turns/")
        counts_agree(page, 0)
    assert made["stb"] >= 2 and made["brag"] >= 2, made
    for line in problems["alice"] + problems["bob"]:
        print(line)
    assert not problems["alice"] and not problems["bob"], problems
