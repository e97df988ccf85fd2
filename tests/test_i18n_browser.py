"""The Japanese pages on a 390×844 phone (Debian's chromium via Playwright): the lobby and
the profile signed in, with tables listed; the lobby, sign-up, log-in and password reset
signed out. Nothing is wider than the screen, and no button, badge or link cuts its
words off.

Screenshots go to STOPBUS_SCREENSHOTS (default: the test's temporary directory).
"""


import pytest

from tests.servers import live_site

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

PASSWORD = "a-long-secret-88"
PHONE = {"width": 390, "height": 844}

# A Japanese reader with tables in the lobby: one playing, one waiting with a bot, and
# a private one of their own (so every badge shows).
SETUP = f"""
from accounts.models import User
from games import actions
from tests.factories import preset_variant
sakura = User.objects.create_user("sakura", "sakura@example.org", "{PASSWORD}", language="ja")
kenji = User.objects.create_user("kenji", "kenji@example.org", "{PASSWORD}")
table = actions.do_create_table(kenji, name="金曜の夜のバス", variant=preset_variant("classic"),
                                seats=6)
actions.do_add_bot(table, kenji, "greedy")
mine = actions.do_create_table(sakura, name="Sakura's quiet table",
                               variant=preset_variant("commerce"), seats=4, private=True)
actions.do_add_bot(mine, sakura, "random")
"""

# Elements whose text must show whole: the width their words need is the width they have.
CUT_OFF = """() => [...document.querySelectorAll(
    'button, .btn, .badge, .site-nav a, .table-row__count, label, h1, h2, dt')]
  .filter(el => el.offsetParent !== null && el.scrollWidth > el.clientWidth + 1)
  .map(el => el.outerHTML.slice(0, 160))"""


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    with live_site(tmp_path_factory.mktemp("i18n-site"), SETUP,
                   STOPBUS_CLOCK_AUTOSTART="false") as server:
        yield server


def japanese_phone(browser):
    return browser.new_context(viewport=PHONE, locale="ja-JP").new_page()


@pytest.fixture(scope="module")
def phone(browser, site):
    """Signed in as a Japanese reader."""
    page = japanese_phone(browser)
    page.goto(site.url + "/accounts/login/")
    page.fill("input[name=username]", "sakura")
    page.fill("input[name=password]", PASSWORD)
    page.click("main form button[type=submit]")
    page.wait_for_url(site.url + "/")
    yield page
    page.context.close()


@pytest.fixture(scope="module")
def visitor(browser):
    """A Japanese reader who is not signed in."""
    page = japanese_phone(browser)
    yield page
    page.context.close()


def fits(page) -> tuple[int, list[str]]:
    width = page.evaluate("() => document.documentElement.scrollWidth")
    return width, page.evaluate(CUT_OFF)


def check_fit(page, url, words, shot):
    page.goto(url)
    assert page.locator("html").get_attribute("lang") == "ja"
    text = page.locator("body").inner_text()
    for word in words:
        assert word in text, word
    page.screenshot(path=str(shot), full_page=True)
    width, cut = fits(page)
    assert width <= PHONE["width"], f"the page is {width}px wide"
    assert cut == []


@pytest.mark.parametrize(("name", "path", "words"), [
    ("lobby", "/", ["ボットと今すぐ遊ぶ", "参加できるテーブル", "非公開", "テーブルを開く"]),
    ("profile", "/accounts/profile/", ["プロフィール", "4色デッキ", "テーブル設定を保存"]),
])
def test_japanese_pages_fit_a_phone(phone, site, shots, name, path, words):
    check_fit(phone, site.url + path, words, shots / f"ja-{name}-390x844.png")


@pytest.mark.parametrize(("name", "path", "words"), [
    ("lobby-signed-out", "/", ["登録して遊ぶ", "1ハンドの流れ", "参加者募集中"]),
    ("signup", "/accounts/signup/", ["新規登録", "アカウントを作成する"]),
    ("login", "/accounts/login/", ["ログイン", "パスワードをお忘れですか？"]),
    ("password-reset", "/accounts/password_reset/", ["再設定リンクを送る"]),
])
def test_japanese_pages_fit_a_phone_signed_out(visitor, site, shots, name, path, words):
    check_fit(visitor, site.url + path, words, shots / f"ja-{name}-390x844.png")
