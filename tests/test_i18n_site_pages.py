"""The room's own pages, read whole in Japanese: no English sentence anywhere.

The lobby (signed in and out, with tables listed), the private-table page, the
profile, sign-up, log-in, the password pages and their email, the lock-out page and
the error pages, each from the <title> through the header and the footer. What stays
as it is in every language is taken out first: names (players, bots, tables, email
addresses), card codes, and any element marked as written in another language (the
language switch names each language in its own: "English").
"""

import re
from html.parser import HTMLParser

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.test import Client, RequestFactory
from django.urls import include, path, reverse
from django.utils import translation
from django.views import defaults

from games import actions
from games.templatetags.cards import initials
from tests.factories import PASSWORD, UserFactory, preset_variant, start_table_game
from tests.test_i18n_events import english_left

pytestmark = pytest.mark.django_db


def _broken_view(request):
    raise RuntimeError("a bug, to see the error page")


# The site's own URLs, and one page that fails (for test_a_failing_page_in_japanese).
urlpatterns = [path("broken/", _broken_view), path("", include("stopbus_site.urls"))]

READ_ATTRIBUTES = ("aria-label", "title", "placeholder", "alt")
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
        "source", "track", "wbr"}
NOT_READ = {"script", "style", "code", "svg"}


class PageText(HTMLParser):
    """What a reader of the whole page sees or hears: the title, text, read attributes
    and the words on buttons; less scripts, styles, code and icons, and less elements
    whose ``lang`` is not the page's own."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.page_lang = None
        self.skip = 0  # depth inside an element not read
        self.pieces = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "html":
            self.page_lang = attrs.get("lang")
            return
        other_language = "lang" in attrs and attrs["lang"] != self.page_lang
        if self.skip or tag in NOT_READ or other_language:
            if tag not in VOID:
                self.skip += 1
            return
        self._read(tag, attrs)

    def handle_startendtag(self, tag, attrs):
        if not self.skip:
            self._read(tag, dict(attrs))

    def _read(self, tag, attrs):
        self.pieces += [attrs[a] for a in READ_ATTRIBUTES if attrs.get(a)]
        if tag == "input" and attrs.get("type") in ("submit", "button") and attrs.get("value"):
            self.pieces.append(attrs["value"])

    def handle_endtag(self, tag):
        if self.skip and tag not in VOID:
            self.skip -= 1

    def handle_data(self, data):
        if not self.skip and data.strip():
            self.pieces.append(data)


def read_page(html: str) -> PageText:
    parser = PageText()
    parser.feed(html)
    parser.close()
    return parser


def english_on_page(html: str, names=()) -> list[str]:
    """Pieces of the page that still hold a Latin word once ``names`` are taken out."""
    page = read_page(html)
    assert page.pieces, "nothing to read on the page"
    found = []
    for piece in page.pieces:
        text = piece
        for name in sorted(names, key=len, reverse=True):
            text = text.replace(name, " ")
        if english_left(text):
            found.append(" ".join(piece.split()))
    return found


def ja_client(user=None) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="ja")
    if user is not None:
        client.force_login(user)
    return client


def page(client, url, status=200, method="get", data=None) -> str:
    response = getattr(client, method)(url, data or {})
    assert response.status_code == status, (url, response.status_code)
    assert response["Content-Language"] == "ja", url
    return response.content.decode()


def names_of(*users) -> set[str]:
    return {word for user in users for word in (user.username, user.email)}


@pytest.fixture
def room(db):
    """Two players, a public table with a bot in the lobby, and a private one."""
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    game = start_table_game([alice], bots=["greedy"], variant=preset_variant("classic"))
    waiting = actions.do_create_table(bob, name="Friday", variant=preset_variant("commerce"),
                                      seats=4)
    actions.do_add_bot(waiting, bob, "random")
    private = actions.do_create_table(bob, name="Hideaway", variant=preset_variant("classic"),
                                      seats=3, private=True)
    names = names_of(alice, bob) | {"Friday", "Hideaway", game.table.name}
    for table in (game.table, waiting, private):
        names |= {seat.display_name for seat in table.seat_set.all()}
    names |= {initials(name) for name in names}  # the avatars show a player's initials
    return {"alice": alice, "bob": bob, "game": game, "waiting": waiting,
            "private": private, "names": names}


def test_the_page_reader_sees_the_whole_page():
    html = ('<!doctype html><html lang="ja"><head><title>Lobby · ストップ</title>'
            '<script>let x = "not read";</script></head><body>'
            '<a href="#main">Skip to content</a><nav aria-label="Main"></nav>'
            '<button lang="en-gb">English</button><input type="submit" value="Send it">'
            '<input type="text" value="typed words"><code>manage.py simulate</code>'
            '<svg><use href="#suit-C"/></svg><footer><p>日本語 alice</p></footer></body></html>')
    assert english_on_page(html, {"alice"}) == [
        "Lobby · ストップ", "Skip to content", "Main", "Send it"]


def test_a_japanese_reader_is_served_html_lang_ja(client):
    html = page(ja_client(), reverse("games:lobby"))
    assert '<html lang="ja">' in html
    assert read_page(html).page_lang == "ja"
    english = client.get(reverse("games:lobby"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<html lang="en-gb">' in english


def test_a_saved_language_sets_html_lang_whatever_the_browser_says():
    player = UserFactory(language="ja")
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(player)
    assert '<html lang="ja">' in client.get(reverse("accounts:profile")).content.decode()


def test_the_lobby_signed_out_in_japanese(room):
    html = page(ja_client(), reverse("games:lobby"))
    assert english_on_page(html, room["names"]) == []
    for words in ("ロビー", "新規登録", "ログイン", "ルール", "1ハンドの流れ", "プライアル",
                  "参加できるテーブル", "ストップ・ザ・バス", "ホスト：bob"):
        assert words in html, words
    assert "Friday" in html and "Hideaway" not in html, "a private table is not listed"


def test_the_lobby_signed_in_in_japanese(room):
    html = page(ja_client(room["bob"]), reverse("games:lobby"))
    assert english_on_page(html, room["names"]) == []
    for words in ("おかえりなさい、<strong>bob</strong>さん。", "ボットと今すぐ遊ぶ",
                  "テーブルを開く", "参加者募集中", "プレイ中", "非公開",
                  "4席中2席が埋まっています", "プロフィール", "ログアウト", "自分の成績",
                  "各バリエーションのルール",
                  "（2〜6人、1手番45秒）"):
        assert words in html, words
    assert "Hideaway" in html, "the player's own private table is listed for them"


def test_the_lobby_with_no_tables_in_japanese():
    html = page(ja_client(), reverse("games:lobby"))
    assert "いま参加できるテーブルはありません。" in html
    assert english_on_page(html) == []
    player = UserFactory(username="carol")
    html = page(ja_client(player), reverse("games:lobby"))
    assert "テーブルを開くか、ボットと今すぐ遊びましょう。" in html
    assert english_on_page(html, names_of(player)) == []


def test_the_lobby_refusing_a_table_in_japanese(room):
    """A table form sent back with its errors: labels, help and errors in Japanese."""
    html = page(ja_client(room["alice"]), reverse("games:create_table"), status=400,
                method="post", data={"name": "", "variant": "", "seats": "99"})
    assert english_on_page(html, room["names"]) == []
    assert "席数" in html


def test_the_private_table_page_in_japanese(room):
    html = page(ja_client(room["alice"]), room["private"].get_absolute_url(), status=403)
    assert english_on_page(html, room["names"]) == []
    assert "このテーブルは非公開です" in html and "ロビーに戻る" in html


def test_the_profile_in_japanese(room):
    alice = room["alice"]
    html = page(ja_client(alice), reverse("accounts:profile"))
    assert english_on_page(html, room["names"]) == []
    joined = alice.date_joined
    assert f"{joined.year}年{joined.month}月{joined.day}日" in html, "the date, localised"
    for words in ("アカウント", "ユーザー名", "メールアドレス", "4色デッキ", "テーブルの効果音"):
        assert words in html, words


def test_the_profile_refusing_an_address_in_japanese(room):
    html = page(ja_client(room["alice"]), reverse("accounts:profile"), method="post",
                data={"email": "not an address"}, status=200)
    assert english_on_page(html, room["names"] | {"not an address"}) == []


def test_sign_up_and_log_in_in_japanese():
    client = ja_client()
    for url in (reverse("accounts:signup"), reverse("login")):
        html = page(client, url)
        assert english_on_page(html) == [], url
    assert "アカウントをお持ちの方は" in page(client, reverse("accounts:signup"))
    assert "パスワードをお忘れですか？" in page(client, reverse("login"))


def test_sign_up_and_log_in_errors_in_japanese():
    client = ja_client()
    html = page(client, reverse("accounts:signup"), method="post", data={
        "username": "newcomer", "email": "x", "password1": "a", "password2": "b"})
    assert english_on_page(html, {"newcomer"}) == []
    html = page(client, reverse("login"), method="post",
                data={"username": "nobody", "password": "wrong"})
    assert english_on_page(html, {"nobody"}) == []


def test_the_sign_up_email_in_japanese(mailoutbox):
    client = ja_client()
    client.post(reverse("accounts:signup"), {
        "username": "newcomer", "email": "newcomer@example.com",
        "password1": "stop-the-bus-2024!", "password2": "stop-the-bus-2024!"})
    [mail] = mailoutbox
    assert english_left(mail.subject) == []
    body = re.sub(r"https?://\S+", " ", mail.body).replace("newcomer", " ")
    assert english_left(body) == [], mail.body
    assert "2日以内に" in mail.body


def test_the_password_pages_and_email_in_japanese(mailoutbox):
    player = UserFactory(username="dora")
    names = names_of(player)
    client = ja_client()
    html = page(client, reverse("password_reset"))
    assert english_on_page(html, names) == []
    response = client.post(reverse("password_reset"), {"email": player.email}, follow=True)
    assert english_on_page(response.content.decode(), names) == []
    assert "メールを確認してください" in response.content.decode()

    [mail] = mailoutbox
    assert mail.subject == "ストップ・ザ・バスのパスワード再設定"
    path = re.search(r"http://testserver(/accounts/reset/\S+/)", mail.body).group(1)
    assert english_left(mail.body.replace(path, " ").replace("dora", " ")) == ["http",
                                                                              "testserver"]

    response = client.get(path, follow=True)
    form_url = response.redirect_chain[-1][0]
    assert english_on_page(response.content.decode(), names) == []
    assert "新しいパスワードの設定" in response.content.decode()
    response = client.post(form_url, {"new_password1": "fresh-deck-5",
                                      "new_password2": "fresh-deck-5"}, follow=True)
    html = response.content.decode()
    assert english_on_page(html, names) == [] and "パスワードを設定しました" in html

    html = page(client, path, status=200)  # used once: expired
    assert english_on_page(html, names) == [] and "このリンクは期限切れです" in html


def test_the_password_change_pages_in_japanese():
    player = UserFactory(username="erin")
    client = ja_client(player)
    html = page(client, reverse("password_change"))
    assert english_on_page(html, names_of(player)) == []
    response = client.post(reverse("password_change"), {
        "old_password": PASSWORD, "new_password1": "fresh-deck-5",
        "new_password2": "fresh-deck-5"}, follow=True)
    html = response.content.decode()
    assert english_on_page(html, names_of(player)) == [] and "パスワードを変更しました" in html


def test_the_lockout_page_in_japanese():
    player = UserFactory(username="fay")
    client = ja_client()
    for attempt in range(5):
        response = client.post(reverse("login"), {"username": "fay", "password": f"no-{attempt}"},
                               REMOTE_ADDR="203.0.113.9")
    assert response.status_code == 429
    html = response.content.decode()
    assert english_on_page(html, names_of(player)) == []
    assert "ログインの失敗が多すぎます。" in html


def test_the_error_pages_in_japanese(room):
    html = page(ja_client(room["alice"]), "/no-such-page/", status=404)
    assert english_on_page(html, room["names"]) == [] and "ページが見つかりません" in html

    request = RequestFactory().get("/somewhere/")
    request.user = AnonymousUser()
    with translation.override("ja"):
        forbidden = defaults.permission_denied(request, PermissionDenied()).content.decode()
        failed = defaults.server_error(request).content.decode()
    assert english_on_page(forbidden) == [] and "このテーブルには入れません" in forbidden
    assert english_on_page(failed) == [] and "ディーラーがカードを落としてしまいました" in failed
    assert '<html lang="ja">' in failed, "the error page needs no request to know the language"


@pytest.mark.urls(__name__)
def test_a_failing_page_in_japanese(caplog):
    """A bug on a page: the error page comes in the reader's language, even though it is
    rendered without the request."""
    client = Client(HTTP_ACCEPT_LANGUAGE="ja", raise_request_exception=False)
    response = client.get("/broken/")
    assert response.status_code == 500
    html = response.content.decode()
    assert '<html lang="ja">' in html and "ディーラーがカードを落としてしまいました" in html
    assert english_on_page(html) == []
    english = Client(raise_request_exception=False).get("/broken/").content.decode()
    assert "The dealer dropped the deck" in english and '<html lang="en-gb">' in english
