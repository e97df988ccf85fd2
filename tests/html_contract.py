"""Checks on rendered HTML that every page with cards must pass."""

from functools import cache
from html.parser import HTMLParser

from django.conf import settings
from django.utils import translation

from games.engine.cards import parse_card
from games.event_text import card_name


@cache
def card_labels(card: int) -> frozenset[str]:
    """A card's name in every language the site speaks: a card's aria-label is one of them
    (the reader's)."""
    names = set()
    for code, _ in settings.LANGUAGES:
        with translation.override(code):
            names.add(card_name(card))
    return frozenset(names)


class _Cards(HTMLParser):
    def __init__(self):
        super().__init__()
        self.face_up = []  # (code, aria-label)
        self.face_down = 0
        self.problems = []
        self.ids = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.append(attrs["id"])
        classes = (attrs.get("class") or "").split()
        if "card" not in classes:
            return
        if "card--back" in classes:
            self.face_down += 1
            if "data-card" in attrs or "aria-label" in attrs:
                self.problems.append(f"a face-down card carries {attrs}")
            return
        code, label = attrs.get("data-card"), attrs.get("aria-label")
        if not code or not label:
            self.problems.append(f"a face-up card lacks data-card or aria-label: {attrs}")
            return
        if label not in card_labels(parse_card(code)):
            self.problems.append(f"{code} is labelled {label!r}")
        self.face_up.append(code)


def cards_in(html: str):
    """(face-up codes, number of face-down cards, element ids); asserts the contract."""
    parser = _Cards()
    parser.feed(html)
    assert not parser.problems, parser.problems
    return parser.face_up, parser.face_down, parser.ids
