"""What a table page shows one viewer: built from the engine's view for that seat.

:func:`load_table` reads what every viewer of a table shares (the table, its
seats, the game, its recent events); :func:`board_for` turns it into one
viewer's template context. Templates only ever see that context -- never the
raw engine state -- so they cannot show what the viewer may not see.
"""

from __future__ import annotations

import itertools
from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import datetime
from threading import Lock

from django.db import connection
from django.utils import timezone

from . import actions, presence
from .engine import Event, GameState, HouseRules, view_for
from .engine.bots import BOT_LEVELS
from .engine.game import OVER, SHOWDOWN
from .models import ChatMessage, Game, GamePlayer, Seat, Table

EVENTS_SHOWN = 40
_SHARED_LOCK = Lock()
CHAT_SHOWN = 50


@dataclass
class TableData:
    table: Table
    seats: list[Seat]
    game: Game | None = None
    state: GameState | None = None
    players: list[GamePlayer] = field(default_factory=list)
    events: list[tuple[int, Event]] = field(default_factory=list)
    deadline: datetime | None = None
    spectators: list = field(default_factory=list)

    def seat_of(self, user) -> int | None:
        if not getattr(user, "is_authenticated", False):
            return None
        for player in self.players:
            if player.user_id == user.pk and not player.left_early:
                return player.seat
        return None

    def table_seat_of(self, user) -> Seat | None:
        if not getattr(user, "is_authenticated", False):
            return None
        return next((s for s in self.seats if s.user_id == user.pk), None)


_SHARED: OrderedDict[tuple[int, str], TableData] = OrderedDict()
_SHARED_MAX = 128  # a change's readers in one process come within moments

# The last full read of each table in this process: what a "game only" change keeps,
# under ((the table's updated_at, read number), data).
_KNOWN: dict[int, tuple[tuple, TableData]] = {}
_KNOWN_MAX = 8192
_reads = itertools.count()


def load_table(table_id: int, stamp: str | None = None, game_only: bool = False) -> TableData:
    """What every viewer of the table shares. Viewers in this process that were told of
    the same change (``stamp``) read it once between them.

    ``game_only``: the change touched only the current game's row (see
    ``actions.announce_table``), so the table, its seats, the players and the
    spectators are taken from this process's last full read of the table, and only
    the game is read -- or not even that, when this process made the change.
    """
    if stamp is None:
        return _read_table(table_id)
    key = (table_id, stamp)
    with _SHARED_LOCK:
        data = _SHARED.get(key)
    if data is None:
        data = (game_only and _read_game(table_id, stamp)) or _read_table(table_id)
        with _SHARED_LOCK:
            _SHARED[key] = data
            while len(_SHARED) > _SHARED_MAX:
                _SHARED.popitem(last=False)
    return data


def _read_table(table_id: int) -> TableData:
    ticket = next(_reads)
    table = Table.objects.select_related("variant", "host").get(pk=table_id)
    seats = list(table.seat_set.select_related("user").order_by("position"))
    data = TableData(table=table, seats=seats, spectators=presence.spectators(table, seats))
    game = table.games.order_by("-number").first()
    if game is not None:
        data.players = list(game.players.all())
        _with_game(data, game)
    # Every change to the seats or the players (a leaver, say) stamps the table's
    # updated_at in its own transaction, and the table row is read first: a read that
    # saw an older table never replaces one that saw a newer, however the threads'
    # reads interleave. (Two reads of the same table row: the one begun later.)
    rank = (table.updated_at, ticket)
    with _SHARED_LOCK:
        known = _KNOWN.get(table_id)
        if known is None or known[0] < rank:
            if len(_KNOWN) >= _KNOWN_MAX:
                _KNOWN.clear()
            _KNOWN[table_id] = (rank, data)
    return data


def _read_game(table_id: int, stamp: str) -> TableData | None:
    """The table as last read in full, with its game as it is now; None if that
    will not do (never read here, or another game since)."""
    with _SHARED_LOCK:
        known = _KNOWN.get(table_id)
    if known is None or known[1].game is None:
        return None
    known = known[1]
    game = actions.announced_game(table_id, stamp) or latest_game(table_id)
    if game is None or game.pk != known.game.pk:
        return None
    # Read after the change was committed: if the table changed since the read we
    # know (a seat changed hands), who sits where must be read again -- else a player
    # who just left could be shown the hand their seat still holds.
    if _table_stamp(table_id) != known.table.updated_at:
        return None
    data = TableData(table=known.table, seats=known.seats, players=known.players,
                     spectators=known.spectators)
    return _with_game(data, game)


def latest_game(table_id: int) -> Game | None:
    """The table's current game. (What ``table.games.order_by("-number").first()``
    reads, for a fraction of the ORM's time: every move has it read once per process.)"""
    found = list(Game.objects.raw(_LATEST_GAME_SQL, [table_id]))
    return found[0] if found else None


_LATEST_GAME_SQL = (f"SELECT * FROM {Game._meta.db_table} "  # noqa: S608 -- names from the model
                    "WHERE table_id = %s ORDER BY number DESC LIMIT 1")
_TABLE_STAMP_SQL = f"SELECT updated_at FROM {Table._meta.db_table} WHERE id = %s"  # noqa: S608


def _table_stamp(table_id: int) -> datetime | None:
    """The table's ``updated_at`` as committed now."""
    if connection.vendor == "postgresql":  # one small query on every change: no ORM
        with connection.cursor() as cursor:
            cursor.execute(_TABLE_STAMP_SQL, [table_id])
            row = cursor.fetchone()
        return row[0] if row else None
    return Table.objects.filter(pk=table_id).values_list("updated_at", flat=True).first()


def _with_game(data: TableData, game: Game) -> TableData:
    data.game = game
    data.state = actions.state_of(game)
    data.events = [(seq, Event.from_dict(e)) for seq, e in game.recent_events[-EVENTS_SHOWN:]]
    data.deadline = actions.turn_deadline(game)
    return data


def reveal_title(label: str) -> str:
    """"hand:3" -> "the deck of hand 3"; "hand:3:reshuffle:1" -> "hand 3, reshuffle 1"."""
    parts = label.split(":")
    if parts[0] == "cut":
        return "the cut for the deal"
    if len(parts) == 2:
        return f"the deck of hand {parts[1]}"
    return f"hand {parts[1]}, reshuffle {parts[3]}"


def _lives_tokens(lives: int, start: int) -> list[bool]:
    """One entry per starting life: True for a life still held."""
    return [i < lives for i in range(max(start, lives))]


def board_for(data: TableData, user) -> dict:
    """The template context of the table page for ``user`` (a player or a spectator)."""
    table = data.table
    me_table_seat = data.table_seat_of(user)
    context = {
        "table": table,
        "spectators": data.spectators,
        "variant": table.variant,
        "seats": data.seats,
        "is_host": getattr(user, "pk", None) == table.host_id,
        "my_table_seat": me_table_seat,
        "free_seats": table.seats - len(data.seats),
        "empty_seats": range(max(table.seats - len(data.seats), 0)),
        "bot_levels": BOT_LEVELS,
        "game": data.game,
    }
    if data.game is None or data.state is None:
        rules = table.variant.rules
        context.update({"rules": rules, "rules_summary": rules.summary(), "version": None,
                        "can_start": len(data.seats) >= rules.min_players})
        return context

    game, state = data.game, data.state
    rules = HouseRules.from_dict(game.rules)
    me = data.seat_of(user)
    view = view_for(state, me)
    playing = game.status == Game.Status.PLAYING
    # while a game runs its seat rows stay put (leavers are replaced by bots), so the
    # i-th seat row is engine seat i; afterwards only the game's own records count
    seat_rows = dict(enumerate(data.seats)) if playing else {}
    players = []
    for entry in view["seats"]:
        i = entry["seat"]
        seat_row = seat_rows.get(i)
        record = data.players[i] if i < len(data.players) else None
        players.append({
            **entry,
            "is_me": i == me,
            "is_bot": record is None or record.user_id is None or record.left_early,
            "bot_level": record.bot_level if record else "",
            "away": bool(seat_row and seat_row.away),
            "left": bool(record and record.left_early),
            "tokens": _lives_tokens(entry["lives"], rules.starting_lives),
            "user_id": record.user_id if record else None,
        })

    legal = view["legal"]
    kinds = {a["kind"] for a in legal}
    swaps = [a for a in legal if a["kind"] == "swap"]
    controls = {
        "any": bool(legal),
        "swap": bool(swaps),
        "swap_limit": max((len(a["give"]) for a in swaps), default=0),
        "swap_and_stop": any(a.get("stop") for a in swaps),
        "stop": "stop" in kinds,
        "stop_label": "Knock" if rules.ranking == "commerce" else "Stop the bus",
        "pass": "pass" in kinds,
        "draw": "draw" in kinds,
        "take_discard": "take_discard" in kinds,
        "discard": [a["give"][0] for a in legal if a["kind"] == "discard"],
        "dealer_swap": "dealer_swap" in kinds,
    }
    seconds_left = None
    if data.deadline is not None:
        seconds_left = max(0, int((data.deadline - timezone.now()).total_seconds()))
    names = {p["seat"]: p["name"] for p in players}
    showdown = None
    if view["showdown"]:
        sd = view["showdown"]
        showdown = {
            "hand": sd["hand"],
            "void": sd["void"],
            "rows": [
                {
                    "name": names[int(seat)],
                    "seat": int(seat),
                    "cards": [{"code": c} for c in cards],
                    "description": sd["values"][seat],
                    "loser": int(seat) in sd["losers"],
                    "winner": int(seat) in sd["winners"],
                    "lives_lost": sd["lives_lost"].get(seat, 0),
                    "pot_won": sd["pot_won"].get(seat, 0),
                    "eliminated": int(seat) in sd["eliminated"],
                    "floating": int(seat) in sd["floating"],
                    "stopper": sd["stopper"] == int(seat),
                    "blitzer": sd["blitzer"] == int(seat),
                }
                for seat, cards in sd["hands"].items()
            ],
            "reveals": [{**r, "title": reveal_title(r["label"])} for r in view["reveals"]],
        }
    standings = None
    if state.phase == OVER:
        by_place = sorted(players, key=lambda p: (p["place"] or 99, p["seat"]))
        standings = [{"place": p["place"], "name": p["name"], "is_me": p["is_me"]}
                     for p in by_place]
    context.update({
        "rules": rules,
        "rules_summary": rules.summary(),
        "version": view["version"],
        "view": view,
        "me": me,
        "is_player": me is not None,
        "players": players,
        "opponents": [p for p in players if not p["is_me"]],
        "me_player": next((p for p in players if p["is_me"]), None),
        "controls": controls,
        "swap_input": "checkbox" if controls["swap_limit"] > 1 else "radio",
        "events": [(seq, e.text_for(me), e.kind) for seq, e in data.events],
        "turn_name": names.get(view["turn"]) if view["turn"] is not None else None,
        "dealer_name": names.get(view["dealer"]),
        "stopper_name": names.get(view["stopper"]) if view["stopper"] is not None else None,
        "final_left_names": [names[s] for s in view["final_left"]],
        "seconds_left": seconds_left,
        "deadline_iso": data.deadline.isoformat() if data.deadline else None,
        "showdown": showdown,
        "in_showdown": state.phase == SHOWDOWN,
        "over": state.phase == OVER,
        "standings": standings,
        "ready": me is not None and me in (game.ready or []),
        "away": bool(me is not None and seat_rows.get(me) and seat_rows[me].away
                     and seat_rows[me].user_id),
        "stop_word": "knocked" if rules.ranking == "commerce" else "stopped the bus",
    })
    return context


def recent_chat(table: Table) -> list[ChatMessage]:
    rows = list(ChatMessage.objects.filter(table=table).select_related("user")
                .order_by("-created_at")[:CHAT_SHOWN])
    return rows[::-1]
