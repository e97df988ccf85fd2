"""Outside players to measure the Brag bots against (no code shared with games/engine/brag/bots.py).

Each one uses the engine's public API only: a seat's view (``seat_view``), the legal
moves it lists, the rules and their hand ranking. Like a bot, a yardstick is asked
``choose(view)`` on its turn; the arena also hands every player its own view at the
end of each hand (``observe(view)``), which the equity player reads opponents from.

* ``uniform`` -- any legal move, uniformly by kind, a stake anywhere in range.
* ``station`` -- a calling station: looks at once, never folds while it can stay,
  never raises, sees whenever it is one of two.
* ``tight`` -- looks at once, stays only with a pair of eights or better, raises with a
  run or better, sees heads-up with a hand above the median of those it stays with.
* ``equity`` -- Monte-Carlo equity against hand ranges read from the opponents' actions
  in this game, weighed against what staying costs a few rounds ahead; plays blind while
  it is cheap, raises for value, steals from players who fold often, covers only when
  forced.
"""

from __future__ import annotations

import random

from games.engine.brag import BET, COVER, FOLD, LOOK, SEE
from games.engine.cards import CODES, PACK, parse_card


def _by_kind(view):
    return {m.kind: m for m in view.legal}


class Yardstick:
    name = "yardstick"

    def __init__(self, rules, rng=None):
        self.rules = rules
        self.ranking = rules.hand_ranking
        self.rng = rng or random.Random()

    def observe(self, view) -> None:
        """The seat's own view at the end of a hand (phase showdown or over)."""

    def choose(self, view):
        raise NotImplementedError


class UniformPlayer(Yardstick):
    name = "uniform"

    def choose(self, view):
        move = self.rng.choice(view.legal)
        if move.kind == BET:
            return move.action(self.rng.randint(move.min_stake, move.max_stake))
        return move.action()


class CallingStation(Yardstick):
    name = "station"

    def choose(self, view):
        moves = _by_kind(view)
        if LOOK in moves:
            return moves[LOOK].action()
        if SEE in moves:
            return moves[SEE].action()
        for kind in (BET, COVER):
            if kind in moves:
                return moves[kind].action()
        return moves[FOLD].action()


class TightPlayer(Yardstick):
    """Bars set by hand categories: the first pair of eights, the first run."""

    name = "tight"
    _bars: dict = {}

    def __init__(self, rules, rng=None):
        super().__init__(rules, rng)
        key = (rules.threes_high, rules.ace_low_run)
        if key not in self._bars:
            self._bars[key] = self._find_bars()
        self.stay_bar, self.raise_bar, self.see_bar = self._bars[key]

    def _find_bars(self):
        evaluate = self.ranking.evaluate
        values = []
        cards = list(PACK)
        n = len(cards)
        for a in range(n):
            for b in range(a + 1, n):
                for c in range(b + 1, n):
                    values.append(evaluate((cards[a], cards[b], cards[c])))
        by_cat: dict[str, list] = {}
        for v in values:
            by_cat.setdefault(v.category, []).append(v)
        # a pair of eights: the weakest pair hand whose pair is an eight (any kicker)
        eights = [v for v in by_cat["pair"] if _pair_rank(v) == "8"]
        stay = min(v.percentile for v in eights)
        run = min(v.percentile for v in by_cat["run"])
        staying = sorted(v.percentile for v in values if v.percentile >= stay)
        see = staying[len(staying) // 2]
        return stay, run, see

    def choose(self, view):
        moves = _by_kind(view)
        if LOOK in moves:
            return moves[LOOK].action()
        p = self.ranking.evaluate(view.hand).percentile
        if p < self.stay_bar:
            return moves[FOLD].action()
        if SEE in moves and p > self.see_bar:
            return moves[SEE].action()
        if BET in moves:
            bet = moves[BET]
            if p >= self.raise_bar and bet.max_stake > bet.min_stake:
                return bet.action(bet.max_stake if self.rules.betting == "limit"
                                  else min(bet.max_stake, 2 * bet.min_stake))
            return bet.action()
        if COVER in moves:
            return moves[COVER].action()
        return moves[FOLD].action()


def _pair_rank(value) -> str:
    """The rank of a pair hand's pair ("8", "10", "A"), read from its cards."""
    ranks = [CODES[c][:-1] for c in value.cards]
    return next((r for r in ranks if ranks.count(r) == 2), "")


class _Reads:
    """What one opponent has done in this game, counted at the end of each hand."""

    __slots__ = ("hands", "folds", "stays", "blind_bets", "bets", "raises", "shown")

    def __init__(self):
        self.hands = self.folds = self.stays = self.blind_bets = self.bets = self.raises = 0
        self.shown: list[float] = []

    def fold_rate(self) -> float:
        return (self.folds + 1) / (self.hands + 3)

    def stay_rate(self) -> float:
        return (self.stays + 2) / (self.hands + 4)

    def raise_rate(self) -> float:
        return (self.raises + 1) / (self.bets + 4)


class EquityPlayer(Yardstick):
    name = "equity"
    _caches: dict = {}

    def __init__(self, rules, rng=None, samples: int = 120, lookahead: float = 1.5):
        super().__init__(rules, rng)
        self.samples = samples
        self.lookahead = lookahead
        self.reads: dict[int, _Reads] = {}
        self._game = None
        self._last_hand = -1
        self._stakes: dict[int, int] = {}
        # sampled equities depend on the hands and ranges only: shared by every equity
        # player with the same ranking in this process
        self._cache = self._caches.setdefault((rules.threes_high, rules.ace_low_run), {})

    # -- reading opponents ---------------------------------------------------------------

    def _track(self, view):
        game = view.names
        if game != self._game or view.hand_no < self._last_hand:
            self._game = game
            self.reads = {s: _Reads() for s in range(len(view.names))}
            self._stakes = {}
        self._last_hand = view.hand_no

    def observe(self, view):
        self._track(view)
        ranking = self.ranking
        shown = (view.settlement or {}).get("shown", {})
        for seat, read in self.reads.items():
            if seat == view.viewer or view.status[seat] == "out":
                continue
            read.hands += 1
            bets = view.bets[seat]
            read.bets += bets
            read.blind_bets += view.blind_bets[seat]
            if view.status[seat] == "folded":
                read.folds += 1
            elif bets - view.blind_bets[seat] > 0:
                read.stays += 1
            if str(seat) in shown:
                cards = tuple(parse_card(c) for c in shown[str(seat)]["cards"])
                read.shown.append(ranking.evaluate(cards).percentile)

    def _note_raises(self, view):
        """A stake that rose since this seat last acted: the bet after ours raised it."""
        last = self._stakes.get(view.hand_no)
        if last is not None and view.stake > last:
            # the raiser is the seat to our right that bet last: the nearest still betting
            n = len(view.names)
            for step in range(1, n):
                seat = (view.viewer - step) % n
                if view.status[seat] == "in" and view.bets[seat]:
                    self.reads[seat].raises += 1
                    break
        self._stakes = {view.hand_no: view.stake}

    def _floor(self, view, seat) -> float:
        """The weakest hand (percentile) this opponent's play so far in the hand suggests."""
        if not view.seen[seat]:
            return 0.0
        read = self.reads[seat]
        seen_bets = view.bets[seat] - view.blind_bets[seat]
        if seen_bets == 0:
            return 0.0
        stay = min(0.9, max(0.1, read.stay_rate()))
        floor = 1.0 - stay
        # each further seen bet narrows the range, less so for a player who raises a lot
        narrowing = 0.6 + 0.3 * min(1.0, read.raise_rate() * 2)
        floor = 1.0 - (1.0 - floor) * narrowing ** (seen_bets - 1)
        if read.shown:
            # what they showed at sees: keep the range at least near their weakest shown hands
            shown = sorted(read.shown)
            floor = max(floor * 0.7, min(floor, shown[len(shown) // 4]))
        return floor

    # -- equity ----------------------------------------------------------------------------

    def _equity(self, view, hand) -> float:
        me = view.viewer
        # ranges to the nearest 2.5 %: close enough, and the samples are kept for reuse
        floors = tuple(sorted(round(self._floor(view, s) * 40) / 40
                              for s, st in enumerate(view.status)
                              if s != me and st in ("in", "covered")))
        evaluate = self.ranking.evaluate
        mine = None if hand is None else evaluate(hand).strength
        key = (mine, floors)
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        unseen = [c for c in PACK if hand is None or c not in hand]
        sample = self.rng.sample
        wins = 0.0
        per = max(1, min(4, (len(unseen) - 3) // (3 * max(1, len(floors)))))
        for _ in range(self.samples):
            deck = sample(unseen, 3 + 3 * per * len(floors))
            pos = 0
            my = mine
            if my is None:
                my = evaluate((deck[0], deck[1], deck[2])).strength
                pos = 3
            best = -1
            for floor in floors:
                for _ in range(per):
                    v = evaluate((deck[pos], deck[pos + 1], deck[pos + 2]))
                    pos += 3
                    if v.percentile >= floor:
                        break
                if v.strength > best:
                    best = v.strength
            wins += 1.0 if my > best else 0.5 if my == best else 0.0
        e = wins / self.samples
        if len(self._cache) > 200_000:
            self._cache.clear()
        self._cache[key] = e
        return e

    # -- deciding --------------------------------------------------------------------------

    def choose(self, view):
        self._track(view)
        self._note_raises(view)
        moves = _by_kind(view)
        me = view.viewer
        chips = view.chips[me]
        pot = view.middle
        rivals = [s for s, st in enumerate(view.status) if s != me and st == "in"]
        if LOOK in moves:
            bet = moves.get(BET)
            if bet is not None and view.blind_bets[me] < 2 and bet.min_cost * 3 <= pot \
                    and bet.min_cost * 15 <= chips:
                return bet.action()
            see = moves.get(SEE)
            if see is not None and not view.seen[see.against] and see.min_cost * 2 <= pot:
                return see.action()
            return moves[LOOK].action()
        e = self._equity(view, view.hand)
        folders = rivals and all(self.reads[s].fold_rate() > 0.6 for s in rivals)
        bet = moves.get(BET)
        see = moves.get(SEE)
        if see is not None:
            c = see.min_cost
            if e >= 0.8 and bet is not None and view.bets[me] < 4:
                return self._raise(view, bet, e)
            if (e - 0.02) * (pot + c) > c and e >= 0.45:
                return see.action()
        if bet is not None:
            c = bet.min_cost
            ahead = c * (1 + self.lookahead)
            gain = pot + len(rivals) * c * self.lookahead
            if e >= 0.75:
                return self._raise(view, bet, e)
            if folders and view.bets[me] == 0 and pot <= 4 * self.rules.ante * len(view.active) \
                    and self.rng.random() < 0.5:
                return self._raise(view, bet, 0.8)
            if e * (gain + ahead) - ahead > 0:
                return bet.action()
        if COVER in moves and e >= 0.4:
            return moves[COVER].action()
        return moves[FOLD].action()

    def _raise(self, view, bet, e):
        low, high = bet.min_stake, bet.max_stake
        if self.rules.betting == "pot_limit":
            wanted = low + int((view.middle // 2) * min(1.0, e))
        else:
            wanted = low + max(1, int((high - low) * (e - 0.5) * 2))
        return bet.action(max(low, min(high, wanted)))


YARDSTICKS = {
    "uniform": UniformPlayer,
    "station": CallingStation,
    "tight": TightPlayer,
    "equity": EquityPlayer,
}


def make_yardstick(name, rules, rng=None):
    return YARDSTICKS[name](rules, rng)
