"""The lobby's rows on a phone: a post table's two badges ("Playing", "post: 1 day a
move") once took the right of its row side by side, and squeezed its name, variant, host
and seats into a column a few words wide. Now the badges stand one above the other on a
phone, and the seats take the row's whole width."""

import pytest

from tests.servers import live_site, log_in

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

PASSWORD = "a-long-secret-88"

SEED = f"""
from accounts.models import User
from games import actions
from games.models import Variant
ann = User.objects.create_user("ann", "ann@example.org", "{PASSWORD}")
classic = Variant.objects.get(slug="classic")
table = actions.do_create_table(ann, name="Probe post table", variant=classic, seats=4,
                                pace="1d")
for _ in range(2):
    actions.do_add_bot(table, ann, "greedy")
"""

MEASURE = """row => {
  const box = e => e.getBoundingClientRect();
  const style = getComputedStyle(row);
  const inner = box(row).width - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)
    - parseFloat(style.borderLeftWidth) - parseFloat(style.borderRightWidth);
  return {inner, top: box(row.querySelector('.table-row__top')).width,
          seats: box(row.querySelector('.table-row__seats')).width,
          badges: [...row.querySelectorAll('.table-row__badges .badge')].map(box)};
}"""


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    with live_site(tmp_path_factory.mktemp("rows"), SEED) as server:
        yield server


@pytest.mark.parametrize("viewport", [(390, 844), (1280, 800)])
def test_a_post_tables_row_keeps_its_width_for_its_name_and_seats(site, browser, viewport):
    phone = viewport[0] < 500
    context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]},
                                  is_mobile=phone, has_touch=phone)
    page = context.new_page()
    log_in(page, site.url, "ann", PASSWORD)
    row = page.locator(".table-row", has_text="Probe post table")
    row.wait_for()
    found = row.evaluate(MEASURE)
    assert found["seats"] >= 0.95 * found["inner"]  # the seats span the whole row
    playing, post = found["badges"]
    if phone:
        assert post["top"] >= playing["bottom"] - 1  # one above the other
        assert found["top"] >= 0.55 * found["inner"]
    else:
        assert abs(post["top"] - playing["top"]) < 2  # side by side
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport[0]
    context.close()
