"""Issue 32, item 7, in Debian's chromium: axe-core finds no contrast problem on any avatar
colour, in light and in dark mode.

An avatar's colour comes from its name, so a test with a few names meets a few colours:
here the players' names are chosen so that every palette entry is on the page (the lobby's
list of tables, and a waiting table's seats), and the check is shown able to fail by
putting the issue's old colour back.
"""

import re

import pytest

from games.templatetags.cards import AVATAR_COLOURS, avatar_colour
from tests.servers import live_site, log_in

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

PASSWORD = "a-long-secret-88"
PER_TABLE = 4


def names_for_every_colour():
    names = {}
    n = 0
    while len(names) < AVATAR_COLOURS:
        name = f"player{n}"
        names.setdefault(avatar_colour(name), name)
        n += 1
    return [names[c] for c in range(AVATAR_COLOURS)]


NAMES = names_for_every_colour()

SETUP = f"""
from accounts.models import User
from games import actions
from games.models import Variant
names = {NAMES!r}
users = [User.objects.create_user(n, n + "@example.org", {PASSWORD!r}) for n in names]
classic = Variant.objects.get(slug="classic")
for start in range(0, len(users), {PER_TABLE}):
    group = users[start:start + {PER_TABLE}]
    table = actions.do_create_table(group[0], name="Colours " + str(start), variant=classic,
                                    seats={PER_TABLE} + 1)
    for user in group[1:]:
        actions.do_join_table(table, user)
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    with live_site(tmp_path_factory.mktemp("colours"), SETUP,
                   STOPBUS_CLOCK_AUTOSTART="false") as server:
        yield server


def contrast_problems(page):
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(page).response["violations"]
    return [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:4])
            for v in found if v["impact"] in ("serious", "critical")]


def colours_shown(page):
    return set(page.evaluate("""() => [...document.querySelectorAll('.avatar')]
        .filter(a => a.querySelector('.avatar__initials') &&
                     a.querySelector('.avatar__initials').textContent.trim())
        .map(a => [...a.classList].find(c => /^avatar--c\\d+$/.test(c)))"""))


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_avatar_colour_passes_axe(site, browser, scheme):
    context = browser.new_context(viewport={"width": 1280, "height": 800},
                                  color_scheme=scheme, bypass_csp=True)
    page = context.new_page()
    log_in(page, site.url, NAMES[0], PASSWORD)
    page.wait_for_selector("#lobby-tables .table-row")
    assert page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches") == (
        scheme == "dark")
    every = {f"avatar--c{n}" for n in range(AVATAR_COLOURS)}
    assert colours_shown(page) >= every, colours_shown(page)
    assert contrast_problems(page) == [], f"the lobby, {scheme}"

    # a waiting table's seats: the initials of four colours, on the table page
    rows = page.locator("#lobby-tables .table-row a[href*='/t/']")
    hrefs = {rows.nth(i).get_attribute("href") for i in range(rows.count())}
    seen = set()
    for href in sorted(hrefs):
        page.goto(site.url + href if href.startswith("/") else href)
        page.wait_for_selector(".seat-list")
        seen |= colours_shown(page)
        assert contrast_problems(page) == [], f"{href}, {scheme}"
    assert seen >= {f"avatar--c{NAMES.index(n)}" for n in NAMES[:PER_TABLE]}, seen

    # the check can fail: the orange under white initials is found
    page.goto(site.url + "/")
    page.wait_for_selector("#lobby-tables .table-row")
    page.add_style_tag(content=".avatar--c1 { background: #b5651d !important; }")
    problems = contrast_problems(page)
    assert any(p[0] == "color-contrast" for p in problems), problems
    assert re.search(r"avatar", str(problems)), problems
    context.close()
