"""Computer players for Brag, three levels that play like people. Each one decides from
a :class:`~.views.BragSeatView` only, so a blind bot does not know its cards and no bot
knows another's.

* ``random`` (beginner) -- looks at its cards at once, stays in with too much (any hand
  a little better than the middle), is shy of raising (only with a run or better, and
  by a little), sees when it is one of two with a fair hand. It never makes the moves
  nobody makes: no blind raise at all, so no maximum one with nothing, and no fold
  while it could look for free or cover for nothing.
* ``greedy`` (casual) -- bets blind for a bet or two while that is cheap, then looks;
  folds a weak hand, asks for a better one the more the others bet and raise, raises
  with a good hand, sees with two left once its hand is good or the betting long.
* ``mc`` (expert) -- reads its opponents over the game (:mod:`.opponents`: how often
  each folds, raises, bets blind; the hands they showed at sees) and turns their play
  in this hand into ranges; weighs the equity of its hand (or, blind, of any hand)
  against those ranges with the pot odds of each move: a see or a cover when the pot
  pays for it, a bet when staying pays a few rounds ahead or when the others are
  likely to fold, a raise for value. Plays blind (half price) while that pays, and
  mixes its choices (when to raise, how much, when to steal, how long to stay blind)
  so that no fixed rule reads it.

Bots are plain objects: ``bot.choose(view) -> BragAction``. A look is free and keeps
the turn, so a driver asks a bot again after it looks. A driver that keeps a bot for a
whole game may also hand it its view at the end of each hand (``bot.observe(view)``):
the expert then reads the hands shown at sees. A bot rebuilt for every decision, as
the server does, plays the same way with fresh reads.
"""

from __future__ import annotations

import random

from .game import BET, COVER, FOLD, LOOK, SEE, BragAction, LegalAction
from .opponents import OpponentBook
from .rules import BragRules
from .views import BragSeatView

BOT_LEVELS = {
    "random": "Beginner",
    "greedy": "Casual",
    "mc": "Expert",
}


class BragBot:
    level = "bot"

    def __init__(self, rules: BragRules, rng: random.Random | None = None):
        self.rules = rules
        self.ranking = rules.hand_ranking
        self.rng = rng or random.Random()

    def choose(self, view: BragSeatView) -> BragAction:
        raise NotImplementedError

    def observe(self, view: BragSeatView) -> None:
        """The bot's own view at the end of a hand; a bot that reads nothing ignores it."""

    @staticmethod
    def moves(view: BragSeatView) -> dict[str, LegalAction]:
        return {m[0]: m for m in view.legal}

    @staticmethod
    def stake_for(move: LegalAction, wanted: int) -> int:
        return max(move.min_stake, min(move.max_stake, wanted))

    def strength(self, view: BragSeatView) -> float:
        """The viewer's hand as the share of all 22,100 hands it beats."""
        return self.ranking.evaluate(view.hand).percentile


class RandomBragBot(BragBot):
    """The beginner (its level keeps the name ``random`` of the tables that use it)."""

    level = "random"

    def __init__(self, rules, rng=None, stay: float = 0.1, see_at: float = 0.8,
                 raise_at: float = 0.965):
        super().__init__(rules, rng)
        self.stay = stay
        self.see_at = see_at
        self.raise_at = raise_at

    def choose(self, view: BragSeatView) -> BragAction:
        moves = self.moves(view)
        if LOOK in moves:  # looks early: at once, before any bet
            return moves[LOOK].action()
        seat = view.viewer
        p = self.strength(view)
        bet, see, cover = moves.get(BET), moves.get(SEE), moves.get(COVER)
        # a beginner stays a little longer with a hand they like, whatever the others do
        bar = self.stay + 0.02 * max(0, len(view.betting) - 2)
        # unsure when to see: only with a strong hand, or once the betting has gone on
        if see is not None and (p >= self.see_at or (p >= 0.6 and view.bets[seat] >= 3)):
            return see.action()
        if bet is not None:
            if p >= self.raise_at and self.rng.random() < 0.6:
                # shy: the smallest raise there is, or a little more
                return bet.action(self.stake_for(bet, bet.min_stake + self.rng.randint(1, 2)))
            if p >= bar or bet.min_cost == 0:
                return bet.action()
            # calls too much: now and then stays in with a weak hand when it is cheap
            if bet.min_cost * 6 <= view.middle and self.rng.random() < 0.3:
                return bet.action()
        if cover is not None and (p >= bar or cover.min_cost == 0):
            return cover.action()
        return moves[FOLD].action()


class GreedyBragBot(BragBot):
    """The casual player: hand-strength bars that rise as the others bet and raise."""

    level = "greedy"

    def __init__(self, rules, rng=None, blind_bets: int = 1, stay: float = 0.62,
                 raise_at: float = 0.9, see_at: float = 0.8):
        super().__init__(rules, rng)
        self.blind_bets = blind_bets
        self.stay = stay
        self.raise_at = raise_at
        self.see_at = see_at

    def choose(self, view: BragSeatView) -> BragAction:
        moves = self.moves(view)
        seat = view.viewer
        chips = view.chips[seat]
        others = [s for s in view.betting if s != seat]
        seen_bets = max((view.bets[s] - view.blind_bets[s] for s in others), default=0)
        if LOOK in moves:
            bet = moves.get(BET)
            # looks after a bet or two, at once when a seen player bets against it
            cheap = bet is not None and bet.min_cost * 10 <= chips and seen_bets == 0
            # two at the table: plays blind only now and then
            if cheap and len(view.active) == 2 and not view.blind_bets[seat]:
                cheap = self.rng.random() < 0.5
            if cheap and view.blind_bets[seat] < self.blind_bets:
                # blind, a stake costs half: an even one gets all its worth
                return bet.action(self.stake_for(bet, bet.min_stake + bet.min_stake % 2))
            return moves[LOOK].action()
        p = self.strength(view)
        bet, see, cover = moves.get(BET), moves.get(SEE), moves.get(COVER)
        # more players still in, and every seen bet against it, ask for a better hand
        if len(others) == 1:  # two left: any hand above the middle is worth a bet
            bar = self.stay - 0.17 + 0.06 * min(seen_bets, 3)
        else:
            bar = self.stay + 0.05 * (len(others) - 1) + 0.09 * min(seen_bets, 3)
        if view.stake > 2 * max(1, self.rules.min_bet) and seen_bets:
            bar += 0.1
        bar = min(bar, 0.97)
        raise_at = self.raise_at - 0.08 * (len(others) == 1)
        # a good hand bets on (raising) for a round or two before it sees
        keeps_raising = bet is not None and p >= max(raise_at, bar) and view.bets[seat] < 3
        if see is not None and not keeps_raising and (p >= max(self.see_at, bar + 0.1) or (
                p >= bar and view.bets[seat] >= 2)):
            return see.action()
        # a big pot for a small price: worth a look at the other's hand
        if see is not None and not keeps_raising and p >= 0.5 \
                and see.min_cost * 2 <= view.middle:
            return see.action()
        if bet is not None:
            if p >= max(raise_at, bar) and view.bets[seat] < 4:
                step = self.rules.max_raise if self.rules.betting == "limit" else view.middle
                wanted = bet.min_stake + max(1, step * 3 // 4)
                # but never more than a quarter of its chips on one raise
                wanted = min(wanted, max(bet.min_stake + 1, view.chips[seat] // 4))
                return bet.action(self.stake_for(bet, wanted))
            if p >= bar:
                return bet.action()
        if cover is not None and p >= bar:
            return cover.action()
        return moves[FOLD].action()


def _win_share(p: float, floor: float) -> float:
    """The chance a hand at percentile ``p`` beats one drawn evenly above ``floor``."""
    if p <= floor:
        return 0.0
    if floor >= 1.0:
        return 0.0
    return min(1.0, (p - floor) / (1.0 - floor))


def equity(p: float | None, floors) -> float:
    """The chance of holding the best hand against rivals whose ranges start at ``floors``;
    ``p`` None: a blind hand, any hand alike."""
    if p is not None:
        e = 1.0
        for f in floors:
            e *= _win_share(p, f)
        return e
    total = 0.0
    steps = 40
    for i in range(steps):
        q = (i + 0.5) / steps
        e = 1.0
        for f in floors:
            e *= _win_share(q, f)
        total += e
    return total / steps


class MonteCarloBragBot(BragBot):
    """The expert (its level keeps the name ``mc`` of the tables that use it)."""

    level = "mc"

    # the expert's dials (set from arena runs against the yardsticks)
    raise_low = 0.72  # raise for value from this equity up (plus up to raise_spread)
    raise_spread = 0.08
    ahead_two = 0.6  # rounds of betting still to pay for with two left, and with more
    ahead_more = 1.0
    see_margin = 1.4  # a blind see pays this many times its cost, at least
    mix_fold = 0.25  # how often a thin call is folded instead
    blind_pot = 5  # a blind bet costs at most the pot over this
    blind_even = True  # a blind stake is made even: the same cost, a bigger stake
    steal_at = 0.55  # raise with any hand now and then when all are this likely to fold

    def __init__(self, rules, rng=None):
        super().__init__(rules, rng)
        self.book = OpponentBook()

    def observe(self, view: BragSeatView) -> None:
        self.book.update(view)

    # -- what the others hold ----------------------------------------------------------

    def _floors(self, view, extra_bet: bool = False):
        """Each rival's floor; with ``extra_bet`` as if every rival who has not yet made a
        seen bet this round stays with one."""
        me = view.viewer
        book = self.book
        floors = []
        for s, st in enumerate(view.status):
            if s == me or st not in ("in", "covered"):
                continue
            f = book.floor(view, s)
            if extra_bet and st == "in" and f == 0.0:
                read = book.reads.get(s)
                if read is not None and view.seen[s]:
                    f = 1.0 - min(0.95, max(0.05, read.stay_rate))
            floors.append(f)
        return floors

    def _fold_chance(self, view) -> float:
        """The chance every rival still betting folds to a bet now: only players who have
        not bet seen in this hand fold to a bet (a player who keeps betting does not)."""
        me = view.viewer
        chance = 1.0
        for s in view.betting:
            if s == me:
                continue
            read = self.book.reads.get(s)
            if read is None or view.bets[s] - view.blind_bets[s] > 0:
                return 0.0
            # a blind player folds only once it looks, and may bet blind instead
            chance *= read.fold_rate * (1.0 if view.seen[s] else 1.0 - read.blind_rate)
        return chance

    # -- deciding ------------------------------------------------------------------------

    def choose(self, view: BragSeatView) -> BragAction:
        self.book.update(view)
        moves = self.moves(view)
        if LOOK in moves:
            action = self._blind(view, moves)
            if action is not None:
                return action
            return moves[LOOK].action()
        return self._seen(view, moves)

    def _blind(self, view, moves):
        """A blind bet or see while it pays (half price); None: look."""
        me = view.viewer
        chips = view.chips[me]
        pot = view.middle
        floors = self._floors(view)
        e = equity(None, floors)
        rng = self.rng
        see = moves.get(SEE)
        if see is not None:
            c = see.min_cost
            if (e - 0.02) * (pot + c) > self.see_margin * c and rng.random() < 0.85:
                return see.action()
        bet = moves.get(BET)
        if bet is None:
            return None
        c = bet.min_cost
        if c * 14 > chips:
            return None
        rivals = len(view.betting) - 1
        # the others' range narrows with each seen bet: blind money then buys less
        ev = e * (pot + c * (1 + rivals)) - c
        if ev <= 0:
            return None
        cap = 1 + (rng.random() < 0.6) + (rng.random() < 0.25)
        if view.blind_bets[me] >= cap or c * self.blind_pot > pot:
            return None
        if self._fold_chance(view) > 0.5 and bet.max_stake > bet.min_stake \
                and rng.random() < 0.3:
            # a blind raise leans on players who fold a lot: a small one
            return bet.action(self.stake_for(bet, bet.min_stake + 2))
        if self.blind_even:
            return bet.action(self.stake_for(bet, bet.min_stake + bet.min_stake % 2))
        return bet.action()

    def _seen(self, view, moves):
        me = view.viewer
        pot = view.middle
        rng = self.rng
        p = self.strength(view)
        floors = self._floors(view)
        e = equity(p, floors)
        bet, see, cover = moves.get(BET), moves.get(SEE), moves.get(COVER)
        rivals = len(view.betting) - 1
        my_bets = view.bets[me] - view.blind_bets[me]
        options = [(0.0, moves[FOLD].action())]
        raise_bar = self.raise_low + self.raise_spread * rng.random()
        if see is not None:
            c = see.min_cost
            # ties go against the seer
            options.append(((e - 0.015) * (pot + c) - c, see.action()))
        if bet is not None:
            c = bet.min_cost
            ahead = self.ahead_two if rivals == 1 else self.ahead_more
            e_next = equity(p, self._floors(view, extra_bet=True))
            fold = self._fold_chance(view)
            stay = e_next * (pot + c + rivals * c * (1 + ahead)) - c * (1 + ahead)
            if see is not None:
                # two left and a see open: betting on only delays the see by a round,
                # which pays when the hand is the better one
                stay = options[-1][0] + (2 * e - 1) * c
            ev = fold * pot + (1 - fold) * stay
            action = bet.action()
            if bet.max_stake > bet.min_stake and (
                    (e >= raise_bar and my_bets < 3 + rng.random() * 3)
                    or (fold > self.steal_at and my_bets == 0 and rng.random() < fold)):
                action = self._raise(view, bet, e)
                if e >= raise_bar:
                    ev += 0.1 * pot  # value: the others pay more into a pot we expect to win
            options.append((ev, action))
        if cover is not None:
            c = cover.min_cost
            options.append((e * (pot + c) - c, cover.action()))
        best = max(options, key=lambda o: o[0])
        # a near tie between staying and folding is a coin flip, so no bar reads us
        if best[1].kind != FOLD and best[0] < 0.05 * pot and rng.random() < self.mix_fold:
            return moves[FOLD].action()
        return best[1]

    def _raise(self, view, bet, e):
        rng = self.rng
        low = bet.min_stake
        if self.rules.betting == "pot_limit":
            wanted = low + int(view.middle * (0.25 + 0.5 * rng.random()) * min(1.0, e + 0.2))
        else:
            wanted = low + max(1, int(self.rules.max_raise * (0.4 + 0.6 * rng.random())))
        return bet.action(self.stake_for(bet, wanted))


BeginnerBragBot = RandomBragBot
CasualBragBot = GreedyBragBot
ExpertBragBot = MonteCarloBragBot
BOT_CLASSES = {"random": RandomBragBot, "greedy": GreedyBragBot, "mc": MonteCarloBragBot}


def make_bot(level: str, rules: BragRules, rng: random.Random | None = None) -> BragBot:
    try:
        cls = BOT_CLASSES[level]
    except KeyError:
        raise ValueError(f"unknown bot level {level!r}; choose from "
                         f"{', '.join(BOT_CLASSES)}") from None
    return cls(rules, rng)
