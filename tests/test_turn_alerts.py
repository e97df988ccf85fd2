"""Issue 32, item 4: turn alerts are the player's switch, on and off, remembered, shown on
the table's bell and the profile, apart from the browser's permission; the bell says what a
click will do. The last test plays it in Debian's chromium."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import UserFactory, start_table_game
from tests.servers import live_site

ON = "Turn alerts: on — click to turn off"
OFF = "Turn alerts: off — click to turn on"


def signed_in(user):
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.django_db
def test_the_switch_is_saved_on_the_account_and_bad_values_change_nothing():
    user = UserFactory()
    assert user.turn_alerts  # on until the player says otherwise
    client = signed_in(user)
    url = reverse("accounts:preferences")
    assert client.post(url, {"turn_alerts": "off"}, HTTP_HX_REQUEST="true").status_code == 204
    user.refresh_from_db()
    assert not user.turn_alerts and user.sound  # nothing else moved
    for bad in ({"turn_alerts": "maybe"}, {"turn_alerts": ""}, {"turn_alerts": "on\x00"}):
        response = client.post(url, bad, HTTP_HX_REQUEST="true")
        assert response.status_code == 400
        # a NUL is refused before the view reads the form (stopbus_site.middleware)
        assert "\x00" in bad["turn_alerts"] or "turn_alerts" in response.content.decode()
        user.refresh_from_db()
        assert not user.turn_alerts
    assert client.post(url, {"turn_alerts": "on"}, HTTP_HX_REQUEST="true").status_code == 204
    user.refresh_from_db()
    assert user.turn_alerts
    assert Client().post(url, {"turn_alerts": "off"}).status_code == 302  # to log in


@pytest.mark.django_db
def test_the_profile_shows_and_saves_the_switch():
    user = UserFactory(turn_alerts=False)
    client = signed_in(user)
    profile = client.get(reverse("accounts:profile")).content.decode()
    box = re.search(r'<input type="checkbox" id="id_turn_alerts"[^>]*>', profile).group(0)
    assert "checked" not in box
    client.post(reverse("accounts:preferences"), {"form": "all", "turn_alerts": "on",
                                                  "sound": "on"})
    user.refresh_from_db()
    assert user.turn_alerts and user.sound and not user.four_colour_deck
    profile = client.get(reverse("accounts:profile")).content.decode()
    assert re.search(r'<input type="checkbox" id="id_turn_alerts"[^>]*checked', profile)


@pytest.mark.django_db
def test_the_bell_says_what_a_click_will_do():
    user = UserFactory(turn_alerts=False)
    game = start_table_game([user], bots=["greedy"])
    client = signed_in(user)
    page = client.get(game.table.get_absolute_url()).content.decode()
    bell = re.search(r'<button[^>]*id="notify-toggle".*?</button>', page, re.DOTALL).group(0)
    assert 'data-alerts="off"' in bell and 'aria-pressed="false"' in bell
    assert f'title="{OFF}"' in bell and f">{OFF}</span>" in bell
    assert " hidden" not in bell.split(">")[0]  # shown whatever the browser allows
    user.turn_alerts = True
    user.save()
    page = client.get(game.table.get_absolute_url()).content.decode()
    bell = re.search(r'<button[^>]*id="notify-toggle".*?</button>', page, re.DOTALL).group(0)
    assert 'data-alerts="on"' in bell and 'aria-pressed="true"' in bell
    assert f">{ON}</span>" in bell


# ---- in a browser ----

@pytest.fixture(scope="module")
def site(tmp_path_factory):
    with live_site(tmp_path_factory.mktemp("alerts"), STOPBUS_BOT_DELAY="0.2",
                   STOPBUS_SHOWDOWN_PAUSE="4") as server:
        yield server


# Every notification the page makes is counted, and the tab is out of sight, as when the
# player looks at another one: the alerts are the page's, the permission the browser's.
COUNT_NOTIFICATIONS = """
window.shownAlerts = [];
(function () {
  const Real = window.Notification;
  function Counted(title) { window.shownAlerts.push(title); this.close = function () {}; }
  Object.defineProperty(Counted, "permission", { get: () => Real.permission });
  Counted.requestPermission = () => Real.requestPermission();
  window.Notification = Counted;
  Object.defineProperty(Document.prototype, "hidden", { get: () => true, configurable: true });
})();
"""


def take_a_turn_and_wait_for_the_next(page):
    from tests.test_room_browser import my_turn, swap_once

    my_turn(page)
    version = int(page.get_attribute("#status", "data-version"))
    if page.locator("#swap-form").count():
        swap_once(page)
    elif page.locator("#pass-form").count():
        page.click("#pass-form button")
    page.wait_for_function(
        f"() => {{ const s = document.querySelector('#status');"
        f" return s && +s.dataset.version > {version} && s.dataset.myTurn === '1'; }}",
        timeout=30000)


@pytest.mark.browser
@pytest.mark.timeout(300)
def test_alerts_turn_off_and_stay_off_after_a_reload(site, browser):
    from tests.test_browser import sign_up

    context = browser.new_context(viewport={"width": 1280, "height": 800},
                                  permissions=["notifications"])
    context.add_init_script(COUNT_NOTIFICATIONS)
    page = context.new_page()
    problems = []
    page.on("pageerror", lambda exc: problems.append(str(exc)))
    sign_up(page, site, "alerty")
    page.click("text=Play now against bots")
    page.wait_for_url(re.compile(r".*/t/\d+/$"))
    bell = page.locator("#notify-toggle")
    assert bell.get_attribute("aria-pressed") == "true"
    assert bell.inner_text().strip() == ON and bell.get_attribute("title") == ON

    # on: the next turn alerts
    from tests.test_room_browser import my_turn

    my_turn(page)  # the first turn may alert too: count from here
    page.wait_for_timeout(300)
    alerted = len(page.evaluate("window.shownAlerts"))
    take_a_turn_and_wait_for_the_next(page)
    assert len(page.evaluate("window.shownAlerts")) == alerted + 1

    # off with one click, saved on the account
    with page.expect_response(lambda r: "/preferences/" in r.url) as answer:
        bell.click()
    assert answer.value.status == 204
    assert bell.get_attribute("aria-pressed") == "false"
    assert bell.inner_text().strip() == OFF and bell.get_attribute("title") == OFF
    page.reload()
    assert page.locator("#notify-toggle").get_attribute("aria-pressed") == "false"
    assert page.locator("#notify-toggle").inner_text().strip() == OFF
    # the browser still allows notifications: the switch alone keeps them away
    assert page.evaluate("Notification.permission") == "granted"
    take_a_turn_and_wait_for_the_next(page)
    assert page.evaluate("window.shownAlerts") == []

    page.goto(site.url + "/accounts/profile/")
    assert not page.is_checked("#id_turn_alerts")
    assert not problems, problems
    context.close()
