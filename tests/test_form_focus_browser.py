"""A form sent back with errors puts the focus on the first field in error (found by the
fourth outside probe: after "The two password fields didn't match" the focus was back on
the username, which the form marks autofocus), in Debian's chromium, in English and
Japanese."""

import pytest

from tests.servers import live_site

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    with live_site(tmp_path_factory.mktemp("focus")) as server:
        yield server


@pytest.mark.parametrize("locale", ["en-GB", "ja-JP"])
def test_the_field_in_error_has_the_focus(site, browser, locale):
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale=locale)
    page = context.new_page()
    try:
        page.goto(site.url + "/accounts/signup/")
        page.fill("input[name=username]", "focusfinder")
        page.fill("input[name=email]", "focusfinder@example.org")
        page.fill("input[name=password1]", "a-long-secret-88")
        page.fill("input[name=password2]", "a-long-secret-99")
        page.click("main form button[type=submit]")
        page.wait_for_selector('input[name=password2][aria-invalid="true"]')
        page.wait_for_load_state("load")
        page.wait_for_function("() => document.activeElement && "
                               "document.activeElement.name === 'password2'", timeout=5000)
        # a form without errors keeps its own first field
        page.goto(site.url + "/accounts/login/")
        page.wait_for_load_state("load")
        assert page.evaluate("() => document.activeElement.name") == "username"
    finally:
        context.close()
