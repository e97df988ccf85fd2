"""What every kind of action shares: refusals, the locks, the engine state of a
game, scheduling what comes next, and telling clients after commit.

Nothing outside ``games.actions`` writes game rows or announces a change; the
modules of this package (moves, tables, clock, presence, chat) each call these
helpers inside their own transaction.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections import OrderedDict
from datetime import timedelta
from threading import Lock

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from .. import signins
from ..engine import GameState
from ..engine.game import OVER, SHOWDOWN  # every kind's engine names these phases alike
from ..kinds import kind_for
from ..models import Game, Job, Seat, Table
from ..pace import LIVE, is_post

log = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"
RECENT_EVENTS = 40


class Refused(Exception):
    """A request the rules or the table do not allow. ``message`` is for the player, in
    the language active where it was refused (a request's, a socket's: see
    ``games.consumers``)."""

    def __init__(self, code: str, message: str):
        self.code = code
        self.message = message
        super().__init__(message)


def setting(name: str, default):
    return getattr(settings, name, default)


def bot_delay() -> timedelta:
    return timedelta(seconds=setting("STOPBUS_BOT_DELAY", 0.9))


def showdown_pause() -> timedelta:
    return timedelta(seconds=setting("STOPBUS_SHOWDOWN_PAUSE", 8.0))


# -- reads every action and page needs -----------------------------------------------------------


def current_game(table_id: int) -> Game | None:
    """The table's current game (its latest), or None before the first one."""
    return Game.objects.filter(table_id=table_id).order_by("-number").first()


# Parsing a snapshot costs more than the rest of a move; a game's state at a given
# version never changes, so it is parsed once per process (keyed by game and version,
# bounded).
_STATES: OrderedDict[int, tuple[int, GameState]] = OrderedDict()
_STATES_LOCK = Lock()
_STATES_MAX = 4096


def state_of(game: Game) -> GameState:
    """The engine state of ``game`` at its stored version."""
    with _STATES_LOCK:
        cached = _STATES.get(game.pk)
        if cached is not None and cached[0] == game.version:
            _STATES.move_to_end(game.pk)
            return cached[1]
    state = kind_for(game).state_from_dict(game.state)
    remember(game.pk, state)
    return state


def known_state(game_id: int, version: int) -> bool:
    """Whether this process holds ``game_id``'s state at ``version`` already (pages that
    list many games read a snapshot only when it is not)."""
    with _STATES_LOCK:
        cached = _STATES.get(game_id)
        return cached is not None and cached[0] == version


def remember(game_id: int, state: GameState) -> None:
    with _STATES_LOCK:
        _STATES[game_id] = (state.version, state)
        _STATES.move_to_end(game_id)
        while len(_STATES) > _STATES_MAX:
            _STATES.popitem(last=False)


def seats_in_order(table_id: int) -> list[Seat]:
    """The table's seats in engine order (while a game runs, engine seat i is the i-th)."""
    return list(Seat.objects.filter(table_id=table_id).select_related("user")
                .order_by("position"))


# -- locks ---------------------------------------------------------------------------------------
# Whatever changes a running game takes its game row first (``lock_game``), then, if it
# must, the table's row, then seats: every such transaction queues on the game, and none
# can hold a row another is waiting for while it waits for theirs.


def lock_game(game_id: int) -> Game:
    """The game, its row locked (not its table's) until the transaction ends."""
    return Game.objects.select_for_update(of=("self",)).select_related("table").get(pk=game_id)


def lock_running_game(table_id: int) -> None:
    """Lock the table's running game, if any, before its table (see ``lock_game``)."""
    list(Game.objects.select_for_update(of=("self",)).filter(
        table_id=table_id, status=Game.Status.PLAYING).values_list("pk", flat=True))


def lock_table(table_id: int) -> Table:
    return Table.objects.select_for_update(of=("self",)).select_related("variant").get(
        pk=table_id)


def touch_table(table_id: int) -> None:
    """Note that the table's seats or players changed: pages read them again."""
    Table.objects.filter(pk=table_id).update(updated_at=timezone.now())


# -- what comes next -----------------------------------------------------------------------------


def recent(kept: list, seq: int, events) -> list:
    """The log's tail as [seq, event] pairs: what a table page shows, without a query."""
    return (kept + [[seq, e.to_dict()] for e in events])[-RECENT_EVENTS:]


def schedule_after(game: Game, state: GameState, seats: list[Seat], turn_seconds: int | None,
                   save_deadline: bool = True) -> None:
    """Retire this game's pending jobs and schedule what its new state needs.

    Sets ``game.deadline``; ``save_deadline=False`` leaves storing it to the caller's
    own update of the game row (one query fewer on every move)."""
    now = timezone.now()
    pending = Job.objects.filter(game_id=game.pk, done_at__isnull=True)
    deadline = None
    job = None
    if is_post(getattr(game.table, "pace", LIVE)):  # a post table's clock: games.actions.post
        from .post import schedule_post_turn

        # its deadline and last call are two jobs of its own: the old ones retire first
        pending.update(done_at=now, result="superseded")
        deadline = schedule_post_turn(game, state, seats, now)
        pending = None
    elif state.phase == OVER:
        pass
    elif state.phase == SHOWDOWN:
        job = Job(kind=Job.Kind.NEXT_HAND, due_at=now + showdown_pause())
    elif seats[state.turn].is_bot or seats[state.turn].away:
        job = Job(kind=Job.Kind.BOT_MOVE, seat=state.turn, due_at=now + bot_delay())
    elif turn_seconds:
        deadline = now + timedelta(seconds=turn_seconds)
        job = Job(kind=Job.Kind.TURN_TIMEOUT, seat=state.turn, due_at=deadline)
    if job is None:
        if pending is not None:
            pending.update(done_at=now, result="superseded")
    else:
        job.table_id, job.game_id, job.version = game.table_id, game.pk, state.version
        # the game's waiting job (the turn it had scheduled) becomes the new one: one
        # query in the move's transaction, not two. A job a clock process holds is left
        # to it (it finds it stale, by its version, and marks it done itself).
        if not pending.filter(claimed_at__isnull=True).update(
                kind=job.kind, seat=job.seat, due_at=job.due_at, version=job.version,
                table_id=job.table_id):
            job.save(force_insert=True)
    if game.deadline != deadline:
        game.deadline = deadline
        if save_deadline:
            Game.objects.filter(pk=game.pk).update(deadline=deadline)


def reschedule(game: Game) -> None:
    """Schedule the current turn again, e.g. after seats were marked away."""
    schedule_after(game, state_of(game), seats_in_order(game.table_id), game.table.turn_seconds)
    announce_table(game.table_id, game.version, lobby=False)


# -- telling clients -----------------------------------------------------------------------------


def group_send(group: str, message: dict) -> None:
    group_send_many([(group, message)])


def group_send_many(messages: list[tuple[str, dict]]) -> bool:
    """Send each (group, message), all at once: one hand-off to the event loop however
    many audiences a change has. False if any could not be sent."""
    layer = get_channel_layer()
    if layer is None or not messages:
        return layer is not None

    batched = getattr(layer, "group_send_many", None)  # stopbus_site.layers: two round trips

    async def send_all():
        if batched is not None:
            try:
                await batched(messages)
                return True
            except Exception:
                # once more, one by one: after Redis restarts, the first use of each
                # pooled connection fails (a page drops a frame it was sent twice)
                log.info("sending %d groups at once failed; one by one", len(messages))
        results = await asyncio.gather(*(layer.group_send(g, m) for g, m in messages),
                                       return_exceptions=True)
        failed = [(g, m) for (g, m), r in zip(messages, results, strict=True)
                  if isinstance(r, Exception)]
        sent = True
        if failed:
            # once more: after Redis restarts, the first use of each pooled connection
            # fails, and an announcement lost here leaves the table's pages behind
            for g, m in failed:
                try:
                    await layer.group_send(g, m)
                except Exception:  # a dead layer must not undo a committed change
                    log.exception("could not tell group %s", g)
                    sent = False
        return sent

    try:
        return async_to_sync(send_all)()
    except Exception:
        log.exception("could not tell %d groups", len(messages))
        return False


def announce_table(table_id: int, version: int | None = None, lobby: bool = True) -> None:
    """After commit: every page of the table shows it (``games.actions.publish``: the
    change is rendered here, once, and each audience is sent its ready fragments).
    ``version``, the game's new version, is for the reader: a pass reads the table as
    committed when it runs."""
    from .publish import publish

    def send():
        publish(table_id)
        if lobby:
            announce_lobby()

    transaction.on_commit(send)


def announce_lobby() -> None:
    group_send(LOBBY_GROUP, {"type": "lobby.changed", "stamp": uuid.uuid4().hex})


def send_on_commit(group: str, message: dict) -> None:
    transaction.on_commit(lambda: group_send(group, message))


def user_group(user_id: int) -> str:
    """Every socket of one user listens here (closing them on logout, say)."""
    return f"user-{user_id}"


def must_be_host(table: Table, user) -> None:
    if table.host_id != getattr(user, "pk", None):
        raise Refused("not_host", _("Only the host can do that."))


def send_to_channel(channel: str, message: dict) -> None:
    """After commit, to one socket (``channel``)."""
    def send():
        layer = get_channel_layer()
        try:
            async_to_sync(layer.send)(channel, message)
        except Exception:  # the page is gone already, or the layer is: nothing to undo
            log.exception("could not reach %s", channel)

    transaction.on_commit(send)


def do_end_sessions(user_id: int) -> None:
    """Every socket of the user is signed out (logged out, new password, deactivated):
    the sign-ins kept for their actions are stale at once, and again once the change
    commits (a check that read the row before it keeps its answer under the old epoch,
    ``games.signins``); after commit each socket closes, its page told why (it shows a
    sign-in link on reload)."""
    signins.end_user_sign_ins(user_id)
    transaction.on_commit(lambda: signins.end_user_sign_ins(user_id))
    send_on_commit(user_group(user_id), {"type": "session.ended"})
