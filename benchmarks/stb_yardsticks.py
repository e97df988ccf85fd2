"""Stop the Bus players written outside the bots, to measure them against.

They share no code with ``games/engine/bots.py`` or ``games/engine/montecarlo.py``:
they read only the engine's public face -- the house rules, the seat view (with
its legal actions) and ``evaluate_hand`` -- as a player writing their own bot
against the product would.

* :class:`UniformRandom` -- any legal action, uniformly.
* :class:`RulePlayer` -- a simple rule of thumb:

  - it stops when its hand beats about four in five of all hands (the threshold
    is counted from the ranking of the rules in play: every one of the 22,100
    hands is evaluated once, and the bar is the weakest hand that beats at least
    80 % of them);
  - it keeps a prial, a run (or running flush) or a thirty-one: it never breaks one
    (it stops with it, or passes, or, with nothing else allowed, gives the card that
    hurts least);
  - otherwise it takes the exchange that gives the best hand: the best widow swap
    (1 to ``swap_limit`` cards, so Commerce's three-card swaps too), or, with a stock,
    the top discard when it improves the best three of four, else the stock, and then
    discards the card whose loss leaves the best hand (with thirty-one in play, ties
    go to the hand with the most points in one suit, the way to thirty-one);
  - in the final round it passes when no exchange improves its hand;
  - after six rounds of a hand nobody has stopped, it stops whatever it holds (so
    that two players who never reach the bar still finish a hand);
  - Commerce's dealer, unseen, keeps the dealt hand unless the widow on its own is
    above the bar (then it takes all three).
"""

from __future__ import annotations

import itertools
import random

from games.engine import code, evaluate_hand

STOP_SHARE = 0.8  # the rule player stops with a hand beating this share of all hands
PATIENCE_ROUNDS = 6  # ... or after this many rounds of one hand
KEEP = ("prial", "run", "running_flush", "thirty_one", "tricon", "sequence")
_POINTS = {"A": 11, "K": 10, "Q": 10, "J": 10, "10": 10}


class UniformRandom:
    name = "random"

    def __init__(self, rules, rng: random.Random):
        self.rules = rules
        self.rng = rng

    def choose(self, view):
        return self.rng.choice(view.legal)


_THRESHOLDS: dict = {}


def stop_threshold(rules, share: float = STOP_SHARE) -> int:
    """The strength of the weakest hand that beats at least ``share`` of all 22,100 hands."""
    key = (rules, share)
    if key not in _THRESHOLDS:
        strengths = sorted(evaluate_hand(hand, rules).strength
                           for hand in itertools.combinations(range(52), 3))
        total = len(strengths)
        bar = strengths[-1]
        for i, s in enumerate(strengths):  # i hands are at most as strong; those below s
            if i >= share * total and (i == 0 or strengths[i - 1] < s):
                bar = s
                break
        _THRESHOLDS[key] = bar
    return _THRESHOLDS[key]


def suit_points(cards) -> int:
    """Most points held in one suit (A 11, pictures and tens 10): the way to thirty-one."""
    best = 0
    for suit in "CDHS":
        points = sum(_POINTS.get(code(c)[:-1]) or int(code(c)[:-1])
                     for c in cards if code(c)[-1] == suit)
        best = max(best, points)
    return best


class RulePlayer:
    name = "rule"

    def __init__(self, rules, rng: random.Random):
        self.rules = rules
        self.rng = rng
        self.bar = stop_threshold(rules)
        self._cache: dict = {}

    def value(self, cards):
        key = tuple(sorted(cards))
        found = self._cache.get(key)
        if found is None:
            found = self._cache[key] = evaluate_hand(key, self.rules)
        return found

    def score(self, cards):
        """How the rule player ranks a three-card hand: strength, then suit points."""
        strength = self.value(cards).strength
        return (strength, suit_points(cards)) if self.rules.thirty_one else (strength, 0)

    def choose(self, view):
        legal = view.legal
        kinds = {a.kind for a in legal}
        by_kind: dict = {}
        for a in legal:
            by_kind.setdefault(a.kind, []).append(a)
        if "dealer_swap" in kinds:
            if self.value(view.widow).strength >= self.bar:
                whole = [a for a in legal if len(a.take) == 3]
                if whole:
                    return whole[0]
            return next(a for a in legal if not a.take)
        hand = tuple(view.hand)
        if "discard" in kinds:  # four cards: keep the best three
            return max(by_kind["discard"],
                       key=lambda a: self.score([c for c in hand if c != a.give[0]]))
        current = self.value(hand)
        made = current.category in KEEP
        tired = view.turns >= PATIENCE_ROUNDS * len(view.active)
        if "stop" in kinds and (current.strength >= self.bar or tired):
            return by_kind["stop"][0]
        if "swap" in kinds:
            swaps = [a for a in by_kind["swap"] if not a.stop]
            best = max(swaps, key=lambda a: self.score(
                [c for c in hand if c not in a.give] + list(a.take)))
            after = [c for c in hand if c not in best.give] + list(best.take)
            better = self.score(after) > self.score(hand)
            if not better and "pass" in kinds:
                return by_kind["pass"][0]
            if made and not better and "stop" in kinds:
                return by_kind["stop"][0]
            if "stop" in kinds and self.value(after).strength >= self.bar:
                with_stop = [a for a in by_kind["swap"]
                             if a.stop and a.give == best.give and a.take == best.take]
                if with_stop:
                    return with_stop[0]
            return best
        # stock and discard pile
        if "take_discard" in kinds:
            top = view.discard[-1]
            with_top = max(self.score(c) for c in itertools.combinations((*hand, top), 3))
            if with_top > self.score(hand):
                return by_kind["take_discard"][0]
        if made:
            for kind in ("pass", "stop"):
                if kind in kinds:
                    return by_kind[kind][0]
        if "draw" in kinds:
            return by_kind["draw"][0]
        for kind in ("pass", "take_discard", "stop"):
            if kind in kinds:
                return by_kind[kind][0]
        return legal[0]


YARDSTICKS = {"random": UniformRandom, "rule": RulePlayer}
