"""The list of a player's post tables: where it is their turn, then where others are to move.

``tables_waiting_for(user)`` reads a constant number of queries however many tables a
player sits at (a test pins it); the /turns page, the lobby's first block, the count in
the navigation and the notify app's email digest all read it. Reads only: the rows are
written by ``games.actions`` (``Seat.turn_since`` says whose turn it is).
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from threading import Lock

from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from accounts.holidays import holidays_until

from .actions.base import state_of
from .bot_names import stand_in_name, stored_bot_name
from .kinds import GameKind, kind_for
from .models import Game, Seat, Table, TableSkip, Variant
from .pace import POST_PACES, move_time, time_left_words
from .rules_text import variant_name


@dataclass
class TurnRow:
    table: Table
    game: Game
    kind: GameKind
    my_turn: bool
    others: list[str]
    must_do: str = ""
    deadline: datetime | None = None
    last_move: datetime | None = None
    cards: tuple[int, ...] | None = None
    card_count: int = 0
    away: bool = False
    skipped: bool = False
    fresh_deal: bool = False
    on_holiday: dict[str, object] = field(default_factory=dict)
    key: tuple = ()

    @property
    def game_label(self) -> str:
        return _(self.kind.label)

    @property
    def variant(self) -> str:
        return variant_name(self.table.variant)

    @property
    def seconds_left(self) -> float | None:
        if self.deadline is None:
            return None
        return max(0.0, (self.deadline - timezone.now()).total_seconds())

    @property
    def time_left_words(self) -> str:
        seconds = self.seconds_left
        return "" if seconds is None else time_left_words(seconds)

    # what the notify app's email digest reads of a row
    @property
    def time_left(self) -> timedelta | None:
        seconds = self.seconds_left
        return None if seconds is None else timedelta(seconds=seconds)

    @property
    def table_id(self) -> int:
        return self.table.pk

    @property
    def table_name(self) -> str:
        return self.table.name

    @property
    def what(self) -> str:
        return self.must_do

    @property
    def url(self) -> str:
        return self.table.get_absolute_url()


@dataclass(frozen=True)
class _MySeat:
    """The player's own seat at a post table, and what a row shows of the table."""

    id: int
    table_id: int
    away: bool
    turn_since: datetime | None
    name: str
    pace: str
    status: str
    variant_id: int
    variant_name: str
    variant_game: str
    auto_name: str = ""

    def table(self) -> Table:
        table = Table(id=self.table_id, name=self.name, auto_name=self.auto_name,
                      pace=self.pace, status=self.status, variant_id=self.variant_id)
        table.variant = Variant(id=self.variant_id, name=self.variant_name,
                                game=self.variant_game)
        return table


def turns_count(user) -> int:
    """How many post tables wait for ``user``'s move (the navigation's count, on every
    page): kept on the account's row by ``games.actions.post`` whenever the player's turns
    change, so a page reads it with the signed-in user and asks nothing more."""
    if not getattr(user, "is_authenticated", False):
        return 0
    return getattr(user, "post_turns", 0) or 0


def tables_waiting_for(user) -> list[TurnRow]:
    """One row per running post table ``user`` sits at: first those where it is their
    turn, most urgent first (least time left; a fresh deal before a hand under way),
    tables they skipped for now behind those, then the tables waiting for others, the
    latest move first."""
    if not getattr(user, "is_authenticated", False):
        return []
    # plain values, not model rows: a list of a hundred tables is read on every visit,
    # and its rows are kept (``_remembered_row``) until their game moves on; the models
    # a row is made from are built only for the rows not kept
    # one query for the player's seats with their running games, one for everybody's
    # seats at those tables (joined in the database: no list of ids goes back and forth)
    at_my_tables = {"table__pace__in": POST_PACES, "table__status": Table.Status.PLAYING}
    mine, games = {}, {}
    for r in (Seat.objects.filter(user=user, table__games__status=Game.Status.PLAYING,
                                  **at_my_tables)
              .values_list("id", "table_id", "away", "turn_since", "table__name",
                           "table__pace", "table__status", "table__variant_id",
                           "table__variant__name", "table__variant__game",
                           "table__games__id", "table__games__version",
                           "table__games__deadline", "table__games__number",
                           "table__auto_name")):
        mine[r[1]] = _MySeat(*r[:10], auto_name=r[14])
        games[r[1]] = (r[10], r[1], *r[11:14])
    if not mine:
        return []
    seats_by_table: dict[int, list[tuple]] = {}
    for row in (Seat.objects.filter(table__seat_set__user=user, **at_my_tables)
                .order_by("table_id", "position")
                .values_list("table_id", "position", "user_id", "bot_level",
                             "user__username")):
        seats_by_table.setdefault(row[0], []).append(row[1:])
    now = timezone.now()
    # the player's skips (a few at most): those of tables not listed are not looked up
    skipped = set(TableSkip.objects.filter(user=user, until__gt=now)
                  .values_list("table_id", flat=True))
    others_ids = {s[1] for seats in seats_by_table.values() for s in seats
                  if s[1] and s[1] != user.pk}
    away_until = holidays_until(others_ids)
    language = get_language()
    keys = {}
    for table_id, seat in mine.items():
        game = games.get(table_id)
        if game is None:
            continue
        seats = seats_by_table.get(table_id, [])
        holidays = tuple((s[3], away_until[s[1]]) for s in seats if s[1] in away_until)
        # a row is the same until its game moves on (its time left is worked out live)
        keys[table_id] = (user.pk, language, game[0], game[2], seat.away,
                          seat.turn_since is not None, table_id in skipped, holidays,
                          game[3], seat.name, seat.variant_name,
                          tuple(s[1] for s in seats))
    # the rows not kept need their game's last events, and its state where this process
    # has not parsed it at its version (actions.base.state_of): one query for them all
    missing = [games[t][0] for t, key in keys.items() if _remembered_row(key) is None]
    read = {}
    if missing:
        read = {pk: (events, state) for pk, events, state in Game.objects.filter(
            pk__in=missing).values_list("pk", "recent_events", "state")}
    rows = []
    for table_id, key in keys.items():
        row = _remembered_row(key)
        if row is None:
            seat = mine[table_id]
            pk, _table_id, version, deadline, number = games[table_id]
            events, state = read[pk]
            table = seat.table()
            game = Game(id=pk, table_id=table_id, version=version, deadline=deadline,
                        number=number, recent_events=events, state=state)
            game.table = table
            row = _row(user, seat, game, seats_by_table.get(table_id, []),
                       table_id in skipped, dict(key[7]))
            row.key = key
            _remember_row(key, row)
        rows.append(row)
    theirs = [r for r in rows if r.my_turn and not r.skipped]
    later = [r for r in rows if r.my_turn and r.skipped]
    others = [r for r in rows if not r.my_turn]
    urgent = _urgency
    theirs.sort(key=urgent)
    later.sort(key=urgent)
    others.sort(key=lambda r: r.last_move or now, reverse=True)
    return theirs + later + others


# Rows, and their HTML, kept per process: a player's list is read again and again while
# few of its games move (bounded, least recently used first out).
_ROWS: OrderedDict = OrderedDict()
_ROWS_LOCK = Lock()
ROWS_KEPT = 8192


def _remembered_row(key):
    with _ROWS_LOCK:
        row = _ROWS.get(key)
        if row is not None:
            _ROWS.move_to_end(key)
        return row


def _remember_row(key, value) -> None:
    with _ROWS_LOCK:
        _ROWS[key] = value
        _ROWS.move_to_end(key)
        while len(_ROWS) > ROWS_KEPT:
            _ROWS.popitem(last=False)


def row_html(row: TurnRow) -> str:
    """The row's markup (games/_turn_row.html), rendered once per row and minute left."""
    from django.template.loader import render_to_string

    key = ("html", row.key, row.time_left_words)
    html = _remembered_row(key)
    if html is None:
        html = render_to_string("games/_turn_row.html", {"row": row})
        _remember_row(key, html)
    return html


def _urgency(row: TurnRow):
    return (row.deadline or timezone.now(), not row.fresh_deal, row.table.pk)


def _names(seats: list[tuple], state) -> list[str]:
    """Each seat's name as the table's page gives it, in the reader's language: a player's,
    a bot's ("Casual bot 2"), and the bot playing on for a player who left, "Bot for bert"
    (as games.views.name_seats has it). The leaver is read from the game's own names,
    already in hand: a seat a bot holds now that the game did not begin with that bot in."""
    began = getattr(state, "names", None) or []
    shown = []
    # while a game runs its seat rows stay put: the i-th by position is engine seat i
    for i, (position, user_id, bot_level, username) in enumerate(seats):
        if user_id:
            shown.append(username)
        elif i < len(began) and began[i] != stored_bot_name(bot_level, position):
            shown.append(stand_in_name(began[i]))
        else:
            shown.append(Seat(position=position, bot_level=bot_level).display_name)
    return shown


def _row(user, seat: _MySeat, game: Game, seats: list[tuple], skipped: bool,
         holidays: dict) -> TurnRow:
    kind = kind_for(game.table.variant)  # not the game: its snapshot may not be read
    state = state_of(game)
    position = next((i for i, s in enumerate(seats) if s[1] == user.pk), None)
    view = kind.seat_view(state, position)
    my_turn = seat.turn_since is not None
    shown = _names(seats, state)
    names = [shown[i] for i, s in enumerate(seats) if s[1] != user.pk]
    last_move = (game.deadline - move_time(game.table.pace)) if game.deadline else None
    events = game.recent_events or []  # read here, for a row not kept: rows change rarely
    fresh = bool(events) and any(e[1].get("kind") == "deal" for e in events[-len(seats) - 1:])
    row = TurnRow(table=game.table, game=game, kind=kind, my_turn=my_turn, others=names,
                  deadline=game.deadline, last_move=last_move, away=seat.away,
                  skipped=skipped, fresh_deal=fresh and my_turn, on_holiday=holidays)
    hand = getattr(view, "hand", None)
    row.cards = tuple(hand) if hand else None
    counts = getattr(view, "card_counts", None)
    row.card_count = (counts[position] if counts and position is not None
                      else 3 if row.cards is None else len(row.cards))
    if my_turn:
        row.must_do = kind.hook("move_words")(view)
    else:
        turn = state.turn
        if turn is not None and turn < len(seats):
            row.must_do = _("Waiting for %(player)s") % {"player": shown[turn]}
    return row


def next_table(user, leaving: int | None = None) -> Table | None:
    """The first table of ``user``'s list where it is their turn (after a move: "Next
    table"), other than the table ``leaving`` (the one the player is at)."""
    for row in tables_waiting_for(user):
        if not row.my_turn:
            break
        if row.table.pk != leaving:
            return row.table
    return None


def ways_on(rows: list[TurnRow], table_id: int) -> dict:
    """What a post table's bar offers a player at table ``table_id`` (``rows``: their
    list, ``tables_waiting_for``): nothing unless they play its running game; "Skip for
    now" only while it is their turn there and they have another table to put it behind,
    "Next table" only while another table waits for their move."""
    here = next((r for r in rows if r.table.pk == table_id), None)
    my_turn = bool(here and here.my_turn)
    return {"table_id": table_id,
            "playing": here is not None,
            "my_turn": my_turn,
            "may_skip": my_turn and any(r.table.pk != table_id for r in rows),
            "others_wait": any(r.my_turn and r.table.pk != table_id for r in rows)}


def render_turns(user, in_lobby: bool = True, with_list: bool = True,
                 post_table: int | None = None) -> str:
    """The live update of a player's pages after their list changed: the navigation's
    count and, for a page that shows it (``with_list``), the list; for the page of the
    post table ``post_table``, its bar's ways on (out-of-band swaps by id)."""
    from django.template.loader import render_to_string

    rows = tables_waiting_for(user)
    return render_to_string("games/_turns_live.html", {
        "turn_rows": rows, "count": sum(1 for r in rows if r.my_turn), "in_lobby": in_lobby,
        "user": user, "with_list": with_list,
        "ways_on": ways_on(rows, post_table) if post_table is not None else None})


def post_bar(table: Table, user) -> dict | None:
    """What a post table's page shows above the board: who is on holiday, and the way on to
    the next table (a seat a bot plays has its button back on the board's status line)."""
    if not table.is_post:
        return None
    seats = list(Seat.objects.filter(table=table).select_related("user")
                 .only("id", "user_id", "user__username"))
    mine = any(user.is_authenticated and s.user_id == user.pk for s in seats)
    away_until = holidays_until([s.user_id for s in seats])
    playing = table.status == Table.Status.PLAYING
    return {
        "pace": table.pace_words,
        "holidays": [(s.user.username, away_until[s.user_id]) for s in seats
                     if s.user_id in away_until],
        # the ways on, as the table's socket sends them again whenever the player's turns
        # change (``render_turns``)
        "ways_on": ways_on(tables_waiting_for(user) if mine and playing else [], table.pk),
    }
