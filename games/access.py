"""Who may see a table."""

from __future__ import annotations

from .models import Table


def may_watch(table_id: int, user, invites: list[str]) -> bool | None:
    """True if ``user`` may open the table, False if not, None if there is no such table.

    Players always may. A public table is open to any signed-in user. A private
    table is open to people who came with its invite link, and to spectators only
    if its players allow them.
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
    if not table.private:
        return True
    return table.invite_code in invites and (
        table.allow_spectators or table.status == Table.Status.WAITING)
