"""Every public page is a complete, well-formed HTML document."""

from html.parser import HTMLParser

import pytest
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db

VOID_ELEMENTS = {
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
    "source", "track", "wbr",
}  # fmt: skip


class DocumentOutline(HTMLParser):
    """Collects the doctype, the title and any tag that is closed out of order."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.doctype = None
        self.title = ""
        self.open_tags = []
        self.problems = []
        self.seen = set()

    def handle_decl(self, decl):
        self.doctype = decl

    def handle_starttag(self, tag, attrs):
        self.seen.add(tag)
        if tag not in VOID_ELEMENTS:
            self.open_tags.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.seen.add(tag)

    def handle_endtag(self, tag):
        if tag in VOID_ELEMENTS:
            return
        if not self.open_tags or self.open_tags[-1] != tag:
            self.problems.append(f"</{tag}> closes <{self.open_tags[-1:]}>")
            return
        self.open_tags.pop()

    def handle_data(self, data):
        # the document's title, not an inline SVG's <title> in the body
        if self.open_tags[-2:] == ["head", "title"]:
            self.title += data


def outline(html):
    parser = DocumentOutline()
    parser.feed(html)
    parser.close()
    return parser


def assert_well_formed(html, title):
    document = outline(html)
    assert document.doctype == "doctype html"
    assert document.problems == []
    assert document.open_tags == [], f"left open: {document.open_tags}"
    assert {"html", "head", "body", "header", "main", "footer", "nav"} <= document.seen
    assert " ".join(document.title.split()) == f"{title} · Stop the Bus"


@pytest.mark.parametrize(
    ("url", "title"),
    [
        ("/", "Lobby"),
        (reverse("games:rules"), "Rules"),
        (reverse("stats:leaderboard"), "Leaderboard"),
        (reverse("login"), "Log in"),
        (reverse("accounts:signup"), "Sign up"),
        (reverse("password_reset"), "Reset your password"),
        (reverse("password_reset_done"), "Check your email"),
        (reverse("password_reset_complete"), "Password set"),
    ],
)
def test_public_pages(client, url, title):
    response = client.get(url)

    assert response.status_code == 200
    assert response["Content-Type"] == "text/html; charset=utf-8"
    assert_well_formed(response.content.decode(), title)


@pytest.mark.parametrize(
    ("url", "title"),
    [
        (reverse("accounts:profile"), "Your profile"),
        (reverse("stats:mine"), "My stats"),
        (reverse("password_change"), "Change password"),
        (reverse("password_change_done"), "Password changed"),
    ],
)
def test_logged_in_pages(user_client, url, title):
    response = user_client.get(url)

    assert response.status_code == 200
    assert_well_formed(response.content.decode(), title)


def test_base_layout_essentials(client):
    html = client.get("/").content.decode()

    assert '<html lang="en-gb">' in html, "the active language: British English by default"
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html
    assert 'href="#main">Skip to content</a>' in html
    assert '<link rel="stylesheet" href="/static/css/site.css">' in html
    assert '<script src="/static/django_htmx/htmx-2.min.js" defer></script>' in html


def test_anonymous_home_invites_sign_up(client):
    html = client.get("/").content.decode()
    assert f'href="{reverse("accounts:signup")}"' in html
    assert "Log out" not in html


def test_logged_in_home_welcomes_the_player(user_client, user):
    html = user_client.get("/").content.decode()
    assert f"Welcome back, <strong>{user.username}</strong>" in html
    assert "Log out" in html
    assert "Sign up" not in html


def test_admin_link_only_for_staff(client, user, user_client):
    assert "/admin/" not in user_client.get("/").content.decode()
    user.is_staff = True
    user.save()
    assert 'href="/admin/"' in user_client.get("/").content.decode()


def test_header_and_footer_link_stats_and_rules(user_client, client):
    html = user_client.get("/").content.decode()
    assert f'href="{reverse("stats:mine")}"' in html and "My stats" in html
    assert f'href="{reverse("games:rules")}">Rules<' in html
    assert "My stats" not in Client().get("/").content.decode(), "only for people signed in"


def test_flash_messages_partial_renders_alone():
    html = render_to_string("base.html#flash-messages").strip()
    assert html.startswith('<div id="messages"')
    assert "<body" not in html


def test_404_uses_our_template(client):
    response = client.get("/no-such-table/")

    assert response.status_code == 404
    assert "No such card in this deck" in response.content.decode()
    assert_well_formed(response.content.decode(), "Page not found")


def test_500_renders_without_a_request():
    html = render_to_string("500.html")
    assert "The dealer dropped the deck" in html
    assert_well_formed(html, "Something went wrong")


def test_403_template():
    html = render_to_string("403.html")
    assert_well_formed(html, "Not allowed")


def test_htmx_static_files_are_served(client):
    for path in ("/static/django_htmx/htmx-2.min.js", "/static/django_htmx/ext/hx-ws-2.min.js"):
        response = client.get(path)
        assert response.status_code == 200, path
        assert b"".join(response.streaming_content)


def test_site_css_is_served(client):
    response = client.get("/static/css/site.css")
    assert response.status_code == 200
    assert b".card-panel" in b"".join(response.streaming_content)
