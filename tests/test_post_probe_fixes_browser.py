"""A seat the clock handed to a bot at a post table, on a 390×844 phone, in Debian's
chromium: the status bar wraps (the page is no wider than the phone, the sentence and its
button take a line of their own, "Your turn" clear of Leave) and there is one way back,
in English and Japanese, at Stop the Bus and at Brag (tests/test_post_probe_fixes.py
holds the markup).

Screenshots go to STOPBUS_SCREENSHOTS (default: the test's temporary directory), named
post-away-*.png.
"""

import os
from pathlib import Path

import pytest

from tests.servers import live_site, log_in, manage
from tests.test_cosmetics_probe4_browser import (
    BRAG,
    PASSWORD,
    PHONE,
    SEED,
    USERS,
    VARIANT,
    meet,
    new_page,
    open_table,
)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(900)]

BACK = {"en": "Take my seat back", "ja": "自分の席に戻る"}
MARK_AWAY = """
from django.utils import timezone
from games.models import Seat, Table
table = Table.objects.filter(seat_set__user__username="{user}").latest("pk")
Seat.objects.filter(table=table, user__username="{user}").update(away=True, timeouts=2)
Table.objects.filter(pk=table.pk).update(updated_at=timezone.now())
"""
MEASURE = """() => {
  const box = s => { const el = document.querySelector(s); if (!el) return null;
                     const r = el.getBoundingClientRect();
                     return {x: r.left, y: r.top, width: r.width, height: r.height}; };
  return {scroll: document.documentElement.scrollWidth, room: document.documentElement.clientWidth,
          status: box('#status'), turn: box('#status .status__turn'),
          leave: box('#tools .leave summary'),
          form: box('#tools .away-form'), button: box('#tools .away-form button')};
}"""


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    with live_site(tmp_path_factory.mktemp("post-away"), SEED, STOPBUS_BOT_DELAY="0.6",
                   STOPBUS_SHOWDOWN_PAUSE="30") as server:
        yield server


def test_a_seat_a_bot_plays_fits_a_phone_with_one_way_back(browser, site, tmp_path):
    shots = Path(os.environ.get("STOPBUS_SCREENSHOTS") or tmp_path)
    problems, found = [], []
    for lang in ("en", "ja"):
        page = new_page(browser, PHONE, lang, problems)
        log_in(page, site.url, USERS[lang], PASSWORD)
        for game, variant in (("stb", VARIANT[lang]), ("brag", BRAG[lang])):
            open_table(page, site, lang, 2, variant=variant)
            manage(site.shell_env, "shell", "-c", MARK_AWAY.format(user=USERS[lang]))
            page.reload()
            page.wait_for_selector("#tools .away-form button", timeout=15000)
            page.wait_for_timeout(300)
            page.screenshot(path=str(shots / f"post-away-{game}-{lang}.png"), full_page=True)
            where = f"{game} {lang}"
            seen = page.evaluate(MEASURE)
            if seen["scroll"] > seen["room"]:
                found.append((where, "wider than the phone", seen))
            for part in ("status", "form", "button"):
                one = seen[part]
                if one["x"] < 0 or one["x"] + one["width"] > seen["room"] + 0.5:
                    found.append((where, f"{part} out of the window", seen))
            if seen["status"]["width"] < 150:
                found.append((where, "the status squeezed into a column", seen))
            if seen["turn"] and seen["leave"] and meet(seen["turn"], seen["leave"]):
                found.append((where, "the turn over Leave", seen))
            if seen["leave"]["y"] >= seen["status"]["y"] + seen["status"]["height"]:
                found.append((where, "Leave on a line of its own", seen))
            if seen["form"]["y"] < seen["status"]["y"] + seen["status"]["height"] - 1:
                found.append((where, "the sentence not on a line of its own", seen))
            ways = page.get_by_role("button", name=BACK[lang]).count()
            if ways != 1:
                found.append((where, f"{ways} ways back", seen))
        page.context.close()
    assert not found, found
    assert not problems, problems
