"""What a table page shows one viewer: built from the engine's view for that seat.

:func:`load_table` reads what every viewer of a table shares (the table, its
seats, the game, its recent events); :func:`board_for` turns it into one
viewer's template context. Templates only ever see that context -- never the
raw engine state -- so they cannot show what the viewer may not see. Neither
keeps anything between calls: ``games.render`` decides what is read and
rendered once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.db.models import F
from django.utils import timezone, translation
from django.utils.translation import gettext, pgettext

from . import presence
from .actions import state_of
from .bot_names import shown_names, stand_in_name
from .engine import Event, GameState, HouseRules
from .engine.game import OVER, SHOWDOWN
from .event_text import event_text, hand_words
from .hints import board_hints
from .kinds import kind_for
from .memo import Once
from .models import ChatMessage, Game, GamePlayer, Invitation, Seat, Table
from .pace import time_left_words

EVENTS_SHOWN = 40
CHAT_SHOWN = 50
# Each event of the log said once per reader's language and per side (the seat it is
# private to, or everyone else), however many boards and revisions show it: a board
# shows the last EVENTS_SHOWN and a move adds one or two, so without this nearly all of
# a log would be said again for every viewer after every move.
SAID = Once(32768)


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
    # the invitations of a waiting table whose players have not sat down, as
    # (invitation id, user id, username), oldest first; read only while it waits
    invited: list = field(default_factory=list)
    ratings: dict | None = field(default=None, repr=False, compare=False)
    # what every viewer's board of this read works out alike (an engine view, the
    # rules), worked out once per read: see :meth:`once`
    made: dict = field(default_factory=dict, repr=False, compare=False)

    def once(self, key, make):
        """``make()``, once per read of the table for each ``key``: a value that depends
        only on what was read (and ``key``), shared by every viewer's board and the pass
        that publishes them. Treat it as read-only."""
        try:
            return self.made[key]
        except KeyError:
            value = self.made[key] = make()
            return value

    def view(self, seat: int | None) -> dict:
        """The engine's view of the game for ``seat`` (None: a spectator), worked out
        once per read."""
        return self.once(("view", seat), lambda: kind_for(self.game).view_for(self.state, seat))

    def rating_changes(self) -> dict:
        """Each seat's rating change in this finished game (``GameKind.rating_changes``),
        read at most once per read of the table, however many viewers' boards show it.
        Only a finished game's board asks: a board during play costs no query for it."""
        if self.ratings is None:
            self.ratings = kind_for(self.game).hook("rating_changes")(self.game)
        return self.ratings

    def seat_of(self, user) -> int | None:
        """The engine seat ``user`` plays, or None (spectators, leavers, no game)."""
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

    @property
    def kept_key(self) -> tuple:
        """What the kept regions of a board show (``{% fragment NAME kept %}``): the table
        row, its seats, the game's players and who watches (all of which move the table's
        ``updated_at`` on), and which game, running or not."""
        game = self.game
        return (self.table.pk, self.table.updated_at, self.table.status,
                game.pk if game else None, game.status if game else None,
                tuple(u.pk for u in self.spectators))

    @property
    def revision(self) -> tuple:
        """Everything a board shows that can change: equal revisions, equal boards."""
        game = self.game
        return (self.table.pk, self.table.updated_at, self.table.status,
                game.pk if game else None, game.version if game else None,
                tuple(game.ready or ()) if game else (), game.deadline if game else None,
                tuple(u.pk for u in self.spectators))


def load_table(table_id: int, parts=None) -> TableData:
    """The table as committed now: what every viewer of it shares.

    One query reads the current game with the stamp of its table (``updated_at``,
    which every change to the table row, its seats, the game's players and who
    watches moves on). The table with its variant, its seats, the game's players and
    the spectators are read by ``parts(key, read)``, which may keep them under
    ``key`` = (table, stamp, game); by default they are read every time. They are read
    after the game row, so they are never older than the key they are kept under.
    (A variant renamed in admin shows under its new name from the table's next change.)
    """
    game = (Game.objects.filter(table_id=table_id).annotate(table_stamp=F("table__updated_at"))
            .order_by("-number").first())
    if game is None:
        table = Table.objects.select_related("variant").get(pk=table_id)
        key = (table_id, table.updated_at, None)
    else:
        table = None  # read with the parts, after the game row
        key = (table_id, game.table_stamp, game.pk)

    def read():
        return _parts(table or Table.objects.select_related("variant").get(pk=table_id), game)

    table, seats, players, spectators, invited = read() if parts is None else parts(key, read)
    data = TableData(table=table, seats=seats, spectators=spectators, invited=invited)
    if game is not None:
        game.table = table
        data.game = game
        data.players = players
        data.state = state_of(game)
        data.events = [(seq, Event.from_dict(e))
                       for seq, e in game.recent_events[-EVENTS_SHOWN:]]
        data.deadline = game.deadline if game.status == Game.Status.PLAYING else None
    return data


def _parts(table: Table, game: Game | None) -> tuple[Table, list, list, list, list]:
    seats = list(table.seat_set.select_related("user").order_by("position"))
    players = list(game.players.all()) if game is not None else []
    return table, seats, players, presence.spectators(table, seats), _invited(table, seats)


def _invited(table: Table, seats: list[Seat]) -> list[tuple[int, int, str]]:
    """Who is invited to the waiting ``table`` and not seated at it (an invitation moves
    the table's ``updated_at`` on, as a seat does). Only a waiting table is asked: no
    one can be invited once the game starts, and a move's read of the table costs no
    query for it."""
    if table.status != Table.Status.WAITING:
        return []
    seated = {seat.user_id for seat in seats if seat.user_id}
    return [row for row in Invitation.objects.filter(table=table).order_by("created_at", "pk")
            .values_list("pk", "user_id", "user__username") if row[1] not in seated]


def reveal_title(label: str) -> str:
    """"hand:3" -> "the deck of hand 3"; "hand:3:reshuffle:1" -> "hand 3, reshuffle 1";
    a Brag pack's "shuffle:2" -> "the pack of shuffle 2" (in the reader's language)."""
    parts = label.split(":")
    if parts[0] == "cut":
        return gettext("the cut for the deal")
    if parts[0] == "shuffle":
        return gettext("the pack of shuffle %(shuffle)s") % {"shuffle": parts[1]}
    if len(parts) == 2:
        return gettext("the deck of hand %(hand)s") % {"hand": parts[1]}
    return gettext("hand %(hand)s, reshuffle %(reshuffle)s") % {"hand": parts[1],
                                                                "reshuffle": parts[3]}


def said_events(data: TableData, me: int | None, say, **words) -> list[tuple[int, str, str]]:
    """The recent events as (seq, sentence, kind) for the viewer at seat ``me``, each
    ``say(event, names, me, **words)`` in the reader's language, said once
    (:data:`SAID`).

    A sentence depends on the event, the seats' names, the language, the rules' words
    and whether the viewer is the seat the event is private to; so is it kept: by game,
    the event's action number, kind, seat and words (its public and, for its own seat,
    private English, which carry its cards), and the viewer's side of it."""
    names = seat_names(data)
    names_key = tuple(names.items()) if isinstance(names, dict) else tuple(names)
    # the key holds only numbers and words (``say`` by its name): such tuples are left
    # out of the garbage collector's walks, and the cache keeps tens of thousands
    base = (data.game.pk, translation.get_language(), names_key,
            f"{say.__module__}.{say.__qualname__}", tuple(sorted(words.items())))
    rows = []
    for seq, e in data.events:
        own = me is not None and me == e.seat
        key = (base, seq, e.kind, e.seat, e.text, own, e.private if own else None)
        rows.append((seq, SAID.get(key, lambda e=e: say(e, names, me, **words)), e.kind))
    return rows


def seat_names(data: TableData):
    """The game's seats' names as the reader reads them (a bot's in the active language),
    worked out once per read and language: the engine's ``names`` are as the game began."""
    return data.once(("names", translation.get_language()),
                     lambda: shown_names(data.state.names, data.players))


def log_rows(data: TableData, me: int | None, ranking: str) -> list[tuple[int, str, str]]:
    """The recent events as (seq, sentence, kind) for the viewer at seat ``me``, each
    said in the reader's language (games/event_text.py)."""
    return said_events(data, me, event_text, ranking=ranking)


def said_hands(view: dict, ranking: str) -> dict:
    """``view`` with its hand values (the viewer's own, and each hand shown) described in
    the reader's language; the engine's dicts are not changed."""
    def said(shown):
        if shown is None:
            return None
        codes = [c["code"] if isinstance(c, dict) else c for c in shown["cards"]]
        return {**shown, "description": hand_words(shown["category"], codes, ranking)}

    view = {**view, "seats": [{**seat, "shown": said(seat["shown"])} for seat in view["seats"]]}
    if view["hand_value"] is not None and view["hand"]:
        view["hand_value"] = {**view["hand_value"], "description": hand_words(
            view["hand_value"]["category"], [c["code"] for c in view["hand"]], ranking)}
    return view


def _lives_tokens(lives: int, start: int) -> list[bool]:
    """One entry per starting life: True for a life still held."""
    return [i < lives for i in range(max(start, lives))]


def board_for(data: TableData, user) -> dict:
    """The template context of the table page for ``user`` (a player or a spectator).

    Before the first game every kind's board shows the same seats; a game's board is
    the kind's own (``GameKind.board_builder``)."""
    context = _table_context(data, user)
    if data.game is None or data.state is None:
        rules = data.table.variant.rules
        context.update({"rules": rules, "rules_summary": rules.summary(), "version": None,
                        "can_start": len(data.seats) >= rules.min_players})
        return context
    context.update(kind_for(data.game).hook("board_builder")(data, user))
    context["hints"] = board_hints(data, user, context)
    return context


def end_of_game(data: TableData, player: dict) -> dict:
    """What the end of game panel shows of one seat besides its place: who played it (a
    leaver's or an away player's own name, not their bot's: the rating is theirs),
    whether a bot played it from the start, and the rating change the game made for it
    (None for a bot, a player without a rating row, or any seat of an unrated game)."""
    seat = player["seat"]
    record = data.players[seat] if seat < len(data.players) else None
    return {
        "seat": seat,
        "person": record.shown_name if record else player["name"],
        "left": bool(record and record.left_early),
        "is_bot": record is None or record.user_id is None,
        "rating": data.rating_changes().get(seat),
    }


def stop_the_bus_board(data: TableData, user) -> dict:
    """What a Stop the Bus game adds to the board's context for ``user``."""
    context = {}
    me = data.seat_of(user)
    rules = data.once("rules", lambda: HouseRules.from_dict(data.game.rules))
    view = said_hands(data.view(me), rules.ranking)
    players = _players(data, view, me, rules)
    context.update(_game_context(data, view, me, rules, players))
    return context


def _table_context(data: TableData, user) -> dict:
    """The seats and what this viewer may do before (and between) games."""
    table = data.table
    my_table_seat = data.table_seat_of(user)
    return {
        "table": table,
        "spectators": data.spectators,
        # who was invited and has not sat down: for the players at the table only (a
        # private table's guests are nobody else's business)
        "invited": [{"user_id": user_id, "name": name}
                    for _pk, user_id, name in data.invited] if my_table_seat else [],
        "variant": table.variant,
        "seats": data.seats,
        "is_host": getattr(user, "pk", None) == table.host_id,
        "my_table_seat": my_table_seat,
        "free_seats": table.seats - len(data.seats),
        "empty_seats": range(max(table.seats - len(data.seats), 0)),
        "bot_levels": data.once(("bot_levels", translation.get_language()), lambda: {
            level: gettext(label) for level, label in kind_for(table.variant).bot_levels.items()}),
        "board_template": kind_for(table.variant).board_template,
        "keys_template": kind_for(table.variant).keys_template,
        "game": data.game,
    }


def _players(data: TableData, view: dict, me: int | None, rules: HouseRules) -> list[dict]:
    """Each seat as the viewer sees it, with who plays it (a leaver's seat: a bot)."""
    # while a game runs its seat rows stay put (leavers are replaced by bots), so the
    # i-th seat row is engine seat i; afterwards only the game's own records count
    playing = data.game.status == Game.Status.PLAYING
    seat_rows = dict(enumerate(data.seats)) if playing else {}
    players = []
    names = seat_names(data)
    for entry in view["seats"]:
        i = entry["seat"]
        seat_row = seat_rows.get(i)
        record = data.players[i] if i < len(data.players) else None
        left = bool(record and record.left_early)
        name = names[i] if i < len(names) else entry["name"]
        players.append({
            **entry,
            "name": stand_in_name(name) if left else name,
            "is_me": i == me,
            "is_bot": record is None or record.user_id is None or left,
            "bot_level": record.bot_level if record else "",
            "away": bool(seat_row and seat_row.away),
            "left": left,
            "tokens": _lives_tokens(entry["lives"], rules.starting_lives),
            "user_id": record.user_id if record else None,
        })
    return players


def _controls(view: dict, rules: HouseRules) -> dict:
    """Which move forms the viewer gets: exactly the legal moves."""
    legal = view["legal"]
    kinds = {a["kind"] for a in legal}
    swaps = [a for a in legal if a["kind"] == "swap"]
    return {
        "any": bool(legal),
        "swap": bool(swaps),
        "swap_limit": max((len(a["give"]) for a in swaps), default=0),
        "swap_and_stop": any(a.get("stop") for a in swaps),
        "stop": "stop" in kinds,
        "stop_label": (pgettext("button", "Knock") if rules.ranking == "commerce"
                       else pgettext("button", "Stop the bus")),
        "pass": "pass" in kinds,
        "draw": "draw" in kinds,
        "take_discard": "take_discard" in kinds,
        "discard": [a["give"][0] for a in legal if a["kind"] == "discard"],
        "dealer_swap": "dealer_swap" in kinds,
    }


def _showdown(view: dict, names: dict, ranking: str) -> dict | None:
    sd = view["showdown"]
    if not sd:
        return None
    return {
        "hand": sd["hand"],
        "void": sd["void"],
        "rows": [
            {
                "name": names[int(seat)],
                "seat": int(seat),
                "cards": [{"code": c} for c in cards],
                "description": hand_words(sd["categories"][seat], cards, ranking),
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


def _game_context(data: TableData, view: dict, me: int | None, rules: HouseRules,
                  players: list[dict]) -> dict:
    game, state = data.game, data.state
    controls = _controls(view, rules)
    seconds_left = None
    if data.deadline is not None:
        seconds_left = max(0, int((data.deadline - timezone.now()).total_seconds()))
    names = {p["seat"]: p["name"] for p in players}
    standings = None
    if state.phase == OVER:
        by_place = sorted(players, key=lambda p: (p["place"] or 99, p["seat"]))
        standings = [{"place": p["place"], "name": p["name"], "is_me": p["is_me"],
                      **end_of_game(data, p)} for p in by_place]
    my_row = data.seats[me] if (me is not None and game.status == Game.Status.PLAYING
                                and me < len(data.seats)) else None
    return {
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
        "events": log_rows(data, me, rules.ranking),
        "turn_name": names.get(view["turn"]) if view["turn"] is not None else None,
        "dealer_name": names.get(view["dealer"]),
        "stopper_name": names.get(view["stopper"]) if view["stopper"] is not None else None,
        "final_left_names": [names[s] for s in view["final_left"]],
        "seconds_left": seconds_left,
        # a post turn's hours and days, in words (its seconds would read "86398 s")
        "post_time_left": (time_left_words(seconds_left)
                           if seconds_left is not None and data.table.is_post else ""),
        "deadline_iso": data.deadline.isoformat(timespec="seconds") if data.deadline else None,
        "showdown": _showdown(view, names, rules.ranking),
        "in_showdown": state.phase == SHOWDOWN,
        "over": state.phase == OVER,
        "standings": standings,
        "ready": me is not None and me in (game.ready or []),
        "away": bool(my_row and my_row.away and my_row.user_id),
    }


def recent_chat(table: Table) -> list[ChatMessage]:
    rows = list(ChatMessage.objects.filter(table=table).select_related("user")
                .order_by("-created_at")[:CHAT_SHOWN])
    return rows[::-1]
