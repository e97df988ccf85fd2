"""Leftovers of an outside UX probe on the account pages, through the real pages.

Past the per-network limit a password reset was refused in a flash message above a
blank form: now, like sign-up, the form comes back with the reason as its own error
(``role="alert"``, where the form's errors go), status 429 and a ``Retry-After``, and
nothing is sent. Past the per-address limit nothing is sent either, and the page is
the one a sent mail gets. Japanese pages say ``lang="ja"`` and site.css breaks their
lines between phrases (the browser half is tests/test_ux_leftovers_browser.py).
"""

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.test import Client, override_settings
from django.urls import reverse

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

RESET_URL = reverse("password_reset")
SIGNUP_URL = reverse("accounts:signup")
SITE_CSS = Path(__file__).resolve().parent.parent / "static" / "css" / "site.css"
RESET_REFUSED = ("There have been too many password reset requests from your network in "
                 "the last hour. Nothing was sent: please try again later.")
SIGNUP_REFUSED = ("There have been too many sign-ups from your network in the last hour. "
                  "Please try again later.")


class FormErrors(HTMLParser):
    """The main form's own error list: its attributes, its items, and whether it sits
    inside the form; and whether the page shows any flash message."""

    def __init__(self):
        super().__init__()
        self.in_main = self.in_form = False
        self.lists = []  # (attrs, in_form, [items])
        self.item = None
        self.in_list = False
        self.in_alert = False
        self.flash = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        classes = (attrs.get("class") or "").split()
        if tag == "main":
            self.in_main = True
        elif tag == "form" and self.in_main and "stacked-form" in classes:
            self.in_form = True
        elif tag == "div" and attrs.get("role") == "alert":
            self.in_alert = True
        elif tag == "ul" and "nonfield" in classes:
            attrs["in_alert"] = self.in_alert
            self.lists.append((attrs, self.in_form, []))
            self.in_list = True
        elif tag == "li" and self.in_list:
            self.item = ""
        if "message" in classes:
            self.flash = True

    def handle_endtag(self, tag):
        if tag == "form":
            self.in_form = False
        elif tag == "ul":
            self.in_list = False
            self.in_alert = False
        elif tag == "li" and self.item is not None:
            self.lists[-1][2].append(" ".join(self.item.split()))
            self.item = None

    def handle_data(self, data):
        if self.item is not None:
            self.item += data


def errors_of(response):
    page = FormErrors()
    page.feed(response.content.decode())
    return page


def assert_refused_in_the_form(response, message, field_name, typed):
    """The form again, 429, its own error in a list in a role=alert box inside it, no flash."""
    assert response.status_code == 429
    assert 0 < int(response["Retry-After"]) <= 3600
    page = errors_of(response)
    assert len(page.lists) == 1, page.lists
    attrs, in_form, items = page.lists[0]
    # in a role=alert box: a list given a role of its own is no list to a screen reader
    assert attrs["in_alert"] and "role" not in attrs and attrs["class"] == "errorlist nonfield"
    assert in_form, "the error is said where the form's errors go"
    assert items == [message]
    assert not page.flash and not list(response.context["messages"])
    # what was typed is still there, to send again later
    assert re.search(rf'name="{field_name}"[^>]*value="{re.escape(typed)}"',
                     response.content.decode())


def test_a_reset_past_the_networks_limit_is_refused_in_the_form_and_sends_nothing(mailoutbox):
    user = UserFactory(email="player@example.com")
    client = Client(REMOTE_ADDR="203.0.113.20")
    with override_settings(STOPBUS_MAIL_REQUESTS_FROM_AN_IP=2):
        for n in range(2):
            response = client.post(RESET_URL, {"email": f"someone{n}@example.com"})
            assert response.status_code == 302
        response = client.post(RESET_URL, {"email": user.email})
    assert_refused_in_the_form(response, RESET_REFUSED, "email", user.email)
    assert response.context["form"].non_field_errors() == [RESET_REFUSED]
    assert mailoutbox == []
    # the next page, whatever it is, carries no leftover message about it
    assert "too many" not in client.get(RESET_URL).content.decode()


def test_sign_up_past_the_networks_limit_is_refused_the_same_way(mailoutbox):
    client = Client(REMOTE_ADDR="203.0.113.21")
    data = {"username": "newcomer", "email": "new@example.com",
            "password1": "stop-the-bus-2024!", "password2": "stop-the-bus-2024!"}
    with override_settings(STOPBUS_MAIL_REQUESTS_FROM_AN_IP=1):
        assert client.post(SIGNUP_URL, data).status_code == 302
        response = client.post(SIGNUP_URL, {**data, "email": "other@example.com"})
    assert_refused_in_the_form(response, SIGNUP_REFUSED, "email", "other@example.com")
    assert len(mailoutbox) == 1


def test_an_address_change_past_its_limit_is_a_429_too(mailoutbox):
    client = Client()
    client.force_login(UserFactory())
    with override_settings(STOPBUS_EMAIL_CHANGES_A_USER=1):
        assert client.post(reverse("accounts:profile"),
                           {"email": "new1@example.com"}).status_code == 302
        response = client.post(reverse("accounts:profile"), {"email": "new2@example.com"})
    assert response.status_code == 429 and "Retry-After" in response
    assert "too many times" in str(response.context["form"].errors["email"])
    assert len(mailoutbox) == 1


def test_a_refused_reset_is_said_in_japanese_to_a_japanese_reader():
    client = Client(REMOTE_ADDR="203.0.113.22", HTTP_ACCEPT_LANGUAGE="ja")
    with override_settings(STOPBUS_MAIL_REQUESTS_FROM_AN_IP=0):
        response = client.post(RESET_URL, {"email": "someone@example.com"})
    assert response.status_code == 429
    html = response.content.decode()
    assert '<html lang="ja">' in html
    assert "パスワード再設定の依頼が多すぎます" in html


def test_past_the_addresss_limit_a_reset_looks_like_any_other(mailoutbox):
    """Nothing tells a stranger whether the address has an account, or that it has had
    its share of mail this hour: the same redirect and the same page every time."""
    victim = UserFactory(email="victim@example.com")
    answers = set()
    with override_settings(STOPBUS_MAILS_TO_AN_ADDRESS=1):
        for n, email in enumerate([victim.email] * 4 + ["nobody@example.com"] * 2):
            client = Client(REMOTE_ADDR=f"198.51.100.{n + 1}")
            response = client.post(RESET_URL, {"email": email}, follow=True)
            html = response.content.decode()
            answers.add((response.redirect_chain[0], response.status_code,
                         re.sub(r"\b[A-Za-z0-9]{64}\b", "CSRF-TOKEN", html)))
    assert len(answers) == 1
    assert [m.to for m in mailoutbox] == [[victim.email]]


def test_a_refused_log_in_says_why_at_once(client, user):
    response = client.post(reverse("login"), {"username": user.username,
                                              "password": "not-the-password"})
    attrs, in_form, items = errors_of(response).lists[0]
    # said at once (a role=alert box round it), and still a list (no role of its own: the
    # outside accessibility probe's axe "listitem" finding)
    assert attrs["in_alert"] and "role" not in attrs and in_form
    assert items and "correct username and password" in items[0]


def test_a_fields_own_errors_stay_a_plain_list_tied_to_the_field(client):
    html = client.post(SIGNUP_URL, {"username": "", "email": "x"}).content.decode()
    field_errors = re.findall(r'<ul class="errorlist"[^>]*>', html)
    assert field_errors and all('role="alert"' not in ul for ul in field_errors)
    assert '<ul class="errorlist" id="id_username_error">' in html
    assert re.search(r'aria-describedby="[^"]*\bid_username_error\b', html)


# -- Japanese lines ---------------------------------------------------------------------------


def test_japanese_pages_say_so_and_english_ones_too():
    assert '<html lang="ja">' in Client(HTTP_ACCEPT_LANGUAGE="ja").get(RESET_URL) \
        .content.decode()
    assert '<html lang="en-gb">' in Client(HTTP_ACCEPT_LANGUAGE="en").get(RESET_URL) \
        .content.decode()


def css_rule(selector):
    css = re.sub(r"/\*.*?\*/", "", SITE_CSS.read_text(), flags=re.DOTALL)
    found = re.search(rf"(?:^|\}})\s*{re.escape(selector)}\s*\{{([^}}]*)\}}", css)
    assert found, f"no rule for {selector}"
    return dict(re.findall(r"([\w-]+)\s*:\s*([^;]+);", found.group(1)))


def test_japanese_lines_break_between_phrases_and_never_widen_the_page():
    rule = css_rule(":lang(ja)")
    assert rule["word-break"] == "auto-phrase"
    assert rule["line-break"] == "strict"
    # a phrase longer than the line still breaks (body's overflow-wrap is inherited)
    assert css_rule("body")["overflow-wrap"] in ("break-word", "anywhere")


def test_form_spacing_keeps_clear_of_the_focus_ring():
    """The ring is drawn --focus-ring wide, --focus-offset out; what sits next to a form
    control keeps --focus-clearance away, which is more than both together."""
    root = css_rule(":root")
    ring, offset = int(root["--focus-ring"].rstrip("px")), int(root["--focus-offset"].rstrip("px"))
    clearance = re.fullmatch(r"calc\(var\(--focus-ring\) \+ var\(--focus-offset\) \+ (\d+)px\)",
                             root["--focus-clearance"])
    assert clearance and int(clearance.group(1)) > 0 and ring + offset > 0
    focus = css_rule(":focus-visible")
    assert focus["outline"].startswith("var(--focus-ring)")
    assert focus["outline-offset"] == "var(--focus-offset)"
    assert css_rule(".stacked-form label")["margin-bottom"] == "var(--focus-clearance)"
    assert "var(--focus-clearance)" in css_rule(".stacked-form .helptext")["margin"]
    assert "var(--focus-clearance)" in css_rule(".errorlist")["margin"]
