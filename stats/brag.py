"""Three Card Brag's stats: the Brag kind's stats recorder, apart from Stop the Bus.

When a Brag game ends, ``games.actions`` sends ``game_finished``; the stats app
hands it to the game kind's recorder (``GameKind.stats_recorder``), which for
Brag is :func:`record_finished_brag_game`. The facts come from replaying the
game's log with the Brag engine (the log is the truth). Per user, overall
(every Brag variant) and per Brag variant:

* **games, wins, places** -- places by chips, as the engine gives them; a
  player who left early keeps the place recorded when they left.
* **net chips** -- chips at the end less the starting chips.
* **biggest pot** -- the most chips taken in one pot, open or closed.
* **hands** -- hands dealt to them; **hands won** -- hands in which they took a pot
  with chips in it.
* **sees won / lost** -- sees they made, and whether their hand won.
* **hands played blind** -- hands in which they bet or saw without having looked.
* **rating** -- a ladder of its own: Brag games never move a Stop the Bus rating.

A player who left early is counted up to the last hand they played themselves.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import Q

from games.engine.brag import BragAction, BragRules, apply, new_game
from games.engine.brag.game import BETTING, OUT
from games.kinds import BRAG
from games.models import Action, Game, GamePlayer

from .models import BragResult, BragStats
from .rating import Entrant, RatingChange, bot_rating, display_rating, rate
from .recording import OWN_ACTION_BY

COUNTED = ("net_chips", "biggest_pot", "hands", "hands_won", "sees_won", "sees_lost",
           "blind_hands")
BRAG_STAT_FIELDS = ["games", "wins", "place_total", "place_counts", *COUNTED, "rating_mu",
                    "rating_sigma", "rating", "rated_games", "last_played_at"]


@dataclass
class BragFacts:
    hands: int = 0
    hands_won: int = 0
    biggest_pot: int = 0
    sees_won: int = 0
    sees_lost: int = 0
    blind_hands: int = 0
    net_chips: int = 0
    chips: int = 0


@dataclass
class BragSeat:
    seat: int
    user_id: int | None
    bot_level: str
    place: int
    left_early: bool
    facts: BragFacts


@dataclass
class BragGameFacts:
    game_id: int
    variant_id: int
    finished_at: object
    rated: bool
    seats: list[BragSeat] = field(default_factory=list)


def replay_brag(rules: BragRules, names, seed: bytes, actions):
    """Replay a Brag log. ``actions``: (seat, payload, by) from seq 1. Returns the final
    state and each seat's facts, a leaver's only up to the last hand they played."""
    state, _ = new_game(rules, names, seed)
    n = len(names)
    per_hand: list[list[BragFacts]] = []  # each hand's facts, to cut a leaver's off
    last_own = [0] * n
    for seat, payload, by in actions:
        if seat is not None and by in OWN_ACTION_BY:
            last_own[seat] = state.hand_no
        before = state.phase
        hand_blind = list(state.blind_bets)
        state, _ = apply(state, BragAction.from_dict(payload))
        if before == BETTING and state.phase != BETTING:
            per_hand.append(_hand_facts(state, hand_blind, n))
    return state, per_hand, last_own


def _hand_facts(state, blind_bets_before, n: int) -> list[BragFacts]:
    settled = state.settlement
    hand = [BragFacts() for _ in range(n)]
    see = settled.get("see")
    for seat in range(n):
        f = hand[seat]
        if state.status[seat] == OUT and not state.put_in[seat]:
            continue  # out before this hand was dealt
        f.hands = 1
        taken = [p["chips"] for p in settled["pots"] if p["winner"] == seat and p["chips"]]
        f.hands_won = 1 if taken else 0
        f.biggest_pot = max(taken, default=0)
        blind = state.blind_bets[seat] > 0 or blind_bets_before[seat] > 0
        if see is not None and see["seer"] == seat:
            f.sees_won, f.sees_lost = (1, 0) if see["seer_won"] else (0, 1)
            blind = blind or see["blind"]
        f.blind_hands = 1 if blind else 0
    return hand


def brag_game_facts(game: Game, players: list[GamePlayer], actions,
                    fallback_places=None) -> BragGameFacts:
    rules = BRAG.rules_from(game.rules)
    names = [p.name for p in players]
    state, per_hand, last_own = replay_brag(rules, names, bytes.fromhex(game.seed), actions)
    places = state.places or fallback_places
    out = BragGameFacts(game.pk, game.variant_id, game.finished_at or game.started_at,
                        game.rated)
    for p in players:
        f = BragFacts(chips=state.chips[p.seat])
        f.net_chips = state.chips[p.seat] - rules.starting_chips
        upto = last_own[p.seat] if p.left_early else len(per_hand)
        for hand in per_hand[:upto]:
            h = hand[p.seat]
            f.hands += h.hands
            f.hands_won += h.hands_won
            f.biggest_pot = max(f.biggest_pot, h.biggest_pot)
            f.sees_won += h.sees_won
            f.sees_lost += h.sees_lost
            f.blind_hands += h.blind_hands
        place = p.place if p.place is not None else (places[p.seat] or len(players))
        out.seats.append(BragSeat(p.seat, p.user_id, p.bot_level, place, p.left_early, f))
    return out


class BragLedger:
    """BragStats rows in memory, keyed by (user id, variant id or None)."""

    def __init__(self, rows=()):
        self.rows = {(r.user_id, r.variant_id): r for r in rows}

    def row(self, user_id: int, variant_id: int | None) -> BragStats:
        key = (user_id, variant_id)
        if key not in self.rows:
            self.rows[key] = BragStats(user_id=user_id, variant_id=variant_id, place_counts={})
        return self.rows[key]

    def add(self, game: BragGameFacts) -> list[BragResult]:
        scopes = (None, game.variant_id)
        results = {}
        for s in game.seats:
            if s.user_id is None:
                continue
            for scope in scopes:
                self._count(self.row(s.user_id, scope), game, s)
            f = s.facts
            results[s.seat] = BragResult(
                user_id=s.user_id, game_id=game.game_id, variant_id=game.variant_id,
                finished_at=game.finished_at, seat=s.seat, place=s.place,
                players=len(game.seats), left_early=s.left_early, chips=f.chips,
                net_chips=f.net_chips, biggest_pot=f.biggest_pot, hands=f.hands,
                hands_won=f.hands_won, sees_won=f.sees_won, sees_lost=f.sees_lost,
                blind_hands=f.blind_hands, rated=game.rated)
        if game.rated and results:
            self._rate(game, None, results)  # the one Brag ladder; variants keep their own
            self._rate(game, game.variant_id, results)
        return list(results.values())

    @staticmethod
    def _count(row: BragStats, game: BragGameFacts, s: BragSeat) -> None:
        f = s.facts
        row.games += 1
        row.wins += s.place == 1
        row.place_total += s.place
        row.place_counts[str(s.place)] = row.place_counts.get(str(s.place), 0) + 1
        row.net_chips += f.net_chips
        row.biggest_pot = max(row.biggest_pot, f.biggest_pot)
        row.hands += f.hands
        row.hands_won += f.hands_won
        row.sees_won += f.sees_won
        row.sees_lost += f.sees_lost
        row.blind_hands += f.blind_hands
        if row.last_played_at is None or game.finished_at > row.last_played_at:
            row.last_played_at = game.finished_at

    def _rate(self, game: BragGameFacts, scope: int | None, results: dict) -> None:
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
            if scope is None:
                results[s.seat].rating_before = before
                results[s.seat].rating_after = row.rating


def _log(game: Game) -> list:
    return list(Action.objects.filter(game=game, seq__gte=1).order_by("seq")
                .values_list("seat", "payload", "by"))


def record_finished_brag_game(game: Game, state=None) -> None:
    """Count the Brag ``game`` (just finished) in its players' Brag stats. Called inside
    the transaction that finished it."""
    players = list(GamePlayer.objects.filter(game=game).order_by("seat"))
    user_ids = sorted({p.user_id for p in players if p.user_id})
    if not user_ids or BragResult.objects.filter(game=game).exists():
        return
    facts = brag_game_facts(game, players, _log(game),
                            fallback_places=state.places if state is not None else None)
    with transaction.atomic():
        BragStats.objects.bulk_create(
            [BragStats(user_id=u, variant_id=v) for u in user_ids
             for v in (None, game.variant_id)], ignore_conflicts=True)
        rows = list(BragStats.objects.select_for_update()
                    .filter(Q(variant__isnull=True) | Q(variant_id=game.variant_id),
                            user_id__in=user_ids).order_by("pk"))
        ledger = BragLedger(rows)
        results = ledger.add(facts)
        BragStats.objects.bulk_update(rows, BRAG_STAT_FIELDS)
        BragResult.objects.bulk_create(results)


def brag_rating_changes(game: Game) -> dict[int, RatingChange]:
    """Each seat's change of its Brag rating in the finished Brag ``game`` (the kind's
    ``rating_changes``), as :func:`record_finished_brag_game` wrote it: the people of a
    rated game, a leaver too; never a bot. An unrated game costs no query."""
    if not game.rated:
        return {}
    rows = (BragResult.objects.filter(game=game, rated=True, rating_before__isnull=False,
                                      rating_after__isnull=False)
            .values_list("seat", "rating_before", "rating_after"))
    return {seat: RatingChange.shown(before, after) for seat, before, after in rows}


def rebuild_brag() -> tuple[int, int]:
    """Recompute every Brag aggregate and rating from the logs. Returns (games, results)."""
    ledger = BragLedger()
    counted = 0
    results: list[BragResult] = []
    with transaction.atomic():
        BragResult.objects.all().delete()
        BragStats.objects.all().delete()
        games = (Game.objects.filter(status=Game.Status.FINISHED, variant__game=BRAG.slug)
                 .order_by("finished_at", "pk"))
        for game in games:
            players = list(game.players.order_by("seat"))
            if not any(p.user_id for p in players):
                continue
            results.extend(ledger.add(brag_game_facts(game, players, _log(game))))
            counted += 1
        BragResult.objects.bulk_create(results)
        BragStats.objects.bulk_create(list(ledger.rows.values()))
    return counted, len(results)
