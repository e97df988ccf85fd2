"""Computer players. Each one decides from a :class:`~.views.SeatView` only.

* ``random`` -- any legal action, uniformly.
* ``greedy`` -- makes the best hand it can right now, and stops once its hand
  is better than ``threshold`` of all hands (lowering the bar as a hand drags
  on, so that a hand always ends).
* ``mc`` (Monte-Carlo) -- for every choice it has, deals the cards it cannot
  see at random many times (respecting what it knows: its own hand, the
  middle, the discards, the cards it saw others take), plays the rest of the
  hand out with greedy players, and picks the choice that loses the fewest
  lives (or, with points or a pot, wins most often).

Bots are plain objects: ``bot.choose(view) -> Action``. They keep no state
between calls, so a server can rebuild them at will.
"""

from __future__ import annotations

import itertools
import random

from .game import (
    DEALER_SWAP_PHASE,
    DISCARD,
    DRAW,
    PASS,
    STOP,
    TAKE_DISCARD,
    Action,
    dealer_swap,
    discard,
    draw,
    pass_turn,
    stop_bus,
    swap,
    take_discard,
)
from .rules import HouseRules
from .views import SeatView

BOT_LEVELS = {
    "random": "Beginner (random)",
    "greedy": "Casual (greedy)",
    "mc": "Expert (Monte-Carlo)",
}


class Bot:
    level = "bot"

    def __init__(self, rules: HouseRules, rng: random.Random | None = None):
        self.rules = rules
        self.ranking = rules.hand_ranking
        self.rng = rng or random.Random()

    def choose(self, view: SeatView) -> Action:
        raise NotImplementedError


class RandomBot(Bot):
    level = "random"

    def choose(self, view: SeatView) -> Action:
        return self.rng.choice(view.legal)


def _swap_results(ranking, hand, widow, limit, allow_three=True):
    """Every widow swap as (give, take, value of the new hand)."""
    evaluate = ranking.evaluate
    results = []
    for k in range(1, limit + 1):
        if k == 3 and not allow_three:
            continue
        for give in itertools.combinations(hand, k):
            kept = [c for c in hand if c not in give]
            for take in itertools.combinations(widow, k):
                results.append((give, take, evaluate((*kept, *take))))
    return results


class GreedyBot(Bot):
    level = "greedy"

    def __init__(self, rules, rng=None, threshold: float = 0.74, patience: float = 0.02):
        super().__init__(rules, rng)
        self.threshold = threshold
        self.patience = patience

    def bar(self, view: SeatView) -> float:
        rounds = view.turns / max(len(view.active), 1)
        return self.threshold - self.patience * rounds * len(view.active)

    def choose(self, view: SeatView) -> Action:
        seat = view.viewer
        legal = view.legal
        kinds = {a.kind for a in legal}
        ranking = self.ranking
        if view.phase == DEALER_SWAP_PHASE:
            widow_value = ranking.evaluate(view.widow)
            if widow_value.percentile >= self.threshold:
                return dealer_swap(seat, (0, 1, 2), view.widow)
            return dealer_swap(seat)
        hand = view.hand
        if DISCARD in kinds:
            return discard(seat, self._best_discard(view))
        current = ranking.evaluate(hand[:3]) if len(hand) == 3 else None
        can_stop = STOP in kinds
        if can_stop and current.percentile >= self.bar(view):
            return stop_bus(seat)

        if view.exchange == "widow":
            options = _swap_results(ranking, hand, view.widow, self.rules.swap_limit,
                                    not view.three_swapped)
            give, take, best = max(options, key=lambda o: o[2].strength)
            if PASS in kinds and best.strength <= current.strength:
                return pass_turn(seat)
            stop_too = (self.rules.stop_after_swap and can_stop
                        and best.percentile >= self.bar(view))
            return swap(seat, give, take, stop=stop_too)

        # stock: the known top discard, if it helps, else the unknown stock
        if TAKE_DISCARD in kinds:
            top = view.discard[-1]
            _, with_top = ranking.best_three((*hand, top))
            if with_top.strength > current.strength:
                return take_discard(seat)
        if DRAW in kinds:
            return draw(seat)
        if PASS in kinds:
            return pass_turn(seat)
        return stop_bus(seat)

    def _best_discard(self, view: SeatView) -> int:
        hand = view.hand
        ranking = self.ranking
        best_card, best_strength = None, -1
        for card in hand:
            if view.pending_from_discard and card == view.pending:
                continue
            rest = tuple(c for c in hand if c != card)
            strength = ranking.evaluate(rest).strength
            if strength > best_strength:
                best_card, best_strength = card, strength
        return best_card


class MonteCarloBot(Bot):
    """Chooses by sampling the unseen cards and playing each hand out with greedy players."""

    level = "mc"

    def __init__(self, rules, rng=None, samples: int = 48, rollout_threshold: float = 0.74):
        super().__init__(rules, rng)
        self.samples = samples
        self.greedy = GreedyBot(rules, self.rng, threshold=rollout_threshold)

    def choose(self, view: SeatView) -> Action:
        from .montecarlo import choose_by_sampling

        return choose_by_sampling(self, view)


BOT_CLASSES = {"random": RandomBot, "greedy": GreedyBot, "mc": MonteCarloBot}


def make_bot(level: str, rules: HouseRules, rng: random.Random | None = None) -> Bot:
    try:
        cls = BOT_CLASSES[level]
    except KeyError:
        raise ValueError(f"unknown bot level {level!r}; choose from "
                         f"{', '.join(BOT_CLASSES)}") from None
    return cls(rules, rng)

