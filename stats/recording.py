"""Writing the aggregates: when a game ends, and again on a rebuild.

``games.actions`` calls :func:`record_finished_game` inside the transaction
that applies a game's last action, so a game's stats exist exactly when the
game is finished. Per-hand facts come from replaying the game's log with the
engine (the log is the truth; the snapshot is only a cache).

The counting itself is :class:`Ledger`: in-memory rows updated one finished
game at a time. Recording a game loads (and locks) the rows of the people in
it, adds the game and saves them; ``manage.py rebuild_stats`` starts from an
empty ledger and adds every finished game in finish order; the benchmark fills
its database the same way. One piece of code, so a rebuild gives exactly what
was written game by game.

What counts, per user, overall and per variant:

* **games, wins, places** -- every finished game a user sat in, bots or not;
  a player who left early keeps the place recorded when they left.
* **hands** -- showdowns they were in. A hand is **lost** with lives scoring
  when they are among the losers of a showdown that took lives (a "nobody is
  out" showdown takes none); with points or a pot, when they are not among the
  best hands. **Survived** is the rest.
* **stops / stops lost** -- hands they stopped the bus (knocked), and of those
  the ones they then lost, by the same rule.
* **lives lost, floats, blitzes**, and the **categories** of their showdown hands.
* **best hand** -- their best showdown hand. Per variant it is the strongest;
  across variants (whose rankings may differ) the best category first (see
  :data:`CATEGORY_ORDER`), then the share of all hands it beats.
* A player who **left early** is counted for the hands up to the last one they
  played themselves (an action by them or by their clock); a bot played their
  seat after that.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import Prefetch, Q

from games.engine import Action as EngineAction
from games.engine import HouseRules, apply, new_game
from games.engine.cards import parse_card
from games.engine.game import OVER, SHOWDOWN
from games.kinds import STOP_THE_BUS
from games.models import Action, Game, GamePlayer

from .models import PlayerGame, PlayerStats
from .rating import Entrant, RatingChange, bot_rating, display_rating, rate

log = logging.getLogger(__name__)

# Across rankings: a higher number is a better kind of hand.
CATEGORY_ORDER = {
    "high_card": 0, "point": 0,
    "pair": 1,
    "flush": 2,
    "run": 3,
    "running_flush": 4, "sequence": 4,
    "prial": 5, "tricon": 5,
    "thirty_one": 6,
}

# Actions that show the seat's own person was still at the table.
OWN_ACTION_BY = ("player", "clock")

STAT_FIELDS = [
    "games", "wins", "place_total", "place_counts", "hands", "hands_survived", "lives_lost",
    "stops", "stops_lost", "floats", "blitzes", "categories", "best_hand",
    "best_hand_description", "best_hand_category", "best_hand_order", "best_hand_percentile",
    "best_hand_strength", "best_hand_game", "rating_mu", "rating_sigma", "rating",
    "rated_games", "last_played_at",
]


# -- facts of one game ---------------------------------------------------------------------------


@dataclass
class BestHand:
    key: tuple[int, float, int]  # (category order, percentile, strength)
    cards: list[str]
    description: str
    category: str


@dataclass
class SeatFacts:
    hands: int = 0
    survived: int = 0
    lives_lost: int = 0
    stops: int = 0
    stops_lost: int = 0
    floats: int = 0
    blitzes: int = 0
    categories: dict[str, int] = field(default_factory=dict)
    best: BestHand | None = None


@dataclass
class SeatResult:
    seat: int
    user_id: int | None
    bot_level: str
    place: int
    left_early: bool
    facts: SeatFacts


@dataclass
class GameFacts:
    game_id: int
    variant_id: int
    finished_at: object  # datetime
    rated: bool
    seats: list[SeatResult]


def lost_hand(showdown: dict, seat: int, scoring: str) -> bool:
    if scoring == "lives":
        return seat in showdown["losers"] and not showdown["void"]
    return seat not in showdown["winners"]


def replay_log(rules: HouseRules, names, seed: bytes, actions):
    """Replay a log. ``actions``: (seat, payload, by) in order from seq 1.

    Returns the final state, every showdown in order, and per seat the last hand
    in which the seat's own person acted.
    """
    state, _ = new_game(rules, names, seed)
    showdowns = []
    last_own_hand = [0] * len(names)
    for seat, payload, by in actions:
        if seat is not None and by in OWN_ACTION_BY:
            last_own_hand[seat] = state.hand_no
        before = state.phase
        state, _ = apply(state, EngineAction.from_dict(payload))
        if state.phase in (SHOWDOWN, OVER) and before not in (SHOWDOWN, OVER):
            showdowns.append(state.showdown)
    return state, showdowns, last_own_hand


def seat_facts(rules: HouseRules, showdowns: list[dict], seat: int,
               last_hand: int | None = None) -> SeatFacts:
    """What ``seat`` did at the showdowns (up to hand ``last_hand``, if given)."""
    facts = SeatFacts()
    key = str(seat)
    ranking = None
    for sd in showdowns:
        if last_hand is not None and sd["hand"] > last_hand:
            break
        if key not in sd["hands"]:
            continue
        facts.hands += 1
        lost = lost_hand(sd, seat, rules.scoring)
        facts.survived += not lost
        facts.lives_lost += sd["lives_lost"].get(key, 0)
        if sd["stopper"] == seat:
            facts.stops += 1
            facts.stops_lost += lost
        facts.floats += seat in sd["floating"]
        facts.blitzes += sd["blitzer"] == seat
        category = sd["categories"][key]
        facts.categories[category] = facts.categories.get(category, 0) + 1
        order = CATEGORY_ORDER.get(category, 0)
        strength = sd["strengths"][key]
        if facts.best is None or (order, strength) > (facts.best.key[0], facts.best.key[2]):
            if ranking is None:
                ranking = rules.hand_ranking
            cards = sd["hands"][key]
            value = ranking.evaluate(tuple(parse_card(c) for c in cards))
            facts.best = BestHand((order, value.percentile, strength), list(cards),
                                  sd["values"][key], category)
    return facts


def game_facts(game: Game, players: list[GamePlayer], actions, fallback_places=None
               ) -> GameFacts:
    """The facts of a finished game from its log. ``actions``: (seat, payload, by) from seq 1."""
    rules = HouseRules.from_dict(game.rules)
    names = [p.name for p in players]
    try:
        state, showdowns, last_own = replay_log(rules, names, bytes.fromhex(game.seed), actions)
        places = state.places
    except Exception:  # a broken log must not undo the move that finished the game
        log.exception("could not replay game %s for its stats", game.pk)
        showdowns, last_own, places = [], [0] * len(players), fallback_places
    seats = []
    for p in players:
        place = p.place
        if place is None:
            place = (places[p.seat] if places and places[p.seat] else len(players))
        last_hand = last_own[p.seat] if p.left_early else None
        seats.append(SeatResult(p.seat, p.user_id, p.bot_level, place, p.left_early,
                                seat_facts(rules, showdowns, p.seat, last_hand)))
    return GameFacts(game.pk, game.variant_id, game.finished_at or game.started_at,
                     game.rated, seats)


# -- adding a game to the aggregates -------------------------------------------------------------


class Ledger:
    """PlayerStats rows in memory, keyed by (user id, variant id or None)."""

    def __init__(self, rows=()):
        self.rows: dict[tuple[int, int | None], PlayerStats] = {
            (r.user_id, r.variant_id): r for r in rows}

    def row(self, user_id: int, variant_id: int | None) -> PlayerStats:
        key = (user_id, variant_id)
        row = self.rows.get(key)
        if row is None:
            row = self.rows[key] = PlayerStats(user_id=user_id, variant_id=variant_id,
                                               place_counts={}, categories={}, best_hand=[])
        return row

    def add(self, game: GameFacts) -> list[PlayerGame]:
        """Count one finished game; return its PlayerGame rows (unsaved)."""
        scopes = (None, game.variant_id)
        results = {}
        for s in game.seats:
            if s.user_id is None:
                continue
            for scope in scopes:
                self._count(self.row(s.user_id, scope), game, s, compare_by_strength=scope
                            is not None)
            f = s.facts
            results[s.seat] = PlayerGame(
                user_id=s.user_id, game_id=game.game_id, variant_id=game.variant_id,
                finished_at=game.finished_at, seat=s.seat, place=s.place,
                players=len(game.seats), left_early=s.left_early, hands=f.hands,
                hands_survived=f.survived, lives_lost=f.lives_lost, stops=f.stops,
                stops_lost=f.stops_lost, rated=game.rated)
        if game.rated and results:
            for scope in scopes:
                self._rate(game, scope, results)
        return list(results.values())

    def _count(self, row: PlayerStats, game: GameFacts, s: SeatResult,
               compare_by_strength: bool) -> None:
        f = s.facts
        row.games += 1
        row.wins += s.place == 1
        row.place_total += s.place
        place = str(s.place)
        row.place_counts[place] = row.place_counts.get(place, 0) + 1
        row.hands += f.hands
        row.hands_survived += f.survived
        row.lives_lost += f.lives_lost
        row.stops += f.stops
        row.stops_lost += f.stops_lost
        row.floats += f.floats
        row.blitzes += f.blitzes
        for category, n in f.categories.items():
            row.categories[category] = row.categories.get(category, 0) + n
        if f.best is not None and self._better(f.best, row, compare_by_strength):
            row.best_hand = f.best.cards
            row.best_hand_description = f.best.description
            row.best_hand_category = f.best.category
            row.best_hand_order, row.best_hand_percentile, row.best_hand_strength = f.best.key
            row.best_hand_game_id = game.game_id
        row.last_played_at = game.finished_at

    @staticmethod
    def _better(best: BestHand, row: PlayerStats, by_strength: bool) -> bool:
        order, percentile, strength = best.key
        if by_strength:  # one variant: one ranking, strengths compare
            return (order, strength) > (row.best_hand_order, row.best_hand_strength)
        return (order, percentile) > (row.best_hand_order, row.best_hand_percentile)

    def _rate(self, game: GameFacts, scope: int | None, results: dict) -> None:
        entrants, rows = [], []
        for s in game.seats:
            if s.user_id is None:
                mu, sigma = bot_rating(s.bot_level)
                entrants.append(Entrant(mu, sigma, s.place, fixed=True))
                rows.append(None)
            else:
                row = self.row(s.user_id, scope)
                entrants.append(Entrant(row.rating_mu, row.rating_sigma, s.place))
                rows.append(row)
        for s, row, (mu, sigma) in zip(game.seats, rows, rate(entrants), strict=True):
            if row is None:
                continue
            before = row.rating
            row.rating_mu, row.rating_sigma = mu, sigma
            row.rating = display_rating(mu, sigma)
            row.rated_games += 1
            result = results[s.seat]
            if scope is None:
                result.rating_before, result.rating_after = before, row.rating
            else:
                result.variant_rating_before, result.variant_rating_after = before, row.rating


# -- the two ways in -----------------------------------------------------------------------------


def record_finished_game(game: Game, state=None) -> None:
    """Count ``game`` (just finished) in its players' stats. Call inside its transaction."""
    players = list(GamePlayer.objects.filter(game=game).order_by("seat"))
    user_ids = sorted({p.user_id for p in players if p.user_id})
    if not user_ids or PlayerGame.objects.filter(game=game).exists():
        return
    actions = list(Action.objects.filter(game=game, seq__gte=1).order_by("seq")
                   .values_list("seat", "payload", "by"))
    facts = game_facts(game, players, actions,
                       fallback_places=state.places if state is not None else None)
    with transaction.atomic():
        PlayerStats.objects.bulk_create(
            [PlayerStats(user_id=u, variant_id=v) for u in user_ids
             for v in (None, game.variant_id)], ignore_conflicts=True)
        rows = list(PlayerStats.objects.select_for_update()
                    .filter(Q(variant__isnull=True) | Q(variant_id=game.variant_id),
                            user_id__in=user_ids).order_by("pk"))
        ledger = Ledger(rows)
        results = ledger.add(facts)
        PlayerStats.objects.bulk_update(rows, STAT_FIELDS)
        PlayerGame.objects.bulk_create(results)


def rating_changes(game: Game) -> dict[int, RatingChange]:
    """Each seat's change of its overall rating in the finished ``game`` (the Stop the Bus
    kind's ``rating_changes``), as :func:`record_finished_game` wrote it: the people of a
    rated game, a leaver too (they are rated at the place they left in); never a bot.
    An unrated game costs no query."""
    if not game.rated:
        return {}
    rows = (PlayerGame.objects.filter(game=game, rated=True, rating_before__isnull=False,
                                      rating_after__isnull=False)
            .values_list("seat", "rating_before", "rating_after"))
    return {seat: RatingChange.shown(before, after) for seat, before, after in rows}


def finished_games():
    """Finished Stop the Bus games in finish order, with what :func:`game_facts` needs
    (Brag games are counted apart: ``stats.brag``)."""
    return (Game.objects.filter(status=Game.Status.FINISHED, variant__game=STOP_THE_BUS.slug)
            .order_by("finished_at", "pk")
            .only("pk", "variant", "rules", "seed", "rated", "finished_at", "started_at")
            .prefetch_related(
                Prefetch("players", queryset=GamePlayer.objects.order_by("seat")),
                Prefetch("actions", queryset=Action.objects.filter(seq__gte=1)
                         .order_by("seq").only("game_id", "seq", "seat", "payload", "by"))))


def rebuild(batch: int = 200, progress=None) -> tuple[int, int]:
    """Recompute every aggregate and rating from the logs. Returns (games, results)."""
    ledger = Ledger()
    counted = written = 0
    with transaction.atomic():
        PlayerGame.objects.all().delete()
        PlayerStats.objects.all().delete()
        pending: list[PlayerGame] = []
        for game in finished_games().iterator(chunk_size=batch):
            players = list(game.players.all())
            if not any(p.user_id for p in players):
                continue
            actions = [(a.seat, a.payload, a.by) for a in game.actions.all()]
            pending.extend(ledger.add(game_facts(game, players, actions)))
            counted += 1
            if len(pending) >= 2000:
                PlayerGame.objects.bulk_create(pending)
                written += len(pending)
                pending = []
            if progress is not None:
                progress(counted)
        PlayerGame.objects.bulk_create(pending)
        written += len(pending)
        PlayerStats.objects.bulk_create(list(ledger.rows.values()), batch_size=1000)
    return counted, written
