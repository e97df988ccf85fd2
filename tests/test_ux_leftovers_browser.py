"""Leftovers of an outside UX probe, in Debian's chromium at 390×844 and 1280×800.

- On every account form (log in, sign up, reset, the new password, password change, the
  profile's forms), blank and with errors, no control's focus ring covers a label, a
  help line or an error, and a reset refused past the network's limit is said in the
  form (role="alert").
- In Japanese on a phone, headings, buttons, labels and captions break between words
  (Intl.Segmenter's), never inside one, no page is wider than the screen, and the
  selects and buttons are at least 40 pixels tall.
- A stats chart's labels are drawn whole, left of their bars, in both languages.

Screenshots go to STOPBUS_SCREENSHOTS (default: the test's temporary directory), named
ux-*.png.
"""

import re
import subprocess
import sys

import pytest

from tests.servers import ROOT, live_site, log_in

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

PHONE, DESKTOP = {"width": 390, "height": 844}, {"width": 1280, "height": 800}
PASSWORD = "a-long-secret-88"
RESETS_FROM_AN_IP = 2

SEED = f"""
from accounts.models import User
from stats.models import PlayerStats
from tests.factories import UserFactory, finished_game
alice = UserFactory(username="alice", email="alice@example.org")
alice.set_password("{PASSWORD}"); alice.save()
bob = UserFactory(username="bob", email="bob@example.org")
for _ in range(3):
    finished_game([alice, bob], bots=["random"])
stats = PlayerStats.objects.get(user=alice, variant=None)
stats.categories = {{"thirty_one": 2, "prial": 1, "running_flush": 3, "run": 5, "flush": 7,
                    "pair": 12, "high_card": 20}}
stats.save()
"""

RESET_LINK = """
from django.contrib.auth.tokens import default_token_generator
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from accounts.models import User
user = User.objects.get(username="alice")
print(f"/accounts/reset/{urlsafe_base64_encode(force_bytes(user.pk))}/"
      f"{default_token_generator.make_token(user)}/")
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    with live_site(tmp_path_factory.mktemp("ux"), SEED,
                   STOPBUS_MAIL_REQUESTS_FROM_AN_IP=str(RESETS_FROM_AN_IP)) as server:
        yield server


def reset_link(site):
    out = subprocess.run([sys.executable, "manage.py", "shell", "-c", RESET_LINK], cwd=ROOT,
                         env=site.shell_env, check=True, timeout=60, capture_output=True,
                         text=True).stdout
    return re.search(r"/accounts/reset/\S+/", out).group(0)


def new_page(browser, size, language="en"):
    context = browser.new_context(viewport=size, locale="ja-JP" if language == "ja" else "en-GB",
                                  extra_http_headers={"Accept-Language": language})
    return context.new_page()


RING_OVERLAPS = """() => {
  const out = [];
  for (const form of document.querySelectorAll('main form')) {
    const words = [...form.querySelectorAll('label, .helptext, .help, .errorlist')];
    const controls = form.querySelectorAll(
      'input:not([type=hidden]), select, textarea, button');
    for (const control of controls) {
      if (!control.getClientRects().length) continue;
      control.focus();
      if (!control.matches(':focus-visible')) {
        out.push(['no focus ring', control.name || control.textContent.trim()]);
        continue;
      }
      const style = getComputedStyle(control);
      const reach = parseFloat(style.outlineWidth) + parseFloat(style.outlineOffset);
      const r = control.getBoundingClientRect();
      const ring = {l: r.left - reach, t: r.top - reach, r: r.right + reach, b: r.bottom + reach};
      for (const el of words) {
        if (el.contains(control)) continue;  // a label around its own box
        for (const w of el.getClientRects()) {
          if (w.width && w.height && w.left < ring.r && w.right > ring.l && w.top < ring.b
              && w.bottom > ring.t)
            out.push([control.name || control.textContent.trim(), el.className || el.tagName,
                      el.textContent.trim().slice(0, 40),
                      Math.round(Math.min(ring.b, w.bottom) - Math.max(ring.t, w.top))]);
        }
      }
    }
  }
  return out;
}"""


def ring_overlaps(page):
    page.keyboard.press("Tab")  # the keyboard's focus: rings show from here on
    return page.evaluate(RING_OVERLAPS)


def send_blank(page, index):
    """Send the page's ``index``-th form with its text fields emptied: its errors show."""
    form = page.locator("main form.stacked-form").nth(index)
    for field in form.locator("input[type=text], input[type=email], input[type=password], "
                              "input[type=date], input[type=number]").all():
        field.fill("")
    with page.expect_navigation():
        form.evaluate("f => f.requestSubmit()")


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_focus_rings_never_cover_a_label_a_help_line_or_an_error(browser, site, shots, size):
    problems = {}
    page = new_page(browser, size)
    name = "phone" if size is PHONE else "desktop"

    def check(label):
        page.screenshot(path=str(shots / f"ux-focus-{label}-{name}.png"), full_page=True)
        if found := ring_overlaps(page):
            problems[label] = found

    anonymous = [("login", "/accounts/login/"), ("signup", "/accounts/signup/"),
                 ("reset", "/accounts/password_reset/"), ("new-password", reset_link(site))]
    for label, path in anonymous:
        page.goto(site.url + path)
        check(label)
        send_blank(page, 0)
        assert page.locator("main .errorlist").count(), f"{label}: no errors shown"
        check(f"{label}-errors")

    log_in(page, site.url, "alice", PASSWORD)
    page.goto(site.url + "/accounts/password_change/")
    check("password-change")
    send_blank(page, 0)
    check("password-change-errors")

    page.goto(site.url + "/accounts/profile/")
    check("profile")
    send_blank(page, 0)  # the address
    check("profile-email-errors")
    page.goto(site.url + "/accounts/profile/")
    send_blank(page, 2)  # the holiday
    check("profile-holiday-errors")
    page.context.close()
    assert problems == {}


def test_a_reset_past_the_networks_limit_is_said_in_the_form(browser, site, shots):
    page = new_page(browser, PHONE)
    for _ in range(RESETS_FROM_AN_IP + 1):
        page.goto(site.url + "/accounts/password_reset/")
        page.fill("#id_email", "alice@example.org")
        with page.expect_navigation():
            page.click("main form.stacked-form button[type=submit]")
    refused = page.locator("main form.stacked-form [role=alert] ul.errorlist.nonfield")
    assert "too many password reset requests" in refused.inner_text()
    assert page.locator(".messages .message").count() == 0
    assert page.input_value("#id_email") == "alice@example.org"
    page.screenshot(path=str(shots / "ux-reset-refused-phone.png"), full_page=True)
    assert ring_overlaps(page) == []
    page.context.close()


SPLITS = r"""(selector) => {
  const words = new Intl.Segmenter('ja', {granularity: 'word'});
  const out = [];
  for (const el of document.querySelectorAll(selector)) {
    if (!el.getClientRects().length || el.closest('.visually-hidden')) continue;
    const chars = [];
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode())
      for (let i = 0; i < n.data.length; i++) chars.push([n, i]);
    const text = chars.map(([n, i]) => n.data[i]).join('');
    if (!/[\u3040-\u30ff\u4e00-\u9fff]/.test(text)) continue;
    const bounds = new Set([...words.segment(text)].map(s => s.index));
    let bottom = null;
    chars.forEach(([node, i], k) => {
      if (/\s/.test(node.data[i])) return;
      const range = document.createRange();
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      const rect = range.getClientRects()[0];
      if (!rect || !rect.width) return;
      if (bottom !== null && rect.top >= bottom - 2 && !bounds.has(k) && !/\s/.test(text[k - 1]))
        out.push([el.tagName, text.trim().slice(0, 30),
                  text.slice(Math.max(0, k - 5), k) + '|' + text.slice(k, k + 5)]);
      bottom = rect.bottom;
    });
  }
  return out;
}"""

JAPANESE_PAGES = [("lobby", "/", False), ("login", "/accounts/login/", False),
                  ("signup", "/accounts/signup/", False),
                  ("reset", "/accounts/password_reset/", False),
                  ("lobby-member", "/", True), ("profile", "/accounts/profile/", True),
                  ("password-change", "/accounts/password_change/", True),
                  ("stats", "/u/alice/", True), ("history", "/u/alice/games/", True),
                  ("leaderboard", "/leaderboard/", True),
                  # its grid's channels (ブラウザー通知) once made the page wider than a phone
                  ("notifications", "/notifications/preferences/", True)]


# a finger's target: the page's selects and buttons at least 40 pixels tall on a phone
SHORT_CONTROLS = """() => [...document.querySelectorAll('main select, main button, main .btn')]
  .filter(el => el.getClientRects().length && el.getBoundingClientRect().height < 40)
  .map(el => [el.id || el.name || el.textContent.trim().slice(0, 20),
              Math.round(el.getBoundingClientRect().height)])"""


def test_japanese_words_stay_whole_and_nothing_overflows_on_a_phone(browser, site, shots):
    page = new_page(browser, PHONE, "ja")
    split, wide, short = {}, {}, {}
    logged_in = False
    for label, path, member in JAPANESE_PAGES:
        if member and not logged_in:  # (the anonymous pages leave a csrftoken cookie)
            log_in(page, site.url, "alice", PASSWORD)
            logged_in = True
        page.goto(site.url + path)
        assert page.url == site.url + path, f"{label}: sent on to {page.url}"
        assert page.evaluate("document.documentElement.lang") == "ja"
        page.screenshot(path=str(shots / f"ux-ja-{label}-phone.png"), full_page=True)
        if found := page.evaluate(SPLITS, "h1, h2, h3, button, .btn, label, figcaption, th"):
            split[label] = found
        width = page.evaluate("[document.documentElement.scrollWidth, "
                              "document.documentElement.clientWidth]")
        if width[0] > width[1]:
            wide[label] = width
        if found := page.evaluate(SHORT_CONTROLS):
            short[label] = found
    page.context.close()
    assert split == {}
    assert wide == {}
    assert short == {}


CHART_LABELS = """() => [...document.querySelectorAll('svg.chart')].flatMap(svg => {
  const out = [];
  const width = svg.viewBox.baseVal.width;
  for (const label of svg.querySelectorAll('.chart__label')) {
    const box = label.getBBox();
    const bar = label.nextElementSibling;
    if (box.x < -0.5) out.push([svg.id, label.textContent, 'cut off', box.x]);
    if (box.x + box.width > bar.x.baseVal.value - 2)
      out.push([svg.id, label.textContent, 'runs into its bar',
                box.x + box.width, bar.x.baseVal.value]);
  }
  for (const value of svg.querySelectorAll('.chart__value')) {
    const box = value.getBBox();
    if (box.x + box.width > width + 0.5) out.push([svg.id, value.textContent, 'cut off']);
  }
  return out;
})"""


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_chart_labels_are_drawn_whole_beside_their_bars(browser, site, shots, size, language):
    page = new_page(browser, size, language)
    log_in(page, site.url, "alice", PASSWORD)
    page.goto(site.url + "/u/alice/")
    assert page.locator("#categories-chart .chart__label").count() == 7
    page.locator("#categories-chart").screenshot(
        path=str(shots / f"ux-chart-{language}-{'phone' if size is PHONE else 'desktop'}.png"))
    assert page.evaluate(CHART_LABELS) == []
    # and legible: no smaller on screen than 10 pixels
    smallest = page.evaluate("""() => Math.min(...[...document.querySelectorAll(
        '#categories-chart .chart__label')].map(t => t.getBoundingClientRect().height))""")
    assert smallest >= 10
    page.context.close()
