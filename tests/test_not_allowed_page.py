"""A page opened at a button's address (the post-table probe: GET /tables/new/ was a
blank 405 page): a 405 still, naming the methods, with a page that says what happened in
the reader's language. Other methods stay empty 405s (tests/test_bad_urls.py)."""

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("language, words", [("en", "a button's, not a page's"),
                                             ("ja", "ボタンの送り先")])
def test_a_buttons_address_opened_says_so(user, language, words):
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    response = client.get("/tables/new/")
    assert response.status_code == 405
    assert "POST" in response["Allow"]
    page = response.content.decode()
    assert words in page and 'href="/"' in page


def test_htmx_and_other_methods_keep_the_bare_405(user):
    client = Client()
    client.force_login(user)
    assert client.get("/tables/new/", HTTP_HX_REQUEST="true").content == b""
    assert client.put("/tables/new/").content == b""


def test_a_guests_turns_page_does_not_ask_them_to_open_a_post_table(client):
    """The post-table probe: a guest's /turns said "Open one at your own pace in the lobby",
    though a guest may not open a post table; it says they are for registered players."""
    from tests.factories import UserFactory

    guest = UserFactory(is_guest=True)
    client.force_login(guest)
    page = client.get("/turns/").content.decode()
    assert "Post tables are for registered players" in page
    assert "Open one at your own pace" not in page
    member = UserFactory()
    client.force_login(member)
    assert "Open one at your own pace" in client.get("/turns/").content.decode()
