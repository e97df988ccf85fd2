"""Cards and the pack.

A card is a small int, ``rank * 4 + suit``, so that sorting cards sorts by rank
and then by suit (clubs < diamonds < hearts < spades). Ints keep hands cheap to
copy and hash, which the ranking tables and the simulator depend on.

Codes are what the rest of the product speaks: ``QS``, ``10H``, ``AD``.
Parsing also accepts ``TS`` for the ten, lower case, and suit symbols.
"""

from __future__ import annotations

from collections.abc import Iterable

RANK_CODES = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
RANK_NAMES = (
    "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten",
    "Jack", "Queen", "King", "Ace",
)
RANK_PLURALS = (
    "twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens",
    "jacks", "queens", "kings", "aces",
)
SUIT_CODES = ("C", "D", "H", "S")
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
SUIT_SYMBOLS = ("\u2663", "\u2666", "\u2665", "\u2660")

TWO, THREE, FOUR = 0, 1, 2
TEN, JACK, QUEEN, KING, ACE = 8, 9, 10, 11, 12
CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3

PACK: tuple[int, ...] = tuple(range(52))

_RANK_BY_TEXT = {code: i for i, code in enumerate(RANK_CODES)}
_RANK_BY_TEXT["T"] = TEN
_RANK_BY_TEXT["1"] = ACE  # never produced, but "1S" is a common way to write the ace
_SUIT_BY_TEXT = {code: i for i, code in enumerate(SUIT_CODES)}
_SUIT_BY_TEXT.update({sym: i for i, sym in enumerate(SUIT_SYMBOLS)})

CODES: tuple[str, ...] = tuple(RANK_CODES[c >> 2] + SUIT_CODES[c & 3] for c in PACK)
NAMES: tuple[str, ...] = tuple(f"{RANK_NAMES[c >> 2]} of {SUIT_NAMES[c & 3]}" for c in PACK)
_CARD_BY_CODE = {code: card for card, code in enumerate(CODES)}


class CardError(ValueError):
    """A text that is not a card code. ``text`` is it as written (``repr``); ``reason``
    names the sentence for readers of other languages (see ``IllegalAction``)."""

    def __init__(self, message: str, text: str = "", reason: str = "not_a_card"):
        self.text = text
        self.reason = reason
        super().__init__(message)


def card(rank: int, suit: int) -> int:
    return rank * 4 + suit


def rank_of(c: int) -> int:
    return c >> 2


def suit_of(c: int) -> int:
    return c & 3


def parse_card(text: str) -> int:
    """``"QS"``, ``"10h"``, ``"TS"``, ``"A♠"`` -> card int; anything else raises CardError."""
    if isinstance(text, int) and not isinstance(text, bool) and 0 <= text < 52:
        return text
    if not isinstance(text, str):
        raise CardError(f"{text!r} is not a card code", repr(text))
    cleaned = text.strip().upper()
    found = _CARD_BY_CODE.get(cleaned)
    if found is not None:
        return found
    if len(cleaned) < 2:
        raise CardError(f"{text!r} is not a card code (expected something like QS, 10H or AD)",
                        repr(text), "not_a_card_code")
    rank = _RANK_BY_TEXT.get(cleaned[:-1])
    suit = _SUIT_BY_TEXT.get(cleaned[-1])
    if rank is None or suit is None:
        raise CardError(f"{text!r} is not a card code (expected something like QS, 10H or AD)",
                        repr(text), "not_a_card_code")
    return card(rank, suit)


def parse_cards(texts: str | Iterable[str]) -> tuple[int, ...]:
    """Parse ``"QS 10H AD"`` (or a list of codes) into a tuple of cards."""
    if isinstance(texts, str):
        texts = texts.replace(",", " ").split()
    return tuple(parse_card(t) for t in texts)


def code(c: int) -> str:
    return CODES[c]


def codes(cards: Iterable[int]) -> list[str]:
    return [CODES[c] for c in cards]


def name(c: int) -> str:
    """The full name a screen reader says: ``"Queen of spades"``."""
    return NAMES[c]


def symbol(c: int) -> str:
    """Short form for people: ``"Q♠"``."""
    return RANK_CODES[c >> 2] + SUIT_SYMBOLS[c & 3]


def is_red(c: int) -> bool:
    return (c & 3) in (DIAMONDS, HEARTS)
