"""Post tables: a move in hours or days, for players who come back when it is their turn.

A post table's turn has the table's whole time again after every move (``games.pace``);
when it begins, the player is told (``your_turn``), at 80 % of the time they get a last
call, and at the deadline the clock plays the kind's timeout move for them (Stop the
Bus: the casual bot's; Brag: a fold) and tells them they missed a turn. After two missed
turns in a row "Bot for <name>" plays the seat at each deadline until the player takes
it back; after three days of missed turns (and at least seven deadlines) the player has
left the game, placed as a leaver is. A player on holiday is played by a bot at once.

Nobody's absence is judged by their sockets here: players of post tables are away by
design (``presence.do_check_abandoned`` leaves post tables alone).
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.apps import apps
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Count, OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.holidays import (
    days_in_year,
    days_left,
    holiday_end,
    holidays_until,
    on_holiday,
    overlapping,
    today,
)
from accounts.models import HOLIDAY_DAYS_A_YEAR, Holiday

from ..engine.game import OVER, SHOWDOWN
from ..kinds import kind_for
from ..models import Game, GamePlayer, Job, Seat, Table, TableSkip
from ..pace import (
    LAST_CALL_AT,
    MISSED_DEADLINES_TO_LEAVE,
    MISSES_BEFORE_BOT,
    POST_PACES,
    leave_after,
    move_time,
)
from .base import (
    Refused,
    announce_table,
    bot_delay,
    group_send,
    lock_game,
    lock_table,
    seats_in_order,
    state_of,
    touch_table,
    user_group,
)

log = logging.getLogger(__name__)

SKIP_FOR = timedelta(hours=12)
DEADLINE_FOLLOW_UP = timedelta(seconds=5)
# the most turns the clock plays for one seat at one deadline (a Stop the Bus draw and its
# discard are two); a guard, never reached in play
MOST_MOVES_AT_A_DEADLINE = 6


# -- notices -------------------------------------------------------------------------------------


def turn_key(game_id: int, version: int) -> str:
    return f"turn:{game_id}:{version}"


def recount_turns(user_ids) -> None:
    """Store on each account how many post tables wait for its move (every page's
    navigation shows it, read with the signed-in user at no cost)."""
    waiting = (Seat.objects.filter(user=OuterRef("pk"), turn_since__isnull=False,
                                   table__status=Table.Status.PLAYING,
                                   table__pace__in=POST_PACES)
               .order_by().values("user").annotate(n=Count("pk")).values("n"))
    get_user_model().objects.filter(pk__in=list(user_ids)).update(
        post_turns=Coalesce(Subquery(waiting), 0))


def announce_turns(user_ids) -> None:
    """After commit: the players' lists of turns (and their counts) changed."""
    ids = sorted({i for i in user_ids if i})
    if not ids:
        return
    recount_turns(ids)

    def send():
        for user_id in ids:
            group_send(user_group(user_id), {"type": "turns.changed"})

    transaction.on_commit(send)


# -- the clock of a post table -------------------------------------------------------------------


def schedule_post_turn(game: Game, state, seats: list[Seat], now) -> object:
    """Schedule what a post table's new state needs (its pending jobs were retired) and
    return the turn's deadline, or None.

    A turn that goes on (the same seat, the same hand: a Stop the Bus draw before its
    discard, a Brag player looking at their cards while another is to bet) keeps its
    deadline and its notice; every other move gives the next turn the whole time."""
    table = game.table
    previous = state_of(game) if game.version != state.version else None
    ended_for = _turn_holder(previous, seats)
    holder = _turn_holder(state, seats)
    goes_on = (previous is not None and holder is not None and ended_for is holder
               and previous.hand_no == state.hand_no and game.deadline is not None)
    # whose turn it is changes for people (not from one bot to the next): their lists
    # and counts change
    people_change = not goes_on and (previous is None or ended_for is not None
                                     or holder is not None)
    if people_change:
        Seat.objects.filter(table_id=table.pk, turn_since__isnull=False).update(
            turn_since=None, turn_version=None)
    deadline = _schedule_turn(game, state, seats, now, goes_on, ended_for)
    if people_change:
        announce_turns([s.user_id for s in seats if s.user_id])
    return deadline


def _schedule_turn(game: Game, state, seats: list[Seat], now, goes_on: bool,
                   ended_for: Seat | None):
    table = game.table
    if ended_for is not None and not goes_on and ended_for.turn_version is not None:
        _withdraw(ended_for.user_id, turn_key(game.pk, ended_for.turn_version))
    if state.phase == OVER:
        return None
    if state.phase == SHOWDOWN:  # post pace deals the next hand at once
        _job(game, state, Job.Kind.NEXT_HAND, None, now)
        return None
    seat = seats[state.turn]
    if seat.is_bot or on_holiday(seat.user_id):
        _job(game, state, Job.Kind.BOT_MOVE, state.turn, now + bot_delay())
        return None
    whole = move_time(table.pace)
    if goes_on:
        # the turn's deadline stands; if it has passed, the deadline's job is playing the
        # turn out now (its second move is this one), and this job only follows in case
        # the player made this move themselves just after the deadline
        deadline = max(game.deadline, now + DEADLINE_FOLLOW_UP)
        began = seat.turn_version
    else:
        deadline = now + whole
        began = state.version
        Seat.objects.filter(pk=seat.pk).update(turn_since=now, turn_version=began)
        seat.turn_since, seat.turn_version = now, began
    _job(game, state, Job.Kind.TURN_TIMEOUT, state.turn, deadline)
    if not seat.away:
        last_call = deadline - whole * (1 - LAST_CALL_AT)
        if not goes_on or last_call > now:
            _job(game, state, Job.Kind.LAST_CALL, state.turn, max(now, last_call))
        if not goes_on:
            _notify(seat.user_id, "your_turn", table, key=turn_key(game.pk, began))
    return deadline


def _turn_holder(state, seats) -> Seat | None:
    """The seat row of the person (not a bot) whose turn it is in ``state``, if any."""
    if state is None or state.phase in (OVER, SHOWDOWN) or state.turn is None:
        return None
    seat = seats[state.turn]
    return None if seat.is_bot else seat


def _job(game: Game, state, kind: str, seat: int | None, due) -> None:
    Job(kind=kind, table_id=game.table_id, game_id=game.pk, version=state.version, seat=seat,
        due_at=due).save(force_insert=True)


def do_last_call(job: Job) -> str:
    """80 % of a post turn's time has gone: one reminder, if the turn is still theirs."""
    game = Game.objects.select_related("table").get(pk=job.game_id)
    if game.status != Game.Status.PLAYING or game.version != job.version:
        return "stale"
    seat = seats_in_order(game.table_id)[job.seat]
    if seat.is_bot or seat.away or seat.turn_version is None:
        return "nobody to call"
    if on_holiday(seat.user_id):
        # a holiday that began after this turn did (taken for a later day, that day has
        # come): no reminder, the bot sitting in plays the turn now
        from .base import reschedule

        with transaction.atomic():
            locked = lock_game(game.pk)
            if locked.version != job.version:
                return "stale"
            reschedule(locked)
        return "on holiday: the bot plays the turn"
    with transaction.atomic():
        _notify(seat.user_id, "last_call", game.table,
                params={"left": _("%(minutes)d min") % {
                    "minutes": max(1, int((game.deadline - timezone.now()).total_seconds()
                                          // 60)) if game.deadline else 0}},
                key=f"last_call:{game.pk}:{seat.turn_version}")
    return "last call sent"


def play_post_deadline(game: Game, state, seat: Seat, job: Job) -> str:
    """A post turn's time ran out: play for the seat (the kind's timeout move, or the bot
    that sits in), count the missed turn, and after long enough let the player go."""
    from .moves import bot_choice, do_play
    from .presence import _replace_with_bot  # the leaving rule, as for a player who leaves

    kind = kind_for(game)
    holiday = on_holiday(seat.user_id)
    bot_plays = seat.away or holiday
    timeout_move = kind.hook("timeout_move")
    version, moves = job.version, 0
    while (state.turn == job.seat and state.phase not in (OVER, SHOWDOWN)
           and moves < MOST_MOVES_AT_A_DEADLINE):
        action = (bot_choice(game, state, job.seat, "greedy") if bot_plays
                  else timeout_move(kind, game, state, job.seat))
        played = do_play(game.pk, job.seat, action, version, by="bot" if bot_plays else "clock")
        state, version = played.state, played.state.version
        moves += 1
    if holiday:
        return f"on holiday; the bot played {moves} move{'s' if moves != 1 else ''}"
    now = timezone.now()
    with transaction.atomic():
        locked = lock_game(game.pk)  # the game first (see base.lock_game)
        seat = (Seat.objects.select_for_update(of=("self",)).select_related("user")
                .get(pk=seat.pk))
        if seat.user_id is None:
            return "the player had left"
        was_away = seat.away
        seat.timeouts += 1
        seat.missed_since = seat.missed_since or job.due_at
        if seat.timeouts >= MISSES_BEFORE_BOT:
            seat.away = True
        seat.save(update_fields=["timeouts", "missed_since", "away"])
        if not was_away:
            _notify(seat.user_id, "missed_turn", locked.table,
                    key=f"missed:{game.pk}:{job.version}")
        if seat.away and not was_away:
            _notify(seat.user_id, "bot_sat_in", locked.table,
                    params={"bot": bot_name(seat.user.username)},
                    key=f"bot:{game.pk}:{job.version}")
            touch_table(game.table_id)
        leaves = (seat.timeouts >= MISSED_DEADLINES_TO_LEAVE
                  and now - seat.missed_since >= leave_after()
                  and locked.status == Game.Status.PLAYING)
        if leaves:
            table = lock_table(game.table_id)
            user_id = seat.user_id
            _replace_with_bot(table, seat)
            if table.host_id == user_id:
                successor = table.seat_set.filter(user__isnull=False).order_by(
                    "position").first()
                Table.objects.filter(pk=table.pk).update(
                    host=successor.user if successor else None)
            touch_table(table.pk)
            announce_turns([user_id])
        announce_table(game.table_id, locked.version, lobby=leaves)
    result = f"missed turn {seat.timeouts}; played {moves} move{'s' if moves != 1 else ''}"
    if leaves:
        return result + "; the player has left the game"
    return result + ("; a bot sits in" if seat.away else "")


def bot_name(name: str) -> str:
    from .presence import bot_name_for

    return bot_name_for(name)


# -- holidays ------------------------------------------------------------------------------------


def do_take_holiday(user, start, days: int) -> Holiday:
    """Pause every post table of ``user`` for ``days`` days from ``start``."""
    if getattr(user, "is_guest", False):  # a guest plays no post table: nothing to pause
        raise Refused("holiday_guest", _("Post tables are for registered players: sign up to "
                                         "play at your own pace."))
    if not isinstance(days, int) or not 1 <= days <= HOLIDAY_DAYS_A_YEAR:
        raise Refused("holiday_days", _("A holiday is 1 to %(most)d days long.") % {
            "most": HOLIDAY_DAYS_A_YEAR})
    if start < today():
        raise Refused("holiday_past", _("A holiday cannot start in the past."))
    if start > today() + timedelta(days=366):
        raise Refused("holiday_far", _("A holiday can start at most a year from today."))
    end = holiday_end(start, days)
    with transaction.atomic():
        # one holiday at a time per account: its row lock queues a second request
        get_user_model().objects.select_for_update().filter(pk=user.pk).exists()
        if overlapping(user, start, end).exists():
            raise Refused("holiday_overlap", _("You already have a holiday on some of those "
                                               "days."))
        for year in range(start.year, end.year + 1):
            wanted = days_in_year(start, end, year)
            left = days_left(user, year)
            if wanted > left:
                raise Refused("holiday_too_long", _(
                    "That is %(wanted)d days in %(year)d, and you have %(left)d of your "
                    "%(most)d holiday days left that year.") % {
                    "wanted": wanted, "year": year, "left": left,
                    "most": HOLIDAY_DAYS_A_YEAR})
        holiday = Holiday.objects.create(user=user, start=start, end=end)
    if start == today():
        _bots_sit_in_now(user)
    return holiday


def _bots_sit_in_now(user) -> None:
    """Turns of ``user`` that are waiting now are played by a bot at once."""
    waiting = list(Seat.objects.filter(user=user, turn_since__isnull=False,
                                       table__pace__in=POST_PACES,
                                       table__status=Table.Status.PLAYING)
                   .values_list("table_id", flat=True))
    for game_id in Game.objects.filter(table_id__in=waiting, status=Game.Status.PLAYING) \
            .values_list("pk", flat=True):
        from .base import reschedule

        with transaction.atomic():
            reschedule(lock_game(game_id))


# -- the list of turns ---------------------------------------------------------------------------


def do_skip_table(user, table: Table) -> TableSkip:
    """"Skip for now": the table goes behind the others in the list for 12 hours."""
    if not table.seat_set.filter(user=user).exists():
        raise Refused("not_seated", _("You are not sitting at this table."))
    if not table.is_post:  # a live table is not in the list of turns to put it back in
        raise Refused("not_post", _("Only a post table can wait behind your others."))
    until = timezone.now() + SKIP_FOR
    with transaction.atomic():
        skip, _created = TableSkip.objects.update_or_create(
            user=user, table=table, defaults={"until": until})
        announce_turns([user.pk])
    return skip


# -- limits --------------------------------------------------------------------------------------


def may_open_post_table(user) -> bool:
    """Whether ``user`` may open or join post tables at all: a guest account may not
    (nothing could reach them days later). The one place to extend this rule."""
    return (getattr(user, "is_authenticated", False)
            and not getattr(user, "is_guest", False))


def post_table_limit(user) -> int:
    """How many post tables ``user`` may sit at at once: 20, plus one per finished post
    game, up to 100; an account younger than a day, 5."""
    young = getattr(settings, "STOPBUS_POST_TABLES_NEW_ACCOUNT", 5)
    base = getattr(settings, "STOPBUS_POST_TABLES", 20)
    most = getattr(settings, "STOPBUS_POST_TABLES_MOST", 100)
    joined = getattr(user, "date_joined", None)
    if joined is not None and timezone.now() - joined < timedelta(days=1):
        return young
    finished = GamePlayer.objects.filter(
        user=user, left_early=False, game__status=Game.Status.FINISHED,
        game__table__pace__in=POST_PACES).count()
    return min(most, base + finished)


def seats_held(user):
    """``user``'s seats at tables waiting or playing (a table's limit counts these)."""
    return Seat.objects.filter(
        user=user, table__status__in=[Table.Status.WAITING, Table.Status.PLAYING])


def post_tables_held(user) -> int:
    return seats_held(user).filter(table__pace__in=POST_PACES).count()


def check_post_table_limit(user) -> None:
    """Refuse, in words, a post table ``user`` may not open or join now."""
    if not may_open_post_table(user):
        raise Refused("post_guest", _("Post tables are for registered players: sign up to "
                                      "play at your own pace."))
    limit = post_table_limit(user)
    if post_tables_held(user) >= limit:
        raise Refused("post_limit", _(
            "You are at %(limit)d post tables, as many as you may have at once for now. "
            "Finish a game there first: each finished post game raises the limit by one "
            "(up to %(most)d; new accounts start at %(young)d).") % {
            "limit": limit, "most": getattr(settings, "STOPBUS_POST_TABLES_MOST", 100),
            "young": getattr(settings, "STOPBUS_POST_TABLES_NEW_ACCOUNT", 5)})


# -- notifications (the notify app writes and sends them) ----------------------------------------


def tell_started(table: Table, seats, but=None) -> None:
    """A game began at ``table``: each person sitting there is told (every pace), but the
    one whose action started it (``but``)."""
    for seat in seats:
        if seat.user_id and seat.user_id != getattr(but, "pk", None):
            _notify(seat.user_id, "table_started", table,
                    key=f"started:{table.pk}:{table.games.count()}")


def tell_places(game: Game, players) -> None:
    """The game is over: each person in it is told where they finished, of how many."""
    for player in players:
        if player.user_id and player.place is not None:
            _notify(player.user_id, "game_over", game.table,
                    params={"place": player.place, "players": len(players)},
                    key=f"over:{game.pk}")


def _notify(user_id, event: str, table=None, params=None, key=None) -> None:
    """Inside the caller's transaction: the notify app writes the notification (and sends
    it from the clock's jobs, after commit)."""
    if not user_id or not apps.is_installed("notify"):
        return
    from notify.actions import do_notify

    do_notify(_user(user_id), event, table=table, params=params, key=key)


def _withdraw(user_id, key: str) -> None:
    """The turn is over: what was not yet delivered of its notice is dropped."""
    if not user_id or not apps.is_installed("notify"):
        return
    from notify.actions import do_withdraw

    do_withdraw(_user(user_id), key)


def _user(user_id):
    return get_user_model().objects.get(pk=user_id)


__all__ = ["announce_turns", "check_post_table_limit", "do_last_call", "do_skip_table",
           "do_take_holiday", "holidays_until", "may_open_post_table", "play_post_deadline",
           "post_table_limit", "post_tables_held", "schedule_post_turn", "seats_held", "turn_key"]
