"""Cards and hands in the reader's language, for templates.

``{% load i18n_cards %}`` then ``{{ "QS"|card_name }}`` ("Queen of spades" /
"スペードのクイーン", for aria-label), ``{% hand_words category cards ranking %}``
("Run, Q-K-A" / "ラン（Q-K-A）") and ``{{ "run"|category_label }}``. The words come
from games/event_text.py, so the log, the showdown and the cards agree.
"""

from django import template
from django.conf import settings

from games import event_text, rules_text
from games.engine.brag.rules import BragRules

register = template.Library()


@register.filter
def card_name(card) -> str:
    """A card code ("QS"), engine int or {"code": ...} dict -> its name in words."""
    if isinstance(card, dict):
        card = card["code"]
    return event_text.card_name(card)


@register.filter
def category_label(category) -> str:
    return event_text.category_label(str(category))


@register.simple_tag
def hand_words(category, cards, ranking="brag") -> str:
    return event_text.hand_words(category, cards, ranking)


@register.filter
def rules_summary(rules) -> list[str]:
    """A variant's house rules (HouseRules or BragRules) in plain sentences in the reader's
    language."""
    if isinstance(rules, BragRules):
        return rules_text.describe_brag(rules)
    return rules_text.describe(rules)


@register.filter
def variant_name(variant) -> str:
    return rules_text.variant_name(variant)


@register.filter
def variant_description(variant) -> str:
    return rules_text.variant_description(variant)


@register.filter
def preset_text(text) -> str:
    """A stored variant name or description: a preset's own words translated, an admin's
    shown as written (for pages that have the name as a string, not the variant)."""
    return rules_text.translate_stored(str(text))


@register.simple_tag
def own_language_names():
    """(code, name) of every language the site speaks, each name in its own language
    (settings.LANGUAGES as written), for the language switch: a reader looking for
    their language must recognise it whatever the page's language is."""
    return list(settings.LANGUAGES)


@register.filter
def place_label(place) -> str:
    """A finishing place: "3rd" / "3位"."""
    return event_text.place_label(int(place))
