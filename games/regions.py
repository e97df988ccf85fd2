"""The regions of a board, and the frames the websocket sends of them (no Django here:
benchmark clients import this to keep the page a browser shows).

A board's regions are elements whose id is the region's name (named partials of the
board template, rendered on their own by ``games.render``). A region may hold regions
of its own (an opponent's spot holds their badges): when only those change, only they
are sent.

A frame is either the whole board, after :data:`FULL`, or some of its elements, after
:data:`PART`: each element with the id of the one it replaces, which htmx's websocket
extension swaps in place (out of band), wherever it is on the page; new rows for the
top of a list (``hx-swap-oob="afterbegin:#NAME ol"``), and rows to drop
(``hx-swap-oob="delete"``). :func:`apply` is what a client does with a frame.
"""

from __future__ import annotations

import re

FULL = "<!--board-->"  # a frame that is the whole board
PART = "<!--regions-->"  # a frame of some of its elements
LIST = re.compile(r"(<(ol|ul)\b[^>]*>)(.*?)(</\2>)", re.S)
ITEM = re.compile(r'<li\b[^>]*\bid="([^"]+)"[^>]*>.*?</li>', re.S)
# a tag or a comment (a board's attribute values never hold a ">": it is escaped)
TAG = re.compile(r"<!--.*?-->|<(/?)([a-zA-Z][a-zA-Z0-9-]*)\b[^>]*?(/?)>", re.S)
VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
                  "source", "track", "wbr"})
ID = re.compile(r'\sid="([^"]+)"')
OOB = re.compile(r'\shx-swap-oob="([^"]+)"')
AFTERBEGIN = re.compile(r"afterbegin:#([a-z][a-z0-9-]*) (ol|ul)\Z")


# -- elements ---------------------------------------------------------------------------------


def _end(html: str, start: int) -> int:
    """Where the element whose start tag begins at ``start`` ends (past its end tag)."""
    depth = 0
    for tag in TAG.finditer(html, start):
        if tag.group(2) is None:
            continue  # a comment
        if tag.group(1):
            depth -= 1
        elif not tag.group(3) and tag.group(2).lower() not in VOID:
            depth += 1
        if depth == 0:
            return tag.end()
    raise ValueError(f"an element at {start} is not closed")


def elements(html: str) -> list[str]:
    """The elements at the top level of ``html``, in order (comments and the white
    space between them left out)."""
    found, at = [], 0
    while True:
        tag = TAG.search(html, at)
        if tag is None:
            return found
        if tag.group(2) is None or tag.group(1):
            at = tag.end()  # a comment (or a stray end tag)
            continue
        end = _end(html, tag.start())
        found.append(html[tag.start():end])
        at = end


def start_tag(element: str) -> str:
    return element[:element.index(">") + 1]


def element_id(element: str) -> str | None:
    found = ID.search(start_tag(element))
    return found.group(1) if found else None


def find_element(page: str, element: str) -> tuple[int, int] | None:
    """(start, end) in ``page`` of the element with id ``element``."""
    at = page.find(f' id="{element}"')
    if at < 0:
        return None
    start = page.rfind("<", 0, at)
    return start, _end(page, start)


def frame_ids(message: str) -> list[str]:
    """The ids of the elements a frame of regions replaces (not new rows, not drops)."""
    if not message.startswith(PART):
        return []
    return [i for e in elements(message[len(PART):])
            if OOB.search(start_tag(e)) is None and (i := element_id(e))]


def newest_in(message: str) -> dict:
    """{list's region name: the rows a frame puts on top of it}."""
    found = {}
    if message.startswith(PART):
        for e in elements(message[len(PART):]):
            oob = OOB.search(start_tag(e))
            target = AFTERBEGIN.match(oob.group(1)) if oob else None
            if target:
                found[target.group(1)] = LIST.match(e).group(3)
    return found


# -- the log's new rows -----------------------------------------------------------------------


def _rows(inner: str) -> list[tuple[str, str]] | None:
    """[(id, row HTML)] of a list's content, if it is nothing but rows with ids (and
    white space around them)."""
    rows = [(m.group(1), m.group(0)) for m in ITEM.finditer(inner)]
    return rows if "".join(html for _, html in rows) == inner.strip() else None


def newest_rows(name: str, old: str, new: str) -> str | None:
    """The update from region ``old`` to ``new`` (as sent) as new rows on top and
    dropped rows, if that is all that changed (else None).

    A log gains a row or two a move and keeps the rest: so the old list's first row is
    looked for in the new list, and the rows from there on must be the old list's first
    ones -- plain string comparisons, with only the rows added and dropped parsed."""
    was, now = LIST.search(old), LIST.search(new)
    if was is None or now is None or old[:was.start(3)] != new[:now.start(3)] or (
            old[was.end(3):] != new[now.end(3):]):
        return None
    (lead, before, trail), (lead2, after, trail2) = _core(was.group(3)), _core(now.group(3))
    first = ITEM.match(before)
    if first is None or (lead, trail) != (lead2, trail2):
        return None
    at = after.find(first.group(0))
    kept = after[at:]
    if at <= 0 or not before.startswith(kept):
        return None  # no new row on top, or not the old rows under it
    added, dropped = _rows(after[:at]), _rows(before[len(kept):])
    if not added or dropped is None:
        return None
    drops = "".join(f'<li id="{row_id}" hx-swap-oob="delete"></li>' for row_id, _ in dropped)
    opening = was.group(1)[:-1] + f' hx-swap-oob="afterbegin:#{name} {was.group(2)}">'
    return f"{opening}{after[:at]}{was.group(4)}{drops}"


def _core(inner: str) -> tuple[str, str, str]:
    """(white space before, the rows, white space after) of a list's content."""
    core = inner.strip()
    if not core:
        return inner, "", ""
    start = inner.index(core)
    return inner[:start], core, inner[start + len(core):]


# -- a client ---------------------------------------------------------------------------------


def is_board(message: str) -> bool:
    """Does this frame carry a board, whole or in part (not a notice or a chat line)?"""
    return message.startswith((FULL, PART))


def apply(page: str, message: str) -> str:
    """The board a client shows after ``message``, having shown ``page``. A whole board
    replaces the page; each element of a frame of regions replaces the one with its id,
    puts its rows on top of the list it names or drops the row it names; anything else
    (a notice, a chat line) leaves the board as it was."""
    if message.startswith(FULL):
        return message[len(FULL):]
    if not message.startswith(PART):
        return page
    for element in elements(message[len(PART):]):
        oob = OOB.search(start_tag(element))
        if oob is None:
            where = find_element(page, element_id(element))
            if where is None:
                raise ValueError(f"no element {element_id(element)!r} on the page")
            page = page[:where[0]] + element + page[where[1]:]
        elif oob.group(1) == "delete":
            where = find_element(page, element_id(element))
            if where is not None:
                page = page[:where[0]] + page[where[1]:]
        else:
            target = AFTERBEGIN.match(oob.group(1))
            start, end = find_element(page, target.group(1))
            listing = LIST.search(page, start, end)
            lead, _, _ = _core(listing.group(3))
            rows = LIST.match(element).group(3)
            at = listing.start(3) + len(lead)
            page = page[:at] + rows + page[at:]
    return page
