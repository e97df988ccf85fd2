"""Boards and their regions, rendered once per distinct view and revision.

A board template names its independently updated regions with django-template-partials
(``{% partialdef NAME inline %}``: each one element whose id is its name, which htmx
swaps in place). After a change, ``games.actions.publish`` renders the regions that may
have changed, each on its own (:func:`own_regions`, ``template#name``), once for the
public and once for each seat whose own part changed, and sends each audience the ones
that differ from what it was last sent, after :data:`PART`. A page that connects, or
misses a revision, is rendered its whole board (:func:`board`, after :data:`FULL`),
once per distinct view. ``regions.apply`` is what a client does with a frame: tests and
benchmarks use it to keep the page a browser would show.

The caches are bounded, least recently used first out, and keyed by what they
hold: a table read by (table, change stamp); its seats, players and spectators by
(table, its ``updated_at``, game), which every change to them moves on; a board by
(the table's revision, the view).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from functools import cached_property

from django.template.loader import get_template, render_to_string
from django.utils import translation

from accounts.language import supported

from .board import SAID, TableData, board_for, load_table
from .hints import hints_on
from .memo import Once
from .regions import FULL, PART, apply, find_element, newest_rows

__all__ = ["FULL", "PART", "Board", "apply", "board", "clear", "lobby", "newest_rows",
           "own_regions", "region_names", "regions_of", "rev_of", "table_data", "view_key"]

# A template's indentation is most of a small region's bytes; HTML reads any run of
# white space as one space (the board has no <pre> or <textarea>), so each run that
# holds a line break is sent as that one line break. (Runs never cross a region's
# element -- a region's HTML is stripped -- so a board made small whole is the same as
# its regions made small one by one.)
_SPACE = re.compile(r"[ \t]*\n\s*")


_TABLES = Once(64)  # a change's table, wanted only while its pages are updated
_PARTS = Once(2048)
# a board is wanted while the pages of its revision are brought up to date (each page
# then holds the one it was sent): 1,024 views at once, about 35 KB each as kept
_BOARDS = Once(1024)
_LOBBIES = Once(256)


def clear() -> None:
    """Forget everything rendered (tests)."""
    for cache in (_TABLES, _PARTS, _BOARDS, _LOBBIES, SAID):
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
    game; the language; whether the player's own hints show.)"""
    seat = data.table_seat_of(user)
    playing = data.seat_of(user)
    return (language_of(user, language), playing,
            getattr(user, "pk", None) is not None and user.pk == data.table.host_id,
            seat.position if seat else None,
            playing is not None and hints_on(data.table, user))


@dataclass(frozen=True)
class Board:
    """One rendered view of one revision of a table: the whole board, as it is sent."""

    key: tuple
    revision: tuple
    version: int | None
    game_id: int | None
    rendered: str  # the whole board, as rendered

    @cached_property
    def html(self) -> str:
        """The whole board as it is sent."""
        return _as_sent(self.rendered)

    @property
    def full(self) -> str:
        return FULL + self.html


def rev_of(data: TableData) -> str:
    """A short name of the table's revision: the version a frame applies to and brings a
    page to (equal revisions, equal boards)."""
    return hashlib.blake2b(repr(data.revision).encode(), digest_size=8).hexdigest()


def region_names(template: str) -> tuple[str, ...]:
    """The named regions (``{% partialdef NAME inline %}``) of a board template, in order,
    but those rendered in a loop (a seat's spot and badges, found by their ids)."""
    found = _NAMES.get(template)
    if found is None:
        source = get_template(template).template.source
        found = _NAMES[template] = tuple(
            n for n in _PARTIALDEF.findall(source) if n not in ("spot", "badges"))
    return found


_NAMES: dict[str, tuple[str, ...]] = {}
_PARTIALDEF = re.compile(r"\{%\s*partialdef\s+([\w-]+)\s+inline\s*%\}")


def regions_of(html: str, ids) -> dict[str, str]:
    """{id: the element of ``html`` with that id} for each of ``ids`` on the page."""
    found = {}
    for name in ids:
        where = find_element(html, name)
        if where is not None:
            found[name] = html[where[0]:where[1]]
    return found


def own_regions(data: TableData, user, language: str, names, seats=()) -> dict[str, str]:
    """Regions ``names`` of ``user``'s board (``None``: a spectator's), each rendered on its
    own (``template#name``), as sent; and the boxes of ``seats`` as the others see them
    (``seat-N``, from the "spot" region)."""
    with translation.override(language or None):
        context = board_for(data, user)
        template = context["board_template"]
        out = {}
        for name in names:
            html = _as_sent(get_template(f"{template}#{name}").render(context).strip())
            if html:
                out[name] = html
        if seats:
            spot = get_template(f"{template}#spot")
            for p in context.get("opponents") or ():
                if p["seat"] in seats:
                    html = _as_sent(spot.render({**context, "p": p, "spot": "",
                                                 "seat": str(p["seat"])}))
                    out.update(regions_of(html, [f"seat-{p['seat']}"]))
    return out


def _as_sent(html: str) -> str:
    """Rendered HTML as it is sent: each run of white space that holds a line break made
    that line break."""
    return _SPACE.sub("\n", html)


def board(data: TableData, user, language: str | None = None) -> Board:
    """``user``'s board of ``data`` in ``language`` (by default the user's own), rendered
    once per distinct view."""
    key = view_key(data, user, language)

    def make() -> Board:
        with translation.override(key[0] or None):
            context = board_for(data, user)
            rendered = render_to_string(context["board_template"], context)
        return Board(key, data.revision, data.state.version if data.state else None,
                     data.game.pk if data.game else None, rendered)

    return _BOARDS.get((data.revision, key), make)


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
