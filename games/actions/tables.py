"""Tables and seats: opening a table, sitting down, bots, starting a game."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ..engine.fairness import new_seed
from ..kinds import kind_for
from ..models import (
    AUTO_NAMES,
    Action,
    Game,
    GamePlayer,
    Invitation,
    Seat,
    Table,
    Variant,
    stored_auto_name,
)
from ..pace import PACE_SECONDS, POST_PACES, is_post, pace_words
from ..rules_text import variant_name
from .base import (
    Refused,
    announce_table,
    lock_table,
    must_be_host,
    recent,
    remember,
    schedule_after,
    send_to_channel,
    touch_table,
)
from .post import _notify, _withdraw, check_post_table_limit, seats_held, tell_started
from .presence import schedule_abandon_check


def free_position(table: Table) -> int | None:
    taken = set(table.seat_set.values_list("position", flat=True))
    for position in range(table.seats):
        if position not in taken:
            return position
    return None


def live_tables_held(user) -> int:
    """Live tables ``user`` sits at, waiting or playing (a game they walked away from
    counts until its bots have played it out)."""
    return seats_held(user).exclude(table__pace__in=POST_PACES).count()


def lock_player(user) -> None:
    """Hold ``user``'s row until the transaction ends, so that a player's own requests
    sent at once (several tables opened or joined) take their turns: a limit counted
    after it counts what the others committed. (On SQLite every writing transaction
    already takes its turn from its start.)"""
    if getattr(user, "pk", None) is not None:
        get_user_model().objects.select_for_update().filter(pk=user.pk).exists()


def check_live_table_limit(user) -> None:
    """Refuse, in words, another live table for ``user`` while they sit at
    ``STOPBUS_LIVE_TABLES`` already: each one left running is a game its bots play out."""
    limit = getattr(settings, "STOPBUS_LIVE_TABLES", 5)
    if limit and getattr(user, "is_authenticated", False) and live_tables_held(user) >= limit:
        raise Refused("live_limit", ngettext(
            "You are sitting at %(count)d live table already, as many as you may at once. "
            "Leave it from its page, or finish its game, before you open or join another.",
            "You are sitting at %(count)d live tables already, as many as you may at once. "
            "Leave one from its page, or finish its game, before you open or join another.",
            limit) % {"count": limit})


def do_create_table(host, *, name: str, variant: Variant, seats: int, private: bool = False,
                    allow_spectators: bool = True, spectator_chat: bool = True,
                    pace: str | None = None, practice: bool = False,
                    auto_name: str = "table") -> Table:
    """A table ``host`` opens and sits at. With no ``name`` the site names it (``auto_name``,
    a kind of ``AUTO_NAMES``): stored in English, read in each reader's language
    (``Table.name``); a name the host typed stays as typed."""
    pace = variant.pace if pace in (None, "") else pace
    if pace not in PACE_SECONDS:
        raise Refused("pace", _("Choose a pace: live, or a time per move of %(choices)s.") % {
            "choices": ", ".join(pace_words(p) for p in POST_PACES)})
    if private and getattr(host, "is_guest", False):
        raise Refused("guest_private", _("Guests cannot open private tables. Sign up to "
                                         "invite friends to a table of your own."))
    if not variant.active:
        raise Refused("inactive_variant", _("%(variant)s is not offered any more.") % {
            "variant": variant_name(variant)})
    rules = variant.rules
    if not rules.min_players <= seats <= rules.max_players:
        raise Refused("seats", _("%(variant)s is for %(fewest)d to %(most)d players.") % {
            "variant": variant_name(variant), "fewest": rules.min_players,
            "most": rules.max_players})
    with transaction.atomic():
        # counted and seated in one transaction, the player's row locked first: requests
        # sent at once queue here, and each counts the tables the others made
        lock_player(host)
        if is_post(pace):
            check_post_table_limit(host)
        else:
            check_live_table_limit(host)
        typed = name.strip()
        auto = "" if typed else (auto_name if auto_name in AUTO_NAMES else "table")
        table = Table.objects.create(
            name=typed or stored_auto_name(auto, host.username), auto_name=auto,
            variant=variant, host=host,
            seats=seats, private=private, allow_spectators=allow_spectators,
            spectator_chat=spectator_chat, practice=practice, pace=pace,
            turn_seconds=None if practice else variant.turn_seconds)
        Seat.objects.create(table=table, position=0, user=host)
        schedule_abandon_check(table)
        announce_table(table.pk)
    return table


def do_join_table(table: Table, user) -> Seat:
    with transaction.atomic():
        table = lock_table(table.pk)
        if table.status != Table.Status.WAITING:
            raise Refused("started", _("This game has started; you can watch it."))
        existing = table.seat_set.filter(user=user).first()
        if existing:
            return existing
        lock_player(user)  # the same player joining other tables at once waits here
        if table.is_post:
            check_post_table_limit(user)
        else:
            check_live_table_limit(user)
        position = free_position(table)
        if position is None:
            raise Refused("full", _("This table is full."))
        seat = Seat.objects.create(table=table, position=position, user=user)
        if table.host_id is None:
            table.host = user
        table.save(update_fields=["host", "updated_at"])
        if Invitation.objects.filter(table=table, user=user).exists():
            # they came: the invitation's notice is read, its pushes not sent
            _withdraw(user.pk, f"invited:{table.pk}:{user.pk}")
        announce_table(table.pk)
        if free_position(table) is None:
            start_locked(table, by=user)
    return seat


def do_add_bot(table: Table, by_user, level: str) -> Seat:
    with transaction.atomic():
        table = lock_table(table.pk)
        levels = kind_for(table).bot_levels
        if level not in levels:
            raise Refused("bot_level", _("Choose a bot level: %(levels)s") % {
                "levels": ", ".join(levels)})
        must_be_host(table, by_user)
        if table.status != Table.Status.WAITING:
            raise Refused("started", _("Bots can only be added before the game starts."))
        position = free_position(table)
        if position is None:
            raise Refused("full", _("This table is full."))
        seat = Seat.objects.create(table=table, position=position, bot_level=level)
        table.save(update_fields=["updated_at"])
        announce_table(table.pk)
        if free_position(table) is None:
            start_locked(table, by=by_user)
    return seat


def do_remove_bot(table: Table, by_user, position: int) -> None:
    with transaction.atomic():
        table = lock_table(table.pk)
        must_be_host(table, by_user)
        if table.status != Table.Status.WAITING:
            raise Refused("started", _("Bots can only be removed before the game starts."))
        deleted, _by_model = table.seat_set.filter(position=position, user__isnull=True).delete()
        if not deleted:
            raise Refused("no_bot", _("There is no bot in that seat."))
        table.save(update_fields=["updated_at"])
        announce_table(table.pk)


def do_set_spectators(table: Table, by_user, allow: bool) -> None:
    """The host decides whether people who do not play may watch."""
    with transaction.atomic():
        table = lock_table(table.pk)
        must_be_host(table, by_user)
        table.allow_spectators = allow
        table.save(update_fields=["allow_spectators", "updated_at"])
        if not allow:
            # close the sockets of those watching now; they are refused on reconnect
            players = table.seat_set.filter(user__isnull=False).values("user")
            watchers = table.presences.exclude(user__in=players)
            for channel in watchers.values_list("channel_name", flat=True):
                send_to_channel(channel, {"type": "watch.revoked"})
        announce_table(table.pk, lobby=False)


def do_invite(table: Table, by_user, username: str) -> Invitation:
    """The host of a waiting table invites a registered player by name: the player is told
    (the ``invited`` notification, in the bell and by push as they chose) with the table's
    link, and may open the table even when it is private."""
    if getattr(by_user, "is_guest", False):
        # a visitor without an account would reach any member's bell (and phone) with a
        # table name of their own: guests send the table's link instead, as they cannot chat
        raise Refused("invite_by_guest", _("Guests cannot invite players by name. Send "
                                           "them this page's link, or sign up to invite "
                                           "by name."))
    name = (username or "").strip()
    if not name:
        raise Refused("invite_name", _("Enter the username of the player to invite."))
    with transaction.atomic():
        table = lock_table(table.pk)
        must_be_host(table, by_user)
        if table.status != Table.Status.WAITING:
            raise Refused("started", _("Players can only be invited before the game starts."))
        if free_position(table) is None:
            raise Refused("full", _("This table is full."))
        invitee = (get_user_model().objects.filter(username__iexact=name, is_active=True)
                   .first())
        if invitee is None:
            raise Refused("invite_unknown", _("There is no player called “%(name)s”.") % {
                "name": name[:150]})
        if invitee.pk == by_user.pk:
            raise Refused("invite_self", _("You are at this table already."))
        if invitee.is_guest:
            raise Refused("invite_guest", _("%(name)s plays as a guest: guests cannot be "
                                            "invited by name. Send them the table's link.")
                          % {"name": invitee.username})
        if table.seat_set.filter(user=invitee).exists():
            raise Refused("invite_seated", _("%(name)s sits at this table already.") % {
                "name": invitee.username})
        invitation, created = Invitation.objects.get_or_create(
            table=table, user=invitee, defaults={"invited_by": by_user})
        if not created:
            raise Refused("invite_again", _("%(name)s is invited already.") % {
                "name": invitee.username})
        _notify(invitee.pk, "invited", table, params={"host": by_user.username},
                key=f"invited:{table.pk}:{invitee.pk}")
        # the seated players' waiting panel lists who is invited: their pages read it again
        touch_table(table.pk)
        announce_table(table.pk, lobby=False)
    return invitation


def do_withdraw_invite(table: Table, by_user, user_id) -> None:
    """The host of a waiting table takes back the invitation of the player ``user_id``
    (who has not sat down): its notice is put away, and a private table is closed to
    them again unless they hold its link."""
    try:
        user_id = int(user_id)
    except (TypeError, ValueError):
        raise Refused("no_invite", _("There is no such invitation to withdraw.")) from None
    with transaction.atomic():
        table = lock_table(table.pk)
        must_be_host(table, by_user)
        if table.status != Table.Status.WAITING:
            raise Refused("started", _("Invitations can only be withdrawn before the game "
                                       "starts."))
        deleted, _by_model = Invitation.objects.filter(table=table, user_id=user_id).delete()
        if not deleted:
            raise Refused("no_invite", _("There is no such invitation to withdraw."))
        _withdraw(user_id, f"invited:{table.pk}:{user_id}")
        touch_table(table.pk)
        announce_table(table.pk, lobby=False)


def do_start_game(table: Table, by_user) -> Game:
    with transaction.atomic():
        table = lock_table(table.pk)
        must_be_host(table, by_user)
        return start_locked(table, by=by_user)


def do_play_again(table: Table, by_user) -> Game:
    with transaction.atomic():
        table = lock_table(table.pk)
        if not table.seat_set.filter(user=by_user).exists():
            raise Refused("not_seated", _("Only players at the table can start another game."))
        if table.status != Table.Status.FINISHED:
            raise Refused("not_finished", _("The current game is not over yet."))
        return start_locked(table, by=by_user)


def start_locked(table: Table, by=None) -> Game:
    """Deal a new game at ``table`` (its row locked by the caller); ``by``, the player
    whose action started it (who is not told it started: they are there)."""
    if table.status == Table.Status.PLAYING:
        raise Refused("started", _("The game has already started."))
    if table.status == Table.Status.CLOSED:
        raise Refused("closed", _("This table is closed."))
    seats = list(table.seat_set.select_related("user").order_by("position"))
    rules = table.variant.rules
    if len(seats) < rules.min_players:
        raise Refused("too_few", ngettext(
            "%(variant)s needs at least %(count)d player.",
            "%(variant)s needs at least %(count)d players.", rules.min_players) % {
            "variant": variant_name(table.variant), "count": rules.min_players})
    # a table opened before its variant's limits were narrowed may hold more seats
    if len(seats) > rules.max_players:
        raise Refused("too_many", ngettext(
            "%(variant)s is for at most %(count)d player.",
            "%(variant)s is for at most %(count)d players.", rules.max_players) % {
            "variant": variant_name(table.variant), "count": rules.max_players})
    seed = new_seed()
    names = [seat.game_name for seat in seats]  # as recorded: one language for everyone
    state, events = kind_for(table).new_game(rules, names, seed)
    number = (table.games.order_by("-number").values_list("number", flat=True).first() or 0) + 1
    humans = sum(1 for seat in seats if seat.user_id)
    # guests play unrated, and a game with a guest in it is unrated for everyone (a
    # rating won from an unrated player would mean nothing); practice is never rated
    guests = any(seat.user_id and seat.user.is_guest for seat in seats)
    game = Game.objects.create(
        table=table, number=number, variant=table.variant, rules=rules.to_dict(),
        rated=table.variant.rated and humans >= 2 and not guests and not table.practice,
        seed=seed.hex(), state=state.to_dict(),
        version=0, recent_events=recent([], 0, events))
    GamePlayer.objects.bulk_create([
        GamePlayer(game=game, seat=i, user=seat.user, bot_level=seat.bot_level,
                   name=names[i]) for i, seat in enumerate(seats)])
    Action.objects.create(game=game, seq=0, seat=None, payload={"kind": "start"},
                          events=[e.to_dict() for e in events], by="table")
    Seat.objects.filter(table=table).update(away=False, timeouts=0)
    table.status = Table.Status.PLAYING
    table.save(update_fields=["status", "updated_at"])
    remember(game.pk, state)
    schedule_after(game, state, seats, table.turn_seconds)
    announce_table(table.pk, 0)
    tell_started(table, seats, but=by)
    return game


__all__ = ["do_add_bot", "do_create_table", "do_invite", "do_join_table", "do_play_again",
           "do_remove_bot", "do_set_spectators", "do_start_game", "do_withdraw_invite",
           "free_position", "start_locked"]
