"""A table of seven to ten, in Debian's chromium: the seats round the felt keep apart.

A UX probe saw the others' seats at the sides of a seven-seat Brag table overlap at
1280×800. For Stop the Bus (7, 8, 9 seats), Commerce (9, 10) and Brag (7, 8), in English
and Japanese, at 1280×800 and on a 390×844 phone, at your turn: no other's seat covers
another, the middle of the table (its piles, the pot, the bus line), the status line,
your seat, your hand or your moves; a seat's name is there in full for whoever cannot
read it whole (a tooltip); and the page never scrolls sideways.

Screenshots go to STOPBUS_SCREENSHOTS (default: the test's temporary directory), named
seats-*.png.
"""


import pytest

from tests.servers import live_site
from tests.test_ux_table_browser import DESKTOP, PHONE, my_turn, new_page, open_table, sign_up

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

VARIANTS = (
    "from games.models import Variant\n"
    "Variant.objects.create(name='Big bus', slug='big-bus', game='stop_the_bus', "
    "starting_lives=3, min_players=2, max_players=9)\n"
    "Variant.objects.create(name='Big commerce', slug='big-commerce', game='stop_the_bus', "
    "ranking='commerce', scoring='pot', starting_chips=3, swap_limit=3, "
    "dealer_blind_swap=True, stop_after_swap=True, may_pass=True, min_players=3, "
    "max_players=10)\n"
    "Variant.objects.create(name='Big brag', slug='big-brag', game='brag', "
    "starting_chips=6, ante=1, min_bet=1, max_bet=4, max_raise=4, max_hands=2, "
    "min_players=2, max_players=8)\n")

TABLES = [("Big bus", 7), ("Big bus", 8), ("Big bus", 9), ("Big commerce", 9),
          ("Big commerce", 10), ("Big brag", 7), ("Big brag", 8)]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    # fourteen players sign up here from one address: more than a visitor may
    with live_site(tmp_path_factory.mktemp("seats"), VARIANTS, STOPBUS_BOT_DELAY="0.1",
                   STOPBUS_SHOWDOWN_PAUSE="30", STOPBUS_MAIL_REQUESTS_FROM_AN_IP="100") as server:
        yield server


# what the others' seats must keep clear of, each by a name for the message
PARTS = {
    "middle": "#middle > *:not(.middle__seal)",
    "bus": "#bus:not(.is-hidden) p",
    "status": "#status > *",
    "my seat": "#me .seat",
    "my hand": "#me .cards--hand",
    "my moves": "#me .controls",
}


# what the middle, seal included, must keep clear of
MIDDLE_AND_BUS = {"piles": "#middle > :not(.middle__seal)", "seal": "#middle > .middle__seal",
                  "bus": PARTS["bus"]}


def layout(page, parts=PARTS):
    """The boxes (in the page's coordinates) of every other's seat and of each of ``parts``
    (by default those the seats must keep clear of); and how wide the page is."""
    return page.evaluate("""(parts) => {
      const box = el => { const r = el.getBoundingClientRect();
        return {x: r.left + scrollX, y: r.top + scrollY, width: r.width, height: r.height}; };
      const shown = el => { const r = el.getBoundingClientRect();
        return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden'; };
      const seats = [...document.querySelectorAll('#opponents .seat')].map(el => ({
        ...box(el), name: el.querySelector('.seat__name').textContent.trim(),
        title: el.querySelector('.seat__name').getAttribute('title') ||
               el.getAttribute('aria-label') || '',
        nameWidth: el.querySelector('.seat__name').getBoundingClientRect().width}));
      const others = [];
      for (const [what, selector] of Object.entries(parts))
        for (const el of document.querySelectorAll(selector))
          if (shown(el)) others.push({...box(el), what});
      return {seats, others, scrollWidth: document.documentElement.scrollWidth,
              width: document.documentElement.clientWidth};
    }""", parts)


def overlap(a, b) -> bool:
    return not (a["x"] + a["width"] <= b["x"] + 0.5 or b["x"] + b["width"] <= a["x"] + 0.5
                or a["y"] + a["height"] <= b["y"] + 0.5 or b["y"] + b["height"] <= a["y"] + 0.5)


def check(page, seats, label):
    """What is wrong with the seats' layout as it is now (nothing, when all is well)."""
    found = layout(page)
    if len(found["seats"]) != seats - 1:
        return [f"{label}: {len(found['seats'])} seats"]
    problems = []
    for i, a in enumerate(found["seats"]):
        for b in found["seats"][i + 1:]:
            if overlap(a, b):
                problems.append(f"seat {a['name']!r} over seat {b['name']!r}")
        for part in found["others"]:
            if overlap(a, part):
                problems.append(f"seat {a['name']!r} over {part['what']}")
        # readable: at least a few letters wide, and the whole name at hand
        if a["nameWidth"] < 40:
            problems.append(f"seat {a['name']!r}: its name only {a['nameWidth']:.0f}px wide")
        if a["name"].split("(")[0].strip() not in a["title"]:
            problems.append(f"seat {a['name']!r}: no full name in {a['title']!r}")
        if a["x"] < -0.5 or a["x"] + a["width"] > found["width"] + 0.5:
            problems.append(f"seat {a['name']!r} off the side of the window")
    if found["scrollWidth"] > found["width"]:
        problems.append(f"sideways scroll: {found['scrollWidth']}")
    # the middle (its piles and the deck's seal) sits over the bus's line, one line or two
    apart = layout(page, MIDDLE_AND_BUS)["others"]
    for part in (p for p in apart if p["what"] != "bus"):
        for line in (p for p in apart if p["what"] == "bus"):
            if overlap(part, line):
                problems.append(f"the bus's line over the middle's {part['what']!r}")
    return [f"{label}: {problem}" for problem in problems]


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize(("variant", "seats"), TABLES)
def test_seats_round_a_big_table_keep_apart(site, browser, shots, variant, seats, language):
    problems: list[str] = []
    page = new_page(browser, DESKTOP, language, problems)
    slug = variant.split()[1]
    sign_up(page, site, f"ada{slug}{seats}{language}")
    open_table(page, site, variant, "live", bots=seats - 1)
    # (at Brag the bots may all fold before your first turn: the hand is yours, and the
    # next deal comes after the site's 30 s showdown pause)
    my_turn(page, timeout=90000)
    wrong = []
    for size in (DESKTOP, PHONE):
        page.set_viewport_size(size)
        page.evaluate("window.scrollTo(0, 0)")
        page.wait_for_timeout(900)  # the felt fitted, the cards landed
        where = "desktop" if size is DESKTOP else "phone"
        page.screenshot(path=shots / f"seats-{slug}-{seats}-{language}-{where}.png")
        wrong += check(page, seats, f"{variant}, {seats} seats, {language}, {where}")
    assert not wrong, wrong
    assert not problems, problems
