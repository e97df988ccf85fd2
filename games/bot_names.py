"""What a bot is called: in the reader's language on every page, in one language in a game's
records.

A seat a bot holds is named by its level and place, "Casual bot 2" ("カジュアル・ボット2"),
and the bot that plays on for a player who left, or for one the clock handed to a bot, by
that player, "Bot for alice" ("aliceの代打ちボット"). The level's word is the one the
table's "Add a bot" list gives it (games/rules_text.py marks them).

A game keeps its seats' names as they were when it began (``GamePlayer.name``, the engine
state's ``names``), and its log keeps a leaver's bot in its stored event: those stay as
they were written, in English, for every reader (:func:`stored_bot_name` writes them).
Pages never show them as stored: :func:`shown_name` and :func:`shown_names` give a game's
seats their names in the language active when the page is rendered, so a board, a log
row, a frame or the admin in Japanese reads the Japanese name and an English one the
English name, whichever language the game was started in.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import lru_cache

from django.utils.translation import get_language, gettext, gettext_noop

from .engine.bots import BOT_LEVELS

# Each level's bot by its place, whole, so that a language may join the level's word and
# its word for a bot as it does (Japanese: "初心者ボット1", "カジュアル・ボット2"). The
# level's word is the one the table's list of bots gives it (BOT_LEVELS, in
# games/rules_text.py's words): tests/test_ux_bot_names.py holds each language to it.
BOT_NAMES = {
    "random": gettext_noop("Beginner bot %(number)d"),
    "greedy": gettext_noop("Casual bot %(number)d"),
    "mc": gettext_noop("Expert bot %(number)d"),
}

# "Casual bot 2", as a game stores it (``stored_bot_name``): the level's first word, the place
_STORED = re.compile(r"\A(\S+) bot (\d+)\Z")


def stored_bot_name(level: str, position: int) -> str:
    """The name a game records for the bot at ``position`` (from 0): English, the same
    whoever starts the game ("Casual bot 2"). Never shown as it is: see :func:`bot_name`."""
    return f"{BOT_LEVELS.get(level, 'Bot').split(' ')[0]} bot {position + 1}"


def bot_name(level: str, number: int) -> str:
    """The bot of ``level`` at place ``number`` (from 1), in the reader's language:
    "Casual bot 2", "カジュアル・ボット2"."""
    name = BOT_NAMES.get(level)
    if name is None:
        return gettext("Bot %(number)d") % {"number": number}
    return gettext(name) % {"number": number}


def stand_in_name(name: str) -> str:
    """The bot that plays the seat of the player ``name`` (who left, or whose turns the
    clock handed to a bot), in the reader's language: "Bot for alice"."""
    return gettext("Bot for %(name)s") % {"name": name}


def _is_bot(player) -> bool:
    # a bot from the game's start: no account, a level (an account deleted since keeps
    # its name and has no level; a player who left keeps their account on the record)
    return player is not None and player.user_id is None and bool(player.bot_level)


def shown_name(player, name: str | None = None) -> str:
    """The name of a game's seat as the reader reads it: a bot's in their language, a
    player's as it is. ``player`` is the seat's ``GamePlayer`` (None: none recorded);
    ``name`` what the game stored for the seat (by default the record's own name)."""
    stored = player.name if name is None else name
    if not _is_bot(player):
        return stored
    found = _STORED.match(stored)
    if found is None:  # not written by stored_bot_name: shown as it was written
        return stored
    return bot_name(player.bot_level, int(found.group(2)))


def shown_names(names: Sequence[str] | Mapping[int, str], players) -> list[str] | dict[int, str]:
    """A game's stored ``names`` (a list by seat, or {seat: name}) as the reader reads them,
    given the game's ``GamePlayer`` rows in seat order (``players[i]`` is seat i)."""
    def record(seat: int):
        return players[seat] if 0 <= seat < len(players) else None

    if isinstance(names, Mapping):
        return {seat: shown_name(record(int(seat)), name) for seat, name in names.items()}
    return [shown_name(record(seat), name) for seat, name in enumerate(names)]


@lru_cache(maxsize=8)
def _shown_patterns(language: str | None) -> tuple:
    """How a bot's name reads in ``language`` (the active one): (pattern, what the game
    would have stored) for each level's bots and for a player's stand-in."""
    def pattern(template: str, field: str, group: str) -> re.Pattern:
        before, _, after = template.partition(field)
        return re.compile(re.escape(before) + group + re.escape(after) + r"\Z")

    found = [(pattern(gettext(name), "%(number)d", r"(\d+)"),
              lambda n, level=level: stored_bot_name(level, int(n) - 1))
             for level, name in BOT_NAMES.items()]
    found.append((pattern(gettext("Bot %(number)d"), "%(number)d", r"(\d+)"),
                  lambda n: f"Bot {n}"))
    found.append((pattern(gettext("Bot for %(name)s"), "%(name)s", "(.+)"),
                  lambda name: f"Bot for {name}"))
    return tuple(found)


@lru_cache(maxsize=1024)
def _colour_key(language: str | None, name: str) -> str:
    for shown, stored in _shown_patterns(language):
        found = shown.match(name)
        if found:
            return stored(found.group(1))
    return name


def colour_key(name: str) -> str:
    """What a seat's avatar colour is keyed by: a bot's name as English reads it, so that
    "Casual bot 2" and "カジュアル・ボット2" wear one colour and players who read
    different languages see the same bot in the same colour. Anyone else: their name."""
    return _colour_key(get_language(), str(name))
