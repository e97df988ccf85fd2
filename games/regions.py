"""The regions of a rendered board, as the websocket sends them (no Django here:
benchmark clients import this to keep the page a browser shows).

A board is sent whole, prefixed with :data:`FULL`, or as some of its regions, each
between the markers ``{% fragment %}`` writes (``<!--fragment:NAME-->`` ...
``<!--/fragment:NAME-->``) around one element whose id is NAME, which htmx's
websocket extension swaps in place.
"""

from __future__ import annotations

import re

FULL = "<!--board-->"  # a frame that is the whole board, not regions of it
REGION = re.compile(r"<!--fragment:([a-z][a-z0-9-]*)-->(.*?)<!--/fragment:\1-->", re.S)
# A region whose only change is new rows on top of its list (the game log), and its
# oldest rows gone, is sent as those rows and the ids of the rows to drop: htmx puts
# the rows first in the region's list and deletes the dropped ones by id.
NEWEST = re.compile(r"<!--newest:([a-z][a-z0-9-]*)-->(.*?)<!--/newest:\1-->", re.S)
DROP = re.compile(r'<li id="([^"]+)" hx-swap-oob="delete"></li>')
LIST = re.compile(r"(<(ol|ul)\b[^>]*>)(.*?)(</\2>)", re.S)
ITEM = re.compile(r'<li\b[^>]*\bid="([^"]+)"[^>]*>.*?</li>', re.S)


def _rows(inner: str) -> list[tuple[str, str]] | None:
    """[(id, row HTML)] of a list's content, if it is nothing but rows with ids (and
    white space around them)."""
    rows = [(m.group(1), m.group(0)) for m in ITEM.finditer(inner)]
    return rows if "".join(html for _, html in rows) == inner.strip() else None


def _around(inner: str) -> tuple[str, str]:
    """The white space before and after a list's rows."""
    core = inner.strip()
    if not core:
        return inner, ""
    start = inner.index(core)
    return inner[:start], inner[start + len(core):]


def newest_rows(name: str, old: str, new: str) -> str | None:
    """The update from region ``old`` to ``new`` as new rows on top and dropped rows,
    if that is all that changed (else None)."""
    was, now = LIST.search(old), LIST.search(new)
    if was is None or now is None or old[:was.start(3)] != new[:now.start(3)] or (
            old[was.end(3):] != new[now.end(3):]):
        return None
    before, after = _rows(was.group(3)), _rows(now.group(3))
    if not before or after is None or _around(was.group(3)) != _around(now.group(3)):
        return None
    for added in range(1, len(after) + 1):
        kept = after[added:]
        if kept == before[:len(kept)]:
            if not kept:
                return None  # nothing kept: the whole region is as small
            rows = "".join(html for _, html in after[:added])
            drops = "".join(f'<li id="{row_id}" hx-swap-oob="delete"></li>'
                            for row_id, _ in before[len(kept):])
            opening = was.group(1)[:-1] + f' hx-swap-oob="afterbegin:#{name} {was.group(2)}">'
            return (f"<!--newest:{name}-->{opening}{rows}{was.group(4)}"
                    f"<!--/newest:{name}-->{drops}")
    return None


def split(html: str) -> tuple[str, dict]:
    """(outline, {region name: marked region HTML}) of a rendered board: the outline
    is the board with each region's content left out."""
    regions = {}

    def cut(match):
        name = match.group(1)
        regions[name] = match.group(0)
        return f"<!--fragment:{name}--><!--/fragment:{name}-->"

    return REGION.sub(cut, html), regions


def is_board(message: str) -> bool:
    """Does this frame carry a board, whole or in part (not a notice or a chat line)?"""
    return message.startswith(FULL) or "<!--fragment:" in message or "<!--newest:" in message


def apply(page: str, message: str) -> str:
    """The board a client shows after ``message``, having shown ``page`` (both as sent:
    marked). A full board replaces the page; regions replace their namesakes; anything
    else (a notice, a chat line) leaves the board as it was."""
    if message.startswith(FULL):
        return message[len(FULL):]
    found = {m.group(1): m.group(0) for m in REGION.finditer(message)}
    newest = {m.group(1): m.group(2) for m in NEWEST.finditer(message)}
    dropped = set(DROP.findall(message))
    if not found and not newest:
        return page

    def update(match):
        name = match.group(1)
        if name in found:
            return found[name]
        if name not in newest:
            return match.group(0)
        region = match.group(0)
        rows = LIST.search(newest[name]).group(3)
        listing = LIST.search(region)
        lead, trail = _around(listing.group(3))
        kept = "".join(html for row_id, html in _rows(listing.group(3)) or []
                       if row_id not in dropped)
        return (region[:listing.start(3)] + lead + rows + kept + trail
                + region[listing.end(3):])

    return REGION.sub(update, page)
