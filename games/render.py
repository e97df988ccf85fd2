"""Boards rendered once per distinct view and version, sent as the regions that changed.

After a change every page of a table must show it. The pages in one process that
were told of the same change (its ``stamp``) read the table once between them
(:func:`table_data`), and each distinct view of it -- each seat, one for all
spectators, in each language -- is rendered once (:func:`board`), however many
pages show it. Nothing here is shared between viewers of different views: a seat's
render is keyed by that seat, so it can only reach that seat's own pages.

A board template marks its independently updated regions with ``{% fragment %}``
(``games/templatetags/fragments.py``). :func:`frame` compares a viewer's new board
with the one that viewer was last sent and returns, after :data:`PART`, only the
regions whose HTML changed -- each one element with the region's name as its id,
which htmx's websocket extension swaps in place (out of band); of a region holding
regions, only those of them that changed, if nothing else in it did -- or the whole
board, after :data:`FULL`, when there is nothing to compare with (a page connecting
or reconnecting), when the board's outline changed (a game started) or when
versions were skipped. The markers stay on the server: nothing sent carries them.
``regions.apply`` is what a client does with a frame: tests and benchmarks use it
to keep the page a browser would show.

A region marked ``kept`` (``{% fragment NAME kept %}``: the seats before the game, the
leave button, who watches, the invitation) shows nothing a move changes; it is rendered
once per view and ``TableData.kept_key`` (the table's row, seats, players, watchers
and game), not after every move.

The caches are bounded, least recently used first out, and keyed by what they
hold: a table read by (table, change stamp); its seats, players and spectators by
(table, its ``updated_at``, game), which every change to them moves on; a board by
(the table's revision, the view).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property

from django.template.loader import render_to_string
from django.utils import translation

from accounts.language import supported

from .board import SAID, TableData, board_for, load_table
from .memo import Once
from .regions import FULL, PART, apply, content, newest_rows, split, unmarked
from .templatetags.fragments import KEEP, KEPT

__all__ = ["FULL", "PART", "Board", "apply", "board", "clear", "frame", "lobby", "split",
           "table_data", "view_key"]

# The regions sent are always those that differ from what this page was last sent, so
# versions the page never saw (several moves between two of its updates, under load)
# need no full board for the page to be right; past this many, one is sent anyway,
# as it costs less than most of the regions would.
GAP = 3
# A template's indentation is most of a small region's bytes; HTML reads any run of
# white space as one space (the board has no <pre> or <textarea>), so each run that
# holds a line break is sent as that one line break. (Runs never cross a region's
# markers -- a region's content is stripped -- so a board made small whole is the same
# as its outline and its regions made small one by one.)
_SPACE = re.compile(r"[ \t]*\n\s*")


_TABLES = Once(64)  # a change's table, wanted only while its pages are updated
_PARTS = Once(2048)
# a board is wanted while the pages of its revision are brought up to date (each page
# then holds the one it was sent): 1,024 views at once, about 35 KB each as kept
_BOARDS = Once(1024)
_LOBBIES = Once(256)


def clear() -> None:
    """Forget everything rendered (tests)."""
    for cache in (_TABLES, _PARTS, _BOARDS, _LOBBIES, SAID, KEPT):
        cache.clear()


def table_data(table_id: int, stamp: str | None = None) -> TableData:
    """The table as committed after the change ``stamp`` (read once per process per
    change); without a stamp, read now."""
    if stamp is None:
        return load_table(table_id, _PARTS.get)
    return _TABLES.get((table_id, stamp), lambda: load_table(table_id, _PARTS.get))


def language_of(user, language: str | None = None) -> str:
    """The language a viewer's board is rendered in: ``language`` if given (a socket
    knows its reader's, accounts.language.socket_language), else the player's saved
    one, else the active one."""
    chosen = language or getattr(user, "language", None) or translation.get_language() or ""
    return supported(chosen) or chosen


def view_key(data: TableData, user, language: str | None = None) -> tuple:
    """What, besides the table, decides a viewer's board: two viewers with equal keys
    see the same board. (Seat or spectator; the host's controls and a seat before the
    game; the language.)"""
    seat = data.table_seat_of(user)
    return (language_of(user, language), data.seat_of(user),
            getattr(user, "pk", None) is not None and user.pk == data.table.host_id,
            seat.position if seat else None)


@dataclass(frozen=True)
class Board:
    """One rendered view of one revision of a table.

    It is kept as rendered (template indentation, region markers and all): two renders
    are compared as they come, and only what is sent -- the whole board, or the regions
    that changed -- is made small (its markers left out, and each run of white space
    that holds a line break made that line break), once per board and region however
    many pages it is sent to."""

    key: tuple
    revision: tuple
    version: int | None
    game_id: int | None
    rendered: str  # the whole board, regions marked, as rendered
    outline: str  # the board with each outermost region's content left out
    regions: dict  # name -> the outermost region's marked HTML, as rendered
    _small: dict = field(default_factory=dict, compare=False, repr=False)

    @cached_property
    def html(self) -> str:
        """The whole board as it is sent."""
        return _as_sent(self.rendered)

    @property
    def full(self) -> str:
        return FULL + self.html

    def sent(self, name: str, region: str) -> str:
        """Region ``name`` (``region``, as rendered) as it is sent."""
        small = self._small.get(name)
        if small is None:
            small = self._small[name] = _as_sent(region)
        return small


def _as_sent(html: str) -> str:
    """Rendered HTML as it is sent: no region markers, each run of white space that
    holds a line break made that line break."""
    return unmarked(_SPACE.sub("\n", html))


def board(data: TableData, user, language: str | None = None) -> Board:
    """``user``'s board of ``data`` in ``language`` (by default the user's own), rendered
    once per distinct view."""
    key = view_key(data, user, language)

    def make() -> Board:
        with translation.override(key[0] or None):
            context = board_for(data, user)
            context[KEEP] = (context["board_template"], data.kept_key, key)
            rendered = render_to_string(context["board_template"], context)
        outline, regions = split(rendered)
        return Board(key, data.revision, data.state.version if data.state else None,
                     data.game.pk if data.game else None, rendered, outline, regions)

    return _BOARDS.get((data.revision, key), make)


def frame(previous: Board | None, new: Board) -> str:
    """What to send a viewer who was last sent ``previous``: "" if nothing changed."""
    if (previous is None or previous.game_id != new.game_id
            or previous.outline != new.outline or previous.regions.keys() != new.regions.keys()
            or (previous.version is not None and new.version is not None
                and new.version > previous.version + GAP)):
        return new.full
    parts = [part for name, html in new.regions.items() if previous.regions[name] != html
             for part in _changes(previous, new, name, previous.regions[name], html)]
    return PART + "".join(parts) if parts else ""


def _changes(previous: Board, new: Board, name: str, old: str, region: str) -> list[str]:
    """What to send of region ``name``, which was ``old`` and is ``region``: the regions
    in it that changed, if nothing else in it did; its new rows, if it is a list that
    only gained some; else the whole region."""
    if "<!--fragment:" in region[1:]:  # it holds regions of its own
        was, now = split(content(old)), split(content(region))
        if was[0] == now[0] and was[1].keys() == now[1].keys():
            return [part for inner, html in now[1].items() if was[1][inner] != html
                    for part in _changes(previous, new, inner, was[1][inner], html)]
    sent = new.sent(name, region)
    return [newest_rows(name, previous.sent(name, old), sent) or sent]


# -- the lobby -----------------------------------------------------------------------------------


def lobby(user, stamp: str | None) -> str:
    """The lobby's table list for ``user``: rendered once per change for everyone signed
    out (and once per signed-in user, whose own tables it lists too)."""
    from .views import lobby_tables

    who = user.pk if getattr(user, "is_authenticated", False) else None
    key = (stamp, who, language_of(user))

    def make() -> str:
        with translation.override(key[2] or None):
            return render_to_string("games/_lobby_tables.html",
                                    {"tables": lobby_tables(user), "user": user})

    if stamp is None:
        return make()
    return _LOBBIES.get(key, make)
