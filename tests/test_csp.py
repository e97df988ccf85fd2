"""A Content-Security-Policy without inline scripts, and htmx still working under it.

The policy comes from django-csp (settings.CONTENT_SECURITY_POLICY). It only
protects if nothing of ours needs an exception, so every page we serve is parsed
for inline scripts, on* handlers, hx-on and javascript: URLs, and a real browser
opens the pages that use htmx and its websocket extension and reports any
violation.
"""

import json
import os
import re
import secrets
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.urls import reverse

from games import actions
from tests.conftest import CHROMIUM
from tests.factories import UserFactory, finished_game, preset_variant
from tests.servers import live_site

ROOT = Path(__file__).resolve().parent.parent


def policy(response) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]
    return {part.split()[0]: part.split()[1:] for part in header.split(";") if part.strip()}


class InlineCode(HTMLParser):
    """Everything a script-src without 'unsafe-inline' (or 'unsafe-eval') would block."""

    def __init__(self):
        super().__init__()
        self.problems = []
        self._in_inline_script = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "script" and not attrs.get("src") and attrs.get("type") != "application/json":
            self._in_inline_script = True
        for name, value in attrs.items():
            if name.startswith("on") or name.startswith(("hx-on", "data-hx-on")):
                self.problems.append(f"<{tag} {name}>")
            if name == "style":
                self.problems.append(f"<{tag} style>")
            if value and value.strip().lower().startswith("javascript:"):
                self.problems.append(f"<{tag} {name}=javascript:>")
            if name in ("hx-vals", "hx-headers") and value and value.strip().startswith("js:"):
                self.problems.append(f"<{tag} {name}=js:>")

    def handle_data(self, data):
        if self._in_inline_script and data.strip():
            self.problems.append(f"inline <script>: {data.strip()[:40]}")

    def handle_endtag(self, tag):
        if tag == "script":
            self._in_inline_script = False


def inline_code(html: str) -> list[str]:
    parser = InlineCode()
    parser.feed(html)
    return parser.problems


@pytest.fixture
def site_pages(db, client):
    host, guest = UserFactory(username="hostess"), UserFactory(username="guest")
    staff = UserFactory(username="keeper", is_staff=True, is_superuser=True)
    game = finished_game([host, guest], bots=["random"])
    private = actions.do_create_table(host, name="Hidden", variant=preset_variant(), seats=3,
                                      private=True)
    running = actions.do_create_table(host, name="Running", variant=preset_variant(), seats=2)
    actions.do_join_table(running, guest)
    anonymous = ["/", reverse("games:rules"), reverse("login"), reverse("accounts:signup"),
                 reverse("password_reset"), reverse("stats:leaderboard"),
                 reverse("stats:profile", args=["hostess"]),
                 reverse("stats:history", args=["hostess"]),
                 reverse("stats:head_to_head", args=["hostess", "guest"]),
                 reverse("stats:replay", args=[game.pk]) + "?step=1", "/no-such-page/"]
    player = ["/", reverse("games:table", args=[private.pk]),
              reverse("games:table", args=[running.pk]),
              reverse("games:table", args=[game.table_id]),
              reverse("stats:mine"), reverse("accounts:profile"), reverse("password_change")]
    admin = ["/admin/", "/admin/accounts/user/", f"/admin/accounts/user/{host.pk}/change/",
             "/admin/games/variant/", "/admin/games/variant/add/", "/admin/games/table/"]
    return [(None, anonymous), (host, player), (staff, admin)]


def test_every_page_has_a_policy_without_inline_or_eval_scripts(client, site_pages):
    for user, urls in site_pages:
        if user is not None:
            client.force_login(user)
        for url in urls:
            response = client.get(url)
            assert response.status_code in (200, 404), url
            directives = policy(response)
            assert directives["script-src"] == ["'self'"], url
            assert directives["default-src"] == ["'self'"], url
            assert directives["object-src"] == ["'none'"] and directives["frame-ancestors"] == \
                ["'none'"], url
            header = response["Content-Security-Policy"]
            assert "unsafe-inline" not in header and "unsafe-eval" not in header, url
            assert inline_code(response.content.decode()) == [], url


def test_no_template_carries_inline_script_or_handlers():
    """The same rule on the sources, so a page no test renders cannot slip through."""
    problems = []
    for path in sorted((ROOT / "templates").rglob("*.html")):
        text = path.read_text()
        # template tags and comments are not HTML; blank them before parsing
        text = re.sub(r"{%.*?%}|{#.*?#}", "", text, flags=re.DOTALL)
        problems += [f"{path.relative_to(ROOT)}: {p}" for p in inline_code(text)]
    assert problems == []


def test_production_settings_send_the_policy_and_check_deploy_is_clean():
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("STOPBUS_", "DATABASE_", "REDIS_", "SECURE_", "DEBUG"))}
    env.update(STOPBUS_ENV="production", SECRET_KEY="x" * 60 + secrets.token_urlsafe(20),
               ALLOWED_HOSTS="cards.example.com", DJANGO_SETTINGS_MODULE="stopbus_site.settings")
    dump = subprocess.run(
        [sys.executable, "-c", "import django, json; django.setup(); "
         "from django.conf import settings as s; "
         "print(json.dumps([s.MIDDLEWARE, s.CONTENT_SECURITY_POLICY['DIRECTIVES']]))"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=True)
    middleware, directives = json.loads(dump.stdout)
    assert "csp.middleware.CSPMiddleware" in middleware
    assert directives["script-src"] == ["'self'"]
    check = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False)
    assert check.returncode == 0, check.stdout + check.stderr
    assert "System check identified no issues" in check.stdout


def test_htmx_is_told_not_to_inject_its_indicator_style(client, db):
    html = client.get("/").content.decode()
    meta = re.search(r'<meta name="htmx-config" content=\'([^\']+)\'>', html)
    assert meta and '"includeIndicatorStyles": false' in meta.group(1)
    assert html.index('name="htmx-config"') < html.index("htmx-2.min.js")


def test_the_parser_catches_what_the_policy_blocks():
    assert inline_code('<script>alert(1)</script>')
    assert inline_code('<input onfocus="this.select()">')
    assert inline_code('<form hx-on::after-request="x()">')
    assert inline_code('<a href="javascript:alert(1)">')
    assert inline_code('<p style="color:red">')
    assert inline_code('<script src="/static/x.js"></script>') == []


@pytest.fixture
def browser_site(tmp_path):
    """One daphne process on its own SQLite file, as tests/test_browser.py runs it."""
    with live_site(tmp_path) as server:
        yield server


@pytest.mark.browser
@pytest.mark.timeout(240)
def test_htmx_and_the_table_socket_work_under_the_policy(browser_site):
    """Chromium reports every violation; the pages must show none and still work."""
    from playwright.sync_api import sync_playwright

    from tests.test_browser import ARGS, sign_up

    site = browser_site
    violations, errors = [], []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_context().new_page()
        page.add_init_script("document.addEventListener('securitypolicyviolation', e => "
                             "(window.__csp = window.__csp || []).push("
                             "e.violatedDirective + ' ' + e.blockedURI));")
        page.on("console", lambda msg: msg.type == "error" and errors.append(msg.text))
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        sign_up(page, site, "carol")
        violations += page.evaluate("window.__csp || []")
        assert page.evaluate("typeof htmx") == "object"
        page.fill("input[name=name]", "Policy bus")
        page.check("input[name=private]")
        page.click("text=Open the table")
        page.wait_for_url(re.compile(r".*/t/\d+/$"))
        # the websocket (htmx's ws extension) connects: the lobby's and the table's
        page.wait_for_function("document.querySelector('#chat-form') !== null")
        page.fill("#chat-text", "hello under the policy")
        page.click("#chat-form button[type=submit]")
        page.wait_for_selector("text=hello under the policy", timeout=10000)
        # the chat box is emptied after sending (was an hx-on attribute)
        page.wait_for_function("document.querySelector('#chat-text').value === ''")
        # the invite link is selected on focus (was an onfocus attribute)
        page.focus(".invite__link")
        selected = page.evaluate("(() => { const el = document.querySelector('.invite__link');"
                                 " return el.selectionEnd - el.selectionStart; })()")
        assert selected == len(page.input_value(".invite__link")) > 0
        violations += page.evaluate("window.__csp || []")
        browser.close()
    assert violations == []
    assert not [e for e in errors if "Content Security Policy" in e], errors
