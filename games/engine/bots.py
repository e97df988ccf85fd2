"""Computer players. Each one decides from a :class:`~.views.SeatView` only.

The three levels a table offers (``BOT_LEVELS``; the keys are stored in games):

* ``random`` -- the **beginner** (:class:`BeginnerBot`): plays sensibly, with a
  beginner's mistakes. Its stopping bar moves from turn to turn (a pair of eights is
  enough one time and not the next), and two times in five it reads hands by their
  ranks only, missing the runs and flushes it could make. It never breaks a prial it
  holds or a run or flush it sees in its hand, and never stops with a poor hand while
  a swap would still improve it (unless a hand has dragged on for eight rounds).
* ``greedy`` -- the **casual** player (:class:`CasualBot`): makes the best hand it
  can see, and before stopping reckons its odds: it deals the others' unseen cards
  (around what everybody saw them take; with a stock, the best of what they drew)
  40 times, gives each one more best exchange, and stops when its chance of the worst
  hand is low for the size of the table. With a stock it values a hand by what the
  next card may add, too, and on its last turn after someone stopped it draws rather
  than take a discard that would still leave it the worst hand.
* ``mc`` -- the **expert** (:class:`MonteCarloBot`): for every choice it has, deals
  the cards it cannot see many times (fewer at a bigger table, so that a decision
  stays within about 20 ms of one core), plays the rest of the hand out with greedy
  players, and picks the choice that loses the fewest lives (or, with points or a
  pot, wins most often). With a stock it decides whether to stop, and what to do on
  its last turn after someone stopped, as the casual player does: the greedy
  play-outs stop at a fixed bar and misjudge both.

:class:`RandomBot` (any legal action) and :class:`GreedyBot` (best hand now, stop
above a bar) are kept as simple players: the expert's play-outs use the greedy policy.
Every level stops, when it may, once a hand has lasted eight rounds, so that a hand
always ends.

Bots are plain objects: ``bot.choose(view) -> Action``. They keep no state
between calls, so a server can rebuild them at will. How strong they are is measured
against players written outside them by ``benchmarks/stb_arena.py``.
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
    SWAP,
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
    "random": "Beginner",
    "greedy": "Casual",
    "mc": "Expert",
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



# -- what a seat can reckon about the showdown --------------------------------------


def unseen_cards(view: SeatView) -> list[int]:
    """Every card the viewer cannot see or place: the others' hands and the stock."""
    seen = set(view.hand or ())
    seen.update(view.widow)
    seen.update(view.discard)
    for seat, known in enumerate(view.known):
        if seat != view.viewer:
            seen.update(known)
    return [c for c in range(52) if c not in seen]


def turn_order_after(view: SeatView, seat: int) -> list[int]:
    """The other active seats, in the order they play after ``seat``."""
    active = view.active
    i = active.index(seat)
    return active[i + 1:] + active[:i]


def suit_points(cards) -> int:
    """Most points in one suit (A 11, pictures and tens 10): how near thirty-one a hand is."""
    points = [0, 0, 0, 0]
    for c in cards:
        rank = c >> 2
        points[c & 3] += 11 if rank == 12 else min(rank + 2, 10)
    return max(points)


def showdown_odds(bot, view: SeatView, hand, widow, samples: int) -> float:
    """If the play ended after one more turn for everyone else: the chance that ``hand`` is
    a losing hand (lives: among the worst) or, with points or a pot, a winning one.

    The others' unseen cards are dealt at random around what everybody saw them take
    (with a stock, each keeps the best of as many more cards as rounds played, up to three,
    for what it drew and kept); each of them then makes the best exchange it can: a widow
    swap, or the top discard when it helps, else a card from the stock.
    """
    rng = bot.rng
    evaluate = bot.ranking.evaluate
    me = view.viewer
    mine = evaluate(tuple(hand)).strength
    pool = unseen_cards(view)
    for c in hand:
        if c in pool:
            pool.remove(c)
    others = turn_order_after(view, me)
    lives = view.scoring == "lives"
    widow_mode = view.exchange == "widow"
    limit = bot.rules.swap_limit if widow_mode else 0
    # with a stock, an opponent keeps the best of what it has drawn: about one card a round
    drawn = min(view.turns // max(len(view.active), 1), 3)
    hits = 0
    for _ in range(samples):
        rng.shuffle(pool)
        k = 0
        w = list(widow)
        top = view.discard[-1] if view.discard else None
        level_or_better = 0  # others at least as good as me
        below = 0  # others worse than me
        for seat in others:
            known = view.known[seat]
            need = 3 - len(known)
            if widow_mode or not need or not drawn:
                h = list(known) + pool[k:k + need]
                k += need
            else:  # the best of the cards it has drawn so far
                extra = pool[k:k + need + drawn]
                k += need + drawn
                h = list(max((tuple(known) + combo for combo in
                              itertools.combinations(extra, need)),
                             key=lambda cards: evaluate(cards).strength))
            start = best = evaluate(tuple(h)).strength
            if widow_mode:
                choice = None
                for give in range(3):
                    kept = [h[j] for j in range(3) if j != give]
                    for t in range(3):
                        v = evaluate((kept[0], kept[1], w[t])).strength
                        if v > best:
                            best, choice = v, (give, t)
                if limit == 3:
                    v = evaluate(tuple(w)).strength
                    if v > best:
                        best, choice = v, None
                        h, w = w, h
                if choice is not None:
                    give, t = choice
                    h[give], w[t] = w[t], h[give]
            else:
                if top is not None:
                    _, value = bot.ranking.best_three((*h, top))
                    if value.strength > best:
                        best = value.strength
                        top = None
                if best == start and k < len(pool):
                    _, value = bot.ranking.best_three((*h, pool[k]))
                    k += 1
                    best = max(best, value.strength)
            if best >= mine:
                level_or_better += 1
            else:
                below += 1
        if lives:
            hits += below == 0
        else:
            hits += level_or_better == 0
    return hits / samples


class CasualBot(Bot):
    """The casual player: makes the best hand it can see, and stops when it reckons the
    others, each with one more exchange, are unlikely to leave it the worst hand (the more
    players, the less it needs); a hand that drags on makes it bolder. On its last turn
    after someone stopped, with a stock, it weighs a sure small gain from the discard
    pile against a draw by which more likely keeps it off the worst hand."""

    level = "greedy"
    samples = 40
    risk = 0.15  # stops when the chance of the worst hand is below risk / players ...
    patience = 0.04  # ... plus this for every round the hand has lasted
    hope = 0.25  # with a stock: how much of what the next card may add a hand is worth
    stopper_holds = 0.7  # what a stopper is taken to hold at least (share of hands beaten)

    def rounds(self, view: SeatView) -> float:
        return view.turns / max(len(view.active), 1)

    def wants_to_stop(self, view: SeatView, hand, widow) -> bool:
        n = len(view.active)
        rounds = self.rounds(view)
        if rounds >= TIRED_ROUNDS:
            return True
        value = self.ranking.evaluate(tuple(hand))
        if value.percentile < 0.5 and rounds < 4:
            return False
        odds = showdown_odds(self, view, hand, widow, self.samples)
        if view.scoring == "lives":
            return odds <= self.risk / n + self.patience * rounds
        return odds >= 1.2 / n - self.patience * rounds

    def last_turn(self, view: SeatView, kinds) -> Action | None:
        """With a stock and lives, the last turn after someone stopped: take the discard
        or draw, whichever more likely keeps it off the worst hand. A sure small gain
        that still leaves the worst hand is worth less than a draw that may not.

        It reckons a stopper holds a hand better than ``stopper_holds`` of all hands
        (evenly spread above that), and that each other player ends with about the
        better of two hands (after its own last exchange). ``None`` when both choices
        are alike (then the usual one)."""
        if view.stopper is None or DRAW not in kinds or view.scoring != "lives":
            return None
        evaluate = self.ranking.evaluate
        bar = self.stopper_holds
        hand = view.hand
        rest = len(view.active) - 2  # the others but the stopper

        def chance(cards) -> float:
            p = max(evaluate(c).percentile for c in itertools.combinations(cards, 3))
            by_stopper = 1.0 if p <= bar else (1 - p) / (1 - bar)
            return 1 - by_stopper * (1 - p * p) ** rest
        pool = [c for c in unseen_cards(view) if c not in hand]
        by_draw = sum(chance((*hand, d)) for d in pool) / max(len(pool), 1)
        by_take = chance((*hand, view.discard[-1])) if TAKE_DISCARD in kinds else -1.0
        if by_draw > by_take:
            return draw(view.viewer)
        if by_take > by_draw:
            return take_discard(view.viewer)
        return None

    def score(self, cards):
        strength = self.ranking.evaluate(tuple(cards)).strength
        return (strength, suit_points(cards)) if self.rules.thirty_one else (strength, 0)

    def prospects(self, view: SeatView):
        """With a stock: a three-card hand's worth as its share of hands beaten, plus half
        what one card from the stock would add on average (so a flush or run draw, or a
        pair that may become a prial, counts for something)."""
        evaluate = self.ranking.evaluate
        pool = unseen_cards(view)
        cache: dict = {}

        def worth(cards) -> float:
            key = tuple(sorted(cards))
            found = cache.get(key)
            if found is None:
                now = evaluate(key).percentile
                gain = 0.0
                a, b, c = key
                for d in pool:
                    if d in key:
                        continue
                    best = max(evaluate((a, b, d)).percentile, evaluate((a, c, d)).percentile,
                               evaluate((b, c, d)).percentile)
                    if best > now:
                        gain += best - now
                found = cache[key] = now + self.hope * gain / max(len(pool), 1)
            return found
        return worth

    def choose(self, view: SeatView) -> Action:
        seat = view.viewer
        legal = view.legal
        kinds = {a.kind for a in legal}
        if view.phase == DEALER_SWAP_PHASE:
            return dealer_swap(seat)
        hand = view.hand
        if DISCARD in kinds:
            final = view.stopper is not None
            return discard(seat, best_discard(self.score if final else self.prospects(view),
                                              view))
        can_stop = STOP in kinds
        if can_stop and self.wants_to_stop(view, hand, view.widow):
            return stop_bus(seat)
        if view.exchange == "widow":
            best = max((a for a in legal if a.kind == SWAP and not a.stop),
                       key=lambda a: self.score(_after(hand, a)))
            after = _after(hand, best)
            if PASS in kinds and self.score(after) <= self.score(hand):
                return pass_turn(seat)
            if can_stop and self.rules.stop_after_swap:
                widow = [c for c in view.widow if c not in best.take] + list(best.give)
                if self.wants_to_stop(view, after, widow):
                    return swap(seat, best.give, best.take, stop=True)
            return best
        last = self.last_turn(view, kinds)
        if last is not None:
            return last
        if TAKE_DISCARD in kinds:
            top = view.discard[-1]
            score = self.score if view.stopper is not None else self.prospects(view)
            with_top = max(score(c) for c in itertools.combinations((*hand, top), 3))
            if with_top > score(hand):
                return take_discard(seat)
        if DRAW in kinds:
            return draw(seat)
        if PASS in kinds:
            return pass_turn(seat)
        return stop_bus(seat)


def _after(hand, action: Action) -> tuple[int, ...]:
    return tuple(c for c in hand if c not in action.give) + tuple(action.take)


def best_discard(score, view: SeatView, keep=()) -> int:
    """The card whose loss leaves the best three by ``score`` (never the discard just
    taken, nor a card in ``keep``)."""
    hand = view.hand
    best_card, best_score = None, None
    # the card just taken from the discard must stay; if every other card is kept too (a
    # prial, and the discard taken beside it), one of them goes after all
    may_go = [c for c in hand if not (view.pending_from_discard and c == view.pending)]
    if all(c in keep for c in may_go):
        keep = ()
    for card in may_go:
        if card in keep:
            continue
        rest = tuple(c for c in hand if c != card)
        value = score(rest)
        if best_score is None or value > best_score:
            best_card, best_score = card, value
    return best_card


COARSE_SEES = ("pair", "high_card", "point")  # what a hand read by its ranks shows rightly
TIRED_ROUNDS = 8  # after this many rounds of one hand any bot stops when it may


class BeginnerBot(Bot):
    """A beginner: plays sensibly but not well. Its stopping bar changes from turn to turn
    (it stops too early one hand and too late the next), and a fair part of the time it
    reads hands by their ranks only, missing the runs and flushes it could make; it never
    breaks a prial it holds, nor stops with a weak hand while it could still improve it."""

    level = "random"
    miss = 0.4  # how often it overlooks runs and flushes it could make

    def coarse(self, cards) -> tuple[int, ...]:
        """Ranks only: prial, then pair, then high cards, as a beginner sees a hand."""
        ranks = sorted((c >> 2 for c in cards), reverse=True)
        if ranks[0] == ranks[2]:
            return (3, ranks[0])
        if ranks[0] == ranks[1] or ranks[1] == ranks[2]:
            pair = ranks[1]
            return (2, pair, ranks[0] + ranks[2] - pair)
        return (1, *ranks)

    def choose(self, view: SeatView) -> Action:
        seat = view.viewer
        legal = view.legal
        kinds = {a.kind for a in legal}
        rng = self.rng
        if view.phase == DEALER_SWAP_PHASE:
            return dealer_swap(seat)
        evaluate = self.ranking.evaluate
        hand = view.hand
        held = evaluate(tuple(hand)) if len(hand) == 3 else None
        # it misses runs and flushes it could make, not the one it holds
        blind = rng.random() < self.miss and (held is None or held.category in COARSE_SEES)
        if blind:
            def score(cards):
                return self.coarse(cards)
        else:
            def score(cards):
                return (evaluate(tuple(cards)).strength,)
        prial = [] if len(hand) < 3 else [c for c in hand if sum(
            1 for d in hand if d >> 2 == c >> 2) >= 3]
        if DISCARD in kinds:
            return discard(seat, best_discard(score, view, keep=prial))
        current = evaluate(tuple(hand))
        rounds = view.turns / max(len(view.active), 1)
        can_stop = STOP in kinds
        if view.exchange == "widow":
            swaps = [a for a in legal if a.kind == SWAP and not a.stop
                     and not any(c in prial for c in a.give)]
            best = max(swaps, key=lambda a: score(_after(hand, a))) if swaps else None
            improves = best is not None and (
                evaluate(_after(hand, best)).strength > current.strength)
        else:
            improves = False  # a draw is a gamble, not a sure improvement
            best = None
        bar = 0.6 + 0.3 * rng.random()
        if can_stop and (prial or current.percentile >= bar
                         or (rounds >= TIRED_ROUNDS and not improves)):
            return stop_bus(seat)
        if view.exchange == "widow":
            if best is None or (PASS in kinds and score(_after(hand, best)) <= score(hand)):
                return pass_turn(seat) if PASS in kinds else stop_bus(seat)
            return best
        if prial:
            return pass_turn(seat) if PASS in kinds else stop_bus(seat)
        if TAKE_DISCARD in kinds:
            top = view.discard[-1]
            with_top = max(score(c) for c in itertools.combinations((*hand, top), 3))
            if with_top > score(hand):
                return take_discard(seat)
        if DRAW in kinds:
            return draw(seat)
        if PASS in kinds:
            return pass_turn(seat)
        return stop_bus(seat)


class MonteCarloBot(Bot):
    """Chooses by sampling the unseen cards and playing each hand out with greedy players.
    With a stock, whether to stop and the last turn after a stop are the casual player's
    reckoning (:meth:`CasualBot.wants_to_stop`, :meth:`CasualBot.last_turn`). Swapping with
    the middle among ``big_table`` players or more, it plays as the casual player: there its
    play-outs (greedy players with a fixed stopping bar) misjudge the others, and it only
    tied the outside rule player at five and six, where the casual player beats it."""

    level = "mc"
    big_table = 5

    def __init__(self, rules, rng=None, samples: int | None = None,
                 rollout_threshold: float = 0.74):
        super().__init__(rules, rng)
        self.fixed_samples = samples
        self.greedy = GreedyBot(rules, self.rng, threshold=rollout_threshold)
        self.casual = CasualBot(rules, self.rng)

    @property
    def samples(self) -> int:
        return self.fixed_samples or 48

    @samples.setter
    def samples(self, value: int) -> None:
        self.fixed_samples = value

    def samples_for(self, view: SeatView) -> int:
        """Fewer deals at a bigger table, where each play-out is longer: the time a
        decision takes stays about the same."""
        if self.fixed_samples:
            return self.fixed_samples
        # swapping with the middle a play-out is dearer (three cards to choose from at
        # every turn): fewer deals keep a decision within its 20 ms
        budget = 192 if view.exchange == "widow" else 256
        return max(24, budget // max(len(view.active), 1))

    def choose(self, view: SeatView) -> Action:
        from .montecarlo import choose_by_sampling

        if (STOP in {a.kind for a in view.legal}
                and view.turns >= TIRED_ROUNDS * max(len(view.active), 1)):
            return stop_bus(view.viewer)
        if view.exchange == "widow" and len(view.active) >= self.big_table:
            return self.casual.choose(view)
        if view.exchange == "stock":
            # with a stock the play-outs' fixed stopping bar is a poor guide to when to
            # stop, and to the last turn: the casual player's reckoning is used for those
            kinds = {a.kind for a in view.legal}
            if STOP in kinds:
                if self.casual.wants_to_stop(view, view.hand, view.widow):
                    return stop_bus(view.viewer)
                return choose_by_sampling(self, view, skip=STOP)
            if view.stopper is not None:
                last = self.casual.last_turn(view, kinds)
                if last is not None:
                    return last
        return choose_by_sampling(self, view)


BOT_CLASSES = {"random": BeginnerBot, "greedy": CasualBot, "mc": MonteCarloBot}


def make_bot(level: str, rules: HouseRules, rng: random.Random | None = None) -> Bot:
    try:
        cls = BOT_CLASSES[level]
    except KeyError:
        raise ValueError(f"unknown bot level {level!r}; choose from "
                         f"{', '.join(BOT_CLASSES)}") from None
    return cls(rules, rng)

