"""Cards in HTML.

Every face-up card carries ``data-card`` with its code and an ``aria-label``
with its name; a face-down card carries neither (it is ``aria-hidden``: the
count is said in words next to it). These tags are the only place card markup
is written, so the contract holds everywhere.

A table page is rendered again for every viewer after every move, so the tags
here are cheap: a card's markup is built once per process, and a seat's box
(``seat_box``), the same for everyone who sees it and mostly unchanged from one
move to the next, is rendered once per distinct content.
"""

from functools import lru_cache
from html import escape  # what Django's escape does, without its lazy-string wrapper

from django import template
from django.template.loader import get_template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe

from games.engine.cards import NAMES, RANK_CODES, SUIT_SYMBOLS, parse_card

register = template.Library()


def _key(card):
    """``card`` is a code ("QS"), an engine card int, or a {"code", "name"} dict."""
    return card["code"] if isinstance(card, dict) else card


@lru_cache(maxsize=1024)
def _parts(card):
    c = parse_card(card)
    code = RANK_CODES[c >> 2] + "CDHS"[c & 3]
    colour = "red" if (c & 3) in (1, 2) else "black"
    return c, code, colour


@lru_cache(maxsize=1024)
def _card_html(card, extra_class):
    c, code, colour = _parts(card)
    return format_html(
        '<span class="card card--{} {}" data-card="{}" aria-label="{}" role="img">'
        '<span class="card__rank" aria-hidden="true">{}</span>'
        '<span class="card__suit" aria-hidden="true">{}</span></span>',
        colour, extra_class, code, NAMES[c], RANK_CODES[c >> 2], SUIT_SYMBOLS[c & 3])


@register.simple_tag
def card(card, extra_class=""):
    return _card_html(_key(card), extra_class)


@lru_cache(maxsize=64)
def _backs_html(count, extra_class):
    return format_html_join(
        "", '<span class="card card--back {}" aria-hidden="true"></span>',
        ((extra_class,) for _ in range(count)))


@register.simple_tag
def card_backs(count, extra_class=""):
    """``count`` face-down cards: no code, no name."""
    return _backs_html(int(count or 0), extra_class)


@lru_cache(maxsize=4096)
def _choice_html(card, name, kind, form):
    c, code, colour = _parts(card)
    form_attr = format_html(' form="{}"', form) if form else ""
    return format_html(
        '<label class="pick"><input class="pick__input" type="{}" name="{}" value="{}"{}>'
        '{}</label>', kind, name, code, form_attr, card_tag(code))


@register.simple_tag
def card_choice(card, name, kind="radio", form=""):
    """A card the player can pick in a form: a real, keyboard-usable input in a label."""
    return _choice_html(_key(card), name, kind, form)


def card_tag(code):
    return card(code)


@register.filter
def suit_symbol(code):
    return SUIT_SYMBOLS[parse_card(code) & 3]


# -- the board's repeated parts ------------------------------------------------------------------

_SEATS: dict = {}
_SEATS_MAX = 8192


def _frozen(value):
    if isinstance(value, dict):
        return tuple((k, _frozen(v)) for k, v in value.items())
    if isinstance(value, list | tuple):
        return tuple(_frozen(v) for v in value)
    return value


def _memo(template_name: str, p: dict, scoring: str):
    key = (template_name, scoring, _frozen(p))
    html = _SEATS.get(key)
    if html is None:
        html = mark_safe(get_template(template_name).render(  # noqa: S308 -- a template's output
            {"p": p, "view": {"scoring": scoring}}))
        if len(_SEATS) >= _SEATS_MAX:
            _SEATS.clear()
        _SEATS[key] = html
    return html


@register.simple_tag
def seat_box(p, scoring):
    """One player's box (``games/_seat.html``), which sees only ``p`` and the scoring.

    Every viewer but its owner shows the same box, and most boxes stay the same
    from one move to the next: each distinct one is rendered once per process.
    """
    return _memo("games/_seat.html", p, scoring)


@register.simple_tag
def seat_badges(p, scoring):
    """A player's badges (``games/_seat_badges.html``): lives, dealer, turn..."""
    return _memo("games/_seat_badges.html", p, scoring)


@register.simple_tag
def log_entries(events):
    """The game log's rows, newest first: ``events`` is [(seq, text, kind)]. Each row's
    id (its action's number and its place among that action's events) lets a page be
    sent only the new rows (``games.render``)."""
    rows, count = [], {}
    for seq, text, kind in events:
        n = count[seq] = count.get(seq, -1) + 1
        rows.append(f'<li class="log__item log__item--{escape(str(kind))}" id="log-{seq}-{n}">'
                    f'{escape(str(text))}</li>')
    return mark_safe("".join(reversed(rows)))  # noqa: S308 -- every value is escaped
