"""The websocket frames a table page may send, each field with a declared type.

Frames come from htmx's websocket extension: a JSON object of the form's fields
(values as the form holds them: strings, or lists of strings for repeated
names), plus htmx's ``HEADERS``. :func:`parse` checks every field against its
declaration and returns a :class:`Frame`, or raises :class:`BadFrame` naming the
field that is wrong. Nothing is coerced silently: ``"stop": "yes"`` and
``"version": true`` are errors, not "no" and 1.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from .engine.brag.game import ACTION_KINDS as BRAG_ACTION_KINDS
from .engine.game import ACTION_KINDS, NEXT_HAND

MAX_FRAME = 4096
MOVE_KINDS = tuple(k for k in ACTION_KINDS if k != NEXT_HAND)
OTHER_KINDS = ("chat", "ready", "back", "sync", "ping")


class BadFrame(ValueError):
    """A frame that is not what a table page sends; the message says what is wrong, in
    the language active when it was parsed (the socket's)."""


# a form field's whole number: an optional minus, then at most nine ASCII digits ("--1",
# "1_0", " 1" and "١" are not numbers, though int() would take some of them)
_INTEGER = re.compile(r"-?[0-9]{1,9}")


def _number(name: str, value) -> int:
    # an int, or the digits a form field holds ("12"); a bool is no number
    if isinstance(value, bool):
        raise BadFrame(_("The field %(field)s is not valid: it must be a whole number, "
                         "not %(value)s.") % {"field": repr(name), "value": json.dumps(value)})
    if isinstance(value, int):
        number = value
    elif isinstance(value, str) and _INTEGER.fullmatch(value):
        number = int(value)
    else:
        raise BadFrame(_("The field %(field)s is not valid: it must be a whole number.") % {
            "field": repr(name)})
    if not -10**9 < number < 10**9:
        raise BadFrame(_("The field %(field)s is out of range.") % {"field": repr(name)})
    return number


def _cards(name: str, value) -> list[str]:
    if value == "":  # an empty form field
        return []
    values = value if isinstance(value, list) else [value]
    if not all(isinstance(v, str) and 0 < len(v) <= 3 for v in values) or len(values) > 8:
        raise BadFrame(_("The field %(field)s is not valid: it must be card codes, like "
                         "\"QS\".") % {"field": repr(name)})
    return values


def _positions(name: str, value) -> list[int]:
    if value == "":
        return []
    values = value if isinstance(value, list) else [value]
    if len(values) > 8:
        raise BadFrame(_("The field %(field)s has too many entries.") % {"field": repr(name)})
    return [_number(name, v) for v in values]


def _flag(name: str, value) -> bool:
    if value is True or (isinstance(value, str) and value in ("1", "on", "true")):
        return True
    if value is False or (isinstance(value, str) and value in ("0", "off", "false", "")):
        return False
    raise BadFrame(_("The field %(field)s is not valid: it must be true or false (a "
                     "checkbox), not %(value)s.") % {"field": repr(name),
                                                     "value": json.dumps(value)[:20]})


def _text(name: str, value) -> str:
    if not isinstance(value, str):
        raise BadFrame(_("The field %(field)s is not valid: it must be text.") % {
            "field": repr(name)})
    return value


def _headers(name: str, value) -> dict:
    if not isinstance(value, dict):
        raise BadFrame(_("The field %(field)s is not valid: it must be an object.") % {
            "field": repr(name)})
    return value


@dataclass(frozen=True)
class FrameSchema:
    """The frames of one game kind: its move kinds, and each field with its parser and
    the kinds that may carry it. The registry names each kind's schema
    (``GameKind.frame_schema``); the frames that are no moves (chat, ready...) are
    every kind's."""

    move_kinds: tuple[str, ...]
    fields: dict  # field -> (parser, the kinds that may carry it)
    action_fields: tuple[str, ...]  # the fields copied into a move's engine action

    @property
    def kinds(self) -> tuple[str, ...]:
        return self.move_kinds + OTHER_KINDS


def _schema(move_kinds: tuple[str, ...], fields: dict) -> FrameSchema:
    every = move_kinds + OTHER_KINDS
    return FrameSchema(move_kinds, {
        "kind": (_text, every),
        "HEADERS": (_headers, every),
        "version": (_number, move_kinds),
        **fields,
        "text": (_text, ("chat",)),
        # a ping says whether the page is on screen (document.visibilityState)
        "visible": (_flag, ("ping",)),
    }, tuple(fields))


STOP_THE_BUS_FRAMES = _schema(MOVE_KINDS, {
    "give": (_cards, MOVE_KINDS),
    "take": (_cards, MOVE_KINDS),
    "positions": (_positions, MOVE_KINDS),
    "stop": (_flag, MOVE_KINDS),
})

BRAG_MOVE_KINDS = tuple(k for k in BRAG_ACTION_KINDS if k != NEXT_HAND)
# a bet names its stake in seen chips; no other Brag move carries one
BRAG_FRAMES = _schema(BRAG_MOVE_KINDS, {"stake": (_number, ("bet",))})

FIELDS = STOP_THE_BUS_FRAMES.fields  # what older callers import


@dataclass
class Frame:
    kind: str
    version: int | None = None
    action: dict = field(default_factory=dict)  # the engine action of a move
    text: str = ""
    is_move: bool = False
    visible: bool | None = None  # a ping's: is the page on screen (None: not said)


def parse(text_data: str | None, schema: FrameSchema = STOP_THE_BUS_FRAMES) -> Frame:
    """The frame ``text_data`` holds, checked against ``schema`` (the table's game's)."""
    if text_data is None:
        raise BadFrame(_("Send text frames only."))
    if len(text_data) > MAX_FRAME:
        raise BadFrame(_("That message is too large (the limit is %(limit)d characters).") % {
            "limit": MAX_FRAME})
    try:
        data = json.loads(text_data)
    except (ValueError, RecursionError):  # RecursionError: nesting a thousand deep
        raise BadFrame(_("That message is not valid JSON.")) from None
    if not isinstance(data, dict):
        raise BadFrame(_("A message must be a JSON object."))
    kind = data.get("kind")
    if not isinstance(kind, str) or kind not in schema.kinds:
        raise BadFrame(_("Unknown action %(kind)s.") % {"kind": repr(str(kind)[:30])})
    values = {}
    for name, value in data.items():
        declared = schema.fields.get(name)
        if declared is None or kind not in declared[1]:
            raise BadFrame(_("The field %(field)s does not belong in a %(kind)s message.") % {
                "field": repr(str(name)[:30]), "kind": repr(kind)})
        values[name] = declared[0](name, value)
    frame = Frame(kind, text=values.get("text", ""), is_move=kind in schema.move_kinds,
                  visible=values.get("visible"))
    if kind == "chat" and "text" not in values:
        raise BadFrame(_("Write a message first."))
    if frame.is_move:
        if "version" not in values:
            raise BadFrame(_("The message does not say which version of the game it was "
                             "made for (the field 'version')."))
        frame.version = values["version"]
        frame.action = {"kind": kind}
        for name in schema.action_fields:
            if name == "stop":
                if values.get("stop"):
                    frame.action["stop"] = True
            elif name in values and (values[name] or values[name] == 0) and values[name] != []:
                frame.action[name] = values[name]
        if kind == "bet" and "stake" not in frame.action:
            raise BadFrame(_("Name a stake for your bet: a whole number of chips."))
    return frame
