"""Computer players for Brag. Each one decides from a :class:`~.views.BragSeatView` only,
so a blind bot does not know its cards and no bot knows another's.

* ``random`` (beginner) -- any legal move, uniformly by kind, and a stake
  anywhere in the allowed range.
* ``greedy`` (casual) -- plays blind for its first bets of a hand while they
  are cheap, then looks and follows fixed hand-strength bars: fold a weak
  hand, call with a fair one, raise with a strong one, see with two left.
* ``mc`` (expert) -- estimates its equity by sampling the hands it cannot see
  against the players still in the hand (and those who covered), reading a
  seen opponent's bets as strength: the more seen bets, the better the hands
  sampled for them. Once it has looked it sees, bets (raising with a strong
  hand), covers or folds by the chips it expects to win. While blind it bets
  blind (half price) for up to two bets while a bet costs at most a quarter of
  the pot and a twelfth of its stack, sees another blind player when the see
  costs at most a third of the pot, and otherwise looks.

Bots are plain objects: ``bot.choose(view) -> BragAction``. A look is free and
keeps the turn, so a driver asks a bot again after it looks. Bots keep no game
state between calls, so a server can rebuild them at will (the expert keeps the
equities it sampled, which only saves time).
"""

from __future__ import annotations

import random

from ..cards import PACK
from .game import BET, COVER, FOLD, LOOK, SEE, BragAction, LegalAction
from .rules import BragRules
from .views import BragSeatView

BOT_LEVELS = {
    "random": "Beginner (random)",
    "greedy": "Casual (greedy)",
    "mc": "Expert (Monte-Carlo)",
}


class BragBot:
    level = "bot"

    def __init__(self, rules: BragRules, rng: random.Random | None = None):
        self.rules = rules
        self.ranking = rules.hand_ranking
        self.rng = rng or random.Random()

    def choose(self, view: BragSeatView) -> BragAction:
        raise NotImplementedError

    @staticmethod
    def moves(view: BragSeatView) -> dict[str, LegalAction]:
        return {m[0]: m for m in view.legal}

    @staticmethod
    def stake_for(move: LegalAction, wanted: int) -> int:
        return max(move.min_stake, min(move.max_stake, wanted))


class RandomBragBot(BragBot):
    level = "random"

    def choose(self, view: BragSeatView) -> BragAction:
        move = self.rng.choice(view.legal)
        if move.kind == BET:
            return move.action(self.rng.randint(move.min_stake, move.max_stake))
        return move.action()


class GreedyBragBot(BragBot):
    """Fixed bars on the hand's percentile among all 22,100 hands."""

    level = "greedy"

    def __init__(self, rules, rng=None, blind_bets: int = 2, stay: float = 0.55,
                 raise_at: float = 0.9, see_at: float = 0.75):
        super().__init__(rules, rng)
        self.blind_bets = blind_bets
        self.stay = stay
        self.raise_at = raise_at
        self.see_at = see_at

    def choose(self, view: BragSeatView) -> BragAction:
        moves = self.moves(view)
        seat = view.viewer
        if LOOK in moves:
            bet = moves.get(BET)
            cheap = bet is not None and bet.min_cost * 10 <= view.chips[seat]
            if view.blind_bets[seat] < self.blind_bets and cheap:
                return bet.action()
            return moves[LOOK].action()
        value = self.ranking.evaluate(view.hand)
        p = value.percentile
        # more players still in means a better hand is needed
        bar = self.stay + 0.04 * (len(view.betting) - 2)
        if SEE in moves and (p >= self.see_at or (p >= bar and view.bets[seat] >= 3)):
            return moves[SEE].action()
        if BET in moves:
            bet = moves[BET]
            if p >= self.raise_at:
                return bet.action(self.stake_for(bet, 2 * bet.min_stake))
            if p >= bar:
                return bet.action()
        if COVER in moves and p >= bar:
            return moves[COVER].action()
        return moves[FOLD].action()


class MonteCarloBragBot(BragBot):
    """Decides by the equity it samples against the hands still in play."""

    level = "mc"

    def __init__(self, rules, rng=None, samples: int = 300, tries: int = 6):
        super().__init__(rules, rng)
        self.samples = samples
        self.tries = tries
        self._cache: dict = {}

    def _range_floor(self, view: BragSeatView, seat: int) -> float:
        """How good a hand a player's public behaviour suggests: seen bets narrow it."""
        if not view.seen[seat]:
            return 0.0
        seen_bets = view.bets[seat] - view.blind_bets[seat]
        return 1.0 - 0.72 ** seen_bets if seen_bets else 0.15

    def equity(self, view: BragSeatView, mine=None) -> float:
        """The share of sampled deals ``mine`` wins (a tie counts half); ``None``: blind.

        Each rival's hand is drawn from the cards the bot cannot see, redrawn (up
        to ``tries`` times) while it is worse than what the rival's bets suggest.
        Results are kept per (strength, rivals' floors): card removal is ignored
        there, which keeps an expert decision to microseconds once warm.
        """
        me = view.viewer
        floors = tuple(sorted(self._range_floor(view, s) for s, st in enumerate(view.status)
                              if s != me and st in ("in", "covered")))
        evaluate = self.ranking.evaluate
        key = (None if mine is None else evaluate(mine).strength, floors)
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        unseen = [c for c in PACK if mine is None or c not in mine]
        # with many rivals one pack allows fewer redraws each
        tries = max(1, min(self.tries, (len(unseen) - 3) // (3 * max(len(floors), 1))))
        need = 3 * tries * len(floors) + 3
        sample = self.rng.sample
        total = 0.0
        for _ in range(self.samples):
            deck = sample(unseen, need)
            pos = 0
            if mine is None:
                my = evaluate((deck[0], deck[1], deck[2])).strength
                pos = 3
            else:
                my = key[0]
            best = -1
            for floor in floors:
                for _ in range(tries):
                    value = evaluate((deck[pos], deck[pos + 1], deck[pos + 2]))
                    pos += 3
                    if value.percentile >= floor:
                        break
                best = max(best, value.strength)
            if my > best:
                total += 1.0
            elif my == best:
                total += 0.5
        result = total / self.samples
        if len(self._cache) > 50_000:
            self._cache.clear()
        self._cache[key] = result
        return result

    def choose(self, view: BragSeatView) -> BragAction:
        moves = self.moves(view)
        seat = view.viewer
        chips = view.chips[seat]
        pot = view.middle
        if LOOK in moves:
            bet = moves.get(BET)
            # a blind bet buys the same as a seen one for half: worth it while cheap
            if bet is not None and view.blind_bets[seat] < 2 and bet.min_cost * 4 <= pot \
                    and bet.min_cost * 12 <= chips:
                return bet.action()
            if SEE in moves and not view.seen[moves[SEE].against]:
                # two blind players: a blind see is a coin flip at a discount
                see = moves[SEE]
                if see.min_cost * 3 <= pot:
                    return see.action()
            return moves[LOOK].action()
        e = self.equity(view, view.hand)
        if SEE in moves:
            see = moves[SEE]
            # ties go against the seer: shade the sampled equity a little
            if (e - 0.03) * (pot + see.min_cost) > see.min_cost and e >= 0.58:
                return see.action()
        if BET in moves:
            bet = moves[BET]
            cost = bet.min_cost
            # staying in means paying again later: ask for more than bare pot odds
            if e * (pot + cost) > 1.6 * cost and e >= 0.3:
                if e >= 0.8:
                    return bet.action(self.stake_for(bet, bet.min_stake + max(
                        1, int((bet.max_stake - bet.min_stake) * (e - 0.6)))))
                return bet.action()
        if COVER in moves and e >= 0.3:
            return moves[COVER].action()
        return moves[FOLD].action()


BOT_CLASSES = {"random": RandomBragBot, "greedy": GreedyBragBot, "mc": MonteCarloBragBot}


def make_bot(level: str, rules: BragRules, rng: random.Random | None = None) -> BragBot:
    try:
        cls = BOT_CLASSES[level]
    except KeyError:
        raise ValueError(f"unknown bot level {level!r}; choose from "
                         f"{', '.join(BOT_CLASSES)}") from None
    return cls(rules, rng)
