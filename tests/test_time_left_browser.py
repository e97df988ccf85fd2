"""A post turn's time left, in words, counts down on an open page (static/js/time-left.js),
in Debian's chromium: Playwright's clock moves the page's time on, and the words on the
table's board and on the rows of /turns become what games.pace.time_left_words says for
the time then left, in English and in Japanese. A live table is not involved here
(tests/test_time_left.py: its seconds carry no words).

Screenshots of a post table at 390×844 and 1280×800 go to STOPBUS_SCREENSHOTS (default:
the test's temporary directory), named time-left-*.png.
"""

import re
from datetime import datetime, timedelta

import pytest
from django.utils import translation

from games.pace import time_left_words
from tests.servers import live_site

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

PASSWORD = "a-long-secret-88"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
# how long is left at each table when the page opens (the page's clock is set so); the
# half minute keeps the words the same while the test takes its few seconds
STB_LEFT = timedelta(hours=3, minutes=12, seconds=30)
BRAG_LEFT = timedelta(days=2, hours=4, minutes=30, seconds=30)
JA_LEFT = timedelta(days=1, minutes=30, seconds=30)
LATER = timedelta(minutes=61)

# alice (English) sits at a Stop the Bus and a Brag post table, さくら (Japanese) at a Stop
# the Bus one; it is their turn at each, and each game's deadline is set from now.
SETUP = f"""
from datetime import timedelta
from django.utils import timezone
from accounts.models import User
from games import actions
from games.engine import PRESETS
from games.models import Game, Job, Seat, Variant

preset = PRESETS["classic"]
stb, _ = Variant.objects.get_or_create(slug="classic", defaults={{
    "name": preset.name, "description": preset.description, **preset.rules.to_dict()}})
brag = Variant.objects.get(slug="three-card-brag")

def person(name, language):
    user = User.objects.create_user(name, name.encode().hex() + "@example.org", "{PASSWORD}")
    user.language = language
    user.date_joined = timezone.now() - timedelta(days=30)
    user.save()
    return user

def my_turn(user, variant, name, left):
    table = actions.do_create_table(user, name=name, variant=variant, seats=3, pace="1d")
    for _ in range(2):
        actions.do_add_bot(table, user, "greedy")
    table.refresh_from_db()
    game = table.current_game()
    for _ in range(200):
        if Seat.objects.get(table=table, user=user).turn_since:
            break
        job = (Job.objects.filter(game=game, done_at__isnull=True)
               .exclude(kind__in=[Job.Kind.TURN_TIMEOUT, Job.Kind.LAST_CALL]).first())
        actions.do_run_job(job)
    else:
        raise SystemExit("never the person's turn")
    deadline = timezone.now() + left
    Game.objects.filter(pk=game.pk).update(deadline=deadline)
    print("TABLE", name, table.pk, deadline.isoformat())

alice = person("alice", "en")
sakura = person("さくら", "ja")
my_turn(alice, stb, "stb", timedelta(seconds={STB_LEFT.total_seconds()}))
my_turn(alice, brag, "brag", timedelta(seconds={BRAG_LEFT.total_seconds()}))
my_turn(sakura, stb, "ja", timedelta(seconds={JA_LEFT.total_seconds()}))
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    # no clock: nothing moves at the tables while the pages are looked at
    with live_site(tmp_path_factory.mktemp("time-left"), SETUP,
                   STOPBUS_CLOCK_AUTOSTART="false") as server:
        server.tables = {name: (int(pk), datetime.fromisoformat(deadline)) for name, pk, deadline
                         in re.findall(r"TABLE (\S+) (\d+) (\S+)", server.made)}
        yield server


def words(language: str, left: timedelta) -> str:
    with translation.override(language):
        return time_left_words(left.total_seconds())


def signed_in(browser, site, name, viewport=DESKTOP):
    """A page of a new context, signed in as ``name``; its errors (a script refused by
    the Content-Security-Policy among them) are collected on ``page.problems``."""
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    page.problems = []
    page.on("pageerror", lambda exc: page.problems.append(str(exc)))
    page.on("console", lambda msg: msg.type == "error" and page.problems.append(msg.text))
    page.goto(site.url + "/accounts/login/")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", PASSWORD)
    page.click("main form button[type=submit]")
    page.wait_for_url(site.url + "/")
    return page


def says(page, selector: str, text: str) -> None:
    from playwright.sync_api import expect

    expect(page.locator(selector)).to_have_text(text, timeout=5000)


def test_a_post_tables_words_count_down(browser, site):
    for name, left, language in (("stb", STB_LEFT, "en"), ("brag", BRAG_LEFT, "en"),
                                 ("ja", JA_LEFT, "ja")):
        pk, deadline = site.tables[name]
        page = signed_in(browser, site, "さくら" if language == "ja" else "alice")
        # the page's time: ``left`` before the deadline (the server's words are older)
        page.clock.install(time=deadline - left)
        page.goto(f"{site.url}/t/{pk}/")
        post = ".countdown--post"
        says(page, post, words(language, left))
        assert page.evaluate("document.documentElement.lang").split("-")[0] == language
        page.clock.fast_forward(int(LATER.total_seconds() * 1000))
        says(page, post, words(language, left - LATER))
        assert words(language, left - LATER) != words(language, left)
        # a fresh look when the page is shown again, between two ticks
        page.clock.fast_forward(5 * 60 * 1000)
        page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
        says(page, post, words(language, left - LATER - timedelta(minutes=5)))
        assert page.problems == [], page.problems
        page.context.close()


def test_the_turns_rows_count_down(browser, site):
    for name, language in (("alice", "en"), ("さくら", "ja")):
        page = signed_in(browser, site, name)
        mine = {k: v for k, v in site.tables.items() if (k == "ja") == (language == "ja")}
        # the page's time: STB_LEFT (or JA_LEFT) before its first table's deadline
        first = "ja" if language == "ja" else "stb"
        start = site.tables[first][1] - (JA_LEFT if language == "ja" else STB_LEFT)
        page.clock.install(time=start)
        page.goto(site.url + "/turns/")
        for moved in (timedelta(0), LATER):
            for pk, deadline in mine.values():
                row = f'#turns-block .turn-row[data-table="{pk}"] .turn-row__left'
                says(page, row, words(language, deadline - start - moved))
            if not moved:
                page.clock.fast_forward(int(LATER.total_seconds() * 1000))
        # past the deadline: less than a minute
        page.clock.fast_forward(4 * 3600 * 1000)
        if language == "en":
            pk = site.tables["stb"][0]
            says(page, f'.turn-row[data-table="{pk}"] .turn-row__left',
                 words("en", timedelta(0)))
        assert page.problems == [], page.problems
        page.context.close()


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_screenshots_of_a_post_table(browser, site, shots, size):
    for name in ("stb", "brag"):
        pk, deadline = site.tables[name]
        page = signed_in(browser, site, "alice", viewport=size)
        page.goto(f"{site.url}/t/{pk}/")
        page.locator(".countdown--post").wait_for()
        page.screenshot(path=str(shots / f"time-left-{name}-{size['width']}.png"))
        page.context.close()
