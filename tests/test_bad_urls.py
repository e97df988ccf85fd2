"""Every URL pattern, fed a NUL or text that is not UTF-8, answers 4xx and never 500.

The probe's ``/u/%00/`` was a 500 on PostgreSQL (text there cannot hold NUL) and a
plain 404 on SQLite, so the walk runs on whichever database the run uses, and once
more marked ``postgres`` so CI cannot pass it on SQLite alone.
"""

import re

import pytest
from django.db import connection
from django.test import Client
from django.urls import URLResolver, get_resolver
from django.urls.resolvers import RegexPattern

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

NUL = ["%00", "a%00b", "%00%00%00%00%00%00%00%00%00"]
NOT_UTF8 = ["%FF", "a%C0%80b", "%ED%A0%80", "%E2%82"]  # a stray byte, overlong, surrogate, cut
ANSWERS = {301, 302, 400, 403, 404, 405}
PARAMETER = re.compile(r"<(?:(?P<kind>\w+):)?\w+>|\(\?P<\w+>[^)]*\)")


def routes(resolver=None, prefix=""):
    """Every pattern's route as text, its parameters still in place."""
    resolver = resolver or get_resolver()
    for entry in resolver.url_patterns:
        text = str(entry.pattern)
        if isinstance(entry.pattern, RegexPattern):
            text = text.removeprefix("^").removesuffix("$").removesuffix(r"\Z")
        if isinstance(entry, URLResolver):
            yield from routes(entry, prefix + text)
        else:
            yield prefix + text


def plausible(match) -> str:
    """A value for a route's parameter that names nothing odd."""
    return "1" if match.group("kind") == "int" else "x1"


def urls_with(value):
    """Each route with ``value`` in one parameter at a time (the others plausible);
    a route without parameters gets it in its query string. Yields (url, in the path)."""
    for route in sorted(set(routes())):
        found = list(PARAMETER.finditer(route))
        if not found:
            yield f"/{route}?q={value}", False
        for target in found:
            def fill(match, target=target):
                return value if match.start() == target.start() else plausible(match)

            yield "/" + PARAMETER.sub(fill, route), True


def clients():
    anonymous = Client(raise_request_exception=False)
    player = Client(raise_request_exception=False)
    player.force_login(UserFactory())
    staff = Client(raise_request_exception=False)
    staff.force_login(UserFactory(is_staff=True, is_superuser=True))
    return {"anonymous": anonymous, "player": player, "staff": staff}


def walk():
    problems = []
    visitors = clients()
    for value in NUL + NOT_UTF8:
        for url, in_path in urls_with(value):
            for who, client in visitors.items():
                response = client.get(url)
                status = response.status_code
                # not UTF-8 in a query string is read with replacement characters: any page
                allowed = {400} if value in NUL else ANSWERS if in_path else ANSWERS | {200}
                if url.startswith("/accounts/reset/") and b"That link has expired" in \
                        response.content:
                    allowed = allowed | {200}  # Django's page for every unusable reset link
                if status not in allowed:
                    problems.append(f"{who} GET {url}: {status}")
                if value in NUL:
                    posted = client.post(url, {"name": "x"}).status_code
                    if posted != 400:
                        problems.append(f"{who} POST {url}: {posted}")
    # the same in the query string and in a cookie, on a page that exists
    for value in NUL:
        for query in ("step", "page", "variant", "next", "q", value):
            url = f"/u/x1/games/?{query}={value}"
            status = visitors["player"].get(url).status_code
            if status != 400:
                problems.append(f"GET {url}: {status}")
    cookied = Client(raise_request_exception=False)
    cookied.cookies["sessionid"] = "abcdefgh\x00ijklmnop"
    if (status := cookied.get("/").status_code) != 400:
        problems.append(f"session cookie with a NUL: {status}")
    return problems


def test_the_walk_covers_the_patterns_with_strings():
    urls = {url for url, _ in urls_with("%00")}
    assert "/u/%00/" in urls and "/u/%00/vs/x1/" in urls and "/u/x1/vs/%00/" in urls
    assert "/invite/%00/" in urls and "/accounts/reset/%00/x1/" in urls
    assert any(url.startswith("/admin/") for url in urls)


def test_every_url_with_a_nul_or_bad_text_is_a_4xx():
    UserFactory(username="x1")
    assert walk() == []


@pytest.mark.postgres
def test_every_url_with_a_nul_or_bad_text_is_a_4xx_on_postgresql():
    assert connection.vendor == "postgresql"
    UserFactory(username="x1")
    assert walk() == []


def walk_forms():
    """Every route posted a form whose field holds a NUL, by each visitor: a 400, whatever
    the field (the probe's ``player=a%00b`` to a table's invite was a 500 on PostgreSQL)."""
    problems = []
    for who, client in clients().items():
        for route in sorted(set(routes())):
            url = "/" + PARAMETER.sub(plausible, route)
            for form in ({"player": "a\x00b"}, {"name\x00": "x"}, {"next": "/", "x": "\x00"}):
                status = client.post(url, form).status_code
                if status != 400:
                    problems.append(f"{who} POST {url} {sorted(form)}: {status}")
    return problems


def test_a_form_field_with_a_nul_is_a_400_everywhere():
    UserFactory(username="x1")
    assert walk_forms() == []


@pytest.mark.postgres
def test_a_form_field_with_a_nul_is_a_400_everywhere_on_postgresql():
    assert connection.vendor == "postgresql"
    UserFactory(username="x1")
    assert walk_forms() == []


def test_an_invitation_by_a_name_holding_a_nul_changes_nothing(client):
    from games import actions
    from games.models import Invitation
    from tests.factories import preset_variant

    host = UserFactory()
    table = actions.do_create_table(host, name="Oak", variant=preset_variant(), seats=4,
                                    private=True)
    client.force_login(host)
    response = client.post(f"/t/{table.pk}/invite/", {"player": "a\x00b"})
    assert response.status_code == 400
    assert not Invitation.objects.exists()


# a number past any integer column (a 64-bit one ends at 9223372036854775807)
HUGE = ["99999999999999999999", "9223372036854775808", "2147483648"]


def walk_numbers():
    """Each route with a number too large for its column in one parameter at a time,
    fetched and posted by each visitor: never a 500."""
    problems = []
    visitors = clients()
    for value in HUGE:
        for url, _ in urls_with(value):
            for who, client in visitors.items():
                for method in (client.get, client.post):
                    status = method(url).status_code
                    if status >= 500:
                        problems.append(f"{who} {method.__name__.upper()} {url}: {status}")
    return problems


def test_every_url_with_a_number_too_large_for_its_column_is_no_500():
    UserFactory(username="x1")
    assert walk_numbers() == []


@pytest.mark.postgres
def test_every_url_with_a_number_too_large_for_its_column_is_no_500_on_postgresql():
    assert connection.vendor == "postgresql"
    UserFactory(username="x1")
    assert walk_numbers() == []


ODD_METHODS = ["PUT", "DELETE", "PATCH", "TRACE", "PROPFIND", "CONNECT", "BREW"]


def test_a_method_no_page_takes_is_a_405_everywhere_and_options_names_those_it_does():
    """Every route, for a visitor, a player and staff, with a valid CSRF token: PUT,
    DELETE, TRACE and the like are a 405 naming GET, HEAD and POST, and nothing is
    rendered or changed; OPTIONS names the methods and sends no page."""
    from django.contrib.auth import get_user_model

    visitors = clients()
    users = get_user_model().objects.count()
    for client in visitors.values():
        client.get("/")
        token = client.cookies.get("csrftoken")
        headers = {"HTTP_X_CSRFTOKEN": token.value} if token else {}
        for route in sorted(set(routes())):
            url = "/" + PARAMETER.sub(plausible, route)
            for method in ODD_METHODS:
                response = client.generic(method, url, **headers)
                assert response.status_code == 405, (method, url, response.status_code)
                assert response["Allow"] == "GET, HEAD, POST", (method, url)
                assert response.content == b""
            response = client.options(url)
            assert response.status_code == 200 and response.content == b"", url
            assert response["Allow"] == "GET, HEAD, POST, OPTIONS"
    assert get_user_model().objects.count() == users


def test_a_page_that_is_only_read_refuses_a_post(client, user):
    """The lobby, a table, a profile, the rules, the stats: read with GET (and HEAD),
    never answered as if a POST were a read."""
    from games.models import Table
    from tests.factories import preset_variant

    table = Table.objects.create(name="Oak", variant=preset_variant(), host=user, seats=4)
    client.force_login(user)
    for url in ["/", table.get_absolute_url(), f"/u/{user.username}/", "/rules/",
                "/leaderboard/", f"/u/{user.username}/games/"]:
        assert client.get(url).status_code == 200, url
        assert client.head(url).status_code == 200, url
        assert client.post(url).status_code == 405, url
