"""Names people go by: what a username may not be.

A name at the table must read as one player and no one else. So a username is
refused when it reads as something the room itself says ("You" in the log, a card
code such as "QS", a bot's name, "admin"), when it carries bidirectional control
characters (which reorder the text around them), and when it looks like an existing
username: the same after Unicode NFKC, case folding and mapping every look-alike
letter to one representative (Cyrillic "а" and Latin "a", "l", "I" and "1", "O"
and "0").

The look-alike classes come from the Unicode confusables data shipped by
``confusable-homoglyphs``: each character is replaced by its class's prototype,
as the Unicode skeleton does.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

from confusable_homoglyphs.confusables import confusables_data
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from games.engine.bots import BOT_LEVELS
from games.engine.cards import RANK_CODES, SUIT_CODES, SUIT_SYMBOLS

# Explicit embeddings, overrides and isolates, and the implicit marks: all of them
# change the order text is shown in without showing themselves.
BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")

# What the room shows in the place of a name, or what would pass for staff.
RESERVED = ("you", "admin", "administrator", "system", "staff", "moderator", "root",
            "superuser", "server", "spectator", "spectators", "everyone", "anonymous", "bot",
            "stopthebus")
# Bots are "Casual bot 2" and "Bot for alice": any name that reads as one is refused.
BOT_WORDS = ("beginner", "casual", "expert", *BOT_LEVELS)
SEPARATORS = re.compile(r"[\s._\-+@]+")


def has_bidi_control(text: str) -> bool:
    return any(ch in BIDI_CONTROLS for ch in text)


# Letters that show as nothing (Hangul fillers, the braille blank, the Khmer inherent
# vowels): a name of only these and spaces looks blank, though Unicode calls them letters.
BLANK_LOOKING = frozenset("\u115f\u1160\u17b4\u17b5\u2800\u3164\uffa0")
JOINERS = frozenset("\u200c\u200d")  # zero-width (non-)joiners, within emoji and scripts


def unreadable(text: str) -> bool:
    """Does ``text`` hold what a name must not: a control or format character (a
    terminal escape, a line break, a zero-width space or byte-order mark), the joiners
    excepted but where they join nothing; or nothing but blank-looking characters?"""
    if any(not ch.isprintable() and ch not in JOINERS for ch in text):
        return True
    if any(ch in JOINERS and (i == 0 or i == len(text) - 1 or text[i - 1].isspace()
                              or text[i + 1].isspace()) for i, ch in enumerate(text)):
        return True
    return all(ch.isspace() or ch in BLANK_LOOKING or ch in JOINERS for ch in text)


@cache
def _representatives() -> dict[str, str]:
    """Every confusable character to the one its class is compared by.

    The package's data lists, for a class's prototype (Latin "a"), every member,
    and for a member (Cyrillic "а") only its prototype; a class of two lists each
    other, and then the ASCII one (else the lower code point) stands for both.
    Built once from a constant table.
    """
    def clean(text: str) -> str:
        return text.replace("\u200e", "").replace("\u200f", "")

    data = {clean(char): [clean(g["c"]) for g in glyphs]
            for char, glyphs in confusables_data.items()}
    table = {}
    for char, glyphs in data.items():
        if len(char) != 1 or len(glyphs) != 1 or len(glyphs[0]) != 1:
            continue  # a prototype, or a look-alike of several characters
        target = glyphs[0]
        if data.get(target) == [char]:
            target = min(char, target, key=lambda ch: (not ch.isascii(), ord(ch)))
        if target != char:
            table[char] = target
    return table


def skeletons(name: str) -> frozenset[str]:
    """The forms two names share when they look alike: NFKC, look-alikes merged, case folded.

    Two orders, because folding and merging do not commute: "ALICE" must meet
    "alice" (fold first; "I" is merged into "l"), and "AIice" with a capital i must
    meet "alice" too (merge first).
    """
    table = _representatives()

    def merged(text: str) -> str:
        return "".join(table.get(ch, ch) for ch in text)

    text = unicodedata.normalize("NFKC", name)
    return frozenset((merged(merged(text.casefold()).casefold()),
                      merged(merged(text).casefold())))


def look_alike(a: str, b: str) -> bool:
    return not skeletons(a).isdisjoint(skeletons(b))


@cache
def _reserved_skeletons() -> tuple[frozenset[str], re.Pattern]:
    words = {form for word in RESERVED for form in skeletons(word)}
    words |= {form for rank in (*RANK_CODES, "T", "1") for suit in (*SUIT_CODES, *SUIT_SYMBOLS)
              for form in skeletons(rank + suit)}

    def alternatives(*texts: str) -> str:
        return "|".join(re.escape(form) for text in texts for form in skeletons(text))

    bot = alternatives(*BOT_WORDS)
    digit = alternatives(*"0123456789")
    pattern = re.compile(
        rf"(?:{bot})?(?:{alternatives('bot')})(?:(?:{digit})*|(?:{alternatives('for')}).*)")
    return frozenset(words), pattern


def reserved(name: str) -> bool:
    """True if ``name`` reads as a word the room uses, a card code, or a bot."""
    words, bot_name = _reserved_skeletons()
    for form in skeletons(name):
        bare = SEPARATORS.sub("", form)
        if bare in words or bot_name.fullmatch(bare) is not None:
            return True
    return False


def reads_as_guest(name: str) -> bool:
    """True if ``name`` reads as a guest's generated name ("Guest 4821"), which only
    guests are given (accounts/guests.py)."""
    # skeletons read "1" as "l" and "0" as "o"
    return any(re.fullmatch(r"guest[0-9ol]*", SEPARATORS.sub("", form)) is not None
               for form in skeletons(name))


def username_problem(name: str, taken) -> str | None:
    """Why ``name`` may not be a username, or None.

    ``taken``: the existing usernames it must not look like (an iterable, read once).
    """
    if has_bidi_control(name):
        return _("Names may not contain characters that change the direction of text.")
    if unreadable(name):
        return _("Names may not contain control characters or invisible ones, or only "
                 "characters that look blank.")
    if reserved(name):
        return _("“%(name)s” reads as something the card room itself shows (you, a card, a "
                 "bot or the staff). Pick another name.") % {"name": name}
    mine = skeletons(name)
    for other in taken:
        if not mine.isdisjoint(skeletons(other)):
            return _("That name looks the same as another player's name. Pick another "
                     "name.")
    return None


def validate_username(name: str, taken) -> None:
    problem = username_problem(name, taken)
    if problem:
        raise ValidationError(problem, code="confusable_username")
