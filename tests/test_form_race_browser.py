"""A form on the table's board answered after the board was redrawn under it (Debian's
chromium via Playwright).

The board's forms (Sit down, Add a bot, Invite, Start, Leave, Play again) post over htmx
and are answered with a notice swapped into #notice, or a redirect. The board is redrawn
over the socket whenever the table changes (and once just after the page loads), which
replaces the form that was pressed: the answer must show all the same. Here Alice's
invitation of a name nobody has is held on its way to the server until Bob has sat down
and Alice's seats were redrawn; then the refusal must still be shown to her.
"""

import contextlib
import re

import pytest

from tests.test_room_browser import DESKTOP, new_page, sign_up
from tests.test_room_browser import site as site  # noqa: PLC0414 -- fixtures, used by name

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]


def first_board(page):
    """Wait for the board the socket sends just after the page loads (unless it came)."""
    page.evaluate("() => { const w = document.getElementById('waiting');"
                  " if (w) { w.dataset.drawn = 'before'; } }")
    with contextlib.suppress(Exception):
        page.wait_for_function("() => { const w = document.getElementById('waiting');"
                               " return w && !w.dataset.drawn; }", timeout=5000)


def hold(page, pattern):
    """Hold the page's requests to ``pattern`` until let go (a list of routes)."""
    held = []
    page.route(pattern, lambda route: held.append(route))
    return held


def wait_for_held(page, held, timeout_ms=5000):
    for _ in range(timeout_ms // 50):
        if held:
            return
        page.wait_for_timeout(50)
    raise AssertionError("the request never left the page")


def test_a_refusal_shows_though_the_seats_were_redrawn_while_it_was_asked(site, browser):
    problems = []
    alice = new_page(browser, DESKTOP, problems)
    bob = new_page(browser, DESKTOP, problems)
    sign_up(alice, site, "alice")
    sign_up(bob, site, "bob")
    alice.fill("input[name=name]", "Racing forms")
    alice.select_option("select[name=variant]", label="Stop the Bus (classic)")
    alice.fill("input[name=seats]", "3")
    alice.click("text=Open the table")
    alice.wait_for_url(re.compile(r".*/t/\d+/$"))
    first_board(alice)
    bob.goto(alice.url)
    first_board(bob)

    held = hold(alice, re.compile(r"/t/\d+/invite/$"))
    alice.evaluate("() => { window.pressedForm = document.querySelector('.invite-form'); }")
    alice.fill("#invite-name", "nobody")
    alice.click(".invite-form button")
    wait_for_held(alice, held)

    # meanwhile Bob sits down: Alice's seats, and the form she pressed, are drawn anew
    bob.click("text=Sit down")
    alice.wait_for_function("() => !document.body.contains(window.pressedForm)"
                            " && document.querySelector('.seat-list').textContent.includes('bob')",
                            timeout=10000)
    held[0].continue_()
    alice.wait_for_function("() => document.getElementById('notice').textContent"
                            ".includes('There is no player called')", timeout=5000)
    assert alice.get_attribute("#notice", "role") == "alert"

    # and the forms still answer as before once nothing is held
    alice.unroute(re.compile(r"/t/\d+/invite/$"))
    alice.fill("#invite-name", "bob")
    alice.click(".invite-form button")
    alice.wait_for_function("() => document.getElementById('notice').textContent"
                            ".includes('bob sits at this table already')", timeout=5000)
    assert not problems, problems
