"""Chat at a table."""

from __future__ import annotations

import re

from django.db import transaction
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .. import ratelimit
from ..access import plays_at
from ..models import ChatMessage, Table
from .base import Refused, current_game, send_on_commit, setting

# Bidirectional controls (embeddings, overrides, isolates, marks) reorder what follows
# them on screen: "gnp.exe" can be made to read "exe.png". They carry nothing a chat
# line needs, so they are taken out rather than refused.
BIDI_CONTROLS = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def clean_chat(text: str) -> str:
    return " ".join(BIDI_CONTROLS.sub("", text or "").split())


def guest_kept_out(user) -> bool:
    """Is ``user`` a guest while guests may not chat (``STOPBUS_GUEST_CHAT`` off)? The
    table page then says so instead of offering the chat box."""
    return getattr(user, "is_guest", False) and not setting("STOPBUS_GUEST_CHAT", False)


def do_chat(table: Table, user, text: str) -> ChatMessage:
    """A chat line at ``table``: players always, spectators if the table allows it."""
    if guest_kept_out(user):
        raise Refused("guest_chat", _("Guests cannot chat here. Sign up to chat at the "
                                      "tables."))
    text = clean_chat(text)
    if not text:
        raise Refused("empty", _("Write something first."))
    if not text.isprintable():  # NUL and other control characters, lone surrogates
        raise Refused("unprintable", _("That message has characters that cannot be shown."))
    if len(text) > ChatMessage.MAX_LENGTH:
        raise Refused("too_long", ngettext(
            "Messages are at most %(limit)d character.",
            "Messages are at most %(limit)d characters.", ChatMessage.MAX_LENGTH) % {
            "limit": ChatMessage.MAX_LENGTH})
    if not plays_at(table, user) and not table.spectator_chat:
        raise Refused("spectator_chat", _("Only the players can chat at this table."))
    limit = setting("STOPBUS_CHAT_PER_MINUTE", 12)
    if not ratelimit.allow(f"chat:{user.pk}", limit, 60):
        raise Refused("chat_rate", ngettext(
            "You are chatting too fast: at most %(limit)d message a minute. Wait a few "
            "seconds.",
            "You are chatting too fast: at most %(limit)d messages a minute. Wait a few "
            "seconds.", limit) % {"limit": limit})
    with transaction.atomic():
        message = ChatMessage.objects.create(table=table, game=current_game(table.pk),
                                             user=user, text=text)
        # the line is rendered here, once: pages forward it
        html = render_to_string("games/_chat_append.html", {"message": message})
        send_on_commit(table.group_name, {"type": "chat.message", "html": html})
    return message
