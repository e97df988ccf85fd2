"""Moves in a running game: a player's, a bot's, the clock's; ready; back from away."""

from __future__ import annotations

import contextlib
import logging
import random
import secrets
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ..engine import GameState, IllegalAction
from ..engine.game import OVER, SHOWDOWN
from ..kinds import GameKind, kind_for
from ..models import Action, Game, GamePlayer, Seat, Table
from ..refusals import engine_refusal
from ..signals import game_finished
from .base import (
    Refused,
    announce_table,
    lock_game,
    recent,
    remember,
    reschedule,
    schedule_after,
    state_of,
    touch_table,
)
from .post import tell_places

log = logging.getLogger(__name__)


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


def do_play(game_id: int, seat: int | None, data, version: int | None,
            by: str = "player", player=None) -> Played:
    """Apply one action for ``seat``: an engine action of the game's kind, or the dict
    of a frame. ``version`` is what the client last saw (None: any).

    ``player``: the user whose page sent it (``seat`` is then None). Their seat is the
    one they sit in, found in the seat rows the move reads anyway, inside its
    transaction: a page never says which seat it plays, and a spectator or a leaver
    (whose seat a bot now plays) is refused."""
    try:
        with transaction.atomic():
            game = lock_game(game_id)
            # what the move and scheduling need of the seats, and no more (while a game
            # runs, the i-th seat row is engine seat i)
            seats = list(Seat.objects.filter(table_id=game.table_id).order_by("position")
                         .only("id", "position", "user_id", "bot_level", "away", "timeouts",
                               "turn_version"))
            if player is not None:
                seat = _seat_of(seats, player)
            kind = kind_for(game)
            try:
                action = kind.action_from_dict({**data, "seat": seat}) if isinstance(
                    data, dict) else data
            except IllegalAction as exc:  # a card code that is no card, a list that is no list
                raise Refused(exc.code, engine_refusal(exc)) from None
            if not kind.is_action(action):
                raise Refused("malformed", _("That is not a move of %(game)s.") % {
                    "game": _(kind.label)})
            if action.seat != seat:
                raise Refused("not_yours", _("You can only play for your own seat."))
            if game.status != Game.Status.PLAYING:
                raise Refused("game_over", _("The game is over."))
            if version is not None and version != game.version:
                # (the socket sends the page the board as it is now: games.consumers)
                raise Refused("stale", _(
                    "The game moved on before your move arrived (another tab or device may "
                    "have played); it was not played. The table now shows where the game "
                    "is."))
            new_state, events = kind.apply(state_of(game), action)
            Action(game_id=game.pk, seq=new_state.version, seat=seat, payload=action.to_dict(),
                   events=[e.to_dict() for e in events], by=by).save(force_insert=True)
            if by == "player" and seat is not None and (seats[seat].timeouts or seats[seat].away):
                # a player's own move takes their seat back from the bot, as "I'm back" does
                # (the rows in hand say so to the scheduling below)
                was_away = seats[seat].away
                _seat_back(seats[seat])
                if was_away:
                    touch_table(game.table_id)
            over = new_state.phase == OVER
            schedule_after(game, new_state, seats, game.table.turn_seconds, save_deadline=False)
            game.state = new_state.to_dict()
            game.version = new_state.version
            game.ready = []
            game.recent_events = recent(game.recent_events, new_state.version, events)
            fields = {"state": game.state, "version": game.version, "ready": [],
                      "recent_events": game.recent_events, "deadline": game.deadline}
            if over:
                game.status = Game.Status.FINISHED
                game.finished_at = timezone.now()
                fields.update(status=game.status, finished_at=game.finished_at)
            Game.objects.filter(pk=game.pk).update(**fields)
            if over:
                _finish(game, new_state)
            transaction.on_commit(lambda: remember(game.pk, new_state))
            # the end of a game changes the table in the lobby too
            announce_table(game.table_id, new_state.version, lobby=over)
    except IllegalAction as exc:
        raise Refused(exc.code, engine_refusal(exc)) from None
    except IntegrityError:
        raise Refused("stale", _("Another move was played at the same moment; yours was not "
                                 "played.")) from None
    return Played(game, new_state, events)


def _seat_of(seats: list[Seat], user) -> int:
    """The engine seat ``user`` sits in (a leaver's seat row has no user: a bot plays it)."""
    if getattr(user, "is_authenticated", False):
        for position, row in enumerate(seats):
            if row.user_id == user.pk:
                return position
    raise _spectator()


def _spectator() -> Refused:
    return Refused("spectator", _("You are watching this table: only its players can play."))


def player_seat(game: Game, user) -> int:
    """The engine seat ``user`` plays in ``game``; a spectator or a leaver is refused."""
    seat = seat_of_player(game, user)
    if seat is None:
        raise _spectator()
    return seat


def _finish(game: Game, state: GameState) -> None:
    players = list(GamePlayer.objects.filter(game_id=game.pk))
    for player in players:
        if player.left_early and player.place is not None:
            continue
        player.place = state.places[player.seat]
        player.save(update_fields=["place"])
    tell_places(game, players)
    Table.objects.filter(pk=game.table_id).update(status=Table.Status.FINISHED,
                                                   updated_at=timezone.now())
    # the stats, ratings included, are written here in the last move's transaction: the
    # board announced when it commits already shows each player's rating change
    game_finished.send(sender=Game, game=game, state=state)


def do_ready(game_id: int, seat: int) -> bool:
    """A player is ready for the next hand; when every human is, it is dealt now."""
    with transaction.atomic():
        game = lock_game(game_id)
        state = state_of(game)
        if state.phase != SHOWDOWN:
            raise Refused("wrong_phase", _("There is no hand to move on from."))
        ready = set(game.ready) | {seat}
        game.ready = sorted(ready)
        Game.objects.filter(pk=game.pk).update(ready=game.ready)
        humans = {p.seat for p in game.players.all() if p.user_id and not p.left_early}
        everyone = humans <= ready
        announce_table(game.table_id, game.version, lobby=False)
    if everyone:
        with contextlib.suppress(Refused):  # Refused: the clock dealt first
            do_play(game_id, None, kind_for(game).next_hand(), game.version, by="table")
    return everyone


def do_take_seat_back(game: Game, user) -> None:
    """A player marked away plays their own seat again."""
    with transaction.atomic():
        game = lock_game(game.pk)
        seat = Seat.objects.select_for_update().filter(table_id=game.table_id, user=user).first()
        if seat is None:
            raise Refused("not_seated", _("You are not sitting at this table."))
        if not seat.away:
            raise Refused("not_away", _("You are already playing your own seat."))
        _seat_back(seat)
        touch_table(game.table_id)
        reschedule(game)


def _seat_back(seat: Seat) -> None:
    """The seat's player plays it again: not away, no missed turns counted."""
    seat.away, seat.timeouts, seat.missed_since = False, 0, None
    Seat.objects.filter(pk=seat.pk).update(away=False, timeouts=0, missed_since=None)


def bot_choice(game: Game, state, seat: int, level: str):
    """The bot's move for ``seat``; if the bot ever chooses one the engine would not take
    (a bot's mistake), a legal move picked at random instead, and the mistake logged: a
    bot's turn that cannot be played would stop the game for everyone at the table."""
    # a bot's choices need no secrecy, only variety; the deal is what is secret
    kind = kind_for(game)
    rng = random.Random(secrets.randbits(64))  # noqa: S311
    bot = kind.make_bot(level, state.rules, rng)
    try:
        action = kind.to_action(bot.choose(kind.seat_view(state, seat)))
        kind.apply(state, action)  # the engine takes it (apply returns a new state)
        return action
    except Exception:
        log.exception("the %s bot chose a move the engine does not take (game %s, seat %s); "
                      "it plays a legal one at random", level, game.pk, seat)
        return kind.to_action(rng.choice(kind.legal_actions(state, seat)))


# -- what the clock plays for a player whose time ran out (each kind names its own) ------------


def greedy_move(kind: GameKind, game: Game, state, seat: int):
    """Stop the Bus: the casual bot's move, turn after turn until the seat's turn ends."""
    return bot_choice(game, state, seat, "greedy")


def fold_move(kind: GameKind, game: Game, state, seat: int):
    """Brag (RULES.md): a player whose time runs out folds."""
    return kind.action_from_dict({"kind": "fold", "seat": seat})
