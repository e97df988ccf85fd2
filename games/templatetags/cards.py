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

import re
import zlib
from functools import lru_cache
from html import escape  # what Django's escape does, without its lazy-string wrapper

from django import template
from django.template.loader import get_template
from django.utils import translation
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe

from games.bot_names import colour_key
from games.engine.cards import RANK_CODES, SUIT_SYMBOLS, parse_card
from games.event_text import card_name

register = template.Library()


def _key(card):
    """``card`` is a code ("QS"), an engine card int, or a {"code", "name"} dict."""
    return card["code"] if isinstance(card, dict) else card


@lru_cache(maxsize=1024)
def _parts(card):
    c = parse_card(card)
    return c, RANK_CODES[c >> 2] + "CDHS"[c & 3]


# One card face is one empty span: its code (``data-card``) and its name (``aria-label``)
# are the contract, and table.css draws the face from the code -- the rank in the corners,
# the suit's pip (a cached static SVG, so no suit font is needed) in the corners and the
# middle. A card costs under a hundred bytes, which is most of what a move sends. Its name
# is said in the reader's language ("Queen of spades", "スペードのクイーン"), so the markup is
# kept per language.
@lru_cache(maxsize=4096)
def _card_html(card, extra_class, language):
    c, code = _parts(card)
    return format_html('<span class="card{}" data-card="{}" aria-label="{}" role="img"></span>',
                       f" {extra_class}" if extra_class else "", code, card_name(c))


@register.simple_tag
def card(card, extra_class=""):
    return _card_html(_key(card), extra_class, translation.get_language())


@lru_cache(maxsize=64)
def _backs_html(count, extra_class):
    return format_html_join(
        "", '<span class="card card--back{}" aria-hidden="true"></span>',
        ((f" {extra_class}" if extra_class else "",) for _ in range(count)))


@register.simple_tag
def card_backs(count, extra_class=""):
    """``count`` face-down cards: no code, no name."""
    return _backs_html(int(count or 0), extra_class)


@lru_cache(maxsize=8192)
def _choice_html(card, name, kind, form, language):
    c, code = _parts(card)
    form_attr = format_html(' form="{}"', form) if form else ""
    return format_html(
        '<label class="pick"><input class="pick__input" type="{}" name="{}" value="{}"{}>'
        '{}</label>', kind, name, code, form_attr, card_tag(code))


@register.simple_tag
def card_choice(card, name, kind="radio", form=""):
    """A card the player can pick in a form: a real, keyboard-usable input in a label."""
    return _choice_html(_key(card), name, kind, form, translation.get_language())


def card_tag(code):
    return card(code)


@register.filter
def suit_symbol(code):
    return SUIT_SYMBOLS[parse_card(code) & 3]


# -- the board's repeated parts ------------------------------------------------------------------

_SEATS: dict = {}
_SEATS_MAX = 8192


# A seat is drawn the same whoever is to play (table.js marks the seat to play from the
# status) and whoever still has a turn after a stop (the bus says who), so neither is part
# of what its box is keyed by.
_NOT_SHOWN = frozenset({"turn", "final_turn_left"})


def _memo(template_name: str, p: dict, scoring: str):
    # in the reader's language: two readers of one seat in two languages get two boxes
    # a seat's entry is plain data (words, numbers, cards, lists and dicts of them), which
    # its repr spells out exactly, and far faster than walking it
    key = (template_name, translation.get_language(), scoring,
           repr([(k, v) for k, v in p.items() if k not in _NOT_SHOWN]))
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
def memo_box(template_name, p):
    """A seat's box drawn by ``template_name`` (which sees only ``p``), each distinct one
    rendered once per process, like :func:`seat_box` (a kind's own seat template)."""
    return _memo(template_name, p, "")


@register.simple_tag
def seat_badges(p, scoring):
    """A player's badges (``games/_seat_badges.html``): lives, dealer, turn..."""
    return _memo("games/_seat_badges.html", p, scoring)


# a card code standing on its own among ASCII letters and digits: Japanese sentences put
# their words right against it ("最初の捨て札は6Cです"), where a word boundary (\b, which
# counts kana and kanji as word characters) would not be found
_CODE_IN_TEXT = re.compile(r"(?<![0-9A-Za-z])(10|[2-9JQKA])([CDHS])(?![0-9A-Za-z])")
_SUIT_OF = dict(zip("CDHS", SUIT_SYMBOLS, strict=True))


def _pretty(text: str) -> str:
    return _CODE_IN_TEXT.sub(lambda m: m.group(1) + _SUIT_OF[m.group(2)], text)


@register.filter
def pretty_card(code):
    """"QD" -> "Q♦": how people write cards."""
    return _pretty(str(code))


@lru_cache(maxsize=16384)
def _log_words(text: str) -> str:
    """A log sentence as its row shows it (cards drawn as people write them, escaped):
    each sentence is shown in many boards, one after another."""
    return escape(_pretty(text))


@register.simple_tag
def log_entries(events):
    """The game log's rows, newest first: ``events`` is [(seq, text, kind)], cards as the
    engine writes them ("QD") shown as people write them ("Q\u2666"). Each row's id (its
    action's number and its place among that action's events, counted from the action's
    last event, so that it stays the same when the list's oldest rows are cut off, even
    in the middle of an action) lets a page be sent only the new rows (``games.render``)."""
    rows, count = [], {}
    for seq, text, kind in reversed(events):
        # a player leaving is logged under the last move's number, after its events: its
        # rows are counted apart, so that the move's rows keep their ids
        left = kind == "left"
        n = count[seq, left] = count.get((seq, left), -1) + 1
        row_id = f"log-{seq}-left-{n}" if left else f"log-{seq}-{n}"
        rows.append(f'<li class="log__item log__item--{escape(str(kind))}" id="{row_id}">'
                    f'{_log_words(str(text))}</li>')
    return mark_safe("".join(rows))  # noqa: S308 -- every value is escaped


# -- icons: inline SVG (an emoji such as the bus stop is a blank box without an emoji font) -------

_ICONS = {
    "bus": '<rect x="4" y="3" width="16" height="14" rx="3"/><path d="M4 11h16M8 3v8M16 3v8"/>'
           '<circle cx="8" cy="20" r="1.6"/><circle cx="16" cy="20" r="1.6"/>',
    "clock": '<circle cx="12" cy="12" r="9"/><path d="M12 7v5l3 2"/>',
    "door": '<path d="M14 4H6v16h8M10 12h10M17 9l3 3-3 3"/>',
    "shield": '<path d="M12 3l8 3v6c0 5-3.5 8-8 9-4.5-1-8-4-8-9V6z"/><path d="M9 12l2 2 4-4"/>',
    "swap": '<path d="M4 8h14l-3-3M20 16H6l3 3"/>',
    "trophy": '<path d="M8 4h8v5a4 4 0 0 1-8 0zM8 6H4c0 3 2 4 4 4M16 6h4c0 3-2 4-4 4M12 13v4'
              'M8 20h8"/>',
    "sound": '<path d="M4 9v6h4l5 4V5L8 9z"/>'
             '<path d="M16 9a4 4 0 0 1 0 6M18.5 6.5a8 8 0 0 1 0 11"/>',
    "mute": '<path d="M4 9v6h4l5 4V5L8 9z"/><path d="M16 9l5 6M21 9l-5 6"/>',
    "bell": '<path d="M6 16V11a6 6 0 0 1 12 0v5l2 2H4zM10 20a2 2 0 0 0 4 0"/>',
    "bell-off": '<path d="M6 16V11a6 6 0 0 1 12 0v5l2 2H4zM10 20a2 2 0 0 0 4 0M3 3l18 18"/>',
    "keys": '<rect x="2" y="6" width="20" height="12" rx="2"/><path d="M6 10h1M10 10h1M14 10h1'
            'M18 10h0M7 14h10"/>',
    "bot": '<rect x="5" y="8" width="14" height="11" rx="3"/><path d="M12 4v4M9 13h0M15 13h0"/>',
    "users": '<circle cx="9" cy="8" r="3.5"/><path d="M2 20c0-4 3-6 7-6s7 2 7 6"/>'
             '<path d="M16 4.5a3.5 3.5 0 0 1 0 7M18 14c2.5.7 4 2.6 4 6"/>',
}


@register.simple_tag
def icon(name):
    """A small line icon in the text's colour; decorative (the words beside it say it).
    It names its symbol in the page's sprite (``icon_symbols``), drawn once per page."""
    if name not in _ICONS:
        raise template.TemplateSyntaxError(f"no icon {name!r}")
    return mark_safe(  # noqa: S308 -- a name from the table above
        f'<svg class="icon icon--{name}" aria-hidden="true" focusable="false">'
        f'<use href="#icon-{name}"/></svg>')


@register.simple_tag
def icon_symbols():
    """Every icon as a <symbol> for the page's sprite (``_sprite.html``)."""
    return mark_safe("".join(  # noqa: S308 -- fixed markup from the table above
        f'<symbol id="icon-{name}" viewBox="0 0 24 24">{paths}</symbol>'
        for name, paths in _ICONS.items()))


# -- seats: avatars and places around the table ---------------------------------------------------

AVATAR_COLOURS = 12  # .avatar--c0 … --c11 in table.css: no inline style (CSP)


@register.filter
def initials(name):
    """"alice" -> "al"; "Bot for bob" -> "bb"; a numbered bot by its first letter and its
    number, so that the bots of a standings list tell apart: "Casual bot 2" -> "c2",
    "カジュアル・ボット3" -> "カ3" (an older game's "Greedy bot 3" -> "g3").

    Lower case, shown in capitals by CSS: "AS" (Ash Smith) in the page's text would read
    as the ace of spades to anything that checks which cards a page names."""
    text = str(name).strip()
    bot = _NUMBERED_BOT.match(colour_key(text)) if text else None
    if bot:
        return (text[:1] + bot.group(1)).lower()
    words = [w for w in str(name).replace("_", " ").replace("-", " ").split()
             if w[:1].isalnum() and not w.isdigit()]
    if len(words) >= 2:
        return (words[0][0] + words[-1][0]).lower()
    return (words[0] if words else str(name) or "?")[:2].lower()


# a numbered bot's name as a game stores it (games.bot_names): "Casual bot 2", "Bot 3"
_NUMBERED_BOT = re.compile(r"\A(?:\S+ bot|Bot) (\d+)\Z")


@register.filter
def avatar_colour(name):
    """The same colour for the same name on every page and every viewer's screen, in
    every language (a bot's colour is its English name's: see colour_key)."""
    return zlib.crc32(colour_key(name).encode()) % AVATAR_COLOURS


MAX_AROUND = 9  # spots drawn in table.css: up to 9 others around the table


@register.filter
def around(opponents, me):
    """The others in playing order from the viewer's left, each with its spot on the
    oval (``spot-K-I``: the I-th of K, clockwise from the bottom left). The viewer sits
    at the bottom; a spectator sees seat 0 at the bottom left."""
    players = list(opponents or ())
    if not players:
        return []
    total = len(players) + (0 if me is None else 1)
    start = 0 if me is None else me
    players.sort(key=lambda p: (p["seat"] - start) % total)
    k = min(len(players), MAX_AROUND)
    return [(f"spot-{k}-{min(i, k - 1)}", p) for i, p in enumerate(players)]
