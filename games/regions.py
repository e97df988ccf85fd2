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
    return message.startswith(FULL) or "<!--fragment:" in message


def apply(page: str, message: str) -> str:
    """The board a client shows after ``message``, having shown ``page`` (both as sent:
    marked). A full board replaces the page; regions replace their namesakes; anything
    else (a notice, a chat line) leaves the board as it was."""
    if message.startswith(FULL):
        return message[len(FULL):]
    found = {m.group(1): m.group(0) for m in REGION.finditer(message)}
    if not found:
        return page
    return REGION.sub(lambda m: found.get(m.group(1), m.group(0)), page)
