"""Logging out in one tab: the player's other pages follow (found by the fourth outside
probe: a /turns or lobby page kept naming the player, its bell and "Your turns" count,
and logged an htmx error for a notice it has no place for). The lobby and /turns load
again as a signed-out visitor sees them; a table's page says the player was signed out.
In Debian's chromium."""

import re

import pytest

from tests.servers import live_site, log_in

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

PASSWORD = "a-long-secret-88"
SEED = f"""
from accounts.models import User
User.objects.create_user("lou", "lou@example.org", "{PASSWORD}")
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    with live_site(tmp_path_factory.mktemp("logout"), SEED) as server:
        yield server


def _errors(page, into):
    page.on("console", lambda m: into.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: into.append(str(e)))


@pytest.mark.parametrize("path", ["/", "/turns/"])
def test_the_other_tab_loads_again_signed_out(site, browser, path):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        errors: list[str] = []
        first = context.new_page()
        _errors(first, errors)
        log_in(first, site.url, "lou", PASSWORD)
        first.goto(site.url + path)
        first.wait_for_function("() => document.querySelector('[ws-connect]') && "
                                "window.htmx !== undefined")
        first.wait_for_timeout(500)  # its socket open
        assert first.locator("form[action='/accounts/logout/']").count() == 1
        second = context.new_page()
        second.goto(site.url + "/")
        second.click("form[action='/accounts/logout/'] button")
        second.wait_for_url(re.compile(r".*/$"))
        # the first tab follows by itself
        first.wait_for_function(
            "() => !document.querySelector(\"form[action='/accounts/logout/']\")",
            timeout=10000)
        assert first.locator("a[href^='/accounts/login/']").count() >= 1
        assert not [e for e in errors if "oobErrorNoTarget" in e or "htmx" in e], errors
    finally:
        context.close()
