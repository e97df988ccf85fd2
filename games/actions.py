"""The one place that changes a table or a game.

Views, consumers, the clock and bots all call these functions; nothing else
writes game state. A game action is applied inside a transaction that locks the
game row, appends the action to the log under the next sequence number (a
unique constraint makes a racing duplicate fail instead of applying twice),
stores the new snapshot, schedules what comes next (a bot's move, a turn
deadline, the next deal) and, after commit, tells the table's channel group
the new version. Consumers then render each viewer's own view: a rendered
board is never broadcast.
"""

from __future__ import annotations

import contextlib
import logging
import random
import secrets
import uuid
from collections import OrderedDict
from dataclasses import dataclass
from datetime import timedelta
from threading import Lock

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from . import engine
from .engine import Action as EngineAction
from .engine import GameState, IllegalAction
from .engine.fairness import new_seed
from .engine.game import OVER, SHOWDOWN
from .models import Action, ChatMessage, Game, GamePlayer, Job, Seat, Table, Variant
from .signals import game_finished

log = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"
RECENT_EVENTS = 40


class Refused(Exception):
    """A request the rules or the table do not allow. ``message`` is for the player."""

    def __init__(self, code: str, message: str):
        self.code = code
        self.message = message
        super().__init__(message)


def _setting(name: str, default):
    return getattr(settings, name, default)


def bot_delay() -> timedelta:
    return timedelta(seconds=_setting("STOPBUS_BOT_DELAY", 0.9))


def showdown_pause() -> timedelta:
    return timedelta(seconds=_setting("STOPBUS_SHOWDOWN_PAUSE", 8.0))


# -- the snapshot cache --------------------------------------------------------------------------

_STATES: OrderedDict[int, tuple[int, GameState]] = OrderedDict()
_STATES_LOCK = Lock()
_STATES_MAX = 4096


def state_of(game: Game) -> GameState:
    """The engine state of ``game`` at its stored version (parsed once per process)."""
    with _STATES_LOCK:
        cached = _STATES.get(game.pk)
        if cached is not None and cached[0] == game.version:
            _STATES.move_to_end(game.pk)
            return cached[1]
    state = GameState.from_dict(game.state)
    _remember(game.pk, state)
    return state


def _remember(game_id: int, state: GameState) -> None:
    with _STATES_LOCK:
        _STATES[game_id] = (state.version, state)
        _STATES.move_to_end(game_id)
        while len(_STATES) > _STATES_MAX:
            _STATES.popitem(last=False)


# -- telling clients -----------------------------------------------------------------------------


def _group_send(group: str, message: dict) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    for attempt in (1, 2):
        try:
            async_to_sync(layer.group_send)(group, message)
            return
        except Exception:  # a dead layer must not undo a committed move; clients resync
            # once more: after Redis restarts, the first use of each pooled connection
            # fails, and an announcement lost here leaves the table's pages behind
            if attempt == 2:
                log.exception("could not tell group %s", group)


def announce_table(table_id: int, version: int | None = None, lobby: bool = True,
                   game: Game | None = None) -> None:
    """After commit: every consumer of the table re-renders its own viewer's view.

    The message carries no cards, only the version and a stamp naming this change:
    consumers in one process that get the same stamp read the table once between them.
    ``game``, when only that game's row changed (a move, a player ready), marks the
    message "game only": consumers re-read the game and keep the table and seats they
    have, and those in this process take ``game`` as committed, reading nothing.
    """
    stamp = uuid.uuid4().hex
    message = {"type": "table.changed", "version": version, "stamp": stamp}
    if game is not None:
        message["game_only"] = True

    def send():
        if game is not None:
            _announced(table_id, stamp, game)
        _group_send(f"table-{table_id}", message)
        if lobby:
            _group_send(LOBBY_GROUP, {"type": "lobby.changed"})

    transaction.on_commit(send)


_ANNOUNCED: OrderedDict[tuple[int, str], Game] = OrderedDict()
_ANNOUNCED_MAX = 256


def _announced(table_id: int, stamp: str, game: Game) -> None:
    with _STATES_LOCK:
        _ANNOUNCED[(table_id, stamp)] = game
        while len(_ANNOUNCED) > _ANNOUNCED_MAX:
            _ANNOUNCED.popitem(last=False)


def announced_game(table_id: int, stamp: str | None) -> Game | None:
    """The game row as this process committed it for the change ``stamp``, if it did."""
    with _STATES_LOCK:
        return _ANNOUNCED.get((table_id, stamp))


# -- tables and seats ----------------------------------------------------------------------------


def create_table(host, *, name: str, variant: Variant, seats: int, private: bool = False,
                 allow_spectators: bool = True, spectator_chat: bool = True) -> Table:
    if not variant.active:
        raise Refused("inactive_variant", f"{variant.name} is not offered any more.")
    rules = variant.rules
    if not rules.min_players <= seats <= rules.max_players:
        raise Refused("seats", f"{variant.name} is for {rules.min_players} to "
                      f"{rules.max_players} players.")
    with transaction.atomic():
        table = Table.objects.create(
            name=name.strip() or f"{host.username}'s table", variant=variant, host=host,
            seats=seats, private=private, allow_spectators=allow_spectators,
            spectator_chat=spectator_chat, turn_seconds=variant.turn_seconds)
        Seat.objects.create(table=table, position=0, user=host)
        from .abandon import schedule_check  # abandon needs actions: import late

        schedule_check(table)
        announce_table(table.pk)
    return table


# Locks. Whatever changes a running game takes its game row first (``lock_game``), then,
# if it must, the table's row, then seats: every such transaction queues on the game,
# and none can hold a row another is waiting for while it waits for theirs. (Locking
# the game with its table joined would lock both rows at once, in the plan's order.)


def lock_game(game_id: int) -> Game:
    """The game, its row locked (not its table's) until the transaction ends."""
    return Game.objects.select_for_update(of=("self",)).select_related("table").get(pk=game_id)


def _locked_table(table_id: int) -> Table:
    return Table.objects.select_for_update(of=("self",)).select_related("variant").get(
        pk=table_id)


def _free_position(table: Table) -> int | None:
    taken = set(table.seat_set.values_list("position", flat=True))
    for position in range(table.seats):
        if position not in taken:
            return position
    return None


def join_table(table: Table, user) -> Seat:
    with transaction.atomic():
        table = _locked_table(table.pk)
        if table.status != Table.Status.WAITING:
            raise Refused("started", "This game has started; you can watch it.")
        existing = table.seat_set.filter(user=user).first()
        if existing:
            return existing
        position = _free_position(table)
        if position is None:
            raise Refused("full", "This table is full.")
        seat = Seat.objects.create(table=table, position=position, user=user)
        if table.host_id is None:
            table.host = user
        table.save(update_fields=["host", "updated_at"])
        announce_table(table.pk)
        if _free_position(table) is None:
            _start_locked(table)
    return seat


def leave_table(table: Table, user) -> None:
    """Leave a seat. Before the game, the seat empties; during it, a bot takes over."""
    with transaction.atomic():
        # the running game's row before the table's (see lock_game)
        list(Game.objects.select_for_update(of=("self",)).filter(
            table_id=table.pk, status=Game.Status.PLAYING).values_list("pk", flat=True))
        table = _locked_table(table.pk)
        seat = table.seat_set.filter(user=user).first()
        if seat is None:
            raise Refused("not_seated", "You are not sitting at this table.")
        if table.status == Table.Status.PLAYING:
            _replace_with_bot(table, seat)
        else:
            seat.delete()
        if table.host_id == user.pk:
            successor = table.seat_set.filter(user__isnull=False).order_by("position").first()
            table.host = successor.user if successor else None
        if not table.seat_set.filter(user__isnull=False).exists() and (
                table.status != Table.Status.PLAYING):
            table.status = Table.Status.CLOSED
        table.save(update_fields=["host", "status", "updated_at"])
        announce_table(table.pk)


def _replace_with_bot(table: Table, seat: Seat) -> None:
    """The leaver is placed last among those still in when they left (see README)."""
    game = Game.objects.select_for_update().filter(
        table=table, status=Game.Status.PLAYING).order_by("-number").first()
    user = seat.user
    seat.user = None
    seat.bot_level = "greedy"
    seat.away = False
    seat.timeouts = 0
    seat.save()
    if game is None:
        return
    state = state_of(game)
    player = game.players.filter(user=user).first()
    if player is not None:
        player.left_early = True
        player.place = len(state.active) if not state.out[player.seat] else state.places[
            player.seat]
        player.save(update_fields=["left_early", "place"])
        _schedule_after(game, state, seats_by_index(game))


def add_bot(table: Table, by_user, level: str) -> Seat:
    if level not in engine.BOT_LEVELS:
        raise Refused("bot_level", "Choose a bot level: " + ", ".join(engine.BOT_LEVELS))
    with transaction.atomic():
        table = _locked_table(table.pk)
        _must_be_host(table, by_user)
        if table.status != Table.Status.WAITING:
            raise Refused("started", "Bots can only be added before the game starts.")
        position = _free_position(table)
        if position is None:
            raise Refused("full", "This table is full.")
        seat = Seat.objects.create(table=table, position=position, bot_level=level)
        table.save(update_fields=["updated_at"])
        announce_table(table.pk)
        if _free_position(table) is None:
            _start_locked(table)
    return seat


def remove_bot(table: Table, by_user, position: int) -> None:
    with transaction.atomic():
        table = _locked_table(table.pk)
        _must_be_host(table, by_user)
        if table.status != Table.Status.WAITING:
            raise Refused("started", "Bots can only be removed before the game starts.")
        deleted, _ = table.seat_set.filter(position=position, user__isnull=True).delete()
        if not deleted:
            raise Refused("no_bot", "There is no bot in that seat.")
        table.save(update_fields=["updated_at"])
        announce_table(table.pk)


def set_spectators(table: Table, by_user, allow: bool) -> None:
    """The host of a private table decides whether people with the link may watch."""
    with transaction.atomic():
        table = _locked_table(table.pk)
        _must_be_host(table, by_user)
        table.allow_spectators = allow
        table.save(update_fields=["allow_spectators", "updated_at"])
        if not allow:
            # close the sockets of those watching now; they are refused on reconnect
            watchers = table.presences.exclude(user__in=table.seat_set.filter(
                user__isnull=False).values("user"))
            for channel in watchers.values_list("channel_name", flat=True):
                _send_to_channel(channel, {"type": "watch.revoked"})
        announce_table(table.pk, lobby=False)


def _send_to_channel(channel: str, message: dict) -> None:
    def send():
        layer = get_channel_layer()
        try:
            async_to_sync(layer.send)(channel, message)
        except Exception:
            log.exception("could not reach %s", channel)

    transaction.on_commit(send)


def _must_be_host(table: Table, user) -> None:
    if table.host_id != getattr(user, "pk", None):
        raise Refused("not_host", "Only the host can do that.")


def start_game(table: Table, by_user) -> Game:
    with transaction.atomic():
        table = _locked_table(table.pk)
        _must_be_host(table, by_user)
        return _start_locked(table)


def play_again(table: Table, by_user) -> Game:
    with transaction.atomic():
        table = _locked_table(table.pk)
        if not table.seat_set.filter(user=by_user).exists():
            raise Refused("not_seated", "Only players at the table can start another game.")
        if table.status != Table.Status.FINISHED:
            raise Refused("not_finished", "The current game is not over yet.")
        return _start_locked(table)


def _start_locked(table: Table) -> Game:
    if table.status == Table.Status.PLAYING:
        raise Refused("started", "The game has already started.")
    if table.status == Table.Status.CLOSED:
        raise Refused("closed", "This table is closed.")
    seats = list(table.seat_set.select_related("user").order_by("position"))
    rules = table.variant.rules
    if len(seats) < rules.min_players:
        raise Refused("too_few", f"{table.variant.name} needs at least {rules.min_players} "
                      "players.")
    seed = new_seed()
    names = [seat.display_name for seat in seats]
    state, events = engine.new_game(rules, names, seed)
    number = (table.games.order_by("-number").values_list("number", flat=True).first() or 0) + 1
    humans = sum(1 for seat in seats if seat.user_id)
    game = Game.objects.create(
        table=table, number=number, variant=table.variant, rules=rules.to_dict(),
        rated=table.variant.rated and humans >= 2, seed=seed.hex(), state=state.to_dict(),
        version=0, recent_events=_recent([], 0, events))
    GamePlayer.objects.bulk_create([
        GamePlayer(game=game, seat=i, user=seat.user, bot_level=seat.bot_level,
                   name=names[i]) for i, seat in enumerate(seats)])
    Action.objects.create(game=game, seq=0, seat=None, payload={"kind": "start"},
                          events=[e.to_dict() for e in events], by="table")
    Seat.objects.filter(table=table).update(away=False, timeouts=0)
    table.status = Table.Status.PLAYING
    table.save(update_fields=["status", "updated_at"])
    _remember(game.pk, state)
    _schedule_after(game, state, seats)
    announce_table(table.pk, 0)
    return game


def seats_by_index(game: Game) -> list[Seat]:
    """The table's seats in the game's seat order (engine seat i is the i-th)."""
    return list(game.table.seat_set.select_related("user").order_by("position"))


# -- writing rows on the hot path -----------------------------------------------------------------
#
# Every move writes an action, retires and schedules a job and rewrites the game row.
# Through querysets each of those statements costs several times its round trip in
# Python (building and compiling the query); these helpers write the same columns the
# same way (each field's own pre_save and get_db_prep_save, so JSON, dates and
# defaults are what the ORM would write) with SQL made once per model and backend.
# (S608 below: the SQL holds only quoted names from the models; every value is bound.)

_SQL: dict = {}


def _sql(key, make) -> str:
    sql = _SQL.get((connection.vendor, key))
    if sql is None:
        sql = _SQL[(connection.vendor, key)] = make(connection.ops.quote_name)
    return sql


def _insert_row(obj) -> None:
    """INSERT ``obj`` (a new model instance) as ``obj.save()`` would; its pk stays unset."""
    meta = obj._meta
    fields = [f for f in meta.concrete_fields if not f.primary_key]
    sql = _sql(("insert", meta.label), lambda qn: (
        f"INSERT INTO {qn(meta.db_table)} ({', '.join(qn(f.column) for f in fields)}) "  # noqa: S608
        f"VALUES ({', '.join(['%s'] * len(fields))})"))
    with connection.cursor() as cursor:
        cursor.execute(sql, [f.get_db_prep_save(f.pre_save(obj, True), connection)
                             for f in fields])


def _update_row(obj, names: tuple[str, ...]) -> None:
    """``obj.save(update_fields=names)``, for a row known to exist."""
    meta = obj._meta
    fields = [meta.get_field(name) for name in names]
    sql = _sql(("update", meta.label, names), lambda qn: (
        f"UPDATE {qn(meta.db_table)} SET {', '.join(f'{qn(f.column)} = %s' for f in fields)} "  # noqa: S608
        f"WHERE {qn(meta.pk.column)} = %s"))
    with connection.cursor() as cursor:
        cursor.execute(sql, [f.get_db_prep_save(f.pre_save(obj, False), connection)
                             for f in fields] + [obj.pk])


def _seats_for_play(table_id: int) -> list[Seat]:
    """The table's seats in engine order, with what scheduling needs (no users)."""
    meta = Seat._meta
    names = ("id", "position", "user_id", "bot_level", "away", "timeouts")
    sql = _sql(("seats",), lambda qn: (
        f"SELECT {', '.join(qn(n) for n in names)} FROM {qn(meta.db_table)} "  # noqa: S608
        f"WHERE {qn('table_id')} = %s ORDER BY {qn('position')}"))
    with connection.cursor() as cursor:
        cursor.execute(sql, [table_id])
        rows = cursor.fetchall()
    return [Seat(id=i, table_id=table_id, position=position, user_id=user_id,
                 bot_level=bot_level, away=bool(away), timeouts=timeouts)
            for i, position, user_id, bot_level, away, timeouts in rows]


def _retire_jobs(game_id: int, now) -> None:
    """Mark the game's pending jobs superseded (the ORM's ``update`` of them)."""
    sql = _sql(("retire",), lambda qn: (
        f"UPDATE {qn(Job._meta.db_table)} SET {qn('done_at')} = %s, {qn('result')} = %s "  # noqa: S608
        f"WHERE {qn('game_id')} = %s AND {qn('done_at')} IS NULL"))
    done_at = Job._meta.get_field("done_at").get_db_prep_save(now, connection)
    with connection.cursor() as cursor:
        cursor.execute(sql, [done_at, "superseded", game_id])


# -- playing -------------------------------------------------------------------------------------


@dataclass
class Played:
    game: Game
    state: GameState
    events: list


def seat_of_player(game: Game, user) -> int | None:
    """The engine seat ``user`` plays in ``game``, or None (spectators, leavers)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return (game.players.filter(user=user, left_early=False)
            .values_list("seat", flat=True).first())


def play(game_id: int, seat: int | None, data: dict | EngineAction, version: int | None,
         by: str = "player") -> Played:
    """Apply one action for ``seat``. ``version`` is what the client last saw (None: any)."""
    try:
        action = data if isinstance(data, EngineAction) else EngineAction.from_dict(
            {**data, "seat": seat})
    except IllegalAction as exc:  # a card code that is no card, a list that is no list
        raise Refused(exc.code, exc.message) from None
    if action.seat != seat:
        raise Refused("not_yours", "You can only play for your own seat.")
    try:
        with transaction.atomic():
            game = lock_game(game_id)
            if game.status != Game.Status.PLAYING:
                raise Refused("game_over", "The game is over.")
            if version is not None and version != game.version:
                raise Refused("stale", "That move was made on an out-of-date view of the game "
                              f"(version {version}, now {game.version}); it was not played.")
            state = state_of(game)
            new_state, events = engine.apply(state, action)
            _insert_row(Action(game=game, seq=new_state.version, seat=seat,
                               payload=action.to_dict(),
                               events=[e.to_dict() for e in events], by=by))
            seats = _seats_for_play(game.table_id)
            if by == "player" and seat is not None and seats[seat].timeouts:
                Seat.objects.filter(pk=seats[seat].pk).update(timeouts=0)
            over = new_state.phase == OVER
            _schedule_after(game, new_state, seats, save_deadline=False)
            game.state = new_state.to_dict()
            game.version = new_state.version
            game.ready = []
            game.recent_events = _recent(game.recent_events, new_state.version, events)
            fields = ["state", "version", "ready", "recent_events", "deadline"]
            if over:
                game.status = Game.Status.FINISHED
                game.finished_at = timezone.now()
                fields += ["status", "finished_at"]
            _update_row(game, tuple(fields))
            if over:
                _finish(game, new_state)
            transaction.on_commit(lambda: _remember(game.pk, new_state))
            # the end of a game changes the table and the players too: a full announcement
            announce_table(game.table_id, new_state.version, lobby=over,
                           game=None if over else game)
    except IllegalAction as exc:
        raise Refused(exc.code, exc.message) from None
    except IntegrityError:
        raise Refused("stale", "Another move was played at the same moment; yours was not "
                      "played.") from None
    return Played(game, new_state, events)


def _recent(kept: list, seq: int, events) -> list:
    """The log's tail as [seq, event] pairs: what a table page shows, without a query."""
    return (kept + [[seq, e.to_dict()] for e in events])[-RECENT_EVENTS:]


def _finish(game: Game, state: GameState) -> None:
    for player in game.players.all():
        if player.left_early and player.place is not None:
            continue
        player.place = state.places[player.seat]
        player.save(update_fields=["place"])
    Table.objects.filter(pk=game.table_id).update(status=Table.Status.FINISHED,
                                                   updated_at=timezone.now())
    game_finished.send(sender=Game, game=game, state=state)


def _schedule_after(game: Game, state: GameState, seats: list[Seat],
                    save_deadline: bool = True) -> None:
    """Retire this game's pending jobs and schedule what its new state needs.

    Sets ``game.deadline``; ``save_deadline=False`` leaves storing it to the caller's
    own save of the game row (one query fewer on every move)."""
    now = timezone.now()
    _retire_jobs(game.pk, now)
    deadline = None
    if state.phase == OVER:
        pass
    elif state.phase == SHOWDOWN:
        _insert_row(Job(kind=Job.Kind.NEXT_HAND, table_id=game.table_id, game=game,
                        version=state.version, due_at=now + showdown_pause()))
    elif seats[state.turn].is_bot or seats[state.turn].away:
        _insert_row(Job(kind=Job.Kind.BOT_MOVE, table_id=game.table_id, game=game,
                        version=state.version, seat=state.turn, due_at=now + bot_delay()))
    elif game.table.turn_seconds:
        deadline = now + timedelta(seconds=game.table.turn_seconds)
        _insert_row(Job(kind=Job.Kind.TURN_TIMEOUT, table_id=game.table_id, game=game,
                        version=state.version, seat=state.turn, due_at=deadline))
    if game.deadline != deadline:
        game.deadline = deadline
        if save_deadline:
            Game.objects.filter(pk=game.pk).update(deadline=deadline)


def reschedule(game: Game) -> None:
    """Schedule the current turn again, e.g. after seats were marked away."""
    _schedule_after(game, state_of(game), seats_by_index(game))
    announce_table(game.table_id, game.version, lobby=False)


def turn_deadline(game: Game):
    """When the current turn's clock runs out, or None."""
    return game.deadline if game.status == Game.Status.PLAYING else None


def mark_ready(game_id: int, seat: int) -> bool:
    """A player is ready for the next hand; when every human is, it is dealt now."""
    with transaction.atomic():
        game = lock_game(game_id)
        state = state_of(game)
        if state.phase != SHOWDOWN:
            raise Refused("wrong_phase", "There is no hand to move on from.")
        ready = set(game.ready) | {seat}
        game.ready = sorted(ready)
        game.save(update_fields=["ready"])
        humans = {p.seat for p in game.players.all() if p.user_id and not p.left_early}
        everyone = humans <= ready
        announce_table(game.table_id, game.version, lobby=False, game=game)
    if everyone:
        with contextlib.suppress(Refused):  # Refused: the clock dealt first
            play(game_id, None, engine.next_hand(), game.version, by="table")
    return everyone


def take_seat_back(game: Game, user) -> None:
    """A player marked away plays their own seat again."""
    with transaction.atomic():
        game = lock_game(game.pk)
        seat = Seat.objects.select_for_update().filter(table_id=game.table_id, user=user).first()
        if seat is None:
            raise Refused("not_seated", "You are not sitting at this table.")
        if not seat.away:
            raise Refused("not_away", "You are already playing your own seat.")
        seat.away = False
        seat.timeouts = 0
        seat.save(update_fields=["away", "timeouts"])
        Table.objects.filter(pk=game.table_id).update(updated_at=timezone.now())
        reschedule(game)


def bot_choice(game: Game, state: GameState, seat: int, level: str) -> EngineAction:
    # a bot's choices need no secrecy, only variety; the deal is what is secret
    bot = engine.make_bot(level, state.rules, random.Random(secrets.randbits(64)))  # noqa: S311
    return bot.choose(engine.seat_view(state, seat))


# -- chat ----------------------------------------------------------------------------------------


def post_chat(table: Table, user, text: str) -> ChatMessage:
    """A chat line at ``table``: players always, spectators if the table allows it."""
    text = " ".join((text or "").split())
    if not text:
        raise Refused("empty", "Write something first.")
    if not text.isprintable():  # NUL and other control characters, lone surrogates
        raise Refused("unprintable", "That message has characters that cannot be shown.")
    if len(text) > ChatMessage.MAX_LENGTH:
        raise Refused("too_long", f"Messages are at most {ChatMessage.MAX_LENGTH} characters.")
    seated = table.seat_set.filter(user=user).exists() or table.games.filter(
        players__user=user).exists()
    if not seated and not table.spectator_chat:
        raise Refused("spectator_chat", "Only the players can chat at this table.")
    _count_chat(user)
    with transaction.atomic():
        message = ChatMessage.objects.create(table=table, game=table.current_game(),
                                             user=user, text=text)
        transaction.on_commit(lambda: _group_send(
            table.group_name, {"type": "chat.message", "id": message.pk}))
    return message


def _count_chat(user) -> None:
    """At most STOPBUS_CHAT_PER_MINUTE lines a minute per user, across processes."""
    limit = _setting("STOPBUS_CHAT_PER_MINUTE", 12)
    window = int(timezone.now().timestamp() // 60)
    key = f"chat-rate:{user.pk}:{window}"
    cache.add(key, 0, timeout=120)
    try:
        sent = cache.incr(key)
    except ValueError:  # the key expired between add and incr
        cache.set(key, 1, timeout=120)
        sent = 1
    if sent > limit:
        raise Refused("chat_rate", f"You are chatting too fast: at most {limit} messages a "
                      "minute. Wait a few seconds.")
