"""Who may see a table."""

from __future__ import annotations

from .models import Table


def may_watch(table_id: int, user, invites: list[str]) -> bool | None:
    """True if ``user`` may open the table, False if not, None if there is no such table.

    Its players always may (:func:`plays_at`). Anyone else is a spectator:
    only while the table allows spectators -- public or private alike -- or before its
    game starts, when they may still sit down. A private table is open only to people
    who came with its invite link, or whom the host invited by name.
    """
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        return None
    if not getattr(user, "is_authenticated", False):
        return False
    if plays_at(table, user):
        return True
    if (table.private and table.invite_code not in invites
            and not table.invitations.filter(user=user).exists()):
        return False
    return table.allow_spectators or table.status == Table.Status.WAITING


def plays_at(table: Table, user) -> bool:
    """Is ``user`` one of ``table``'s players: sitting at it, or a player of its latest
    game (who left it to a bot, and may still watch it to its end and read the
    standings)? A player of an earlier game only is not: once a new game starts without
    them, the table is theirs to open as anyone's (issue 30: who hears a table is decided
    again when it changes; ``games.actions.publish.roster`` says the same to open pages)."""
    if not getattr(user, "is_authenticated", False):
        return False
    if table.seat_set.filter(user=user).exists():
        return True
    latest = table.games.order_by("-number").values_list("pk", flat=True)[:1]
    return table.games.filter(pk__in=latest, players__user=user).exists()
