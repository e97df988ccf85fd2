"""The pages translated so far, rendered in Japanese, hold no English sentence.

Checked: the rules page and every stats page (profile, my stats, leaderboard,
history, head-to-head, replays at every kind of step), read whole: the title, the
header, the main content and the footer. The card tag's aria-labels are being
rewritten by others and get their translations in a later pass, so elements with
data-card are left out; so is an element written in another language on purpose
(the language switch names each language in its own). Names (players, bots,
tables), card codes and runs of ranks are not English sentences and are taken out
first. The room's other pages are read the same way in test_i18n_site_pages.py.
"""

import re
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from games.models import Action, GamePlayer
from tests.factories import UserFactory, finished_game, preset_variant
from tests.test_i18n_events import english_left

pytestmark = pytest.mark.django_db

# Proper names and technical words that stay as they are in Japanese.
KEPT_WORDS = re.compile(r"SHA-256|OpenSkill|Plackett-Luce|pagat\.com|seed \d+|Python")
READ_ATTRIBUTES = ("aria-label", "title", "placeholder", "alt")


class MainText(HTMLParser):
    """What a reader of the page sees or hears: text and read attributes, less code
    blocks (hashes, decks), face-up cards (the card tag is not translated yet) and
    elements whose ``lang`` is not the page's own."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.depth = 0  # inside <html>
        self.page_lang = None
        self.skip = 0
        self.pieces = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "html":
            self.depth += 1
            self.page_lang = attrs.get("lang")
            return
        if not self.depth:
            return
        other_language = "lang" in attrs and attrs["lang"] != self.page_lang
        if (self.skip or tag in ("code", "script", "style") or "data-card" in attrs
                or other_language):
            if tag not in ("br", "img", "input", "link", "meta"):
                self.skip += 1
            return
        self.pieces += [attrs[a] for a in READ_ATTRIBUTES if attrs.get(a)]

    def handle_startendtag(self, tag, attrs):
        if self.depth and not self.skip:
            attrs = dict(attrs)
            self.pieces += [attrs[a] for a in READ_ATTRIBUTES if attrs.get(a)]

    def handle_endtag(self, tag):
        if self.skip:
            self.skip -= 1
        elif tag == "html" and self.depth:
            self.depth -= 1

    def handle_data(self, data):
        if self.depth and not self.skip and data.strip():
            self.pieces.append(data)


def english_on(html: str, names) -> list[str]:
    parser = MainText()
    parser.feed(html)
    parser.close()
    assert parser.pieces, "no page content found"
    found = []
    for piece in parser.pieces:
        text = KEPT_WORDS.sub(" ", piece)
        for name in sorted(names, key=len, reverse=True):
            text = text.replace(name, " ")
        if english_left(text):
            found.append(piece.strip())
    return found


def get_ja(client, url):
    response = client.get(url, HTTP_ACCEPT_LANGUAGE="ja")
    assert response.status_code == 200, url
    assert response["Content-Language"] == "ja"
    return response.content.decode()


@pytest.fixture
def played(db):
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    game = finished_game([alice, bob], bots=["random"])
    names = {"alice", "bob", game.table.name}
    names |= set(GamePlayer.objects.filter(game=game).values_list("name", flat=True))
    return game, names


def test_the_rules_page_in_japanese(client):
    for slug in ("classic", "commerce", "thirty-one-blitz", "race-to-five"):
        preset_variant(slug)
    html = get_ja(client, reverse("games:rules"))
    assert english_on(html, set()) == []
    assert "ストップ・ザ・バスの遊び方" in html
    assert "ランニング・フラッシュ" in html and "ストップ・ザ・バス（クラシック）" in html


def test_the_rules_page_in_english_is_unchanged(client):
    preset_variant("classic")
    html = client.get(reverse("games:rules")).content.decode()
    assert "How to play Stop the Bus" in html
    assert "Three cards lie face up in the middle; on your turn swap one of your cards" in html
    assert "Stop the Bus (classic)" in html


def test_stats_pages_in_japanese(client, played):
    game, names = played
    client.force_login(game.players.get(seat=0).user)
    pages = [
        reverse("stats:mine"),
        reverse("stats:profile", args=["bob"]),
        reverse("stats:profile", args=["bob"]) + f"?variant={game.variant.slug}",
        reverse("stats:leaderboard"),
        reverse("stats:history", args=["alice"]),
        reverse("stats:head_to_head", args=["alice", "bob"]),
    ]
    for url in pages:
        html = get_ja(client, url)
        assert english_on(html, names) == [], url
    assert "ゲームの数え方" in get_ja(client, reverse("stats:leaderboard"))


def test_a_profile_with_no_games_in_japanese(client):
    UserFactory(username="carol")
    html = get_ja(client, reverse("stats:profile", args=["carol"]))
    assert english_on(html, {"carol"}) == []
    assert "carolはまだゲームを終えていません。" in html


def test_replays_in_japanese_at_every_kind_of_step(client, played):
    game, names = played
    kinds = {}
    for seq, events in Action.objects.filter(game=game).values_list("seq", "events"):
        for event in events:
            kinds.setdefault(event["kind"], seq)
    assert {"deal", "showdown", "game_over"} <= set(kinds)
    last = Action.objects.filter(game=game).order_by("-seq").values_list("seq", flat=True)[0]
    for step in sorted({0, 1, *kinds.values(), last}):
        html = get_ja(client, reverse("stats:replay", args=[game.pk]) + f"?step={step}")
        assert english_on(html, names) == [], step
    html = get_ja(client, reverse("stats:replay", args=[game.pk]) + f"?step={kinds['showdown']}")
    assert "ショーダウン" in html


def test_the_page_check_sees_english():
    html = ('<html lang="ja"><head><title>Rules</title></head><main><p>さくらのカード</p>'
            '<p title="Close it">x</p><code>deadbeef words</code>'
            '<span data-card="QS" aria-label="Queen of spades"></span></main>'
            '<footer><button lang="en-gb">English</button>Stop the Bus</footer></html>')
    assert english_on(html, set()) == ["Rules", "Close it", "Stop the Bus"]
    assert english_on("<html><main><p>Hand 3: alice deals.</p></main></html>", {"alice"}) == [
        "Hand 3: alice deals."]


def test_a_brag_replay_in_japanese_at_every_step(client):
    """Brag's log on its replay page is written per reader too, not as stored."""
    from tests.test_brag_stats import finished_brag_game

    game, ann, bob = finished_brag_game(seed=3, hands=3)
    names = {p.name for p in game.players.all()} | {
        "ann", "bob", game.table.name, game.variant.name}
    client.force_login(ann)
    steps = list(Action.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))
    for step in steps:
        html = get_ja(client, reverse("stats:replay", args=[game.pk]) + f"?step={step}")
        html = re.sub(r"\b[0-9a-f]{12,64}\b", "", html)  # commitments and salts: digits
        assert english_on(html, names) == [], step
    english = client.get(reverse("stats:replay", args=[game.pk]) + f"?step={steps[1]}",
                         HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "ann" in english
