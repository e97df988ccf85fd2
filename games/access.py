"""Who may see a table."""

from __future__ import annotations

from .models import Table


def may_watch(table_id: int, user, invites: list[str]) -> bool | None:
    """True if ``user`` may open the table, False if not, None if there is no such table.

    Players (and the game's past players) always may. Anyone else is a spectator:
    only while the table allows spectators -- public or private alike -- or before its
    game starts, when they may still sit down. A private table is open only to people
    who came with its invite link, or whom the host invited by name.
    """
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        return None
    if not getattr(user, "is_authenticated", False):
        return False
    if table.seat_set.filter(user=user).exists():
        return True
    if table.games.filter(players__user=user).exists():
        return True
    if (table.private and table.invite_code not in invites
            and not table.invitations.filter(user=user).exists()):
        return False
    return table.allow_spectators or table.status == Table.Status.WAITING
